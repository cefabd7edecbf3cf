"""Explicit limits on everything stoptable reads from outside, and a reader that keeps them.

A record or a map comes from a file anyone can write. Python's own readers have no
limits that fit a command line: ``json.loads`` recurses once per nesting level (a line
nested 3,000 deep ends in ``RecursionError``), turns a 5,000-digit integer into a
``ValueError`` and reads ``NaN``; ``Path.read_text`` blocks for ever on a FIFO and reads a
file of any size into memory. So every command reads its input through this module:

* :func:`read_text` refuses what is not a regular file, *before* opening it for reading
  (a FIFO is opened with ``O_NONBLOCK`` and never read), and files over a byte limit;
* :func:`loads` refuses nesting deeper than a limit with a linear scan *before*
  ``json.loads`` and numbers longer than a limit as they are parsed.

What goes past a limit raises :class:`~stoptable.core.errors.InputLimitError` with one line
that names the limit; text that is not JSON raises :class:`json.JSONDecodeError`, as
``json.loads`` does. The limits are far above anything the games write (a long Stop record
is about 50 kB, the default Stop & Go map 20 kB) and low enough that every command
finishes in about a second on anything within them. Game-specific limits (spaces of a
map, ...) live with their game, e.g. :mod:`stoptable.games.stopandgo.limits`.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any, Final

from stoptable.core.errors import InputLimitError

MAX_DEPTH: Final = 64
"""Nesting of JSON arrays and objects. A record line or a map needs 5 or 6 levels."""

MAX_NUMBER_CHARS: Final = 100
"""Characters of one JSON number. A 64-bit seed has 20; Python's own limit is 4,300 digits,
and parsing long integers takes time quadratic in their length."""

MAX_RECORD_BYTES: Final = 8 * 1024 * 1024
"""Size of a record file (8 MiB): about 150 times the longest record the engines write."""

MAX_RECORD_LINES: Final = 100_000
"""Lines of a record, header and blank lines included: replaying them takes seconds."""

MAX_LINE_CHARS: Final = 1024 * 1024
"""Characters of one record line (1 MiB): room for a header that holds a whole map."""

_TOKENS: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
"""A JSON string (skipped whole, escapes included) or one bracket."""


def _file_kind(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def read_text(path: Path, max_bytes: int) -> str:
    """The UTF-8 text of the regular file ``path``, refused if it holds more than ``max_bytes``.

    A directory, FIFO, device or socket is refused from its ``stat`` alone, so that reading
    never blocks. The file is opened with ``O_NONBLOCK`` and checked again with ``fstat``,
    in case it was replaced in between, and never more than ``max_bytes + 1`` bytes are
    read, in case it grew. ``OSError`` and ``UnicodeDecodeError`` pass through: the caller
    says "cannot read" its own way. Messages leave the path out for the same reason.
    """
    info = os.stat(path)
    _check_regular(info.st_mode, info.st_size, max_bytes)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        _check_regular(info.st_mode, info.st_size, max_bytes)
        chunks: list[bytes] = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1024 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise InputLimitError(f"the file has more than {max_bytes} bytes; the limit is {max_bytes}")
    return data.decode("utf-8")


def _check_regular(mode: int, size: int, max_bytes: int) -> None:
    if not stat.S_ISREG(mode):
        raise InputLimitError(f"not a regular file ({_file_kind(mode)})")
    if size > max_bytes:
        raise InputLimitError(f"the file has {size} bytes; the limit is {max_bytes}")


def json_depth(text: str) -> int:
    """How deep the arrays and objects of ``text`` nest, brackets inside strings skipped.

    One linear pass that never recurses, so it is safe on any text; it need not be valid
    JSON (``json.loads`` judges that afterwards).

    >>> json_depth('{"a": [1, {"b": "[[["}]}')
    3
    >>> json_depth("7")
    0
    """
    depth = deepest = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in ("]", "}"):
            depth -= 1
    return deepest


class _NotJSON(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity``: Python reads them, JSON has no such numbers."""


def _number_hooks(max_chars: int) -> tuple[Any, Any, Any]:
    def check(text: str) -> None:
        if len(text) > max_chars:
            raise InputLimitError(f"a number of {len(text)} characters; the limit is {max_chars}")

    def parse_int(text: str) -> int:
        check(text)
        return int(text)

    def parse_float(text: str) -> float:
        check(text)
        value = float(text)
        if value in (float("inf"), float("-inf")):
            raise InputLimitError(f"the number {text} is too big for a float")
        return value

    def parse_constant(name: str) -> Any:
        raise _NotJSON(f"{name} is not a JSON number")

    return parse_int, parse_float, parse_constant


def loads(text: str, max_depth: int = MAX_DEPTH, max_number_chars: int = MAX_NUMBER_CHARS) -> Any:
    """``json.loads`` within limits: nesting depth first, then the length of every number.

    >>> loads('{"seats": 2, "deck": [["R1"]]}')
    {'seats': 2, 'deck': [['R1']]}
    >>> loads("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    stoptable.core.errors.InputLimitError: nesting deeper than 64 levels (100)
    >>> loads("1" * 200)
    Traceback (most recent call last):
    ...
    stoptable.core.errors.InputLimitError: a number of 200 characters; the limit is 100
    """
    depth = json_depth(text)
    if depth > max_depth:
        raise InputLimitError(f"nesting deeper than {max_depth} levels ({depth})")
    parse_int, parse_float, parse_constant = _number_hooks(max_number_chars)
    try:
        return json.loads(
            text, parse_int=parse_int, parse_float=parse_float, parse_constant=parse_constant
        )
    except (json.JSONDecodeError, InputLimitError):
        raise
    except _NotJSON as exc:
        raise json.JSONDecodeError(str(exc), text, 0) from None
    except RecursionError:
        raise InputLimitError(f"nesting deeper than {max_depth} levels") from None
    except ValueError as exc:
        raise InputLimitError(" ".join(str(exc).split())) from None
