"""Seeded episodes of the turn-based envs pinned by a digest of everything they hand out.

The env step is tuned for speed (the encoder's caches, masks handed out without a copy, the
reward dicts kept across steps, the single env's fast path): any such change must leave every
observation, mask, reward, end and info of every seed as it was, byte for byte. Each test
plays a few short seeded episodes with random offered indices (its own seeded generator, so
the choices depend only on the masks) and hashes, at every step: the agent, its observation
and mask, its ``last`` reward, ends and info, the whole reward dict, and the observation of
one other agent (not to act: its all-zero mask and its own view, read between steps, as the
encoder's per-seat caches must allow). A digest that moves means the env hands out something
else for some seed: find out why before pinning a new one.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np
import pytest

from stoptable.rl import stop_v0, stopandgo_v0
from stoptable.rl.single import make_stop


def _offered(mask: np.ndarray, draw: Any) -> int:
    offered = np.flatnonzero(mask)
    return int(offered[int(draw() * len(offered))])


def _feed(digest: Any, *parts: Any) -> None:
    for part in parts:
        if isinstance(part, np.ndarray):
            digest.update(str((part.dtype.str, part.shape)).encode())
            digest.update(part.tobytes())
        else:
            digest.update(repr(part).encode())
        digest.update(b"|")


def aec_digest(make: Any, seeds: range) -> tuple[str, int]:
    """The sha256 of ``make()``'s episodes from ``seeds`` (see the module doc) and the
    number of steps taken."""
    digest = hashlib.sha256()
    steps = 0
    for seed in seeds:
        env = make()
        draw = random.Random(seed).random
        env.reset(seed=seed)
        agents = env.possible_agents
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            _feed(digest, agent, obs["observation"], obs["action_mask"], reward)
            _feed(digest, terminated, truncated, sorted(info.items()), env.unwrapped.rewards)
            other = agents[(agents.index(agent) + 1 + steps % (len(agents) - 1)) % len(agents)]
            seen = env.observe(other)
            _feed(digest, other, seen["observation"], seen["action_mask"])
            if terminated or truncated:
                env.step(None)
                continue
            env.step(_offered(obs["action_mask"], draw))
            steps += 1
    return digest.hexdigest(), steps


def single_digest(make: Any, seeds: range) -> tuple[str, int]:
    """The same for a Gymnasium single-learner env: what reset and step return."""
    digest = hashlib.sha256()
    steps = 0
    for seed in seeds:
        env = make()
        draw = random.Random(seed).random
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            _feed(digest, obs["observation"], obs["action_mask"], sorted(info.keys()))
            _feed(digest, info["action_mask"], env.action_masks())
            obs, reward, terminated, truncated, info = env.step(_offered(obs["action_mask"], draw))
            _feed(digest, reward, terminated, truncated)
            done = terminated or truncated
            steps += 1
        _feed(digest, obs["observation"], obs["action_mask"], info["action_mask"])
    return digest.hexdigest(), steps


PINNED = {
    "stop-en-2": "d8eba451d5ddcd0901ecb8dc344bbd0b590c486972dae9c577d80423ec3e9bcd",
    "stop-ja-3-shaped": "f1db8f14aedabcb9e16aa4ab6b27bad96a79a96db58560c5e51cf026f98f08cb",
    "stop-en-4-truncated": "dca247ff0a090b1aa9f9d2eb1465cf3e8d1ac4040fecc5ed5000fc950a6a298c",
    "stopandgo-2": "c17d6ae1adc2b6f0ecd743f2c9a2457ec6295ccc315d07dcfe7bf371da62b18c",
    "single-stop-en-2": "b3f81313bbde1ff60c7ebb487c724e9f9f4d419cca5b465e73e6739c5320cb4d",
    "single-stop-ja-3": "02173da31707728024ec3c5d59fe996477b4658c30bdce360316a0b363b5a680",
}
"""The digests of the code these tests were written on (issue 20, before the env step was
tuned further)."""

CASES: dict[str, tuple[Any, range]] = {
    "stop-en-2": (lambda: stop_v0.env(ruleset="abacus-en", seats=2, target_score=150), range(3)),
    "stop-ja-3-shaped": (
        lambda: stop_v0.env(ruleset="abacus-ja", seats=3, target_score=80, shaping="hand"),
        range(10, 12),
    ),
    "stop-en-4-truncated": (
        lambda: stop_v0.env(seats=4, target_score=100, reward="match", max_steps=150),
        range(20, 22),
    ),
    "stopandgo-2": (lambda: stopandgo_v0.env(seats=2, destination_count=2), range(30, 32)),
}
SINGLE: dict[str, tuple[Any, range]] = {
    "single-stop-en-2": (
        lambda: make_stop(target_score=150, opponents="heuristic"),
        range(40, 43),
    ),
    "single-stop-ja-3": (
        lambda: make_stop(ruleset="abacus-ja", seats=3, target_score=60, opponents="random"),
        range(50, 54),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_seeded_aec_episodes_hand_out_what_they_did(name: str) -> None:
    make, seeds = CASES[name]
    digest, steps = aec_digest(make, seeds)
    assert steps > 50
    assert digest == PINNED[name], (name, digest, steps)


@pytest.mark.parametrize("name", sorted(SINGLE))
def test_seeded_single_env_episodes_hand_out_what_they_did(name: str) -> None:
    make, seeds = SINGLE[name]
    digest, steps = single_digest(make, seeds)
    assert steps > 20
    assert digest == PINNED[name], (name, digest, steps)
