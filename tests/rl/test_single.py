"""The single-learner envs' fast step (the learner's offered index run on the game's driver,
the bots' choices submitted as they are) plays the same game as stepping every decision
through the AEC env: same observations, masks, rewards and ends, step for step."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from stoptable.rl.single import TurnSingleEnv, make_stop, make_stopandgo


def _slow(env: TurnSingleEnv) -> TurnSingleEnv:
    """The same env made to take the AEC env's step for every decision: a ``max_steps``
    of its own (one no game reaches) turns the fast path off."""
    env.aec.max_steps = 10**9
    assert not env.aec.fast_path_ok
    return env


@pytest.mark.parametrize(
    ("make", "options"),
    [
        (make_stop, {"target_score": 60, "opponents": "heuristic"}),
        (
            make_stop,
            {"ruleset": "abacus-ja", "seats": 3, "target_score": 40, "opponents": "random"},
        ),
        (make_stopandgo, {"destination_count": 2}),
    ],
)
def test_the_fast_step_plays_the_aec_game(make: Any, options: dict[str, Any]) -> None:
    fast, slow = make(**options), _slow(make(**options))
    assert fast.aec.fast_path_ok
    rng = np.random.default_rng(3)
    steps = episodes = 0
    for seed in (5, 6):
        obs, _ = fast.reset(seed=seed)
        ref, _ = slow.reset(seed=seed)
        done = False
        while not done:
            for key in ("observation", "action_mask"):
                assert np.array_equal(obs[key], ref[key]), (key, steps)
            assert np.array_equal(fast.action_masks(), slow.action_masks())
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, term, trunc, _ = fast.step(action)
            ref, ref_reward, ref_term, ref_trunc, _ = slow.step(action)
            assert (reward, term, trunc) == (ref_reward, ref_term, ref_trunc), steps
            done = term or trunc
            steps += 1
        episodes += 1
    assert episodes == 2 and steps > 10


def test_an_unoffered_index_still_takes_the_illegal_rule() -> None:
    env = make_stop(target_score=40, opponents="random", illegal="penalize")
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, _, info = env.step(bad)
    assert info.get("illegal_action") is True and term and reward == env.illegal_reward
