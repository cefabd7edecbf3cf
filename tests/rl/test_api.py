"""The upstream API checks, unmodified: PettingZoo's ``api_test``, ``seed_test``,
``parallel_api_test``, ``parallel_seed_test`` and Gymnasium's ``check_env``, on every env
and ruleset. Short matches (``target_score``, ``destination_count``) keep them quick."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import stoptable.rl  # noqa: F401  (registers the Gymnasium ids)
from stoptable.rl import stop_v0, stopandgo_v0, stopit_v0

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

STOP_CASES = [(ruleset, seats) for ruleset in ("abacus-en", "abacus-ja") for seats in (2, 4, 10)]


@pytest.mark.parametrize(("ruleset", "seats"), STOP_CASES)
def test_stop_api_and_seed(ruleset: str, seats: int) -> None:
    api_test(stop_v0.env(ruleset=ruleset, seats=seats, target_score=60), num_cycles=300)
    seed_test(lambda: stop_v0.env(ruleset=ruleset, seats=seats, target_score=60), 100)


@pytest.mark.parametrize("seats", [2, 6])
def test_stopandgo_api_and_seed(seats: int) -> None:
    api_test(stopandgo_v0.env(seats=seats, destination_count=3), num_cycles=300)
    seed_test(lambda: stopandgo_v0.env(seats=seats, destination_count=3), 100)


@pytest.mark.parametrize(("seats", "tick_ms"), [(2, 100), (6, 250)])
def test_stopit_parallel_api_and_seed(seats: int, tick_ms: int) -> None:
    parallel_api_test(stopit_v0.parallel_env(seats=seats, tick_ms=tick_ms), num_cycles=500)
    parallel_seed_test(lambda: stopit_v0.parallel_env(seats=seats, tick_ms=tick_ms), 200)


def test_stopit_as_aec_passes_api_test() -> None:
    api_test(stopit_v0.env(seats=3, tick_ms=100), num_cycles=200)


GYM_CASES: list[tuple[str, dict[str, Any]]] = [
    ("stoptable/Stop-v0", {"ruleset": "abacus-en", "seats": 2, "target_score": 100}),
    ("stoptable/Stop-v0", {"ruleset": "abacus-ja", "seats": 4, "opponents": "random"}),
    ("stoptable/StopAndGo-v0", {"seats": 3, "destination_count": 3}),
    ("stoptable/StopIt-v0", {"seats": 3, "tick_ms": 100}),
]


@pytest.mark.parametrize(("env_id", "kwargs"), GYM_CASES)
def test_gymnasium_check_env(env_id: str, kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gym.make(env_id, render_mode="ansi", **kwargs)
        check_env(env.unwrapped)
    env.close()
