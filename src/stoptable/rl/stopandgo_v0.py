"""Stop & Go as a PettingZoo AEC environment: ``stoptable.rl.stopandgo_v0``.

>>> from stoptable.rl import stopandgo_v0
>>> env = stopandgo_v0.env(seats=3, destination_count=3)
>>> env.reset(seed=1)
>>> obs, *_ = env.last()
>>> obs["observation"].shape, obs["action_mask"].shape
((1404,), (3700,))

The seat on turn acts (there is no out-of-turn play); the die is rolled by the game's own
seeded generator. ``map``: None (the default map), a path to a map file or a loaded
``StopGoMap``; a map that fails GM-9 is refused with ``UnplayableMap`` as by every front
end. The game always ends: the stall rule G-22 (``stall_turns``, default 60) must be on.
Reward: :func:`~stoptable.rl.common.ranked_reward` at the end of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Final

import numpy as np

from stoptable.core.protocol import JSON
from stoptable.games import spec
from stoptable.games.stopandgo.check import load_default_map, load_map
from stoptable.games.stopandgo.playable import require_playable_map
from stoptable.rl.common import split_options
from stoptable.rl.stopandgo_codec import Codec, Layout
from stoptable.rl.turn_env import TURN_KEYS, OrderEnforcing, TurnEnv, end_rewards, turn_options

ENV_KEYS: Final = TURN_KEYS


def playable_map(source: Any) -> Any:
    """The map of ``source`` (None: the default; a path; a ``StopGoMap``), checked by GM-9."""
    if source is None:
        game_map = load_default_map()
    elif isinstance(source, str | Path):
        game_map = load_map(Path(source))
    else:
        game_map = source
    return require_playable_map(game_map)


class StopAndGoAdapter:
    """Stop & Go for :class:`~stoptable.rl.turn_env.TurnEnv`."""

    def __init__(self, seats: int, game_map: Any, options: Mapping[str, JSON]) -> None:
        self.spec = spec("stopandgo")
        self.options = dict(options)
        rules = self.spec.ruleset(None, self.options)
        if rules.stall_turns <= 0:
            raise ValueError("the environments need G-22 on (stall_turns > 0) so games end")
        self.spec.check_seats(seats, rules)
        self.seats = seats
        self.map = playable_map(game_map)
        self.layout = Layout(self.map)
        self.n_actions = self.layout.n_actions
        self.idle_index = (self.layout.k - 1) * self.layout.routes  # stand still on space 0
        self.obs_size = self.layout.obs_size

    def new_game(self, seed: int) -> tuple[Any, Any]:
        state = self.spec.new(None, self.seats, seed, self.options, map=self.map)
        assert self.spec.driver is not None
        return state, self.spec.driver(state)

    def codec(self) -> Codec:
        return Codec(self.layout)

    def encode(self, view: Mapping[str, JSON]) -> np.ndarray:
        return self.layout.encode(view)

    def observation(self, state: Any, seat: int) -> np.ndarray:
        return self.layout.encode(state.view(seat))

    def stopped(self, state: Any, driver: Any) -> tuple[list[float], bool]:
        return [0.0] * self.seats, False

    def final_rewards(self, state: Any) -> list[float]:
        return end_rewards(state)

    def svg(self, state: Any, seat: int | None) -> str:
        """The map with the cars, as the browser's board (the server's ``map.svg``): every
        Stop & Go view shows the same table, so the seat changes nothing."""
        from stoptable.games.stopandgo.svg import render_svg

        data = self.map.model.model_dump(by_alias=True, exclude_none=True)
        return render_svg(data, dict(state.view(None)))

    def worst_return(self) -> float:
        """The only reward is the ranked one at the end, at least -1."""
        return 1.0

    def describe(self, index: int, seat: int) -> str:
        """Where the index's car state is: the space reached, the slot it came from and
        the route number (a path's other spaces depend on the car, so only an offered index
        names a whole move)."""
        lay = self.layout
        state, route = divmod(index, lay.routes)
        number, slot = divmod(state, lay.k)
        space = lay.ids[number]
        if slot == lay.k - 1:
            return f"stand on {space} (route {route})"
        came = sorted((n for n, s in lay.into[number].items() if s == slot))
        source = lay.ids[came[0]] if came else f"slot {slot}"
        return f"move to {space} from {source} (route {route})"

    def potentials(self, state: Any) -> list[float] | None:
        """No shaping."""
        return None


class StopAndGoEnv(TurnEnv):
    """Stop & Go's AEC environment (a :class:`TurnEnv` named ``stopandgo_v0``)."""

    metadata: ClassVar[dict[str, Any]] = {**TurnEnv.metadata, "name": "stopandgo_v0"}


def raw_env(seats: int = 2, map: Any = None, **options: Any) -> StopAndGoEnv:
    """The unwrapped AEC env. ``options``: ``render_mode`` ("ansi" or "rgb_array"), ``max_steps``
    (truncation); every other key is a Stop & Go ruleset option (stop-and-go.md §7, e.g.
    ``destination_count=5``, ``stall_turns``) passed to the engine."""
    env_opts, engine = split_options(options, ENV_KEYS)
    adapter = StopAndGoAdapter(seats, map, engine)
    return StopAndGoEnv(adapter, **turn_options(env_opts))


def env(seats: int = 2, map: Any = None, **options: Any) -> Any:
    """:func:`raw_env` in PettingZoo's order-enforcing wrapper (its subclass
    :class:`~stoptable.rl.turn_env.OrderEnforcing`, same checks, direct ``last``/``step``).
    ``step`` itself refuses any index the mask does not offer, out of bounds included, so
    no bounds wrapper is needed."""
    wrapped: Any = raw_env(seats, map, **options)
    return OrderEnforcing(wrapped)
