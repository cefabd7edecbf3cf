"""The Stop it! ruleset: every option of stop-it.md §7 as one frozen value.

The option table (:data:`Ruleset.OPTIONS`) is what record headers, ``-O key=value`` and
the server's create-table body are checked against (``core.ruleset``); the dataclass
fields below are the same options with their defaults, the one preset
``stopit-standard`` of stop-it.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Final, Literal

from stoptable.core.ruleset import Option, RulesetBase
from stoptable.games.stopit.cards import MINUS_CARDS

DropPenalty = Literal["off", "fumble"]
FalseStopPenalty = Literal["off", "minus_card"]

MIN_SEATS: Final = 2
MAX_SEATS: Final = 6
"""I-2: "For 2 - 6 players"."""
MAX_STACKS: Final = 9
"""The most stacks ``stack_count`` may ask for (IA-2 leaves the number open). Nine keeps
every stack name one digit (``S1``..``S9``, the keys 1-9 of a terminal) and gives a
research encoder a fixed size; the printed game has 5."""
MAX_GRACE_MS: Final = 10_000
"""A sane maximum for the I-35 sort grace (the rules say 3 s): play waits for it."""
MAX_PAUSE_MS: Final = 60_000
"""A sane maximum for the I-37 pause and Go timeout (the rules say 2 s and 10 s)."""
MAX_ENDGAME_MS: Final = 600_000
"""A sane maximum for the I-21 end-game timeout (the rules say 15 s)."""


@dataclass(frozen=True, slots=True)
class Ruleset(RulesetBase):
    """The options of one game (stop-it.md §7). ``name`` is the preset it came from.

    >>> Ruleset.preset("stopit-standard", sort_grace_ms=500).sort_grace_ms
    500
    >>> Ruleset.from_options("stopit-standard", {"drop_penalty": "fumble"}).options()
    {'drop_penalty': 'fumble'}
    """

    SEAT_RULE: ClassVar[str] = "I-2"
    GAME: ClassVar[str] = "Stop it!"
    MIN_SEATS: ClassVar[int] = MIN_SEATS
    MAX_SEATS: ClassVar[int] = MAX_SEATS
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "stack_count",
            "int",
            "I-3",
            "number of face-up stacks; the cards are dealt round-robin (IA-2)",
            minimum=1,
            maximum=MAX_STACKS,
        ),
        Option(
            "first_go_seat",
            "int",
            "I-4",
            "the seat that sends the first Go (IA-3)",
            minimum=0,
            maximum=MAX_SEATS - 1,
        ),
        Option(
            "sort_check_every_evaluation",
            "bool",
            "I-13",
            "make the sorting check on superstops too, not only on colour stops (IA-10)",
        ),
        Option(
            "stop_cards_ignored_in_sort_check",
            "bool",
            "I-8",
            "false: a stop card is part of its colour's block and SUPER a block (I-17)",
        ),
        Option(
            "drop_penalty",
            "choice",
            "I-36",
            "fumble: a card still held when the sort grace ends is a drop (IA-6)",
            choices=("off", "fumble"),
        ),
        Option(
            "false_stop_penalty",
            "choice",
            "I-33",
            "minus_card: a call naming no stop card on top costs a minus card (IA-7)",
            choices=("off", "minus_card"),
        ),
        Option(
            "sort_grace_ms",
            "int",
            "I-35",
            "ms after an interruption in which held cards may still be inserted",
            minimum=0,
            maximum=MAX_GRACE_MS,
        ),
        Option(
            "min_pause_ms",
            "int",
            "I-37",
            "ms after an evaluation before the restarter's Go is accepted",
            minimum=0,
            maximum=MAX_PAUSE_MS,
        ),
        Option(
            "go_timeout_ms",
            "int",
            "I-37",
            "ms after an evaluation at which the engine sends Go itself",
            minimum=0,
            maximum=MAX_PAUSE_MS,
        ),
        Option(
            "endgame_timeout_ms",
            "int",
            "I-21",
            "ms without a stop, once every stack is empty, after which the game ends",
            minimum=0,
            maximum=MAX_ENDGAME_MS,
        ),
        Option(
            "minus_supply",
            "int",
            "I-3",
            "minus cards in the supply at the start (fewer: a shorter game)",
            minimum=1,
            maximum=MINUS_CARDS,
        ),
    )
    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {"stopit-standard": {}}

    def record_options(self) -> dict[str, Any]:
        """:meth:`options` plus ``min_pause_ms`` always: replay reads a missing one as 0
        (records.md §5.4: a replay is a simulation driver), not as the preset's 2000.

        >>> Ruleset.preset("stopit-standard").record_options()
        {'min_pause_ms': 2000}
        """
        return {**self.options(), "min_pause_ms": self.min_pause_ms}

    name: str = "stopit-standard"
    stack_count: int = 5
    """I-3, IA-2: number of face-up stacks; cards are dealt round-robin."""
    first_go_seat: int = 0
    """I-4, IA-3: the seat that sends the first Go."""
    sort_check_every_evaluation: bool = True
    """I-13, IA-10: the sorting check is made on superstops too (False: colour stops only)."""
    stop_cards_ignored_in_sort_check: bool = True
    """I-8, I-17: False makes a stop card part of its colour's block and SUPER a block."""
    drop_penalty: DropPenalty = "off"
    """I-36: ``fumble`` turns a card still held at the end of the grace into a drop."""
    false_stop_penalty: FalseStopPenalty = "off"
    """I-33, IA-7: ``minus_card`` gives a minus card for a call that names no stop on top."""
    sort_grace_ms: int = 3000
    """I-35: how long held cards may still be inserted after an interruption."""
    min_pause_ms: int = 2000
    """I-37: the restarter's Go is accepted only this long after the evaluation."""
    go_timeout_ms: int = 10000
    """I-37: the engine sends Go itself this long after the evaluation."""
    endgame_timeout_ms: int = 15000
    """I-21: with all stacks empty, the game ends this long without a stop."""
    minus_supply: int = MINUS_CARDS
    """I-3: minus cards in the supply at the start (a shorter game: fewer)."""


def sim_ruleset(**options: object) -> Ruleset:
    """The simulation's ruleset: the standard one with ``min_pause_ms`` 0 (I-37).

    Rulesets are frozen, so the same options give the same one back from a cache: the
    simulator asks for one per game, and checking the options and building the dataclass
    twice (preset, then overrides) cost as much as dealing the cards. Options that cannot
    be a cache key (not hashable) are checked anew each time.
    """
    key = tuple((name, type(value), value) for name, value in options.items())  # 1 != True
    try:
        return _sim_ruleset(key)
    except TypeError:  # an unhashable value: from_options says what is wrong with it
        return Ruleset.from_options("stopit-standard", {"min_pause_ms": 0, **options})


@lru_cache(maxsize=64)
def _sim_ruleset(options: tuple[tuple[str, type, object], ...]) -> Ruleset:
    values = {name: value for name, _, value in options}
    return Ruleset.from_options("stopit-standard", {"min_pause_ms": 0, **values})
