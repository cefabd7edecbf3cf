"""Readable actions (issue 23): ``describe(i)`` and ``index_of(action)`` in every game's
notation, and ``render()`` showing the learner's own view with its offered indices."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import stoptable.rl  # noqa: F401  (registers the ids)
from stoptable.rl import stop_codec, stop_v0, stopandgo_v0, stopit_v0


def test_every_stop_index_reads_as_notation_and_parses_back() -> None:
    env = stop_v0.raw_env(seats=10)  # every swap target exists at 10 seats
    env.reset(seed=1)
    for i in range(stop_codec.N_ACTIONS):
        if i != stop_codec.DECLINE:
            assert env.index_of(env.describe(i)) == i, env.describe(i)
    assert env.describe(0) == "play R0" and env.describe(stop_codec.DECLINE) == "decline"
    assert env.describe(1000).startswith("accept reveal")
    with pytest.raises(IndexError):
        env.describe(stop_codec.N_ACTIONS)
    small = stop_v0.raw_env(seats=2)
    small.reset(seed=1)
    swap = next(i for i, k in enumerate(stop_codec.KEYS) if k[0] == "play" and k[4] == 5)
    assert "no such seat" in small.describe(swap)


@pytest.mark.parametrize("make", [lambda: stop_v0.raw_env(seats=3), lambda: stopandgo_v0.raw_env()])
def test_offered_indices_read_as_their_actions(make: object) -> None:
    env = make()  # type: ignore[operator]
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(200):
        if env.seat_to_act is None:
            break
        for i in env.legal_indices():
            action = env._chosen[i]
            assert env.describe(i) == action.notation()
            assert env.index_of(action) == i
            assert env.index_of(action.notation()) == i
        env.step(int(rng.choice(env.legal_indices())))


def test_stopandgo_unoffered_indices_name_the_car_state() -> None:
    env = stopandgo_v0.raw_env()
    env.reset(seed=1)
    lay = env.adapter.layout
    assert env.describe(env.adapter.idle_index) == f"stand on {lay.ids[0]} (route 0)"
    assert all(env.describe(i) for i in range(lay.n_actions))


def test_stopit_indices_read_and_parse_back() -> None:
    env = stopit_v0.parallel_env()
    env.reset(seed=2)
    assert [env.describe(i) for i in (0, 1, 2, 11)] == ["wait", "go", "grab S1", "call_stop S1"]
    assert env.index_of("wait") == 0 and env.index_of("go") == 1
    assert env.index_of({"type": "grab", "stack": "S3"}) == 4
    rng = np.random.default_rng(2)
    for _ in range(300):
        offered = env.legal_indices("player_0")
        for i in offered:
            line = env._lines[0].get(i)
            if line is not None:
                assert env.index_of(line, 0) == i
        env.step({a: int(rng.choice(env.legal_indices(a))) for a in env.agents})
        if not env.agents:
            break


def test_render_shows_the_learners_own_hand_and_indices() -> None:
    env = gym.make("stoptable/Stop-v0", render_mode="ansi")
    obs, _ = env.reset(seed=4)
    text = env.render()
    assert isinstance(text, str)
    hand = env.unwrapped.aec.state.view(0)["hand"]  # type: ignore[attr-defined]
    assert f"hand: {hand}" in text
    for i in np.flatnonzero(obs["action_mask"]):
        assert f"  {i}: {env.unwrapped.describe(int(i))}" in text  # type: ignore[attr-defined]
    spectator = env.unwrapped.aec.render()  # type: ignore[attr-defined]
    assert f"hand: {hand}" not in spectator
    go = gym.make("stoptable/StopIt-v0", render_mode="ansi")
    go.reset(seed=1)
    assert "  0: wait" in go.render()
