"""A batched Gymnasium env: N single-learner games stepped in one call, ``stoptable.rl.vector``.

>>> from stoptable.rl.vector import TurnVectorEnv
>>> envs = TurnVectorEnv("stop", 4, opponents="random", target_score=100)
>>> obs, infos = envs.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((4, 406), (4, 1116))

Each of the N games is the ``stoptable/Stop-v0`` (or ``StopAndGo-v0``) game of
:mod:`stoptable.rl.single`, with the same seeding (game ``i`` of ``reset(seed=s)`` is the
single env's ``reset(seed=s + i)``), the same rewards and illegal-move rule, and the id's
step limit. What :class:`gymnasium.vector.SyncVectorEnv` of those envs costs on top of the
games themselves is left out: no wrapper stack per game, no per-step ``info`` dicts, a
learner's step run on the game's driver directly (:func:`_play`: the bots' moves need no
mask or index), and the observations and masks written straight into arrays kept for the
batch, the masks of all games in one assignment (the arrays ``step`` returns are those
buffers: copy them to keep them past the next call).

It is a :class:`gymnasium.vector.VectorEnv` with ``autoreset_mode`` NEXT_STEP, Gymnasium's
default: the step after a game ended resets that game (its action is ignored, its reward is
0) and returns the new game's first observation. A finished game's mask offers only the
game's idle index, so a sampler that draws from the last masks never meets an empty one.
``infos`` is empty but for ``"illegal_action"`` (a bool array) when an illegal index was
played in the step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from stoptable.rl.common import MASK_DTYPE, OBS_DTYPE
from stoptable.rl.single import MAX_EPISODE_STEPS, TurnSingleEnv, make_stop, make_stopandgo

MAKERS: dict[str, Callable[..., TurnSingleEnv]] = {"stop": make_stop, "stopandgo": make_stopandgo}
IDS = {"stop": "stoptable/Stop-v0", "stopandgo": "stoptable/StopAndGo-v0"}


class TurnVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` games of ``game`` ("stop" or "stopandgo"); ``options`` as for
    ``gym.make`` of the id (``opponents``, ``seat``, ``illegal``, ruleset options...);
    ``max_episode_steps`` defaults to the id's registered limit (None: none)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012  (gymnasium's)

    def __init__(
        self,
        game: str,
        num_envs: int,
        max_episode_steps: int | str | None = "registered",
        **options: Any,
    ) -> None:
        if game not in MAKERS:
            raise ValueError(f"game must be one of {sorted(MAKERS)}, not {game!r}")
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        self.envs: list[TurnSingleEnv] = [MAKERS[game](**options) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.limit = (
            MAX_EPISODE_STEPS[IDS[game]] if max_episode_steps == "registered" else max_episode_steps
        )
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        obs_space = first.observation_space
        assert isinstance(obs_space, spaces.Dict)
        size = obs_space["observation"].shape[0]
        n = first.aec.adapter.n_actions
        self._obs: np.ndarray = np.zeros((num_envs, size), dtype=OBS_DTYPE)
        self._masks: np.ndarray = np.zeros((num_envs, n), dtype=MASK_DTYPE)
        self._rewards: np.ndarray = np.zeros(num_envs, dtype=np.float64)
        self._terminated: np.ndarray = np.zeros(num_envs, dtype=bool)
        self._truncated: np.ndarray = np.zeros(num_envs, dtype=bool)
        self._steps: np.ndarray = np.zeros(num_envs, dtype=np.int64)
        self._done: np.ndarray = np.zeros(num_envs, dtype=bool)
        """Game ``i`` ended at the last step: the next step resets it."""

    def _write(self, i: int, cols: list[int]) -> None:
        """Game ``i``'s learner observation into the batch's buffer, and its offered
        indices onto ``cols`` (the step writes every game's mask in one assignment)."""
        env = self.envs[i]
        aec = env.aec
        self._obs[i] = aec.adapter.observation(aec.state, env.seat)
        if aec.seat_to_act is None:
            cols.append(aec.adapter.idle_index)
        else:
            cols.extend(aec._chosen)

    def _write_masks(self, rows: list[int], cols: list[int]) -> None:
        """Every game's mask from the ``(row, index)`` pairs of the offered indices."""
        masks = self._masks
        masks.fill(0)
        masks[rows, cols] = 1

    def _batch(self) -> dict[str, np.ndarray]:
        return {"observation": self._obs, "action_mask": self._masks}

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Reset every game: game ``i`` with ``seed + i`` (or ``seed[i]``)."""
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [
                None if seed is None else seed + i for i in range(self.num_envs)
            ]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{self.num_envs} seeds needed, {len(seeds)} given")
        rows: list[int] = []
        cols: list[int] = []
        for i, env in enumerate(self.envs):
            env.reset(seed=seeds[i])
            before = len(cols)
            self._write(i, cols)
            rows += [i] * (len(cols) - before)
        self._write_masks(rows, cols)
        self._steps[:] = 0
        self._done[:] = False
        return self._batch(), {}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every game with its action (a game that ended at the last step is reset
        instead, NEXT_STEP autoreset)."""
        acts = np.asarray(actions).reshape(self.num_envs).tolist()
        rewards, terminated, truncated = self._rewards, self._terminated, self._truncated
        limit = self.limit
        illegal: list[int] = []
        rows: list[int] = []
        cols: list[int] = []
        done = self._done
        steps = self._steps
        for i, env in enumerate(self.envs):
            if done[i]:
                env.reset()
                steps[i] = 0
                done[i] = False
                rewards[i] = 0.0
                terminated[i] = truncated[i] = False
            else:
                reward, term, trunc, was_illegal = _play(env, acts[i])
                steps[i] += 1
                if not (term or trunc) and limit is not None and steps[i] >= limit:
                    trunc = True
                    env.over = True
                rewards[i] = reward
                terminated[i] = term
                truncated[i] = trunc
                done[i] = term or trunc
                if was_illegal:
                    illegal.append(i)
            before = len(cols)
            self._write(i, cols)
            rows += [i] * (len(cols) - before)
        self._write_masks(rows, cols)
        infos: dict[str, Any] = {}
        if illegal:
            flags = np.zeros(self.num_envs, dtype=bool)
            flags[illegal] = True
            infos["illegal_action"] = flags
            infos["_illegal_action"] = flags.copy()
        return self._batch(), rewards.copy(), terminated.copy(), truncated.copy(), infos

    def action_masks(self) -> np.ndarray:
        """Every game's mask as booleans, shape ``(num_envs, n_actions)``."""
        masks: np.ndarray = self._masks.astype(bool)
        return masks

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""


def _play(env: TurnSingleEnv, action: int) -> tuple[float, bool, bool, bool]:
    """:meth:`TurnSingleEnv.step_quietly` of ``env``, the same game step for step, run on
    the driver directly: ``(reward, terminated, truncated, illegal_action)``.

    The single env is a learner seat in the multi-agent env, so every decision (the
    bots' too) goes through :meth:`TurnEnv.step` with its mask, index lookup and reward
    dicts; here a bot's choice is submitted as it is, only the learner's decisions are
    indexed (no mask array: the batch writes its masks at once), and the round and game
    rewards are added up for the learner alone. The AEC env's seat to act, legal list,
    offered indices and ends are kept as :meth:`TurnEnv.step` keeps them, so the game can
    go on either way. An index the mask does not offer, shaping, or the AEC env's own
    ``max_steps`` take the single env's path.
    """
    aec = env.aec
    choice = aec._chosen.get(action)
    if choice is None or aec._phi is not None or aec.max_steps is not None or env.over:
        return env.step_quietly(action)
    learner = env.seat
    state, driver, adapter, submit = aec.state, aec.driver, aec.adapter, aec._submit
    bots = env.bots
    reward = 0.0
    submit(choice)
    moves = 1
    while True:
        decision = driver.decision()
        if decision is None:  # a round (or the match) ended
            round_rewards, more = adapter.stopped(state, driver)
            reward += round_rewards[learner]
            if more:
                continue
            reward += adapter.final_rewards(state)[learner]
            aec.steps += moves
            aec._end(truncated=False)
            env.over = True
            return reward, True, False, False
        seat = decision.seat
        legal = decision.legal
        if seat == learner:
            aec.steps += moves
            aec._seat = seat
            aec.agent_selection = aec.possible_agents[seat]
            aec.legal = legal
            aec._chosen = _indexed(aec.codec, legal)
            aec._mask_out = True  # observe() builds the mask from _chosen
            return reward, False, False, False
        bot = bots[seat]
        by_state = getattr(bot, "act_state", None)
        if by_state is not None:
            submit(by_state(state, legal))
        else:
            submit(bot.act(state.view(seat) if getattr(bot, "reads_view", True) else {}, legal))
        moves += 1


def _indexed(codec: Any, legal: list[Any]) -> dict[int, Any]:
    """The action behind each offered index (the codec's ``indexed``, or its ``mask``'s)."""
    indexed = getattr(codec, "indexed", None)
    if indexed is not None:
        chosen: dict[int, Any] = indexed(legal)
        return chosen
    _, chosen = codec.mask(legal)
    return chosen


def make_stop_vector(num_envs: int = 1, **options: Any) -> TurnVectorEnv:
    """``gym.make_vec("stoptable/Stop-v0", num_envs, vectorization_mode=
    "vector_entry_point", **options)``: :class:`TurnVectorEnv` of Stop."""
    return TurnVectorEnv("stop", num_envs, **options)


def make_stopandgo_vector(num_envs: int = 1, **options: Any) -> TurnVectorEnv:
    """The same for ``stoptable/StopAndGo-v0``."""
    return TurnVectorEnv("stopandgo", num_envs, **options)
