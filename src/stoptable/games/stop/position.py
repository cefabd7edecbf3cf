"""Reading a records.md §4.2 ``position`` into a state; RecordError for anything off.

A position does not say who placed the cards on the discard pile, which two things need:
the offer order (S-61) and a late Stop's take-back (S-28). Both assume the last placer is
the seat before the one to act (the exchanger during a cancel window), which is what a
plain play leaves behind.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Final

from stoptable.core.errors import RecordError
from stoptable.games.stop.cards import COLOURS, DECK_COUNTS
from stoptable.games.stop.model import Obligation, Pending

if TYPE_CHECKING:
    from stoptable.games.stop.state import StopState

KEYS: Final = frozenset(
    {
        "hands",
        "discard",
        "draw_pile",
        "turn",
        "dealer",
        "round",
        "pending",
        "obligations",
        "totals",
        "consecutive_passes",
        "phase",
    }
)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(st: StopState, value: Any, what: str) -> int:
    if not _is_int(value) or not 0 <= value < st.seats:
        raise RecordError(f"position: {what} must be a seat 0..{st.seats - 1}")
    return int(value)


def _count(value: Any, what: str, low: int = 0) -> int:
    if not _is_int(value) or value < low:
        raise RecordError(f"position: {what} must be an integer >= {low}")
    return int(value)


def load_position(st: StopState, pos: dict[str, Any]) -> None:
    """Fill ``st`` (a blank state) from ``pos``."""
    from stoptable.games.stop.state import cards_of

    if not isinstance(pos, dict):
        raise RecordError("position must be an object")
    unknown = sorted(set(pos) - KEYS)
    if unknown:
        raise RecordError(f"position: unknown key {unknown[0]!r}")
    for key in ("hands", "discard", "turn"):
        if key not in pos:
            raise RecordError(f"position: {key!r} is required")
    hands = pos["hands"]
    if not isinstance(hands, list) or len(hands) != st.seats:
        raise RecordError(f"position: 'hands' must hold {st.seats} lists")
    st.hands = [cards_of(h, "position hands") for h in hands]
    st.count_held()
    st.discard = cards_of(pos["discard"], "position discard")
    if not st.discard:
        raise RecordError("position: 'discard' needs at least one card")
    if st.discard[-1].is_free:
        raise RecordError("position: the top card cannot be a Free Choice")
    draw = cards_of(pos.get("draw_pile", []), "position draw_pile")
    draw.reverse()
    st.draw = draw
    everything = Counter(st.discard) + Counter(draw)
    for hand in st.hands:
        everything.update(hand)
    if any(n > DECK_COUNTS[card] for card, n in everything.items()):
        raise RecordError("position: the cards are not a sub-multiset of the 112-card deck")
    st.turn = _seat(st, pos["turn"], "'turn'")
    st.dealer = _seat(st, pos.get("dealer", 0), "'dealer'")
    st.round = _count(pos.get("round", 1), "'round'", 1)
    totals = pos.get("totals", [0] * st.seats)
    if not isinstance(totals, list) or len(totals) != st.seats or not all(map(_is_int, totals)):
        raise RecordError(f"position: 'totals' must be {st.seats} integers")
    st.totals = list(totals)
    st.consecutive_passes = _count(pos.get("consecutive_passes", 0), "'consecutive_passes'")
    phase = pos.get("phase", "playing")
    if phase not in ("playing", "closing"):
        raise RecordError("position: 'phase' must be 'playing' or 'closing'")
    st.phase = phase
    st.pending = _pending(st, pos.get("pending"))
    p = st.pending
    if p is None:
        st.last_placer = (st.turn - 1) % st.seats
    elif p.exchanger is not None:
        st.last_placer = p.exchanger
        if st.turn != (p.exchanger + 1) % st.seats:
            raise RecordError("position: 'turn' must be left(exchanger) in a cancel window")
    elif p.victim is not None:
        st.last_placer = (p.victim - 1) % st.seats
        if st.turn != p.victim:
            raise RecordError("position: 'turn' must be the victim of the pending effect")
    if st.phase == "closing" and p is None:
        raise RecordError("position: a closing phase needs a pending effect (S-52)")
    st.starter_top = len(st.discard) == 1
    st.obligations = _obligations(st, pos.get("obligations", []))


def _pending(st: StopState, raw: Any) -> Pending | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise RecordError("position: 'pending' must be an object or null")
    kind = raw.get("kind")
    fields = {
        "draw2": {"kind", "count", "victim", "colour"},
        "skip": {"kind", "count", "victim", "colour"},
        "drawx": {"kind", "victim", "colour"},
        "exchange": {"kind", "exchanger", "mode", "target", "colour"},
    }.get(kind if isinstance(kind, str) else "")
    if fields is None:
        raise RecordError("position: pending 'kind' must be draw2, skip, drawx or exchange")
    unknown = sorted(set(raw) - fields)
    if unknown:
        raise RecordError(f"position: unknown pending key {unknown[0]!r}")
    top = st.discard[-1]
    colour = raw.get("colour", COLOURS[top.colour])
    if colour not in COLOURS:
        raise RecordError("position: pending 'colour' must be R, B, G or Y")
    c = COLOURS.index(colour)
    if kind == "exchange":
        exchanger = _seat(st, raw.get("exchanger"), "pending 'exchanger'")
        mode = raw.get("mode")
        if mode not in st.rules.exchange_modes:
            raise RecordError("position: pending 'mode' is not one of exchange_modes")
        target = raw.get("target")
        if mode == "swap":
            target = _seat(st, target, "pending 'target'")
        elif target is not None:
            raise RecordError("position: only a swap has a target")
        return Pending("exchange", c, exchanger=exchanger, mode=mode, target=target)
    victim = _seat(st, raw.get("victim"), "pending 'victim'")
    if kind == "drawx":
        return Pending("drawx", c, victim)
    count = _count(raw.get("count"), "pending 'count'", 1)
    return Pending("draw2" if kind == "draw2" else "skip", c, victim, count)


def _obligations(st: StopState, raw: Any) -> list[Obligation]:
    if not isinstance(raw, list):
        raise RecordError("position: 'obligations' must be a list")
    out: list[Obligation] = []
    for item in raw:
        if not isinstance(item, dict) or set(item) - {"seat", "kind", "placed"}:
            raise RecordError("position: an obligation is {seat, kind, placed}")
        seat = _seat(st, item.get("seat"), "obligation 'seat'")
        kind = item.get("kind")
        placed = _count(item.get("placed", 0), "obligation 'placed'")
        if st.rules.call_window_cards == 0:
            raise RecordError("position: obligations need call_window_cards > 0")
        if placed >= st.rules.call_window_cards:
            raise RecordError("position: an obligation's 'placed' must be below the window")
        if kind == "achtung":
            if len(st.hands[seat]) != 1:
                raise RecordError("position: an Achtung obligation needs a 1-card hand")
            out.append(Obligation(seat, "achtung", placed))
        elif kind == "late_stop":
            if st.hands[seat]:
                raise RecordError("position: a late Stop window needs an empty hand")
            back = [(st.last_placer, c) for c in st.discard[len(st.discard) - placed :]]
            out.append(Obligation(seat, "late_stop", placed, back))
        else:
            raise RecordError("position: obligation 'kind' must be achtung or late_stop")
        if sum(1 for o in out if o.seat == seat and o.kind == kind) > 1:
            raise RecordError("position: duplicate obligation")
    return out
