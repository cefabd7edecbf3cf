"""Stop it! as a PettingZoo Parallel environment over fixed time ticks: ``stoptable.rl.stopit_v0``.

>>> from stoptable.rl import stopit_v0
>>> env = stopit_v0.parallel_env(seats=3, tick_ms=200)
>>> obs, infos = env.reset(seed=1)
>>> obs["player_0"]["observation"].shape, obs["player_0"]["action_mask"].shape
((2415,), (172,))

Time. The game clock is in ms (I-30). A step is one tick of ``tick_ms``: every agent's
action is a request stamped with the tick's start time ``T`` (the time of the observation
it answers), so all of them arrive at the same ms. Requests of one tick are processed in
an arrival order drawn from the env's seeded generator (a fresh permutation of the seats
each tick; I-30 processes equal times in arrival order), each checked against the state at
processing time: the first grab of a card wins and a later one fails as ``stale``, a grab
after a call fails as ``interrupted``, exactly as on a server. A request the mask did not
offer, or one that lost such a race, is rejected without penalty (I-33) and reported in
``infos[agent]["rejected"]``. Then the clock moves to ``T + tick_ms`` and every timer due
by then (the sort grace, the Go timeout, the end-game timeout) fires through
``next_step``/``run_step``.

Options: ``render_mode`` ("ansi"), ``max_ticks`` (truncation, default 100000; ``max_steps``
is the same budget under the turn-based envs' name, a step being a tick), ``illegal``
(``"reject"``, the default: an index the mask does not offer is a rejected request, I-33,
the same as a wait, so nothing can be won by it; ``"raise"``: IllegalAction); every
other key is a Stop it! ruleset option (stop-it.md §7). ``min_pause_ms`` defaults to 0,
the simulation's value (I-37). Reward: :func:`~stoptable.rl.common.ranked_reward` at the
end of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from stoptable.core.errors import IllegalAction
from stoptable.core.protocol import JSON
from stoptable.games import spec
from stoptable.rl.common import (
    RENDER_MODES,
    agent_name,
    observation_space,
    ranked_reward,
    split_options,
)
from stoptable.rl.stopit_codec import Layout

ENV_KEYS: Final = ("render_mode", "max_ticks", "max_steps", "illegal")
ILLEGAL: Final = ("reject", "raise")
SIM_DEFAULTS: Final = {"min_pause_ms": 0}


class StopItEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """Stop it!'s Parallel environment (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": RENDER_MODES, "name": "stopit_v0"}

    def __init__(
        self,
        seats: int = 2,
        tick_ms: int = 100,
        render_mode: str | None = None,
        max_ticks: int | None = 100_000,
        options: Mapping[str, JSON] | None = None,
        illegal: str = "reject",
    ) -> None:
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {ILLEGAL} in Stop it!, not {illegal!r}")
        self.illegal = illegal
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None")
        if tick_ms < 1:
            raise ValueError("tick_ms must be at least 1")
        self.spec = spec("stopit")
        self.options = {**SIM_DEFAULTS, **(options or {})}
        rules = self.spec.ruleset(None, self.options)
        self.spec.check_seats(seats, rules)
        self.seats = seats
        self.tick_ms = tick_ms
        self.render_mode = render_mode
        self.max_ticks = max_ticks
        self.layout = Layout(self.spec)
        self.possible_agents = [agent_name(s) for s in range(seats)]
        self.agents: list[str] = []
        self._obs_space = observation_space(self.layout.obs_size, self.layout.n_actions)
        self._act_space = spaces.Discrete(self.layout.n_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._rng = np.random.default_rng()
        self.state: Any = None
        self.now = 0
        self.ticks = 0
        self.game_seed = 0
        self._lines: list[dict[int, dict[str, JSON]]] = []
        self._masks: list[np.ndarray] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """A new game, waiting for the first Go (I-4)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game_seed = int(self._rng.integers(2**31))
        self.state = self.spec.new(None, self.seats, self.game_seed, self.options)
        self.agents = self.possible_agents[:]
        self.now = self.state.view(None)["clock"]
        self.ticks = 0
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        self._lines, self._masks, out = [], [], {}
        over = self.state.result() is not None
        for seat in range(self.seats):
            view = self.state.view(seat)
            if over:  # only the wait: a mask is never all zero
                mask = np.zeros(self.layout.n_actions, dtype=np.int8)
                mask[self.layout.wait] = 1
                lines: dict[int, dict[str, JSON]] = {}
            else:
                mask, lines = self.layout.mask(self.state.legal_actions(seat))
                if view["go_seat"] == seat and view["go_after"] <= self.now:
                    mask[self.layout.go] = 1
                    lines[self.layout.go] = {"type": "go"}
            self._lines.append(lines)
            self._masks.append(mask)
            out[agent_name(seat)] = {
                "observation": self.layout.encode(view),
                "action_mask": mask.copy(),
            }
        return out

    def step(self, actions: Mapping[str, int]) -> tuple[Any, Any, Any, Any, Any]:
        """One tick: every agent's request at ``T`` in seeded order, then the clock moves to
        ``T + tick_ms`` and the timers due fire."""
        return self.tick(actions, {})

    def tick(
        self, actions: Mapping[str, int], direct: Mapping[int, Mapping[str, JSON]]
    ) -> tuple[Any, Any, Any, Any, Any]:
        """:meth:`step`, plus ``direct`` request lines (without ``seat`` and ``t``) for seats
        that bots play (the single-agent env), processed in the same seeded order."""
        state = self.state
        if self.illegal == "raise":  # before anything of the tick happens
            for agent, asked in actions.items():
                lines = self._lines[int(agent.rpartition("_")[2])]
                if asked is not None and int(asked) not in lines and asked != self.layout.wait:
                    raise IllegalAction("not_legal", "docs/rl.md", f"action {asked} is not offered")
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        start = self.now
        for seat in self._rng.permutation(self.seats).tolist():
            agent = agent_name(seat)
            if state.result() is not None:
                break
            line = direct.get(seat)
            if line is None:
                index = actions.get(agent)
                if index is None or int(index) == self.layout.wait:
                    continue
                line = self._lines[seat].get(int(index))
                if line is None:
                    infos[agent]["rejected"] = "not_offered"
                    continue
            try:
                state.apply(self.spec.action_from_json(line, seat, start))
            except IllegalAction as exc:
                infos[agent]["rejected"] = exc.reason
        self.now = start + self.tick_ms
        self.ticks += 1
        while state.result() is None:
            timer = state.next_step()
            if timer is None or timer.at is None or timer.at > self.now:
                break
            state.run_step(timer)
        outcome = state.result()
        rewards = dict.fromkeys(self.agents, 0.0)
        if outcome is not None:
            for seat in range(self.seats):
                rewards[agent_name(seat)] = ranked_reward(outcome, seat)
        truncated = outcome is None and self.max_ticks is not None and self.ticks >= self.max_ticks
        terminations = dict.fromkeys(self.agents, outcome is not None)
        truncations = dict.fromkeys(self.agents, truncated)
        observations = self._observations()
        if outcome is not None or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def legal_indices(self, agent: str) -> list[int]:
        """The indices the last observation offered ``agent``."""
        return np.flatnonzero(self._masks[int(agent.rpartition("_")[2])]).tolist()

    def describe(self, index: int) -> str:
        """Action ``index`` in words, from the fixed table (docs/rl.md)."""
        lay = self.layout
        i = int(index)
        if not 0 <= i < lay.n_actions:
            raise IndexError(f"action {index} is outside Discrete({lay.n_actions})")
        if i == lay.wait:
            return "wait"
        if i == lay.go:
            return "go"
        if i < lay.call:
            return f"grab S{i - lay.grab + 1}"
        if i < lay.play:
            return f"call_stop S{i - lay.call + 1}"
        if i < lay.insert:
            return f"play_stop #{i - lay.play + 1} (the hand's stop cards, left to right)"
        return f"insert at {i - lay.insert}"

    def index_of(self, action: Any, seat: int = 0) -> int:
        """The index of a request: an engine action, its line, its notation
        (docs/notation.md) or ``"wait"``. ``play_stop`` is looked up among ``seat``'s
        offered indices (its index is the card's rank among the hand's stop cards)."""
        if isinstance(action, str):
            if action.strip() == "wait":
                return self.layout.wait
            action = self.spec.parse_action(action, seat, self.now)
        line = dict(action) if isinstance(action, Mapping) else action.to_json()
        if line.get("type") == "play_stop" and self._lines:
            wanted = {k: v for k, v in line.items() if k not in ("seat", "t")}
            for i, offered in self._lines[seat].items():
                if offered == wanted:
                    return i
            raise ValueError(f"{line} is not offered to seat {seat} now")
        return self.layout.index(line)

    def render(self) -> str | None:
        """``ansi``: the spectator's view as text."""
        if self.render_mode is None or self.state is None:
            return None
        view = self.state.view(None)
        return "\n".join(f"{k}: {v}" for k, v in view.items())

    def render_view(self, seat: int) -> str:
        """``seat``'s own view as text and its offered actions as ``index: action`` lines."""
        view = self.state.view(seat)
        lines = [f"{k}: {v}" for k, v in view.items() if k != "log"]
        if self._masks:
            lines.append("offered:")
            lines += [f"  {i}: {self.describe(i)}" for i in self.legal_indices(agent_name(seat))]
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(seats: int = 2, tick_ms: int = 100, **options: Any) -> StopItEnv:
    """The Parallel env (see the module doc for ``options``)."""
    env_opts, engine = split_options(options, ENV_KEYS)
    ticks, steps = env_opts.get("max_ticks", 100_000), env_opts.get("max_steps")
    if steps is not None and "max_ticks" in env_opts and steps != ticks:
        raise ValueError("max_steps and max_ticks name the same budget: give one")
    return StopItEnv(
        seats,
        tick_ms,
        env_opts.get("render_mode"),
        ticks if steps is None else steps,
        engine,
        env_opts.get("illegal", "reject"),
    )


def env(seats: int = 2, tick_ms: int = 100, **options: Any) -> Any:
    """The AEC form of :func:`parallel_env` (PettingZoo's ``parallel_to_aec``)."""
    from pettingzoo.utils.conversions import parallel_to_aec

    return parallel_to_aec(parallel_env(seats, tick_ms, **options))
