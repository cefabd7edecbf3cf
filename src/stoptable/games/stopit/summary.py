"""Stop it! in words: the readable summary of ``stoptable replay FILE`` (records.md §5.5).

A rendering module: the engine never imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from stoptable.core.summary import header, seat, seats


def stopit_kind(card: Any) -> str:
    """A Stop it! card id without its tag: ``blue#7`` -> ``blue``, ``STOP-red#2`` ->
    ``STOP-red``."""
    return str(card).partition("#")[0]


def stopit_hand(hand: Sequence[Any]) -> str:
    """A hand in order as runs of one kind: ``red×3 blue STOP-blue``; a sorted hand shows
    one run per colour (I-8)."""
    runs: list[tuple[str, int]] = []
    for card in hand:
        kind = stopit_kind(card)
        if runs and runs[-1][0] == kind:
            runs[-1] = (kind, runs[-1][1] + 1)
        else:
            runs.append((kind, 1))
    return " ".join(kind if n == 1 else f"{kind}×{n}" for kind, n in runs) or "-"


def stopit_evaluation(ev: Any) -> str:
    """records.md §5.5 ``last_evaluation`` in words."""
    if not isinstance(ev, dict):
        return "none yet"
    colour = ev.get("colour") or "superstop: every colour"
    counts = ev.get("counts") or []
    awarded = ev.get("awarded") or []
    text = (
        f"{seat(ev.get('caller'))} stopped with {stopit_kind(ev.get('card'))} ({colour}); "
        f"cards counted: {', '.join(f'{seat(k)} {n}' for k, n in enumerate(counts))}; "
        f"fewest: {seats(ev.get('minimum'))}; unsorted: {seats(ev.get('unsorted'))}"
    )
    if ev.get("fumbled"):
        text += f"; fumbled: {seats(ev.get('fumbled'))}"
    given = [f"{seat(k)} +{n}" for k, n in enumerate(awarded) if n]
    return text + f"; minus points: {', '.join(given) or 'none'}"


def stopit_summary(output: dict[str, Any]) -> list[RenderableType]:
    """Stop it!: phase and clock, the stacks' tops, hands, held cards, scores, last stop."""
    clock = output.get("clock")
    seconds = f"clock {clock / 1000:.1f} s" if isinstance(clock, (int, float)) else "clock -"
    parts: list[RenderableType] = [header(output, "Stop it!", seconds)]
    status = f"phase {output.get('phase')} · supply {output.get('supply')} minus cards"
    if output.get("go_seat") is not None:
        status += f" · {seat(output.get('go_seat'))} may send Go"
    parts.append(Text(status))
    interrupt = output.get("interrupt")
    if isinstance(interrupt, dict):
        deadline = interrupt.get("deadline")
        until = f"{deadline / 1000:.1f} s" if isinstance(deadline, (int, float)) else "-"
        parts.append(
            Text(
                f"interrupted by {seat(interrupt.get('by'))} with "
                f"{stopit_kind(interrupt.get('card'))}; sort grace until {until}"
            )
        )
    stacks = Table(show_edge=False, pad_edge=False, title="stacks (top card)", title_justify="left")
    row = []
    for number, stack in enumerate(output.get("stacks") or [], start=1):
        stacks.add_column(f"[{number}]")
        top = stopit_kind(stack[0]) if stack else "empty"
        row.append(f"{top} ({len(stack)})")
    stacks.add_row(*row)
    parts.append(stacks)
    table = Table(show_edge=False, pad_edge=False)
    for column in ("seat", "cards", "hand (in order)", "held", "minus", "extra", "score"):
        table.add_column(
            column, justify="right" if column in ("cards", "minus", "extra", "score") else "left"
        )
    held = output.get("held") or []
    minus = output.get("minus_cards") or []
    extra = output.get("extra_points") or []
    scores = output.get("scores") or []
    for k, hand in enumerate(output.get("hands") or []):
        table.add_row(
            seat(k),
            str(len(hand)),
            stopit_hand(hand),
            stopit_kind(held[k]) if k < len(held) and held[k] is not None else "-",
            str(minus[k]) if k < len(minus) else "-",
            str(extra[k]) if k < len(extra) else "-",
            str(scores[k]) if k < len(scores) else "-",
        )
    parts.append(table)
    parts.append(Text(f"last evaluation: {stopit_evaluation(output.get('last_evaluation'))}"))
    removed = output.get("removed") or []
    if removed:
        parts.append(Text("stop cards out: " + ", ".join(stopit_kind(c) for c in removed)))
    if output.get("winners") is not None:
        parts.append(
            Text(f"game over: {seats(output['winners'])} won (fewest minus points)", style="bold")
        )
    return parts


def replay_summary(output: dict[str, Any], state: Any = None) -> list[RenderableType]:
    """The spec's ``summary``: the replay output in words (the JSON alone says it all)."""
    return stopit_summary(output)
