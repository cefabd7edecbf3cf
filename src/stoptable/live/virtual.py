"""The live table on a virtual clock: the simulator of continuous-time games (I-50).

:class:`VirtualTable` runs the very :class:`~stoptable.live.machine.TableMachine` that the
server runs on its wall clock, but time jumps from one due thing to the next (a timer, a
bot's observation, a request's arrival), so thousands of games run faster than real time
and the same ``(seed, bots, parameters)`` give the same game (I-50). A terminal game
drives it with the wall clock instead (:meth:`VirtualTable.run_until` and
:meth:`VirtualTable.submit` for the person's requests), with the very same bots.

Every accepted request is written to the record with its ``t``; every timer that fires is
written as the ``{"clock": t}`` line its first event carries, because replay fires timers
only when the clock moves (records.md §5.4) and the game may end on one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from stoptable.core.game import DriverFactory, GameSpec
from stoptable.core.records import RecordWriter
from stoptable.live.bots import ReactionBots
from stoptable.live.inputs import Tick
from stoptable.live.machine import MAX_STEPS, Happening, TableMachine

DAY_MS: Final = 6 * 3_600_000
"""How long a simulated game may run before it counts as a driver bug."""


class VirtualTable:
    """One continuous-time game between bots (and perhaps a person) on a virtual clock."""

    plays_paced = True
    """:meth:`play` takes ``pace`` and ``watch`` (``stoptable simulate --real-time-factor``)."""

    def __init__(
        self,
        spec: GameSpec,
        state: Any,
        bots: Mapping[int, Any] | None = None,
        *,
        writer: RecordWriter | None = None,
        delay_scale: float = 1.0,
        listener: Callable[[Happening], None] | None = None,
    ) -> None:
        if spec.pacing is None:
            raise ValueError(f"{spec.name} is not a continuous-time game")
        self.spec = spec
        self.writer = writer
        self.machine = TableMachine(
            spec,
            state,
            last_t=state.clock,
            playing=True,
            bots=bots,
            delay_scale=delay_scale,
            announce=False,
            on_line=None if writer is None else self._write,
            listener=listener,
        )

    def _write(self, line: dict[str, Any], t: int) -> None:
        assert self.writer is not None
        self.writer.add(line)

    # ------------------------------------------------------------------ facts

    @property
    def state(self) -> Any:
        return self.machine.state

    @property
    def reaction(self) -> ReactionBots:
        reaction = self.machine.reaction
        assert reaction is not None
        return reaction

    @property
    def delay_scale(self) -> float:
        """The factor on every bot delay (``heuristic@0.8``, ``--speed``)."""
        return self.reaction.delay_scale

    @property
    def over(self) -> bool:
        return self.machine.over

    @property
    def processed(self) -> int:
        """Requests applied."""
        return self.machine.processed

    @property
    def rejected(self) -> int:
        """Requests refused (lost races included)."""
        return self.machine.rejected

    @property
    def evaluations(self) -> int:
        """Evaluations so far (Stop it!'s statistic of I-55)."""
        return self.machine.tally.get("evaluation", 0)

    @property
    def listener(self) -> Callable[[Happening], None] | None:
        return self.machine.listener

    @listener.setter
    def listener(self, value: Callable[[Happening], None] | None) -> None:
        self.machine.listener = value

    def next_time(self) -> int | None:
        """When the next thing happens (a timer or a queued item), or None."""
        step = self.state.next_step()
        timer = None if step is None else step.at
        head = self.reaction.head()
        if head is None:
            return timer
        return head if timer is None or head < timer else timer

    # ------------------------------------------------------------------ running

    def start(self) -> None:
        """The setup is the first public change: every bot looks at the table."""
        reaction = self.reaction
        if not reaction.started:
            self.machine._start_reaction(reaction, self.state.clock)

    def step(self) -> bool:
        """Process the next timer or queued item; False when the game is over or idle."""
        self.start()
        due = self.next_time()
        if due is None or self.over:
            return False
        return self.machine._run_reaction(self.reaction, due, 1)

    def run_until(self, t: int) -> None:
        """Process everything due at or before ``t`` (the live game's wall clock)."""
        self.start()
        self.machine.feed(Tick(t))

    def submit(self, request: Any) -> Happening:
        """A request from a seat without a bot (a person), arriving at ``request.t``."""
        self.run_until(request.t)
        result: list[Happening] = []
        listener = self.machine.listener

        def keep(happening: Happening) -> None:
            result.append(happening)
            if listener is not None:
                listener(happening)

        self.machine.listener = keep
        try:
            self.machine._apply(request.seat, request, request.t, None)
        finally:
            self.machine.listener = listener
        return result[-1]

    def run(self, limit_ms: int = DAY_MS, pace: Callable[[int], None] | None = None) -> None:
        """Run to the end of the game on the virtual clock (I-50).

        ``pace(t)`` is called before each step at time t (the tournament's
        ``real_time_factor`` sleeps there). RuntimeError if the game is still going at
        ``limit_ms`` or nothing is left to happen - a driver bug, never a rule outcome.
        """
        self.start()
        machine, reaction = self.machine, self.reaction
        if pace is None:
            while not machine.over and self.next_time() is not None:
                machine._run_reaction(reaction, limit_ms, MAX_STEPS)
                if self.state.clock > limit_ms or (
                    not machine.over and (self.next_time() or 0) > limit_ms
                ):
                    raise RuntimeError(f"the game did not end within {limit_ms} ms")
        else:
            while True:
                due = self.next_time()
                if due is not None:
                    pace(due)
                if not self.step():
                    break
                if self.state.clock > limit_ms:
                    raise RuntimeError(f"the game did not end within {limit_ms} ms")
        if not machine.over:
            raise RuntimeError("the table ran out of things to do before the game ended")
        self.close_record()

    def play(
        self,
        bots: Sequence[Any],
        max_actions: int = 0,
        pace: Callable[[int], None] | None = None,
        watch: Callable[[Happening], None] | None = None,
    ) -> int:
        """The synchronous-driver entry point of the registry: ``bots[k]`` plays seat k,
        and the game runs to its end on the virtual clock (I-50); requests processed.

        ``pace`` and ``watch`` are I-55's watch mode: ``pace(t)`` before each step (see
        :meth:`run`), ``watch`` sees every happening. ``max_actions`` is unused: a
        real-time game is bounded by :meth:`run`'s time limit.
        """
        reaction = self.reaction
        for seat in list(reaction.bots):
            reaction.remove(seat)
        for seat, bot in enumerate(bots):
            reaction.add(seat, bot)
        self.machine.bots = dict(enumerate(bots))
        if watch is not None:
            self.machine.listener = watch
        before = self.processed
        self.run(pace=pace)
        return self.processed - before

    def close_record(self) -> None:
        """Write a final clock line if a refused request moved the clock past the record."""
        clock = self.state.clock
        if clock > self.machine.last_t:
            self.machine.last_t = clock
            if self.writer is not None:
                self.writer.add({"clock": clock})


def driver_for(spec: GameSpec) -> DriverFactory:
    """What plays ``spec``'s bots to the end: ``driver(state, writer=w).play(bots)``.

    A turn-based game brings its own synchronous driver; a continuous-time game is played
    by the live machine on a virtual clock."""
    if spec.driver is not None:
        return spec.driver
    if spec.pacing is None:
        raise ValueError(f"{spec.name} has no driver")

    def virtual(state: Any, writer: RecordWriter | None = None, **_: Any) -> VirtualTable:
        return VirtualTable(spec, state, writer=writer)

    virtual.plays_paced = True  # type: ignore[attr-defined]
    return virtual


def play_virtual(machine: TableMachine, limit_ms: int = DAY_MS) -> int:
    """Play ``machine``'s game to its end on a virtual clock, as the server would on its
    wall clock: every tick lands on the machine's next deadline (a bot's think time, a
    grace's end, a window, a round pause), never waiting. Any game, turn-based ones
    included (Stop in S-62's real time, with its graces and windows); the virtual time
    at the end. RuntimeError if nothing is left to happen before the end or the game
    runs past ``limit_ms``."""
    t = machine.last_t
    while not machine.over:
        machine.feed(Tick(t))
        if machine.over:
            break
        due = machine.deadline()
        if due is None or due > limit_ms:
            raise RuntimeError(f"the game stopped at {t} ms before its end")
        t = max(t, due)
    return t
