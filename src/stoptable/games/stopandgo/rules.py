"""The ruleset ``stopgo-standard`` and its named options (stop-and-go.md §7)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Final, Literal

Enforcement = Literal["prevent", "fine"]
Scoring = Literal["count", "sum"]

RULESET_NAMES: Final = ("stopgo-standard",)
MIN_SEATS: Final = 2
MAX_SEATS: Final = 6


@dataclass(frozen=True, slots=True)
class Ruleset:
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

    >>> Ruleset.preset("stopgo-standard", scoring="sum").scoring
    'sum'
    """

    name: str = "stopgo-standard"
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

    def __post_init__(self) -> None:
        if self.name not in RULESET_NAMES:
            raise ValueError(f"unknown ruleset {self.name!r} (known: stopgo-standard)")
        if self.enforcement not in ("prevent", "fine"):
            raise ValueError("enforcement must be 'prevent' or 'fine'")
        if self.scoring not in ("count", "sum"):
            raise ValueError("scoring must be 'count' or 'sum'")
        for key in ("tickets_limit", "missed_turns_on_limit"):
            if not _is_int(getattr(self, key)) or getattr(self, key) < 1:
                raise ValueError(f"{key} must be an integer >= 1")
        count = self.destination_count
        if count is not None and (not _is_int(count) or count < 1):
            raise ValueError("destination_count must be an integer >= 1")
        chosen = self.destination_list
        if chosen is not None and (
            not chosen or not all(_is_int(n) for n in chosen) or len(set(chosen)) != len(chosen)
        ):
            raise ValueError("destination_list must be a non-empty list of distinct numbers")
        if self.dial_start is not None and (not _is_int(self.dial_start) or self.dial_start < 0):
            raise ValueError("dial_start must be an integer >= 0")
        if not all(_is_int(r) and 1 <= r <= 6 for r in self.dial_advance_on):
            raise ValueError("dial_advance_on must hold die values 1-6")
        for key in ("collect_on_reveal", "reverse_after_collect"):
            if not isinstance(getattr(self, key), bool):
                raise ValueError(f"{key} must be true or false")

    @staticmethod
    def preset(name: str = "stopgo-standard", **overrides: Any) -> Ruleset:
        """The named ruleset with some options changed (ValueError for a bad option)."""
        return Ruleset.from_options(name, overrides)

    @staticmethod
    def from_options(name: str, options: dict[str, Any]) -> Ruleset:
        """The ruleset ``name`` with the record header's ``options`` object applied."""
        known = {f.name for f in fields(Ruleset)} - {"name"}
        values = dict(options)
        # records.md §2: any object may carry a "note" string, ignored.
        if not isinstance(values.pop("note", ""), str):
            raise ValueError("options.note must be a string")
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}")
        if values.get("destination_list") is not None:
            if not isinstance(values["destination_list"], (list, tuple)):
                raise ValueError("destination_list must be a list of numbers")
            values["destination_list"] = tuple(values["destination_list"])
        if "dial_advance_on" in values:
            if not isinstance(values["dial_advance_on"], (list, tuple, set, frozenset)):
                raise ValueError("dial_advance_on must be a list of die values")
            values["dial_advance_on"] = frozenset(values["dial_advance_on"])
        return replace(Ruleset(name=name), **values)

    def options(self) -> dict[str, Any]:
        """The options that differ from the defaults, as a record header's ``options``."""
        base = Ruleset(name=self.name)
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "name" and value != getattr(base, f.name):
                if isinstance(value, frozenset):
                    value = sorted(value)
                elif isinstance(value, tuple):
                    value = list(value)
                out[f.name] = value
        return out


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
