"""Words of the Stop & Go terminal game (help, refusal reasons) and its record, kept apart
from the app.

The record is written exactly as ``stoptable simulate stopandgo --records`` writes it (a
``roll`` chance line before each move, then the move), so ``stoptable replay`` reproduces
the game played in the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from rich.markup import escape
from rich.text import Text

from stoptable.core.protocol import JSON
from stoptable.core.records import RECORD_FORMAT, RecordWriter
from stoptable.games.stopandgo import StopGoMap, StopGoState

SEAT_STYLES: Final = ("white on #c0262f", "white on #1f6fc5", "white on #1f8a50",
                      "black on #f2a007", "white on #8443b4", "white on #0f8a98")  # fmt: skip
LIGHT_STYLES: Final = {"red": "bold #ff4040", "green": "bold #30d060", "closed": "bold #ff4040",
                       "no_entry": "bold #ff4040", "major_road_ahead": "bold #ffb000"}  # fmt: skip
LEGEND: Final = Text.assemble(
    "\n\n", (" ◆", "bold #f5c400"), " market   ", ("12", "bold #7fd4ff"), " destination   ",
    ("▶0", SEAT_STYLES[0]), " car and heading\n", (" ─", LIGHT_STYLES["red"]),
    ("─", LIGHT_STYLES["green"]), ("─", LIGHT_STYLES["major_road_ahead"]),
    " lanes into lighted crossroads, in their light's colour\n ", (" 7", "bold white on #b0309a"),
    " where your move 7 ends",
)  # fmt: skip


_ARROWS: Final = {(0, -1): "▲", (0, 1): "▼", (1, 0): "▶", (-1, 0): "◀"}

HELP: Final = """[b]How to play[/b] (you are seat 0, the car [b]0[/b])
  Each turn you throw the die; your moves are listed, the best first, and their
  numbers are drawn on the map where each move ends.
  [b]3[/b]              make move number 3       [b]0[/b]  stand still
  [b]move a b c[/b]     drive this exact path (space ids), e.g. move h12d h12c
  [b]save[/b] \\[path]    save the record (also Ctrl+S)
  [b]help[/b] or [b]?[/b]       this help (also F1)
  [b]quit[/b]           twice to leave (also Ctrl+Q); the record is saved
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


def describe(game_map: StopGoMap, path: Sequence[str]) -> str:
    """A move for the list: where it ends (building name if any) and its route."""
    if len(path) < 2:
        return "stand still"
    end = game_map.index[path[-1]]
    number = game_map.destination_number.get(end)
    where = f"{path[-1]} ({number} {game_map.destination_name[number]})" if number else path[-1]
    return f"to {where}, {len(path) - 1} step{'s' if len(path) > 2 else ''}: {' '.join(path[1:])}"


def status_text(game_map: StopGoMap, names: Sequence[str], view: dict[str, Any]) -> Text:
    """The die, the dial, the active destination and each car: where, tickets, cards."""
    out = Text()
    active = view.get("active")
    positions = game_map.dial_positions
    out.append(f"Die: {view.get('roll') or '-'}   Dial: {view.get('dial')}/{positions}   ")
    out.append(f"cards left: {view.get('deck_size', 0) + (active is not None)}\n")
    if active is not None:
        name = game_map.destination_name[active]
        out.append(f"Destination {active} {name}\n", style="bold black on #ffd43b")
    for seat, car in enumerate(view.get("cars") or []):
        mark = "▶ " if seat == view.get("turn") else "  "
        out.append(mark)
        out.append(f" {seat} ", style=SEAT_STYLES[seat % len(SEAT_STYLES)])
        cards = " ".join(map(str, car.get("collected") or [])) or "-"
        extra = f"  misses {car['missed_turns']}" if car.get("missed_turns") else ""
        out.append(
            f" {names[seat]:<9} at {car.get('pos')!s:<5} tickets {car.get('tickets', 0)}"
            f"  cards {cards}{extra}\n"
        )
    return out


def around(
    drawing: Text, at: tuple[int, int], game_map: StopGoMap, width: int, height: int
) -> Text:
    """The part of a map drawing of ``width`` x ``height`` cells centred on grid point ``at``."""
    x0 = min(c[0] for c in game_map.coords)
    y0 = min(c[1] for c in game_map.coords)
    lines = drawing.split("\n")
    col, row = (at[0] - x0) * 3, at[1] - y0
    top = max(0, min(len(lines) - height, row - height // 2))
    left = max(0, min(len(lines[0]) - width, col - width // 2))
    return Text("\n").join(line[left : left + width] for line in lines[top : top + height])


def heading(game_map: StopGoMap, prev: int | None, pos: int) -> str:
    """The arrow of a car heading from ``prev`` to ``pos`` (``●`` if it has none)."""
    if prev is None:
        return "●"
    (px, py), (x, y) = game_map.coords[prev], game_map.coords[pos]
    return _ARROWS.get((x - px, y - py), "●")
