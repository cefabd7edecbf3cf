"""The live table as a machine: inputs in, effects out, no I/O and no clock of its own.

One :class:`TableMachine` holds one game while it is played live: the state, the seats'
bots and their schedule, the turn clocks and absences (protocol.md §4), Stop's S-62
graces, windows and held actions, and the continuous-time order of stop-it.md I-30 and
I-50..I-54. It is fed :mod:`~stoptable.live.inputs` (each stamped with the table's time
``t`` in ms) and answers :mod:`~stoptable.live.effects`, which a runner carries out in
order: the server's (:mod:`stoptable.server.table`) through its store and Socket.IO, the
simulator's (:mod:`stoptable.live.virtual`) on a virtual clock. Both run this one
machine, so the server and the simulator cannot disagree about timing.

Two places do all the work: :meth:`TableMachine._settle` takes whatever is due by a time
(steps the game asks for, graces ending, held actions, clocks, bots), one thing at a
time, and :meth:`TableMachine._changed` turns every change into commit, ack and publish.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from heapq import heappop, heappush
from typing import Any, Final

from stoptable.bots.stopit import _Base as StopItBase
from stoptable.core.driver import Decline
from stoptable.core.errors import IllegalAction, InvalidNotation, RecordError
from stoptable.core.game import GameSpec
from stoptable.core.protocol import JSON, Event, Step, StepKind
from stoptable.games.stopit.actions import CallStop, Grab, PlayStop
from stoptable.games.stopit.state import StopItState
from stoptable.games.stopit.views import lean_look
from stoptable.live.bots import (
    ARRIVAL,
    IN_FLIGHT,
    NATIVE_QUEUE,
    RETRY_MS,
    ReactionBots,
    TurnBots,
    queue_pop,
    queue_push,
    thinks_long,
)
from stoptable.live.clock import TurnClock
from stoptable.live.effects import (
    Ack,
    AskBot,
    CatchUp,
    Commit,
    Effect,
    Greet,
    Publish,
    Refuse,
    SetPhase,
    StateMessage,
    WakeAt,
)
from stoptable.live.inputs import Act, BotReply, Connect, Input, Leave, Resume, Start, Tick

MAX_STEPS: Final = 10_000
"""More changes than any game makes at one time: a game that asks for more is broken."""
ROUND_BUDGET: Final = 64
"""Changes a server's machine makes for one input before it lets the runner serve its
connections (:class:`WakeAt` now); a simulator's has no budget."""
CODEC_ERRORS: Final = (InvalidNotation, RecordError, KeyError, TypeError, ValueError)


def _probe() -> None:
    """A function whose type tells which build this module runs in (see COMPILED)."""


COMPILED: Final = not isinstance(_probe, types.FunctionType)
"""This module runs compiled (mypyc; its functions are then built-ins): the few loops that
are faster written out compiled and as a C call interpreted are split on this."""


def line_of(action: Any) -> dict[str, JSON]:
    """The action line a client would send: ``to_json()`` without ``seat`` and ``t``."""
    data: dict[str, JSON] = dict(action.to_json())
    data.pop("seat", None)
    data.pop("t", None)
    return data


@dataclass(frozen=True, slots=True)
class Happening:
    """One processed request or timer, for watchers (a terminal game's log, ``simulate
    --real-time-factor``): ``request`` is None for a timer; ``error`` is set when the
    request was refused."""

    t: int
    seat: int | None
    request: Any
    events: list[Event]
    error: IllegalAction | None = None


@dataclass(slots=True)
class Held:
    """An action that arrived during a grace or window (S-62) and waits, parsed."""

    seat: int
    action: Any
    t: int
    ticket: int | None


class TableMachine:
    """One live game. See the module docstring; ``feed`` is the only way in.

    ``bots`` are the bot seats (seat -> bot object); ``people`` the seats of persons,
    whom ``standin(seat)`` (the heuristic bot) replaces while the clock marks them absent.
    ``bot_delay_ms`` fixes every bot's delay (None: the bots' own; turn-based bots then
    think :data:`~stoptable.live.bots.DEFAULT_THINK_MS`). ``announce`` False is the
    simulator's mode: no acks, publishes or commits are made, the record's lines go to
    ``on_line`` and every happening to ``listener``.
    """

    def __init__(
        self,
        spec: GameSpec,
        state: Any,
        *,
        seq: int = 0,
        last_t: int = 0,
        playing: bool = False,
        bots: Mapping[int, Any] | None = None,
        people: Iterable[int] = (),
        standin: Callable[[int], Any] | None = None,
        clock: TurnClock | None = None,
        round_pause_ms: int = 0,
        bot_delay_ms: int | None = None,
        delay_scale: float = 1.0,
        announce: bool = True,
        on_line: Callable[[dict[str, JSON], int], None] | None = None,
        listener: Callable[[Happening], None] | None = None,
        live: Mapping[str, JSON] | None = None,
    ) -> None:
        self.spec = spec
        self.state = state
        self.seq = seq
        self.last_t = last_t
        self.playing = playing
        self.bots: dict[int, Any] = dict(bots or {})
        self.people = frozenset(people)
        self.standin = standin
        self.standins: dict[int, Any] = {}
        self.clock = clock
        self.round_pause_ms = round_pause_ms
        self.announce = announce
        self.on_line = on_line
        self.recording = announce or on_line is not None
        self.listener = listener
        self.absent: set[int] = set()
        self.watchers: dict[int | None, int] = {}
        """Open connections per seat (None: spectators)."""
        self.held: list[Held] = []
        self.grace_until: int | None = None
        self.step_seen: tuple[Step, int] | None = None
        self.change = 0
        self.question = 0
        self.waiting: int | None = None
        """The question an :class:`AskBot` put and no :class:`BotReply` answered yet."""
        self.out: list[Effect] = []
        self.tally: dict[str, int] = {}
        """Counted events by kind (``tallied_kinds``: Stop it!'s evaluations, I-55)."""
        self.processed = 0
        self.rejected = 0
        pacing = spec.pacing
        self.turn = TurnBots(think_ms=700 if bot_delay_ms is None else bot_delay_ms)
        self.reaction: ReactionBots | None = None
        if spec.realtime and pacing is not None:
            self.reaction = ReactionBots(
                pacing, self.bots, delay_scale=delay_scale, fixed_ms=bot_delay_ms
            )
        if live is not None:
            self._take_back(live, last_t)
        if playing:
            self._bump(last_t)

    def _take_back(self, live: Mapping[str, JSON], t: int) -> None:
        """The clock and absences of :meth:`live_state` as stored with the last line (a
        restart): the banks as they were then, the absent seats played by stand-ins."""
        clock, absent = live.get("clock"), live.get("absent")
        if self.clock is not None and isinstance(clock, dict):
            self.clock.restore(clock)
        if isinstance(absent, list):
            for seat in absent:
                if isinstance(seat, int) and seat in self.people:
                    self._absent(seat, t)

    def live_state(self) -> dict[str, JSON] | None:
        """What a restart needs that the record does not hold (protocol.md §9): the turn
        clock (:meth:`TurnClock.snapshot`) and the absent seats; None without a clock
        (nobody is ever absent then)."""
        if self.clock is None:
            return None
        return {"clock": self.clock.snapshot(), "absent": sorted(self.absent)}

    def reopen(self, t: int) -> None:
        """The table comes back at ``t`` after a restart or takeover (protocol.md §9).

        The time between its last stored line and ``t`` is nobody's: the running seat's
        clock carries on from where the last line left it (so a bank is given back at
        most the time since that line, never charged for the time the table was down).
        Nobody is connected yet, so every person's seat counts as gone since ``t``:
        seats nobody comes back to are marked absent after their turn time (§4)."""
        clock = self.clock
        if clock is None or not self.playing or self.over:
            return
        if clock.running is not None and t > self.last_t:
            clock.since += t - self.last_t
        for seat in self.people:
            if not self.watchers.get(seat):
                clock.gone_since.setdefault(seat, t)

    # ------------------------------------------------------------------ facts

    @property
    def over(self) -> bool:
        pacing = self.spec.pacing
        if pacing is not None:
            return pacing.over(self.state)
        return self.state.result() is not None

    @property
    def phase(self) -> str:
        if self.over:
            return "over"
        return "playing" if self.playing else "waiting"

    def holding(self) -> bool:
        """A grace or window runs: some actions wait (S-62)."""
        if self.grace_until is not None:
            return True
        step = self.state.next_step()
        return step is not None and step.kind is StepKind.WINDOW

    def is_held(self, action: Any) -> bool:
        timing = self.spec.timing
        if timing is None or not self.playing or self.over:
            return False
        return self.holding() and timing.held(self.state, action)

    def legal(self, seat: int) -> list[Any]:
        """What ``seat`` may send now (protocol §3): nothing before play, nothing held."""
        if not self.playing or self.over:
            return []
        acts: list[Any] = list(self.state.legal_actions(seat))
        timing = self.spec.timing
        if timing is not None and self.holding():
            acts = [a for a in acts if not timing.held(self.state, a)]
        return acts

    def legal_lines(self, seat: int) -> list[dict[str, JSON]]:
        """The lines of :meth:`legal` (``line_of`` each), from the state's own
        ``legal_lines`` where it has one (Stop it!: shared between the seats, no request
        built) and nothing is held back; read-only."""
        lines = getattr(self.state, "legal_lines", None)
        if lines is not None and self.playing and not self.over:
            timing = self.spec.timing
            if timing is None or not self.holding():
                result: list[dict[str, JSON]] = lines(seat)
                return result
        return [line_of(a) for a in self.legal(seat)]

    def player(self, seat: int) -> Any:
        """The bot that plays ``seat`` now (its own, or a stand-in while absent), or None."""
        bot = self.bots.get(seat)
        if bot is None and seat in self.absent:
            bot = self.standins.get(seat)
        return bot

    def state_message(self, seat: int | None, t: int) -> StateMessage:
        """The protocol.md §3 ``state`` of ``seat`` (None: a spectator) at ``t``."""
        result = self.state.result()
        return {
            "seq": self.seq,
            "seat": seat,
            "view": self.state.view(seat),
            "legal": [] if seat is None else self.legal_lines(seat),
            "clock": None if self.clock is None else self.clock.to_json(t, self.absent),
            "result": None
            if result is None
            else {
                "termination": result.termination,
                "scores": list(result.scores),
                "winners": list(result.winners),
                "ranks": list(result.ranks),
            },
        }

    def deadline(self) -> int | None:
        """When something is next due (a step, a grace's end, a bot, a clock), or None."""
        if not self.playing or self.over or self.waiting is not None:
            return None
        times: list[int] = []
        step = self.state.next_step()
        if step is not None:
            times.append(self._step_due(step, self.last_t))
        if self.grace_until is not None:
            times.append(self.grace_until)
        due = self.turn.deadline()
        if due is not None:
            times.append(due)
        if self.reaction is not None and self.reaction.queue:
            times.append(self.reaction.queue[0][0])
        if self.clock is not None:
            for due in (self.clock.deadline(), self.clock.gone_deadline()):
                if due is not None:
                    times.append(due)
        return min(times) if times else None

    # ------------------------------------------------------------------ the way in

    def feed(self, item: Input) -> list[Effect]:
        """Take one input; the effects to carry out, in order."""
        if isinstance(item, Act):
            self._act(item)
        elif isinstance(item, Tick):
            self._settle(item.t, ROUND_BUDGET if self.announce else MAX_STEPS)
        elif isinstance(item, Connect):
            self._connect(item)
        elif isinstance(item, Leave):
            self._leave(item)
        elif isinstance(item, Resume):
            message = self.state_message(item.seat, item.t)
            self.out.append(CatchUp(item.conn, item.seat, item.after, self.seq, message))
        elif isinstance(item, Start):
            self._start(item.t)
        elif isinstance(item, BotReply):
            self._reply(item)
            self._settle(item.t, ROUND_BUDGET if self.announce else MAX_STEPS)
        out, self.out = self.out, []
        return out

    def restore(self, state: Any, seq: int, last_t: int, t: int) -> list[Effect]:
        """After an error outside the machine (the store failed): carry on from ``state``,
        the truth as stored; whatever was held is refused as unavailable."""
        self.state = state
        self.seq = seq
        self.last_t = last_t
        self.grace_until = None
        self.step_seen = None
        self.waiting = None
        for item in self.held:
            self._refuse(item.ticket, "unavailable")
        self.held.clear()
        self._bump(max(t, last_t))
        out, self.out = self.out, []
        return out

    # ------------------------------------------------------------------ connections

    def _connect(self, item: Connect) -> None:
        self.watchers[item.seat] = self.watchers.get(item.seat, 0) + 1
        if item.seat is not None and self.clock is not None:
            self.clock.gone_since.pop(item.seat, None)
        message = self.state_message(item.seat, max(item.t, self.last_t))
        self.out.append(Greet(item.conn, item.seat, self.seq, message))

    def _leave(self, item: Leave) -> None:
        left = self.watchers.get(item.seat, 0) - 1
        if left > 0:
            self.watchers[item.seat] = left
            return
        self.watchers.pop(item.seat, None)
        if item.seat is not None and self.clock is not None:
            self.clock.gone_since[item.seat] = max(item.t, self.last_t)
            # the seat is absent after its turn time: a wake-up then, even while another
            # seat's long bank runs (nothing else would wake the table before it ends)
            due = self.deadline()
            if due is not None and self.announce:
                self.out.append(WakeAt(due))

    # ------------------------------------------------------------------ actions

    def _start(self, t: int) -> None:
        """The last free seat was claimed: play starts now."""
        if self.playing:
            return
        self.playing = True
        self.out.append(SetPhase("playing"))
        self._bump(t)
        self._publish(self.seq, [], t)

    def _act(self, item: Act) -> None:
        seat, t = item.seat, max(item.t, self.last_t)
        if seat in self.absent:
            self._present(seat, t)
        try:
            action = self.spec.action_from_json(item.line, seat, t if self.spec.realtime else None)
        except CODEC_ERRORS as exc:
            self._refuse(item.ticket, "malformed", message=str(exc))
            return
        if not self.playing:
            self._refuse(item.ticket, "not_started", message="play starts when every seat is taken")
            return
        self._advance(t)  # I-30: what was due before it arrived goes first
        if self.waiting is not None:
            # a search bot is thinking: the action waits its turn like a held one
            self.held.append(Held(seat, action, t, item.ticket))
            return
        if self.is_held(action):
            self.held.append(Held(seat, action, t, item.ticket))
            return
        self._apply(seat, action, t, item.ticket)

    def _present(self, seat: int, t: int) -> None:
        """Any action from an absent seat's person makes it present again (§4)."""
        self.absent.discard(seat)
        if self.reaction is not None and seat not in self.bots:
            self.reaction.remove(seat)
        self._bump(t)

    def _refuse(self, ticket: int | None, reason: str, rule: str = "", message: str = "") -> None:
        if ticket is not None:
            self.out.append(Refuse(ticket, reason, rule, message[:200]))

    def _apply(self, seat: int | None, action: Any, t: int, ticket: int | None) -> bool:
        """Apply ``action`` at ``t``; with due chance steps one change. True if applied."""
        state = self.state
        try:
            events = state.apply(action)
        except IllegalAction as exc:
            self.rejected += 1
            if ticket is not None:
                data = exc.to_json()
                self.out.append(
                    Refuse(ticket, str(data["reason"]), str(data["rule"]), str(data["message"]))
                )
            if self.listener is not None:
                self.listener(Happening(t, seat, action, [], exc))
            return False
        except (InvalidNotation, RecordError) as exc:  # names a stack or seat that is not
            self._refuse(ticket, "malformed", message=str(exc))
            return False
        self.processed += 1
        if self.listener is not None:
            self.listener(Happening(t, seat, action, events))
        lines: list[dict[str, JSON]] = []
        if self.recording:  # a simulation may keep no record
            lines = [dict(e.line) for e in events if e.line is not None]
            lines.append(action.to_json())
        at = len(lines)
        if self.reaction is None:
            # S-62's grace; chance steps due at once belong to the same change (a Stop &
            # Go roll). A continuous-time game's steps are taken in time order by
            # _run_reaction instead.
            timing = self.spec.timing
            if timing is not None:
                grace = timing.grace_ms(state, action, events)
                if grace > 0:
                    self.grace_until = t + grace
            events = list(events)
            for _ in range(MAX_STEPS):
                step = state.next_step()
                if step is None or step.kind is StepKind.TIMER or self._step_due(step, t) > t:
                    break
                more = list(state.run_step(step))
                events += more
                lines += [dict(e.line) for e in more if e.line is not None]
        self._changed(lines, t, events, ticket, at)
        return True

    def _changed(
        self,
        lines: list[dict[str, JSON]],
        t: int,
        events: list[Event],
        ticket: int | None = None,
        at: int = 0,
    ) -> None:
        """The one place a change becomes commit, ack and publish (in that order), and
        the bots and clocks look again.

        For continuous-time games this is I-53 (written out: a simulated game makes
        hundreds of changes): a public change wakes the idle bots; on an interruption, a
        bot holding a card looks at once."""
        first = self.seq
        announce = self.announce
        if announce:
            over = self.over
            if lines or over:
                lined = [(line, t) for line in lines]
                self.out.append(Commit(first + 1, lined, over, events, self.live_state()))
            if ticket is not None:
                self.out.append(Ack(ticket, first + at))
        elif lines and self.on_line is not None:
            for line in lines:
                self.on_line(line, t)
        self.seq = first + len(lines)
        if t > self.last_t:
            self.last_t = t
        reaction = self.reaction
        if reaction is None or self.clock is not None:
            self._bump(t)
        else:
            self.change += 1
        if reaction is not None:
            public = urgent = False
            quiet, urgent_kinds, tallied = reaction.quiet, reaction.urgent, reaction.tallied
            for event in events:
                kind = event.kind
                if kind not in quiet:
                    public = True
                    if kind in urgent_kinds:
                        urgent = True
                    if kind in tallied:
                        self.tally[kind] = self.tally.get(kind, 0) + 1
            busy = reaction.busy
            if public:  # mostly every bot is busy: none to wake
                if COMPILED:  # a native loop; `in` on a values view is a generic call there
                    idle = any(value is None for value in busy.values())
                else:
                    idle = None in busy.values()
                if idle:
                    reaction.public_change(t)
            if urgent:
                for seat in reaction.policy.urgent(self.state):
                    if seat in reaction.bots and busy[seat] != IN_FLIGHT:
                        self._observe(reaction, seat, t)
        if announce:
            self._publish(first, events, t)

    def _publish(self, before: int, events: list[Event], t: int) -> None:
        states = {seat: self.state_message(seat, t) for seat in self.watchers}
        self.out.append(Publish(before, self.seq, events, states))

    def _bump(self, t: int) -> None:
        """Something changed: clocks follow the seat to move, turn-based bots look again."""
        self.change += 1
        if not self.playing:
            return
        clock = self.clock
        if clock is not None:
            to_move = self.state.to_move()
            controlled = to_move in self.bots or to_move in self.absent
            clock.update(t, None if controlled else to_move)
        if self.reaction is None:
            seats = sorted(set(self.bots) | (self.absent & set(self.standins)))
            if seats:
                self.turn.schedule(seats, t, self.change, self.state.actors())

    # ------------------------------------------------------------------ time

    def _step_due(self, step: Step, t: int) -> int:
        if step.kind is StepKind.TIMER:
            return step.at if step.at is not None else t
        if self.step_seen is None or self.step_seen[0] != step:
            self.step_seen = (step, t)
        timing = self.spec.timing
        delay = 0 if timing is None else timing.step_delay_ms(self.state, step, self.round_pause_ms)
        return self.step_seen[1] + delay

    def _take_step(self, step: Step, due: int, t: int) -> None:
        """Take the chance, timer or window ``step``: one change."""
        events = list(self.state.run_step(step))
        lines = [dict(e.line) for e in events if e.line is not None]
        if step.kind is StepKind.TIMER and not lines:
            lines = [{"clock": due}]
        self.step_seen = None
        at = due if step.kind is StepKind.TIMER else t
        if self.listener is not None:
            self.listener(Happening(at, None, None, events))
        self._changed(lines, at, events)

    def _steps(self, t: int) -> bool:
        """Take every step due by ``t`` (turn-based games); True if one was taken."""
        done = False
        for _ in range(MAX_STEPS):
            if not self.playing or self.over:
                break
            step = self.state.next_step()
            if step is None:
                break
            due = self._step_due(step, t)
            if due > t:
                break
            self._take_step(step, due, t)
            done = True
        return done

    def _advance(self, t: int) -> None:
        """Before an action stamped ``t`` is applied: whatever fell due before it."""
        if not self.playing:
            return
        if self.reaction is not None:
            self._run_reaction(self.reaction, t, MAX_STEPS)
        else:
            self._steps(t)

    def _settle(self, t: int, budget: int) -> None:
        """Do what is due by ``t``, one change at a time, at most ``budget`` of them;
        then say when to wake (:class:`WakeAt`)."""
        if not self.playing:
            return
        t = max(t, self.last_t)
        reaction = self.reaction
        for _ in range(budget):
            if self.waiting is not None:
                return
            if self.over:
                if self.held:  # the game ended: the engine refuses what waited
                    self.grace_until = None
                    self._release(t)
                return
            if reaction is not None:
                if reaction.started is False:
                    self._start_reaction(reaction, t)
                if self._run_reaction(reaction, t, 1):
                    continue
            elif self._steps(t):
                continue
            if self.grace_until is not None and t >= self.grace_until:
                self.grace_until = None
                if not self._release(t):
                    self._bump(t)
                    self._publish(self.seq, [], t)
                continue
            if self.held and not self.holding() and not self._release(t):
                self._bump(t)
                self._publish(self.seq, [], t)
                continue
            if self.clock is not None and self._tick_clock(t):
                continue
            if reaction is None and self._ask_turn_bot(t):
                continue
            due = self.deadline()
            if due is not None and self.announce:
                self.out.append(WakeAt(due))
            return
        if self.announce:
            self.out.append(WakeAt(t))  # more is due: after the runner served its inbox

    def _release(self, t: int) -> bool:
        """Apply held actions in arrival order while nothing holds them (S-62); True if
        one was applied."""
        applied = False
        while self.held and not self.holding() and self.waiting is None:
            item = self.held.pop(0)
            applied = self._apply(item.seat, item.action, t, item.ticket) or applied
        return applied

    def _tick_clock(self, t: int) -> bool:
        clock = self.clock
        assert clock is not None
        seats = clock.gone(t)
        expired = clock.expire(t)
        if expired is not None:
            seats.append(expired)
        changed = False
        for seat in seats:
            if seat in self.people and seat not in self.absent:
                self._absent(seat, t)
                changed = True
        if changed:
            self._bump(t)
            self._publish(self.seq, [], t)
        return changed

    def _absent(self, seat: int, t: int) -> None:
        """The clock marks ``seat`` absent: the stand-in bot plays it (§4)."""
        self.absent.add(seat)
        if self.standin is None:
            return
        bot = self.standins.get(seat)
        if bot is None:
            bot = self.standins[seat] = self.standin(seat)
        if self.reaction is not None:
            self.reaction.add(seat, bot)
            self.reaction.wake(seat, t)

    # ------------------------------------------------------------------ turn-based bots

    def _ask_turn_bot(self, t: int) -> bool:
        """Ask the turn-based bot that is due by ``t``; True if one was."""
        seat = self.turn.next_due(t)
        if seat is None:
            return False
        self.turn.asked[seat] = self.change
        state = self.state
        if seat not in state.actors():
            return True
        bot = self.player(seat)
        legal = self.legal(seat)
        if bot is None or not legal:
            return True
        options: list[Any] = list(legal)
        if seat != state.to_move():
            options.append(Decline(seat))
        view = state.view(seat)
        if thinks_long(bot):
            self._ask(seat, lambda: bot.act(view, options))
            return True
        self._turn_answer(seat, bot.act(view, options), t)
        return True

    def _turn_answer(self, seat: int, choice: Any, t: int) -> None:
        if choice is None or isinstance(choice, Decline):
            return
        if self.is_held(choice):
            self.held.append(Held(seat, choice, t, None))
            return
        self._apply(seat, choice, t, None)

    def _ask(self, seat: int, think: Callable[[], Any]) -> None:
        self.question += 1
        self.waiting = self.question
        self.out.append(AskBot(seat, self.question, think))

    def _reply(self, item: BotReply) -> None:
        if item.question != self.waiting:
            return  # an answer nobody waits for any more (the table was restored)
        self.waiting = None
        t = max(item.t, self.last_t)
        if self.reaction is not None:
            self._sent(self.reaction, item.seat, t, item.answer)
        else:
            self._turn_answer(item.seat, item.answer, t)

    # ------------------------------------------------------------------ continuous time

    def _start_reaction(self, reaction: ReactionBots, t: int) -> None:
        """The setup is the first public change: every bot looks at the table."""
        reaction.started = True
        reaction.public_change(t)

    def _run_reaction(self, reaction: ReactionBots, t: int, limit: int) -> bool:
        """Process timers and queued bot items in time order up to ``t`` (at most
        ``limit`` of them); True if one was processed. Timers go before queued items of
        the same ms, as in replay (records.md §5.4); queued items by ``(t, seq)`` (I-54).
        A bot looks when its observation comes up, unless it was looked at since; a
        bot's request arrives, and then the bot looks at once (I-53).

        This is the simulator's hot loop, so the queue's handling is written out."""
        state = self.state
        queue, busy, looks, bots = reaction.queue, reaction.busy, reaction.looks, reaction.bots
        over, timers_idle = reaction.policy.over, reaction.policy.timers_idle
        lost = reaction.policy.lost
        fixed, scale = reaction.fixed_ms, reaction.delay_scale
        searching = reaction.long if self.announce else ()
        if not reaction.started:
            self._start_reaction(reaction, t)
        typed = reaction.typed
        if typed is not None and not searching:
            return self._run_stopit(reaction, typed, t, limit)
        done = False
        for _ in range(limit):
            if not timers_idle(state):  # idle timers mean a game going on: one call, not two
                if over(state):
                    return done
                step = state.next_step()
                if (
                    step is not None
                    and step.at is not None
                    and step.at <= t
                    and (not queue or step.at <= queue[0][0])
                ):
                    self._take_step(step, step.at, t)
                    done = True
                    continue
            if not queue or queue[0][0] > t:
                return done
            done = True
            at, seq, kind, seat, request = queue_pop(queue) if NATIVE_QUEUE else heappop(queue)
            if kind == ARRIVAL:
                if seat not in bots:
                    continue  # a stand-in that left: its request goes with it
                # Still in flight while processed, so the public change skips this bot;
                # it looks at once right after instead (I-53).
                if self.listener is None and lost(state, request):
                    self.rejected += 1  # refused as apply would, without an error to read
                    applied = False
                else:
                    # self._apply, not a local alias: compiled, that is a native call; ``at``
                    # is request.t (an arrival is queued at its request's stamp), read
                    # without a generic attribute lookup
                    applied = self._apply(seat, request, at, None)
                if not applied and fixed is not None:
                    busy[seat] = None
                    reaction.wake(seat, at + RETRY_MS)
                    continue
            elif busy.get(seat) != seq:
                continue  # superseded: the bot was looked at since
            if seat in searching:
                self._observe(reaction, seat, at)
                return done
            ask, look = looks[seat]
            answer = ask(look(state, seat), at)
            if answer is None:
                busy[seat] = None
                continue
            # reaction.sent written out: the request arrives after its delay (I-51)
            request, delay = answer
            if fixed is not None:
                delay = fixed
            elif scale != 1.0:
                delay = round(delay * scale)
            arrival = at + delay if delay > 0 else at
            if request.t != arrival:
                request = replace(request, t=arrival)
            busy[seat] = IN_FLIGHT
            seq = reaction.seq
            reaction.seq = seq + 1
            if NATIVE_QUEUE:
                queue_push(queue, (arrival, seq, ARRIVAL, seat, request))
            else:
                heappush(queue, (arrival, seq, ARRIVAL, seat, request))
        return done

    def _run_stopit(
        self, reaction: ReactionBots, bots: dict[int, StopItBase], t: int, limit: int
    ) -> bool:
        """:meth:`_run_reaction` for Stop it! with lean bots of ``bots.stopit`` and no bot
        that searches (``reaction.typed``; compiled only, ``live.bots.TYPED_STOPIT``): the
        same steps in the same order, with the state, the pacing's shortcuts and the bots
        called by their own types. Compiled, those are native calls; through the
        game-neutral ``RealtimePolicy``, the ``looks`` pairs and ``Any`` they are generic
        ones (the simulator's hot loop). ``tests/live/test_stopit_loop.py`` holds the two
        loops to the same games."""
        state: StopItState = self.state
        queue, busy = reaction.queue, reaction.busy
        fixed, scale = reaction.fixed_ms, reaction.delay_scale
        done = False
        for _ in range(limit):
            # the pacing's timers_idle and over: no timer runs while cards lie on stacks
            phase = state.phase
            if phase != "running" or not state.stack_total:
                if phase == "game_over":
                    return done
                step = state.next_step()
                if step is not None:
                    step_at = step.at
                    if (
                        step_at is not None
                        and step_at <= t
                        and (not queue or step_at <= queue[0][0])
                    ):
                        self._take_step(step, step_at, t)
                        done = True
                        continue
            if not queue or queue[0][0] > t:
                return done
            done = True
            at, seq, kind, seat, request = queue_pop(queue)
            if kind == ARRIVAL:
                if seat not in reaction.bots:
                    continue  # a stand-in that left: its request goes with it
                request_type = type(request)  # the pacing's lost: inserts, moves, Go never lose
                if (
                    self.listener is None
                    and (
                        request_type is Grab or request_type is CallStop or request_type is PlayStop
                    )
                    and state.lost_race(request)
                ):
                    self.rejected += 1  # refused as apply would, without an error to read
                    applied = False
                else:
                    applied = self._apply_stopit(state, seat, request, at)
                if not applied and fixed is not None:
                    busy[seat] = None
                    reaction.wake(seat, at + RETRY_MS)
                    continue
            elif busy.get(seat) != seq:
                continue  # superseded: the bot was looked at since
            answer = bots[seat].look(lean_look(state, seat), at)
            if answer is None:
                busy[seat] = None
                continue
            sent, delay = answer  # reaction.sent written out (I-51)
            if fixed is not None:
                delay = fixed
            elif scale != 1.0:
                delay = round(delay * scale)
            arrival = at + delay if delay > 0 else at
            if sent.t != arrival:
                sent = replace(sent, t=arrival)
            busy[seat] = IN_FLIGHT
            seq = reaction.seq
            reaction.seq = seq + 1
            queue_push(queue, (arrival, seq, ARRIVAL, seat, sent))
        return done

    def _apply_stopit(self, state: StopItState, seat: int, request: Any, t: int) -> bool:
        """:meth:`_apply` of a bot's request in :meth:`_run_stopit` (a continuous-time
        game, no ticket): the same, with the state's ``apply`` called by its own type
        (compiled: a native call, where ``self.state`` is ``Any`` and the call generic)."""
        try:
            events = state.apply(request)
        except IllegalAction as exc:
            self.rejected += 1
            if self.listener is not None:
                self.listener(Happening(t, seat, request, [], exc))
            return False
        except (InvalidNotation, RecordError):  # names a stack or seat that is not
            return False
        self.processed += 1
        if self.listener is not None:
            self.listener(Happening(t, seat, request, events))
        lines: list[dict[str, JSON]] = []
        if self.recording:  # a simulation may keep no record
            lines = [dict(e.line) for e in events if e.line is not None]
            lines.append(request.to_json())
        self._changed(lines, t, events, None, len(lines))
        return True

    def _observe(self, reaction: ReactionBots, seat: int, t: int) -> None:
        """Show the bot its seat at ``t``; queue what it answers (I-51)."""
        ask, look = reaction.looks[seat]
        shown = look(self.state, seat)
        if self.announce and seat in reaction.long:
            reaction.busy[seat] = IN_FLIGHT  # nothing else of its own until it answers
            self._ask(seat, lambda: (t, ask(shown, t)))
            return
        reaction.sent(seat, t, ask(shown, t))

    def _sent(self, reaction: ReactionBots, seat: int, t: int, answer: Any) -> None:
        """A search bot's answer to what it saw at its own time (``(seen, answer)``)."""
        if seat not in reaction.bots:
            return
        seen, reply = answer
        reaction.sent(seat, seen, reply)
