"""Typed errors shared by every game.

Two kinds of "bad input" are kept apart, as python-chess keeps ``InvalidMoveError`` and
``IllegalMoveError`` apart:

* :class:`InvalidNotation` - the text of an action cannot be read at all;
* :class:`IllegalAction` - the action is well formed but a rule forbids it now. It carries
  the reason code and the rule id of the specification, exactly as ``rules/records.md``
  lists them, so front ends can show them and ``stoptable replay`` can print them.

:class:`RecordError` is a malformed record (exit status 1 of ``stoptable replay``).
:class:`InputLimitError` is input refused because it goes past one of the limits of
:mod:`stoptable.core.limits` (too big, too deep, not a regular file).
"""

from __future__ import annotations


class StoptableError(Exception):
    """Base class of every error stoptable raises on purpose."""


class InvalidNotation(StoptableError, ValueError):
    """Text that is not an action, card or record line of the notation."""


class IllegalAction(StoptableError, ValueError):
    """A well-formed action that the rules forbid in the current state.

    The state it was applied to is left exactly as it was.

    >>> err = IllegalAction("no_match", "S-12", "B4 does not match R7")
    >>> (err.reason, err.rule)
    ('no_match', 'S-12')
    >>> str(err)
    'no_match (S-12): B4 does not match R7'
    """

    def __init__(self, reason: str, rule: str, message: str = "") -> None:
        self.reason = reason
        self.rule = rule
        self.message = message or reason
        super().__init__(f"{reason} ({rule}): {self.message}")

    def to_json(self) -> dict[str, str]:
        """The ``reason``/``rule``/``message`` part of a replay error object."""
        return {"reason": self.reason, "rule": self.rule, "message": self.message}


class RecordError(StoptableError, ValueError):
    """A record, header, deck, position, map, chance or clock line that does not fit."""


class InputLimitError(StoptableError, ValueError):
    """Input refused before it is read in full: past a named limit, or not a regular file.

    The message is one line that names the limit, e.g. ``nesting deeper than 64 levels``,
    so that every command can print it as it is (records.md §1: exit status 1).
    """


class PlayerCountError(IllegalAction):
    """A seat count outside the game's range (S-6, I-2, G-2).

    It is an :class:`IllegalAction` with reason ``player_count`` because records.md §2.1
    reports it like a broken rule on line 1 (exit status 2), not as a malformed file.

    >>> PlayerCountError("S-6", "Stop is for 2-10 players, not 11").reason
    'player_count'
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__("player_count", rule, message)


class OptionError(StoptableError, ValueError):
    """An unknown ruleset or option name, or an option value of the wrong type or range.

    The message names the ruleset or option at fault, so that a command line, a record
    reader or a server can pass it on as it is.
    """


class UnknownGame(StoptableError, ValueError):
    """A game name that no package registers (``games/__init__.py``)."""


class GameTooLong(StoptableError, RuntimeError):
    """A bot game that went past its action limit: a bot that never ends a game is a bug.

    (Here with the other errors, not in ``core.driver``, which re-exports it: exception
    classes that also derive from a built-in error stay interpreted, and ``core.driver`` is
    compiled in the mypyc build.)"""
