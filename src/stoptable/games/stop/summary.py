"""Stop in words: the readable summary of ``stoptable replay FILE`` (without ``--json``).

Built from the replay JSON alone (records.md §4.5), so that what a person reads is exactly
what ``--json`` says. A rendering module, like python-chess's ``svg.py``: the engine never
imports it.
"""

from __future__ import annotations

from typing import Any, Final

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from stoptable.core.summary import header, seat, seats

COLOUR_WORDS: Final = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}
SYMBOL_WORDS: Final = {"Skip": "Skip", "Exch": "Card Exchange", "DrawX": "Draw X", "2": "2"}


def stop_card(code: Any) -> str:
    """A Stop card code in words: ``R4`` -> ``red 4``, ``GExch`` -> ``green Card Exchange``."""
    text = str(code)
    if text == "FC":
        return "Free Choice"
    colour = COLOUR_WORDS.get(text[:1])
    if colour is None:
        return text
    rest = text[1:]
    return f"{colour} {SYMBOL_WORDS.get(rest, rest)}"


def stop_pending(pending: Any) -> str:
    """records.md §4.5 ``pending`` in words."""
    if not isinstance(pending, dict):
        return "nothing"
    kind = pending.get("kind")
    victim = seat(pending.get("victim"))
    colour = COLOUR_WORDS.get(str(pending.get("colour")), "?")
    if kind == "draw2":
        return f"Draw 2 x{pending.get('count')} against {victim} (top colour {colour})"
    if kind == "skip":
        return f"Skip x{pending.get('count')} against {victim} (top colour {colour})"
    if kind == "drawx":
        return f"Draw X against {victim} (top colour {colour})"
    mode = str(pending.get("mode"))
    if mode == "swap":
        mode = f"swap with {seat(pending.get('target'))}"
    return (
        f"Card Exchange by {seat(pending.get('exchanger'))} ({mode}), "
        f"top colour {colour}: a matching 0 may cancel it"
    )


def stop_summary(output: dict[str, Any]) -> list[RenderableType]:
    """Stop: phase, round, dealer, turn, top card, piles, pending, hands and totals."""
    phase = output.get("phase")
    parts: list[RenderableType] = [
        header(
            output, "Stop", f"round {output.get('round')}", f"dealer {seat(output.get('dealer'))}"
        )
    ]
    discard = output.get("discard") or []
    status = f"phase {phase}"
    if output.get("turn") is not None:
        status += f" · to act: {seat(output.get('turn'))}"
    if output.get("next_dealer") is not None:
        status += f" · next dealer: {seat(output.get('next_dealer'))}"
    parts.append(Text(status))
    top = f"top card: {stop_card(discard[-1])} ({discard[-1]})" if discard else "no top card"
    parts.append(
        Text(
            f"{top} · draw pile {len(output.get('draw_pile') or [])} · discard pile {len(discard)}"
        )
    )
    parts.append(Text(f"pending: {stop_pending(output.get('pending'))}"))
    for duty in output.get("obligations") or []:
        parts.append(
            Text(
                f"open call duty: {seat(duty.get('seat'))} {duty.get('kind')}"
                f" ({duty.get('placed')} cards placed since)"
            )
        )
    reveal = output.get("last_reveal")
    if isinstance(reveal, dict):
        parts.append(
            Text(
                f"last Draw X reveal: {seat(reveal.get('seat'))} showed "
                + (" ".join(map(str, reveal.get("hand") or [])) or "no cards")
            )
        )
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("seat")
    table.add_column("cards", justify="right")
    table.add_column("hand")
    round_scores = output.get("round_scores")
    if round_scores is not None:
        table.add_column("round", justify="right")
    table.add_column("total", justify="right")
    totals = output.get("totals") or []
    for k, hand in enumerate(output.get("hands") or []):
        mark = "▶ " if k == output.get("turn") else "  "
        row = [mark + seat(k), str(len(hand)), " ".join(map(str, hand)) or "-"]
        if round_scores is not None:
            row.append(str(round_scores[k]))
        row.append(str(totals[k]) if k < len(totals) else "-")
        table.add_row(*row)
    parts.append(table)
    if output.get("winners") is not None:
        parts.append(
            Text(f"game over: {seats(output['winners'])} won (lowest total)", style="bold")
        )
    return parts


def replay_summary(output: dict[str, Any], state: Any = None) -> list[RenderableType]:
    """The spec's ``summary``: the replay output in words (the JSON alone says it all)."""
    return stop_summary(output)
