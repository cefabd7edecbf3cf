"""A PettingZoo AEC environment over a game's synchronous driver (Stop, Stop & Go).

The driver (``spec.driver``) decides who acts next: for Stop it walks the S-61 offers, so
a seat offered an interjection or a Card Exchange cancel becomes ``agent_selection`` out
of turn, with a *decline* index in its mask; for Stop & Go it is the seat on turn. Chance
steps (deals, reshuffles, die rolls) are taken by the driver from the game's own seeded
generator, so ``reset(seed=s)`` fixes the whole episode for fixed actions.

A game plugs in through :class:`Adapter`: its action codec, its view encoder, how a game
starts, and what happens when the driver stops (round end or game end).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Final, Protocol

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable

from stoptable.core.errors import IllegalAction
from stoptable.core.protocol import JSON
from stoptable.rl.common import (
    ILLEGAL_MODES,
    TURN_RENDER_MODES,
    agent_name,
    observation_space,
    ranked_reward,
)
from stoptable.rl.render import RENDER_FPS, rasterise

TURN_KEYS: Final = ("render_mode", "max_steps", "max_ticks", "illegal", "illegal_reward")
"""The keyword options every turn-based env takes for itself (the rest go to the ruleset)."""


def turn_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """:class:`TurnEnv`'s keyword arguments from the env keys of a constructor's options.

    ``max_ticks`` is accepted as another name of ``max_steps`` (Stop it! counts ticks,
    these games count steps; both name the same budget, so either works everywhere); giving
    both with different values is a ValueError."""
    steps, ticks = options.get("max_steps"), options.get("max_ticks")
    if steps is not None and ticks is not None and steps != ticks:
        raise ValueError("max_steps and max_ticks name the same budget: give one")
    return {
        "render_mode": options.get("render_mode"),
        "max_steps": steps if steps is not None else ticks,
        "illegal": options.get("illegal", "raise"),
        "illegal_reward": options.get("illegal_reward"),
    }


class Codec(Protocol):
    """Index <-> action for one game."""

    def index(self, action: Any) -> int: ...

    def action(self, index: int, seat: int) -> Any: ...

    def mask(self, legal: list[Any]) -> tuple[np.ndarray, dict[int, Any]]:
        """The mask (a new array at every call: the env hands it out as it is) and the
        action behind each unmasked index."""
        ...

    def indexed(self, legal: list[Any]) -> dict[int, Any]:
        """``mask(legal)[1]`` without the mask (a caller that writes masks itself)."""
        ...


class Adapter(Protocol):
    """What a turn-based game supplies to :class:`TurnEnv`."""

    seats: int
    n_actions: int
    obs_size: int
    idle_index: int
    """The one index a finished episode's mask offers in the Gymnasium envs (a no-op of
    the game's table, never accepted by ``step`` then): a mask is never all zero."""

    def new_game(self, seed: int) -> tuple[Any, Any]:
        """``(state, driver)`` of a new game from ``seed``."""
        ...

    def codec(self) -> Codec: ...

    def encode(self, view: Mapping[str, JSON]) -> np.ndarray:
        """The observation of a seat's view (``state.view(seat)``)."""
        ...

    def observation(self, state: Any, seat: int) -> np.ndarray:
        """``encode(state.view(seat))``; a game may compute it more cheaply from the
        state's fields that the view shows (Stop: ``stop_codec.StateEncoder``), never from
        anything the view hides."""
        ...

    def stopped(self, state: Any, driver: Any) -> tuple[list[float], bool]:
        """The driver stopped (a round or the game ended): the rewards of that stop per
        seat, and whether play goes on (the adapter has dealt the next round); if not, the
        env adds :meth:`final_rewards` and ends the episode."""
        ...

    def final_rewards(self, state: Any) -> list[float]: ...

    def worst_return(self) -> float:
        """A bound ``B >= 0``: from any point of an episode, the rewards a seat collects
        until it ends sum to at least ``-B`` whatever anyone plays (the game's scoring
        bound). The default ``illegal_reward`` is ``-(B + 1)``, so an illegal move never
        pays better than playing on."""
        ...

    def describe(self, index: int, seat: int) -> str:
        """``index`` in words for ``seat``, from the index table alone (game notation where
        the table fixes the action; the env names an offered index by its action)."""
        ...

    def svg(self, state: Any, seat: int | None) -> str:
        """``seat``'s view of the table (None: the spectator's) as an SVG picture, drawn
        as the browser draws it (``render_mode="rgb_array"``)."""
        ...

    def potentials(self, state: Any) -> list[float] | None:
        """Dense shaping: each seat's potential now (None: no shaping). The env pays
        ``potential after - potential before`` at every step and counts the potential as 0
        when a round or the game ends, so a round's shaping sums to minus the potential its
        deal gave: chance, not play (potential-based shaping keeps the best policy)."""
        ...


def _submit_of(driver: Any) -> Any:
    """How the env submits to ``driver``: a choice always comes from the decision's legal
    list (the mask), so a driver that can skip re-checking it (Stop's ``submit_listed``)
    is given it that way, and nothing here reads the events a submit returns (Stop's
    ``..._quietly`` makes none)."""
    return (
        getattr(driver, "submit_listed_quietly", None)
        or getattr(driver, "submit_listed", None)
        or driver.submit
    )


class TurnEnv(AECEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """The AEC environment of a turn-based game with out-of-turn offers (see module doc).

    ``max_steps`` truncates an episode after that many agent steps (None: never; every
    stoptable game ends on its own, Stop by S-64 and Stop & Go by G-22, so this is only a
    budget).

    ``illegal``: what :meth:`step` does with an index the mask does not offer: ``"raise"``
    (default: IllegalAction, nothing changes); ``"penalize"`` (the game ends for every
    agent, terminated, so nothing is bootstrapped past it, and the agent that chose it gets
    ``illegal_reward``); ``"random_legal"`` (a uniformly random offered index is played
    instead, drawn from a generator seeded by the game's seed). Both set ``infos[agent]
    ["illegal_action"]``. ``illegal_reward`` None is ``-(adapter.worst_return() +
    1)``: below anything legal play can still cost.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": TURN_RENDER_MODES,
        "render_fps": RENDER_FPS,
        "name": "stoptable_turn_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        adapter: Adapter,
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal: str = "raise",
        illegal_reward: float | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in TURN_RENDER_MODES:
            raise ValueError(f"render_mode must be one of {TURN_RENDER_MODES} or None")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, not {illegal!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError("max_steps must be a positive number of steps or None")
        self.illegal = illegal
        self.illegal_reward = (
            -(adapter.worst_return() + 1.0) if illegal_reward is None else float(illegal_reward)
        )
        self.adapter = adapter
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.possible_agents = [agent_name(s) for s in range(adapter.seats)]
        self._seat_of = {agent: s for s, agent in enumerate(self.possible_agents)}
        self._observation = adapter.observation
        self._obs_space = observation_space(adapter.obs_size, adapter.n_actions)
        self._act_space = spaces.Discrete(adapter.n_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._rng = np.random.default_rng()
        self._illegal_rng = np.random.default_rng()
        """``illegal="random_legal"``'s choices, seeded by each game's seed."""
        self.state: Any = None
        self.driver: Any = None
        self._submit: Any = None
        """``driver.submit``, or its ``submit_listed`` where it has one (set at reset)."""
        self.codec = adapter.codec()
        """Index <-> action; one for the env's life (it caches what it has looked up)."""
        self.steps = 0
        self._mask = np.zeros(adapter.n_actions, dtype=np.int8)
        """The mask of the decision, until :meth:`observe` hands it out (see there)."""
        self._mask_out = False
        """:meth:`observe` has handed ``_mask`` out: the env must not read it again."""
        self._chosen: dict[int, Any] = {}
        self._seat: int | None = None
        self.legal: Any = []
        """The legal actions of the agent to act, as the driver listed them (for bots)."""
        self.game_seed = 0
        self._rewarded = False
        self._phi: list[float] | None = None
        """The seats' shaping potentials after the last step (None: no shaping)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` seeds the env's generator, which draws each game's seed."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game_seed = int(self._rng.integers(2**31))
        self.state, self.driver = self.adapter.new_game(self.game_seed)
        self._illegal_rng = np.random.default_rng(self.game_seed)
        self._submit = _submit_of(self.driver)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.steps = 0
        self._phi = self.adapter.potentials(self.state)
        self._advance()

    def __getstate__(self) -> dict[str, Any]:
        """The env for a copy or a pickle, without the driver's bound ``submit``: the
        copy binds its own (:meth:`__setstate__`). Compiled, the driver is a native class
        whose bound methods ``copy`` treats as atoms, so a deep copy kept the original's
        and stepping the copy played in the original game."""
        state = self.__dict__.copy()
        state["_submit"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.driver is not None:
            self._submit = _submit_of(self.driver)

    def _advance(self, asked: bool = False) -> None:
        """Run the driver to the next decision, handing out round and game rewards
        (``asked``: the driver was just asked and had none: play has stopped)."""
        decision = None if asked else self.driver.decision()
        while True:
            if decision is not None:
                self._seat = decision.seat
                self.agent_selection = self.possible_agents[decision.seat]
                self.legal = decision.legal
                self._mask, self._chosen = self.codec.mask(decision.legal)
                self._mask_out = False
                return
            if self._phi is not None:  # the round's end: potential 0
                self._reward([-phi for phi in self._phi])
            stop_rewards, more = self.adapter.stopped(self.state, self.driver)
            self._reward(stop_rewards)
            if self._phi is not None:  # the next deal's potential is chance: not paid
                self._phi = self.adapter.potentials(self.state) if more else None
            if not more:
                break
            decision = self.driver.decision()
        self._reward(self.adapter.final_rewards(self.state))
        self._end(truncated=False)

    def _reward(self, rewards: list[float]) -> None:
        """Add a stop's rewards to this step's. Steps without any keep the all-zero dict of
        the step before (most steps: rewards come at round ends), so the first reward of a
        step starts a new dict rather than change one a caller may still hold."""
        if not self._rewarded:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = True
        for seat, r in enumerate(rewards):
            self.rewards[self.possible_agents[seat]] += r

    @property
    def seat_to_act(self) -> int | None:
        """The seat of ``agent_selection`` while the game runs; None once it is over."""
        return self._seat

    def _end(self, truncated: bool) -> None:
        self._seat = None
        self.legal = []
        self._mask = np.zeros(self.adapter.n_actions, dtype=np.int8)
        self._mask_out = False
        self._chosen = {}
        for agent in self.agents:
            if truncated:
                self.truncations[agent] = True
            else:
                self.terminations[agent] = True

    def step(self, action: int | None) -> None:
        """Apply ``action`` (an index of the current agent's mask). IllegalAction (a
        ValueError) for an index the mask does not offer; nothing changes then."""
        agent = self.agent_selection
        if self._seat is None:  # the game is over: every agent is terminated or truncated
            self._was_dead_step(action)
            return
        try:  # an offered int (or numpy integer: equal, same hash) without int() first
            choice = self._chosen[action]  # type: ignore[index]  # None: a KeyError
        except (KeyError, TypeError):  # anything else goes through int() as it always has
            choice = None if action is None else self._chosen.get(int(action))
        if choice is None:
            choice = self._illegal(agent, action)
            if choice is None:
                return
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # else self.rewards is still all zero
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        self._submit(choice)
        self.steps += 1
        decision = self.driver.decision()
        if decision is not None:  # _advance's usual first answer, written out (a frame less)
            self._seat = decision.seat
            self.agent_selection = self.possible_agents[decision.seat]
            self.legal = decision.legal
            self._mask, self._chosen = self.codec.mask(decision.legal)
            self._mask_out = False
        else:
            self._advance(asked=True)
        if (
            self.max_steps is not None
            and self.steps >= self.max_steps
            and not any(self.terminations.values())
        ):
            self._end(truncated=True)
        phi = self._phi
        if phi is not None and self._seat is not None:
            now = self.adapter.potentials(self.state)
            assert now is not None
            self._reward([b - a for a, b in zip(phi, now, strict=True)])
            self._phi = now
        if self._rewarded:  # adding zeros changes nothing
            self._accumulate_rewards()

    def _illegal(self, agent: str, action: int | None) -> Any:
        """An index the mask does not offer, by ``illegal``: raise; end the game with
        ``illegal_reward`` (None returned: nothing to play); or the legal choice to play."""
        if self.illegal == "raise" or not self._chosen:
            if action is None:
                raise IllegalAction("no_action", "docs/rl.md", f"{agent} must choose an action")
            raise IllegalAction(
                "not_legal", "docs/rl.md", f"action {int(action)} is not offered to {agent} now"
            )
        self.infos[agent] = {**self.infos[agent], "illegal_action": True}
        if self.illegal == "random_legal":
            offered = sorted(self._chosen)
            return self._chosen[offered[int(self._illegal_rng.integers(len(offered)))]]
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self._rewarded = True
        self._end(truncated=False)
        self._accumulate_rewards()
        return None

    # ------------------------------------------------------------------ fast path

    def offered(self, index: int) -> Any:
        """The action behind ``index`` if the mask of the agent to act offers it, else
        None (nothing is offered once the game is over)."""
        return self._chosen.get(index)

    def offered_indices(self) -> Any:
        """The offered indices of the agent to act, unsorted (a view of the env's own
        table: read it before the next step); empty once the game is over."""
        return self._chosen.keys()

    @property
    def fast_path_ok(self) -> bool:
        """Whether :meth:`play_until` may run this env's step: no shaping to pay and no
        ``max_steps`` of its own to count (those take :meth:`step`)."""
        return self._phi is None and self.max_steps is None

    def play_until(
        self, choice: Any, learner: int, deciders: Mapping[int, Any]
    ) -> tuple[float, bool]:
        """:meth:`step` of ``choice`` (an offered action of the agent to act, who is
        ``learner``), then the other seats' decisions by ``deciders[seat](state, legal)``,
        until ``learner`` must decide again or the game ends: ``(learner's reward, game
        over)``. The same game as stepping each decision's index through :meth:`step`,
        for a caller that plays the other seats itself (the single and batched Gymnasium
        envs): the others' choices are submitted as they are, with no mask or index, and
        only the learner's rewards are added up; the learner's offered indices are kept
        (no mask array: :meth:`observe` builds one from them). ``agent_selection``,
        ``legal``, the offered indices, the step count and the ends are left as
        :meth:`step` leaves them; the reward dicts are not kept (read the return value).
        Only where :attr:`fast_path_ok`."""
        state, driver, adapter, submit = self.state, self.driver, self.adapter, self._submit
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
                self.steps += moves
                self._end(truncated=False)
                return reward, True
            seat = decision.seat
            legal = decision.legal
            if seat == learner:
                self.steps += moves
                self._seat = seat
                self.agent_selection = self.possible_agents[seat]
                self.legal = legal
                self._chosen = self.codec.indexed(legal)
                self._mask_out = True  # observe() builds the mask from _chosen
                return reward, False
            submit(deciders[seat](state, legal))
            moves += 1

    # ------------------------------------------------------------------ reading

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's encoded view and, for the agent to act, its action mask."""
        seat = self._seat_of[agent]
        if seat != self._seat:
            mask = np.zeros(self.adapter.n_actions, dtype=np.int8)
        elif not self._mask_out:
            # the decision's own mask, handed out as it is: nothing in the env reads it
            # after this, so the copy a step used to make here is saved (the loop observes
            # the agent to act once per step); later calls build their own from _chosen
            mask = self._mask
            self._mask_out = True
        else:
            mask = self._mask_of_chosen()
        return {"observation": self._observation(self.state, seat), "action_mask": mask}

    def _mask_of_chosen(self) -> np.ndarray:
        """The mask of the agent to act, built anew from the unmasked indices."""
        mask = np.zeros(self.adapter.n_actions, dtype=np.int8)
        for i in self._chosen:
            mask[i] = 1
        return mask

    def legal_indices(self) -> list[int]:
        """The unmasked indices of the agent to act (empty once the game is over)."""
        return sorted(self._chosen)

    def describe(self, index: int) -> str:
        """Action ``index`` in the game's notation (docs/notation.md): the offered action
        itself while it is offered, else what the index table says for the seat to act
        (seat 0 once the game is over). IndexError outside the action space."""
        if not 0 <= int(index) < self.adapter.n_actions:
            raise IndexError(f"action {index} is outside Discrete({self.adapter.n_actions})")
        action = self._chosen.get(int(index))
        if action is not None:
            return str(action.notation())
        return self.adapter.describe(int(index), self._seat or 0)

    def index_of(self, action: Any) -> int:
        """The index of ``action`` for the agent to act: an engine action, a decline, or its
        notation (``"play B4"``, ``"draw"``, ``"decline"``, ``"move M v21d"``). ValueError if
        the notation does not parse or the action has no index now."""
        if isinstance(action, str):
            for i, offered in self._chosen.items():
                if offered.notation() == action.strip():
                    return i
            if self._seat is None:
                raise ValueError("the game is over: nothing is offered")
            if action.strip() == "decline":
                raise ValueError("no offer to decline now")
            action = self.adapter.spec.parse_action(action, self._seat)  # type: ignore[attr-defined]
        try:
            return int(self.codec.index(action))
        except KeyError:
            raise ValueError(f"{action.notation()} has no index now") from None

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the spectator's view of the table as text, then the agent to act and
        its offered actions with their indices; ``rgb_array``: the spectator's view drawn
        (:meth:`render_rgb`)."""
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "rgb_array":
            return self.render_rgb(None)
        return self.render_view(None)

    def render_rgb(self, seat: int | None) -> np.ndarray:
        """``seat``'s view of the table (None: the spectator's) as the browser draws it,
        an ``(H, W, 3)`` uint8 array (:func:`stoptable.rl.render.rasterise`)."""
        return rasterise(self.adapter.svg(self.state, seat))

    def render_view(self, seat: int | None) -> str:
        """``seat``'s view (None: the spectator's) as text, and the offered actions of the
        agent to act as ``index: notation`` lines."""
        view = self.state.view(seat)
        lines = [f"{k}: {v}" for k, v in view.items() if k != "log"]
        if self._seat is None:
            lines.append("game over")
        else:
            lines.append(f"to act: {agent_name(self._seat)}")
            if seat is None or seat == self._seat:
                lines += [f"  {i}: {self._chosen[i].notation()}" for i in sorted(self._chosen)]
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


def end_rewards(state: Any) -> list[float]:
    """:func:`~stoptable.rl.common.ranked_reward` per seat of a finished game."""
    outcome = state.result()
    if outcome is None:
        return [0.0] * state.seats
    return [ranked_reward(outcome, s) for s in range(state.seats)]


class OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]  # pettingzoo is untyped
    """PettingZoo's :class:`OrderEnforcingWrapper` with its per-step paths made direct.

    The plain wrapper reaches every attribute of the env (``agent_selection``, ``agents``,
    ``terminations``, ...) through two Python ``__getattr__`` frames; the standard loop
    (``agent_iter``, ``last``, ``step``) reads eight of them per step, which cost as much as
    encoding the observation. Here ``last`` and ``step`` go straight to the env once reset,
    and ``agents``/``agent_selection`` are properties: the same checks, the same errors
    before ``reset``, the same results.

    Even a found attribute of a class that defines ``__getattr__`` (every PettingZoo
    wrapper) takes CPython's slow lookup, about four times a plain one (~75 ns against
    ~18 ns): so ``last`` and ``step`` are closures made once per wrapper and kept in its
    ``__dict__`` (one lookup from the caller, as a method's), which read the wrapped env
    and the wrapper's flags (``_has_reset``, ``_has_updated``: its ``__dict__``, which the
    upstream methods keep) without reading an attribute of the wrapper, and the iterator
    holds both too.
    """

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._bind()

    def _bind(self) -> None:
        """Make ``last`` and ``step`` for this wrapper and its env (see the class doc)."""
        flags: dict[str, Any] = self.__dict__
        env = flags["env"]
        # ``last`` observes the agent to act as TurnEnv.observe does, inline, unless the env
        # observes in its own way
        direct = type(env).observe is TurnEnv.observe

        def last(observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
            """``AECEnv.last`` of the env, written out here (a frame fewer per step)."""
            if not flags["_has_reset"]:
                raise AttributeError("agent_selection cannot be accessed before reset")
            agent = env.agent_selection
            if not observe:
                obs = None
            elif direct and env._seat == env._seat_of[agent] and not env._mask_out:
                # TurnEnv.observe's usual case written out (a frame less a step)
                env._mask_out = True
                obs = {
                    "observation": env._observation(env.state, env._seat),
                    "action_mask": env._mask,
                }
            else:
                obs = env.observe(agent)
            return (
                obs,
                env._cumulative_rewards[agent],
                env.terminations[agent],
                env.truncations[agent],
                env.infos[agent],
            )

        def step(action: Any) -> None:
            """The upstream ``step``: the env's once reset and not over, else its checks."""
            if flags["_has_reset"] and env.agents:
                flags["_has_updated"] = True
                env.step(action)
            else:
                OrderEnforcingWrapper.step(self, action)

        flags["last"] = last
        flags["step"] = step

    def __getstate__(self) -> dict[str, Any]:
        """The wrapper's state without its closures (a copy or an unpickled wrapper makes
        its own, bound to its own env)."""
        state = dict(self.__dict__)
        del state["last"], state["step"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bind()

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        selection: str = self.env.agent_selection
        return selection

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        agents: list[str] = self.env.agents
        return agents

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)  # the upstream error
        return _Iterable(self, max_iter)


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc]  # pettingzoo is untyped
    def __iter__(self) -> Iterator[str]:
        return _agents(self.env, self.max_iter)


def _agents(wrapper: OrderEnforcing, max_iter: int) -> Iterator[str]:
    """``AECOrderEnforcingIterator`` as a generator, reading the env under the wrapper and
    the wrapper's flags directly (no attribute of the wrapper read per step: see
    :class:`OrderEnforcing`). The same agents, checks and error; a generator because a
    class's Python ``__next__`` is called through a slot lookup and a new frame at every
    step, while a generator resumes its one frame: about 420 instructions a step less
    (callgrind, the benchmark's loop). Unlike the upstream iterator it stays finished once
    it has stopped (or failed its check), as a ``for`` loop never asks again."""
    env = wrapper.env
    flags: dict[str, Any] = wrapper.__dict__
    left = max_iter
    while env.agents and left > 0:
        left -= 1
        assert flags["_has_updated"], "need to call step() or reset() in a loop over `agent_iter`"
        flags["_has_updated"] = False
        yield env.agent_selection
