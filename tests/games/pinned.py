"""Digests of whole seeded games of every game, to pin them byte for byte across speed work.

The speed work of issue 20 (cached move generation, lighter events, a compiled build) must
not change a single seeded game. A game's digest covers everything an outsider can see of
it: the record the driver writes, every bot decision (the seat, the view the bot was handed,
the legal list or request it chose from and its choice) and, at the end, every seat's view
and the public view. :data:`PINNED` (``pinned_digests.json``) holds the digests of 1,000
games of each game taken before the speed work; ``tests/games/test_pinned.py`` compares a
sample of them in ``make test``, and ``scripts/pin_games.py`` checks all of them or (on
purpose only) rewrites them.

Each game is played through its registered spec and driver (``stoptable.sim.run``'s way:
``spec.driver(state, writer=w).play(bots)``; Stop it!'s is the live machine on a virtual
clock), so a driver rewritten behind the same spec is pinned too. Game ``g`` varies what it
can: the seat count, the bots (heuristic bots read views, random ones do not) and, for Stop,
the ruleset.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from stoptable.bots.base import make_bot
from stoptable.core.records import RecordWriter
from stoptable.games import spec as get_spec
from stoptable.sim.run import MAX_ACTIONS, bot_seed

DIGESTS: Final = Path(__file__).with_name("pinned_digests.json")
GAMES: Final = ("stop", "stopit", "stopandgo")

_STOP_RULESETS: Final = ("abacus-en", "abacus-ja")


def setup_of(game: str, g: int) -> tuple[str | None, list[str]]:
    """Game ``g``'s ruleset (None: the default) and bots, seat by seat."""
    if game == "stop":
        seats = 2 + g % 3
        ruleset: str | None = _STOP_RULESETS[g // 3 % 2]
    elif game == "stopit":
        seats = 2 + g % 3
        ruleset = None
    else:
        seats = 2 + g % 3
        ruleset = None
    kinds = ("heuristic", "random") if g % 4 == 3 else ("heuristic", "heuristic")
    return ruleset, [kinds[seat % 2] for seat in range(seats)]


def _plain(value: Any) -> Any:
    """``json.dumps``'s ``default``: a value JSON does not know as plain data (an action by
    its type and record line, a dataclass by its fields, a mapping view as a dict, a set
    sorted). Anything else is refused (TypeError), so that a digest never hashes a default
    ``repr`` (a memory address)."""
    to_json = getattr(value, "to_json", None)
    if to_json is not None:
        return ["@" + type(value).__name__, to_json()]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        return ["@" + type(value).__name__, fields]
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    if getattr(value, "paths", None) is not None:  # Stop & Go's LegalMoves
        return list(value)
    raise TypeError(f"cannot pin a {type(value).__name__}: {value!r}")


def dumps(value: Any) -> str:
    """``value`` as canonical JSON text (see :func:`_plain`)."""
    return json.dumps(value, sort_keys=True, default=_plain)


class _Log:
    """The running hash of one game's decisions."""

    def __init__(self) -> None:
        self.hash = hashlib.sha256()
        self.decisions = 0

    def add(self, *parts: Any) -> None:
        self.hash.update(dumps(parts).encode())
        self.hash.update(b"\n")
        self.decisions += 1


class _Watched:
    """A bot that logs every call of ``act`` (turn games), ``observe`` or ``look`` (Stop
    it!'s full and lean views)."""

    def __init__(self, bot: Any, seat: int, log: _Log) -> None:
        self._bot = bot
        self._seat = seat
        self._log = log

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bot, name)

    def act(self, view: Any, legal: Any) -> Any:
        choice = self._bot.act(view, legal)
        self._log.add("act", self._seat, view, legal, choice)
        return choice

    def observe(self, view: Any, now: int) -> Any:
        answer = self._bot.observe(view, now)
        self._log.add("observe", self._seat, view, now, answer)
        return answer

    def look(self, look: Any, now: int) -> Any:
        answer = self._bot.look(look, now)
        self._log.add("look", self._seat, look, now, answer)
        return answer


def play(game: str, g: int) -> dict[str, Any]:
    """Play game ``g`` of ``game`` (seed ``g``) watched: its record, decisions and views."""
    spec = get_spec(game)
    ruleset, names = setup_of(game, g)
    rules = spec.ruleset(ruleset, None)
    state = spec.new(rules.name, len(names), g, None)
    log = _Log()
    bots = [
        _Watched(make_bot(game, name, seat, bot_seed(g, seat)), seat, log)
        for seat, name in enumerate(names)
    ]
    writer = RecordWriter(spec.header(rules, len(names), g).to_json())
    driver = (
        spec.driver(state, writer=writer)
        if spec.driver is not None
        else _virtual(spec)(state, writer=writer)
    )
    actions = driver.play(bots, MAX_ACTIONS)
    views = [state.view(seat) for seat in (None, *range(len(names)))]
    return {
        "record": writer.text(),
        "decisions": log.hash.hexdigest(),
        "count": log.decisions,
        "actions": actions,
        "views": views,
        "result": state.result(),
    }


def _virtual(spec: Any) -> Any:
    """The bot driver of a game without a synchronous one (Stop it!: the live machine on a
    virtual clock, ``sim.run``'s way)."""
    from stoptable.live.virtual import driver_for

    return driver_for(spec)


def digest(game: str, g: int) -> str:
    """The pinned digest of game ``g`` of ``game``: 16 hex digits of everything :func:`play`
    saw."""
    seen = play(game, g)
    text = dumps(
        [
            seen["record"],
            seen["decisions"],
            seen["count"],
            seen["actions"],
            seen["views"],
            repr(seen["result"]),
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def load() -> dict[str, list[str]]:
    """The pinned digests: game -> digest of game 0, 1, ..."""
    data: dict[str, list[str]] = json.loads(DIGESTS.read_text("utf-8"))
    return data
