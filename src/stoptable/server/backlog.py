"""What one connection may have waiting to be sent: its backlog, bounded.

A client that stops reading (its TCP window full) would otherwise make the server keep
every frame meant for it until Engine.IO's ping check closes it, up to ping interval plus
ping timeout later: on a busy Stop it! table that was 13.6 MB for one client on the
library's path (python-engineio's packet queue grows while uvicorn's ``send`` waits for
the transport to drain) and unbounded on the lean path (:class:`.lean.Wire` writes
without waiting). Here each connection may have ``max_send_buffer_bytes`` waiting, in the
transport's write buffer (lean) or in the packet queue (the library's path); past that
it is dropped at once (its transport aborted, or its socket closed on long-polling), one
counted log line says so, and every other connection goes on as before. A reader that
catches up never meets the limit: a table's messages are a few kB a change.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engineio.async_drivers import asgi as eio_asgi

if TYPE_CHECKING:
    from stoptable.server.guard import LogLimiter

PACKET_OVERHEAD = 16
"""Bytes counted per queued packet besides its data (its frame and object, roughly)."""


def packet_size(pkt: Any) -> int:
    """The bytes a queued Engine.IO packet stands for (its data's length, plus overhead)."""
    data = getattr(pkt, "data", None)
    if isinstance(data, (str, bytes)):
        return len(data) + PACKET_OVERHEAD
    return PACKET_OVERHEAD


class Backlog:
    """The limit and what happens past it, for one Engine.IO server."""

    def __init__(self, eio: Any, limit: int, limiter: LogLimiter) -> None:
        self.eio = eio
        self.limit = limit
        self.limiter = limiter
        self.dropped = 0
        """Connections dropped for their backlog since start."""
        self.closing: set[asyncio.Task[Any]] = set()
        self.on_drop: Callable[[], None] | None = None
        """Called once per dropped connection (the server's metric)."""

    def drop(self, conn: str, waiting: int, transport: Any = None, socket: Any = None) -> None:
        """Drop a connection whose backlog passed the limit: its transport aborted (the
        reader then sees the disconnect and Engine.IO the close), or, on long-polling,
        which has no transport of its own, its Engine.IO socket closed."""
        self.dropped += 1
        if self.on_drop is not None:
            self.on_drop()
        self.limiter.note(conn, "send backlog", f"{waiting} bytes waiting, limit {self.limit}")
        if transport is not None:
            transport.abort()
        elif socket is not None:
            task = asyncio.ensure_future(socket.close(wait=False, abort=True))
            self.closing.add(task)
            task.add_done_callback(self.closing.discard)

    def overflowed(self, queue: BoundedQueue) -> None:
        """A packet queue passed the limit: the socket that owns it is dropped."""
        for sid, socket in list(self.eio.sockets.items()):
            if socket.queue is queue:
                transport = getattr(socket, "stoptable_transport", None)
                self.drop(sid, queue.waiting, transport, socket)
                return


class BoundedQueue(asyncio.Queue[Any]):
    """python-engineio's packet queue (``AsyncServer.create_queue``) with its waiting bytes
    counted: past the limit a packet is not queued and the owner is told once."""

    def __init__(self, backlog: Backlog) -> None:
        super().__init__()
        self.backlog = backlog
        self.waiting = 0
        self.over = False

    def put_nowait(self, item: Any) -> None:
        if item is not None:  # None is the writer's stop: always queued
            size = packet_size(item)
            if self.over or self.waiting + size > self.backlog.limit:
                if not self.over:
                    self.over = True
                    self.backlog.overflowed(self)
                return
            self.waiting += size
        super().put_nowait(item)

    def get_nowait(self) -> Any:
        item = super().get_nowait()
        if item is not None:
            self.waiting -= packet_size(item)
        return item


class BoundedWebSocket(eio_asgi.WebSocket):  # type: ignore[misc]
    """python-engineio's ASGI WebSocket driver, which also notes the connection's transport
    on its socket, so that :class:`Backlog` can drop it."""

    async def __call__(self, environ: dict[str, Any]) -> Any:
        socket = getattr(self.handler, "__self__", None)
        protocol = getattr(environ.get("asgi.send"), "__self__", None)
        transport = getattr(protocol, "transport", None)
        if socket is not None and transport is not None:
            socket.stoptable_transport = transport
        return await super().__call__(environ)


def install(eio: Any, limit: int, limiter: LogLimiter) -> Backlog:
    """Bound every connection's backlog on ``eio`` (an Engine.IO ``AsyncServer``), on the
    library's path; :mod:`.lean` reads ``eio.backlog`` for its own."""
    backlog = Backlog(eio, limit, limiter)
    eio.backlog = backlog
    eio.create_queue = lambda *args, **kwargs: BoundedQueue(backlog)
    eio._async = {**eio._async, "websocket": BoundedWebSocket}
    return backlog
