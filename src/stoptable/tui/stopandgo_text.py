"""Words of the Stop & Go terminal game (help, refusal reasons) and its record, kept apart
from the app.

The record is written exactly as ``stoptable simulate stopandgo --records`` writes it (a
``roll`` chance line before each move, then the move), so ``stoptable replay`` reproduces
the game played in the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

from rich.markup import escape

from stoptable.core.protocol import JSON
from stoptable.core.records import RECORD_FORMAT, RecordWriter
from stoptable.games.stopandgo import StopGoState

HELP: Final = """[b]How to play[/b] (you are seat 0, the car [b]0[/b])
  Each turn you throw the die; your moves are listed, the best first, and their
  numbers are drawn on the map where each move ends.
  [b]3[/b]              make move number 3       [b]0[/b]  stand still
  [b]move a b c[/b]     drive this exact path (space ids), e.g. move h12d h12c
  [b]save[/b] \\[path]    save the record (also Ctrl+S)
  [b]help[/b] or [b]?[/b]       this help (also F1)      [b]quit[/b]  leave (also Ctrl+Q)
Collect the yellow destination first; the most cards wins (G-20)."""


def new_writer(
    state: StopGoState, seed: int, names: Sequence[str], map_source: JSON = None
) -> RecordWriter:
    """A record header for a terminal game: ruleset, options, seats, seed and the map."""
    header: dict[str, JSON] = {
        "format": RECORD_FORMAT,
        "game": "stopandgo",
        "ruleset": state.ruleset.name,
    }
    if state.ruleset.options():
        header["options"] = state.ruleset.options()
    header.update({"seats": state.seats, "seed": seed})
    if map_source is not None:
        header["map"] = map_source
    header["note"] = "terminal game: " + ", ".join(names)
    return RecordWriter(header)


def save(writer: RecordWriter, path: Path) -> str:
    """Write the record; the sentence to show (the error in words if it failed)."""
    try:
        writer.write(path)
    except OSError as exc:
        return f"[red]could not save the record: {exc}[/red]"
    return f"Record saved to [b]{escape(str(path))}[/b] ({len(writer.events)} events)."


REASON_TEXT: Final = {
    "bad_start": "a path starts where your car stands",
    "too_far": "the path is longer than your throw",
    "not_adjacent": "two spaces of the path are not neighbours",
    "passes_destination": "entering the active destination ends the move (G-9)",
    "occupied": "another car stands on the last space (G-8)",
    "u_turn": "no U-turns except on the market (G-10)",
    "compulsory_straight_or_right": "the blue sign orders straight on or right",
    "no_turn": "that turn is forbidden here",
    "closed": "the street is closed",
    "no_entry": "no entry",
    "no_motor_vehicles": "motor cars are prohibited",
    "one_way": "one-way street, against the flow",
    "red": "the light is red",
    "major_road_ahead": "major road ahead: a car waits to cross from left or right",
    "stop": "stop sign: cross it only on the first step of a move",
    "stop_alt": "stop sign: cross it only on the first step of a move",
    "no_waiting": "no waiting: you may drive through but not stop there",
    "not_your_turn": "it is not your turn",
    "game_over": "the game is over",
}


def explain(reasons: Sequence[str]) -> str:
    """The reason codes of a refusal in words."""
    return "; ".join(REASON_TEXT.get(r, r) for r in reasons)
