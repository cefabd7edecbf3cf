"""The core protocol: one shape for every game.

A game is a module that exposes a ``new(...)`` constructor and a mutable state class that
satisfies :class:`GameState`. The choice made once for all games: ``apply`` *validates
first, then mutates the state in place*; an :class:`~stoptable.core.errors.IllegalAction`
is raised before anything changed, so a rejected action leaves the state exactly as it was.

Views, events and actions are plain data that serialise to JSON, so every front end (the
terminal, the server, bots, the research API) reads a game the same way and only through
per-seat views.
"""

from __future__ import annotations

import dataclasses
import enum
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, TypeAlias, TypedDict

JSON: TypeAlias = Any
"""A value made of dict, list, str, int, float, bool and None only."""


Termination: TypeAlias = str
"""Why a game ended: each game names its own (``"target_score"``, ``"stalled"``, ...) and
lists them in its :class:`~stoptable.core.game.GameSpec`; core names none."""


class StepKind(enum.Enum):
    """The kinds of step a driver must take before the next seat action (OpenSpiel's chance
    nodes, plus time)."""

    CHANCE = "chance"
    """A chance outcome: the driver runs it (drawn from the state's seed, or given)."""
    TIMER = "timer"
    """A timer due at ``Step.at`` on the game clock: a real-time driver runs it when its
    clock gets there; seat actions stamped earlier are processed first."""
    WINDOW = "window"
    """A window in which only some seats may act (Stop's cancel window); it closes when
    the driver runs the step, without any of them having acted."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of chance or time that the state asks its driver for.

    ``name`` says which (``roll``, ``deal``, ``cancel_window``, ``sort_grace``, ...);
    ``at`` is a timer's due time in ms; ``seat`` is the seat the step concerns, if any.
    """

    kind: StepKind
    name: str
    at: int | None = None
    seat: int | None = None

    def __reduce__(self) -> tuple[type[Step], tuple[StepKind, str, int | None, int | None]]:
        """Copies and pickles go through the constructor: compiled, a frozen dataclass
        cannot be filled in after ``__new__`` (architecture.md, rule 21)."""
        return Step, (self.kind, self.name, self.at, self.seat)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    ``scores`` are in the game's own unit (minus points for Stop and Stop it!, cards or
    destination sums for Stop & Go); ``winners`` are the seats that share first place and
    ``ranks[i]`` is seat i's 1-based place (ties share a place).
    """

    termination: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    ranks: tuple[int, ...]

    @staticmethod
    def ranked(termination: str, scores: Sequence[int], lower_is_better: bool) -> Outcome:
        """Build an outcome from scores, ranking with shared places for ties.

        >>> Outcome.ranked("target_score", [30, 10, 10], True).ranks
        (3, 1, 1)
        """
        sign = 1 if lower_is_better else -1
        keys = [sign * s for s in scores]
        best = min(keys)
        ranks = tuple(1 + sum(1 for other in keys if other < k) for k in keys)
        winners = tuple(i for i, k in enumerate(keys) if k == best)
        return Outcome(termination, tuple(scores), winners, ranks)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as a public log line plus what only one seat may see.

    ``public`` is shown to everybody; ``private`` (if any) only to ``seat``. For example a
    Stop draw has ``public={"kind": "draw", "count": 1}`` and ``private={"cards": ["B4"]}``.
    """

    kind: str
    seat: int | None = None
    public: Mapping[str, JSON] = field(default_factory=dict)
    private: Mapping[str, JSON] | None = None
    line: Mapping[str, JSON] | None = field(default=None, compare=False)
    """The record line of a chance or clock outcome this event stands for (a roll, a
    shuffle order). Only for drivers that write records; :meth:`for_seat` never shows it."""

    def __init__(
        self,
        kind: str,
        seat: int | None = None,
        public: Mapping[str, JSON] | None = None,
        private: Mapping[str, JSON] | None = None,
        line: Mapping[str, JSON] | None = None,
    ) -> None:
        """The dataclass's fields, set by an ``__init__`` of its own (``dataclasses`` keeps
        it; ``public`` None is a new empty dict, as its ``default_factory`` was).

        Compiled (mypyc), ``Event(...)`` from compiled code is then a native call that
        stores the fields natively (those stores bypass ``frozen`` only because compiled
        code writes the attributes directly); with the ``__init__`` that ``dataclasses``
        writes it was a Python frame and a generic ``object.__setattr__`` per field, and
        every event made outside :data:`new_event` paid it. Interpreted, the fields are set
        as the dataclass's own ``__init__`` sets them (architecture.md, rules 12 and 19)."""
        if public is None:
            public = {}
        if COMPILED:
            self.kind = kind  # type: ignore[misc]  # compiled only: a native store
            self.seat = seat  # type: ignore[misc]
            self.public = public  # type: ignore[misc]
            self.private = private  # type: ignore[misc]
            self.line = line  # type: ignore[misc]
        else:
            object.__setattr__(self, "kind", kind)
            object.__setattr__(self, "seat", seat)
            object.__setattr__(self, "public", public)
            object.__setattr__(self, "private", private)
            object.__setattr__(self, "line", line)

    def __reduce__(
        self,
    ) -> tuple[
        type[Event],
        tuple[
            str,
            int | None,
            Mapping[str, JSON],
            Mapping[str, JSON] | None,
            Mapping[str, JSON] | None,
        ],
    ]:
        """Copies and pickles go through the constructor: compiled, a native class with an
        ``__init__`` is made by ``__new__`` only through it."""
        return Event, (self.kind, self.seat, self.public, self.private, self.line)

    def for_seat(self, seat: int | None) -> dict[str, JSON]:
        """The event as the given seat (None: a spectator) may see it."""
        data: dict[str, JSON] = {"kind": self.kind}
        if self.seat is not None:
            data["seat"] = self.seat
        data.update(self.public)
        if self.private is not None and seat is not None and seat == self.seat:
            data.update(self.private)
        return data


EventMaker: TypeAlias = Callable[
    [str, "int | None", "dict[str, JSON]", "dict[str, JSON] | None"], Event
]


Setter: TypeAlias = Callable[[Any, Any], None]
EventSetter: TypeAlias = Setter
EventSetters: TypeAlias = tuple[EventSetter, EventSetter, EventSetter, EventSetter, EventSetter]


def field_setters(cls: type, names: tuple[str, ...]) -> tuple[Setter, ...] | None:
    """The setters of the fields of the frozen dataclass ``cls``, which must be ``names``
    in order, or None (other fields, or a field without a descriptor of its own).

    A hot loop's maker builds an object field by field on ``cls.__new__(cls)`` with these
    instead of calling ``cls``: the frozen dataclass ``__init__`` sets every field through
    a generic ``object.__setattr__`` in a Python frame, about twice the cost, in both
    builds (compiled, mypyc leaves a frozen dataclass's ``__init__`` to ``dataclasses``).
    Interpreted the setters are the slots' descriptors, compiled the native class's
    attribute descriptors; either way the result is an ordinary, equal object.
    """
    if tuple(f.name for f in dataclasses.fields(cls)) != names:
        return None
    setters = [getattr(vars(cls).get(name), "__set__", None) for name in names]
    if any(setter is None for setter in setters):
        return None
    return tuple(setters)  # type: ignore[arg-type]  # checked: no None left


def _event_setters() -> EventSetters | None:
    """The five slot setters of :class:`Event` (kind, seat, public, private, line), or None
    where its fields differ or it has no slots (the compiled build's native class, which
    :data:`new_event` builds with :func:`field_setters` instead)."""
    if "__slots__" not in vars(Event):
        return None
    setters = field_setters(Event, ("kind", "seat", "public", "private", "line"))
    if setters is None:
        return None
    kind, seat, public, private, line = setters
    return kind, seat, public, private, line


EVENT_SETTERS: Final = _event_setters()
"""Set an Event's slots directly (``object.__new__(Event)`` first): what :data:`new_event`
does, for an engine that makes events in its own hot loop (Stop's ``StopState._event``)."""


def compiled_event(
    kind: str, seat: int | None, public: dict[str, JSON], private: dict[str, JSON] | None
) -> Event:
    """``Event(kind, seat, public, private)``: the maker that :data:`new_event` is in the
    compiled build, where it is a native call of :class:`Event`'s own ``__init__`` (native
    stores, about 150 instructions). Before that ``__init__`` it built the event on
    ``Event.__new__(Event)`` (a generic call) and stored the fields natively; with the
    dataclass's own ``__init__`` an event cost a Python frame and a generic call per
    field. Interpreted, :data:`new_event` sets the slots through their descriptors (faster
    there than a call of the Python ``__init__``).
    """
    return Event(kind, seat, public, private)


def compiled_line_event(
    kind: str, seat: int | None, public: dict[str, JSON], line: Mapping[str, JSON]
) -> Event:
    """:func:`compiled_event` with a record ``line`` and no ``private`` (compiled only)."""
    return Event(kind, seat, public, None, line)


def compiled_step(kind: StepKind, name: str, at: int | None, seat: int | None) -> Step:
    """``Step(kind, name, at, seat)`` in the compiled build (as :func:`compiled_event`;
    compiled only): Stop it!'s timers ask for a new one after every evaluation and Go, and
    the dataclass constructor costs about 6,000 instructions compiled."""
    step: Step = Step.__new__(Step)
    step.kind = kind  # type: ignore[misc]  # compiled only: a native store
    step.name = name  # type: ignore[misc]
    step.at = at  # type: ignore[misc]
    step.seat = seat  # type: ignore[misc]
    return step


COMPILED: Final = not isinstance(compiled_event, types.FunctionType)
"""This module runs compiled (mypyc; its functions are then built-ins, not Python functions):
the same test as ``games.stop.cards.COMPILED``, which core cannot import."""


def _event_maker() -> EventMaker:
    """``Event(kind, seat, public, private)`` (no ``line``), built by setting its slots directly.

    Engines make an event for nearly every action, and the frozen dataclass ``__init__``
    (one generic ``object.__setattr__`` per field, through a Python frame) costs about twice
    this. The result is an ordinary, equal Event, in both builds: interpreted through the
    slots' descriptors (:func:`field_setters`), compiled by :func:`compiled_event`. Should
    :class:`Event` ever change its fields, this falls back to the constructor.
    """
    if COMPILED:
        return compiled_event
    setters = field_setters(Event, ("kind", "seat", "public", "private", "line"))
    if setters is None:
        return Event
    set_kind, set_seat, set_public, set_private, set_line = setters
    new = Event.__new__  # object.__new__ interpreted; compiled, the native class's own

    def make(
        kind: str, seat: int | None, public: dict[str, JSON], private: dict[str, JSON] | None
    ) -> Event:
        ev: Event = new(Event)
        set_kind(ev, kind)
        set_seat(ev, seat)
        set_public(ev, public)
        set_private(ev, private)
        set_line(ev, None)
        return ev

    return make


new_step: Final[Callable[[StepKind, str, int | None, int | None], Step]] = (
    compiled_step if COMPILED else Step
)
"""``Step(kind, name, at, seat)``: compiled, without the dataclass constructor."""

new_event: Final[EventMaker] = _event_maker()
"""The engines' fast ``Event(kind, seat, public, private)``."""

LineEventMaker: TypeAlias = Callable[
    [str, "int | None", "dict[str, JSON]", Mapping[str, JSON]], Event
]


def _line_event_maker() -> LineEventMaker:
    """``Event(kind, seat, public, line=line)``, built as :data:`new_event` builds an
    event: the chance outcome of a turn (a Stop & Go roll) comes with its record line."""
    if COMPILED:
        return compiled_line_event
    setters = field_setters(Event, ("kind", "seat", "public", "private", "line"))
    if setters is None:

        def construct(
            kind: str, seat: int | None, public: dict[str, JSON], line: Mapping[str, JSON]
        ) -> Event:
            return Event(kind, seat, public, line=line)

        return construct
    set_kind, set_seat, set_public, set_private, set_line = setters
    new = Event.__new__

    def make(
        kind: str, seat: int | None, public: dict[str, JSON], line: Mapping[str, JSON]
    ) -> Event:
        ev: Event = new(Event)
        set_kind(ev, kind)
        set_seat(ev, seat)
        set_public(ev, public)
        set_private(ev, None)
        set_line(ev, line)
        return ev

    return make


new_line_event: Final[LineEventMaker] = _line_event_maker()
"""The engines' fast ``Event(kind, seat, public, line=line)`` (no ``private``)."""


class Action(Protocol):
    """An action a seat submits. Every game's actions are frozen dataclasses with these.

    A static contract only (mypy checks it), not ``@runtime_checkable``: nothing may ask
    ``isinstance(x, Action)`` at run time, and the compiled build (mypyc) cannot build a
    runtime-checkable protocol (tests check conformance with ``tests.support.conforms``)."""

    @property
    def seat(self) -> int: ...

    def to_json(self) -> dict[str, JSON]:
        """The action line of ``rules/records.md``."""
        ...

    def notation(self) -> str:
        """The compact text form for people (``play R4 achtung``)."""
        ...


class GameState(Protocol):
    """What every game's state offers to drivers, bots and front ends (a static contract,
    like :class:`Action`)."""

    @property
    def seats(self) -> int: ...

    def legal_actions(self, seat: int) -> list[Any]:
        """Every action ``seat`` may submit now, on turn or not."""
        ...

    def apply(self, action: Any) -> list[Event]:
        """Validate, then apply ``action``; if illegal, raise IllegalAction and change nothing."""
        ...

    def view(self, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` may know (None: a spectator), as plain JSON data."""
        ...

    def result(self) -> Outcome | None:
        """The outcome once the game is over, else None."""
        ...

    def to_json(self) -> dict[str, JSON]:
        """The full state in the ``stoptable replay --json`` schema (never sent to clients)."""
        ...

    def next_step(self) -> Step | None:
        """What chance or time must do before the next seat action; None if nothing.

        A driver asks this before it lets any seat act; records.md §3 lists the same steps
        as the implicit ones of replay.
        """
        ...

    def run_step(self, step: Step, outcome: JSON = None) -> list[Event]:
        """Take ``step`` (from :meth:`next_step`): draw a chance outcome from the seed, or use
        ``outcome`` (a roll value, a shuffle order); fire a timer; close a window. The
        events of a chance outcome carry its record ``line``."""
        ...

    def actors(self) -> list[int]:
        """The seats that may act now, in the order a synchronous driver asks them:
        out-of-turn seats first (Stop's S-61 offer order), the seat of :meth:`to_move` last."""
        ...

    def to_move(self) -> int | None:
        """The seat the game waits for (on turn, or the victim of a pending effect); None
        when no one must act (game over, a real-time phase, a chance step pending)."""
        ...


class ViewHeader(TypedDict):
    """The keys every game's view starts with, so a front end can tell any view apart."""

    game: str
    ruleset: str
    seats: int
    phase: str
    seat: int | None


def view_header(game: str, ruleset: str, seats: int, phase: str, seat: int | None) -> ViewHeader:
    """The shared head of a view (``game``, ``ruleset``, ``seats``, ``phase``, ``seat``).

    >>> view_header("ludo", "classic", 2, "playing", None)["seat"] is None
    True
    """
    return {"game": game, "ruleset": ruleset, "seats": seats, "phase": phase, "seat": seat}
