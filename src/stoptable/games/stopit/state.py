"""The Stop it! state machine (I-30..I-39): requests in arrival order, timers on the clock.

The engine never reads a clock. Every request carries the time its driver stamped on it;
:meth:`StopItState.apply` first moves the clock to that time, firing every due timer
(end of the sort grace, Go timeout, end-game timeout - records.md §5.4), then checks the
request against the state *at that moment* (I-30) and either applies it or raises
:class:`~stoptable.core.errors.IllegalAction` without changing anything else. A lost race
is such a rejection (reason ``stale``), never a crash.

Drivers take the timers as protocol steps (:meth:`StopItState.next_step`,
:meth:`StopItState.run_step`) before they apply a request stamped later, so that they see
the timers' events and can write their clock lines (the events of timers fired inside a
rejected ``apply`` are not returned).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from stoptable.core.errors import InvalidNotation, OptionError, RecordError
from stoptable.core.protocol import (
    JSON,
    Event,
    Outcome,
    Step,
    StepKind,
    new_line_event,
    new_step,
)
from stoptable.core.rng import Rng
from stoptable.games.stopit import engine, setup, views
from stoptable.games.stopit.actions import CallStop, Grab, Insert, Move, PlayStop, Request
from stoptable.games.stopit.cards import canonical_counts, count_row, is_stop_kind
from stoptable.games.stopit.ruleset import Ruleset

PHASES = ("waiting_go", "running", "interrupted", "game_over")
_TIMER_NAMES: Final = {
    "interrupted": "sort_grace",
    "waiting_go": "go_timeout",
    "running": "endgame",
}
"""The name of the timer :meth:`StopItState.next_timer` computes in each phase."""

_CACHES: Final = (
    "_public",
    "_table",
    "_hand_kinds",
    "_tops",
    "_lines",
    "_step",
    "rng",
    "rows",
    "seed",
)
"""The fields equality leaves out: caches of what the others say, and the generator."""


_FIELDS: Final = (
    "_hand_kinds",
    "_lines",
    "_public",
    "_step",
    "_table",
    "_tops",
    "clock",
    "counts",
    "empty_since",
    "extra_points",
    "go_after",
    "go_deadline",
    "go_seat",
    "hands",
    "held",
    "held_from",
    "interrupt",
    "kinds",
    "last_evaluation",
    "last_go",
    "minus_cards",
    "outcome",
    "phase",
    "removed",
    "revealed",
    "rng",
    "rows",
    "ruleset",
    "seats",
    "seed",
    "stack_total",
    "stacks",
    "stops_held",
    "supply",
)
"""The attributes of :class:`StopItState`, its ``__slots__``: named here, outside the class,
because the compiled build (mypyc) cannot read ``__slots__`` through the class."""


class StopItState:
    """One game of Stop it!. Mutable; :meth:`copy` gives an independent one.

    Internals: stacks are kept *top last* (a grab is a pop); ``counts[s]`` counts seat s's
    hand cards per kind, kept up to date on every change, so evaluations and views never
    scan hands; ``stops_held`` counts stop and superstop cards in hands and held slots (I-21).
    """

    __slots__ = _FIELDS

    ruleset: Ruleset
    seats: int
    seed: int
    rng: Rng
    kinds: dict[str, str]
    stacks: list[list[str]]
    stack_total: int
    hands: list[list[str]]
    held: list[str | None]
    held_from: list[int | None]
    counts: list[dict[str, int]]
    """Seat s's hand cards per kind: keys in canonical kind order, no zero counts. A count
    dict is never changed once made (the engine gives the seat a new one), so that views
    can share them."""
    rows: list[list[int]]
    """``counts`` int-coded (``cards.count_row``: the colour cards per colour, then their
    total), for the bots (``views.KindCounts``); a row, too, is never changed once made."""
    stops_held: int
    supply: int
    minus_cards: list[int]
    extra_points: list[int]
    phase: str
    clock: int
    go_seat: int | None
    go_after: int
    go_deadline: int | None
    last_go: int
    empty_since: int | None
    interrupt: tuple[str, int, int] | None
    removed: list[str]
    last_evaluation: dict[str, JSON] | None
    revealed: list[list[str]] | None
    outcome: Outcome | None
    _public: dict[str, JSON] | None
    _table: dict[str, JSON] | None
    _hand_kinds: list[dict[str, int]] | None
    """The views' ``hand_kinds`` while no hand gains or loses a card (cleared where
    ``counts`` change: most public changes are grabs, which leave them)."""
    _tops: list[str | None] | None
    """The views' ``tops`` while no stack changes (inserts leave them)."""
    _step: Step | None
    """The last step :meth:`next_step` made, handed out again while it is still due."""
    _lines: tuple[list[str | None], list[dict[str, JSON]], list[dict[str, JSON]]] | None
    """The stacks' legal lines (:func:`.views.legal_lines`) and the ``_tops`` they were
    listed for: valid while that list is still the state's ``_tops``."""

    # ----------------------------------------------------------------- construction

    @staticmethod
    def new_game(
        ruleset: Ruleset | str,
        seats: int,
        seed: int = 0,
        options: dict[str, Any] | None = None,
        deck: list[str] | None = None,
    ) -> StopItState:
        """A fresh game: the 135 cards shuffled with ``seed`` (or ``deck``, top first) and
        dealt round-robin into the stacks (I-3); phase ``waiting_go`` (I-4).

        ``ruleset`` is a :class:`Ruleset` or a ruleset name (``"stopit-standard"``);
        ``options`` override the ruleset's options (OptionError if unknown or bad).
        PlayerCountError if ``seats`` is outside 2..6 (I-2); ValueError if the deck is not
        the I-1 deck.
        """
        ruleset = _with_options(ruleset, options)
        _check_seats(ruleset, seats)
        if deck is None:
            layout, rng = setup.layout_from_seed(ruleset, seats, seed)
        else:
            layout, rng = setup.layout_from_deck(ruleset, seats, deck), Rng(seed)
        return StopItState._from_layout(ruleset, seats, seed, rng, layout)

    @staticmethod
    def from_position(
        ruleset: Ruleset | str,
        seats: int,
        position: dict[str, JSON],
        seed: int = 0,
        options: dict[str, Any] | None = None,
    ) -> StopItState:
        """A game from a records.md §5.2 position (ValueError if it does not fit;
        PlayerCountError and OptionError as for :meth:`new_game`)."""
        ruleset = _with_options(ruleset, options)
        _check_seats(ruleset, seats)
        layout = setup.layout_from_position(ruleset, seats, position)
        return StopItState._from_layout(ruleset, seats, seed, Rng(seed), layout)

    @staticmethod
    def _from_layout(
        ruleset: Ruleset, seats: int, seed: int, rng: Rng, layout: setup.Layout
    ) -> StopItState:
        state = StopItState.__new__(StopItState)
        kinds = layout.kinds
        state.ruleset, state.seats, state.seed, state.rng = ruleset, seats, seed, rng
        state.kinds = kinds
        state.stacks = layout.stacks
        state.stack_total = sum(len(s) for s in layout.stacks)
        state.hands = layout.hands
        state.held = layout.held
        state.held_from = [None] * seats
        # a seeded game deals no hand: no Counter to build (interpreted, even compiled)
        state.counts = [
            canonical_counts(Counter(kinds[c] for c in h)) if h else {} for h in layout.hands
        ]
        state.rows = [count_row(counts) for counts in state.counts]
        cards = [c for h in layout.hands for c in h] + [c for c in layout.held if c]
        state.stops_held = sum(1 for c in cards if is_stop_kind(kinds[c]))
        state.supply = layout.supply
        state.minus_cards = layout.minus_cards
        state.extra_points = layout.extra_points
        state.phase = layout.phase
        state.clock = layout.clock
        state.go_seat = layout.go_seat if layout.phase == "waiting_go" else None
        state.go_after = layout.clock
        state.go_deadline = None
        state.last_go = layout.clock
        state.empty_since = layout.clock if state.stack_total == 0 else None
        state.interrupt = None
        state.removed = []
        state.last_evaluation = None
        state.revealed = None
        state.outcome = None
        state._public = None
        state._table = None
        state._hand_kinds = None
        state._tops = None
        state._lines = None
        state._step = None
        if state.stack_total == 0 and state.stops_held == 0:
            # I-21 is a condition on the table, not on the phase: a position with every
            # stack empty and no stop card held is over at once, waiting for Go or not
            # (in play an evaluation or a Go would already have ended it).
            state.finish("stacks_exhausted")
        return state

    def copy(self) -> StopItState:
        """An independent state (card-id lists copied; immutable parts shared)."""
        other = StopItState.__new__(StopItState)
        for name in _FIELDS:
            setattr(other, name, getattr(self, name))
        other.rng = self.rng.copy()
        other.stacks = [list(s) for s in self.stacks]
        other.hands = [list(h) for h in self.hands]
        other.held = list(self.held)
        other.held_from = list(self.held_from)
        other.counts = [dict(c) for c in self.counts]
        other.rows = [list(r) for r in self.rows]
        other.minus_cards = list(self.minus_cards)
        other.extra_points = list(self.extra_points)
        other.removed = list(self.removed)
        other._public = None
        other._table = None
        other._hand_kinds = None
        other._tops = None
        other._lines = None
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StopItState):
            return NotImplemented
        return all(
            getattr(self, name) == getattr(other, name) for name in _FIELDS if name not in _CACHES
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"StopItState(seats={self.seats}, phase={self.phase!r}, clock={self.clock})"

    # ----------------------------------------------------------------- driving

    def next_timer(self) -> int | None:
        """When the next timer is due (records.md §5.4), or None; see :meth:`next_step`."""
        phase = self.phase
        if phase == "interrupted":
            assert self.interrupt is not None
            return self.interrupt[2]
        if phase == "waiting_go":
            return self.go_deadline
        if phase == "running" and self.stack_total == 0 and self.stops_held:
            assert self.empty_since is not None
            return max(self.empty_since, self.last_go) + self.ruleset.endgame_timeout_ms
        return None

    def next_step(self) -> Step | None:
        """The next timer as a protocol step, or None when no timer runs.

        ``sort_grace`` (I-35, I-36: the grace ends, held cards go in or are dropped, the
        evaluation runs), ``go_timeout`` (I-37: the engine sends Go for ``seat``, the go
        seat) or ``endgame`` (I-21: every stack is empty and nobody played a held stop
        card in time). A driver runs it with :meth:`run_step` once its clock reaches
        ``at`` and every request stamped before ``at`` has been applied; a request stamped
        at or after ``at`` fires it itself (records.md §5.4). Asking again without a change
        returns the same object, so an event loop may ask at every turn.
        """
        phase = self.phase
        if phase == "running" and (self.stack_total or not self.stops_held):
            return None  # the common case in play, answered without a call
        due = self.next_timer()
        if due is None:
            return None
        name = _TIMER_NAMES[phase]
        seat = self.go_seat if phase == "waiting_go" else None
        step = self._step
        if step is None or step.at != due or step.name != name or step.seat != seat:
            step = self._step = new_step(StepKind.TIMER, name, due, seat)
        return step

    def run_step(self, step: Step, outcome: JSON = None) -> list[Event]:
        """Fire the timer ``step`` (from :meth:`next_step`): the clock moves to ``step.at``
        and every timer due by then fires, earliest first, as ``advance_to(step.at)``.

        The first event carries ``line = {"clock": step.at}``, the records.md §5.4 clock
        line a driver writes for a timer that fired without an action; there is always at
        least one event (an evaluation, a Go or the end of the game). ValueError for a
        step that is not this state's next one or an ``outcome`` (timers have none).
        """
        if outcome is not None:
            raise ValueError("a Stop it! timer has no outcome")
        if step != self.next_step():
            raise ValueError(f"{step} is not the next step (that is {self.next_step()})")
        assert step.at is not None
        events = self.advance_to(step.at)
        first = events[0]
        if first.private is None and isinstance(first.public, dict):  # always, today
            events[0] = new_line_event(first.kind, first.seat, first.public, {"clock": step.at})
        else:
            events[0] = Event(
                first.kind, first.seat, first.public, first.private, {"clock": step.at}
            )
        return events

    def actors(self) -> list[int]:
        """The seats that may act now: everybody while ``running``; the seats still holding
        a card while ``interrupted`` (I-11, I-35); the go seat while ``waiting_go`` (after
        any seat a position left holding a card, which may still insert it); nobody once
        the game is over. The go seat is listed even before ``min_pause_ms`` has passed:
        the game waits for it (:meth:`to_move`), though an early Go is refused."""
        phase = self.phase
        if phase == "running":
            return list(range(self.seats))
        holders = [s for s, card in enumerate(self.held) if card is not None]
        if phase == "interrupted":
            return holders
        if phase == "waiting_go":
            go_seat = self.go_seat
            assert go_seat is not None
            return [s for s in holders if s != go_seat] + [go_seat]
        return []

    def to_move(self) -> int | None:
        """The go seat while ``waiting_go`` (I-15, I-37); otherwise None: while running
        everybody acts at once and nobody is waited for."""
        return self.go_seat if self.phase == "waiting_go" else None

    def advance_to(self, t: int) -> list[Event]:
        """Move the clock to ``t``, firing every timer due at or before ``t``, earliest first.

        What a records.md §5.4 clock line does (replay), and what :meth:`apply` does first;
        drivers take timers one at a time with :meth:`next_step` and :meth:`run_step`.
        RecordError if ``t`` is below the clock (records.md §5.3).
        """
        if t < self.clock:
            raise RecordError(f"time {t} is below the clock {self.clock}")
        events: list[Event] = []
        while True:
            due = self.next_timer()
            if due is None or due > t:
                break
            self.clock = due
            self._public = None
            events += engine.fire_timer(self)
        self.clock = t
        return events

    def apply(self, request: Request) -> list[Event]:
        """Advance the clock to ``request.t``, then check and apply ``request`` (I-30).

        Raises IllegalAction (the state keeps only the clock advance and fired timers),
        InvalidNotation for a seat or stack that does not exist (malformed, records.md §3)
        or RecordError for a time below the clock (a driver's bug).
        """
        if not 0 <= request.seat < self.seats:
            raise InvalidNotation(f"seat {request.seat} does not exist")
        t = request.t
        fired: list[Event] | None = None  # the events of timers fired first, if any
        if self.phase == "running" and self.stack_total and t >= self.clock:
            self.clock = t  # the common case in play: no timer runs (next_timer)
        else:
            due = self.next_timer()
            if t < self.clock or (due is not None and due <= t):
                fired = self.advance_to(t)
            else:
                self.clock = t
        # the two requests of nearly every action called by name (compiled: native calls;
        # through HANDLERS, generic ones), the rest through the table (dispatch: TypeError)
        if type(request) is Grab:
            events = engine.grab(self, request)
        elif type(request) is Insert:
            events = engine.insert(self, request)
        else:
            events = engine.HANDLERS.get(type(request), engine.dispatch)(self, request)
        if fired is not None:
            fired += events
            events = fired
        if type(request) is not Move:  # a reorder is private (I-38): the public view stays
            self._public = None
        return events

    def lost_race(self, request: Request) -> bool:
        """If :meth:`apply` would refuse ``request`` because another seat won a race and no
        timer is due by its time, do what that refusal does - move the clock to
        ``request.t`` - and return True; otherwise change nothing and return False (then
        :meth:`apply` it). The races answered:

        - a grab whose card is gone (``stale`` or ``empty_stack``, I-31, I-34), while the
          game runs with a card on some stack;
        - a grab, a Stop call or a played stop card that arrives after a stop interrupted
          the game (``interrupted``, I-35) or while it waits for Go (``not_running``,
          I-31): the race to the stop was lost. Only the checks that come before the
          phase's are made (the stack exists; the seat, for every request).

        For drivers that need no error object: a simulated game between four heuristic
        bots loses about 22 grabs to other grabs and 12 requests to a stop, and raising
        and catching each IllegalAction cost more than a whole accepted grab. ``t`` must
        not be before the clock; in any other case, False.
        """
        t = request.t
        if t < self.clock or not 0 <= request.seat < self.seats:
            return False
        phase = self.phase
        if phase != "running":
            if phase == "game_over":
                return False
            if type(request) is Grab or type(request) is CallStop:
                if not 0 <= request.stack < len(self.stacks):
                    return False  # malformed, before the phase (records.md §3)
            elif type(request) is not PlayStop:
                return False
            due = self.next_timer()
            if due is not None and due <= t:
                return False  # the timer fires first (apply's advance_to)
            self.clock = t
            return True
        if type(request) is not Grab:
            return False
        stacks = self.stacks
        stack = request.stack
        if (
            not self.stack_total
            or not 0 <= stack < len(stacks)
            or self.held[request.seat] is not None
        ):
            return False
        cards = stacks[stack]
        if cards and cards[-1] == request.expect_id:
            return False
        self.clock = t
        return True

    def legal_actions(self, seat: int, exhaustive: bool = False) -> list[Request]:
        """The requests of ``seat`` that would be accepted now, stamped with the clock.

        By default the list leaves out ``Move`` and the atomic ``Grab(..., pos)``, which are
        accepted for every index in range; ``exhaustive=True`` lists them too.
        """
        return engine.legal_actions(self, seat, exhaustive)

    def view(self, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` may know (I-38); None: a spectator. Treat it as read-only."""
        return views.view(self, seat)

    def legal_lines(self, seat: int) -> list[dict[str, JSON]]:
        """The client lines (``to_json()`` without ``seat`` and ``t``) of
        :meth:`legal_actions`, built without the requests (:func:`.views.legal_lines`):
        what a server sends every person after every change. Read-only."""
        return views.legal_lines(self, seat)

    def result(self) -> Outcome | None:
        """The outcome once the game is over, else None."""
        return self.outcome

    @property
    def scores(self) -> list[int]:
        """I-22: minus cards + extra minus points, per seat."""
        return [m + e for m, e in zip(self.minus_cards, self.extra_points, strict=True)]

    def to_json(self) -> dict[str, JSON]:
        """The state as records.md §5.5 prints it, without ``applied``."""
        over = self.phase == "game_over"
        interrupt = self.interrupt
        return {
            "game": "stopit",
            "ruleset": self.ruleset.name,
            "phase": self.phase,
            "seats": self.seats,
            "clock": self.clock,
            "stacks": [s[::-1] for s in self.stacks],
            "hands": [list(h) for h in self.hands],
            "held": list(self.held),
            "supply": self.supply,
            "minus_cards": list(self.minus_cards),
            "extra_points": list(self.extra_points),
            "scores": self.scores,
            "go_seat": self.go_seat if self.phase == "waiting_go" else None,
            "interrupt": None
            if interrupt is None
            else {"card": interrupt[0], "by": interrupt[1], "deadline": interrupt[2]},
            "removed": list(self.removed),
            "last_evaluation": _copy_json(self.last_evaluation),
            "winners": list(self.outcome.winners) if over and self.outcome else None,
        }

    def finish(self, termination: str) -> Event:
        """End the game (I-20, I-21); the lowest score wins, ties share (I-22, IA-21)."""
        self.phase = "game_over"
        self._table = None
        self.go_seat = None
        self.go_deadline = None
        self.interrupt = None
        self.outcome = Outcome.ranked(termination, self.scores, lower_is_better=True)
        return Event(
            "game_over",
            None,
            {
                "termination": termination,
                "scores": list(self.outcome.scores),
                "winners": list(self.outcome.winners),
            },
        )


def _copy_json(value: dict[str, JSON] | None) -> dict[str, JSON] | None:
    if value is None:
        return None
    return {k: list(v) if isinstance(v, list) else v for k, v in value.items()}


def _with_options(ruleset: Ruleset | str, options: Mapping[str, JSON] | None) -> Ruleset:
    """The ruleset (or the named preset) with ``options`` checked on top; OptionError."""
    if isinstance(ruleset, str):
        return Ruleset.from_options(ruleset, options)
    return ruleset.with_options(options) if options else ruleset


def _check_seats(ruleset: Ruleset, seats: int) -> None:
    """PlayerCountError outside I-2 (the spec's one check); OptionError for a first Go
    seat that is not a seat of this game, which the option table alone cannot know."""
    ruleset.check_seats(seats)
    if ruleset.first_go_seat >= seats:
        raise OptionError(
            f"option 'first_go_seat' must be a seat of the game (0..{seats - 1}), "
            f"not {ruleset.first_go_seat}"
        )
