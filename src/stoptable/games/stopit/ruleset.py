"""The Stop it! ruleset: every option of stop-it.md §7 as one frozen value."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Final, Literal

from stoptable.games.stopit.cards import MINUS_CARDS

DropPenalty = Literal["off", "fumble"]
FalseStopPenalty = Literal["off", "minus_card"]

RULESETS: Final = ("stopit-standard",)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The options of one game (stop-it.md §7). ``name`` is the preset it came from.

    >>> Ruleset.preset("stopit-standard", sort_grace_ms=500).sort_grace_ms
    500
    """

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

    @staticmethod
    def preset(name: str, **overrides: Any) -> Ruleset:
        """The named ruleset with ``overrides`` (option names of §7); ValueError if unknown."""
        return Ruleset.from_options(name, overrides)

    @staticmethod
    def from_options(name: str, options: dict[str, Any]) -> Ruleset:
        """The named ruleset with the options of a record header, each checked.

        Raises ValueError naming the first unknown ruleset, unknown option or bad value.
        """
        if name not in RULESETS:
            raise ValueError(f"unknown ruleset {name!r} (known: {', '.join(RULESETS)})")
        known = {f.name for f in fields(Ruleset)} - {"name"}
        values: dict[str, Any] = {}
        for key, value in options.items():
            if key not in known:
                raise ValueError(f"unknown option {key!r} (known: {', '.join(sorted(known))})")
            values[key] = _check(key, value)
        return replace(Ruleset(name=name), **values)

    def options(self) -> dict[str, Any]:
        """The options that differ from the preset, as a record header writes them."""
        base = Ruleset(name=self.name)
        return {
            f.name: getattr(self, f.name)
            for f in fields(Ruleset)
            if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)
        }


_BOOLS: Final = frozenset({"sort_check_every_evaluation", "stop_cards_ignored_in_sort_check"})
_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "drop_penalty": ("off", "fumble"),
    "false_stop_penalty": ("off", "minus_card"),
}
_MINIMUM: Final = {"stack_count": 1, "minus_supply": 1}


def _check(key: str, value: Any) -> Any:
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise ValueError(f"option {key!r} must be true or false")
        return value
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            raise ValueError(f"option {key!r} must be one of {', '.join(_CHOICES[key])}")
        return value
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"option {key!r} must be an integer")
    low = _MINIMUM.get(key, 0)
    if value < low:
        raise ValueError(f"option {key!r} must be >= {low}")
    return value
