"""Game-agnostic kernel: the protocol every game implements, errors, randomness, records.

Nothing in here knows any particular game, and nothing in here does I/O except the record
reader/writer, which only turns text into plain data and back.
"""

from stoptable.core.errors import (
    IllegalAction,
    InvalidNotation,
    OptionError,
    PlayerCountError,
    RecordError,
    StoptableError,
    UnknownGame,
)
from stoptable.core.protocol import Event, GameState, Outcome, Step, StepKind, Termination
from stoptable.core.rng import Rng

__all__ = [
    "Event",
    "GameState",
    "IllegalAction",
    "InvalidNotation",
    "OptionError",
    "Outcome",
    "PlayerCountError",
    "RecordError",
    "Rng",
    "Step",
    "StepKind",
    "StoptableError",
    "Termination",
    "UnknownGame",
]
