"""The game spec: everything a front end needs to know about one game, in one value.

Each game package builds one :class:`GameSpec` (in its ``spec.py``) and
``stoptable.games`` lists them, as python-chess lists its variants and OpenSpiel registers
games with their ``GameInfo``. Drivers (the command line, simulations, the server, the
research environments) reach a game only through its spec and the
:class:`~stoptable.core.protocol.GameState` protocol, so none of them says ``if game == ...``
and a new game is its own package plus one registry line.

Core names no game: the spec is filled in by the game, never here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from stoptable.core.errors import InvalidNotation
from stoptable.core.protocol import JSON, Action, Event, GameState, Step
from stoptable.core.records import Header, Replayer, parse_header
from stoptable.core.ruleset import RulesetBase

NewGame = Callable[..., GameState]
"""``new(ruleset, seats, seed, **setup) -> state`` (setup: game-specific, e.g. ``map``)."""
FromPosition = Callable[[Any, int, Mapping[str, JSON], Path], GameState]
"""``from_position(ruleset, seats, position, base_dir) -> state`` (records.md positions)."""
ActionFromJson = Callable[[Mapping[str, JSON], int, int | None], Action]
"""``(line without seat and t, seat, t) -> action``; InvalidNotation if malformed."""
ParseAction = Callable[[str, int, int | None], Action]
"""``(text, seat, t) -> action`` from the compact notation; InvalidNotation if unreadable."""
SetupLoader = Callable[[Path | None], tuple[Any, JSON]]
"""``load(path or None) -> (value for new(), what a record header says of it)``; raises a
StoptableError (with ``problems``, a list of lines, where there are several) if the file
cannot start a game. None means the game's default (Stop & Go's default map)."""
DriverFactory = Callable[..., Any]
"""``driver(state, writer=None)``: an object whose ``play(bots)`` plays the game out
(``core.driver.SyncDriver``; a real-time game's driver runs a virtual clock)."""


class TimingPolicy(Protocol):
    """How long a real-time driver (the server) lets time run where a game's rules measure
    it in wall-clock time but its engine only orders actions (Stop's S-62). Games whose
    timers are on the game clock (Stop it!'s TIMER steps) and games without real time need
    none: a driver without a policy holds nothing and takes every step at once.
    """

    def grace_ms(self, state: Any, action: Any, events: list[Event]) -> int:
        """After ``action`` was applied with ``events``: how long a grace now runs (0: none)."""
        ...

    def held(self, state: Any, action: Any) -> bool:
        """Whether ``action`` must wait (be queued) while a grace or window runs."""
        ...

    def step_delay_ms(self, state: Any, step: Step, round_pause_ms: int) -> int:
        """How long after it is due the driver takes the CHANCE or WINDOW ``step`` (a cancel
        window's length, the pause before the next round's deal); 0: at once."""
        ...


class RealtimePolicy(Protocol):
    """What a live table needs to know of a continuous-time game (Stop it!, I-50..I-54)
    to schedule its bots' observations, and nothing else: the live machine
    (``stoptable.live``) is the one driver of such games, on the server's clock and on a
    simulator's virtual one, and it acts on no game's rules (its one typed copy of the
    loop for Stop it!, compiled only, calls what this protocol names by the game's own
    types: architecture.md, rule 20).
    """

    def over(self, state: Any) -> bool:
        """Whether the game has ended (cheaper than ``result()`` on the hot path)."""
        ...

    def timers_idle(self, state: Any) -> bool:
        """True when ``next_step()`` is surely None now (a shortcut the loop may take);
        never True once the game is over (the loop then asks :meth:`over` only when this
        is False)."""
        ...

    @property
    def quiet_kinds(self) -> frozenset[str]:
        """Kinds of event that change nothing a player reacts to (I-53: such a change
        wakes no bot)."""
        ...

    @property
    def tallied_kinds(self) -> frozenset[str]:
        """Kinds of event a simulator counts for its statistics (Stop it!'s evaluations)."""
        ...

    @property
    def urgent_kinds(self) -> frozenset[str]:
        """Kinds of event after which :meth:`urgent` is asked."""
        ...

    def urgent(self, state: Any) -> list[int]:
        """After an event of :attr:`urgent_kinds`: the seats whose bot must look at once
        (I-53: a bot holding a card when the game is interrupted)."""
        ...

    def lost(self, state: Any, request: Any) -> bool:
        """Whether ``request`` would surely be refused now (a lost race), so that a driver
        nobody watches may skip building the error."""
        ...

    def show(self, bot: Any) -> tuple[Callable[[Any, int], Any], Callable[[Any, int], Any]]:
        """How ``bot`` is shown its seat: ``(ask, look)``, where ``ask(look(state, seat),
        now)`` is the bot's answer (``observe``, or a lean ``look`` where the bot reads
        only part of its view)."""
        ...

    def perceive(self, bot: Any) -> int:
        """A sample of ``bot``'s delay in ms before it notices a public change (I-52)."""
        ...


@dataclass(frozen=True)
class GameSpec:
    """One game's fixed facts and entry points.

    ``facts`` are what a research API sizes its spaces with (largest hand, number of card
    kinds, longest path and the like); ``terminations`` every value ``Outcome.termination``
    takes; ``bot_module`` the module of ``stoptable.bots`` that registers this game's bots
    (named, not imported: bots are a layer above games).
    """

    name: str
    title: str
    rules: str
    """The spec file under ``shared/rules`` (``stop.md``)."""
    ruleset_type: type[RulesetBase]
    default_ruleset: str
    terminations: tuple[str, ...]
    realtime: bool
    new_state: NewGame
    position_state: FromPosition
    json_action: ActionFromJson
    text_action: ParseAction
    replayer: Replayer
    bot_module: str
    lower_is_better: bool = True
    """Whether the lower score wins (minus points) or the higher (Stop & Go's cards)."""
    driver: DriverFactory | None = None
    """What plays bots to the end: ``driver(state, writer=w).play(bots)``. A turn game's
    driver also offers ``decision()``/``submit()`` for a person; a real-time game's runs
    a virtual clock (discrete events)."""
    facts: Mapping[str, int] = field(default_factory=dict)
    summary: Callable[[dict[str, JSON], Any], list[Any]] | None = None
    """``summary(replay output, replayed state)``: the state in words (Rich renderables)
    for ``stoptable replay`` without ``--json``; None: one row per field."""
    setup_files: Mapping[str, SetupLoader] = field(default_factory=dict)
    """Setup arguments of :meth:`new` that front ends read from a file (Stop & Go: ``map``),
    each with the loader that checks it as the rules ask front ends to (GM-9)."""
    timing: TimingPolicy | None = None
    """Wall-clock timing for a real-time driver (None: hold nothing, take steps at once)."""
    pacing: RealtimePolicy | None = None
    """For a continuous-time game (``realtime``): how the live machine schedules its bots.
    Such a game has no ``driver``: ``stoptable.live`` runs it on a virtual clock."""

    @property
    def seat_rule(self) -> str:
        """The rule that bounds the seat count (S-6, I-2, G-2), as the ruleset says."""
        return self.ruleset_type.SEAT_RULE

    @property
    def rulesets(self) -> tuple[str, ...]:
        """The names of this game's rulesets (presets)."""
        return tuple(self.ruleset_type.PRESETS)

    def ruleset(self, name: str | None = None, options: Mapping[str, JSON] | None = None) -> Any:
        """The ruleset ``name`` (default: the game's first) with ``options``; OptionError."""
        return self.ruleset_type.from_options(name or self.default_ruleset, options)

    def seat_range(self, ruleset: Any = None) -> tuple[int, int]:
        """The smallest and largest seat counts under ``ruleset`` (default: the default)."""
        rules = self.ruleset() if ruleset is None else ruleset
        low, high = rules.seat_range()
        return int(low), int(high)

    def check_seats(self, seats: int, ruleset: Any = None) -> None:
        """PlayerCountError (reason ``player_count``) if ``seats`` is out of range."""
        (self.ruleset() if ruleset is None else ruleset).check_seats(seats)

    def new(
        self,
        ruleset: str | None = None,
        seats: int | None = None,
        seed: int = 0,
        options: Mapping[str, JSON] | None = None,
        **setup: Any,
    ) -> Any:
        """A new game: ruleset by name plus options, ``seats`` (default: the fewest), seed.

        OptionError for a bad ruleset or option, PlayerCountError for a bad seat count.
        """
        rules = self.ruleset(ruleset, options)
        count = self.seat_range(rules)[0] if seats is None else seats
        self.check_seats(count, rules)
        return self.new_state(rules, count, seed, **setup)

    def from_position(
        self,
        position: Mapping[str, JSON],
        seats: int,
        ruleset: str | None = None,
        options: Mapping[str, JSON] | None = None,
        base_dir: Path = Path("."),
    ) -> Any:
        """A game set up from an explicit position (records.md §4.2, §5.2, §6.1)."""
        rules = self.ruleset(ruleset, options)
        self.check_seats(seats, rules)
        return self.position_state(rules, seats, position, base_dir)

    def action_from_json(self, data: Mapping[str, JSON], seat: int, t: int | None = None) -> Action:
        """An action from its records.md line *without* ``seat`` (and ``t``): the driver
        supplies them, since a client must not choose its seat or its arrival time."""
        if not isinstance(data, Mapping):
            raise InvalidNotation("an action must be a JSON object")
        for key in ("seat", "t"):
            if key in data:
                raise InvalidNotation(f"the driver supplies {key!r}; an action must not carry it")
        return self.json_action(data, seat, t)

    def rebuild(self, header: Mapping[str, JSON], lines: list[dict[str, JSON]]) -> Any:
        """The state after ``lines`` of a record with ``header``, through the replayer
        (no ``finish``: a window open at the end stays open, as it was live). A live
        table comes back from its stored record so (protocol.md §5)."""
        state = self.replayer.setup(parse_header(dict(header)))
        for line in lines:
            self.replayer.apply_event(state, dict(line))
        return state

    def parse_action(self, text: str, seat: int, t: int | None = None) -> Action:
        """An action from its compact notation (docs/notation.md) for ``seat`` at ``t``."""
        return self.text_action(text, seat, t)

    def header(self, ruleset: Any, seats: int, seed: int = 0, **setup: JSON) -> Header:
        """The records.md §2.1 header of a game (``setup``: ``deck``, ``position``, ``map``)."""
        return Header(
            game=self.name,
            ruleset=ruleset.name,
            seats=seats,
            seed=seed,
            options=ruleset.record_options(),
            deck=setup.get("deck"),
            position=setup.get("position"),
            map=setup.get("map"),
        )
