"""What every stoptable environment shares: agent names, rewards, option splitting, spaces.

No rule of any game is written here (nor anywhere in ``stoptable.rl``): environments reach
a game through its :class:`~stoptable.core.game.GameSpec` (``stoptable.games.spec``) and the
:class:`~stoptable.core.protocol.GameState` protocol, and encoders read only a seat's view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np
from gymnasium import spaces

from stoptable.core.protocol import JSON, Outcome

RENDER_MODES: Final = ["ansi"]
TURN_RENDER_MODES: Final = ["ansi", "rgb_array"]
"""The turn-based envs (Stop, Stop & Go) also draw their table (``stoptable.rl.render``)."""
ILLEGAL_MODES: Final = ("raise", "penalize", "random_legal")
"""What an env does with an index its mask does not offer (docs/rl.md, "Illegal actions")."""

OBS_DTYPE: Final = np.float32
MASK_DTYPE: Final = np.int8


def agent_name(seat: int) -> str:
    """The PettingZoo agent of a seat.

    >>> agent_name(3)
    'player_3'
    """
    return f"player_{seat}"


def seat_of(agent: str) -> int:
    """The seat of a PettingZoo agent name.

    >>> seat_of("player_3")
    3
    """
    return int(agent.rpartition("_")[2])


def ranked_reward(outcome: Outcome, seat: int) -> float:
    """The end-of-game reward of ``seat``: ``(n + 1 - 2 * rank) / (n - 1)``.

    1 for first place, -1 for last, spread evenly between; seats that tie share a place
    (``Outcome.ranks``), so a shared win is worth 1 to each. Zero-sum when nobody ties.

    >>> o = Outcome.ranked("target_score", [30, 10, 50], True)
    >>> [ranked_reward(o, s) for s in range(3)]
    [0.0, 1.0, -1.0]
    """
    n = len(outcome.ranks)
    return (n + 1 - 2 * outcome.ranks[seat]) / (n - 1)


def split_options(
    options: Mapping[str, Any], env_keys: Sequence[str]
) -> tuple[dict[str, Any], dict[str, JSON]]:
    """``(env options, engine options)``: the keys in ``env_keys`` configure the environment,
    every other key passes through to the game's ruleset (an unknown one is the ruleset's
    OptionError)."""
    env = {k: v for k, v in options.items() if k in env_keys}
    engine = {k: v for k, v in options.items() if k not in env_keys}
    return env, engine


def observation_space(size: int, actions: int) -> spaces.Dict:
    """``Dict(observation=Box(0, 1, (size,), float32),
    action_mask=Box(0, 1, (actions,), int8))``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (size,), OBS_DTYPE),
            "action_mask": spaces.Box(0, 1, (actions,), MASK_DTYPE),
        }
    )


def relative(seat: int | None, me: int, seats: int) -> int | None:
    """``seat`` counted clockwise from ``me`` (0 = me), None for None.

    >>> relative(1, 3, 4)
    2
    """
    return None if seat is None else (seat - me) % seats


class Planes:
    """A flat float32 vector filled plane by plane (encoders document each plane's size).

    >>> p = Planes(5)
    >>> p.one_hot(3, 1); p.value(0.5); p.skip(1)
    >>> p.vector.tolist()
    [0.0, 1.0, 0.0, 0.5, 0.0]
    """

    __slots__ = ("at", "vector")

    def __init__(self, size: int) -> None:
        self.vector = np.zeros(size, dtype=OBS_DTYPE)
        self.at = 0

    def one_hot(self, width: int, index: int | None) -> None:
        """A one-hot plane of ``width`` (all zero for None or an index out of range)."""
        if index is not None and 0 <= index < width:
            self.vector[self.at + index] = 1.0
        self.at += width

    def value(self, x: float) -> None:
        """One number, clipped to [0, 1]."""
        self.vector[self.at] = min(max(x, 0.0), 1.0)
        self.at += 1

    def values(self, xs: Sequence[float], width: int) -> None:
        """Up to ``width`` numbers clipped to [0, 1], zero-padded."""
        for i, x in enumerate(xs[:width]):
            self.vector[self.at + i] = min(max(x, 0.0), 1.0)
        self.at += width

    def skip(self, width: int) -> None:
        """Leave ``width`` zeros."""
        self.at += width
