"""The one guarded entry of Socket.IO: whatever a client sends gets an answer or is dropped.

python-socketio decodes a packet and runs a handler in a task of its own; anything that
raises on the way (a truncated JSON, ``42/table,{"action":1}``, a binary frame, a handler
called with three arguments instead of one) ends in a logged traceback and, for an event
with an ack id, no ack at all. :class:`GuardedServer` takes over the decoding of every
Engine.IO message and wraps every handler, so that (protocol.md, "Hostile input"):

* a packet that cannot be read, or an event that is not ``[name, args...]`` with a known
  name and the right number of JSON-safe arguments, is answered with a ``malformed`` ack
  when it carries an ack id, and is dropped otherwise;
* each such answer is a strike against the connection; a connection that keeps sending
  garbage (more than ``garbage_burst`` strikes at once, refilled at ``garbage_per_s``) is
  closed;
* nothing is logged per message: :class:`LogLimiter` writes one short counted line per
  connection and cause at most once a minute, and never more lines a second than its rate
  in the whole process, so no input can make the log grow faster than a fixed rate.

Engine.IO frames that are not packets at all (``zzz``, an empty frame) never get this far:
:mod:`stoptable.server.edge` checks them at the ASGI edge.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

import orjson
import socketio
from socketio import packet as sio_packet

from stoptable.server import acks, lean

log = logging.getLogger("stoptable.server")

Handler = Callable[..., Awaitable[Any]]

MAX_EVENT_NAME: Final = 64
"""Characters of an event name; the protocol's names have at most 6."""

RESERVED_EVENTS: Final = frozenset({"connect", "disconnect", "connect_error", "message"})
"""Names a client may not send as events: Socket.IO would call the connect handler."""

_HEAD: Final = re.compile(r"([0-9])(?:[0-9]{1,10}-)?(/[^,]{0,256},)?([0-9]{1,15})?")
"""A Socket.IO packet's type, namespace and ack id, read before (and whatever) its JSON."""


def cut(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters for an answer or a log line (``…`` marks a cut).

    >>> cut("x" * 100, 5)
    'xxxxx…'
    """
    return text if len(text) <= limit else text[:limit] + "…"


@dataclass
class Bucket:
    """A token bucket: ``burst`` at once, refilled at ``rate`` a second."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class LogLimiter:
    """Counted, rate-limited log lines for refused input.

    Per ``(connection, cause)`` the first occurrence is logged, later ones are counted and
    folded into the next line, written at most once every ``every_s`` seconds. Across the
    process at most ``burst`` lines at once and ``rate`` a second are written; what the
    global bucket swallows is counted into the next line that gets through. Entries are
    forgotten when their connection goes (:meth:`forget`) and the table of entries is
    bounded (``max_keys``), so the limiter's memory is bounded too.
    """

    def __init__(
        self,
        logger: logging.Logger = log,
        rate: float = 2.0,
        burst: int = 20,
        every_s: float = 60.0,
        max_keys: int = 10_000,
    ) -> None:
        self.logger = logger
        self.bucket = Bucket(rate, float(burst))
        self.every_s = every_s
        self.max_keys = max_keys
        self.entries: dict[tuple[str, str], list[float]] = {}
        self.swallowed = 0
        self.lines = 0

    def note(self, conn: str, cause: str, detail: str = "") -> None:
        """One refused message of ``cause`` from ``conn``; logs a line if it is time."""
        now = time.monotonic()
        key = (conn, cause)
        entry = self.entries.get(key)
        if entry is None:
            if len(self.entries) >= self.max_keys:
                self.entries.clear()
            entry = self.entries[key] = [0.0, -self.every_s]
        entry[0] += 1
        if now - entry[1] < self.every_s:
            return
        if not self.bucket.allow(now):
            self.swallowed += 1
            return
        count, entry[0], entry[1] = int(entry[0]), 0.0, now
        extra = f" (+{self.swallowed} lines suppressed)" if self.swallowed else ""
        self.swallowed = 0
        self.lines += 1
        self.logger.warning(
            "refused %s from %s x%d: %s%s", cause, conn, count, cut(detail, 120), extra
        )

    def forget(self, conn: str) -> None:
        for key in [k for k in self.entries if k[0] == conn]:
            del self.entries[key]


def json_safe(args: tuple[Any, ...]) -> bool:
    """Whether ``args`` can be written back as JSON: no lone surrogate in a string or a
    key, no integer beyond 64 bits (orjson refuses both, and the state and record writers
    are orjson)."""
    try:
        orjson.dumps(args)
    except (orjson.JSONEncodeError, TypeError):
        return False
    return True


class GuardedServer(socketio.AsyncServer):  # type: ignore[misc]
    """``socketio.AsyncServer`` whose decoding and handlers never raise (module docstring)."""

    def __init__(
        self,
        *,
        garbage_burst: int = 20,
        garbage_per_s: float = 0.5,
        limiter: LogLimiter | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.garbage_burst = garbage_burst
        self.garbage_per_s = garbage_per_s
        self.limiter = limiter if limiter is not None else LogLimiter()
        self.strikes: dict[str, Bucket] = {}
        self.closed_for_garbage = 0
        self.inline_events: frozenset[str] = frozenset()
        """Events a lean connection's reader handles itself (:meth:`_handle_event`)."""

    # ------------------------------------------------------------------ decoding

    async def _handle_eio_message(self, eio_sid: str, data: Any) -> None:
        try:
            await self._guarded_message(eio_sid, data)
        except Exception as exc:  # a bug of ours: one short counted line, never a traceback
            self.limiter.note(eio_sid, f"error {type(exc).__name__}", str(exc))

    async def _guarded_message(self, eio_sid: str, data: Any) -> None:
        if not isinstance(data, str):
            await self.garbage(eio_sid, "binary frame", "this server takes no binary data")
            return
        head = _HEAD.match(data)
        namespace = head.group(2)[:-1] if head and head.group(2) else None
        ack_id = int(head.group(3)) if head and head.group(3) and head.group(1) == "2" else None
        try:
            pkt = self.packet_class(encoded_packet=data)
        except (ValueError, TypeError, IndexError, KeyError, RecursionError) as exc:
            await self.garbage(eio_sid, "undecodable packet", cut(str(exc)), namespace, ack_id)
            return
        kind = pkt.packet_type
        if kind == sio_packet.CONNECT:
            await self._handle_connect(eio_sid, pkt.namespace, pkt.data)
        elif kind == sio_packet.DISCONNECT:
            await self._handle_disconnect(eio_sid, pkt.namespace, self.reason.CLIENT_DISCONNECT)
        elif kind == sio_packet.EVENT:
            event = pkt.data
            if not isinstance(event, list) or not event or not isinstance(event[0], str):
                await self.garbage(
                    eio_sid, "not an event", "an event is [name, ...]", pkt.namespace, pkt.id
                )
            elif len(event[0]) > MAX_EVENT_NAME or event[0] in RESERVED_EVENTS:
                await self.garbage(
                    eio_sid,
                    "unknown event",
                    f"unknown message {cut(event[0], 40)!r}",
                    pkt.namespace,
                    pkt.id,
                )
            else:
                await self._handle_event(eio_sid, pkt.namespace, pkt.id, event)
        else:  # acks (the server asks for none), binary packets, CONNECT_ERROR, unknown
            await self.garbage(eio_sid, f"packet type {kind!s:.3}", "unexpected packet type")

    async def _handle_event(
        self, eio_sid: str, namespace: str | None, ack_id: int | None, data: list[Any]
    ) -> None:
        """An event of ``inline_events`` from a lean connection (:mod:`.lean`) is handled
        and acked in its reader's task, without the task per event of python-socketio:
        the connection's next frame is read once it is answered (an ``action`` waits for
        its ack anyway). Every other event, as python-socketio does."""
        socket = self.eio.sockets.get(eio_sid) if data[0] in self.inline_events else None
        wire = getattr(socket, "queue", None)
        if not isinstance(wire, lean.Wire):
            await super()._handle_event(eio_sid, namespace, ack_id, data)
            return
        namespace = namespace or "/"
        sid = self.manager.sid_from_eio_sid(eio_sid, namespace)
        if not self.manager.is_connected(sid, namespace):
            return
        answer = await self._trigger_event(data[0], namespace, sid, *data[1:])
        if answer != self.not_handled and ack_id is not None:
            # python-socketio's _handle_event_internal, its ACK written straight to the wire
            args = [] if answer is None else list(answer) if isinstance(answer, tuple) else [answer]
            ack = self.packet_class(sio_packet.ACK, namespace=namespace, id=ack_id, data=args)
            await wire.send(socket, ["4" + ack.encode()])

    async def garbage(
        self,
        eio_sid: str,
        cause: str,
        message: str,
        namespace: str | None = None,
        ack_id: int | None = None,
    ) -> None:
        """Answer (or drop) one message that is garbage, and strike its connection."""
        self.limiter.note(eio_sid, cause, message)
        if ack_id is not None and self.manager.sid_from_eio_sid(eio_sid, namespace or "/"):
            await self._send_packet(
                eio_sid,
                self.packet_class(
                    sio_packet.ACK,
                    namespace=namespace,
                    id=ack_id,
                    data=[acks.malformed(message)],
                ),
            )
        bucket = self.strikes.get(eio_sid)
        if bucket is None:
            bucket = self.strikes[eio_sid] = Bucket(self.garbage_per_s, float(self.garbage_burst))
        if not bucket.allow():
            self.closed_for_garbage += 1
            self.strikes.pop(eio_sid, None)
            self.limiter.note(eio_sid, "closed", "too much garbage")
            await self.close_now(eio_sid)

    async def close_now(self, eio_sid: str) -> None:
        """Close a connection whether or not its client answers Engine.IO's CLOSE packet:
        a WebSocket's writer is told to stop, which closes the socket itself (a client that
        ignores CLOSE would otherwise keep the connection, and keep sending)."""
        socket = self.eio.sockets.get(eio_sid)
        await self.eio.disconnect(eio_sid)
        if socket is not None and socket.upgraded:
            await socket.queue.put(None)

    async def _handle_eio_disconnect(self, eio_sid: str, reason: Any = None) -> None:
        self.strikes.pop(eio_sid, None)
        self.limiter.forget(eio_sid)
        try:
            await super()._handle_eio_disconnect(eio_sid, reason)
        except Exception as exc:
            self.limiter.note(eio_sid, f"error {type(exc).__name__}", str(exc))
        # Engine.IO closing a lean connection itself (a missed pong: its CLOSE packet is
        # never queued once the ping check failed) leaves the lean reader waiting on the
        # WebSocket, which a client that still answers WebSocket pings keeps open: close it
        # (python-engineio's own reader gives up after ping interval plus timeout)
        wire = getattr(self.eio.sockets.get(eio_sid), "queue", None)
        if isinstance(wire, lean.Wire):
            wire.close()

    # ------------------------------------------------------------------ handlers

    def guarded(self, handler: Handler, arity: int, namespace: str) -> Handler:
        """``handler(sid, *args)`` that takes at most ``arity`` JSON-safe arguments and
        answers ``malformed`` instead of raising."""
        name = getattr(handler, "__name__", "handler")

        async def run(sid: str, *args: Any) -> Any:
            eio_sid = self.manager.eio_sid_from_sid(sid, namespace) or sid
            if len(args) > arity:
                message = f"{name} takes {arity} argument{'s' if arity != 1 else ''}"
                await self.garbage(eio_sid, f"{name} arguments", message)
                return acks.malformed(message)
            if not json_safe(args):
                message = "not JSON: a lone surrogate or an integer beyond 64 bits"
                await self.garbage(eio_sid, f"{name} not JSON", message)
                return acks.malformed(message)
            try:
                return await handler(sid, *args)
            except Exception as exc:
                self.limiter.note(eio_sid, f"{name} {type(exc).__name__}", str(exc))
                return acks.malformed("the message could not be processed")

        run.__name__ = name
        return run

    def guarded_catch_all(self, handler: Handler, namespace: str) -> Handler:
        """The ``*`` handler (an unknown event name): a strike, and what it answers."""

        async def run(event: str, sid: str, *args: Any) -> Any:
            eio_sid = self.manager.eio_sid_from_sid(sid, namespace) or sid
            await self.garbage(eio_sid, "unknown event", f"unknown message {cut(str(event), 40)!r}")
            try:
                return await handler(event, sid, *args)
            except Exception as exc:
                self.limiter.note(eio_sid, f"* {type(exc).__name__}", str(exc))
                return acks.malformed("the message could not be processed")

        return run
