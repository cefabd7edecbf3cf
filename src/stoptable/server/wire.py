"""The JSON that Socket.IO and Engine.IO write on the wire: orjson.

Encoding the ``state`` and ``events`` messages was the largest single cost of a change in
the server's profile (the standard library's encoder, a tenth of the server's CPU at
saturation); orjson writes the same compact JSON several times faster. Decoding is the
standard library's within the limits of :func:`stoptable.core.limits.loads` (nesting at most
``MAX_DEPTH`` levels, numbers at most 100 characters, no ``NaN``): a message nested 5,000
deep or an integer of 5,000 digits is a ``ValueError`` like any text that is not JSON, so
the guarded entry (:mod:`stoptable.server.guard`) answers it ``malformed`` instead of the
decoder raising ``RecursionError`` in a task. Stored record lines do not come through here
(``store.dumps``): their text is the record format's.
"""

from __future__ import annotations

import re
from typing import Any, Final

import orjson

from stoptable.core import limits

__all__ = ["dumps", "loads"]

MAX_DEPTH: Final = 16
"""Nesting of a client's message: an action or an ``auth`` needs 2 or 3 levels."""

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(obj: Any, **_kwargs: Any) -> str:
    """Compact JSON text (the keyword arguments ``json.dumps`` takes are ignored: orjson's
    output is already the compact form Socket.IO asks for)."""
    return orjson.dumps(obj, option=_OPTIONS).decode()


_LONG_DIGITS: Final = re.compile(r"[0-9]{19}")
"""19 digits in a row: an integer orjson may read as a float (past 64 bits), or part of a
number that may be longer than the limit (a JSON number longer than 100 characters has a
run of at least 32 digits)."""


def loads(text: str | bytes, **_kwargs: Any) -> Any:
    """The JSON value of ``text``; ``ValueError`` (never anything else) when it is not JSON
    or goes past a limit (Engine.IO and Socket.IO catch ``ValueError`` only).

    The value and the error are those of :func:`stoptable.core.limits.loads`. A message
    that surely keeps its limits (at most ``MAX_DEPTH`` brackets in all, no run of 19
    digits) is read by orjson, 10-20 times faster than the standard library with the
    limits' hooks; where orjson refuses it (not JSON, ``NaN``, an infinite number) it is
    read again the slow way, so that it fails with the same message.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = text.decode()
        except UnicodeDecodeError as exc:
            raise ValueError("not UTF-8") from exc
    if text.count("[") + text.count("{") <= MAX_DEPTH and _LONG_DIGITS.search(text) is None:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return limits.loads(text, max_depth=MAX_DEPTH)
