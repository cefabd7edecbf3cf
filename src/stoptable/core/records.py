"""Game records (``stoptable-record/1``, JSON Lines) and the generic replay driver.

``rules/records.md`` is normative. This module knows the shape every record shares - the
header keys, the line structure, the ``--upto`` semantics and the three exit statuses -
and leaves everything game-specific to a :class:`Replayer` that each game provides. It
never imports a game: the caller passes a lookup from game name to replayer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

from stoptable.core.errors import IllegalAction, InputLimitError, PlayerCountError, RecordError
from stoptable.core.limits import MAX_LINE_CHARS, MAX_RECORD_LINES, loads
from stoptable.core.protocol import JSON

RECORD_FORMAT: Final = "stoptable-record/1"
HEADER_KEYS: Final = frozenset(
    {"format", "game", "ruleset", "options", "seats", "seed", "deck", "position", "map", "note"}
)


@dataclass(frozen=True, slots=True)
class Header:
    """A validated record header. Game-specific values stay as plain JSON."""

    game: str
    ruleset: str
    seats: int
    seed: int = 0
    options: dict[str, JSON] = field(default_factory=dict)
    deck: list[JSON] | None = None
    position: dict[str, JSON] | None = None
    map: JSON = None
    base_dir: Path = Path(".")

    def to_json(self) -> dict[str, JSON]:
        """The header line as written to a record."""
        data: dict[str, JSON] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "ruleset": self.ruleset,
        }
        if self.options:
            data["options"] = self.options
        data["seats"] = self.seats
        data["seed"] = self.seed
        if self.deck is not None:
            data["deck"] = self.deck
        if self.position is not None:
            data["position"] = self.position
        if self.map is not None:
            data["map"] = self.map
        return data


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_header(data: object, base_dir: Path = Path(".")) -> Header:
    """Check the keys every record header shares (records.md §2.1)."""
    if not isinstance(data, dict):
        raise RecordError("line 1: the header must be a JSON object")
    unknown = sorted(set(data) - HEADER_KEYS)
    if unknown:
        raise RecordError(f"line 1: unknown header key {unknown[0]!r}")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"line 1: 'format' must be {RECORD_FORMAT!r}")
    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError("line 1: 'game' is required and must be a string")
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str):
        raise RecordError("line 1: 'ruleset' is required and must be a string")
    seats = data.get("seats")
    if not _is_int(seats):
        raise RecordError("line 1: 'seats' is required and must be an integer")
    seed = data.get("seed", 0)
    if not _is_int(seed):
        raise RecordError("line 1: 'seed' must be an integer")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("line 1: 'options' must be an object")
    if "deck" in data and "position" in data:
        raise RecordError("line 1: give at most one of 'deck' and 'position'")
    deck = data.get("deck")
    if deck is not None and not isinstance(deck, list):
        raise RecordError("line 1: 'deck' must be a list")
    position = data.get("position")
    if position is not None and not isinstance(position, dict):
        raise RecordError("line 1: 'position' must be an object")
    if "note" in data and not isinstance(data["note"], str):
        raise RecordError("line 1: 'note' must be a string")
    return Header(
        game=str(game),
        ruleset=ruleset,
        seats=int(seats),  # type: ignore[arg-type]
        seed=int(seed),
        options=dict(options),
        deck=deck,
        position=position,
        map=data.get("map"),
        base_dir=base_dir,
    )


class Replayer(Protocol):
    """What a game provides so that ``stoptable replay`` can run its records."""

    def setup(self, header: Header) -> Any:
        """A state from the header; RecordError if it does not fit, PlayerCountError for seats."""
        ...

    def apply_event(self, state: Any, event: dict[str, JSON]) -> None:
        """Apply one event line (without ``note``); RecordError or IllegalAction."""
        ...

    def finish(self, state: Any) -> None:
        """Implicit steps at the end of the applied events (e.g. close a cancel window)."""
        ...

    def output(self, state: Any) -> dict[str, JSON]:
        """The replay JSON object of the state, without ``applied``."""
        ...


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What ``stoptable replay`` prints and returns."""

    exit_code: int
    output: dict[str, JSON] | None
    message: str | None = None
    state: Any = None


def parse_line(number: int, raw: str) -> object:
    """The JSON value of record line ``number``, read within the limits of core/limits.py."""
    if len(raw) > MAX_LINE_CHARS:
        raise RecordError(
            f"line {number}: {len(raw)} characters; the limit is {MAX_LINE_CHARS} per line"
        )
    try:
        return loads(raw)
    except json.JSONDecodeError as exc:
        raise RecordError(f"line {number}: invalid JSON ({exc.msg})") from None
    except InputLimitError as exc:
        raise RecordError(f"line {number}: {exc}") from None


def _events(lines: Iterable[str], upto: int | None) -> Iterator[tuple[int, dict[str, JSON]]]:
    """Yield (line number, event object) for the event lines, parsing no more than needed."""
    count = 0
    for number, raw in enumerate(lines, start=2):
        if upto is not None and count >= upto:
            return
        if not raw.strip():
            continue
        obj = parse_line(number, raw)
        if not isinstance(obj, dict):
            raise RecordError(f"line {number}: an event must be a JSON object")
        if "note" in obj and not isinstance(obj.pop("note"), str):
            raise RecordError(f"line {number}: 'note' must be a string")
        count += 1
        yield number, obj


def replay_lines(
    lines: list[str],
    lookup: Callable[[str], Replayer],
    upto: int | None = None,
    base_dir: Path = Path("."),
) -> ReplayResult:
    """Replay a record given as text lines (records.md §1, §3).

    Exit 0: every applied event was legal. Exit 2: an event broke a rule; the output is the
    state before it plus ``error``. Exit 1: anything malformed; ``message`` says what.
    """
    if upto is not None and upto < 0:
        return ReplayResult(1, None, "--upto must be an integer >= 0")
    if not lines or not lines[0].strip():
        return ReplayResult(1, None, "line 1: the record has no header")
    if len(lines) > MAX_RECORD_LINES:
        return ReplayResult(
            1, None, f"the record has {len(lines)} lines; the limit is {MAX_RECORD_LINES}"
        )
    try:
        raw_header = parse_line(1, lines[0])
    except RecordError as exc:
        return ReplayResult(1, None, str(exc))
    try:
        header = parse_header(raw_header, base_dir)
        try:
            replayer = lookup(header.game)
        except ValueError as exc:
            raise RecordError(f"line 1: {exc}") from None
        try:
            state = replayer.setup(header)
        except PlayerCountError as exc:
            out: dict[str, JSON] = {
                "game": header.game,
                "ruleset": header.ruleset,
                "seats": header.seats,
                "applied": 0,
                "error": {"line": 1, **exc.to_json()},
            }
            return ReplayResult(2, out)
        applied = 0
        for number, event in _events(lines[1:], upto):
            try:
                replayer.apply_event(state, event)
            except IllegalAction as exc:
                out = replayer.output(state)
                out["applied"] = applied
                out["error"] = {"line": number, **exc.to_json()}
                return ReplayResult(2, out, state=state)
            except RecordError as exc:
                return ReplayResult(1, None, f"line {number}: {exc}")
            applied += 1
        replayer.finish(state)
        out = replayer.output(state)
        out["applied"] = applied
        return ReplayResult(0, out, state=state)
    except RecordError as exc:
        return ReplayResult(1, None, str(exc))
    except (LookupError, TypeError, ValueError, ArithmeticError, RecursionError) as exc:
        # A game's reader should raise RecordError itself; this is the net under it so that
        # a malformed file never ends in a traceback, and its message stays one line.
        text = " ".join(str(exc).split())
        return ReplayResult(1, None, f"malformed record: {type(exc).__name__}: {text}")


class RecordWriter:
    """Builds a record line by line; the same format the server stores and replay reads."""

    def __init__(self, header: Header | dict[str, JSON]) -> None:
        self.header: dict[str, JSON] = (
            header.to_json() if isinstance(header, Header) else dict(header)
        )
        self.events: list[dict[str, JSON]] = []

    def add(self, event: dict[str, JSON]) -> None:
        """Append one event line (an action's ``to_json()``, a chance or clock line)."""
        self.events.append(event)

    def lines(self) -> list[str]:
        """The record as JSON text lines, header first."""
        dump = json.dumps
        return [dump(self.header, separators=(",", ":"))] + [
            dump(e, separators=(",", ":")) for e in self.events
        ]

    def text(self) -> str:
        """The record as one string, ending with a newline."""
        return "\n".join(self.lines()) + "\n"

    def write(self, path: Path) -> None:
        """Write the record to ``path`` (UTF-8)."""
        path.write_text(self.text(), encoding="utf-8")
