"""Command-line front end of stop: `stoptable play stop` and `stoptable simulate stop`."""

from __future__ import annotations

import typer


def register(play_app: typer.Typer, simulate_app: typer.Typer) -> None:
    """Add this game's subcommands (filled in by the game's issue)."""
