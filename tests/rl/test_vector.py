"""The batched env ``stoptable.rl.vector`` is SyncVectorEnv of the same ids, step for step:
same observations, masks, rewards, ends and NEXT_STEP autoresets."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import stoptable.rl  # noqa: F401  (registers the ids)
from stoptable.rl.vector import HANDS_AT_ONCE, TurnVectorEnv


@pytest.mark.parametrize(
    ("game", "env_id", "options", "n", "calls"),
    [
        ("stop", "stoptable/Stop-v0", {"target_score": 40, "opponents": "random"}, 3, 600),
        (
            "stop",
            "stoptable/Stop-v0",
            {"ruleset": "abacus-ja", "seats": 3, "target_score": 40},
            3,
            600,
        ),
        # from HANDS_AT_ONCE games on, the hand planes are written for the batch at once
        ("stop", "stoptable/Stop-v0", {"target_score": 40, "opponents": "random"}, 16, 120),
        ("stopandgo", "stoptable/StopAndGo-v0", {"destination_count": 2}, 3, 600),
    ],
)
def test_the_batched_env_steps_as_sync_vector_env(
    game: str, env_id: str, options: dict[str, Any], n: int, calls: int
) -> None:
    ours = TurnVectorEnv(game, n, **options)
    assert (ours._write_hands is not None) == (game == "stop" and n >= HANDS_AT_ONCE)
    sync = SyncVectorEnv([lambda: gym.make(env_id, **options) for _ in range(n)])
    assert ours.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"]
    assert ours.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, _ = ours.reset(seed=9)
    ref, _ = sync.reset(seed=9)
    rng = np.random.default_rng(9)
    ends = 0
    for _ in range(calls):
        for key in ("observation", "action_mask"):
            assert np.array_equal(obs[key], ref[key]), key
        assert ours.action_masks().any(axis=1).all()
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, _ = ours.step(actions)
        ref, ref_rewards, ref_terminated, ref_truncated, _ = sync.step(actions)
        assert np.allclose(rewards, ref_rewards)
        assert np.array_equal(terminated, ref_terminated)
        assert np.array_equal(truncated, ref_truncated)
        ends += int(terminated.sum())
    assert ends >= 1  # autoreset was exercised


def test_make_vec_builds_it_and_illegal_moves_are_flagged() -> None:
    envs = gym.make_vec("stoptable/Stop-v0", 2, vectorization_mode="vector_entry_point")
    assert isinstance(envs, TurnVectorEnv) and envs.observation_space["observation"].shape == (
        2,
        406,
    )
    obs, _ = envs.reset(seed=1)
    bad = [int(np.flatnonzero(m == 0)[0]) for m in obs["action_mask"]]
    _, rewards, terminated, _, infos = envs.step(bad)
    assert terminated.all() and infos["illegal_action"].all()
    assert (rewards == envs.envs[0].illegal_reward).all()
    with pytest.raises(ValueError, match="num_envs"):
        TurnVectorEnv("stop", 0)
    with pytest.raises(ValueError, match="max_episode_steps"):
        TurnVectorEnv("stop", 1, max_episode_steps="unlimited")
