"""The Stop it! table: a discrete-event loop around the engine (stop-it.md I-50..I-54).

One :class:`Table` drives one game. Time is an integer number of ms. A priority queue
holds what is due - bot observations and request arrivals - ordered by ``(t, seq)``, where
``seq`` is the order of scheduling (I-54: ties never depend on the seat). The engine's own
timers (end of the sort grace, Go timeout, end-game timeout) are the protocol steps of
``state.next_step()``; the table runs them (``state.run_step``) before any queued item of
the same ms, as in replay (records.md §5.4).

The same table serves two drivers:

* the simulator (:func:`play_game`) runs it to the end on the virtual clock, never
  waiting on the wall clock (I-50);
* the live terminal game calls :meth:`Table.run_until` with the wall clock and
  :meth:`Table.submit` for the human's requests, so the bots are the very same.

Observation scheduling is I-53: after each public change at t, every bot with neither a
pending observation nor a request in flight is observed at ``t + perceive``; a bot whose
request is processed (accepted or not) is observed at once; when the game is interrupted,
a bot holding a card is observed at once so it can insert it within the grace.

Every accepted request is written to the record with its ``t``; every timer that fires is
written as the ``{"clock": t}`` line its first event carries, because replay fires timers
only when the clock moves (records.md §5.4) and the game may end on one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from heapq import heappop, heappush
from typing import Any, Final, Literal, Protocol

from stoptable.core.errors import IllegalAction
from stoptable.core.protocol import JSON, Event, Step
from stoptable.core.records import RECORD_FORMAT, RecordWriter
from stoptable.games.stopit.actions import Grab, Request
from stoptable.games.stopit.ruleset import Ruleset
from stoptable.games.stopit.state import StopItState
from stoptable.games.stopit.views import lean_look
from stoptable.games.stopit.views import view as seat_view


class Reaction(Protocol):
    """A bot's reaction-time model (I-52): ``sample("perceive")`` is a delay in ms."""

    def sample(self, component: Literal["perceive"], hand_size: int = 0) -> int: ...


class StopItBot(Protocol):
    """What the table needs from a bot (I-51); ``stoptable.bots.stopit`` provides them.

    A bot whose ``lean_view`` attribute is true is shown :func:`~.views.lean_look`, the
    part of its seat's view that it reads, through its method ``look(look, now)``
    (answered as ``observe``); any other bot, the whole view.
    """

    @property
    def reaction(self) -> Reaction: ...

    def observe(self, view: dict[str, JSON], now: int) -> tuple[Request, int] | None:
        """React to ``view`` seen at ``now``: None, or a request and its delay in ms."""
        ...


_Ask = Callable[[Any, int], "tuple[Request, int] | None"]
"""A bot's answer to what it is shown at a time (``observe`` or ``look``)."""

OBSERVE: Final = 0
ARRIVAL: Final = 1
IN_FLIGHT: Final = -1
"""``Table.busy`` of a bot whose request is on its way (no seq is negative)."""
QUIET_KINDS: Final = frozenset({"insert", "move"})
"""Events that change no public fact a player reacts to: the card of an insert was public
since its grab, and a hand's order is private (I-38). Everything else is a public change."""


@dataclass(frozen=True, slots=True)
class Happening:
    """One processed arrival or timer, for front ends and tests (the table's log line).

    ``request`` is None for a timer; ``error`` is set when the request was rejected.
    """

    t: int
    seat: int | None
    request: Request | None
    events: list[Event] = field(default_factory=list)
    error: IllegalAction | None = None


POSITION_FIELDS: Final = (
    "stacks",
    "hands",
    "held",
    "supply",
    "minus_cards",
    "extra_points",
    "phase",
    "go_seat",
    "clock",
)
"""The records.md §5.2 position keys, all read from the state's replay output."""


def record_header(
    state: StopItState, seed: int, note: str | None = None, position: bool = False
) -> dict[str, JSON]:
    """The record header of a game set up by ``StopItState.new_game(ruleset, seats, seed)``,
    or, with ``position``, of one that starts from the state as it is now (records.md
    §5.2; its phase must be ``waiting_go`` or ``running``).

    ``min_pause_ms`` is always written: replay defaults it to 0 (records.md §5.4), the
    live game uses the real-time default.
    """
    options = {**state.ruleset.options(), "min_pause_ms": state.ruleset.min_pause_ms}
    header: dict[str, JSON] = {
        "format": RECORD_FORMAT,
        "game": "stopit",
        "ruleset": state.ruleset.name,
        "options": options,
        "seats": state.seats,
        "seed": seed,
    }
    if position:
        if state.phase not in ("waiting_go", "running"):
            raise ValueError(f"a record cannot start in phase {state.phase!r}")
        now = state.to_json()
        header["position"] = {key: now[key] for key in POSITION_FIELDS if now[key] is not None}
    if note:
        header["note"] = note
    return header


class Table:
    """The event loop of one game: the engine, the bots, the queue and the record."""

    def __init__(
        self,
        state: StopItState,
        bots: Mapping[int, StopItBot] | None = None,
        *,
        writer: RecordWriter | None = None,
        delay_scale: float = 1.0,
        listener: Callable[[Happening], None] | None = None,
    ) -> None:
        self.state = state
        self.bots = dict(bots or {})
        self.writer = writer
        self.delay_scale = delay_scale
        self.listener = listener
        self.queue: list[tuple[int, int, int, int, Request | None]] = []
        self.seq = 0
        self.busy: dict[int, int | None] = {}
        """Per bot: the seq of its scheduled observation, :data:`IN_FLIGHT` while its
        request is on its way, None when idle (a bot never has both: it is observed when
        its request has been processed, and only an idle bot is scheduled)."""
        self.looks: dict[int, tuple[_Ask, Callable[[StopItState, int], Any]]] = {}
        """How each bot is shown its seat: ``(bot.look, lean_look)`` or
        ``(bot.observe, view)``, the bot's answer to what the second gives."""
        self._seat_bots()
        self.evaluations = 0
        self.rejected = 0
        self.processed = 0
        self.last_written = state.clock
        self.started = False

    def _seat_bots(self) -> None:
        """Start the bookkeeping of ``self.bots``: every bot idle."""
        self.busy = dict.fromkeys(self.bots)
        self.looks = {
            seat: (bot.look, lean_look)  # type: ignore[attr-defined]
            if getattr(bot, "lean_view", False)
            else (bot.observe, seat_view)
            for seat, bot in self.bots.items()
        }

    # ------------------------------------------------------------------ scheduling

    def _push(self, t: int, kind: int, seat: int, request: Request | None) -> int:
        seq = self.seq
        self.seq = seq + 1
        heappush(self.queue, (t, seq, kind, seat, request))
        return seq

    def _perceive(self, seat: int) -> int:
        delay = self.bots[seat].reaction.sample("perceive")
        return delay if self.delay_scale == 1.0 else round(delay * self.delay_scale)

    def _public_change(self, t: int) -> None:
        """I-53: schedule an observation for every idle bot (``_perceive`` and ``_push``
        written out: this runs after almost every request)."""
        busy, queue, scale = self.busy, self.queue, self.delay_scale
        for seat, bot in self.bots.items():
            if busy[seat] is None:
                delay = bot.reaction.sample("perceive")
                if scale != 1.0:
                    delay = round(delay * scale)
                seq = self.seq
                self.seq = seq + 1
                heappush(queue, (t + delay, seq, OBSERVE, seat, None))
                busy[seat] = seq

    def _observe(self, seat: int, t: int) -> None:
        """Show the bot its view now; queue what it answers as an arrival (I-51).
        (:meth:`_process` does the same in line.)"""
        ask, show = self.looks[seat]
        answer = ask(show(self.state, seat), t)
        if answer is None:
            self.busy[seat] = None
            return
        request, delay = answer
        if self.delay_scale != 1.0:
            delay = round(delay * self.delay_scale)
        arrival = t + max(delay, 0)
        if request.t != arrival:
            request = replace(request, t=arrival)
        self.busy[seat] = IN_FLIGHT
        self._push(arrival, ARRIVAL, seat, request)

    def start(self) -> None:
        """The setup is the first public change: every bot looks at the table."""
        if not self.started:
            self.started = True
            self._public_change(self.state.clock)

    # ------------------------------------------------------------------ processing

    @property
    def over(self) -> bool:
        return self.state.phase == "game_over"

    def next_time(self) -> int | None:
        """When the next thing happens (a timer or a queued item), or None."""
        step = self.state.next_step()
        timer = None if step is None else step.at
        if not self.queue:
            return timer
        head = self.queue[0][0]
        return head if timer is None or head < timer else timer

    def step(self) -> bool:
        """Process the next timer or queued item; False when the game is over or idle."""
        return self._process(True, 0)

    def _process(self, once: bool, limit_ms: int) -> bool:
        """Process timers and queued items in time order: the next one only (``once``;
        True when there was one, as :meth:`step`), or one after the other until the game
        is over or nothing is left (False) or the clock has passed ``limit_ms`` (True).

        A simulated game takes hundreds of steps, so :meth:`run` processes them all in
        this one loop, and the observation that ends every processed item
        (:meth:`_observe`) is written out here.
        """
        state = self.state
        queue, busy, looks = self.queue, self.busy, self.looks
        while True:
            phase = state.phase
            if phase == "game_over":
                return False
            # No timer runs while the game is running with cards on the stacks (the common
            # case, as in state.apply and state.next_step): then the call is left out.
            if phase != "running" or not state.stack_total:
                timer = state.next_step()
                if (
                    timer is not None
                    and timer.at is not None
                    and (not queue or timer.at <= queue[0][0])
                ):
                    self._fire(timer)
                    if once or state.clock > limit_ms:
                        return True
                    continue
            if not queue:
                return False
            t, seq, kind, seat, request = heappop(queue)
            if kind == OBSERVE:
                if busy[seat] != seq:  # superseded: the bot was looked at since
                    if once or state.clock > limit_ms:
                        return True
                    continue
            else:
                # Still in flight while processed, so the public change skips this bot; it
                # is observed at once right after instead (I-53).
                assert request is not None
                self._arrive(request)
            ask, show = looks[seat]
            answer = ask(show(state, seat), t)
            if answer is None:
                busy[seat] = None
            else:
                request, delay = answer
                if self.delay_scale != 1.0:
                    delay = round(delay * self.delay_scale)
                arrival = t + delay if delay > 0 else t
                if request.t != arrival:
                    request = replace(request, t=arrival)
                busy[seat] = IN_FLIGHT
                seq = self.seq
                self.seq = seq + 1
                heappush(queue, (arrival, seq, ARRIVAL, seat, request))
            if once or state.clock > limit_ms:
                return True

    def _fire(self, step: Step) -> None:
        events = self.state.run_step(step)
        t = self.state.clock
        for event in events:
            if event.line is not None:
                self._write(dict(event.line), t)
        if self.listener is not None:
            self.listener(Happening(t, None, None, events))
        self._after_change(t, "running", events)

    def _arrive(self, request: Request) -> None:
        state = self.state
        if type(request) is Grab and self.listener is None and state.lost_race(request):
            self.rejected += 1  # refused as apply would, without the error nobody reads
            return
        before = state.phase
        try:
            events = state.apply(request)
        except IllegalAction as error:
            self.rejected += 1
            if self.listener is not None:
                self.listener(Happening(request.t, request.seat, request, error=error))
            return
        self.processed += 1
        if self.writer is not None:
            self.writer.add(request.to_json())
        self.last_written = request.t
        if self.listener is not None:
            self.listener(Happening(request.t, request.seat, request, events))
        self._after_change(request.t, before, events)

    def _after_change(self, t: int, before: str, events: list[Event]) -> None:
        """Count evaluations; wake the idle bots on a public change; on an interruption,
        look at once at every bot that holds a card (I-53)."""
        public = False
        for event in events:
            kind = event.kind
            if kind not in QUIET_KINDS:
                public = True
                if kind == "evaluation":
                    self.evaluations += 1
        if public and None in self.busy.values():  # mostly every bot is busy: none to wake
            self._public_change(t)
        state = self.state
        if before != "interrupted" and state.phase == "interrupted":
            # I-53: a bot holding a card is observed at once, to insert it in the grace.
            busy = self.busy
            for seat in self.bots:
                if state.held[seat] is not None and busy[seat] != IN_FLIGHT:
                    self._observe(seat, t)

    def _write(self, line: dict[str, JSON], t: int) -> None:
        if self.writer is not None:
            self.writer.add(line)
        self.last_written = t

    # ------------------------------------------------------------------ drivers

    def run_until(self, t: int) -> None:
        """Process everything due at or before ``t`` (the live game's wall clock)."""
        self.start()
        while True:
            due = self.next_time()
            if due is None or due > t or not self.step():
                return

    def submit(self, request: Request) -> Happening:
        """A request from a seat without a bot (a person), arriving now at ``request.t``."""
        self.run_until(request.t)
        result: list[Happening] = []
        listener = self.listener

        def keep(happening: Happening) -> None:
            result.append(happening)
            if listener is not None:
                listener(happening)

        self.listener = keep
        try:
            self._arrive(request)
        finally:
            self.listener = listener
        return result[-1]

    def run(self, limit_ms: int = 6 * 3_600_000, pace: Callable[[int], None] | None = None) -> None:
        """Run to the end of the game on the virtual clock (I-50).

        ``pace(t)`` is called before each step at time t (the tournament's
        ``real_time_factor`` sleeps there). RuntimeError if the game is still going at
        ``limit_ms`` or nothing is left to happen - a driver bug, never a rule outcome.
        """
        self.start()
        step, state = self.step, self.state
        if pace is None:
            if self._process(False, limit_ms):
                raise RuntimeError(f"the game did not end within {limit_ms} ms")
        else:
            while True:
                due = self.next_time()
                if due is not None:
                    pace(due)
                if not step():
                    break
                if state.clock > limit_ms:
                    raise RuntimeError(f"the game did not end within {limit_ms} ms")
        if self.state.phase != "game_over":
            raise RuntimeError("the table ran out of things to do before the game ended")
        self.close_record()

    plays_paced = True
    """:meth:`play` takes ``pace`` and ``watch`` (``stoptable simulate --real-time-factor``)."""

    def play(
        self,
        bots: Sequence[StopItBot],
        max_actions: int = 0,
        pace: Callable[[int], None] | None = None,
        watch: Callable[[Happening], None] | None = None,
    ) -> int:
        """The synchronous-driver entry point of the GameSpec: ``bots[k]`` plays seat k,
        and the game runs to its end on the virtual clock (I-50); requests processed.

        ``pace`` and ``watch`` are I-55's watch mode: ``pace(t)`` before each step (see
        :meth:`run`), ``watch`` sees every happening (as the table's ``listener``).
        ``max_actions`` is unused: a real-time game is bounded by :meth:`run`'s time limit.
        """
        self.bots = dict(enumerate(bots))
        self._seat_bots()
        if watch is not None:
            self.listener = watch
        before = self.processed
        self.run(pace=pace)
        return self.processed - before

    def close_record(self) -> None:
        """Write a final clock line if a rejected request moved the clock past the record."""
        if self.state.clock > self.last_written:
            self._write({"clock": self.state.clock}, self.state.clock)


def sim_ruleset(**options: object) -> Ruleset:
    """The simulation's ruleset: the standard one with ``min_pause_ms`` 0 (I-37).

    Rulesets are frozen, so the same options give the same one back from a cache: the
    simulator asks for one per game, and checking the options and building the dataclass
    twice (preset, then overrides) cost as much as dealing the cards. Options that cannot
    be a cache key (not hashable) are checked anew each time.
    """
    key = tuple((name, type(value), value) for name, value in options.items())  # 1 != True
    try:
        return _sim_ruleset(key)
    except TypeError:  # an unhashable value: from_options says what is wrong with it
        return Ruleset.from_options("stopit-standard", {"min_pause_ms": 0, **options})


@lru_cache(maxsize=64)
def _sim_ruleset(options: tuple[tuple[str, type, object], ...]) -> Ruleset:
    values = {name: value for name, _, value in options}
    return Ruleset.from_options("stopit-standard", {"min_pause_ms": 0, **values})
