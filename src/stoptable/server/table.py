"""One live table on the server: the runner of its :class:`~stoptable.live.TableMachine`.

The machine holds every rule of live play; this runner only gives it time and carries out
what it says. One asyncio task per table takes the inbox in arrival order, stamps ticks
from the wall clock (``t``: ms since play started, stored with every line, so a restart
carries on from the stored times), feeds the machine, and carries out its effects in
order: a commit through the :class:`~stoptable.server.store.Store` before the ack and the
publish through the :class:`~stoptable.server.fanout.Fanout` (protocol.md §5), a search
bot in a worker thread, the timer for the next wake-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from stoptable.core.game import GameSpec
from stoptable.core.protocol import JSON
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
    WakeAt,
)
from stoptable.live.inputs import PASSIVE, Act, BotReply, Connect, Input, Leave, Resume, Start, Tick
from stoptable.live.machine import TableMachine
from stoptable.server import acks
from stoptable.server.chat import ChatRoom
from stoptable.server.fanout import Fanout, stored_batch
from stoptable.server.metrics import Metrics
from stoptable.server.people import Roster
from stoptable.server.store import Fenced, Store

log = logging.getLogger("stoptable.server")


def now_ms() -> int:
    return int(time.time() * 1000)


class Refresh:
    """Inbox item: a name, a presence or the next table changed (protocol.md §8); every
    connection gets a new state."""


REFRESH = Refresh()

UNSAVED_KEPT = 64
"""Line-less event batches kept for the next commit (a game makes one or two between
lines; the cap only bounds a broken one)."""


class Table:
    """A table's runner: inbox, timer, store and connections around its machine."""

    def __init__(
        self,
        *,
        table_id: str,
        ruleset: str,
        machine: TableMachine,
        store: Store,
        fanout: Fanout,
        started_ms: int | None,
        people: dict[int, str | None],
    ) -> None:
        self.id = table_id
        self.ruleset = ruleset
        self.machine = machine
        self.store = store
        self.fanout = fanout
        self.started_ms = started_ms
        self.people = people
        """Person seats -> token hash (None while free)."""
        self.inbox: deque[Input | Refresh] = deque()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.tickets: dict[int, asyncio.Future[acks.Answer]] = {}
        self.numbers = itertools.count(1)
        self.on_over: Callable[[Table], None] | None = None
        self.on_lost: Callable[[Table], None] | None = None
        """Called once another process took the table over (a write came back
        :class:`~stoptable.server.store.Fenced`): this runner stops at once."""
        self.broken = False
        self.roster = Roster.empty(machine.state.seats)
        """Names, bots and the next table (protocol.md §8); the lobby fills it in."""
        self.chat: ChatRoom | None = None
        self.arriving: int | None = None
        self.stored_phase = machine.phase
        """The phase as stored: what the lobby says (the machine may be a batch ahead)."""
        self.metrics: Metrics | None = None
        """The process's metrics (the lobby sets them): stored lines are counted here."""
        self.unsaved: list[JSON] = []
        """Event batches published without a line of their own (a Stop cancel window
        closing): stored with the next commit (:meth:`commit`)."""
        self.submitted: dict[int, float] = {}
        """Ticket -> when its action was put in the inbox (``perf_counter``), while the
        process has metrics: the ``inbox`` phase of ``stoptable_action_phase_seconds``."""
        self.timing = False
        """An action is being handled: its commit and publish are timed as its phases."""

    # ------------------------------------------------------------------ facts

    def players(self) -> list[JSON]:
        """§8 ``players``: a person is present while connected and not marked absent."""
        connected = {k for k, sids in self.fanout.conns.items() if sids and k is not None}
        if self.arriving is not None:
            connected.add(self.arriving)
        return self.roster.players(connected, self.machine.absent)

    def with_people(self, state: acks.Answer) -> acks.Answer:
        """A state message with §8's ``players`` and ``next`` (the machine knows no names)."""
        return {**state, "players": self.players(), "next": self.roster.next}

    @property
    def spec(self) -> GameSpec:
        return self.machine.spec

    @property
    def state(self) -> Any:
        return self.machine.state

    @property
    def seq(self) -> int:
        return self.machine.seq

    @property
    def phase(self) -> str:
        return self.stored_phase

    def free_seats(self) -> list[int]:
        return [k for k, token in sorted(self.people.items()) if token is None]

    def now(self) -> int:
        """ms since play started, never below a stored time (the clock only moves on)."""
        last = self.machine.last_t
        if self.started_ms is None:
            return last
        return max(now_ms() - self.started_ms, last)

    def horizon(self) -> int:
        """How far the table's time may run now: :meth:`now`, but never past the stamp of
        an action that has arrived and waits in the inbox (I-30: a timer, a window or a
        bot due later must not go first because the table was busy)."""
        t = self.now()
        for item in self.inbox:
            if isinstance(item, Act) and item.t < t:
                t = item.t
        return t

    # ------------------------------------------------------------------ the way in

    def submit(self, seat: int, line: dict[str, JSON]) -> asyncio.Future[acks.Answer]:
        """An action line from ``seat``, stamped now; the future is its ack."""
        ticket = next(self.numbers)
        future: asyncio.Future[acks.Answer] = asyncio.get_running_loop().create_future()
        self.tickets[ticket] = future
        if self.metrics is not None:
            self.submitted[ticket] = time.perf_counter()
        self.post(Act(seat, line, self.now(), ticket))
        return future

    def connect(self, conn: str, seat: int | None) -> None:
        self.post(Connect(conn, seat, self.now()))

    def leave(self, conn: str, seat: int | None) -> None:
        self.post(Leave(conn, seat, self.now()))

    def resume(self, conn: str, seat: int | None, after: int) -> None:
        self.post(Resume(conn, seat, after, self.now()))

    def start(self) -> None:
        self.post(Start(self.now()))

    def tick(self) -> None:
        self.post(Tick(0))  # stamped when taken (:meth:`run`)

    def refresh(self) -> None:
        self.post(REFRESH)

    def post(self, item: Input | Refresh) -> None:
        self.inbox.append(item)
        self.wake.set()

    # ------------------------------------------------------------------ the task

    def start_task(self) -> None:
        self.task = asyncio.create_task(self.run(), name=f"table-{self.id}")
        self.tick()

    async def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        self.fail_waiting()

    def fail_waiting(self) -> None:
        """Every action still waiting for its ack is answered ``unavailable`` (the table
        stopped here; the client sees where it is from its next state)."""
        for ticket in list(self.tickets):
            self.answer(ticket, acks.UNAVAILABLE)

    async def run(self) -> None:
        while True:
            if not self.inbox:
                self.wake.clear()
                await self.wake.wait()
                continue
            item = self.inbox.popleft()
            if isinstance(item, Refresh):
                await self.publish_people()
                continue
            if isinstance(item, Tick):
                item = Tick(self.horizon())
            elif isinstance(item, BotReply):  # its time, too, never passes a waiting action
                item = dataclasses.replace(item, t=self.horizon())
            if self.broken and not isinstance(item, PASSIVE):
                if isinstance(item, Act) and item.ticket is not None:
                    self.answer(item.ticket, acks.UNAVAILABLE)
                continue
            try:
                gone = False
                if isinstance(item, Leave):
                    gone = self.fanout.bye(item.conn, item.seat) and item.seat is not None
                if self.metrics is not None and isinstance(item, Act) and item.ticket is not None:
                    await self.timed(item, item.ticket, self.metrics)
                else:
                    await self.carry_out(self.machine.feed(item))
                if gone:
                    await self.publish_people()  # the seat is no longer present
                if not isinstance(item, (*PASSIVE, Tick)):
                    await self.carry_out(self.machine.feed(Tick(self.horizon())))
            except asyncio.CancelledError:
                raise
            except Fenced:
                log.warning("table %s: driven by another process now; this one stops", self.id)
                self.fail_waiting()
                if self.on_lost is not None:
                    self.on_lost(self)
                return
            except Exception:
                log.exception(
                    "table %s: error while handling %s",
                    self.id,
                    type(item).__name__,
                    extra={"table": self.id},
                )
                if isinstance(item, Act) and item.ticket is not None:
                    self.answer(item.ticket, acks.UNAVAILABLE)
                await self.reload()

    async def timed(self, item: Act, ticket: int, metrics: Metrics) -> None:
        """An action, its phases timed (:data:`~stoptable.server.metrics.PHASES`): the
        inbox wait, the machine's step, then (in :meth:`carry_out`) commit and publish."""
        phase = metrics.phase
        start = time.perf_counter()
        queued = self.submitted.pop(ticket, None)
        if queued is not None:
            phase["inbox"].observe(start - queued)
        effects = self.machine.feed(item)
        phase["machine"].observe(time.perf_counter() - start)
        self.timing = True
        try:
            await self.carry_out(effects)
        finally:
            self.timing = False

    async def carry_out(self, effects: list[Effect]) -> None:
        """Each effect in order: nothing is announced before it is stored (§5)."""
        for effect in effects:
            if isinstance(effect, Commit):
                if self.timing and self.metrics is not None:
                    start = time.perf_counter()
                    await self.commit(effect)
                    self.metrics.phase["commit"].observe(time.perf_counter() - start)
                else:
                    await self.commit(effect)
                if effect.over:
                    self.stored_phase = "over"
                    if self.on_over is not None:
                        self.on_over(self)
            elif isinstance(effect, Ack):
                self.answer(effect.ticket, acks.ok(seq=effect.seq))
            elif isinstance(effect, Refuse):
                self.answer(effect.ticket, acks.refused(effect))
            elif isinstance(effect, Publish):
                if effect.before == effect.seq and effect.events:
                    self.keep_unsaved(stored_batch(effect.before, effect.seq, effect.events))
                start = time.perf_counter()
                players, after = self.players(), self.roster.next  # once for every seat
                states = {
                    k: {**v, "players": players, "next": after} for k, v in effect.states.items()
                }
                await self.fanout.broadcast(
                    effect.before, effect.seq, effect.events, states, self.state_of
                )
                if self.timing and self.metrics is not None:
                    self.metrics.phase["publish"].observe(time.perf_counter() - start)
            elif isinstance(effect, Greet):
                await self.greet(effect)
            elif isinstance(effect, CatchUp):
                await self.fanout.resume(
                    effect.conn,
                    effect.seat,
                    effect.after,
                    effect.seq,
                    self.with_people(effect.state),
                )
                if self.chat is not None:
                    await self.chat.send_history(effect.conn)
            elif isinstance(effect, SetPhase):
                self.started_ms = now_ms() - self.machine.last_t
                await self.store.set_phase(self.id, effect.phase, started_ms=self.started_ms)
                self.stored_phase = effect.phase
            elif isinstance(effect, AskBot):
                # a search bot thinks in a worker thread: the loop serves the other tables
                # meanwhile; this table's task waits here, and only it changes the state
                answer = await asyncio.to_thread(effect.think)
                self.queue_reply(BotReply(effect.seat, effect.question, answer, self.now()))
            elif isinstance(effect, WakeAt):
                self.arm(effect.t)

    async def commit(self, effect: Commit) -> None:
        """Store a change: its lines, and on its last line the events published since the
        last commit and its own (for ``resume`` after a restart) and the machine's live
        state (clock banks, absences), all in one transaction (protocol.md §5, §9)."""
        phase = "over" if effect.over else None
        published: list[JSON] = list(self.unsaved)
        if effect.events and effect.lines:
            last = effect.first + len(effect.lines) - 1
            published.append(stored_batch(effect.first - 1, last, effect.events))
        if not effect.lines:  # nothing to carry them: they wait for the next line
            await self.store.append(self.id, effect.first, effect.lines, phase)
            return
        await self.store.append(
            self.id,
            effect.first,
            effect.lines,
            phase,
            published=published or None,
            live=None if effect.live is None else dict(effect.live),
        )
        self.unsaved.clear()
        if self.metrics is not None:
            self.metrics.actions_stored.inc(len(effect.lines))

    def keep_unsaved(self, batch: list[JSON]) -> None:
        self.unsaved.append(batch)
        del self.unsaved[:-UNSAVED_KEPT]

    def queue_reply(self, reply: BotReply) -> None:
        """The bot's answer goes next, after the connections that came meanwhile: they
        change no state, and a table whose search bots keep thinking would otherwise
        keep a newcomer waiting until play paused."""
        at = 0
        while at < len(self.inbox) and isinstance(self.inbox[at], PASSIVE):
            at += 1
        self.inbox.insert(at, reply)
        self.wake.set()

    async def greet(self, effect: Greet) -> None:
        """A new connection: its first state, then the chat's history (§8). A seat's first
        connection is shown present to the others first (before the newcomer joins its
        room, so it gets one first state, not two)."""
        arrives = effect.seat is not None and not self.fanout.conns.get(effect.seat)
        if arrives:
            self.arriving = effect.seat
            await self.publish_people()
            self.arriving = None
        state = self.with_people(effect.state)
        joined = await self.fanout.hello(effect.conn, effect.seat, effect.seq, state)
        if arrives and not joined:
            await self.publish_people()  # it left before it joined: not present after all
        if joined and self.chat is not None:
            await self.chat.send_history(effect.conn)

    async def publish_people(self) -> None:
        """A state to every connection, with no events: names or presence changed."""
        await self.fanout.broadcast(self.seq, self.seq, [], {}, self.state_of)

    def state_of(self, seat: int | None) -> acks.Answer:
        """The state of a seat now (a seat the machine did not know was watched, or a
        change of names or presence)."""
        return self.with_people(self.machine.state_message(seat, self.now()))

    def answer(self, ticket: int, value: acks.Answer) -> None:
        self.submitted.pop(ticket, None)
        future = self.tickets.pop(ticket, None)
        if future is not None and not future.done():
            future.set_result(value)

    def arm(self, due: int) -> None:
        """Wake the task at ``due`` (table time)."""
        if self.timer is not None:
            self.timer.cancel()
        delay = max(0.0, (due - self.now()) / 1000)
        self.timer = asyncio.get_running_loop().call_later(delay, self.tick)

    # ------------------------------------------------------------------ recovery

    async def reload(self) -> None:
        """After an unexpected error: carry on from the store (the truth)."""
        try:
            rows = await self.store.lines(self.id)
            row = await self.store.table(self.id)
            assert row is not None
            state = self.spec.rebuild(row.header, [line for _, line, _ in rows])
            last_t = max([t for _, _, t in rows], default=0)
            await self.carry_out(self.machine.restore(state, len(rows), last_t, self.now()))
        except Exception:
            log.exception("table %s: cannot rebuild; it stops", self.id, extra={"table": self.id})
            self.broken = True
            for ticket in list(self.tickets):
                self.answer(ticket, acks.UNAVAILABLE)
