"""Tournaments and statistics: many games between bots, and what they show."""
