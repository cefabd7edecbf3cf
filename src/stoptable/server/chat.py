"""A table's chat (protocol.md §8): stored, rate-limited, history on connect and resume.

Chat is not part of the game: it never enters the record and never waits for the table's
task (a message is stored and sent from its own handler), so talking cannot slow play.
It keeps, per table, the latest messages in memory (the history every new connection
gets) and each seat's recent send times (the rate limit).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Final

import socketio

from stoptable.core.protocol import JSON
from stoptable.server.fanout import NAMESPACE, room
from stoptable.server.store import ChatRow, Store

HISTORY: Final = 50
"""Messages a client gets on connect and on resume."""
RATE_COUNT: Final = 5
RATE_WINDOW_S: Final = 10.0
"""A seat may have at most RATE_COUNT messages accepted in any RATE_WINDOW_S seconds."""


class ChatRoom:
    """The chat of one table."""

    def __init__(
        self,
        table_id: str,
        created_ms: int,
        store: Store,
        sio: socketio.AsyncServer,
        history: list[ChatRow],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.table_id = table_id
        self.created_ms = created_ms
        self.store = store
        self.sio = sio
        self.history: deque[ChatRow] = deque(history[-HISTORY:], maxlen=HISTORY)
        self.last_id = history[-1].id if history else 0
        self.sent: dict[int, deque[float]] = {}
        self.lock = asyncio.Lock()
        self.clock = clock

    def allow(self, seat: int) -> bool:
        """True if ``seat`` had fewer than RATE_COUNT messages accepted in the window."""
        now = self.clock()
        times = self.sent.setdefault(seat, deque())
        while times and now - times[0] >= RATE_WINDOW_S:
            times.popleft()
        return len(times) < RATE_COUNT

    async def say(self, seat: int, name: str, text: str, now_ms: int) -> ChatRow | None:
        """Store one message; None (nothing done) if ``seat`` is over its rate. It is
        committed when this returns, so before its ack; :meth:`send_all` sends it."""
        async with self.lock:  # ids grow by one per table, in commit order
            if not self.allow(seat):
                return None
            row = ChatRow(self.last_id + 1, seat, name, text, max(0, now_ms - self.created_ms))
            await self.store.add_chat(self.table_id, row)
            self.last_id = row.id
            self.sent[seat].append(self.clock())
            self.history.append(row)
        return row

    def message(self, rows: list[ChatRow]) -> dict[str, JSON]:
        return {"messages": [r.to_json() for r in rows]}

    async def send_history(self, sid: str) -> None:
        """The last HISTORY messages (possibly none) to one connection."""
        await self.sio.emit("chat", self.message(list(self.history)), to=sid, namespace=NAMESPACE)

    async def send_all(self, rows: list[ChatRow], seats: Iterable[int | None]) -> None:
        """``rows`` to every connection of the table: the room of each seat in ``seats``
        (the seats somebody is connected to, watchers as None).

        A connection whose first state is still on its way may get a message both live and
        in its history; clients keep messages by ``id``.
        """
        payload = self.message(rows)
        for seat in list(seats):
            target = room(self.table_id, seat)
            await self.sio.emit("chat", payload, room=target, namespace=NAMESPACE)
