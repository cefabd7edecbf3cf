"""Rulesets and their option tables: one way for every game to name, check and print options.

A game's ruleset is a frozen dataclass whose fields are the rule options of its spec (the
option tables of stop.md §11, stop-it.md §7, stop-and-go.md §7) plus ``name``, the preset it
came from. It subclasses :class:`RulesetBase` and declares two class constants:

* ``OPTIONS``: one :class:`Option` per field, saying how a JSON value is checked and which
  rule it belongs to;
* ``PRESETS``: preset name -> the field values that differ from the dataclass defaults.

Everything that reads options (record headers, ``-O key=value`` on the command line, the
server's create-table body, research environments) goes through :meth:`from_options`, so
an unknown option or a bad value is refused the same way everywhere, with an
:class:`~stoptable.core.errors.OptionError` that names it.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Self, TypeAlias

from stoptable.core.errors import OptionError, PlayerCountError

JSON: TypeAlias = Any

OptionKind = Literal[
    "bool", "int", "optional_int", "choice", "choice_set", "int_set", "optional_int_list"
]


_INT_KINDS: frozenset[str] = frozenset({"int", "optional_int", "int_set", "optional_int_list"})


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Option:
    """How one rule option is read from JSON and written back.

    * ``bool``: true or false;
    * ``int`` / ``optional_int``: an integer in ``[minimum, maximum]`` (or null);
    * ``choice``: one of ``choices``;
    * ``choice_set``: a non-empty list of ``choices`` (held as a frozenset);
    * ``int_set``: a list of integers in range (held as a frozenset);
    * ``optional_int_list``: null or a non-empty list of distinct integers (a tuple).

    >>> Option("target_score", "int", minimum=1, maximum=10_000).check(100)
    100
    >>> Option("draw_x_mode", "choice", choices=("flip", "reveal_and_play")).check("peek")
    Traceback (most recent call last):
    ...
    stoptable.core.errors.OptionError: option 'draw_x_mode' must be one of flip, reveal_and_play
    """

    name: str
    kind: OptionKind
    rule: str = ""
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def __post_init__(self) -> None:
        """Every integer option declares its whole range: a record header or a stranger's
        create body must never set a score target of 2**64 or a timer of 10**400 ms (the
        table would never finish, or never answer; issue 22). Where the rules give no
        bound, the game documents a sane maximum."""
        if self.kind in _INT_KINDS and (self.minimum is None or self.maximum is None):
            raise TypeError(f"option {self.name!r}: an integer option needs minimum and maximum")

    def _range_text(self) -> str:
        if self.minimum is not None and self.maximum is not None:
            return f" from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f" >= {self.minimum}"
        if self.maximum is not None:
            return f" <= {self.maximum}"
        return ""

    def _in_range(self, value: int) -> bool:
        low, high = self.minimum, self.maximum
        return (low is None or value >= low) and (high is None or value <= high)

    def _int(self, raw: object, what: str) -> int:
        if not _is_int(raw) or not self._in_range(raw):  # type: ignore[arg-type]
            raise OptionError(f"option {self.name!r} must be {what}{self._range_text()}")
        return raw  # type: ignore[return-value]

    def check(self, raw: JSON) -> Any:
        """The field value for the JSON value ``raw``; OptionError naming the option if bad."""
        kind = self.kind
        if kind == "bool":
            if not isinstance(raw, bool):
                raise OptionError(f"option {self.name!r} must be true or false")
            return raw
        if kind == "int":
            return self._int(raw, "an integer")
        if kind == "optional_int":
            return None if raw is None else self._int(raw, "null or an integer")
        if kind == "choice":
            if not isinstance(raw, str) or raw not in self.choices:
                raise OptionError(f"option {self.name!r} must be one of {', '.join(self.choices)}")
            return raw
        if kind == "choice_set":
            if (
                not isinstance(raw, list | tuple)
                or not raw
                or not all(isinstance(v, str) and v in self.choices for v in raw)
            ):
                raise OptionError(
                    f"option {self.name!r} must be a non-empty list of {', '.join(self.choices)}"
                )
            return frozenset(raw)
        if kind == "int_set":
            if not isinstance(raw, list | tuple) or not all(
                _is_int(v) and self._in_range(v) for v in raw
            ):
                raise OptionError(
                    f"option {self.name!r} must be a list of integers{self._range_text()}"
                )
            return frozenset(raw)
        # optional_int_list
        if raw is None:
            return None
        if (
            not isinstance(raw, list | tuple)
            or not raw
            or not all(_is_int(v) and self._in_range(v) for v in raw)
            or len(set(raw)) != len(raw)
        ):
            raise OptionError(
                f"option {self.name!r} must be null or a non-empty list of distinct integers"
            )
        return tuple(raw)

    @staticmethod
    def to_json(value: Any) -> JSON:
        """The JSON form of a field value (sets sorted, tuples as lists)."""
        if isinstance(value, frozenset):
            return sorted(value)
        if isinstance(value, tuple):
            return list(value)
        return value

    def describe(self, default: Any) -> dict[str, JSON]:
        """The option as a front end lists it (name, kind, default, rule, help, choices)."""
        data: dict[str, JSON] = {
            "name": self.name,
            "kind": self.kind,
            "default": self.to_json(default),
            "rule": self.rule,
            "help": self.help,
        }
        if self.choices:
            data["choices"] = list(self.choices)
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        return data


class RulesetBase:
    """The shared base of every game's ruleset (a frozen dataclass with a ``name`` field).

    Subclasses set ``GAME`` (the title used in messages), ``OPTIONS`` and ``PRESETS`` and
    may override :meth:`validate` for checks that involve several options.
    """

    __slots__ = ()

    GAME: ClassVar[str] = "game"
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    MIN_SEATS: ClassVar[int] = 2
    MAX_SEATS: ClassVar[int] = 2
    SEAT_RULE: ClassVar[str] = ""
    """The rule that bounds the seat count (S-6, I-2, G-2)."""

    name: str

    def seat_range(self) -> tuple[int, int]:
        """The seat counts this ruleset allows (a game whose options bound it overrides)."""
        return self.MIN_SEATS, self.MAX_SEATS

    def check_seats(self, seats: int) -> None:
        """PlayerCountError (reason ``player_count``, the game's seat rule) if ``seats`` is
        outside :meth:`seat_range`: the one seat check of every game, its state, replayer
        and spec alike."""
        low, high = self.seat_range()
        if not low <= seats <= high:
            raise PlayerCountError(
                self.SEAT_RULE, f"{self.GAME} is for {low}-{high} players, not {seats}"
            )

    @classmethod
    def option(cls, name: str) -> Option | None:
        """The option called ``name``, or None."""
        for opt in cls.OPTIONS:
            if opt.name == name:
                return opt
        return None

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Self:
        """The preset ``name`` with ``overrides`` checked like record options."""
        return cls.from_options(name, overrides)

    @classmethod
    def _base(cls, name: str) -> Self:
        values = cls.PRESETS.get(name)
        if values is None:
            known = ", ".join(cls.PRESETS)
            raise OptionError(f"unknown {cls.GAME} ruleset {name!r} (known: {known})")
        return cls(name=name, **values)  # type: ignore[call-arg]

    @classmethod
    def from_options(cls, name: str, options: Mapping[str, JSON] | None = None) -> Self:
        """The preset ``name`` plus the JSON ``options`` of a record header or command line.

        A ``note`` string is ignored (records.md §2: any object may carry one). Raises
        :class:`OptionError` naming the unknown ruleset, the unknown option or the bad value.
        """
        return cls._base(name).with_options(options)

    def with_options(self, options: Mapping[str, JSON] | None = None) -> Self:
        """This ruleset with checked overrides (OptionError on unknown names or bad values)."""
        values: dict[str, Any] = {}
        for key, raw in (options or {}).items():
            if key == "note":
                if not isinstance(raw, str):
                    raise OptionError("options.note must be a string")
                continue
            opt = self.option(key)
            if opt is None:
                known = ", ".join(o.name for o in self.OPTIONS)
                name = key if len(key) <= 64 else key[:64] + "…"  # never echoed whole
                raise OptionError(f"unknown {self.GAME} option {name!r} (known: {known})")
            values[key] = opt.check(raw)
        # no override (every simulated game starts so): this very value, not a copy of it
        # (frozen, so equal and interchangeable; ``replace`` cost a Stop deal's third)
        ruleset: Self = dataclasses.replace(self, **values) if values else self  # type: ignore[type-var]
        ruleset.validate()
        return ruleset

    def validate(self) -> None:
        """Checks across several options; OptionError if the combination cannot be played."""

    def options(self) -> dict[str, JSON]:
        """The options that differ from the named preset, as a record header writes them.

        Worked out once per ruleset (rulesets are frozen and hashable): every view shows
        them, and building the preset to compare with costs more than the rest of a view.
        """
        return dict(_differences(self))

    def record_options(self) -> dict[str, JSON]:
        """The ``options`` a record header writes: :meth:`options`, plus whatever replay
        would otherwise read with a default other than the preset's (a game says so)."""
        return self.options()

    @classmethod
    def option_table(cls, preset: str) -> list[dict[str, JSON]]:
        """Every option with its default under ``preset``, in spec order (for front ends)."""
        base = cls._base(preset)
        return [opt.describe(getattr(base, opt.name)) for opt in cls.OPTIONS]


@functools.lru_cache(maxsize=256)
def _differences(ruleset: RulesetBase) -> tuple[tuple[str, JSON], ...]:
    """``(option, JSON value)`` for each option of ``ruleset`` that differs from its preset."""
    base = ruleset._base(ruleset.name)
    return tuple(
        (opt.name, Option.to_json(getattr(ruleset, opt.name)))
        for opt in ruleset.OPTIONS
        if getattr(ruleset, opt.name) != getattr(base, opt.name)
    )
