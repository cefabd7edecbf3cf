"""Stop & Go in words: the readable summary of ``stoptable replay FILE`` (records.md §6.3),
with the building names of the replayed map.

A rendering module, like ``svg.py``: the engine never imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from stoptable.core.summary import header, seat, seats


def stopandgo_move(move: Any) -> str:
    """records.md §6.3 ``last_move`` in words."""
    if not isinstance(move, dict):
        return "none yet"
    path = move.get("path") or []
    route = (
        " → ".join(map(str, path))
        if len(path) > 1
        else f"stood still at {path[0] if path else '-'}"
    )
    text = f"{seat(move.get('seat'))} threw {move.get('roll')}: {route}"
    if move.get("result") == "violation":
        text += f" (traffic violation: {', '.join(move.get('reasons') or [])}; ticket)"
    return text


def stopandgo_destination(number: Any, names: Mapping[int, str]) -> str:
    """A destination card with its building name: ``13 Swimming Pool`` (the number alone
    if the map has no name for it)."""
    name = names.get(number) if isinstance(number, int) else None
    return f"{number} {name}" if name else str(number)


def stopandgo_summary(
    output: dict[str, Any], names: Mapping[int, str] | None = None
) -> list[RenderableType]:
    """Stop & Go: phase, turn, die and dial, the active destination, cars and scores.

    ``names`` are the building names of the record's map (destination number -> name),
    which the replay JSON does not repeat; without them destinations show as numbers.
    """
    names = names or {}
    parts: list[RenderableType] = [header(output, "Stop & Go", f"dial {output.get('dial')}")]
    status = f"phase {output.get('phase')}"
    if output.get("turn") is not None:
        status += f" · to move: {seat(output.get('turn'))}"
    status += f" · die: {output.get('roll') if output.get('roll') is not None else 'not thrown'}"
    if output.get("still_turns"):
        status += f" · still turns: {output.get('still_turns')} (G-22)"
    parts.append(Text(status))
    deck = output.get("deck") or []
    active = output.get("active")
    if active is None:
        parts.append(Text(f"no active destination · {len(deck)} cards in the deck"))
    else:
        parts.append(
            Text(
                f"active destination: {stopandgo_destination(active, names)}"
                f" at {output.get('active_space')} · {len(deck)} more in the deck"
            )
        )
    table = Table(show_edge=False, pad_edge=False)
    for column in ("seat", "at", "from", "tickets", "misses", "collected", "score"):
        table.add_column(
            column, justify="right" if column in ("tickets", "misses", "score") else "left"
        )
    scores = output.get("scores") or []
    for k, car in enumerate(output.get("cars") or []):
        mark = "▶ " if k == output.get("turn") else "  "
        table.add_row(
            mark + seat(k),
            str(car.get("pos")),
            str(car.get("prev") or "-"),
            str(car.get("tickets")),
            str(car.get("missed_turns")),
            ", ".join(stopandgo_destination(n, names) for n in car.get("collected") or []) or "-",
            str(scores[k]) if k < len(scores) else "-",
        )
    parts.append(table)
    parts.append(Text(f"last move: {stopandgo_move(output.get('last_move'))}"))
    if output.get("winners") is not None:
        why = {"all_collected": "every card collected", "stalled": "the game stalled (G-22)"}
        ending = why.get(str(output.get("termination")))
        parts.append(
            Text(
                f"game over{f' ({ending})' if ending else ''}: {seats(output['winners'])} won",
                style="bold",
            )
        )
    return parts


def destination_names(state: Any) -> dict[int, str]:
    """The building names of a replayed Stop & Go state's map (none for anything else)."""
    game_map = getattr(state, "game_map", None)
    names = getattr(game_map, "destination_name", None)
    return dict(names) if isinstance(names, dict) else {}


def replay_summary(output: dict[str, Any], state: Any) -> list[RenderableType]:
    """The spec's ``summary``: the output in words, with the map's building names."""
    return stopandgo_summary(output, destination_names(state))
