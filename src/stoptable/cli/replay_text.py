"""The readable summary of ``stoptable replay FILE`` (without ``--json``), one per game.

Built from the replay JSON alone (records.md §4.5, §5.5, §6.3), so that what a person reads
is exactly what ``--json`` says, in words: phase, whose turn, the table, the scores, and
what happened last. An unknown game gets one row per field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

COLOUR_WORDS: Final = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}
SYMBOL_WORDS: Final = {"Skip": "Skip", "Exch": "Card Exchange", "DrawX": "Draw X", "2": "2"}


def seat(value: Any) -> str:
    """``P2`` for seat 2; ``-`` for none."""
    return f"P{value}" if isinstance(value, int) else "-"


def seats(values: Any) -> str:
    """``P0, P2`` for a list of seats; ``nobody`` for an empty one."""
    if not isinstance(values, list) or not values:
        return "nobody"
    return ", ".join(seat(v) for v in values)


def _header(output: dict[str, Any], title: str, *details: str) -> Text:
    text = Text(f"{title} · {output.get('ruleset')} · {output.get('seats')} seats", style="bold")
    for detail in details:
        text.append(f" · {detail}")
    text.append(f" · after {output.get('applied')} events")
    return text


def _error(output: dict[str, Any]) -> list[RenderableType]:
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


# ------------------------------------------------------------------------------ Stop


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
        _header(
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


# -------------------------------------------------------------------------- Stop it!


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
    parts: list[RenderableType] = [_header(output, "Stop it!", seconds)]
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


# ------------------------------------------------------------------------- Stop & Go


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
    parts: list[RenderableType] = [_header(output, "Stop & Go", f"dial {output.get('dial')}")]
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


def _stopandgo_names(state: Any) -> dict[int, str]:
    """The building names of a replayed Stop & Go state's map (none for anything else)."""
    game_map = getattr(state, "game_map", None)
    names = getattr(game_map, "destination_name", None)
    return dict(names) if isinstance(names, dict) else {}


# -------------------------------------------------------------------------- any game


def _short(value: Any) -> str:
    if isinstance(value, list):
        text = " ".join(map(str, value))
        return text if len(text) < 120 else f"{len(value)} items: {text[:100]} ..."
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return "-" if value is None else str(value)


def generic_summary(output: dict[str, Any]) -> list[RenderableType]:
    """One row per field: for a game this module does not know, or a short output
    (``player_count`` errors carry only game, ruleset, seats and applied)."""
    table = Table(title=f"{output.get('game')} · {output.get('ruleset')}", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for key, value in output.items():
        if key not in ("game", "ruleset", "error"):
            table.add_row(key, _short(value))
    return [table]


Summary = Callable[[dict[str, Any], Any], list[RenderableType]]
"""``(replay output, replayed state or None) -> parts``: the state gives what the JSON
leaves to the map (Stop & Go building names)."""


def _json_only(render: Callable[[dict[str, Any]], list[RenderableType]]) -> Summary:
    """A summary built from the replay JSON alone, as a :data:`Summary`."""
    return lambda output, _state: render(output)


def _stopandgo(output: dict[str, Any], state: Any) -> list[RenderableType]:
    return stopandgo_summary(output, _stopandgo_names(state))


SUMMARIES: Final[dict[str, tuple[str, Summary]]] = {
    "stop": ("hands", _json_only(stop_summary)),
    "stopit": ("stacks", _json_only(stopit_summary)),
    "stopandgo": ("cars", _stopandgo),
}


def summary(output: dict[str, Any], state: Any = None) -> Group:
    """The readable summary of one replay output, the error (if any) last; ``state`` is
    the replayed state when there is one."""
    known = SUMMARIES.get(str(output.get("game")))
    if known is not None and known[0] in output:
        parts = known[1](output, state)
    else:
        parts = generic_summary(output)
    return Group(*parts, *_error(output))
