"""The game registry: one line per game, naming the module that holds its GameSpec.

Games are imported lazily, so loading one game never pays for the others. Adding a game is
its own package (with a ``spec.py`` that defines ``SPEC``) plus one line here.
"""

from __future__ import annotations

import importlib
from typing import Final

from stoptable.core.errors import UnknownGame
from stoptable.core.game import GameSpec
from stoptable.core.records import Replayer

REGISTRY: Final = {
    "stop": "stoptable.games.stop.spec",
    "stopit": "stoptable.games.stopit.spec",
    "stopandgo": "stoptable.games.stopandgo.spec",
}


def names() -> tuple[str, ...]:
    """The registered game names, in registry order."""
    return tuple(REGISTRY)


def spec(game: str) -> GameSpec:
    """The spec of ``game``; UnknownGame (a ValueError) naming the known games otherwise."""
    module_name = REGISTRY.get(game)
    if module_name is None:
        raise UnknownGame(f"unknown game {game!r} (known: {', '.join(REGISTRY)})")
    result: GameSpec = importlib.import_module(module_name).SPEC
    return result


def specs() -> list[GameSpec]:
    """Every registered game's spec."""
    return [spec(name) for name in REGISTRY]


def replayer(game: str) -> Replayer:
    """The record replayer of ``game`` (for ``stoptable replay``)."""
    return spec(game).replayer
