"""Readable summaries, the parts every game shares: seats, the title line, an error.

``stoptable replay FILE`` (without ``--json``) prints a game's summary (each game's
``summary.py``, named by its spec) built from the replay JSON. These Rich renderables are
data until a front end prints them; nothing here knows a game.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text


def seat(value: Any) -> str:
    """``P2`` for seat 2; ``-`` for none."""
    return f"P{value}" if isinstance(value, int) else "-"


def seats(values: Any) -> str:
    """``P0, P2`` for a list of seats; ``nobody`` for an empty one."""
    if not isinstance(values, list) or not values:
        return "nobody"
    return ", ".join(seat(v) for v in values)


def header(output: dict[str, Any], title: str, *details: str) -> Text:
    """The title line: game, ruleset, seats, details, events applied."""
    text = Text(f"{title} · {output.get('ruleset')} · {output.get('seats')} seats", style="bold")
    for detail in details:
        text.append(f" · {detail}")
    text.append(f" · after {output.get('applied')} events")
    return text


def error_lines(output: dict[str, Any]) -> list[RenderableType]:
    """The replay error (exit 2) in words, if there is one."""
    error = output.get("error")
    if not isinstance(error, dict):
        return []
    return [
        Text(
            f"stopped at line {error.get('line')}: {error.get('reason')} ({error.get('rule')}):"
            f" {error.get('message')}; the state shown is the one before that line",
            style="bold red",
        )
    ]


def _short(value: Any) -> str:
    if isinstance(value, list):
        text = " ".join(map(str, value))
        return text if len(text) < 120 else f"{len(value)} items: {text[:100]} ..."
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return "-" if value is None else str(value)


def generic_summary(output: dict[str, Any]) -> list[RenderableType]:
    """One row per field: for a game without a summary of its own, or a short output
    (``player_count`` errors carry only game, ruleset, seats and applied)."""
    table = Table(title=f"{output.get('game')} · {output.get('ruleset')}", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for key, value in output.items():
        if key not in ("game", "ruleset", "error"):
            table.add_row(key, _short(value))
    return [table]
