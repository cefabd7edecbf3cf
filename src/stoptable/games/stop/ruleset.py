"""Rulesets: every option of stop.md §11 as a typed field, and the two presets.

A ruleset is a complete set of option values; a house rule is a preset plus overrides.
``Ruleset.from_options`` is the one gate through which record headers and command lines
come in, so it rejects unknown option names and values of the wrong type or range.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final, Literal

StarterEffect = Literal["none", "apply"]
SixNine = Literal["face", "nine"]
Exhaustion = Literal["pass_cycle_ends_round"]
SkipStacking = Literal["pass_on", "accumulate"]
CancelBy = Literal["any", "affected"]
DrawXMode = Literal["flip", "reveal_and_play"]
AchtungTrigger = Literal["play_second_to_last", "hand_becomes_one"]
CallDetection = Literal["automatic", "challenge"]

EXCHANGE_MODES: Final = ("left", "right", "swap")


@dataclass(frozen=True, slots=True)
class Ruleset:
    """All options of stop.md §11. Defaults are those of ``abacus-en``."""

    name: str = "abacus-en"
    min_players: int = 2
    max_players: int = 10
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

    @staticmethod
    def preset(name: str, **overrides: Any) -> Ruleset:
        """``abacus-en`` or ``abacus-ja``, with overrides checked like record options.

        >>> Ruleset.preset("abacus-ja").six_nine_value
        'nine'
        >>> Ruleset.preset("abacus-en", target_score=100).target_score
        100
        """
        return Ruleset.from_options(name, overrides)

    @staticmethod
    def from_options(name: str, options: dict[str, Any] | None = None) -> Ruleset:
        """A preset plus record-style overrides (JSON values: lists for ``exchange_modes``).

        Raises ValueError naming the unknown option or the bad value.
        """
        base = PRESETS.get(name)
        if base is None:
            raise ValueError(f"unknown Stop ruleset {name!r} (known: {', '.join(PRESETS)})")
        return base.with_options(options)

    def with_options(self, options: dict[str, Any] | None = None) -> Ruleset:
        """This ruleset plus checked overrides (ValueError on unknown names or bad values)."""
        values: dict[str, Any] = {}
        for key, raw in (options or {}).items():
            if key not in _FIELD_TYPES or key == "name":
                raise ValueError(f"unknown Stop option {key!r}")
            values[key] = _check(key, raw)
        ruleset = dataclasses.replace(self, **values)
        ruleset.validate()
        return ruleset

    def validate(self) -> None:
        """Cross-field checks; ValueError if the combination cannot be played."""
        if not 2 <= self.min_players <= self.max_players <= 10:
            raise ValueError("need 2 <= min_players <= max_players <= 10")
        if self.deal_size < 1 or self.deal_size * self.max_players > 100:
            raise ValueError("deal_size must be >= 1 and leave a starter for max_players")
        if not 0 <= self.first_dealer < self.max_players:
            raise ValueError("first_dealer must be a seat")
        if not self.exchange_modes:
            raise ValueError("exchange_modes must not be empty")
        if self.call_detection != "automatic":
            raise ValueError("call_detection=challenge is reserved (stop.md §11); not playable")

    def to_options(self) -> dict[str, Any]:
        """The options that differ from the named preset, as JSON values."""
        base = PRESETS.get(self.name, Ruleset())
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name != "name" and value != getattr(base, f.name):
                out[f.name] = sorted(value) if isinstance(value, frozenset) else value
        return out


_ENUMS: Final[dict[str, tuple[str, ...]]] = {
    "starter_effect": ("none", "apply"),
    "six_nine_value": ("face", "nine"),
    "exhaustion_rule": ("pass_cycle_ends_round",),
    "skip_stacking": ("pass_on", "accumulate"),
    "exchange_cancel_by": ("any", "affected"),
    "draw_x_mode": ("flip", "reveal_and_play"),
    "achtung_trigger": ("play_second_to_last", "hand_becomes_one"),
    "call_detection": ("automatic", "challenge"),
}
_FIELD_TYPES: Final = {f.name: f.type for f in dataclasses.fields(Ruleset)}


def _check(key: str, raw: Any) -> Any:
    kind = _FIELD_TYPES[key]
    if key in _ENUMS:
        if raw not in _ENUMS[key]:
            raise ValueError(f"option {key!r} must be one of {', '.join(_ENUMS[key])}")
        return raw
    if key == "exchange_modes":
        if not isinstance(raw, list | tuple | set | frozenset) or not all(
            m in EXCHANGE_MODES for m in raw
        ):
            raise ValueError("option 'exchange_modes' must be a list of left, right, swap")
        return frozenset(raw)
    if kind == "bool":
        if not isinstance(raw, bool):
            raise ValueError(f"option {key!r} must be true or false")
        return raw
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < 0:
        raise ValueError(f"option {key!r} must be an integer >= 0")
    return raw


PRESETS: Final = {
    "abacus-en": Ruleset(),
    "abacus-ja": Ruleset(
        name="abacus-ja",
        six_nine_value="nine",
        voluntary_draw=False,
        draw_two_skips_victim=False,
        skip_stacking="accumulate",
        exchange_modes=frozenset({"left", "right", "swap"}),
        exchange_cancel_by="affected",
        draw_x_mode="reveal_and_play",
        achtung_trigger="hand_becomes_one",
        call_window_cards=2,
        missed_stop_penalty=0,
        last_card_effect=True,
    ),
}
