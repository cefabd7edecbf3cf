"""Command-line front end of Stop & Go: play, simulate, and ``stoptable map``."""

from __future__ import annotations

import typer


def register(play_app: typer.Typer, simulate_app: typer.Typer, map_app: typer.Typer) -> None:
    """Add this game's subcommands (filled in by the game's issue)."""
