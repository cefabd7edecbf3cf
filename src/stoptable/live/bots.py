"""The bots of a live table: when each is asked, in the two shapes the games have.

* :class:`TurnBots`: turn-based bots (``act(view, legal)``) are asked ``think_ms`` after a
  change when their seat is among ``state.actors()`` (once per change); a seat that is not
  the one to move gets a :class:`~stoptable.core.driver.Decline` among its choices.
* :class:`ReactionBots`: continuous-time bots (``observe(view, now)``) on the
  discrete-event schedule of stop-it.md I-50..I-54: a priority queue ordered by
  ``(t, seq)`` of observations and of requests on their way. After every public change at
  ``t`` each idle bot is observed at ``t + perceive`` (I-53); a bot whose request is
  processed is observed at once; ties go by scheduling order, never by seat (I-54).

Both only keep time and ask bots; the machine applies what they answer through its one
path for every action.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from heapq import heappush
from typing import Any, Final, cast

from stoptable.bots.stopit import _Base as StopItBase
from stoptable.core.game import RealtimePolicy
from stoptable.games.stopit.pacing import StopItPacing

DEFAULT_THINK_MS: Final = 700
"""A turn-based bot's human-like thinking time when neither table nor server fixes one."""
RETRY_MS: Final = 50
"""With a fixed bot delay (a server setting; tests use 0) a bot whose request was refused
looks again this much later instead of at once, so that a delay of 0 cannot spin."""

OBSERVE: Final = 0
ARRIVAL: Final = 1
IN_FLIGHT: Final = -1
"""``ReactionBots.busy`` of a bot whose request is on its way (no seq is negative)."""


def thinks_long(bot: Any) -> bool:
    """Whether ``bot`` searches (tens to hundreds of ms a decision): a server asks it away
    from its event loop (:class:`~stoptable.live.effects.AskBot`)."""
    return bool(getattr(bot, "thinks_long", False))


@dataclass
class TurnBots:
    """Who of the turn-based bots is asked when."""

    think_ms: int = DEFAULT_THINK_MS
    due: dict[int, int] = field(default_factory=dict)
    """Seat -> when it is asked."""
    asked: dict[int, int] = field(default_factory=dict)
    """Seat -> the change number it was last asked at (asked once per change)."""

    def schedule(self, seats: list[int], t: int, change: int, actors: list[int]) -> None:
        """After change number ``change`` at ``t``: the bot ``seats`` to move are asked."""
        for seat in seats:
            if seat in actors and seat not in self.due and self.asked.get(seat) != change:
                self.due[seat] = t + self.think_ms

    def deadline(self) -> int | None:
        return min(self.due.values()) if self.due else None

    def next_due(self, t: int) -> int | None:
        """The seat asked next if one is due by ``t`` (taken off the schedule), else None."""
        for seat, due in sorted(self.due.items(), key=lambda kv: kv[1]):
            if due <= t:
                del self.due[seat]
                return seat
        return None


Queued = tuple[int, int, int, int, Any]
"""``(t, seq, OBSERVE or ARRIVAL, seat, request or None)``."""


def _probe() -> None:
    """A function whose type tells which build this module runs in (see COMPILED)."""


COMPILED: Final = not isinstance(_probe, types.FunctionType)
"""This module runs compiled (mypyc): its functions are built-ins, not Python functions."""

NATIVE_QUEUE: Final = COMPILED
"""The schedule's queue is kept by :func:`queue_push` and :func:`queue_pop` (compiled:
native calls and compares) instead of ``heapq`` (interpreted: C calls, the faster there;
compiled, generic calls of a module's functions and a generic tuple compare per step)."""


TYPED_STOPIT: bool = COMPILED
"""A Stop it! schedule whose bots are all the compiled lean bots (``bots.stopit``) runs
the machine's typed loop (``TableMachine._run_stopit``: the game's state, pacing and bots
called by their own types, native calls compiled, where the generic loop calls them
through the game-neutral protocol, generic calls). Interpreted the two cost the same, so
only the compiled build takes it. Not ``Final``: read once per bot seated, from the
module's namespace in either build, so that tests patch it to run either loop in either
build (``tests/live/test_stopit_loop.py``)."""


def _before(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """``a < b`` for two queued items: by ``(t, seq)``; ``seq`` is never shared, so the
    tuples' own order never reaches the later fields (a request has no order)."""
    a_t = a[0]
    b_t = b[0]
    return a_t < b_t or (a_t == b_t and a[1] < b[1])


def queue_push(queue: list[Queued], item: Queued) -> None:
    """``heapq.heappush(queue, item)``, the same algorithm (``_siftdown`` from the end), so
    the list holds the same items in the same places as heapq would leave them.

    The items are handled as tuples of no fixed length (compiled: an object each, read
    by index): as ``Queued`` compiled code unboxes a tuple it reads into its five fields
    and boxes a new tuple for every store, which cost more than heapq's generic call."""
    heap: list[tuple[int, ...]] = cast(Any, queue)
    new: tuple[int, ...] = cast(Any, item)  # compiled: boxed once
    heap.append(new)
    pos = len(heap) - 1
    while pos > 0:
        parent_pos = (pos - 1) >> 1
        parent = heap[parent_pos]
        if not _before(new, parent):
            break
        heap[pos] = parent
        pos = parent_pos
    heap[pos] = new


def queue_pop(queue: list[Queued]) -> Queued:
    """``heapq.heappop(queue)``, the same algorithm: the last item moves to the root, sinks
    to a leaf by the smaller child (``_siftup``) and rises back (``_siftdown``)."""
    heap: list[tuple[int, ...]] = cast(Any, queue)
    last = heap.pop()
    if not heap:
        return cast(Queued, last)
    first = heap[0]
    end = len(heap)
    pos = 0
    child = 1
    while child < end:
        right = child + 1
        if right < end and not _before(heap[child], heap[right]):
            child = right
        heap[pos] = heap[child]
        pos = child
        child = 2 * pos + 1
    while pos > 0:
        parent_pos = (pos - 1) >> 1
        parent = heap[parent_pos]
        if not _before(last, parent):
            break
        heap[pos] = parent
        pos = parent_pos
    heap[pos] = last
    return cast(Queued, first)


Ask = Callable[[Any, int], tuple[Any, int] | None]
"""A bot's answer to what it is shown at a time: None, or a request and its delay (typed,
so that the compiled machine unpacks it natively: as ``Any`` it went through the
iterator protocol)."""


class ReactionBots:
    """The I-53 schedule of a continuous-time game's bots (``policy``: the game's facts).

    ``delay_scale`` scales every delay (the simulator's ``@F``); ``fixed_ms``, when set,
    replaces them (a server's fixed bot delay: observed at once, the request ``fixed_ms``
    later).
    """

    def __init__(
        self,
        policy: RealtimePolicy,
        bots: Mapping[int, Any],
        *,
        delay_scale: float = 1.0,
        fixed_ms: int | None = None,
    ) -> None:
        self.policy = policy
        self.quiet = policy.quiet_kinds
        self.urgent = policy.urgent_kinds
        self.tallied = policy.tallied_kinds
        self.delay_scale = delay_scale
        self.fixed_ms = fixed_ms
        self.bots: dict[int, Any] = {}
        self.busy: dict[int, int | None] = {}
        """Per bot: the seq of its scheduled observation, :data:`IN_FLIGHT` while its
        request is on its way, None when idle."""
        self.looks: dict[int, tuple[Ask, Callable[[Any, int], Any]]] = {}
        self.long: set[int] = set()
        """Seats whose bot searches (:func:`thinks_long`)."""
        self.queue: list[Queued] = []
        self.seq = 0
        self.started = False
        self.typed: dict[int, StopItBase] | None = None
        """The bots by seat, in :attr:`bots`' order, when :data:`TYPED_STOPIT` and the game
        is Stop it! and every bot is a lean one of ``bots.stopit`` (the machine then runs
        its typed loop); else None."""
        for seat, bot in bots.items():
            self.add(seat, bot)

    def add(self, seat: int, bot: Any) -> None:
        """Seat ``bot`` (idle; it looks at the next public change or :meth:`wake`)."""
        self.bots[seat] = bot
        self.busy[seat] = None
        self.looks[seat] = self.policy.show(bot)
        if thinks_long(bot):
            self.long.add(seat)
        self._type_bots()

    def remove(self, seat: int) -> None:
        """The seat's bot leaves: what it had queued is dropped when it comes up."""
        self.bots.pop(seat, None)
        self.busy.pop(seat, None)
        self.looks.pop(seat, None)
        self.long.discard(seat)
        self._type_bots()

    def _type_bots(self) -> None:
        """Set :attr:`typed` after a bot came or went."""
        self.typed = None
        if not TYPED_STOPIT or type(self.policy) is not StopItPacing:
            return
        typed: dict[int, StopItBase] = {}
        for seat, bot in self.bots.items():
            if not isinstance(bot, StopItBase) or not bot.lean_view or seat in self.long:
                return
            typed[seat] = bot
        self.typed = typed

    def perceive(self, bot: Any) -> int:
        if self.fixed_ms is not None:
            return 0
        delay = self.policy.perceive(bot)
        return delay if self.delay_scale == 1.0 else round(delay * self.delay_scale)

    def push(self, t: int, kind: int, seat: int, request: Any) -> int:
        seq = self.seq
        self.seq = seq + 1
        if NATIVE_QUEUE:
            queue_push(self.queue, (t, seq, kind, seat, request))
        else:
            heappush(self.queue, (t, seq, kind, seat, request))
        return seq

    def public_change(self, t: int) -> None:
        """I-53: every idle bot is observed at ``t + perceive`` (written out: this runs
        after almost every request)."""
        busy, queue, scale, fixed = self.busy, self.queue, self.delay_scale, self.fixed_ms
        typed = self.typed
        if typed is not None:  # Stop it!'s perceive by its bots' own type: native calls
            for seat, stopit_bot in typed.items():
                if busy[seat] is None:
                    if fixed is not None:
                        delay = 0
                    else:
                        delay = stopit_bot.reaction.sample("perceive")
                        if scale != 1.0:
                            delay = round(delay * scale)
                    seq = self.seq
                    self.seq = seq + 1
                    queue_push(queue, (t + delay, seq, OBSERVE, seat, None))
                    busy[seat] = seq
            return
        perceive = self.policy.perceive
        for seat, bot in self.bots.items():
            if busy[seat] is None:
                if fixed is not None:
                    delay = 0
                else:
                    delay = perceive(bot)
                    if scale != 1.0:
                        delay = round(delay * scale)
                seq = self.seq
                self.seq = seq + 1
                if NATIVE_QUEUE:
                    queue_push(queue, (t + delay, seq, OBSERVE, seat, None))
                else:
                    heappush(queue, (t + delay, seq, OBSERVE, seat, None))
                busy[seat] = seq

    def wake(self, seat: int, t: int) -> None:
        """Observe ``seat`` at ``t`` (a bot that was refused with a fixed delay, a new
        stand-in), unless something of its own is already scheduled."""
        if self.busy.get(seat, 0) is None:
            self.busy[seat] = self.push(t, OBSERVE, seat, None)

    def idle(self) -> bool:
        return None in self.busy.values()

    def sent(self, seat: int, t: int, answer: Any) -> None:
        """What ``seat``'s bot answered at ``t``: None, or ``(request, delay)``, which is
        queued to arrive after the delay, stamped with its arrival time (I-51)."""
        if answer is None:
            self.busy[seat] = None
            return
        request, delay = answer
        if self.fixed_ms is not None:
            delay = self.fixed_ms
        elif self.delay_scale != 1.0:
            delay = round(delay * self.delay_scale)
        arrival = t + delay if delay > 0 else t
        if request.t != arrival:
            request = replace(request, t=arrival)  # actions are frozen dataclasses
        self.busy[seat] = IN_FLIGHT
        seq = self.seq
        self.seq = seq + 1
        if NATIVE_QUEUE:
            queue_push(self.queue, (arrival, seq, ARRIVAL, seat, request))
        else:
            heappush(self.queue, (arrival, seq, ARRIVAL, seat, request))

    def head(self) -> int | None:
        return self.queue[0][0] if self.queue else None
