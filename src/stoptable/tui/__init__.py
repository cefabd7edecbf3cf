"""Interactive terminal games, built on Textual. They drive the engines through views only.

Each game looks different on screen, so each has its own app: this is the one place where
a game name picks front-end code. ``stoptable play GAME`` finds the app here by the game's
registry name and hands it a :class:`PlayConfig`; everything else about the game (rulesets,
options, seats, bots, map files) was read through the game's spec before.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

Speed = Literal["slow", "normal", "fast"]

APPS: Final = {
    "stop": "stoptable.tui.stop",
    "stopit": "stoptable.tui.stopit",
    "stopandgo": "stoptable.tui.stopandgo",
}
"""Game name -> the module whose ``make_app(config)`` builds its Textual app."""


@dataclass(frozen=True)
class PlayConfig:
    """What ``stoptable play`` has read and checked: the person sits in seat 0."""

    game: str
    ruleset: str
    bots: list[str]
    seed: int
    record: Path
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)
    """Values read from files for the game's constructor (Stop & Go: ``map``)."""
    header_setup: dict[str, Any] = field(default_factory=dict)
    """What the record's header says of them (the map object)."""
    speed: Speed = "normal"


def has_app(game: str) -> bool:
    """Whether ``game`` can be played in the terminal."""
    return game in APPS


def make_app(config: PlayConfig) -> Any:
    """The Textual app of ``config.game``, ready to ``run()``."""
    module = importlib.import_module(APPS[config.game])
    return module.make_app(config)
