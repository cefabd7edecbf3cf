"""One live table: the only writer of its game state (protocol.md §3-§5).

Everything that touches a table goes through its inbox and is handled by one asyncio task,
in arrival order: actions of people and bots, connections, resumes, and ticks of its own
timers. Each change is committed to the store before it is acknowledged or broadcast.

Time is the server's: ``t`` is ms since play started (stored with every line, so a restart
carries on from the stored times). The steps a game asks for (:meth:`next_step`) are taken
here: chance at once (or after the spec's timing delay, e.g. the pause before a new Stop
round), TIMER steps when the clock reaches them (written as ``{"clock": t}`` lines unless
the step's events carry their own line), WINDOW steps after the spec's delay. After an
action the spec's timing policy may start a grace during which some actions are held
(queued and acknowledged when processed).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import socketio

from stoptable.core.errors import IllegalAction, InvalidNotation, RecordError
from stoptable.core.game import GameSpec
from stoptable.core.protocol import JSON, Event, Step, StepKind
from stoptable.server.botplay import RETRY_MS, BotSeats, line_of
from stoptable.server.chat import ChatRoom
from stoptable.server.clock import TurnClock
from stoptable.server.fanout import Fanout
from stoptable.server.people import Roster
from stoptable.server.store import Store

log = logging.getLogger("stoptable.server")

MAX_STEPS: Final = 10_000
PASSIVE: Final = frozenset({"hello", "resume", "bye"})
"""Inbox items that change no game state (:meth:`Table.settle` serves them between steps)."""


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class Held:
    seat: int
    data: dict[str, JSON]
    t: int
    ack: asyncio.Future[dict[str, JSON]] | None


class Table:
    """A table's state, seats, clocks and connections, driven by :meth:`run`."""

    def __init__(
        self,
        *,
        table_id: str,
        ruleset: str,
        spec: GameSpec,
        state: Any,
        store: Store,
        sio: socketio.AsyncServer,
        seq: int,
        started_ms: int | None,
        last_t: int,
        bots: BotSeats,
        people: dict[int, str | None],
        clock: TurnClock | None,
        round_pause_ms: int,
        resume_limit: int,
    ) -> None:
        self.id = table_id
        self.ruleset = ruleset
        self.spec = spec
        self.state = state
        self.store = store
        self.seq = seq
        self.started_ms = started_ms
        self.last_t = last_t
        self.bots = bots
        self.people = people
        """Person seats -> token hash (None while free)."""
        self.clock = clock
        self.round_pause_ms = round_pause_ms
        self.absent: set[int] = set()
        self.fanout = Fanout(table_id, sio, resume_limit)
        self.held: list[Held] = []
        self.grace_until: int | None = None
        self.step_seen: tuple[Step, int] | None = None
        self.change = 0
        self.inbox: deque[tuple[Any, ...]] = deque()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.on_over: Callable[[Table], None] | None = None
        self.broken = False
        self.roster = Roster.empty(state.seats)
        """Names, bots and the next table (protocol.md §8); the lobby fills it in."""
        self.chat: ChatRoom | None = None
        self.arriving: int | None = None

    # ------------------------------------------------------------------ facts

    @property
    def phase(self) -> str:
        if self.state.result() is not None:
            return "over"
        return "playing" if self.started_ms is not None else "waiting"

    def free_seats(self) -> list[int]:
        return [k for k, token in sorted(self.people.items()) if token is None]

    def now(self) -> int:
        """ms since play started, never below a stored time (the clock only moves on)."""
        if self.started_ms is None:
            return self.last_t
        return max(now_ms() - self.started_ms, self.last_t)

    def holding(self) -> bool:
        """A grace or window runs: some actions wait (S-62)."""
        if self.grace_until is not None:
            return True
        step = self.state.next_step()
        return step is not None and step.kind is StepKind.WINDOW

    def is_held(self, action: Any) -> bool:
        timing = self.spec.timing
        if timing is None or self.phase != "playing":
            return False
        return self.holding() and timing.held(self.state, action)

    def legal(self, seat: int) -> list[Any]:
        """What ``seat`` may send now (protocol §3): nothing before play, nothing held."""
        if self.phase != "playing":
            return []
        acts: list[Any] = list(self.state.legal_actions(seat))
        if self.spec.timing is not None and self.holding():
            acts = [a for a in acts if not self.spec.timing.held(self.state, a)]
        return acts

    def state_message(self, seat: int | None) -> dict[str, JSON]:
        result = self.state.result()
        return {
            "seq": self.seq,
            "seat": seat,
            "view": self.state.view(seat),
            "legal": [] if seat is None else [line_of(a) for a in self.legal(seat)],
            "clock": None if self.clock is None else self.clock.to_json(self.now(), self.absent),
            "players": self.players(),
            "next": self.roster.next,
            "result": None
            if result is None
            else {
                "termination": result.termination,
                "scores": list(result.scores),
                "winners": list(result.winners),
                "ranks": list(result.ranks),
            },
        }

    def players(self) -> list[JSON]:
        connected = {k for k, sids in self.fanout.conns.items() if sids and k is not None}
        if self.arriving is not None:
            connected.add(self.arriving)
        return self.roster.players(connected, self.absent)

    # ------------------------------------------------------------------ the task

    def start_task(self) -> None:
        self.task = asyncio.create_task(self.run(), name=f"table-{self.id}")
        self.post(("tick",))

    def post(self, item: tuple[Any, ...]) -> None:
        self.inbox.append(item)
        self.wake.set()

    def horizon(self) -> int:
        """How far the table's time may run now: :meth:`now`, but never past the stamp of
        an action that has arrived and waits in the inbox (I-30: requests are processed
        in arrival order and checked against the state at *their* time; a timer, a window
        or a bot due later must not go first because the table was busy)."""
        t = self.now()
        for item in self.inbox:
            if item[0] == "action" and item[3] < t:
                t = item[3]
        return max(t, self.last_t)

    async def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    async def run(self) -> None:
        while True:
            if not self.inbox:
                self.wake.clear()
                await self.wake.wait()
                continue
            item = self.inbox.popleft()
            try:
                await self.handle(item)
                if self.started_ms is not None and not self.broken:
                    await self.settle()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: error while handling %s", self.id, item[0])
                if item[0] == "action":
                    resolve(
                        item[4], {"ok": False, "reason": "unavailable", "rule": "", "message": ""}
                    )
                await self.reload()
            try:
                self.arm()
            except Exception:
                log.exception("table %s: cannot arm its timer", self.id)

    def arm(self) -> None:
        """Wake the task at the next deadline."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        due = self.deadline()
        if due is None:
            return
        delay = max(0.0, (due - self.now()) / 1000)
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(delay, self.post, ("tick",))

    def deadline(self) -> int | None:
        if self.started_ms is None or self.phase == "over" or self.broken:
            return None
        times: list[int] = []
        step = self.state.next_step()
        if step is not None:
            times.append(self.step_due(step, self.now()))
        if self.grace_until is not None:
            times.append(self.grace_until)
        bot = self.bots.deadline()
        if bot is not None:
            times.append(bot)
        if self.clock is not None:
            for due in (self.clock.deadline(), self.clock.gone_deadline()):
                if due is not None:
                    times.append(due)
        return min(times) if times else None

    async def handle(self, item: tuple[Any, ...]) -> None:
        kind = item[0]
        if kind == "action":
            _, seat, data, t, ack = item
            if seat in self.absent:
                self.absent.discard(seat)
                self.bump()
            await self.submit(seat, data, max(t, self.last_t), ack)
        elif kind == "hello":
            await self.hello(item[1], item[2])
        elif kind == "resume":
            await self.resume(item[1], item[2], item[3])
        elif kind == "bye":
            if self.bye(item[1], item[2]):
                await self.broadcast(self.seq, [])  # the seat is no longer present
        elif kind == "start":
            await self.begin()
        elif kind == "refresh":  # a name, a presence or the next table changed
            await self.broadcast(self.seq, [])

    # ------------------------------------------------------------------ play

    async def begin(self) -> None:
        """The last free seat was claimed: play starts now."""
        if self.started_ms is not None:
            return
        self.started_ms = now_ms() - self.last_t
        await self.store.set_phase(self.id, "playing", started_ms=self.started_ms)
        self.bump()
        await self.broadcast(self.seq, [])

    def bump(self) -> None:
        """Something changed: bots look again, clocks follow the seat to move."""
        self.change += 1
        if self.phase != "playing":
            return
        t = self.now()
        if self.clock is not None:
            to_move = self.state.to_move()
            controlled = to_move in self.bots.bots or to_move in self.absent
            self.clock.update(t, None if controlled else to_move)
        self.bots.schedule(t, self.change, self.state.actors(), self.absent)

    def step_due(self, step: Step, t: int) -> int:
        if step.kind is StepKind.TIMER:
            return step.at if step.at is not None else t
        if self.step_seen is None or self.step_seen[0] != step:
            self.step_seen = (step, t)
        timing = self.spec.timing
        delay = 0 if timing is None else timing.step_delay_ms(self.state, step, self.round_pause_ms)
        return self.step_seen[1] + delay

    async def submit(
        self,
        seat: int,
        data: dict[str, JSON],
        t: int,
        ack: asyncio.Future[dict[str, JSON]] | None,
    ) -> bool:
        """One action line from ``seat`` arriving at ``t``; True if it was applied."""
        try:
            action = self.spec.action_from_json(data, seat, t if self.spec.realtime else None)
        except (InvalidNotation, RecordError, KeyError, TypeError, ValueError) as exc:
            resolve(ack, malformed(str(exc)))
            return False
        if self.phase == "waiting":
            message = "play starts when every seat is taken"
            resolve(ack, {"ok": False, "reason": "not_started", "rule": "", "message": message})
            return False
        await self.steps(t)  # the engine itself refuses anything once the game is over
        if self.is_held(action):
            self.held.append(Held(seat, data, t, ack))
            return False
        return await self.apply(action, t, ack)

    async def apply(self, action: Any, t: int, ack: asyncio.Future[dict[str, JSON]] | None) -> bool:
        try:
            events = list(self.state.apply(action))
        except IllegalAction as exc:
            resolve(ack, {"ok": False, **exc.to_json()})
            return False
        except (InvalidNotation, RecordError) as exc:  # names a stack or seat that is not
            resolve(ack, malformed(str(exc)))
            return False
        lines = [dict(e.line) for e in events if e.line is not None]
        lines.append(action.to_json())
        at = len(lines)
        if self.spec.timing is not None:
            grace = self.spec.timing.grace_ms(self.state, action, events)
            if grace > 0:
                self.grace_until = t + grace
        # Chance steps due at once belong to the same transaction (a Stop & Go roll).
        for _ in range(MAX_STEPS):
            step = self.state.next_step()
            if step is None or step.kind is StepKind.TIMER or self.step_due(step, t) > t:
                break
            more = list(self.state.run_step(step))
            events += more
            lines += [dict(e.line) for e in more if e.line is not None]
        before = self.seq
        await self.commit(lines, t)
        resolve(ack, {"ok": True, "seq": before + at})
        self.bump()
        await self.broadcast(before, events)
        return True

    async def commit(self, lines: list[dict[str, JSON]], t: int) -> None:
        over = self.state.result() is not None
        if lines or over:
            await self.store.append(
                self.id, self.seq + 1, [(line, t) for line in lines], "over" if over else None
            )
        self.seq += len(lines)
        self.last_t = max(self.last_t, t)
        if over and self.on_over is not None:
            self.on_over(self)

    async def steps(self, t: int) -> bool:
        """Take every chance, timer and window step due by ``t``."""
        done = False
        for _ in range(MAX_STEPS):
            if self.phase != "playing":
                break
            step = self.state.next_step()
            if step is None:
                break
            due = self.step_due(step, t)
            if due > t:
                break
            events = list(self.state.run_step(step))
            lines = [dict(e.line) for e in events if e.line is not None]
            if step.kind is StepKind.TIMER and not lines:
                lines = [{"clock": due}]
            before = self.seq
            self.step_seen = None
            await self.commit(lines, due if step.kind is StepKind.TIMER else t)
            self.bump()
            await self.broadcast(before, events)
            done = True
        return done

    async def settle(self) -> None:
        """Do everything that is due now (steps, the end of a grace, bots, clocks).

        Connections waiting at the front of the inbox (hello, resume, bye: they change no
        state) are served between these steps: at a table whose bots keep finding
        something to do (real-time bots look again after every change), a newcomer would
        otherwise wait until play paused. Actions wait in the inbox as before; their stamps
        bound what is due (:meth:`horizon`), so nothing goes before them out of order."""
        for _ in range(MAX_STEPS):
            inbox = self.inbox
            while inbox and inbox[0][0] in PASSIVE:
                await self.handle(inbox.popleft())
            if self.phase != "playing":
                if self.held:  # the game ended: the engine refuses what waited
                    self.grace_until = None
                    await self.release(self.now())
                return
            t = self.horizon()
            if await self.steps(t):
                continue
            if self.grace_until is not None and t >= self.grace_until:
                self.grace_until = None
                if not await self.release(t):
                    self.bump()
                    await self.broadcast(self.seq, [])
                continue
            if self.held and not self.holding() and not await self.release(t):
                self.bump()
                await self.broadcast(self.seq, [])
                continue
            if self.clock is not None and await self.tick_clock(t):
                continue
            if await self.tick_bots(t):
                continue
            return

    async def release(self, t: int) -> bool:
        """Process held actions in arrival order while nothing holds them (S-62); True if
        one was applied (and so broadcast)."""
        applied = False
        while self.held and not self.holding():
            item = self.held.pop(0)
            try:
                action = self.spec.action_from_json(item.data, item.seat, None)
            except (InvalidNotation, RecordError, KeyError, TypeError, ValueError) as exc:
                resolve(item.ack, malformed(str(exc)))
                continue
            applied = await self.apply(action, t, item.ack) or applied
        return applied

    async def tick_clock(self, t: int) -> bool:
        clock = self.clock
        assert clock is not None
        seats = clock.gone(t)
        expired = clock.expire(t)
        if expired is not None:
            seats.append(expired)
        changed = False
        for seat in seats:
            if seat in self.people and seat not in self.absent:
                self.absent.add(seat)
                self.bots.stand_in(seat)
                changed = True
        if changed:
            self.bump()
            await self.broadcast(self.seq, [])
        return changed

    async def tick_bots(self, t: int) -> bool:
        bots = self.bots
        for seat, (arrival, data) in sorted(bots.flight.items(), key=lambda kv: kv[1][0]):
            if arrival <= t:
                del bots.flight[seat]
                ok = await self.submit(seat, data, max(arrival, self.last_t), None)
                if not ok:
                    bots.retry_at[seat] = t + RETRY_MS
                bots.due[seat] = max(t, bots.retry_at.get(seat, 0))
                return True
        for seat, due in sorted(bots.due.items(), key=lambda kv: kv[1]):
            if due > t:
                continue
            del bots.due[seat]
            bots.asked[seat] = self.change
            if self.spec.realtime:
                view = self.state.view(seat)
                if bots.thinks_long(seat, self.absent):
                    # a search bot (Stop it!'s ismcts: tens of ms an observation) thinks
                    # in a worker thread, as below; the loop meanwhile stamps other
                    # requests on arrival (I-30), and this table's task takes them in
                    # stamp order after it (``horizon``). The request is stamped from
                    # ``t``, when the bot saw the view, as when it thinks on the loop.
                    answer = await asyncio.to_thread(bots.answer, seat, t, view, self.absent)
                else:
                    answer = bots.answer(seat, t, view, self.absent)
                bots.fly(seat, t, answer)
                return True
            if seat not in self.state.actors():
                continue
            legal = self.legal(seat)
            if bots.thinks_long(seat, self.absent):
                # a search bot thinks in a worker thread: the loop serves the other tables
                # meanwhile (this table's task waits here, and only it changes the state)
                line = await asyncio.to_thread(bots.decide, seat, t, self.state, legal, self.absent)
            else:
                line = bots.decide(seat, t, self.state, legal, self.absent)
            if line is not None:
                await self.submit(seat, line, t, None)
            return True
        return False

    # ------------------------------------------------------------------ clients

    async def broadcast(self, before: int, events: list[Event]) -> None:
        await self.fanout.broadcast(before, self.seq, events, self.state_message)

    async def hello(self, sid: str, seat: int | None) -> None:
        arrives = seat is not None and not self.fanout.conns.get(seat)
        if arrives:
            # the others see the seat present (before the newcomer joins its room, so it
            # gets one first state, not two)
            self.arriving = seat
            await self.broadcast(self.seq, [])
            self.arriving = None
        joined = await self.fanout.hello(sid, seat, self.seq, self.state_message)
        if arrives and not joined:
            await self.broadcast(self.seq, [])  # it left before it joined: not present
        if joined and seat is not None and self.clock is not None:
            self.clock.gone_since.pop(seat, None)
        if joined and self.chat is not None:
            await self.chat.send_history(sid)

    def bye(self, sid: str, seat: int | None) -> bool:
        """A connection left; True if it was its seat's last."""
        if not self.fanout.bye(sid, seat) or seat is None:
            return False
        if self.clock is not None:
            self.clock.gone_since[seat] = self.now()
        return True

    async def resume(self, sid: str, seat: int | None, after: int) -> None:
        await self.fanout.resume(sid, seat, after, self.seq, self.state_message)
        if self.chat is not None:
            await self.chat.send_history(sid)

    # ------------------------------------------------------------------ recovery

    async def reload(self) -> None:
        """After an unexpected error: rebuild the state from the store (the truth)."""
        try:
            rows = await self.store.lines(self.id)
            row = await self.store.table(self.id)
            assert row is not None
            self.state = rebuild(self.spec, row.header, [line for _, line, _ in rows])
            self.seq = len(rows)
            self.last_t = max([t for _, _, t in rows], default=0)
            self.grace_until = None
            self.step_seen = None
            for item in self.held:
                resolve(item.ack, {"ok": False, "reason": "unavailable", "rule": "", "message": ""})
            self.held.clear()
            self.bump()
        except Exception:
            log.exception("table %s: cannot rebuild; it stops", self.id)
            self.broken = True


def rebuild(spec: GameSpec, header: dict[str, JSON], lines: list[dict[str, JSON]]) -> Any:
    """The state after ``lines`` of a record, through the game's replayer (no ``finish``:
    a window open at the end stays open, as it was live)."""
    from stoptable.core.records import parse_header

    replayer = spec.replayer
    state = replayer.setup(parse_header(header))
    for line in lines:
        replayer.apply_event(state, dict(line))
    return state


def malformed(message: str) -> dict[str, JSON]:
    return {"ok": False, "reason": "malformed", "rule": "", "message": message[:200]}


def resolve(ack: asyncio.Future[dict[str, JSON]] | None, value: dict[str, JSON]) -> None:
    if ack is not None and not ack.done():
        ack.set_result(value)
