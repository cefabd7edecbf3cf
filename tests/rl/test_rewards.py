"""Episodes that end and rewards that cannot be gamed (issue 23): the S-64 stall in the
envs, ``illegal=`` and ``illegal_reward`` through ``gym.make`` and the PettingZoo
constructors, a default below anything legal play can still cost, ``step`` after the end,
and the optional ``shaping="hand"``."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import stoptable.rl  # noqa: F401  (registers the ids)
from stoptable.core.errors import IllegalAction
from stoptable.rl import stop_codec, stop_v0, stopandgo_v0
from stoptable.rl.single import EpisodeOver


def _unoffered(obs: dict[str, np.ndarray]) -> int:
    return int(np.flatnonzero(obs["action_mask"] == 0)[0])


def _highest(obs: dict[str, np.ndarray]) -> int:
    """The policy that loops a round (docs/rl.md): always the highest offered index."""
    return int(np.flatnonzero(obs["action_mask"])[-1])


def test_S64_the_looping_policy_ends_by_the_stall_cap() -> None:
    """Seed 0, the learner always taking the highest offered index against the heuristic:
    round 1 hoards the deck and loops (docs/rl.md); S-64 ends the match, scored as it
    stands, and the hoarding learner comes last."""
    env = gym.make("stoptable/Stop-v0", stall_actions=1500)
    obs, _ = env.reset(seed=0)
    steps = 0
    while steps < 10_000:
        obs, _, terminated, truncated, _ = env.step(_highest(obs))
        steps += 1
        if terminated or truncated:
            break
    assert terminated and not truncated
    state = env.unwrapped.aec.state  # type: ignore[attr-defined]
    assert state.round == 1 and state.stalled and state.round_actions == 1500
    outcome = state.result()
    assert outcome.termination == "stalled" and outcome.ranks[0] == 2
    assert steps > 1500  # the learner's offers and declines are steps too


def test_S64_the_envs_refuse_to_switch_the_stall_cap_off() -> None:
    with pytest.raises(ValueError, match="S-64"):
        stop_v0.env(stall_actions=0)


def test_the_ids_register_a_step_limit() -> None:
    for env_id in ("stoptable/Stop-v0", "stoptable/StopAndGo-v0", "stoptable/StopIt-v0"):
        spec = gym.spec(env_id)
        assert spec.max_episode_steps is not None and spec.max_episode_steps > 1000


@pytest.mark.parametrize("env_id", ["stoptable/Stop-v0", "stoptable/StopAndGo-v0"])
def test_illegal_reward_through_gym_make(env_id: str) -> None:
    kwargs: dict[str, Any] = {"destination_count": 3} if "Go" in env_id else {}
    env = gym.make(env_id, illegal_reward=-5.0, **kwargs)
    obs, _ = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(_unoffered(obs))
    assert reward == -5.0 and terminated and not truncated and info["illegal_action"]
    with pytest.raises(EpisodeOver):
        env.step(0)


def test_step_before_reset_and_after_the_end_raises() -> None:
    env = gym.make("stoptable/Stop-v0", target_score=30)
    with pytest.raises(EpisodeOver):
        env.unwrapped.step(0)
    obs, _ = env.reset(seed=3)
    done = False
    while not done:
        obs, _, terminated, truncated, _ = env.step(_first(obs))
        done = terminated or truncated
    with pytest.raises(EpisodeOver):
        env.step(_first(obs))


def _first(obs: dict[str, np.ndarray]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


@pytest.mark.parametrize(
    ("seats", "target", "reward", "bound"),
    [
        (2, 500, "round+match", 1 + 0.5 * (1000 + 1544) / 100),
        (4, 100, "round", 0.75 * (200 + 1544) / 100),
        (3, 500, "match", 1.0),
    ],
)
def test_the_default_illegal_reward_is_below_the_scoring_bound(
    seats: int, target: int, reward: str, bound: float
) -> None:
    env = stop_v0.raw_env("abacus-en", seats, target_score=target, reward=reward)
    assert env.adapter.worst_return() == pytest.approx(bound)
    assert env.illegal_reward == pytest.approx(-(bound + 1))
    assert stopandgo_v0.raw_env(2).illegal_reward == -2.0


@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_no_legal_continuation_costs_as_much_as_an_illegal_move(opponents: str) -> None:
    """Measured: at every step of unmasked-random-legal episodes (target 100, where a random
    learner is below -1 almost always), what legal play still earns to the end is above the
    default ``illegal_reward``: stopping with an illegal move never pays."""
    env = gym.make("stoptable/Stop-v0", opponents=opponents, target_score=100)
    floor = env.unwrapped.illegal_reward  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)
    worst = 0.0
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        rewards, done = [], False
        while not done:
            obs, r, terminated, truncated, _ = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"])))
            )
            rewards.append(float(r))
            done = terminated or truncated
        to_go = np.cumsum(rewards[::-1])
        worst = min(worst, float(to_go.min()))
    assert worst < -1.0  # the old fixed -1 was a profit
    assert floor < worst


def test_illegal_raise_and_random_legal() -> None:
    env = gym.make("stoptable/Stop-v0", illegal="raise")
    obs, _ = env.reset(seed=4)
    aec = env.unwrapped.aec  # type: ignore[attr-defined]
    before = aec.state.to_json()
    with pytest.raises(IllegalAction):
        env.step(_unoffered(obs))
    assert aec.state.to_json() == before

    def run(seed: int) -> list[Any]:
        e = gym.make("stoptable/Stop-v0", illegal="random_legal")
        e.reset(seed=seed)
        seen = []
        for _ in range(30):
            _, _, terminated, truncated, info = e.step(stop_codec.N_ACTIONS - 2)  # call_stop
            assert info["illegal_action"]  # en never offers call_stop
            seen.append(e.unwrapped.aec.state.to_json()["discard"])  # type: ignore[attr-defined]
            if terminated or truncated:
                break
        return seen

    assert run(7) == run(7)  # seeded: the same legal stand-ins
    assert len(run(7)) == 30


def test_the_old_illegal_name_lose_still_penalizes() -> None:
    env = gym.make("stoptable/Stop-v0", illegal="lose")
    assert env.unwrapped.illegal == "penalize"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="illegal"):
        stop_v0.env(illegal="ignore")


def test_pettingzoo_constructors_take_the_illegal_rule() -> None:
    env = stop_v0.env(seats=3, illegal="penalize", illegal_reward=-3.0)
    env.reset(seed=2)
    agent = env.agent_selection
    obs, *_ = env.last()
    env.step(_unoffered(obs))
    assert env.rewards[agent] == -3.0 and env.infos[agent]["illegal_action"]
    assert all(env.terminations.values())
    for _agent in env.agent_iter():
        assert env.last()[2]  # terminated
        env.step(None)
    assert env.agents == []
    aec = stop_v0.env(seats=2)  # the AEC default stays: raise, and nothing changes
    aec.reset(seed=2)
    obs, *_ = aec.last()
    with pytest.raises(IllegalAction):
        aec.step(_unoffered(obs))


def test_hand_shaping_adds_the_dealt_hands_and_changes_nothing_else() -> None:
    """``shaping="hand"`` pays the change of the learner's hand in minus points / 100 each
    step and telescopes to 0 at each round's end: over an episode it adds exactly the dealt
    hands / 100, a chance quantity (potential-based shaping)."""
    returns = {}
    dealt: list[int] = []
    for shaping in (None, "hand"):
        env = gym.make("stoptable/Stop-v0", shaping=shaping, target_score=100, opponents="random")
        aec = env.unwrapped.aec  # type: ignore[attr-defined]
        if shaping is None:  # note the learner's hand at every deal
            new_game, stopped = aec.adapter.new_game, aec.adapter.stopped

            def noting_new_game(seed: int, new_game: Any = new_game) -> Any:
                state, driver = new_game(seed)
                dealt.append(sum(c.value(False) for c in state.hands[0]))
                return state, driver

            def noting_stopped(state: Any, driver: Any, stopped: Any = stopped) -> Any:
                rewards, more = stopped(state, driver)
                if more:
                    dealt.append(sum(c.value(False) for c in state.hands[0]))
                return rewards, more

            aec.adapter.new_game, aec.adapter.stopped = noting_new_game, noting_stopped
        obs, _ = env.reset(seed=11)
        rng = np.random.default_rng(1)
        total, done = 0.0, False
        while not done:
            obs, r, terminated, truncated, _ = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"])))
            )
            total += float(r)
            done = terminated or truncated
        returns[shaping] = total
    assert len(dealt) > 1
    assert returns["hand"] - returns[None] == pytest.approx(sum(dealt) / 100)


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("stoptable/Stop-v0", {"target_score": 30}),
        ("stoptable/StopAndGo-v0", {"destination_count": 2}),
        ("stoptable/StopIt-v0", {}),
    ],
)
def test_action_masks_match_the_observation_and_never_go_all_false(
    env_id: str, kwargs: dict[str, Any]
) -> None:
    env = gym.make(env_id, **kwargs)
    masks = env.get_wrapper_attr("action_masks")
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    done = False
    while not done:
        mask = masks()
        assert mask.dtype == bool and mask.any()
        assert np.array_equal(mask, obs["action_mask"].astype(bool))
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = terminated or truncated
    assert masks().sum() == 1 and obs["action_mask"].sum() == 1  # the idle index alone


@pytest.mark.parametrize("make", [stop_v0.env, stopandgo_v0.env])
def test_max_steps_and_max_ticks_are_one_budget(make: Any) -> None:
    for key in ("max_steps", "max_ticks"):
        env = make(**{key: 7})
        env.reset(seed=1)
        for _ in range(7):
            obs, *_ = env.last()
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert all(env.truncations.values())
    with pytest.raises(ValueError, match="same budget"):
        make(max_steps=5, max_ticks=6)


def test_stopit_takes_max_steps_too() -> None:
    from stoptable.rl import stopit_v0

    assert stopit_v0.parallel_env(max_steps=9).max_ticks == 9
    assert stopit_v0.parallel_env(max_ticks=8).max_ticks == 8
    with pytest.raises(ValueError, match="same budget"):
        stopit_v0.parallel_env(max_steps=5, max_ticks=6)
    env = stopit_v0.parallel_env(illegal="raise")
    obs, _ = env.reset(seed=1)
    with pytest.raises(IllegalAction):
        env.step({"player_0": _unoffered(obs["player_0"])})
