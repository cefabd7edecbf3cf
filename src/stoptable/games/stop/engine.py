"""The rules of each Stop action (stop.md §3-§8), in the resolution order of S-60.

Every handler first runs all its checks in the precedence order of records.md §4.6 and
raises :class:`IllegalAction` before touching anything; only then does it mutate. The
mechanics shared with setup (drawing, reshuffling, scoring) live on the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, NoReturn

from stoptable.core.errors import IllegalAction, RecordError
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
from stoptable.games.stop.cards import DRAWX, EXCH, FREE, SKIP, Card, codes
from stoptable.games.stop.events import EventRec
from stoptable.games.stop.model import Obligation, Pending
from stoptable.games.stop.views import LOG_LIMIT

if TYPE_CHECKING:
    from stoptable.games.stop.state import StopState


def _illegal(reason: str, rule: str, message: str) -> NoReturn:
    raise IllegalAction(reason, rule, message)


_NO_OBLIGATIONS: Final[list[Obligation]] = []
"""The (never mutated) obligations snapshot of an action taken while none is open."""


def apply_action(st: StopState, action: StopAction) -> list[EventRec]:
    """Apply one action; an open cancel window first closes unless it is a cancel.

    RecordError (malformed, before anything else, records.md §3) for a swap target that
    is no seat of this table; IllegalAction (the rule) for anything else refused."""
    if type(action) is Play and action.target is not None and not 0 <= action.target < st.seats:
        raise RecordError(f"there is no seat {action.target} to swap with")
    p = st.pending
    if p is not None and p.kind == "exchange" and type(action) is not Cancel:
        snapshot = st.copy()
        events = resolve.close_cancel_window(st)
        try:
            events += apply_action(st, action)  # the window is closed now: no recursion
        except IllegalAction:
            st.restore(snapshot)
            raise
        return events
    if not 0 <= action.seat < st.seats:
        _illegal("not_your_turn", "S-11", f"there is no seat {action.seat}")
    if st.phase in resolve.OVER:
        _illegal("round_over", "S-50", "the round is over")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise TypeError(f"not a Stop action: {action!r}")
    return handler(st, action)


def apply_listed(st: StopState, action: StopAction) -> list[EventRec]:
    """Apply an action that the move generator listed for this very state, unchanged since
    (``legal_actions`` or ``interjections``): the same resolution as :func:`apply_action`
    without its checks, which such an action passes by construction.

    Environments step only actions their mask offered, so checking them again cost a
    tenth of an engine step. Plays, draws, accepts and interjections skip their checks;
    every other action, and anything during a cancel window, takes the checked way.
    An action that was *not* listed may leave the state inconsistent: callers that cannot
    vouch for it use :func:`apply_action`.
    """
    resolver = RESOLVERS.get(type(action))
    p = st.pending
    if resolver is None or (p is not None and p.kind == "exchange"):
        return apply_action(st, action)
    return resolver(st, action)


# ------------------------------------------------------------------- checks


def _check_in_hand(hand: list[Card], cards: tuple[Card, ...]) -> None:
    if len(cards) == 1:
        if cards[0] not in hand:
            _illegal("not_in_hand", "S-58", f"{cards[0].code} is not in the hand")
        return
    for card in cards:
        if hand.count(card) < cards.count(card):
            _illegal("not_in_hand", "S-58", f"{card.code} is not in the hand")


def _turn_checks(st: StopState, seat: int) -> None:
    """The ``closing`` / ``not_your_turn`` part shared by normal-turn actions."""
    p = st.pending
    if p is not None:
        if seat == p.victim:
            _illegal("response_required", "S-35", "respond to the pending effect or accept")
        _illegal("not_your_turn", "S-11", f"seat {p.victim} must respond first")
    if st.phase == "closing":
        _illegal("closing", "S-52", "no normal turn in the closing phase")
    if seat != st.turn:
        _illegal("not_your_turn", "S-11", f"it is seat {st.turn}'s turn")


def _check_response(st: StopState, p: Pending, cards: tuple[Card, ...]) -> None:
    rules = st.rules
    card = cards[-1]
    if (len(cards) == 2 and not rules.free_choice_as_response) or card.is_free:
        _illegal("response_required", "S-35", "a Free Choice cannot answer an effect")
    if card.rank == 0:
        if card.colour != p.colour:
            _illegal("wrong_defence_colour", "S-31", "the defending 0 must match the top colour")
        return
    if (
        (
            p.kind == "draw2"
            and card.rank == 2
            and (rules.two_stacking_any_colour or card.colour == p.colour)
        )
        or (p.kind == "skip" and card.rank == SKIP)
        or (p.kind == "drawx" and card.rank == DRAWX and rules.draw_x_stacking)
    ):
        return
    _illegal("response_required", "S-35", f"{card.code} does not answer a pending {p.kind}")


def _check_mode(st: StopState, a: Play, needs_mode: bool) -> None:
    if not needs_mode:
        if a.mode is not None or a.target is not None:
            _illegal("invalid_mode", "S-38", "only a Card Exchange takes a mode")
        return
    if a.mode is None or a.mode not in st.rules.exchange_modes:
        _illegal("invalid_mode", "S-38", f"mode must be one of {sorted(st.rules.exchange_modes)}")
    if a.mode == "swap":
        t = a.target
        if t is None or not 0 <= t < st.seats or t == a.seat:
            _illegal("invalid_mode", "S-38", "swap needs another seat as target")
    elif a.target is not None:
        _illegal("invalid_mode", "S-38", "only swap takes a target")


# ------------------------------------------------------------------ actions


def _play(st: StopState, a: Play) -> list[EventRec]:
    """Every check of a play, in the order of records.md §4.6, then its resolution."""
    s = a.seat
    p = st.pending
    cards = a.cards
    if p is not None:
        if s != p.victim:
            _illegal("not_your_turn", "S-35", f"seat {p.victim} must respond first")
    else:
        if st.phase == "closing":
            _illegal("closing", "S-52", "no normal turn in the closing phase")
        if s != st.turn:
            _illegal("not_your_turn", "S-11", f"it is seat {st.turn}'s turn")
    single = len(cards) == 1
    card = cards[-1]
    if single:
        if card not in st.hands[s]:
            _illegal("not_in_hand", "S-58", f"{card.code} is not in the hand")
    else:
        _check_in_hand(st.hands[s], cards)
    if p is not None:
        _check_response(st, p, cards)
    else:
        if cards[0].rank == FREE and (single or card.rank == FREE):
            _illegal("fc_needs_colour_card", "S-45", "a Free Choice needs a coloured card")
        if st.drawn is not None and st.drawn not in cards:
            _illegal("no_match", "S-14", f"only the drawn {st.drawn.code} may be played now")
        if single and not resolve.matches(card, st.discard[-1] if st.discard else None):
            _illegal("no_match", "S-12", f"{card.code} does not match {st.discard[-1].code}")
    effect = p is None and (single or st.rules.free_choice_second_effect)
    if a.mode is not None or a.target is not None or (effect and card.rank == EXCH):
        _check_mode(st, a, effect and card.rank == EXCH)
    return resolve_play(st, a)


def resolve_play(st: StopState, a: Play) -> list[EventRec]:
    """A checked play (S-60): placement, calls, the effect or the answer, the windows."""
    s = a.seat
    p = st.pending
    cards = a.cards
    card = cards[-1]
    old = st.obligations[:] if st.obligations else _NO_OBLIGATIONS
    hand = st.hands[s]
    events: list[EventRec]
    if len(cards) == 1:
        # resolve.place written out for one card (most actions are single plays: a call
        # and an events list fewer each)
        i = 0
        for held in hand:
            if held is card:
                del hand[i]
                break
            i += 1  # noqa: SIM113 (an enumerate costs more than this count)
        else:
            raise ValueError(f"{card.code} is not in the hand")
        st.discard.append(card)
        st.held[card.twin] -= 1
        st.last_placer = s
        st.starter_top = False
        st.drawn = None
        st.consecutive_passes = 0
        rec: EventRec = ["play", s, a, None, None]  # the Play is its Placed (.events)
        log = st.records
        log.append(rec)
        if len(log) > LOG_LIMIT:
            st.trim_log()
        events = [rec]
    else:
        events = []
        resolve.place(st, s, cards, a.calls, "play", events)
    if (old or len(hand) < 2) and resolve.calls_after_placement(st, s, a.calls, events):
        if not st.rules.last_card_effect:
            st.end_round()
            return events
        st.phase = "closing"
    left = (s + 1) % st.seats
    if p is None:
        # a number card other than 2 has no effect (effect_of's own answer), nor has a
        # paired card without free_choice_second_effect
        if (card.rank == 2 or card.rank >= SKIP) and (
            len(cards) == 1 or st.rules.free_choice_second_effect
        ):
            resolve.effect_of(st, s, card, a.mode, a.target, resolve.ACHTUNG in a.calls)
        else:
            st.turn = left
    else:
        if card.rank == 0:
            st.pending = None
        elif p.kind == "draw2":
            st.pending = resolve.attack("draw2", card.colour, left, p.count + 2)
        elif p.kind == "skip":
            count = p.count if st.rules.skip_stacking == "pass_on" else p.count + 1
            st.pending = resolve.attack("skip", card.colour, left, count)
        else:
            st.pending = resolve.attack("drawx", card.colour, left)
        st.turn = left
    if old:
        resolve.advance(st, s, cards, old, events)
    if st.phase == "closing":
        resolve.phase_check(st)
    return events


def apply_starter(st: StopState, starter: Card) -> None:
    """``starter_effect=apply``: the starter acts as if placed by right(dealer)."""
    modes = sorted(st.rules.exchange_modes)
    mode = modes[0] if starter.rank == EXCH else None
    target = st.dealer if mode == "swap" else None
    resolve.effect_of(st, st.last_placer, starter, mode, target)


def _interject(st: StopState, a: Interject) -> list[EventRec]:
    s, card = a.seat, a.card
    if st.phase == "closing":
        _illegal("closing", "S-22", "no interjection in the closing phase")
    if card not in st.hands[s]:
        _illegal("not_in_hand", "S-58", f"{card.code} is not in the hand")
    top = st.discard[-1] if st.discard else None
    if top is None or not card.is_number or not top.is_number:
        _illegal("symbol_not_interjectable", "S-19", "only number cards on number cards")
    if not card.identical(top):
        _illegal("not_identical", "S-18", f"{card.code} is not identical to {top.code}")
    if st.starter_top and not st.rules.interject_on_starter:
        _illegal("not_identical", "S-18", "interject_on_starter is off")
    return resolve_interject(st, a)


def resolve_interject(st: StopState, a: Interject) -> list[EventRec]:
    """A checked interjection (S-18 to S-22): placement, calls, a 2's Draw Two, the turn to
    the interjector's left. A listed one (:func:`.legal.interjections`) skips the checks."""
    s, card = a.seat, a.card
    p = st.pending
    events: list[EventRec] = []
    old = st.obligations[:]
    resolve.place(st, s, (card,), a.calls, "interject", events)
    if resolve.calls_after_placement(st, s, a.calls, events):
        if not st.rules.last_card_effect:
            st.end_round()
            return events
        st.phase = "closing"
    left = (s + 1) % st.seats
    if card.rank == 2:
        count = 2
        if p is not None and p.kind == "draw2":
            count = p.count + 2 if st.rules.interjected_two_extends else p.count
        st.pending = resolve.attack("draw2", card.colour, left, count)
    else:
        st.pending = None
    st.turn = left
    resolve.advance(st, s, (card,), old, events)
    resolve.phase_check(st)
    return events


def _cancel(st: StopState, a: Cancel) -> list[EventRec]:
    s, card = a.seat, a.card
    p = st.pending
    if p is None or p.kind != "exchange":
        _illegal("nothing_pending", "S-58", "no Card Exchange to cancel")
    if not resolve.may_cancel(st, p, s):
        _illegal("not_eligible", "S-39", f"seat {s} may not cancel this exchange")
    if card not in st.hands[s]:
        _illegal("not_in_hand", "S-58", f"{card.code} is not in the hand")
    if card.rank != 0 or card.colour != p.colour:
        _illegal("wrong_defence_colour", "S-40", "a cancel needs a 0 of the exchange's colour")
    events: list[EventRec] = []
    old = st.obligations[:]
    resolve.place(st, s, (card,), a.calls, "cancel", events)
    if resolve.calls_after_placement(st, s, a.calls, events):
        if not st.rules.last_card_effect:
            st.end_round()
            return events
        st.phase = "closing"
    st.pending = None
    st.turn = (s + 1) % st.seats
    resolve.advance(st, s, (card,), old, events)
    resolve.phase_check(st)
    return events


def _accept(st: StopState, a: Accept) -> list[EventRec]:
    s = a.seat
    p = st.pending
    if p is None or p.kind == "exchange":
        _illegal("nothing_pending", "S-58", "nothing to accept")
    if s != p.victim:
        _illegal("not_your_turn", "S-35", f"seat {p.victim} is the victim")
    hand = st.hands[s]
    reveal = p.kind == "drawx" and st.rules.draw_x_mode == "reveal_and_play"
    if reveal:
        chosen = a.reveal_play
        if chosen is not None and chosen not in hand:
            _illegal("not_in_hand", "S-58", f"{chosen.code} is not in the hand")
        if any(c.is_number for c in hand):
            if chosen is None or not chosen.is_number:
                _illegal("not_a_number_card", "S-44", "choose a number card to play")
        elif chosen is not None:
            _illegal("not_a_number_card", "S-44", "no number card: reveal_play must be omitted")
        return _reveal_and_play(st, a, p)
    return _resolve_accept(st, a, p)


def _resolve_accept(st: StopState, a: Accept, p: Pending) -> list[EventRec]:
    """A checked accept of a Draw Two, a Skip or a Draw X in ``flip`` mode (S-43)."""
    s = a.seat
    events: list[EventRec] = []
    n = st.seats
    if p.kind == "draw2":
        got = st.draw_cards(s, p.count)
        events.append(resolve.draw_event(st, s, got, "accept"))
        st.pending = None
        st.turn = (s + 1) % n if st.rules.draw_two_skips_victim else s
        resolve.after_draw(st, s, got, resolve.ACHTUNG in a.calls, events)
    elif p.kind == "skip":
        st.pending = None
        st.turn = (s + p.count) % n  # s is the victim (checked above)
        events.append(st._event("skipped", s, {"count": p.count}))
    else:
        _flip(st, s, a, events)
    resolve.phase_check(st)
    return events


def _flip(st: StopState, s: int, a: Accept, events: list[EventRec]) -> None:
    """S-43: turn the top draw card; a number card adds its value in cards."""
    got: list[Card] = []
    if st.draw or st._reshuffle():
        turned = st.draw.pop()
        st.hands[s].append(turned)
        st.held[turned.twin] += 1
        st.consecutive_passes = 0
        got = [turned]
        if turned.is_number:
            got += st.draw_cards(s, turned.draw_count(st.rules.six_nine_value == "nine"))
        public = {"turned": turned.code, "count": len(got)}
    else:
        public = {"turned": None, "count": 0}
    events.append(st._event("flip", s, public, {"cards": [c.code for c in got]}))
    st.pending = None
    st.turn = (s + 1) % st.seats
    resolve.after_draw(st, s, got, resolve.ACHTUNG in a.calls, events)


def _reveal_and_play(st: StopState, a: Accept, p: Pending) -> list[EventRec]:
    """S-44: reveal the hand, place a number card, draw its value, then its effect."""
    s = a.seat
    hand = st.hands[s]
    revealed = codes(hand)
    st.last_reveal = (s, revealed)
    events = [st._event("reveal", s, {"hand": revealed})]
    chosen = a.reveal_play
    st.pending = None
    if chosen is None:
        st.turn = s
        resolve.phase_check(st)
        return events
    old = st.obligations[:]
    resolve.place(st, s, (chosen,), a.calls, "reveal_play", events)
    got = st.draw_cards(s, chosen.draw_count(st.rules.six_nine_value == "nine"))
    events.append(resolve.draw_event(st, s, got, "reveal_draw"))
    if resolve.calls_after_placement(st, s, a.calls, events):
        if not st.rules.last_card_effect:
            st.end_round()
            return events
        st.phase = "closing"
    resolve.effect_of(st, s, chosen, None, None)
    resolve.advance(st, s, (chosen,), old, events)
    resolve.phase_check(st)
    return events


def _draw(st: StopState, a: Draw) -> list[EventRec]:
    s = a.seat
    if st.pending is not None or st.phase == "closing" or s != st.turn:
        _turn_checks(st, s)
    if not st.can_draw():
        _illegal("draw_unavailable", "S-17", "both piles are exhausted")
    if not st.rules.voluntary_draw and resolve.has_legal_play(st, s):
        _illegal("draw_unavailable", "S-14", "you have a legal play")
    if st.drawn is not None:
        _illegal("draw_unavailable", "S-14", "play the drawn card or pass")
    return resolve_draw(st, a)


def resolve_draw(st: StopState, a: Draw) -> list[EventRec]:
    """A checked draw (S-14 to S-17): one card; the turn passes unless it may be played."""
    s = a.seat
    pile = st.draw
    card: Card | None
    if pile:  # draw_cards(s, 1) without a reshuffle
        card = pile.pop()
        hand = st.hands[s]
        hand.append(card)
        st.held[card.twin] += 1
        st.consecutive_passes = 0
        # st._event written out; read as {"count": 1} and, for the drawer, {"cards": [code]}
        rec: EventRec = ["draw", s, None, card, None]
        log = st.records
        log.append(rec)
        if len(log) > LOG_LIMIT:
            st.trim_log()
        events = [rec]
    else:
        got = st.draw_cards(s, 1)
        hand = st.hands[s]
        card = got[0] if got else None
        events = [resolve.draw_event(st, s, got, "draw")]
    if card is not None and st.flags.play_drawn_card and resolve.can_play_drawn(st, s, card):
        st.drawn = card  # the turn stays: play it or pass
    else:
        st.turn = (s + 1) % st.seats
    if card is not None and (st.obligations or len(hand) == 1):  # else nothing to do
        resolve.after_draw(st, s, [card], resolve.ACHTUNG in a.calls, events)
    return events


def _pass(st: StopState, s: int) -> list[EventRec]:
    _turn_checks(st, s)
    if st.drawn is not None:  # play_drawn_card: keep the drawn card; not an S-17 pass
        st.drawn = None
        st.turn = (s + 1) % st.seats
        return [st._event("pass", s, {"kept_drawn": True})]
    if st.can_draw() or resolve.has_legal_play(st, s):
        _illegal("pass_unavailable", "S-17", "pass only with nothing to draw and nothing to play")
    st.consecutive_passes += 1
    st.turn = (s + 1) % st.seats
    events = [st._event("pass", s, {})]
    if st.consecutive_passes >= st.seats:
        st.end_round()
    return events


def _call_achtung(st: StopState, s: int) -> list[EventRec]:
    ob = resolve.obligation(st, s, "achtung") if st.rules.call_window_cards > 0 else None
    if ob is None:
        _illegal("window_closed", "S-26", "no open Achtung obligation")
    st.obligations.remove(ob)
    return [st._event("call", s, {"call": resolve.ACHTUNG})]


def _call_stop(st: StopState, s: int) -> list[EventRec]:
    ob = resolve.obligation(st, s, "late_stop") if st.rules.call_window_cards > 0 else None
    if ob is None:
        _illegal("window_closed", "S-28", "no open late Stop window")
    discard = st.discard[:]  # a new list: a pile changes in place only by appends
    for placer, card in reversed(ob.back):
        for i in range(len(discard) - 1, -1, -1):
            if discard[i] is card:
                del discard[i]
                break
        st.hands[placer].append(card)
        st.held[card.twin] += 1
    st.discard = discard
    events = [st._event("call", s, {"call": resolve.STOP, "taken_back": len(ob.back)})]
    st.end_round()
    return events


_HANDLERS: Final[dict[type, Callable[[StopState, Any], list[EventRec]]]] = {
    Play: _play,
    Draw: _draw,
    Accept: _accept,
    Interject: _interject,
    Pass: lambda st, a: _pass(st, a.seat),
    Cancel: _cancel,
    CallAchtung: lambda st, a: _call_achtung(st, a.seat),
    CallStop: lambda st, a: _call_stop(st, a.seat),
}
"""The rules of each action type (``type(action)``: subclasses are not Stop actions)."""


def listed_accept(st: StopState, a: Accept) -> list[EventRec]:
    """A listed accept: the reveal of ja's Draw X (S-44) or the plain accept."""
    p = st.pending
    assert p is not None, "an accept is listed only while an effect is pending"
    if p.kind == "drawx" and st.rules.draw_x_mode == "reveal_and_play":
        return _reveal_and_play(st, a, p)
    return _resolve_accept(st, a, p)


RESOLVERS: Final[dict[type, Callable[[StopState, Any], list[EventRec]]]] = {
    Play: resolve_play,
    Draw: resolve_draw,
    Accept: listed_accept,
    Interject: resolve_interject,
}
"""The unchecked resolution of the common listed actions (:func:`apply_listed`)."""
