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

An index the mask does not offer: in the turn-based games the episode ends at once with
``illegal_reward`` (default -1) and ``info["illegal_action"] = True`` (``illegal="raise"``
raises the engine's IllegalAction instead); in Stop it! it is a rejected request as on a
server (I-33: no penalty, ``info["rejected"]``), so play goes on.

Stop it! bots see the table at every tick boundary when they have nothing in flight;
a request a bot sends with a reaction delay is sent at the first tick at or after it is
due (so reaction times count, at tick resolution).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from stoptable.bots.base import make_bot
from stoptable.core.errors import IllegalAction
from stoptable.rl import stop_v0, stopandgo_v0, stopit_v0
from stoptable.rl.common import RENDER_MODES, agent_name
from stoptable.rl.turn_env import TurnEnv


def _bot_names(opponents: str | Sequence[str], count: int) -> list[str]:
    if isinstance(opponents, str):
        return [opponents] * count
    names = list(opponents)
    if len(names) != count:
        raise ValueError(f"{count} opponents needed, {len(names)} given")
    return names


class TurnSingleEnv(gym.Env[dict[str, np.ndarray], int]):
    """A learner in a turn-based game (Stop, Stop & Go) against bots."""

    metadata = {"render_modes": RENDER_MODES}  # noqa: RUF012  (gymnasium declares it so)

    def __init__(
        self,
        game: str,
        aec: TurnEnv,
        opponents: str | Sequence[str] = "heuristic",
        seat: int = 0,
        illegal: str = "lose",
        illegal_reward: float = -1.0,
    ) -> None:
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        self.game = game
        self.aec = aec
        self.seats = len(aec.possible_agents)
        if not 0 <= seat < self.seats:
            raise ValueError(f"seat {seat} is not at a {self.seats}-seat table")
        self.seat = seat
        self.agent = agent_name(seat)
        self.names = _bot_names(opponents, self.seats - 1)
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = aec.render_mode
        self.observation_space = aec.observation_space(self.agent)
        self.action_space = aec.action_space(self.agent)
        self.bots: dict[int, Any] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.np_random.integers(2**31)))
        others = [s for s in range(self.seats) if s != self.seat]
        self.bots = {
            s: make_bot(self.game, name, s, int(self.np_random.integers(2**31)))
            for s, name in zip(others, self.names, strict=True)
        }
        self._reward = 0.0
        self._play_bots()
        return self._observation(), self._info()

    def _play_bots(self) -> None:
        aec = self.aec
        while (seat := aec.seat_to_act) is not None and seat != self.seat:
            choice = self.bots[seat].act(aec.state.view(seat), aec.legal)
            aec.step(aec.codec.index(choice))
            self._reward += aec.rewards[self.agent]

    def _observation(self) -> dict[str, np.ndarray]:
        obs: dict[str, np.ndarray] = self.aec.observe(self.agent)
        return obs

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.aec.observe(self.agent)["action_mask"]}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if int(action) not in aec._chosen:
            if self.illegal == "raise":
                raise IllegalAction("not_legal", "docs/rl.md", f"action {int(action)} not offered")
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        self._reward = 0.0
        aec.step(int(action))
        self._reward += aec.rewards[self.agent]
        self._play_bots()
        terminated = bool(aec.terminations[self.agent])
        truncated = bool(aec.truncations[self.agent])
        return self._observation(), self._reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        return self.aec.render()


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
        mine = obs[self.agent]
        return mine, {"action_mask": mine["action_mask"].copy()}

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
        obs, rewards, terms, truncs, infos = self.par.tick(
            {self.agent: int(action)}, self._bot_lines()
        )
        mine = obs[self.agent]
        info = dict(infos.get(self.agent, {}))
        info["action_mask"] = mine["action_mask"].copy()
        return (
            mine,
            float(rewards.get(self.agent, 0.0)),
            bool(terms.get(self.agent, False)),
            bool(truncs.get(self.agent, False)),
            info,
        )

    def render(self) -> str | None:
        return self.par.render()


def make_stop(
    ruleset: str = "abacus-en",
    seats: int = 2,
    opponents: str | Sequence[str] = "heuristic",
    seat: int = 0,
    illegal: str = "lose",
    **options: Any,
) -> TurnSingleEnv:
    """``stoptable/Stop-v0``: ``options`` as for ``stop_v0.env``."""
    return TurnSingleEnv(
        "stop", stop_v0.raw_env(ruleset, seats, **options), opponents, seat, illegal
    )


def make_stopandgo(
    seats: int = 2,
    map: Any = None,
    opponents: str | Sequence[str] = "heuristic",
    seat: int = 0,
    illegal: str = "lose",
    **options: Any,
) -> TurnSingleEnv:
    """``stoptable/StopAndGo-v0``: ``options`` as for ``stopandgo_v0.env``."""
    from stoptable.bots.stopandgo import use_map

    aec = stopandgo_v0.raw_env(seats, map, **options)
    use_map(stopandgo_v0.playable_map(map))  # the bots find the map by the name their view gives
    return TurnSingleEnv("stopandgo", aec, opponents, seat, illegal)


def make_stopit(
    seats: int = 2,
    tick_ms: int = 100,
    opponents: str | Sequence[str] = "heuristic",
    seat: int = 0,
    **options: Any,
) -> StopItSingleEnv:
    """``stoptable/StopIt-v0``: ``options`` as for ``stopit_v0.parallel_env``."""
    return StopItSingleEnv(seats, tick_ms, opponents, seat, **options)


IDS = {
    "stoptable/Stop-v0": "stoptable.rl.single:make_stop",
    "stoptable/StopAndGo-v0": "stoptable.rl.single:make_stopandgo",
    "stoptable/StopIt-v0": "stoptable.rl.single:make_stopit",
}


def register() -> None:
    """Register the three ids with Gymnasium (idempotent)."""
    for env_id, entry_point in IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=entry_point, disable_env_checker=True)
