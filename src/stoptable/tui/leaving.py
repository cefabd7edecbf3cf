"""Leaving a terminal game: the same two-step quit in every game.

A game in progress asks once more; the second quit saves the record and prints its path in
the terminal after the app closes. If saving fails the game stays open and says why, and a
third quit leaves without the record. The apps only show what this decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text

from stoptable.core.records import RecordWriter


@dataclass(frozen=True, slots=True)
class Leaving:
    """What a quit does: ``exit_message`` set means leave now; otherwise show ``message``."""

    next_step: int
    message: str = ""
    exit_message: Text | None = None
    failed: bool = False


def saved_text(game: str, path: Path) -> Text:
    """Printed in the terminal after leaving, so that the record can be found again."""
    return Text(f"{game}: the record is saved in {path}")


def leave(game: str, quit_step: int, over: bool, writer: RecordWriter, path: Path) -> Leaving:
    """Decide one quit; ``quit_step`` is 0 (first), 1 (asked once) or 2 (saving failed)."""
    if quit_step == 2:
        return Leaving(0, exit_message=Text(f"{game}: left without saving the record."))
    if quit_step == 0 and not over:
        return Leaving(1, f"quit (or Ctrl+Q) again leaves; the record goes to {path}.")
    try:
        writer.write(path)
    except OSError as exc:
        return Leaving(
            2,
            f"could not save the record to {path}: {exc}. save PATH saves it elsewhere; "
            "quit (or Ctrl+Q) again leaves without it.",
            failed=True,
        )
    return Leaving(0, exit_message=saved_text(game, path))
