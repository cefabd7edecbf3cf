"""The engine's fast paths (pre-built actions, set-based offers, the flat bot loop, slot-built
events) against the straightforward code they replace: same lists, same games."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from stoptable.bots.base import make_bot
from stoptable.core.protocol import Event, new_event
from stoptable.core.records import RecordWriter
from stoptable.core.rng import Rng
from stoptable.games.stop import Interject, Play, new_game, parse_card
from stoptable.games.stop.action_cache import CALLSETS, action_cache, plays
from stoptable.games.stop.cards import BY_ORDER, COLOURED, COMPILED, DECK_CARDS, FREE_CHOICE
from stoptable.games.stop.driver import StopDriver
from stoptable.games.stop.events import event_of
from stoptable.games.stop.legal import (
    _turn_actions_by_order,
    interjection_offers,
    interjections,
)
from stoptable.games.stop.randomplay import step
from stoptable.games.stop.records import record_header
from stoptable.games.stop.state import StopState
from tests.games.stop import reference
from tests.games.stop.helpers import random_options

RULESETS = st.sampled_from(["abacus-en", "abacus-ja"])
SEATS = st.integers(min_value=2, max_value=7)
SEEDS = st.integers(min_value=0, max_value=2**32)


def _game(ruleset: str, seats: int, seed: int, mixed: bool) -> StopState:
    options = random_options(Rng(seed)) if mixed else None
    return new_game(ruleset, seats, seed=seed, options=options)


@settings(max_examples=40, deadline=None)
@given(RULESETS, SEATS, SEEDS, st.booleans())
def test_S58_S61_move_generator_and_offers_equal_the_reference(
    ruleset: str, seats: int, seed: int, mixed: bool
) -> None:
    state = _game(ruleset, seats, seed, mixed)
    rng = Rng(seed)
    for _ in range(300):
        if state.phase not in ("playing", "closing"):
            break
        assert state.offers() == reference.offers(state)
        window = state.pending is not None and state.pending.kind == "exchange"
        if not window:
            assert interjection_offers(state) == [
                (seat, interjections(state, seat)) for seat in reference.offers(state)
            ]
        before = state.copy() if window else None
        for seat in range(-1, seats + 1):
            legal = state.legal_actions(seat)
            assert legal == reference.legal_actions(state, seat), (seat, state.to_json())
            if not window:
                assert interjections(state, seat) == [a for a in legal if type(a) is Interject]
        if before is not None:  # the look through the window's close changed nothing
            assert state == before
        step(state, rng, take=0.4, drop_calls=0.2)


@settings(max_examples=40, deadline=None)
@given(RULESETS, SEATS, SEEDS, st.booleans())
def test_S58_move_generator_by_card_order_equals_the_reference(
    ruleset: str, seats: int, seed: int, mixed: bool
) -> None:
    """The compiled build's turn generator (a bit mask of card orders instead of sets of
    cards) lists what the reference lists, run here in whichever build imported it."""
    state = _game(ruleset, seats, seed, mixed)
    rng = Rng(seed)
    checked = 0
    for _ in range(300):
        if state.phase not in ("playing", "closing"):
            break
        turn = state.turn
        if state.pending is None and state.phase == "playing" and turn is not None:
            assert _turn_actions_by_order(state, turn) == reference.legal_actions(state, turn)
            checked += 1
        step(state, rng, take=0.4, drop_calls=0.2)
    assert checked


@settings(max_examples=30, deadline=None)
@given(RULESETS, SEATS, SEEDS, st.booleans())
def test_S60_listed_actions_apply_unchecked_as_checked(
    ruleset: str, seats: int, seed: int, mixed: bool
) -> None:
    """``apply_listed`` (no checks) of every listed action gives ``apply``'s state and events."""
    state = _game(ruleset, seats, seed, mixed)
    rng = Rng(seed)
    for _ in range(200):
        if state.phase not in ("playing", "closing"):
            break
        for seat in range(seats):
            for action in state.legal_actions(seat):
                checked, unchecked = state.copy(), state.copy()
                events = checked.apply(action)
                assert unchecked.apply_listed(action) == events, action
                assert unchecked == checked, action
                assert unchecked.log == checked.log, action
        step(state, rng, take=0.4, drop_calls=0.2)


def _stepwise_round(driver: StopDriver, listed: bool = False) -> int:
    """The driver's bot loop written with decision() and submit(), as it first was
    (``listed``: with submit_listed, as environments submit)."""
    start = driver.actions
    state = driver.state
    while True:
        d = driver.decision()
        if d is None:
            return driver.actions - start
        if len(d.legal) == 1:
            choice = d.legal[0]
        else:
            bot = driver.bots[d.seat]
            view = state.view(d.seat) if getattr(bot, "reads_view", True) else {}
            choice = bot.act(view, d.legal)
        (driver.submit_listed if listed else driver.submit)(choice)


def _match(
    ruleset: str, seats: int, seed: int, flat: bool, listed: bool = False
) -> tuple[Any, ...]:
    names = ["random", "heuristic"]
    bots = [make_bot("stop", names[(seat + seed) % 2], seat, seed + seat) for seat in range(seats)]
    state = new_game(ruleset, seats, seed, {"target_score": 150})
    writer = RecordWriter(record_header(state, seed, None))
    driver = StopDriver(state, bots, writer, keep_events=True, deal_rounds=False)
    lengths = []
    for _ in range(4):
        lengths.append(driver.play_round() if flat else _stepwise_round(driver, listed))
        if state.phase != "round_over":
            break
        driver.next_round()
    events = [ev.for_seat(0) for ev in driver.events]
    return lengths, writer.lines(), events, state.to_json(), [b.rng.random() for b in bots]


@settings(max_examples=12, deadline=None)
@given(RULESETS, st.integers(min_value=2, max_value=5), st.integers(min_value=0, max_value=10**6))
def test_S61_flat_bot_loop_plays_the_stepwise_game(ruleset: str, seats: int, seed: int) -> None:
    assert _match(ruleset, seats, seed, flat=True) == _match(ruleset, seats, seed, flat=False)


@settings(max_examples=12, deadline=None)
@given(RULESETS, st.integers(min_value=2, max_value=5), st.integers(min_value=0, max_value=10**6))
def test_S61_submit_listed_plays_the_submit_game(ruleset: str, seats: int, seed: int) -> None:
    """Submitting each decision's choice unchecked gives the same records, events, states."""
    assert _match(ruleset, seats, seed, flat=False, listed=True) == _match(
        ruleset, seats, seed, flat=False
    )


def test_slot_built_events_equal_constructed_ones() -> None:
    public = {"cards": ["B4"]}
    private = {"cards": ["R1"]}
    made = new_event("draw", 1, public, private)
    assert type(made) is Event
    assert made == Event("draw", 1, public, private)
    assert made.for_seat(1) == {"kind": "draw", "seat": 1, "cards": ["R1"]}
    assert new_event("deal", None, {}, None) == Event("deal", None, {}, None)


def test_cards_compare_by_identity_and_sort_canonically() -> None:
    b4, r9 = parse_card("B4"), parse_card("R9")
    assert b4 == b4 and b4 != r9 and b4 != "B4" and "B4" != b4  # noqa: SIM300
    assert hash(b4) == (b4.order if COMPILED else object.__hash__(b4))
    hand = [b4, r9, b4, FREE_CHOICE]
    assert hand.count(b4) == 2 and hand.index(r9) == 1
    hand.remove(b4)
    assert hand == [r9, b4, FREE_CHOICE]
    assert sorted(DECK_CARDS[::-1]) == list(DECK_CARDS)
    assert list(BY_ORDER[:-1]) == list(COLOURED)


def test_S4_S61_held_counts_a_card_and_its_twins_together() -> None:
    """``Card.twin`` names one count for identical cards (S-4: a 9 is its colour's 6), and
    ``StopState.held`` counts the copies in all hands by it; the offers read it first, so a
    change of ``hands`` made outside the engine needs ``count_held`` (S-61 offers follow)."""
    r6, r9, y5, skip = (parse_card(c) for c in ("R6", "R9", "Y5", "RSkip"))
    assert r6.twin == r9.twin == r6.order != y5.twin == y5.order
    assert skip.twin == skip.order and FREE_CHOICE.twin == FREE_CHOICE.order
    position = {"hands": [["R9", "Y5"], ["B1", "B2"]], "discard": ["R6"], "turn": 0}
    state = StopState.from_position("abacus-en", 2, position)
    assert state.held[r6.twin] == 1 and state.held[y5.twin] == 1 and sum(state.held) == 4
    assert state.offers() == reference.offers(state) == [0]
    state.hands[0].remove(r9)
    state.hands[1].append(r9)
    state.count_held()
    assert state.offers() == reference.offers(state) == [1]
    state.hands[1].pop()
    state.count_held()
    assert sum(state.held) == 3 and state.offers() == reference.offers(state) == []
    copy = state.copy()
    assert copy.held == state.held and copy.held is not state.held


def test_S58_prebuilt_actions_equal_fresh_ones() -> None:
    modes = frozenset({"left", "swap"})
    tab = action_cache(4, modes)
    assert action_cache(4, modes) is tab
    exch = parse_card("GExch")
    for ci, calls in enumerate(CALLSETS):
        for seat in range(4):
            assert tab.single[ci][seat][exch] == plays(seat, (exch,), calls, 4, modes)
            assert [a.target for a in tab.single[ci][seat][exch]] == [None] + [
                t for t in range(4) if t != seat
            ]
            for card in COLOURED:
                assert tab.pair_plain[ci][seat][card] == Play(seat, (FREE_CHOICE, card), calls)
                if card.is_number:
                    assert tab.interject[ci][seat][card] == Interject(seat, card, calls)
    assert tab.rotation[3] == (3, 0, 1, 2)


def test_events_are_made_once_from_their_records() -> None:
    """An action's returned events and the state's log are the same Event objects, made
    from the light records on their first read (``games.stop.events``)."""
    state = new_game("abacus-en", 3, seed=5)
    driver = StopDriver(state, deal_rounds=False)
    rng = Rng(5)
    for _ in range(60):
        decision = driver.decision()
        if decision is None:
            break
        events = driver.submit(decision.legal[rng.below(len(decision.legal))])
        log = state.log
        assert all(any(ev is logged for logged in log) for ev in events)
        assert all(type(ev) is Event for ev in log)
        rec = state.records[-1]
        assert event_of(rec) is event_of(rec) is log[-1]
    kinds = {ev.kind for ev in state.log}
    assert {"play", "draw"} <= kinds, kinds  # the two kinds whose records keep short forms


def test_short_record_forms_read_as_their_json() -> None:
    """A placement's ``(cards, calls)`` and a drawn card, kept short in a record, read as
    the records.md JSON they stand for."""
    fc, b4 = parse_card("FC"), parse_card("B4")
    placed = event_of(["play", 1, ((fc, b4), frozenset({"stop", "achtung"})), None, None])
    assert placed == Event("play", 1, {"cards": ["FC", "B4"], "calls": ["achtung", "stop"]})
    plain = event_of(["interject", 0, ((b4,), frozenset()), None, None])
    assert plain == Event("interject", 0, {"cards": ["B4"]})
    drawn = event_of(["draw", 2, None, b4, None])
    assert drawn == Event("draw", 2, {"count": 1}, {"cards": ["B4"]})
    assert drawn.for_seat(2) == {"kind": "draw", "seat": 2, "count": 1, "cards": ["B4"]}


@settings(max_examples=10, deadline=None)
@given(RULESETS, st.integers(min_value=2, max_value=5), st.integers(min_value=0, max_value=10**6))
def test_quiet_submits_play_the_submit_game(ruleset: str, seats: int, seed: int) -> None:
    """``submit_quietly`` / ``submit_listed_quietly`` (no events made) leave the states,
    logs and views that ``submit`` leaves, decision for decision."""
    drivers = []
    for _ in range(3):
        bots = [make_bot("stop", "random", seat, seed + seat) for seat in range(seats)]
        drivers.append(StopDriver(new_game(ruleset, seats, seed, {}), bots, deal_rounds=False))
    loud, quiet, listed = drivers
    for _ in range(2000):
        decisions = [driver.decision() for driver in drivers]
        if decisions[0] is None:
            assert decisions == [None, None, None]
            break
        views = [driver.state.view(decisions[0].seat) for driver in drivers]
        assert views[0] == views[1] == views[2]
        choices = [
            d.legal[int(drv.bots[d.seat].rng.random() * len(d.legal))]
            for d, drv in zip(decisions, drivers, strict=True)
        ]
        loud.submit(choices[0])
        quiet.submit_quietly(choices[1])
        listed.submit_listed_quietly(choices[2])
    assert loud.state == quiet.state == listed.state
    assert loud.state.log == quiet.state.log == listed.state.log
    assert loud.actions == quiet.actions == listed.actions
