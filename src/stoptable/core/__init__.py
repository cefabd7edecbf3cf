"""Game-agnostic kernel: the protocol every game implements, errors, randomness, records.

Nothing in here knows any particular game, and nothing in here does I/O except the record
reader/writer, which only turns text into plain data and back.
"""

from stoptable.core.errors import IllegalAction, InvalidNotation, RecordError, StoptableError
from stoptable.core.protocol import Event, GameState, Outcome, Termination
from stoptable.core.rng import Rng

__all__ = [
    "Event",
    "GameState",
    "IllegalAction",
    "InvalidNotation",
    "Outcome",
    "RecordError",
    "Rng",
    "StoptableError",
    "Termination",
]
