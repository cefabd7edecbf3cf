"""The transitions of Stop it!: each request checked in records.md §5.6 precedence, then
applied; the timers of records.md §5.4; the evaluation applied to the state.

Functions take the state as their first argument (the state module delegates here), and
every check comes before the first mutation, so a rejected request changes nothing. Every
function that changes the phase, the points or ``removed`` clears ``state._table``, the
cached slow-changing part of the public view (views.py); every one that adds a card to a
hand or takes one out clears ``state._hand_kinds``, the views' kind counts, and every one
that takes a card from a stack or puts one back clears ``state._tops``, their top cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from stoptable.core.errors import IllegalAction, InvalidNotation
from stoptable.core.protocol import COMPILED as NATIVE_EVENTS
from stoptable.core.protocol import JSON, Event, compiled_event, new_event
from stoptable.games.stopit.actions import (
    CallStop,
    Go,
    Grab,
    Insert,
    Move,
    PlayStop,
    Request,
    stack_name,
)
from stoptable.games.stopit.cards import (
    COLOUR_INDEX,
    COMPILED,
    KIND_ORDER,
    ROW_TOTAL,
    canonical_counts,
    is_stop_kind,
    kind_index,
    kind_of,
)
from stoptable.games.stopit.evaluation import evaluate
from stoptable.games.stopit.ruleset import MAX_STACKS

if TYPE_CHECKING:
    from stoptable.games.stopit.state import StopItState

_STACK_NAMES: Final = tuple(stack_name(stack) for stack in range(MAX_STACKS))
"""``stack_name`` of every stack a game can have, for the events of accepted requests."""
_AT: Final[list[dict[str, JSON]]] = [{"pos": pos} for pos in range(64)]
"""The private part of an insert's event by position, shared like the views' insert lines
(read-only, as every event; a hand holds far fewer cards than this)."""


def _phase_check(state: StopItState, verb: str) -> None:
    """game_over, then not_running / interrupted (grab, move, call_stop, play_stop)."""
    phase = state.phase
    if phase == "running":
        return
    if phase == "game_over":
        raise IllegalAction("game_over", "I-20", "the game is over")
    if phase == "interrupted":
        raise IllegalAction("interrupted", "I-35", f"cannot {verb}: the game is interrupted")
    raise IllegalAction("not_running", "I-31", f"cannot {verb} before Go")


def _expect(state: StopItState, stack: int, expect: str | None, calling: bool) -> str:
    """empty_stack / stale (I-31; I-34 when the expected card was lost to the other race).

    The rule is I-34 when a call lost the race to a grab of that card (it is now in a
    hand or held slot) or a grab lost it to a call (the card is in ``removed``); otherwise
    I-31 for a grab and I-33 ("a call that names a card that is not on top") for a call.
    ``expect_id`` null never lost a race.
    """
    cards = state.stacks[stack]
    top = cards[-1] if cards else None
    if top is None and expect is None:
        raise IllegalAction("empty_stack", "I-31", f"{stack_name(stack)} is empty")
    if top != expect:
        if expect is None:
            lost = False
        elif calling:
            lost = expect in state.held or any(expect in h for h in state.hands)
        else:
            lost = expect in state.removed
        rule = "I-34" if lost else "I-31"
        raise IllegalAction(
            "stale", rule, f"the top of {stack_name(stack)} is {top or 'nothing'}, not {expect}"
        )
    assert top is not None
    return top


def _bad_position(pos: int, size: int, what: str) -> IllegalAction:
    return IllegalAction("bad_position", "I-32", f"{what} {pos} is outside 0..{size}")


def _add(state: StopItState, seat: int, card: str, pos: int) -> None:
    """Put ``card`` into the hand at ``pos`` and count it. A count dict or row is never
    changed once made (views share them, views.hand_kinds_part): the seat gets a new one."""
    state.hands[seat].insert(pos, card)
    state._hand_kinds = None
    kind = state.kinds[card]
    row: list[int] | None = None
    if kind[0] != "S":  # a colour card: the seat's count row too (cards.STOP_INITIAL)
        row = state.rows[seat].copy()
        index = COLOUR_INDEX[kind]
        row[index] = row[index] + 1  # not +=: compiled, that is a generic add on a list item
        row[ROW_TOTAL] = row[ROW_TOTAL] + 1
        state.rows[seat] = row
    count = state.counts[seat]
    if kind in count:
        count = count.copy()
        count[kind] = count[kind] + 1
    elif COMPILED:
        count = _with_kind(count, kind, row)
    else:  # a new kind: keep the keys in canonical order, so that views need not sort
        count = count.copy()
        last = next(reversed(count), None)
        count[kind] = 1
        if last is not None and kind_index(last) > kind_index(kind):
            count = canonical_counts(count)  # else it is in place, at the end
    state.counts[seat] = count


def _with_kind(count: dict[str, int], kind: str, row: list[int] | None) -> dict[str, int]:
    """A copy of ``count`` with one card of ``kind``, which it lacks, its keys kept in
    canonical order: native loops compiled, where ``next(reversed(...))`` is two generic
    calls and a reorder by :func:`canonical_counts` a lookup of every kind (the pure build
    keeps those C calls). ``row``: the seat's count row with the card, for a colour card.

    A colour card's kind goes after the colours the row counts before it (the keys come in
    canonical order: colours, then stop kinds): the copy takes it at the end, and the keys
    that must follow it, usually none or a held stop kind or two, are moved behind it.
    A stop kind (rarer) is placed by a walk over the keys."""
    if row is not None:
        colour = COLOUR_INDEX[kind]
        before = 0
        for other_colour in range(colour):
            if row[other_colour]:
                before += 1
        out = count.copy()
        out[kind] = 1
        for other in count:
            if before:
                before -= 1
                continue
            n = out[other]  # a later key: to the end, behind the new kind, in order
            del out[other]
            out[other] = n
        return out
    index = KIND_ORDER[kind]
    out = {}
    for other, n in count.items():
        if index >= 0 and KIND_ORDER[other] > index:
            out[kind] = 1
            index = -1
        out[other] = n
    if index >= 0:
        out[kind] = 1
    return out


def _turned_up(state: StopItState, stack: int) -> list[Event]:
    """I-9: the event of a stop card becoming a top card; I-21: note when all are empty."""
    cards = state.stacks[stack]
    if not cards:
        if state.stack_total == 0:
            state.empty_since = state.clock
        return []
    if is_stop_kind(state.kinds[cards[-1]]):
        return [
            new_event("turned_up", None, {"stack": _STACK_NAMES[stack], "card": cards[-1]}, None)
        ]
    return []


def _check_stack(state: StopItState, stack: int) -> None:
    """A stack that does not exist is a malformed request (records.md §3, protocol.md
    "malformed"), checked before anything else; no rule is broken, so no IllegalAction."""
    if not 0 <= stack < len(state.stacks):
        raise InvalidNotation(f"stack {stack_name(stack)} does not exist")


def grab(state: StopItState, req: Grab) -> list[Event]:
    """I-5, I-6, I-16, I-31, I-32 (the checks of :func:`_check_stack`, :func:`_phase_check`
    and :func:`_expect` are made in line and call them only to raise: a simulated game
    grabs about a hundred times)."""
    seat, stack = req.seat, req.stack
    stacks = state.stacks
    if not 0 <= stack < len(stacks):
        _check_stack(state, stack)
    if state.phase != "running":
        _phase_check(state, "grab")
    held = state.held
    if held[seat] is not None:
        raise IllegalAction("held_full", "I-6", "insert the held card before grabbing again")
    cards = stacks[stack]
    card = req.expect_id
    if not cards or cards[-1] != card:
        _expect(state, stack, card, calling=False)
    assert card is not None
    pos = req.pos
    if pos is not None and not 0 <= pos <= len(state.hands[seat]):
        raise _bad_position(pos, len(state.hands[seat]), "insert position")
    cards.pop()
    state._tops = None
    state.stack_total -= 1
    if card[0] == "S":  # a stop card (an id starts with its kind: cards.STOP_INITIAL)
        state.stops_held += 1
    public: dict[str, JSON] = {"stack": _STACK_NAMES[stack], "card": card}
    if pos is None:
        held[seat] = card
        state.held_from[seat] = stack
        if NATIVE_EVENTS:  # compiled: a native call (new_event is a generic one there)
            events = [compiled_event("grab", seat, public, None)]
        else:
            events = [new_event("grab", seat, public, None)]
    else:
        _add(state, seat, card, pos)
        events = [new_event("grab", seat, public, {"pos": pos})]
    if cards:
        top = cards[-1]
        if top[0] == "S":  # I-9: a stop card turns up
            events.append(
                new_event("turned_up", None, {"stack": _STACK_NAMES[stack], "card": top}, None)
            )
    elif state.stack_total == 0:
        state.empty_since = state.clock  # I-21: the end-game timer may start
    if state.stack_total == 0 and state.stops_held == 0:
        events.append(state.finish("stacks_exhausted"))
    return events


def insert(state: StopItState, req: Insert) -> list[Event]:
    """I-7, I-11, I-32, I-35: allowed in any phase but game_over while a card is held."""
    seat, pos = req.seat, req.pos
    phase = state.phase
    if phase == "game_over":
        raise IllegalAction("game_over", "I-20", "the game is over")
    held = state.held
    card = held[seat]
    if card is None:
        raise IllegalAction("held_empty", "I-32", "there is no held card to insert")
    if not 0 <= pos <= len(state.hands[seat]):
        raise _bad_position(pos, len(state.hands[seat]), "insert position")
    held[seat] = None
    state.held_from[seat] = None
    _add(state, seat, card, pos)
    at = _AT[pos] if pos < 64 else {"pos": pos}
    if NATIVE_EVENTS:  # as in grab
        events = [compiled_event("insert", seat, {"card": card}, at)]
    else:
        events = [new_event("insert", seat, {"card": card}, at)]
    if phase == "interrupted" and held.count(None) == len(held):
        events += run_evaluation(state, ())
    return events


def move(state: StopItState, req: Move) -> list[Event]:
    """I-7, IA-4: reorder with an empty held slot."""
    seat = req.seat
    _phase_check(state, "move")
    if state.held[seat] is not None:
        raise IllegalAction("held_full", "I-6", "insert the held card before reordering")
    hand = state.hands[seat]
    for index in (req.from_, req.to):
        if not 0 <= index < len(hand):
            raise _bad_position(index, len(hand) - 1, "hand index")
    hand.insert(req.to, hand.pop(req.from_))
    return [new_event("move", seat, {}, {"from": req.from_, "to": req.to})]


def call_stop(state: StopItState, req: CallStop) -> list[Event]:
    """I-10, I-14, I-33, I-34, IA-7, IA-19 (calling while holding is allowed)."""
    _check_stack(state, req.stack)
    _phase_check(state, "call Stop")
    try:
        card = _expect(state, req.stack, req.expect_id, calling=True)
        if not is_stop_kind(state.kinds[card]):
            raise IllegalAction("not_a_stop_card", "I-33", f"{card} is not a stop card")
    except IllegalAction:
        if state.ruleset.false_stop_penalty == "off":
            raise
        return _false_stop(state, req)
    state.stacks[req.stack].pop()
    state._tops = None
    state.stack_total -= 1
    events = [
        new_event("call_stop", req.seat, {"stack": _STACK_NAMES[req.stack], "card": card}, None)
    ]
    events += _turned_up(state, req.stack)
    return events + _interrupt(state, card, req.seat)


def _false_stop(state: StopItState, req: CallStop) -> list[Event]:
    """IA-7 house rule ``false_stop_penalty=minus_card``: the false call costs a point."""
    state._table = None
    _award(state, req.seat)
    events = [Event("false_stop", req.seat, {"stack": stack_name(req.stack)})]
    if state.supply == 0:
        events.append(state.finish("supply_empty"))
    return events


def play_stop(state: StopItState, req: PlayStop) -> list[Event]:
    """I-17, IA-14, IA-17."""
    seat = req.seat
    _phase_check(state, "play a stop card")
    if state.held[seat] is not None:
        raise IllegalAction("held_full", "I-6", "insert the held card before playing a stop")
    card = req.card_id
    kind = state.kinds.get(card) or kind_of(card)
    if not is_stop_kind(kind):
        raise IllegalAction("not_a_stop_card", "I-33", f"{card} is not a stop card")
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction("not_in_hand", "I-33", f"{card} is not in the hand")
    hand.remove(card)
    state._hand_kinds = None
    count = state.counts[seat] = state.counts[seat].copy()  # never changed once made (_add)
    if count[kind] == 1:
        del count[kind]
    else:
        count[kind] -= 1
    state.stops_held -= 1
    return [new_event("play_stop", seat, {"card": card}, None), *_interrupt(state, card, seat)]


def go(state: StopItState, req: Go) -> list[Event]:
    """I-4, I-15, I-37."""
    if state.phase == "game_over":
        raise IllegalAction("game_over", "I-20", "the game is over")
    if state.phase != "waiting_go":
        raise IllegalAction("not_waiting", "I-37", "Go is only sent while waiting for Go")
    if req.seat != state.go_seat:
        raise IllegalAction("not_go_seat", "I-15", f"only P{state.go_seat} may send Go")
    if state.clock < state.go_after:
        raise IllegalAction("not_waiting", "I-37", f"Go is accepted from t={state.go_after}")
    return start(state, req.seat, auto=False)


def start(state: StopItState, seat: int | None, auto: bool) -> list[Event]:
    """The game runs again (a Go, or the Go timeout of I-37)."""
    state._table = None
    state.phase = "running"
    state.go_seat = None
    state.go_deadline = None
    state.last_go = state.clock
    events = [new_event("go", seat, {"auto": auto}, None)]
    if state.stack_total == 0 and state.stops_held == 0:
        events.append(state.finish("stacks_exhausted"))  # I-21
    return events


def _interrupt(state: StopItState, card: str, by: int) -> list[Event]:
    """I-35: the game is interrupted; the evaluation waits for the held cards."""
    state._table = None
    state.removed.append(card)
    deadline = state.clock + state.ruleset.sort_grace_ms
    state.phase = "interrupted"
    state.interrupt = (card, by, deadline)
    if all(h is None for h in state.held):
        return run_evaluation(state, ())
    return []


def end_grace(state: StopItState) -> list[Event]:
    """I-35, I-36: the grace ends; held cards go right (off) or back on their stack (fumble).

    A card that a position (records.md §5.2) put into a held slot has no known stack; a
    fumble puts it back on S1 (the spec is silent; any fixed stack keeps replays exact).
    """
    events: list[Event] = []
    fumbled: list[int] = []
    fumble = state.ruleset.drop_penalty == "fumble"
    for seat, card in enumerate(state.held):
        if card is None:
            continue
        state.held[seat] = None
        origin = state.held_from[seat]
        state.held_from[seat] = None
        if fumble:
            stack = 0 if origin is None else origin
            state.stacks[stack].append(card)
            state._tops = None
            state.stack_total += 1
            state.empty_since = None
            if is_stop_kind(state.kinds[card]):
                state.stops_held -= 1
            fumbled.append(seat)
            events.append(Event("fumble", seat, {"card": card, "stack": stack_name(stack)}))
        else:
            pos = len(state.hands[seat])
            _add(state, seat, card, pos)
            events.append(new_event("auto_insert", seat, {"card": card, "pos": pos}, None))
    return events + run_evaluation(state, fumbled)


def _award(state: StopItState, seat: int) -> None:
    """I-19: one minus point, a card from the supply or, when it is empty, an extra point."""
    if state.supply > 0:
        state.supply -= 1
        state.minus_cards[seat] += 1
    else:
        state.extra_points[seat] += 1


def run_evaluation(state: StopItState, fumbled: list[int] | tuple[int, ...]) -> list[Event]:
    """I-12..I-21: evaluate, hand out the minus points, then wait for Go or end the game."""
    state._table = None
    assert state.interrupt is not None
    card, caller, _deadline = state.interrupt
    rules = state.ruleset
    colour_stop = state.kinds[card] != "SUPER"
    result = evaluate(
        card,
        caller,
        state.hands,
        state.counts,
        state.kinds,
        sort_check=colour_stop or rules.sort_check_every_evaluation,
        ignore_stops=rules.stop_cards_ignored_in_sort_check,
        fumbled=fumbled,
    )
    awarded = [0] * state.seats
    for seat in result.recipients:
        _award(state, seat)
        awarded[seat] += 1
    record: dict[str, object] = {
        "card": card,
        "caller": caller,
        "colour": result.colour,
        "counts": list(result.counts),
        "minimum": list(result.minimum),
        "unsorted": list(result.unsorted),
        "fumbled": list(result.fumbled),
        "awarded": awarded,
    }
    state.last_evaluation = record
    state.revealed = [h.copy() for h in state.hands]  # copy: native compiled, list() generic
    state.interrupt = None
    events = [
        new_event("evaluation", None, {**record, "hands": [h.copy() for h in state.hands]}, None)
    ]
    if state.supply == 0:
        events.append(state.finish("supply_empty"))
    elif state.stack_total == 0 and state.stops_held == 0:
        events.append(state.finish("stacks_exhausted"))
    else:
        state.phase = "waiting_go"
        state.go_seat = caller
        state.go_after = state.clock + rules.min_pause_ms
        state.go_deadline = state.clock + rules.go_timeout_ms
    return events


def fire_timer(state: StopItState) -> list[Event]:
    """Fire the timer due now (the state's clock is already at its deadline)."""
    if state.phase == "interrupted":
        return end_grace(state)
    if state.phase == "waiting_go":
        return start(state, None, auto=True)
    return [state.finish("stacks_exhausted")]


def dispatch(state: StopItState, req: Request) -> list[Event]:
    """Check and apply one request (the clock is already at ``req.t``)."""
    handler = HANDLERS.get(type(req))
    if handler is None:
        raise TypeError(f"not a Stop it! request: {req!r}")
    return handler(state, req)


HANDLERS: Final[dict[type, Callable[[StopItState, Any], list[Event]]]] = {
    Grab: grab,
    Insert: insert,
    Move: move,
    CallStop: call_stop,
    PlayStop: play_stop,
    Go: go,
}


def legal_actions(state: StopItState, seat: int, exhaustive: bool) -> list[Request]:
    """See :meth:`StopItState.legal_actions`."""
    t = state.clock
    phase = state.phase
    if phase == "game_over":
        return []
    held = state.held[seat]
    hand = state.hands[seat]
    actions: list[Request] = []
    if held is not None:
        actions += [Insert(seat, t, p) for p in range(len(hand) + 1)]
    if phase == "waiting_go":
        if seat == state.go_seat and t >= state.go_after:
            actions.append(Go(seat, t))
        return actions
    if phase != "running":
        return actions
    kinds = state.kinds
    for index, cards in enumerate(state.stacks):
        if not cards:
            continue
        top = cards[-1]
        if is_stop_kind(kinds[top]):
            actions.append(CallStop(seat, t, index, top))
        if held is None:
            actions.append(Grab(seat, t, index, top))
            if exhaustive:
                actions += [Grab(seat, t, index, top, p) for p in range(len(hand) + 1)]
    if held is None:
        actions += [PlayStop(seat, t, c) for c in hand if is_stop_kind(kinds[c])]
        if exhaustive:
            n = len(hand)
            actions += [Move(seat, t, a, b) for a in range(n) for b in range(n)]
    return actions
