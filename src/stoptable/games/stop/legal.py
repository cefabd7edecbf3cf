"""The move generator and the synchronous offer order (S-61).

``legal_actions`` lists each legal move once, with the calls that avoid every penalty:
``achtung`` when the move leaves one card, ``stop`` when it leaves none (plus ``achtung``
when an ja Achtung obligation is open, S-26 ii), ``achtung`` on a ja draw that brings an
empty hand to one card. The same move with other flags is legal too (``apply`` accepts
it; a missing call is then penalised). Standalone ``call achtung`` / ``call stop`` are
listed while their window is open.

While a Card Exchange's cancel window is open a seat may only do what the rules allow
inside the window (S-39, S-40, S-26, S-28): cancel, or make a standalone ja call that
the exchange does not end (:func:`_window_calls`). Its
next-turn actions are listed once the window has closed: before that they would be plays
from a hand the exchange has not handed over yet, another seat's hidden hand (issue 12).
A record may still write the next turn's action straight after the exchange; replay
closes the window first (records.md §4.4), as :meth:`StopState.apply` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stoptable.games.stop import resolve
from stoptable.games.stop.action_cache import CALLSETS, ActionCache
from stoptable.games.stop.actions import (
    Accept,
    CallAchtung,
    CallStop,
    Cancel,
    Play,
    StopAction,
)
from stoptable.games.stop.cards import (
    BY_ORDER,
    COLOURED,
    COMPILED,
    DRAWX,
    FREE_CHOICE,
    IDENTICAL,
    ORDER,
    SKIP,
    Card,
)
from stoptable.games.stop.model import Pending, RuleFlags

if TYPE_CHECKING:
    from stoptable.games.stop.state import StopState

_KEY: Final = ORDER.__getitem__
"""Sort key of interned cards (hands hold only those): canonical order, no Python call."""

MATCHING: Final[dict[Card | None, frozenset[Card]]] = {
    top: frozenset(c for c in COLOURED if resolve.matches(c, top)) for top in (None, *BY_ORDER)
}
"""For each possible top card (None: an empty discard pile), the coloured cards that match it
(S-12), so that a turn's single plays are one set intersection with the hand."""

MATCHING_FC: Final[dict[Card | None, set[Card]]] = {
    top: {*matching, FREE_CHOICE} for top, matching in MATCHING.items()
}
""":data:`MATCHING` with the Free Choice: one intersection with the hand says both what
matches and whether a Free Choice is held (:func:`turn_actions`). Plain sets, never
changed: their intersection is a set the caller may take the Free Choice out of."""

TWINS: Final[dict[Card, frozenset[Card]]] = {card: frozenset(IDENTICAL[card]) for card in BY_ORDER}
""":data:`.cards.IDENTICAL` as sets: ``TWINS[top].isdisjoint(hand)`` walks the hand once,
by hash (a list scan would call ``Card.__eq__`` for every card)."""


TWIN_LIST: Final[dict[Card | None, tuple[Card, ...]]] = {
    None: (),
    **{card: twins for card, twins in IDENTICAL.items()},
}
""":data:`.cards.IDENTICAL` with None (no top card): nothing to interject on."""


ZERO: Final[tuple[frozenset[Card], ...]] = tuple(
    frozenset(c for c in COLOURED if c.rank == 0 and c.colour == colour) for colour in range(4)
)
"""The 0 of each colour, alone in a set (a cancel needs it, S-40): ``isdisjoint`` finds it in
a hand in one C pass, where a generator over the hand ran a Python frame per card."""

MATCH_LIST: Final[list[tuple[Card, ...]]] = [
    tuple(sorted(MATCHING[top], key=_KEY)) for top in (*BY_ORDER, None)
]
""":data:`MATCHING` in canonical order, indexed by the top card's ``order`` (53: no top card),
for the compiled move generator (:func:`_turn_actions_by_order`)."""

IDENTICAL_O: Final[list[tuple[Card, ...]]] = [IDENTICAL[card] for card in BY_ORDER]
""":data:`.cards.IDENTICAL` indexed by ``order``."""

_FC: Final = FREE_CHOICE.order
_NO_TOP: Final = len(BY_ORDER)
_COLOURED_MASK: Final = (1 << _FC) - 1
"""The bits of the 52 coloured cards' orders (FC sorts last)."""


def _order(card: Card) -> int:
    return card.order


def calls_index(st: StopState, seat: int, left: int) -> int:
    """Index in :data:`.action_cache.CALLSETS` of the calls that avoid every penalty when ``seat``
    is left with ``left`` cards: ``achtung`` at one, ``stop`` at none (plus ``achtung`` while
    its ja Achtung obligation is open, S-26 ii)."""
    if left == 1:
        return 1
    if left == 0:
        for ob in st.obligations:
            if ob.seat == seat and ob.kind == "achtung":
                return 3
        return 2
    return 0


def _calls(st: StopState, seat: int, left: int) -> frozenset[str]:
    return CALLSETS[calls_index(st, seat, left)]


def legal_actions(st: StopState, seat: int) -> list[StopAction]:
    """Every action ``seat`` may submit now (see the module docstring)."""
    phase = st.phase
    if phase in resolve.OVER or not 0 <= seat < st.seats:
        return []
    p = st.pending
    hand = st.hands[seat]
    out: list[StopAction] = []
    if p is not None and p.kind == "exchange":
        if resolve.may_cancel(st, p, seat):
            for card in sorted(set(hand), key=_order):
                if card.rank == 0 and card.colour == p.colour:
                    out.append(Cancel(seat, card, _calls(st, seat, len(hand) - 1)))
        if st.obligations:
            _window_calls(st, p, seat, out)
        return out
    if p is None and phase == "playing" and seat == st.turn:
        return turn_actions(st, seat)
    size = len(hand)
    held = set(hand)
    tab = st.cache
    if p is not None and seat == p.victim:
        _responses(st, seat, p.kind, p.colour, held, size, out, tab)
    if phase == "playing" and size:
        discard = st.discard
        if discard:
            top = discard[-1]
            if top.number >= 0 and (st.rules.interject_on_starter or not st.starter_top):
                ci = 0 if size > 2 else calls_index(st, seat, size - 1)
                twins = tab.interject[ci][seat]
                for card in IDENTICAL[top]:
                    if card in held:
                        out.append(twins[card])
    if st.obligations:
        _standalone_calls(st, seat, out)
    return out


def _window_calls(st: StopState, p: Pending, seat: int, out: list[StopAction]) -> None:
    """The standalone calls ``seat`` may make while the cancel window is open.

    ``apply`` closes the window before a call (records.md §4.4), and the exchange ends an
    obligation of a seat whose hand it moves (S-26, S-28: the hand changed), so only the
    obligations that outlive the exchange are listed. What decides that is public: the
    mode, the target and the hand sizes. In the closing phase the exchange ends the round
    (S-52), so no call is left to make.
    """
    if st.phase != "playing":
        return
    n = st.seats
    assert p.exchanger is not None, "an exchange has an exchanger"
    if p.mode == "swap":
        target = p.exchanger if p.target is None else p.target
        moved = seat in (p.exchanger, target)
        source = target if seat == p.exchanger else p.exchanger
    else:
        moved = True
        source = (seat - 1) % n if p.mode == "left" else (seat + 1) % n
    for ob in st.obligations:
        if ob.seat == seat and (not moved or (ob.kind == "late_stop" and not st.hands[source])):
            out.append(CallAchtung(seat) if ob.kind == "achtung" else CallStop(seat))


def _standalone_calls(st: StopState, seat: int, out: list[StopAction]) -> None:
    """The ja standalone calls of ``seat`` (S-26, S-28), open at any moment."""
    for ob in st.obligations:
        if ob.seat == seat:
            out.append(CallAchtung(seat) if ob.kind == "achtung" else CallStop(seat))


def interjections(st: StopState, seat: int) -> list[StopAction]:
    """The interjections among ``legal_actions(st, seat)``, in the same order, computed alone
    (an S-61 interjection offer needs only these). Outside a cancel window."""
    if st.phase != "playing" or not 0 <= seat < st.seats:
        return []
    discard = st.discard
    if not discard:
        return []
    top = discard[-1]
    if top.number < 0 or (st.starter_top and not st.rules.interject_on_starter):
        return []
    hand = st.hands[seat]
    if TWINS[top].isdisjoint(hand):  # one pass over the hand, hashing only
        return []
    held = set(hand)
    size = len(hand)
    ci = 0 if size > 2 else 1 if size == 2 else calls_index(st, seat, size - 1)
    twins = st.cache.interject[ci][seat]
    out: list[StopAction] = []
    for card in IDENTICAL[top]:  # a loop, not a comprehension: a frame less (3.11)
        if card in held:
            out.append(twins[card])
    return out


def interjection_offers(st: StopState) -> list[tuple[int, list[StopAction]]]:
    """Each seat of :func:`offers` with its :func:`interjections`, in the S-61 order, in one
    pass: the tests on the top card made once, not once per offered seat. Outside a cancel
    window only (its offers are cancels). The driver asks these seats in turn."""
    discard = st.discard
    if not discard:
        return []
    top = discard[-1]
    if not st.held[top.twin] or st.phase != "playing" or top.number < 0:
        return []
    if st.starter_top and not st.rules.interject_on_starter:
        return []
    if COMPILED:  # native reads (offers): no set of cards is hashed
        return [(seat, interjections(st, seat)) for seat in offers(st)]
    twins = TWINS[top]
    same = IDENTICAL[top]
    hands = st.hands
    tables = st.cache.interject
    out: list[tuple[int, list[StopAction]]] = []
    for seat in st.cache.after[st.last_placer]:
        hand = hands[seat]
        if twins.isdisjoint(hand):
            continue
        held = set(hand)
        size = len(hand)
        ci = 0 if size > 2 else 1 if size == 2 else calls_index(st, seat, size - 1)
        table = tables[ci][seat]
        listed: list[StopAction] = []
        for card in same:
            if card in held:
                listed.append(table[card])
        out.append((seat, listed))
    return out


_ANSWERS: dict[tuple[str, int, bool, bool], frozenset[Card]] = {}


def answers(kind: str, colour: int, two_any: bool, x_stacking: bool) -> frozenset[Card]:
    """The cards that answer a pending ``kind`` of ``colour`` (S-31, S-33 to S-35, S-42):
    the 0 of its colour, a 2 on a Draw Two (any colour with ``two_any``), a Skip on a Skip,
    a Draw X on a Draw X with ``x_stacking``. One set per case, made on first use (a few
    dozen in all), so a response list is one intersection with the hand."""
    key = (kind, colour, two_any, x_stacking)
    found = _ANSWERS.get(key)
    if found is None:
        found = _ANSWERS[key] = frozenset(
            card
            for card in COLOURED
            if (card.rank == 0 and card.colour == colour)
            or (kind == "draw2" and card.rank == 2 and (two_any or card.colour == colour))
            or (kind == "skip" and card.rank == SKIP)
            or (kind == "drawx" and card.rank == DRAWX and x_stacking)
        )
    return found


def _responses(
    st: StopState,
    seat: int,
    kind: str,
    colour: int,
    held: set[Card],
    size: int,
    out: list[StopAction],
    tab: ActionCache,
) -> None:
    rules = st.rules
    singles = tab.single[0 if size > 2 else calls_index(st, seat, size - 1)][seat]
    pairs = tab.pair_plain[0 if size > 3 else calls_index(st, seat, size - 2)][seat]
    with_free = rules.free_choice_as_response and FREE_CHOICE in held
    fits = answers(kind, colour, rules.two_stacking_any_colour, rules.draw_x_stacking) & held
    for card in sorted(fits, key=_KEY):
        out.append(singles[card][0])
        if with_free:
            out.append(pairs[card])
    if kind == "drawx" and rules.draw_x_mode == "reveal_and_play":
        numbers = sorted((c for c in held if c.number >= 0), key=_KEY)
        if not numbers:
            out.append(tab.accept[seat])
        nine = rules.six_nine_value == "nine"
        # cards drawable after the placement: the pile plus every discard card but the top
        spare = len(st.draw) + len(st.discard) + (0 if rules.reshuffle_keep_top else 1)
        for card in numbers:
            left = size - 1 + min(card.draw_count(nine), spare)
            out.append(Accept(seat, _calls(st, seat, left), card))
    else:
        out.append(tab.accept[seat])


def turn_actions(st: StopState, seat: int) -> list[StopAction]:
    """``legal_actions(st, seat)`` for the seat on turn in the ``playing`` phase with no
    effect pending (nine decisions in ten): its turn moves, then its own interjections and
    standalone calls, in one pass without the general case's tests.

    The driver calls it directly when it knows that case holds."""
    if COMPILED:
        return _turn_actions_by_order(st, seat)
    hand = st.hands[seat]
    size = len(hand)
    tab = st.cache
    out: list[StopAction] = []
    discard = st.discard
    top = discard[-1] if discard else None
    ci = 0 if size > 2 else 1 if size == 2 else calls_index(st, seat, size - 1)
    # One C pass over the hand finds the cards that match the top and a Free Choice: no
    # set of the hand is built unless a Free Choice is held (its pairs need every colour).
    found = MATCHING_FC[top].intersection(hand)
    with_free = FREE_CHOICE in found
    if with_free:
        found.discard(FREE_CHOICE)
    playable = bool(found)
    if playable:
        singles = tab.single[ci][seat]
        if len(found) == 1:
            for card in found:
                out.extend(singles[card])
        else:
            for card in sorted(found, key=_KEY):
                out.extend(singles[card])
    flags = st.flags
    if with_free and size > 1:
        colours = sorted(set(hand), key=_KEY)
        colours.pop()  # FC sorts last
        if colours:
            playable = True
            pair_calls = 0 if size > 3 else calls_index(st, seat, size - 2)
            if st.rules.free_choice_second_effect:
                pairs = tab.pair[pair_calls][seat]
                for card in colours:
                    out.extend(pairs[card])
            else:
                plain = tab.pair_plain[pair_calls][seat]
                for card in colours:
                    out.append(plain[card])
    if st.drawn is None and st.draw and size:  # _draw_or_pass's usual answer, no call
        if flags.voluntary_draw or not playable:
            out.append(tab.draw[seat])
    else:
        _draw_or_pass(st, seat, size, playable, out, tab, flags)
    # interjections on its own turn: a twin of the top matches it, so it is in found; none
    # when no hand holds one (held, nine turns in ten), for a symbol card or no top card
    if found and top is not None and st.held[top.twin]:
        for card in TWIN_LIST[top]:
            if card in found and (not st.starter_top or flags.interject_on_starter):
                out.append(tab.interject[ci][seat][card])
    if st.obligations:
        _standalone_calls(st, seat, out)
    return out


def _turn_actions_by_order(st: StopState, seat: int) -> list[StopAction]:
    """:func:`turn_actions` as the compiled build runs it: the same list, with the hand read
    once into a bit mask of card orders instead of sets of cards.

    Compiled, every card hashed into a set or looked up in a dict goes through the native
    ``Card.__hash__`` slot (about 40 instructions), and building ``set(hand)``, intersecting
    it and sorting the matches cost two thirds of a compiled Stop action's move generator.
    Interpreted the sets are faster (C loops, ``object.__hash__``), so the pure build keeps
    them; tests hold the two equal on many positions in both builds.
    """
    hand = st.hands[seat]
    size = len(hand)
    mask = 0
    for held in hand:
        mask |= 1 << held.order
    tab = st.cache
    out: list[StopAction] = []
    discard = st.discard
    top = discard[-1] if discard else None
    ci = 0 if size > 2 else calls_index(st, seat, size - 1)
    singles = tab.single_o[ci][seat]
    playable = False
    for card in MATCH_LIST[_NO_TOP if top is None else top.order]:
        if mask >> card.order & 1:
            out.extend(singles[card.order])
            playable = True
    flags = st.flags
    coloured = mask & _COLOURED_MASK
    if mask >> _FC & 1 and size > 1 and coloured:
        playable = True
        pair_calls = calls_index(st, seat, size - 2)
        if st.rules.free_choice_second_effect:
            pairs = tab.pair_o[pair_calls][seat]
            for card in COLOURED:
                if coloured >> card.order & 1:
                    out.extend(pairs[card.order])
        else:
            plain = tab.pair_plain_o[pair_calls][seat]
            for card in COLOURED:
                if coloured >> card.order & 1:
                    out.append(plain[card.order])
    _draw_or_pass(st, seat, size, playable, out, tab, flags)
    if (  # interjections on its own turn
        size
        and top is not None
        and top.number >= 0
        and (not st.starter_top or flags.interject_on_starter)
    ):
        twins = tab.interject_o[ci][seat]
        for card in IDENTICAL_O[top.order]:
            if mask >> card.order & 1:
                out.append(twins[card.order])
    if st.obligations:
        _standalone_calls(st, seat, out)
    return out


def _draw_or_pass(
    st: StopState,
    seat: int,
    size: int,
    playable: bool,
    out: list[StopAction],
    tab: ActionCache,
    flags: RuleFlags,
) -> None:
    """The end of both turn generators: after a draw only the drawn card's plays and a
    pass stay; otherwise a draw where one is allowed, or a pass when nothing is (``tab``
    and ``flags``: the state's, which the caller has read already)."""
    drawn = st.drawn
    if drawn is not None:
        out[:] = [a for a in out if not isinstance(a, Play) or drawn in a.cards]
        out.append(tab.passes[seat])
    elif st.draw or len(st.discard) > (1 if flags.reshuffle_keep_top else 0):  # can_draw()
        if flags.voluntary_draw or not playable:
            if size == 0 and flags.achtung_trigger == "hand_becomes_one":
                out.append(tab.draw_a[seat])
            else:
                out.append(tab.draw[seat])
    elif not playable:
        out.append(tab.passes[seat])


def offers(st: StopState) -> list[int]:
    """S-61: who is offered an interjection (or, in a cancel window, a cancel), in order."""
    p = st.pending
    if p is not None and p.kind == "exchange":
        if st.phase in resolve.OVER:
            return []
        n = st.seats
        assert p.exchanger is not None, "an exchange has an exchanger"
        start = p.exchanger + 1
        out = []
        for i in range(n):
            seat = (start + i) % n
            if resolve.may_cancel(st, p, seat) and not ZERO[p.colour].isdisjoint(st.hands[seat]):
                out.append(seat)
        return out
    discard = st.discard
    if not discard:
        return []
    top = discard[-1]
    if not st.held[top.twin]:  # no hand holds a twin of the top: nine times in ten
        return []
    if st.phase != "playing" or top.number < 0:
        return []
    if st.starter_top and not st.rules.interject_on_starter:
        return []
    hands = st.hands
    out = []
    rotation = st.cache.after[st.last_placer]
    if COMPILED:  # native reads: hashing each card costs more compiled (_turn_actions_by_order)
        number = top.number
        colour = top.colour
        for seat in rotation:
            for card in hands[seat]:
                if card.number == number and card.colour == colour:  # card.identical(top)
                    out.append(seat)
                    break
        return out
    twins = TWINS[top]
    for seat in rotation:
        if not twins.isdisjoint(hands[seat]):
            out.append(seat)
    return out
