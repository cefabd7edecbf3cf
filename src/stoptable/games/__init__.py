"""One package per game. This registry maps a game name to its record replayer.

Games are imported lazily, so that loading one game never pays for the others.
"""

from __future__ import annotations

import importlib
from typing import Final

from stoptable.core.errors import RecordError
from stoptable.core.records import Replayer

GAME_PACKAGES: Final = {
    "stop": "stoptable.games.stop.records",
    "stopit": "stoptable.games.stopit.records",
    "stopandgo": "stoptable.games.stopandgo.records",
}


def replayer(game: str) -> Replayer:
    """The replayer of ``game`` (``stop``, ``stopit`` or ``stopandgo``)."""
    module_name = GAME_PACKAGES.get(game)
    if module_name is None:
        raise RecordError(f"unknown game {game!r}")
    module = importlib.import_module(module_name)
    result: Replayer = module.REPLAYER
    return result
