"""Properties of the research environments (hypothesis).

* a masked action is always legal: the action behind every index the mask offers applies
  to a copy of the state without IllegalAction;
* an unmasked index is never legal: its action (where the index names one at this seat
  count) is not among the legal actions, and ``step`` refuses it leaving the state as it was;
* encoders never read hidden cards: redealing every card a seat cannot see (other hands,
  the draw pile, a hand's order, the destination deck) leaves its observation unchanged;
* Stop's fast encoder (the env's ``observation``, read from the state, reusing its
  discard plane between calls) gives exactly ``encode(state.view(seat))`` for every seat,
  through every way the engine changes a pile (reshuffles, late Stops, new rounds), and
  so does its in-place form (``encode_into``) over any old row, and the batched env's
  (``encode_into_but_hand`` of every row, then ``write_hand_planes`` of them all).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stoptable.core.driver import Decline
from stoptable.core.errors import IllegalAction, InvalidNotation
from stoptable.core.rng import Rng
from stoptable.games.stop import randomplay
from stoptable.games.stop.state import new_game
from stoptable.rl import stop_codec, stop_v0, stopandgo_v0, stopit_v0
from stoptable.rl.turn_env import TurnEnv
from tests.games.stopandgo.support import MAPS

SEEDS = st.integers(0, 2**20)
STOP_RULESETS = st.sampled_from(["abacus-en", "abacus-ja"])


def _key(action: Any) -> str:
    return json.dumps(action.to_json(), sort_keys=True)


def _random_step(env: TurnEnv, rng: np.random.Generator) -> None:
    env.step(int(rng.choice(env.legal_indices())))


@settings(max_examples=12, deadline=None)
@given(STOP_RULESETS, st.integers(2, 10), SEEDS)
def test_stop_mask_is_exactly_the_legal_actions(ruleset: str, seats: int, seed: int) -> None:
    env = stop_v0.raw_env(ruleset, seats, target_score=100)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for n in range(120):
        seat = env.seat_to_act
        if seat is None:
            break
        state = env.state
        legal = {_key(a) for a in env.legal if not isinstance(a, Decline)}
        mask = env.observe(f"player_{seat}")["action_mask"]
        offered = env.legal_indices()
        assert np.flatnonzero(mask).tolist() == offered
        for i in offered:
            action = env._chosen[i]
            assert env.codec.action(i, seat) == (None if isinstance(action, Decline) else action)
            if not isinstance(action, Decline):
                state.copy().apply(action)  # never raises IllegalAction
        for i in rng.choice(np.flatnonzero(mask == 0), 40, replace=False).tolist():
            action = env.codec.action(i, seat)
            assert action is None or _key(action) not in legal
        if n % 20 == 0:
            before = state.to_json()
            refused = int(rng.choice(np.flatnonzero(mask == 0)))
            with pytest.raises(IllegalAction):
                env.step(refused)
            assert state.to_json() == before
        _random_step(env, rng)


def _redeal_stop(state: Any, seat: int, rng: np.random.Generator) -> Any:
    """The same state from ``seat``'s point of view: other hands and the pile redealt."""
    other = state.copy()
    pool = list(other.draw)
    for s in range(other.seats):
        if s != seat:
            pool += other.hands[s]
    order = rng.permutation(len(pool)).tolist()
    pool = [pool[i] for i in order]
    other.draw = pool[: len(other.draw)]
    pool = pool[len(other.draw) :]
    for s in range(other.seats):
        if s != seat:
            size = len(other.hands[s])
            other.hands[s], pool = pool[:size], pool[size:]
    return other


@settings(max_examples=10, deadline=None)
@given(STOP_RULESETS, st.integers(2, 10), SEEDS)
def test_stop_encoder_never_reads_hidden_cards(ruleset: str, seats: int, seed: int) -> None:
    env = stop_v0.raw_env(ruleset, seats, target_score=100)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rulesets = ("abacus-en", "abacus-ja")
    for n in range(100):
        if env.seat_to_act is None:
            break
        if n % 10 == 0:
            state = env.state
            for seat in range(seats):
                redealt = _redeal_stop(state, seat, rng)
                if state.phase == "playing":
                    assert sorted(map(_key, redealt.legal_actions(seat))) == sorted(
                        map(_key, state.legal_actions(seat))
                    )
                a = stop_codec.encode(state.view(seat), rulesets)
                b = stop_codec.encode(redealt.view(seat), rulesets)
                assert np.array_equal(a, b)
                fast = env.adapter.observation(redealt, seat)  # what env.observe returns
                assert np.array_equal(fast, a)
        _random_step(env, rng)


@settings(max_examples=10, deadline=None)
@given(STOP_RULESETS, st.integers(2, 10), SEEDS)
def test_stop_fast_encoder_is_the_view_encoder(ruleset: str, seats: int, seed: int) -> None:
    env = stop_v0.raw_env(ruleset, seats, target_score=150)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rulesets = ("abacus-en", "abacus-ja")
    steps = 0
    while env.seat_to_act is not None and steps < 1500:  # rounds end, piles reshuffle
        seat = env.seat_to_act
        for s in {seat, int(rng.integers(seats))}:
            view = stop_codec.encode(env.state.view(s), rulesets)
            obs = env.observe(f"player_{s}")["observation"]
            assert obs.dtype == np.float32 and obs.flags.writeable
            assert np.array_equal(obs, view), (steps, s)
        _random_step(env, rng)
        steps += 1


@settings(max_examples=10, deadline=None)
@given(STOP_RULESETS, st.integers(2, 6), SEEDS)
def test_stop_fast_encoder_follows_every_pile_change(ruleset: str, seats: int, seed: int) -> None:
    """The env's random agents always make their calls, so no late-Stop window opens in
    the test above; here the engine's own random player drops calls (late Stops take cards
    back off the pile) while one encoder follows the game, every seat at every step."""
    state = new_game(ruleset, seats, seed, {"target_score": 150})
    encoder = stop_codec.StateEncoder(("abacus-en", "abacus-ja"))
    in_place = stop_codec.StateEncoder(("abacus-en", "abacus-ja"))
    batched = stop_codec.StateEncoder(("abacus-en", "abacus-ja"))  # the batched env's way
    row = np.empty(stop_codec.OBS_SIZE, dtype=np.float32)
    rows = np.empty((seats, stop_codec.OBS_SIZE), dtype=np.float32)
    rng = Rng(seed)
    for _ in range(500):
        if state.phase == "game_over":
            break
        if state.phase == "round_over":
            state.start_next_round()
        else:
            randomplay.step(state, rng, take=0.5, drop_calls=0.3)
        rows.fill(7.0)
        hands, views = [], []
        for seat in range(seats):
            view = stop_codec.encode(state.view(seat), ("abacus-en", "abacus-ja"))
            assert np.array_equal(encoder.encode(state, seat), view)
            row.fill(7.0)  # whatever the row held before: encode_into writes all of it
            in_place.encode_into(state, seat, memoryview(row))
            assert np.array_equal(row, view)
            hands.append(batched.encode_into_but_hand(state, seat, memoryview(rows[seat])))
            views.append(view)
        stop_codec.write_hand_planes(rows, hands)  # the rows but their hand planes, then those
        assert np.array_equal(rows, np.stack(views))


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 6), SEEDS, st.sampled_from([None, MAPS / "base.json"]))
def test_stopandgo_mask_and_encoder(seats: int, seed: int, game_map: Any) -> None:
    env = stopandgo_v0.raw_env(seats, game_map, destination_count=4)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for n in range(150):
        seat = env.seat_to_act
        if seat is None:
            break
        state = env.state
        offered = env.legal_indices()
        assert len(offered) == len(env.legal)  # every legal path has its own index
        for i in offered:
            state.copy().apply(env._chosen[i])
        mask = env.observe(f"player_{seat}")["action_mask"]
        if n % 15 == 0:
            refused = int(rng.choice(np.flatnonzero(mask == 0)))
            with pytest.raises(IllegalAction):
                env.step(refused)
            redealt = state.copy()
            redealt.deck = [redealt.deck[i] for i in rng.permutation(len(redealt.deck))]
            for s in range(seats):
                assert np.array_equal(
                    env.adapter.encode(state.view(s)), env.adapter.encode(redealt.view(s))
                )
        _random_step(env, rng)


def _stopit_request(env: Any, seat: int, index: int, view: dict[str, Any]) -> Any:
    """The request an index would stand for, read the way an agent reads its view."""
    lay = env.layout
    line: dict[str, Any]
    if index == lay.go:
        line = {"type": "go"}
    elif lay.grab <= index < lay.call:
        s = index - lay.grab
        line = {"type": "grab", "stack": f"S{s + 1}", "expect_id": _top(view, s)}
    elif lay.call <= index < lay.play:
        s = index - lay.call
        line = {"type": "call_stop", "stack": f"S{s + 1}", "expect_id": _top(view, s)}
    elif lay.play <= index < lay.insert:
        stops = [c for c in view["hand"] if c.startswith("S")]
        if index - lay.play >= len(stops):
            return None
        line = {"type": "play_stop", "card_id": stops[index - lay.play]}
    else:
        line = {"type": "insert", "pos": index - lay.insert}
    if line.get("expect_id", "") is None and line["type"] == "call_stop":
        return None
    return env.spec.action_from_json(line, seat, env.now)


def _top(view: dict[str, Any], stack: int) -> str | None:
    tops = view["tops"]
    return tops[stack] if stack < len(tops) else None


@settings(max_examples=6, deadline=None)
@given(st.integers(2, 6), st.sampled_from([50, 100, 400]), SEEDS)
def test_stopit_mask_is_exactly_the_legal_requests(seats: int, tick: int, seed: int) -> None:
    env = stopit_v0.parallel_env(seats=seats, tick_ms=tick)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for n in range(120):
        if not env.agents:
            break
        if n % 8 == 0:
            for seat in range(seats):
                view = env.state.view(seat)
                mask = obs[f"player_{seat}"]["action_mask"]
                for i in range(1, env.layout.n_actions):
                    request = _stopit_request(env, seat, i, view)
                    if mask[i]:
                        env.state.copy().apply(request)  # legal when the agent sees it
                    elif request is not None:
                        with pytest.raises((IllegalAction, InvalidNotation)):
                            env.state.copy().apply(request)
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, *_ = env.step(actions)


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 6), SEEDS)
def test_stopit_encoder_never_reads_hand_order_or_stacks(seats: int, seed: int) -> None:
    env = stopit_v0.parallel_env(seats=seats, tick_ms=100)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for n in range(120):
        if not env.agents:
            break
        if n % 10 == 0:
            state = env.state
            for seat in range(seats):
                other = state.copy()
                for s in range(seats):
                    if s != seat:
                        hand = other.hands[s]
                        other.hands[s] = [hand[i] for i in rng.permutation(len(hand))]
                for k, stack in enumerate(other.stacks):
                    if len(stack) > 1:
                        below = [stack[i] for i in rng.permutation(len(stack) - 1)]
                        other.stacks[k] = [*below, stack[-1]]
                other._public = other._table = None
                a = env.layout.encode(state.view(seat))
                b = env.layout.encode(other.view(seat))
                assert np.array_equal(a, b)
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, *_ = env.step(actions)
