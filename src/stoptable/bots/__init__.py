"""Bots: each sees only its seat's view and the legal actions, and is seeded."""

from stoptable.bots.base import Bot, BotFactory, bot_names, make_bot, register_bot

__all__ = ["Bot", "BotFactory", "bot_names", "make_bot", "register_bot"]
