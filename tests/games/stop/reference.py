"""The straightforward Stop move generator and offer order, kept as the reference that the
engine's table-driven one (:mod:`stoptable.games.stop.legal`) must equal list for list.

It is the first version of ``legal.py``: it walks the sorted distinct cards of the hand,
asks :func:`resolve.matches` of each and builds every action afresh.
"""

from __future__ import annotations

from stoptable.games.stop import resolve
from stoptable.games.stop.actions import (
    Accept,
    CallAchtung,
    CallStop,
    Cancel,
    Draw,
    Interject,
    Pass,
    Play,
    StopAction,
)
from stoptable.games.stop.cards import DRAWX, EXCH, FREE_CHOICE, IDENTICAL, SKIP, Card
from stoptable.games.stop.state import StopState

NONE: frozenset[str] = frozenset()
A = frozenset({"achtung"})
S = frozenset({"stop"})
AS = frozenset({"achtung", "stop"})


def _order(card: Card) -> int:
    return card.order


def _calls(st: StopState, seat: int, left: int) -> frozenset[str]:
    if left == 1:
        return A
    if left == 0:
        for ob in st.obligations:
            if ob.seat == seat and ob.kind == "achtung":
                return AS
        return S
    return NONE


def legal_actions(st: StopState, seat: int) -> list[StopAction]:
    if st.phase in resolve.OVER or not 0 <= seat < st.seats:
        return []
    p = st.pending
    if p is not None and p.kind == "exchange":
        out: list[StopAction] = []
        hand = st.hands[seat]
        if resolve.may_cancel(st, p, seat):
            for card in sorted(set(hand), key=_order):
                if card.rank == 0 and card.colour == p.colour:
                    out.append(Cancel(seat, card, _calls(st, seat, len(hand) - 1)))
        # inside the window: cancels, and the standalone calls the exchange leaves open
        closed = st.copy()
        pairs = list(zip(st.obligations, closed.obligations, strict=True))
        resolve.close_cancel_window(closed)
        kept = {id(o) for o in closed.obligations} if closed.phase == "playing" else set()
        for ob, twin in pairs:
            if ob.seat == seat and id(twin) in kept:
                out.append(CallAchtung(seat) if ob.kind == "achtung" else CallStop(seat))
        return out
    out = []
    hand = st.hands[seat]
    distinct = sorted(set(hand), key=_order)
    size = len(hand)
    if p is not None:
        if seat == p.victim:
            _responses(st, seat, p.kind, p.colour, distinct, size, out)
    elif st.phase == "playing" and seat == st.turn:
        _turn_moves(st, seat, distinct, size, out)
    if st.phase == "playing" and distinct:
        top = st.discard[-1] if st.discard else None
        if (
            top is not None
            and top.is_number
            and (st.rules.interject_on_starter or not st.starter_top)
        ):
            for card in IDENTICAL[top]:
                if card in hand:
                    out.append(Interject(seat, card, _calls(st, seat, size - 1)))
    for ob in st.obligations:
        if ob.seat == seat:
            out.append(CallAchtung(seat) if ob.kind == "achtung" else CallStop(seat))
    return out


def _responses(
    st: StopState,
    seat: int,
    kind: str,
    colour: int,
    distinct: list[Card],
    size: int,
    out: list[StopAction],
) -> None:
    rules = st.rules
    calls = _calls(st, seat, size - 1)
    for card in distinct:
        rank = card.rank
        if (
            (rank == 0 and card.colour == colour)
            or (
                kind == "draw2"
                and rank == 2
                and (rules.two_stacking_any_colour or card.colour == colour)
            )
            or (kind == "skip" and rank == SKIP)
            or (kind == "drawx" and rank == DRAWX and rules.draw_x_stacking)
        ):
            out.append(Play(seat, (card,), calls))
            if rules.free_choice_as_response and FREE_CHOICE in distinct:
                out.append(Play(seat, (FREE_CHOICE, card), _calls(st, seat, size - 2)))
    if kind == "drawx" and rules.draw_x_mode == "reveal_and_play":
        numbers = [c for c in distinct if c.is_number]
        if not numbers:
            out.append(Accept(seat, NONE))
        nine = rules.six_nine_value == "nine"
        spare = len(st.draw) + len(st.discard) + (0 if rules.reshuffle_keep_top else 1)
        for card in numbers:
            left = size - 1 + min(card.draw_count(nine), spare)
            out.append(Accept(seat, _calls(st, seat, left), card))
    else:
        out.append(Accept(seat, NONE))


def _turn_moves(
    st: StopState, seat: int, distinct: list[Card], size: int, out: list[StopAction]
) -> None:
    top = st.discard[-1] if st.discard else None
    calls = _calls(st, seat, size - 1)
    playable = False
    has_free = False
    for card in distinct:
        if card.colour < 0:
            has_free = True
        elif resolve.matches(card, top):
            playable = True
            _add_play(st, seat, (card,), calls, out)
    if has_free:
        pair_calls = _calls(st, seat, size - 2)
        second = st.rules.free_choice_second_effect
        for card in distinct:
            if card.colour >= 0:
                playable = True
                if second:
                    _add_play(st, seat, (FREE_CHOICE, card), pair_calls, out)
                else:
                    out.append(Play(seat, (FREE_CHOICE, card), pair_calls))
    drawn = st.drawn
    if drawn is not None:
        out[:] = [a for a in out if not isinstance(a, Play) or drawn in a.cards]
        out.append(Pass(seat))
        return
    if st.can_draw():
        if st.rules.voluntary_draw or not playable:
            flag = A if size == 0 and st.rules.achtung_trigger == "hand_becomes_one" else NONE
            out.append(Draw(seat, flag))
    elif not playable:
        out.append(Pass(seat))


def _add_play(
    st: StopState,
    seat: int,
    cards: tuple[Card, ...],
    calls: frozenset[str],
    out: list[StopAction],
) -> None:
    if cards[-1].rank != EXCH:
        out.append(Play(seat, cards, calls))
        return
    for mode in sorted(st.rules.exchange_modes):
        if mode == "swap":
            for target in range(st.seats):
                if target != seat:
                    out.append(Play(seat, cards, calls, mode, target))
        else:
            out.append(Play(seat, cards, calls, mode))


def offers(st: StopState) -> list[int]:
    if st.phase in resolve.OVER:
        return []
    n = st.seats
    p = st.pending
    if p is not None and p.kind == "exchange":
        start = p.exchanger + 1
        out = []
        for i in range(n):
            seat = (start + i) % n
            if resolve.may_cancel(st, p, seat) and any(
                c.rank == 0 and c.colour == p.colour for c in st.hands[seat]
            ):
                out.append(seat)
        return out
    if st.phase != "playing" or not st.discard:
        return []
    top = st.discard[-1]
    if not top.is_number or (st.starter_top and not st.rules.interject_on_starter):
        return []
    start = st.last_placer + 1
    out = []
    for i in range(n):
        seat = (start + i) % n
        if any(card in st.hands[seat] for card in IDENTICAL[top]):
            out.append(seat)
    return out
