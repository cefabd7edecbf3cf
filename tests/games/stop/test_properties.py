"""Hypothesis properties over random seeded games (2-10 seats, both rulesets, option mixes)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from stoptable.core.errors import IllegalAction
from stoptable.core.rng import Rng
from stoptable.games.stop import (
    FULL_DECK,
    Accept,
    CallAchtung,
    CallStop,
    Cancel,
    Draw,
    Interject,
    Pass,
    Play,
    StopState,
    new_game,
    parse_action,
    parse_card,
)
from stoptable.games.stop.actions import StopAction
from stoptable.games.stop.randomplay import step
from stoptable.games.stop.sample import sample_state
from tests.games.stop.helpers import (
    assert_conserved,
    random_options,
    recorded_game,
    replay_record,
)

RULESETS = st.sampled_from(["abacus-en", "abacus-ja"])
SEATS = st.integers(min_value=2, max_value=10)
SEEDS = st.integers(min_value=0, max_value=2**32)
MIXED = st.booleans()


def _game(ruleset: str, seats: int, seed: int, mixed: bool) -> StopState:
    options = random_options(Rng(seed)) if mixed else None
    return new_game(ruleset, seats, seed=seed, options=options)


def _random_action(rng: Rng, seats: int) -> StopAction:
    """Any well-formed action, legal or not."""
    seat = rng.below(seats)
    card = parse_card(FULL_DECK[rng.below(len(FULL_DECK))])
    calls = [frozenset(), frozenset({"achtung"}), frozenset({"stop"})][rng.below(3)]
    kind = rng.below(9)
    if kind == 0:
        return Play(seat, (card,), calls)
    if kind == 1:
        mode = ["left", "right", "swap"][rng.below(3)]
        return Play(seat, (card,), calls, mode, rng.below(seats) if mode == "swap" else None)
    if kind == 2:
        return Play(seat, (parse_card("FC"), card), calls)
    if kind == 3:
        return Interject(seat, card, calls)
    if kind == 4:
        return Cancel(seat, card, calls)
    if kind == 5:
        return Accept(seat, calls, card if rng.random() < 0.5 else None)
    if kind == 6:
        return Draw(seat, calls)
    if kind == 7:
        return Pass(seat)
    return CallAchtung(seat) if rng.random() < 0.5 else CallStop(seat)


@settings(max_examples=40, deadline=None)
@given(RULESETS, SEATS, SEEDS, MIXED)
def test_S1_S5_cards_conserved_and_illegal_actions_change_nothing(
    ruleset: str, seats: int, seed: int, mixed: bool
) -> None:
    """After every action all 112 cards are somewhere; a rejected action leaves the state
    (including the rng) exactly as before; every listed legal action is accepted."""
    state = _game(ruleset, seats, seed, mixed)
    rng = Rng(seed ^ 0x5A5A)
    for n in range(400):
        if state.phase not in ("playing", "closing"):
            break
        assert_conserved(state)
        if n % 5 == 0:
            before, rng_before = state.to_json(), state.rng.copy()
            for _ in range(6):
                trial = state.copy()
                try:
                    trial.apply(_random_action(rng, seats))
                except IllegalAction:
                    assert trial == state
            assert state.to_json() == before and state.rng == rng_before
            for seat in range(seats):
                for action in state.legal_actions(seat):
                    assert parse_action(seat, action.notation()) == action
                    state.copy().apply(action)
        step(state, rng, take=0.4, drop_calls=0.2)
    assert_conserved(state)


def _resample_hidden(state: StopState, seat: int, rng: Rng) -> StopState:
    """The same state from ``seat``'s point of view: other hands and the pile redealt."""
    other = state.copy()
    pool = list(other.draw)
    for s in range(other.seats):
        if s != seat:
            pool += other.hands[s]
    rng.shuffle(pool)
    other.draw = pool[: len(other.draw)]
    pool = pool[len(other.draw) :]
    for s in range(other.seats):
        if s != seat:
            size = len(other.hands[s])
            other.hands[s], pool = pool[:size], pool[size:]
    other.count_held()
    return other


@settings(max_examples=30, deadline=None)
@given(RULESETS, SEATS, SEEDS, MIXED)
def test_S63_view_never_shows_other_hands_or_the_draw_order(
    ruleset: str, seats: int, seed: int, mixed: bool
) -> None:
    """A seat's view is unchanged when every card it cannot see is dealt differently."""
    state = _game(ruleset, seats, seed, mixed)
    rng = Rng(seed + 1)
    for n in range(300):
        if state.phase not in ("playing", "closing"):
            break
        if n % 10 == 0:
            for seat in range(seats):
                view = state.view(seat)
                assert view["hand"] == sorted(view["hand"], key=lambda c: parse_card(c).order)
                assert len(view["hand"]) == len(state.hands[seat])
                assert "hands" not in view and "draw_pile" not in view
                assert _resample_hidden(state, seat, rng).view(seat) == view
        step(state, rng, take=0.4, drop_calls=0.2)


@settings(max_examples=25, deadline=None)
@given(RULESETS, SEATS, SEEDS, MIXED)
def test_S50_rounds_end_within_a_bound(ruleset: str, seats: int, seed: int, mixed: bool) -> None:
    """Random play ends every round well within 20000 actions."""
    state = _game(ruleset, seats, seed, mixed)
    rng = Rng(seed)
    for _ in range(20000):
        if state.phase not in ("playing", "closing"):
            break
        step(state, rng, take=0.4, drop_calls=0.2)
    assert state.phase in ("round_over", "game_over")
    assert state.round_scores is not None
    assert sum(state.totals) == sum(state.round_scores)


@settings(max_examples=25, deadline=None)
@given(RULESETS, SEATS, SEEDS, MIXED)
def test_records_written_while_playing_replay_identically(
    ruleset: str, seats: int, seed: int, mixed: bool
) -> None:
    """A record written by a driver replays to the very same records.md §4.5 state."""
    options = random_options(Rng(seed)) if mixed else None
    state, header, events = recorded_game(ruleset, seats, seed, options, max_rounds=2)
    result = replay_record(header, events)
    assert result.exit_code == 0, result.message
    out = dict(result.output)
    assert out.pop("applied") == len(events)
    assert out == state.to_json()


def _position(data: dict[str, Any]) -> dict[str, Any]:
    keys = ("hands", "discard", "turn", "dealer", "round", "pending", "obligations", "totals")
    pos = {k: data[k] for k in keys}
    pos.update(
        draw_pile=data["draw_pile"],
        consecutive_passes=data["consecutive_passes"],
        phase=data["phase"],
    )
    return pos


@settings(max_examples=30, deadline=None)
@given(RULESETS, SEATS, SEEDS, MIXED)
def test_S57_position_from_to_json_sets_up_an_equal_state(
    ruleset: str, seats: int, seed: int, mixed: bool
) -> None:
    """to_json() read back as a records.md §4.2 position gives the same JSON state."""
    state = _game(ruleset, seats, seed, mixed)
    rng = Rng(seed + 3)
    for n in range(300):
        if state.phase not in ("playing", "closing"):
            break
        data = state.to_json()
        if n % 7 == 0 and state.discard:
            again = StopState.from_position(state.rules, seats, _position(data), seed=seed)
            # §4.2 has no last_reveal: a position starts without one
            assert again.to_json() == {**data, "last_reveal": None}
        step(state, rng, take=0.4, drop_calls=0.2)


def _candidates(state: StopState, seat: int) -> list[StopAction]:
    """Every action ``seat`` could try with its own cards, calls left out."""
    n = state.seats
    hand = sorted(set(state.hands[seat]), key=lambda c: c.order)
    free = parse_card("FC")
    out: list[StopAction] = [Draw(seat), Pass(seat), CallAchtung(seat), CallStop(seat)]
    out.append(Accept(seat))
    p = state.pending
    reveal = p is not None and p.kind == "drawx" and state.rules.draw_x_mode == "reveal_and_play"
    for card in hand:
        out += [Interject(seat, card), Cancel(seat, card)]
        if reveal:  # elsewhere reveal_play is ignored (records.md §4.3)
            out.append(Accept(seat, reveal_play=card))
        for cards in ((card,), (free, card)):
            if card.code.endswith("Exch"):
                out += [Play(seat, cards, mode="left"), Play(seat, cards, mode="right")]
                out += [Play(seat, cards, mode="swap", target=t) for t in range(n) if t != seat]
            out.append(Play(seat, cards))
    return out


def _bare(action: StopAction) -> StopAction:
    if hasattr(action, "calls"):
        return replace(action, calls=frozenset())  # type: ignore[arg-type]
    return action


@settings(max_examples=25, deadline=None)
@given(RULESETS, SEATS, SEEDS, MIXED)
def test_S58_legal_actions_are_exactly_the_accepted_actions(
    ruleset: str, seats: int, seed: int, mixed: bool
) -> None:
    """An action (calls aside) is accepted by ``apply`` iff ``legal_actions`` lists it.

    In an open cancel window ``legal_actions`` lists only the window's actions (S-39,
    issue 12) while ``apply`` first closes the window for any other action (records.md
    §4.4), so there the accepted actions are those plus what is legal once it has closed.
    """
    state = _game(ruleset, seats, seed, mixed)
    rng = Rng(seed + 11)
    for n in range(200):
        if state.phase not in ("playing", "closing"):
            break
        if n % 9 == 0 or state.next_step() is not None:
            closed = None
            step_due = state.next_step()
            if step_due is not None:
                closed = state.copy()
                closed.run_step(step_due)
            for seat in range(seats):
                legal = {_bare(a) for a in state.legal_actions(seat)}
                if closed is not None:
                    legal |= {_bare(a) for a in closed.legal_actions(seat)}
                for action in _candidates(state, seat):
                    try:
                        state.copy().apply(action)
                        accepted = True
                    except IllegalAction:
                        accepted = False
                    assert accepted == (action in legal), action
        step(state, rng, take=0.4, drop_calls=0.2)


@settings(max_examples=20, deadline=None)
@given(RULESETS, SEATS, SEEDS)
def test_S63_sampled_states_match_the_view(ruleset: str, seats: int, seed: int) -> None:
    """A state sampled from a seat's view shows that seat the same view and moves."""
    state = _game(ruleset, seats, seed, False)
    rng = Rng(seed + 5)
    for n in range(150):
        if state.phase not in ("playing", "closing"):
            break
        if n % 10 == 0 and state.discard:
            seat = rng.below(seats)
            view = state.view(seat)
            sampled = sample_state(view, rng)
            assert_conserved(sampled)
            mine = sampled.view(seat)
            keys = [k for k in view if k not in ("log", "last_reveal")]
            assert {k: mine[k] for k in keys} == {k: view[k] for k in keys}
            if view["pending"] is None or view["pending"]["kind"] != "exchange":
                # (in a cancel window the moves after it depend on the hand received)
                assert sampled.legal_actions(seat) == state.legal_actions(seat)
        step(state, rng, take=0.4, drop_calls=0.2)
