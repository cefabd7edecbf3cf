"""A saved-policy stand-in for the tournament tests: ``py:tests.sim.policies:first``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def first(game: str, seat: int, seed: int) -> Callable[[Any, Sequence[Any]], int]:
    """A policy that always plays the first legal action (by index)."""
    del game, seat, seed
    return lambda view, legal: 0
