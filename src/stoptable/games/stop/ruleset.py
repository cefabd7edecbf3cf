"""Rulesets: every option of stop.md §11 as a typed field, and the two presets.

A ruleset is a complete set of option values; a house rule is a preset plus overrides.
Reading, checking and printing options is :class:`~stoptable.core.ruleset.RulesetBase`'s
job, shared by every game, so a record header, ``-O key=value`` and a server body are
refused the same way (:class:`~stoptable.core.errors.OptionError` naming the option). What
stays here is the option table, the presets and the checks that involve several options.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from stoptable.core.errors import OptionError
from stoptable.core.ruleset import Option, RulesetBase

StarterEffect = Literal["none", "apply"]
SixNine = Literal["face", "nine"]
Exhaustion = Literal["pass_cycle_ends_round"]
SkipStacking = Literal["pass_on", "accumulate"]
CancelBy = Literal["any", "affected"]
DrawXMode = Literal["flip", "reveal_and_play"]
AchtungTrigger = Literal["play_second_to_last", "hand_becomes_one"]
CallDetection = Literal["automatic", "challenge"]

EXCHANGE_MODES: Final = ("left", "right", "swap")
MAX_SEATS: Final = 10
"""S-6 / A-1: no ruleset may allow more (10 hands of 7 and a starter fit in 112 cards)."""
MAX_DEAL: Final = 50
"""S-8 with 2 seats: ``deal_size * max_players`` may be at most 100 (``validate``)."""
MAX_PENALTY: Final = 20
"""A sane maximum for a penalty or a call window in cards (the rules say 2 or 0)."""
MAX_TARGET: Final = 10_000
"""A sane maximum score target: twenty times the rules' 500, more than a day's play."""
MAX_REALTIME_MS: Final = 10_000
"""A sane maximum for the S-62 grace and cancel window (the rules suggest 1 and 2 s):
every turn waits for them, so longer is a table that stops."""

OPTIONS: Final = (
    Option("min_players", "int", "S-6", "fewest seats", minimum=2, maximum=MAX_SEATS),
    Option("max_players", "int", "S-6", "most seats", minimum=2, maximum=MAX_SEATS),
    Option(
        "first_dealer", "int", "S-7", "seat of the first dealer", minimum=0, maximum=MAX_SEATS - 1
    ),
    Option("deal_size", "int", "S-8", "cards dealt to each seat", minimum=1, maximum=MAX_DEAL),
    Option(
        "starter_effect",
        "choice",
        "S-9",
        "whether the starter's effect applies",
        choices=("none", "apply"),
    ),
    Option("interject_on_starter", "bool", "S-18", "interjecting on the starter is allowed"),
    Option(
        "six_nine_value",
        "choice",
        "S-4",
        "a 6 is worth 6 (face) or 9 (nine)",
        choices=("face", "nine"),
    ),
    Option("voluntary_draw", "bool", "S-14", "drawing is allowed with a legal play"),
    Option("play_drawn_card", "bool", "S-14", "the drawn card may be played at once"),
    Option("reshuffle_keep_top", "bool", "S-16", "the top discard stays when reshuffling"),
    Option(
        "exhaustion_rule",
        "choice",
        "S-17",
        "what ends a round with both piles empty",
        choices=("pass_cycle_ends_round",),
    ),
    Option("two_stacking_any_colour", "bool", "S-33", "a 2 of any colour extends a Draw Two"),
    Option("draw_two_skips_victim", "bool", "S-33", "a Draw Two victim loses the turn"),
    Option("interjected_two_extends", "bool", "S-34", "an interjected 2 adds 2 to the count"),
    Option(
        "skip_stacking",
        "choice",
        "S-37",
        "a Skip on a Skip passes on or accumulates",
        choices=("pass_on", "accumulate"),
    ),
    Option(
        "exchange_modes", "choice_set", "S-38", "the Card Exchange modes", choices=EXCHANGE_MODES
    ),
    Option(
        "exchange_cancel_by",
        "choice",
        "S-39",
        "who may cancel a Card Exchange",
        choices=("any", "affected"),
    ),
    Option(
        "draw_x_mode",
        "choice",
        "S-43",
        "how a Draw X victim takes the effect",
        choices=("flip", "reveal_and_play"),
    ),
    Option("draw_x_stacking", "bool", "S-42", "a Draw X may answer a Draw X"),
    Option("free_choice_second_effect", "bool", "S-46", "the card after an FC has its effect"),
    Option("free_choice_as_response", "bool", "S-45", "an FC pair may answer an effect"),
    Option(
        "achtung_trigger",
        "choice",
        "S-25",
        "when an Achtung obligation arises",
        choices=("play_second_to_last", "hand_becomes_one"),
    ),
    Option(
        "call_window_cards",
        "int",
        "S-26",
        "placements a late call may wait (0: none)",
        minimum=0,
        maximum=MAX_PENALTY,
    ),
    Option(
        "missed_stop_penalty",
        "int",
        "S-27",
        "cards drawn for a missed Stop",
        minimum=0,
        maximum=MAX_PENALTY,
    ),
    Option(
        "achtung_penalty",
        "int",
        "S-26",
        "cards drawn for a missed Achtung",
        minimum=0,
        maximum=MAX_PENALTY,
    ),
    Option("last_card_effect", "bool", "S-52", "the last card's effect applies (closing)"),
    Option(
        "target_score",
        "int",
        "S-56",
        "the total that ends the match",
        minimum=1,
        maximum=MAX_TARGET,
    ),
    Option(
        "call_detection",
        "choice",
        "S-24",
        "how missing calls are found",
        choices=("automatic", "challenge"),
    ),
    Option(
        "interjection_grace_ms",
        "int",
        "S-62",
        "real time: interjection grace (ms)",
        minimum=0,
        maximum=MAX_REALTIME_MS,
    ),
    Option(
        "cancel_window_ms",
        "int",
        "S-62",
        "real time: cancel window (ms)",
        minimum=0,
        maximum=MAX_REALTIME_MS,
    ),
)
"""One entry per option of stop.md §11, in its order (the real-time ones last)."""


@dataclass(frozen=True, slots=True)
class Ruleset(RulesetBase):
    """All options of stop.md §11. Defaults are those of ``abacus-en``.

    >>> Ruleset.preset("abacus-ja").six_nine_value
    'nine'
    >>> Ruleset.preset("abacus-en", target_score=100).options()
    {'target_score': 100}
    """

    SEAT_RULE: ClassVar[str] = "S-6"
    GAME: ClassVar[str] = "Stop"
    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS
    PRESETS: ClassVar[dict[str, dict[str, object]]] = {
        "abacus-en": {},
        "abacus-ja": {
            "six_nine_value": "nine",
            "voluntary_draw": False,
            "draw_two_skips_victim": False,
            "skip_stacking": "accumulate",
            "exchange_modes": frozenset({"left", "right", "swap"}),
            "exchange_cancel_by": "affected",
            "draw_x_mode": "reveal_and_play",
            "achtung_trigger": "hand_becomes_one",
            "call_window_cards": 2,
            "missed_stop_penalty": 0,
            "last_card_effect": True,
        },
    }

    name: str = "abacus-en"
    min_players: int = 2
    max_players: int = MAX_SEATS
    first_dealer: int = 0
    deal_size: int = 7
    starter_effect: StarterEffect = "none"
    interject_on_starter: bool = True
    six_nine_value: SixNine = "face"
    voluntary_draw: bool = True
    play_drawn_card: bool = False
    reshuffle_keep_top: bool = True
    exhaustion_rule: Exhaustion = "pass_cycle_ends_round"
    two_stacking_any_colour: bool = True
    draw_two_skips_victim: bool = True
    interjected_two_extends: bool = True
    skip_stacking: SkipStacking = "pass_on"
    exchange_modes: frozenset[str] = frozenset({"left", "right"})
    exchange_cancel_by: CancelBy = "any"
    draw_x_mode: DrawXMode = "flip"
    draw_x_stacking: bool = False
    free_choice_second_effect: bool = True
    free_choice_as_response: bool = False
    achtung_trigger: AchtungTrigger = "play_second_to_last"
    call_window_cards: int = 0
    missed_stop_penalty: int = 2
    achtung_penalty: int = 2
    last_card_effect: bool = False
    target_score: int = 500
    call_detection: CallDetection = "automatic"
    interjection_grace_ms: int = 1000
    cancel_window_ms: int = 2000

    def seat_range(self) -> tuple[int, int]:
        """``min_players`` .. ``max_players`` (S-6)."""
        return self.min_players, self.max_players

    def options(self) -> dict[str, object]:
        """The options that differ from the named preset; a ruleset built in code under a
        name that is no preset is compared with the dataclass defaults (``abacus-en``)."""
        if self.name in self.PRESETS:
            return RulesetBase.options(self)
        return RulesetBase.options(dataclasses.replace(self, name="abacus-en"))

    def validate(self) -> None:
        """Cross-field checks; OptionError naming the options if they cannot be played."""
        if self.min_players > self.max_players:
            raise OptionError("option 'min_players' must not exceed 'max_players'")
        if self.deal_size * self.max_players > 100:
            raise OptionError(
                "option 'deal_size' must leave a starter and a draw pile for max_players"
            )
        if self.first_dealer >= self.max_players:
            raise OptionError("option 'first_dealer' must be a seat below max_players")
        if self.call_detection != "automatic":
            raise OptionError(
                "option 'call_detection': challenge is reserved (stop.md §11), not playable"
            )


PRESETS: Final = {name: Ruleset.preset(name) for name in Ruleset.PRESETS}
"""The two presets as rulesets (``abacus-en``, ``abacus-ja``)."""
