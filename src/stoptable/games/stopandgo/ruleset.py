"""The ruleset ``stopgo-standard`` and its named options (stop-and-go.md §7).

Options are read and checked by :class:`~stoptable.core.ruleset.RulesetBase` from the
:data:`Ruleset.OPTIONS` table, so a record header, ``-O key=value`` and a research
environment refuse a bad option alike, with an :class:`~stoptable.core.errors.OptionError`
naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, Self

from stoptable.core.ruleset import Option, RulesetBase

Enforcement = Literal["prevent", "fine"]
Scoring = Literal["count", "sum"]

DEFAULT_RULESET: Final = "stopgo-standard"
MIN_SEATS: Final = 2
"""G-2 (GA-4): 2-6 players."""
MAX_SEATS: Final = 6
MAX_COUNTED_TURNS: Final = 1000
"""A sane maximum for a count of turns or tickets (the rules say 3, 3 and 60)."""
MAX_DESTINATION: Final = 25
"""G-21: the destination cards are numbered 1 to 25 (``limits.MAX_DESTINATIONS``)."""
MAX_DIAL_SLOT: Final = 7
"""G-3: a dial has at most 8 positions (``limits.MAX_DIAL_POSITIONS``)."""


@dataclass(frozen=True, slots=True)
class Ruleset(RulesetBase):
    """Every option of §7, with its default.

    * ``enforcement`` (G-16): ``prevent`` rejects traffic violations, ``fine`` punishes them.
    * ``tickets_limit`` / ``missed_turns_on_limit`` (G-17): tickets that cost missed turns.
    * ``scoring`` (G-20): ``count`` of cards or ``sum`` of their numbers.
    * ``destination_count`` (G-21): keep only the first N cards (None: all of them).
    * ``destination_list`` (G-21): the cards in play, in this order (overrides the shuffle).
    * ``dial_start`` (G-3): the dial's first position (None: the map's ``dial.start``,
      which is 0 unless the map says otherwise).
    * ``dial_advance_on`` (G-5): the rolls that turn the dial.
    * ``collect_on_reveal`` (G-18, GA-9): a car standing on a newly turned-up destination
      collects it at once.
    * ``reverse_after_collect`` (G-11): collecting allows one U-turn on the next move.
    * ``stall_turns`` (G-22): consecutive still turns that end the game (0: never).

    >>> Ruleset.preset("stopgo-standard", scoring="sum").scoring
    'sum'
    >>> Ruleset.preset(stall_turns=-1)
    Traceback (most recent call last):
    ...
    stoptable.core.errors.OptionError: option 'stall_turns' must be an integer from 0 to 1000
    """

    SEAT_RULE: ClassVar[str] = "G-2"
    GAME: ClassVar[str] = "Stop & Go"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("enforcement", "choice", "G-16", "prevent: refuse traffic violations; "
               "fine: accept them with a ticket", choices=("prevent", "fine")),
        Option("tickets_limit", "int", "G-17", "tickets that cost missed turns", minimum=1,
               maximum=MAX_COUNTED_TURNS),
        Option("missed_turns_on_limit", "int", "G-17", "turns missed on reaching the limit",
               minimum=1, maximum=MAX_COUNTED_TURNS),
        Option("scoring", "choice", "G-20", "count: most cards wins; sum: highest total",
               choices=("count", "sum")),
        Option("destination_count", "optional_int", "G-21",
               "keep only the first N destination cards (null: all)", minimum=1,
               maximum=MAX_DESTINATION),
        Option("destination_list", "optional_int_list", "G-21",
               "the destination cards in play, in this order (null: shuffled)",
               minimum=1, maximum=MAX_DESTINATION),
        Option("dial_start", "optional_int", "G-3",
               "the dial's first position (null: the map's dial.start)", minimum=0,
               maximum=MAX_DIAL_SLOT),
        Option("dial_advance_on", "int_set", "G-5", "the rolls that turn the dial",
               minimum=1, maximum=6),
        Option("collect_on_reveal", "bool", "G-18",
               "a car standing on a newly turned-up destination collects it"),
        Option("reverse_after_collect", "bool", "G-11",
               "collecting allows one U-turn on the next move"),
        Option("stall_turns", "int", "G-22",
               "consecutive still turns that end the game (0: off)", minimum=0,
               maximum=MAX_COUNTED_TURNS),
    )  # fmt: skip
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {DEFAULT_RULESET: {}}
    MIN_SEATS: ClassVar[int] = MIN_SEATS
    MAX_SEATS: ClassVar[int] = MAX_SEATS

    name: str = DEFAULT_RULESET
    enforcement: Enforcement = "prevent"
    tickets_limit: int = 3
    missed_turns_on_limit: int = 3
    scoring: Scoring = "count"
    destination_count: int | None = None
    destination_list: tuple[int, ...] | None = None
    dial_start: int | None = None
    dial_advance_on: frozenset[int] = frozenset({1, 6})
    collect_on_reveal: bool = False
    reverse_after_collect: bool = True
    stall_turns: int = 60

    @classmethod
    def preset(cls, name: str = DEFAULT_RULESET, **overrides: Any) -> Self:
        """The named ruleset (default ``stopgo-standard``) with ``overrides`` checked like
        record options; OptionError naming a bad one."""
        return cls.from_options(name, overrides)
