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
learner's step run on the game's driver directly (the single env's fast
:meth:`~stoptable.rl.single.TurnSingleEnv.step_quietly`: the bots' moves need no mask or
index), and the observations and masks written straight into arrays kept for the
batch, Stop's hand planes and the masks of all games in one numpy pass each (the arrays
``step`` returns are those buffers: copy them to keep them past the next call).

It is a :class:`gymnasium.vector.VectorEnv` with ``autoreset_mode`` NEXT_STEP, Gymnasium's
default: the step after a game ended resets that game (its action is ignored, its reward is
0) and returns the new game's first observation. A finished game's mask offers only the
game's idle index, so a sampler that draws from the last masks never meets an empty one.
``infos`` is empty but for ``"illegal_action"`` (a bool array) when an illegal index was
played in the step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from stoptable.rl.common import MASK_DTYPE, OBS_DTYPE
from stoptable.rl.single import MAX_EPISODE_STEPS, TurnSingleEnv, make_stop, make_stopandgo

MAKERS: dict[str, Callable[..., TurnSingleEnv]] = {"stop": make_stop, "stopandgo": make_stopandgo}
IDS = {"stop": "stoptable/Stop-v0", "stopandgo": "stoptable/StopAndGo-v0"}
HANDS_AT_ONCE: Final = 8
"""From this many games on, Stop's hand planes are written for the whole batch in one
numpy pass (``stop_codec.write_hand_planes``); fewer games write them row by row, since
the pass's few numpy calls cost more than it saves on a handful of hands."""


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
        if isinstance(max_episode_steps, str) and max_episode_steps != "registered":
            raise ValueError('max_episode_steps must be a number, None or "registered"')
        self.limit: int | None = (
            MAX_EPISODE_STEPS[IDS[game]]
            if isinstance(max_episode_steps, str)
            else max_episode_steps
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
        self._steps: list[int] = [0] * num_envs
        """Each game's learner steps (a list: the step loop reads and writes it per game,
        which costs a numpy array an object per access)."""
        self._done: list[bool] = [False] * num_envs
        """Game ``i`` ended at the last step: the next step resets it."""
        self._game_numbers: np.ndarray = np.arange(num_envs)
        self._rows: list[memoryview] = [memoryview(row) for row in self._obs]
        """Each game's row of the observation buffer, for an encoder that writes in place."""
        adapter = first.aec.adapter
        self._write_hands: Callable[[np.ndarray, list[Any]], None] | None = (
            getattr(adapter, "write_hand_planes", None) if num_envs >= HANDS_AT_ONCE else None
        )
        """Every game's hand plane in one pass (Stop), after each game's writer wrote the
        rest and returned its hand; None: each writer writes the whole row."""
        into = "observation_into" if self._write_hands is None else "observation_into_but_hand"
        self._writers: list[Callable[[Any, int, memoryview], Any] | None] = [
            getattr(env.aec.adapter, into, None) for env in self.envs
        ]
        """Each game's in-place encoder (Stop's ``StateEncoder.encode_into_but_hand``), if it
        has one."""

    def _write(self, i: int, cols: list[int], hands: list[Any]) -> int:
        """Game ``i``'s learner observation into the batch's buffer (its hand onto
        ``hands`` where the hand planes are written at once), and its offered indices onto
        ``cols`` (every game's mask is written in one assignment); how many it added."""
        env = self.envs[i]
        aec = env.aec
        write = self._writers[i]
        if write is not None:
            hands.append(write(aec.state, env.seat, self._rows[i]))
        else:
            self._obs[i] = aec.adapter.observation(aec.state, env.seat)
        if aec.seat_to_act is None:
            cols.append(aec.adapter.idle_index)
            return 1
        offered = aec.offered_indices()
        cols.extend(offered)
        return len(offered)

    def _write_masks(self, counts: list[int], cols: list[int]) -> None:
        """Every game's mask from its offered indices: ``counts[i]`` of ``cols``, in game
        order, are game ``i``'s."""
        masks = self._masks
        masks.fill(0)
        masks[np.repeat(self._game_numbers, counts), cols] = 1

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
        counts: list[int] = []
        cols: list[int] = []
        hands: list[Any] = []
        for i, env in enumerate(self.envs):
            env.reset(seed=seeds[i])
            counts.append(self._write(i, cols, hands))
        if self._write_hands is not None:
            self._write_hands(self._obs, hands)
        self._write_masks(counts, cols)
        self._steps = [0] * self.num_envs
        self._done = [False] * self.num_envs
        return self._batch(), {}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every game with its action (a game that ended at the last step is reset
        instead, NEXT_STEP autoreset)."""
        acts = np.asarray(actions).reshape(self.num_envs).tolist()
        n = self.num_envs
        rewards = [0.0] * n
        terminated = [False] * n
        truncated = [False] * n
        limit = self.limit
        illegal: list[int] = []
        counts: list[int] = []
        cols: list[int] = []
        hands: list[Any] = []
        done = self._done
        steps = self._steps
        obs = self._obs
        for i, (env, write, row) in enumerate(
            zip(self.envs, self._writers, self._rows, strict=True)
        ):
            if done[i]:
                env.reset()
                steps[i] = 0
                done[i] = False
            else:
                reward, term, trunc, was_illegal = env.step_quietly(acts[i])
                steps[i] += 1
                if not (term or trunc) and limit is not None and steps[i] >= limit:
                    trunc = True
                    env.over = True  # (as under TimeLimit, the AEC env is not told)
                rewards[i] = reward
                terminated[i] = term
                truncated[i] = trunc
                done[i] = term or trunc
                if was_illegal:
                    illegal.append(i)
            aec = env.aec  # what _write does, written out (a call less per game)
            if write is not None:
                hands.append(write(aec.state, env.seat, row))
            else:
                obs[i] = aec.adapter.observation(aec.state, env.seat)
            if aec.seat_to_act is None:
                cols.append(aec.adapter.idle_index)
                counts.append(1)
            else:
                offered = aec.offered_indices()
                cols.extend(offered)
                counts.append(len(offered))
        if self._write_hands is not None:
            self._write_hands(obs, hands)
        self._write_masks(counts, cols)
        infos: dict[str, Any] = {}
        if illegal:
            flags = np.zeros(n, dtype=bool)
            flags[illegal] = True
            infos["illegal_action"] = flags
            infos["_illegal_action"] = flags.copy()
        return (
            self._batch(),
            np.array(rewards, dtype=np.float64),
            np.array(terminated, dtype=bool),
            np.array(truncated, dtype=bool),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """Every game's mask as booleans, shape ``(num_envs, n_actions)``."""
        masks: np.ndarray = self._masks.astype(bool)
        return masks

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""


def make_stop_vector(num_envs: int = 1, **options: Any) -> TurnVectorEnv:
    """``gym.make_vec("stoptable/Stop-v0", num_envs, vectorization_mode=
    "vector_entry_point", **options)``: :class:`TurnVectorEnv` of Stop."""
    return TurnVectorEnv("stop", num_envs, **options)


def make_stopandgo_vector(num_envs: int = 1, **options: Any) -> TurnVectorEnv:
    """The same for ``stoptable/StopAndGo-v0``."""
    return TurnVectorEnv("stopandgo", num_envs, **options)
