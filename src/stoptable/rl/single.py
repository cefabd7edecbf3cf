"""Gymnasium single-agent environments: one learner against stoptable bots.

Registered (when ``stoptable.rl`` is imported) as ``stoptable/Stop-v0``,
``stoptable/StopAndGo-v0`` and ``stoptable/StopIt-v0``::

    import gymnasium as gym
    import stoptable.rl  # registers the ids
    env = gym.make("stoptable/Stop-v0", ruleset="abacus-ja", seats=4, opponents="heuristic")

The learner holds seat ``seat`` (default 0); the other seats are bots made by
``stoptable.bots.base.make_bot`` (``opponents``: one name for all, or one per other seat),
seeded from the reset seed. Observation and action spaces are those of the multi-agent
env for one agent (docs/rl.md); the ``action_mask`` is in the observation and in
``info["action_mask"]``. The reward of a step is everything the learner earned from its
action until its next decision (round rewards included for Stop).

An index the mask does not offer (``illegal=``, docs/rl.md "Illegal actions"): in the
turn-based games ``"penalize"`` (default) ends the episode at once, terminated, with
``illegal_reward`` (default: below the worst that legal play can still cost, from the
game's scoring bound, ``TurnEnv.illegal_reward``) and ``info["illegal_action"] = True``;
``"random_legal"`` plays a random offered index instead; ``"raise"`` raises the engine's
IllegalAction. In Stop it! it is a rejected request as on a server (I-33: no penalty,
``info["rejected"]``), so play goes on, the same as a wait (``"raise"`` raises instead).

``step`` after the episode has ended raises :class:`EpisodeOver`: call ``reset``.

Stop it! bots see the table at every tick boundary when they have nothing in flight;
a request a bot sends with a reaction delay is sent at the first tick at or after it is
due (so reaction times count, at tick resolution).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import gymnasium as gym
import numpy as np

from stoptable.bots.base import make_bot
from stoptable.core.errors import StoptableError
from stoptable.rl import stop_v0, stopandgo_v0, stopit_v0
from stoptable.rl.common import RENDER_MODES, TURN_RENDER_MODES, agent_name
from stoptable.rl.render import RENDER_FPS
from stoptable.rl.turn_env import TurnEnv


def _bot_names(opponents: str | Sequence[str], count: int) -> list[str]:
    if isinstance(opponents, str):
        return [opponents] * count
    names = list(opponents)
    if len(names) != count:
        raise ValueError(f"{count} opponents needed, {len(names)} given")
    return names


def bot_decider(bot: Any, seat: int) -> Callable[[Any, Any], Any]:
    """``decide(state, legal)``: ``bot``'s choice for ``seat``. A bot with ``act_state``
    decides from the state's fields its view shows (the same choice as ``act`` on the view,
    without building it); a bot that reads no view (``reads_view = False``: the random bot)
    is handed an empty one (a Stop view carries the event log and costs more than the move
    generator); any other gets ``state.view(seat)``. Made once per bot, so a step asks no
    bot what it has."""
    by_state = getattr(bot, "act_state", None)
    if by_state is not None:
        decide: Callable[[Any, Any], Any] = by_state
        return decide
    act = bot.act
    if getattr(bot, "reads_view", True):
        return lambda state, legal: act(state.view(seat), legal)
    nothing: dict[str, Any] = {}
    return lambda state, legal: act(nothing, legal)


class EpisodeOver(StoptableError, RuntimeError):
    """``step`` after the episode ended (terminated or truncated): ``reset`` first."""


def _illegal_mode(illegal: str) -> str:
    """``"lose"``, this env's first name for ``"penalize"``, is still understood."""
    return "penalize" if illegal == "lose" else illegal


class TurnSingleEnv(gym.Env[dict[str, np.ndarray], int]):
    """A learner in a turn-based game (Stop, Stop & Go) against bots. ``aec`` decides what
    an illegal index does (its ``illegal`` and ``illegal_reward``)."""

    metadata = {"render_modes": TURN_RENDER_MODES, "render_fps": RENDER_FPS}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        aec: TurnEnv,
        opponents: str | Sequence[str] = "heuristic",
        seat: int = 0,
    ) -> None:
        self.game = game
        self.aec = aec
        self.seats = len(aec.possible_agents)
        if not 0 <= seat < self.seats:
            raise ValueError(f"seat {seat} is not at a {self.seats}-seat table")
        self.seat = seat
        self.agent = agent_name(seat)
        self.names = _bot_names(opponents, self.seats - 1)
        self.illegal = aec.illegal
        self.illegal_reward = aec.illegal_reward
        self.render_mode = aec.render_mode
        self.observation_space = aec.observation_space(self.agent)
        self.action_space = aec.action_space(self.agent)
        self.bots: dict[int, Any] = {}
        self.deciders: dict[int, Callable[[Any, Any], Any]] = {}
        """Each bot's :func:`bot_decider`, made at reset."""
        self.over = True
        """The episode has ended (or not begun): :meth:`step` raises EpisodeOver."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.over = False
        self.aec.reset(seed=int(self.np_random.integers(2**31)))
        others = [s for s in range(self.seats) if s != self.seat]
        self.bots = {
            s: make_bot(self.game, name, s, int(self.np_random.integers(2**31)))
            for s, name in zip(others, self.names, strict=True)
        }
        self.deciders = {s: bot_decider(bot, s) for s, bot in self.bots.items()}
        self._reward = 0.0
        self._play_bots()
        obs = self._observation()
        return obs, {"action_mask": obs["action_mask"].copy()}

    def _play_bots(self) -> None:
        aec = self.aec
        deciders = self.deciders
        while (seat := aec.seat_to_act) is not None and seat != self.seat:
            aec.step(aec.codec.index(deciders[seat](aec.state, aec.legal)))
            self._reward += aec.rewards[self.agent]

    def _observation(self) -> dict[str, np.ndarray]:
        obs: dict[str, np.ndarray] = self.aec.observe(self.agent)
        if self.aec.seat_to_act is None:  # the episode is over: offer the idle index alone
            obs["action_mask"][self.aec.adapter.idle_index] = 1
        return obs

    def action_masks(self) -> np.ndarray:
        """The learner's mask now as booleans: the hook of sb3-contrib's MaskablePPO (and
        ``info["action_mask"]``, ``obs["action_mask"]`` hold the same). Never all False:
        once the episode is over it offers only the game's idle index (docs/rl.md)."""
        mask = np.zeros(self.aec.adapter.n_actions, dtype=bool)
        aec = self.aec
        if aec.seat_to_act is None:
            mask[aec.adapter.idle_index] = True
        else:
            mask[aec.legal_indices()] = True
        return mask

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        reward, terminated, truncated, illegal = self.step_quietly(action)
        obs = self._observation()
        info: dict[str, Any] = {"action_mask": obs["action_mask"].copy()}
        if illegal:
            info["illegal_action"] = True
        return obs, reward, terminated, truncated, info

    def step_quietly(self, action: int) -> tuple[float, bool, bool, bool]:
        """:meth:`step` without building the observation and info (the batched env reads
        the observation itself): ``(reward, terminated, truncated, illegal_action)``.

        An offered index runs on the game's driver directly (:meth:`TurnEnv.play_until`):
        the bots' choices are submitted as they are, with no mask, index lookup or reward
        dicts of their own, and only the learner's rewards are added up; the same game
        step for step (tests/rl/test_single.py). An index the mask does not offer (the
        ``illegal`` rule), shaping, or the AEC env's own ``max_steps`` take the AEC env's
        :meth:`TurnEnv.step` for every decision."""
        if self.over:
            raise EpisodeOver("the episode has ended (or was never reset): call reset() first")
        aec = self.aec
        choice = aec.offered(int(action)) if aec.fast_path_ok else None
        if choice is not None:
            reward, over = aec.play_until(choice, self.seat, self.deciders)
            self.over = over
            return reward, over, False, False
        self._reward = 0.0
        aec.step(int(action))  # the aec's ``illegal`` rule for an index it does not offer
        illegal = bool(aec.infos[self.agent].pop("illegal_action", False))
        self._reward += aec.rewards[self.agent]
        self._play_bots()
        terminated = bool(aec.terminations[self.agent])
        truncated = bool(aec.truncations[self.agent])
        self.over = terminated or truncated
        return self._reward, terminated, truncated, illegal

    def describe(self, index: int) -> str:
        """Action ``index`` in the game's notation (:meth:`TurnEnv.describe`)."""
        return self.aec.describe(index)

    def index_of(self, action: Any) -> int:
        """The index of an action or its notation (:meth:`TurnEnv.index_of`)."""
        return self.aec.index_of(action)

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the learner's own view (its hand included) and, when it is to act, its
        offered actions as ``index: notation`` lines; ``rgb_array``: the learner's own view
        drawn as the browser draws it, an ``(H, W, 3)`` uint8 array."""
        if self.render_mode is None or self.aec.state is None:
            return None
        if self.render_mode == "rgb_array":
            return self.aec.render_rgb(self.seat)
        return self.aec.render_view(self.seat)


class StopItSingleEnv(gym.Env[dict[str, np.ndarray], int]):
    """A learner at a Stop it! table against bots, in ticks (see the module doc)."""

    metadata = {"render_modes": RENDER_MODES}  # noqa: RUF012  (gymnasium declares it so)

    def __init__(
        self,
        seats: int = 2,
        tick_ms: int = 100,
        opponents: str | Sequence[str] = "heuristic",
        seat: int = 0,
        **options: Any,
    ) -> None:
        self.par = stopit_v0.parallel_env(seats, tick_ms, **options)
        self.seats = seats
        self.seat = seat
        self.agent = agent_name(seat)
        self.names = _bot_names(opponents, seats - 1)
        self.render_mode = self.par.render_mode
        self.observation_space = self.par.observation_space(self.agent)
        self.action_space = self.par.action_space(self.agent)
        self.bots: dict[int, Any] = {}
        self.waiting: dict[int, Any] = {}
        self.over = True
        self._mask = np.zeros(self.par.layout.n_actions, dtype=np.int8)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        obs, _ = self.par.reset(seed=int(self.np_random.integers(2**31)))
        others = [s for s in range(self.seats) if s != self.seat]
        self.bots = {
            s: make_bot("stopit", name, s, int(self.np_random.integers(2**31)))
            for s, name in zip(others, self.names, strict=True)
        }
        self.waiting = {}
        self.over = False
        mine = obs[self.agent]
        self._mask = mine["action_mask"].copy()
        return mine, {"action_mask": mine["action_mask"].copy()}

    def action_masks(self) -> np.ndarray:
        """The learner's mask now as booleans (sb3-contrib MaskablePPO's hook); the wait
        index is always in it, so it is never all False."""
        return self._mask.astype(bool)

    def _bot_lines(self) -> dict[int, Any]:
        """The requests of bots that are due now (each bot looks when it has none waiting)."""
        now = self.par.now
        state = self.par.state
        due: dict[int, Any] = {}
        for seat, bot in self.bots.items():
            if seat not in self.waiting:
                answer = bot.observe(state.view(seat), now)
                if answer is not None:
                    self.waiting[seat] = answer[0]
            request = self.waiting.get(seat)
            if request is not None and request.t <= now:
                line = request.to_json()
                del line["seat"], line["t"]
                due[seat] = line
                del self.waiting[seat]
        return due

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.over:
            raise EpisodeOver("the episode has ended (or was never reset): call reset() first")
        obs, rewards, terms, truncs, infos = self.par.tick(
            {self.agent: int(action)}, self._bot_lines()
        )
        mine = obs[self.agent]
        info = dict(infos.get(self.agent, {}))
        info["action_mask"] = mine["action_mask"].copy()
        self._mask = info["action_mask"]
        terminated = bool(terms.get(self.agent, False))
        truncated = bool(truncs.get(self.agent, False))
        self.over = terminated or truncated
        return mine, float(rewards.get(self.agent, 0.0)), terminated, truncated, info

    def describe(self, index: int) -> str:
        """Action ``index`` in words (:meth:`StopItEnv.describe`)."""
        return self.par.describe(index)

    def index_of(self, action: Any) -> int:
        """The index of a request, its line or its notation (:meth:`StopItEnv.index_of`)."""
        return self.par.index_of(action, self.seat)

    def render(self) -> str | None:
        """``ansi``: the learner's own view and its offered actions with their indices."""
        if self.render_mode is None or self.par.state is None:
            return None
        return self.par.render_view(self.seat)


def make_stop(
    ruleset: str = "abacus-en",
    seats: int = 2,
    opponents: str | Sequence[str] = "heuristic",
    seat: int = 0,
    illegal: str = "penalize",
    **options: Any,
) -> TurnSingleEnv:
    """``stoptable/Stop-v0``: ``options`` as for ``stop_v0.env`` (``illegal_reward``,
    ``reward``, ``shaping``, ``max_steps``/``max_ticks`` and the ruleset's options)."""
    aec = stop_v0.raw_env(ruleset, seats, illegal=_illegal_mode(illegal), **options)
    return TurnSingleEnv("stop", aec, opponents, seat)


def make_stopandgo(
    seats: int = 2,
    map: Any = None,
    opponents: str | Sequence[str] = "heuristic",
    seat: int = 0,
    illegal: str = "penalize",
    **options: Any,
) -> TurnSingleEnv:
    """``stoptable/StopAndGo-v0``: ``options`` as for ``stopandgo_v0.env``."""
    from stoptable.bots.stopandgo import use_map

    aec = stopandgo_v0.raw_env(seats, map, illegal=_illegal_mode(illegal), **options)
    use_map(stopandgo_v0.playable_map(map))  # the bots find the map by the name their view gives
    return TurnSingleEnv("stopandgo", aec, opponents, seat)


def make_stopit(
    seats: int = 2,
    tick_ms: int = 100,
    opponents: str | Sequence[str] = "heuristic",
    seat: int = 0,
    **options: Any,
) -> StopItSingleEnv:
    """``stoptable/StopIt-v0``: ``options`` as for ``stopit_v0.parallel_env`` (``illegal``
    is its ``"reject"`` or ``"raise"``)."""
    return StopItSingleEnv(seats, tick_ms, opponents, seat, **options)


IDS = {
    "stoptable/Stop-v0": "stoptable.rl.single:make_stop",
    "stoptable/StopAndGo-v0": "stoptable.rl.single:make_stopandgo",
    "stoptable/StopIt-v0": "stoptable.rl.single:make_stopit",
}

VECTOR_ENTRY_POINTS: Final = {
    "stoptable/Stop-v0": "stoptable.rl.vector:make_stop_vector",
    "stoptable/StopAndGo-v0": "stoptable.rl.vector:make_stopandgo_vector",
}
"""``gym.make_vec(id, num_envs, vectorization_mode="vector_entry_point")``: the batched env."""

MAX_EPISODE_STEPS: Final = {
    "stoptable/Stop-v0": 20_000,
    "stoptable/StopAndGo-v0": 5_000,
    "stoptable/StopIt-v0": 5_000,
}
"""Gymnasium's TimeLimit on each id, far above any honest game at the id's defaults
(docs/rl.md "Every episode ends" has the measured lengths: Stop's longest heuristic
episode in 10,000 was 1,663 learner steps, Stop & Go's under 200, Stop it!'s under 300 ticks
with a random learner). A budget, not a rule: the games end on their own (S-64, G-22),
except a Stop it! learner that never sends the first Go (I-4 gives it no timeout). Pass
``max_episode_steps=`` to ``gym.make`` for other settings (a higher ``target_score``)."""


def register() -> None:
    """Register the three ids with Gymnasium (idempotent)."""
    for env_id, entry_point in IDS.items():
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point=entry_point,
                disable_env_checker=True,
                max_episode_steps=MAX_EPISODE_STEPS[env_id],
                vector_entry_point=VECTOR_ENTRY_POINTS.get(env_id),
            )
