"""Resolution steps shared by the Stop actions (stop.md S-60): placement, call checks and
penalties, the ja window counters, the closing-phase check and the Card Exchange itself.

Everything here mutates; callers have already validated the action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stoptable.games.stop.cards import DRAWX, EXCH, SKIP, Card
from stoptable.games.stop.events import EventRec
from stoptable.games.stop.model import Obligation, Pending, PendingKind
from stoptable.games.stop.views import LOG_LIMIT

if TYPE_CHECKING:
    from stoptable.games.stop.state import StopState

ACHTUNG: Final = "achtung"
STOP: Final = "stop"
OVER: Final = ("round_over", "game_over")


def matches(card: Card, top: Card | None) -> bool:
    """S-12 for a coloured card; with no top card (reshuffle_keep_top=false) all match."""
    if top is None:
        return True
    if card.colour == top.colour:
        return True
    if card.number >= 0:
        return card.number == top.number
    return card.rank == top.rank


def can_play_drawn(st: StopState, seat: int, card: Card) -> bool:
    """play_drawn_card: whether some legal play places the card just drawn (S-14)."""
    hand = st.hands[seat]
    if card.colour < 0:
        return any(c.colour >= 0 for c in hand)
    return matches(card, st.discard[-1] if st.discard else None) or any(c.colour < 0 for c in hand)


def has_legal_play(st: StopState, seat: int) -> bool:
    """A card ``play`` would accept now (records.md §4.6): a match, or FC plus a colour."""
    top = st.discard[-1] if st.discard else None
    has_free = has_colour = False
    for card in st.hands[seat]:
        if card.colour < 0:
            has_free = True
            continue
        has_colour = True
        if matches(card, top):
            return True
    return has_free and has_colour


def may_cancel(st: StopState, p: Pending, seat: int) -> bool:
    """S-39: ``any`` lets every seat cancel; ``affected`` limits a swap to its two seats."""
    if st.rules.exchange_cancel_by == "any" or p.mode != "swap":
        return True
    return seat in (p.exchanger, p.target)


_ATTACKS: dict[tuple[str, int, int, int], Pending] = {}


def attack(kind: PendingKind, colour: int, victim: int, count: int = 0) -> Pending:
    """The pending Draw Two, Skip or Draw X (a shared immutable value: at most a few hundred
    distinct ones exist, and building a Pending costs more than finding it)."""
    key = (kind, colour, victim, count)
    found = _ATTACKS.get(key)
    if found is None:
        found = _ATTACKS[key] = Pending(kind, colour, victim, count)
    return found


_EXCHANGES: dict[tuple[int, int, str | None, int | None, bool], Pending] = {}


def exchange(
    colour: int, exchanger: int, mode: str | None, target: int | None, flagged: bool
) -> Pending:
    """The pending Card Exchange, shared like :func:`attack`'s values (a few hundred at most:
    colour, exchanger, mode, target and the ja flag)."""
    key = (colour, exchanger, mode, target, flagged)
    found = _EXCHANGES.get(key)
    if found is None:
        found = _EXCHANGES[key] = Pending(
            "exchange", colour, exchanger=exchanger, mode=mode, target=target, flagged=flagged
        )
    return found


def effect_of(
    st: StopState,
    s: int,
    card: Card,
    mode: str | None,
    target: int | None,
    flagged: bool = False,
) -> None:
    """The placed card's own effect (S-32, S-36, S-38, S-42) and the next turn (S-13).

    ``flagged``: the placement carried ``achtung``; in ja that call counts at the end of
    the action's full resolution (S-26), which for a Card Exchange is the exchange itself.
    """
    left = (s + 1) % st.seats
    rank = card.rank
    if rank < 2 or 2 < rank < SKIP:
        st.pending = None  # a number card other than 2: no effect
    elif rank == 2:
        st.pending = attack("draw2", card.colour, left, 2)
    elif rank == SKIP:
        st.pending = attack("skip", card.colour, left, 1)
    elif rank == DRAWX:
        st.pending = attack("drawx", card.colour, left)
    elif rank == EXCH:
        st.pending = exchange(card.colour, s, mode, target, flagged)
    else:
        st.pending = None
    st.turn = left


# ------------------------------------------------------------ the exchange


def close_cancel_window(st: StopState) -> list[EventRec]:
    """records.md §4.4 rule 2: perform the exchange (S-41) and its consequences."""
    p = st.pending
    if p is None or p.kind != "exchange":
        return []
    n = st.seats
    hands = st.hands
    e = p.exchanger
    assert e is not None, "an exchange has an exchanger"
    if p.mode == "left":
        st.hands = [hands[(i - 1) % n] for i in range(n)]
        affected = set(range(n))
    elif p.mode == "right":
        st.hands = [hands[(i + 1) % n] for i in range(n)]
        affected = set(range(n))
    else:
        t = p.target if p.target is not None else e
        hands[e], hands[t] = hands[t], hands[e]
        affected = {e, t}
    st.pending = None
    st.turn = (e + 1) % n
    events = [st._event("exchange", e, {"mode": p.mode, "target": p.target})]
    if st.obligations:
        st.obligations = [
            ob
            for ob in st.obligations
            if ob.seat not in affected or (ob.kind == "late_stop" and not st.hands[ob.seat])
        ]
    if st.rules.achtung_trigger == "hand_becomes_one" and st.rules.call_window_cards > 0:
        for seat in sorted(affected):
            if len(st.hands[seat]) == 1 and not (seat == e and p.flagged):
                st.obligations.append(Obligation(seat, "achtung"))
    phase_check(st)
    return events


# -------------------------------------------------------- shared resolution


def take(hand: list[Card], card: Card) -> None:
    """``hand.remove(card)`` by identity (cards are interned): ``list.remove`` calls the
    interpreted ``Card.__eq__`` once for every card before the match, this loop none."""
    i = 0
    for held in hand:
        if held is card:
            del hand[i]
            return
        i += 1  # noqa: SIM113 (an enumerate costs more than this count)
    raise ValueError(f"{card.code} is not in the hand")


def place(
    st: StopState,
    s: int,
    cards: tuple[Card, ...],
    calls: frozenset[str],
    kind: str,
    events: list[EventRec],
) -> None:
    """S-60 step 1: the placement(s)."""
    hand = st.hands[s]
    discard = st.discard
    if len(cards) == 1:
        card = cards[0]
        i = 0  # take(hand, card), written out: one call less on nearly every action
        for held in hand:
            if held is card:
                del hand[i]
                break
            i += 1  # noqa: SIM113 (an enumerate costs more than this count)
        else:
            raise ValueError(f"{card.code} is not in the hand")
        discard.append(card)
        st.held[card.twin] -= 1
    else:
        for card in cards:
            take(hand, card)
            discard.append(card)
            st.held[card.twin] -= 1
    st.last_placer = s
    st.starter_top = False
    st.drawn = None
    st.consecutive_passes = 0
    # st._event written out (a call less on most actions); the public part
    # {"cards": codes, "calls": sorted} is made when the event is read
    rec: EventRec = [kind, s, (cards, calls), None, None]
    log = st.records
    log.append(rec)
    if len(log) > LOG_LIMIT:
        st.trim_log()
    events.append(rec)


def obligation(st: StopState, seat: int, kind: str) -> Obligation | None:
    for ob in st.obligations:
        if ob.seat == seat and ob.kind == kind:
            return ob
    return None


def calls_after_placement(
    st: StopState, s: int, calls: frozenset[str], events: list[EventRec]
) -> bool:
    """S-60 step 2 (S-25 to S-27): True if ``s`` went out with a Stop."""
    h = len(st.hands[s])
    if h > 1 and not st.obligations:
        return False  # nothing to call, nothing open
    rules = st.rules
    flagged = ACHTUNG in calls
    if st.obligations:
        ob = obligation(st, s, "achtung")
        if ob is not None:
            st.obligations.remove(ob)
            if h == 0 and not flagged:
                penalty(st, s, rules.achtung_penalty, ACHTUNG, "S-26", events)
                return False
    if h == 0:
        if STOP in calls:
            return True
        penalty(st, s, rules.missed_stop_penalty, STOP, "S-27", events)
        if not st.hands[s] and rules.call_window_cards > 0:
            st.obligations.append(Obligation(s, "late_stop"))
        return False
    if h == 1 and not flagged:
        if rules.call_window_cards == 0:
            penalty(st, s, rules.achtung_penalty, ACHTUNG, "S-26", events)
        else:
            st.obligations.append(Obligation(s, "achtung"))
    return False


def penalty(
    st: StopState, s: int, count: int, call: str, rule: str, events: list[EventRec]
) -> None:
    if count <= 0:
        return
    got = st.draw_cards(s, count)
    events.append(
        st._event(
            "penalty",
            s,
            {"missed": call, "rule": rule, "count": len(got)},
            {"cards": [c.code for c in got]},
        )
    )
    after_draw(st, s, got, True, events)


def draw_event(st: StopState, s: int, got: list[Card], kind: str) -> EventRec:
    return st._event(kind, s, {"count": len(got)}, {"cards": [c.code for c in got]})


def after_draw(
    st: StopState, s: int, got: list[Card], flagged: bool, events: list[EventRec]
) -> None:
    """Obligations after ``s`` drew: lapses (S-26, S-28) and the ja trigger (S-25, FAQ Q8)."""
    if not got:
        return
    h = len(st.hands[s])
    if st.obligations:
        st.obligations = [
            ob for ob in st.obligations if ob.seat != s or (ob.kind == "achtung" and h == 1)
        ]
    rules = st.rules
    if h == 1 and rules.achtung_trigger == "hand_becomes_one" and not flagged:
        if rules.call_window_cards > 0:
            if obligation(st, s, "achtung") is None:
                st.obligations.append(Obligation(s, "achtung"))
        else:
            penalty(st, s, rules.achtung_penalty, ACHTUNG, "S-26", events)


def advance(
    st: StopState, s: int, cards: tuple[Card, ...], old: list[Obligation], events: list[EventRec]
) -> None:
    """S-60 step 4: the ja windows count placed cards; at the window size they close."""
    if not old:
        return
    window = st.rules.call_window_cards
    for ob in old:
        if not any(o is ob for o in st.obligations):
            continue
        ob.placed += len(cards)
        if ob.kind == "late_stop":
            ob.back.extend((s, c) for c in cards)
        if ob.placed >= window:
            st.obligations.remove(ob)
            if ob.kind == "achtung":
                penalty(st, ob.seat, st.rules.achtung_penalty, ACHTUNG, "S-26", events)


def phase_check(st: StopState) -> None:
    """S-60 step 5: the closing phase ends as soon as no effect is pending (S-52)."""
    if st.phase == "closing" and st.pending is None:
        st.end_round()
