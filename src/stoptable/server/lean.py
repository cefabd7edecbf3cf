"""The lean Engine.IO WebSocket transport: the same frames, less CPU per message.

python-engineio serves a WebSocket with a reader that makes a task and a ``wait_for`` per
frame, and a writer task that takes each packet from the socket's queue (another
``wait_for`` per message) and hands it to uvicorn as an ASGI message. At the Stop it!
load (about 9 frames out and 1 in per person action) those hand-overs were a fifth of the
server's CPU (operations.md, "The people's client"). Here, for a connection that opens
straight on a WebSocket served by uvicorn's sans-I/O protocol:

* the reader awaits uvicorn's ``receive`` in the connection's own task, with no task or
  timer per frame (a client that goes silent is closed by Engine.IO's ping check and by
  uvicorn's WebSocket keep-alive, as before: when Engine.IO's check closes the socket,
  ``GuardedServer._handle_eio_disconnect`` closes the WebSocket under it);
* the socket's queue is replaced by a :class:`Wire` that writes each packet at once, as
  a WebSocket text frame, through the protocol's ``conn`` and ``transport``; a table's
  ``events`` and ``state`` for one connection leave in one ``transport.write`` (two
  frames, the same bytes as before: protocol.md is unchanged);
* an ``action`` is handled in the reader's task (:meth:`GuardedServer._handle_event`),
  without Socket.IO's task per event: a connection's actions are answered in turn.

It reaches into python-engineio's private parts (the server's ``_async`` drivers, the
socket's ``_websocket_handler`` and ``queue``) and uvicorn's protocol (``conn``,
``transport``, ``close_sent``), so the versions are pinned in pyproject.toml and
:func:`why_not` checks them at start-up: on any other version, or with anything missing,
the library's own path serves every connection (one log line says why). A connection
the lean path cannot serve (an upgrade from long-polling, another ASGI server) takes
the library's path too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from importlib import metadata
from typing import Any, Final

from engineio import async_socket, exceptions
from engineio import packet as eio_packet
from engineio.async_drivers import asgi as eio_asgi
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from stoptable.server.backlog import Backlog, BoundedWebSocket

log = logging.getLogger("stoptable.server")

PINNED: Final = {"python-engineio": "4.15.1", "python-socketio": "5.18.1"}
"""The versions whose private parts this module was written against (pyproject.toml pins
the same)."""

_PROTOCOL_PARTS: Final = ("conn", "transport", "close_sent", "send")
"""What a uvicorn WebSocket protocol object must have for :class:`Wire`."""


def why_not(eio: Any) -> str | None:
    """None when the lean transport can serve ``eio`` (an Engine.IO ``AsyncServer``);
    else why not, in a few words."""
    for name, pinned in PINNED.items():
        try:
            found = metadata.version(name)
        except metadata.PackageNotFoundError:
            return f"{name} is not installed"
        if found != pinned:
            return f"{name} {found} is not the pinned {pinned}"
    drivers = getattr(eio, "_async", None)
    if not isinstance(drivers, dict) or "websocket" not in drivers:
        return "engineio's server has no _async['websocket']"
    for part in ("_websocket_handler", "receive", "close", "check_ping_timeout"):
        if not callable(getattr(async_socket.AsyncSocket, part, None)):
            return f"engineio's AsyncSocket has no {part}"
    if not callable(getattr(WebSocketsSansIOProtocol, "send", None)):
        return "uvicorn's sans-I/O WebSocket protocol has no send"
    return None


def install(eio: Any) -> bool:
    """Serve ``eio``'s WebSocket connections the lean way when :func:`why_not` allows it;
    False (and one log line) when the library's own path stays."""
    reason = why_not(eio)
    if reason is not None:
        log.warning("lean Engine.IO transport off (%s): python-engineio's own path", reason)
        return False
    eio._async = {**eio._async, "websocket": LeanWebSocket}
    eio.lean_outbox = Outbox()
    return True


def lean(socket: Any) -> bool:
    """Whether an Engine.IO socket is served by :class:`Wire`."""
    return isinstance(getattr(socket, "queue", None), Wire)


class Outbox:
    """The lean connections with frames not yet written: all written once the loop has
    run what was ready when the first was queued. A table's change and the acks it
    answers are made in one turn of the loop and read in the next, so a person's
    ``events``, ``state`` and ack leave in one ``transport.write`` (one system call
    where python-engineio's writer made three)."""

    def __init__(self) -> None:
        self.dirty: list[Wire] = []

    def add(self, wire: Wire) -> None:
        if not self.dirty:
            asyncio.get_running_loop().call_soon(self.flush)
        self.dirty.append(wire)

    def flush(self) -> None:
        dirty, self.dirty = self.dirty, []
        for wire in dirty:
            wire.flush()


class Wire:
    """Stands in for an Engine.IO socket's packet queue once its WebSocket is served here:
    a packet put on it is made a WebSocket text frame at once and written with the
    connection's other frames of the same turn of the loop (:class:`Outbox`); ``None``
    (the writer's stop, in python-engineio) closes the WebSocket.

    Written without waiting for the transport to drain; a client that does not read is
    dropped once more than ``backlog.limit`` bytes wait in the transport's buffer
    (:mod:`.backlog`), else closed by its ping timeout."""

    def __init__(
        self, protocol: Any, outbox: Outbox, backlog: Backlog | None = None, conn: str = ""
    ) -> None:
        self.protocol = protocol
        self.outbox = outbox
        self.backlog = backlog
        self.conn = conn
        self.dirty = False
        self.closed = False
        self.closing: asyncio.Task[None] | None = None

    def write(self, texts: list[str]) -> None:
        """``texts`` as WebSocket text frames, written with this turn's others."""
        protocol = self.protocol
        if self.closed or protocol.close_sent or protocol.transport.is_closing():
            return
        conn = protocol.conn
        for text in texts:
            conn.send_text(text.encode())
        if not self.dirty:
            self.dirty = True
            self.outbox.add(self)

    def flush(self) -> None:
        """The frames made since the last flush, in one ``transport.write``."""
        self.dirty = False
        protocol = self.protocol
        if protocol.transport.is_closing():
            return
        data = b"".join(protocol.conn.data_to_send())
        if data:
            transport = protocol.transport
            transport.write(data)
            backlog = self.backlog
            if backlog is not None:
                waiting = transport.get_write_buffer_size()
                if waiting > backlog.limit:  # a client that does not read: dropped
                    self.closed = True
                    backlog.drop(self.conn, waiting, transport)

    async def send(self, socket: Any, texts: list[str]) -> None:
        """``texts`` to ``socket`` (whose queue this is) with the checks of
        ``AsyncSocket.send``: nothing to a closed socket, and a socket whose client missed
        its pong is closed instead."""
        if socket.closed or socket.closing:
            return
        if socket.last_ping and not await socket.check_ping_timeout():
            return
        self.write(texts)

    # the parts of asyncio.Queue that python-engineio's socket uses

    async def put(self, pkt: eio_packet.Packet | None) -> None:
        self.put_nowait(pkt)

    def put_nowait(self, pkt: eio_packet.Packet | None) -> None:
        if pkt is None:
            self.close()
            return
        encoded = pkt.encode()
        if isinstance(encoded, bytes):  # this server sends no binary data; kept whole
            if not (self.closed or self.protocol.close_sent):
                self.protocol.conn.send_binary(encoded)
                if not self.dirty:
                    self.dirty = True
                    self.outbox.add(self)
            return
        self.write([encoded])
        if pkt.packet_type == eio_packet.CLOSE:
            # Engine.IO's goodbye (a server disconnect, or a client that missed its pong):
            # the WebSocket closes after it, where python-engineio's reader would wait up
            # to a ping interval for a client that may be gone
            self.close()

    def get_nowait(self) -> eio_packet.Packet:
        raise asyncio.QueueEmpty

    def task_done(self) -> None:
        pass

    async def join(self) -> None:
        pass

    def empty(self) -> bool:
        return True

    def qsize(self) -> int:
        return 0

    def close(self) -> None:
        """Close the WebSocket (uvicorn sends the close frame and ends the reader)."""
        if self.closed:
            return
        self.closed = True
        if not self.protocol.close_sent and not self.protocol.transport.is_closing():
            self.closing = asyncio.ensure_future(self._close())

    async def _close(self) -> None:
        with contextlib.suppress(Exception):  # already gone: nothing to close
            await self.protocol.send({"type": "websocket.close"})


class LeanWebSocket:
    """python-engineio's ASGI ``WebSocket`` driver, replaced (``eio._async``): called with
    the socket's bound ``_websocket_handler`` and the server, then with the environ."""

    def __init__(self, handler: Any, server: Any) -> None:
        self.handler = handler
        self.server = server

    async def __call__(self, environ: dict[str, Any]) -> str:
        socket = getattr(self.handler, "__self__", None)
        send = environ["asgi.send"]
        protocol = getattr(send, "__self__", None)
        if (
            not isinstance(socket, async_socket.AsyncSocket)
            or socket.connected  # an upgrade from long-polling: the library's handshake
            or not isinstance(protocol, WebSocketsSansIOProtocol)
            or not all(hasattr(protocol, part) for part in _PROTOCOL_PARTS)
        ):
            driver = BoundedWebSocket if hasattr(self.server, "backlog") else eio_asgi.WebSocket
            result: str = await driver(self.handler, self.server)(environ)
            return result
        await send({"type": "websocket.accept"})
        backlog = getattr(self.server, "backlog", None)
        wire = Wire(protocol, self.server.lean_outbox, backlog, socket.sid)
        await serve(socket, wire, environ["asgi.receive"])
        return ""


async def serve(socket: Any, wire: Wire, receive: Any) -> None:
    """Read a WebSocket's frames until it closes: ``_websocket_handler`` of
    python-engineio for a connection opened on the WebSocket, without its writer task and
    its task and ``wait_for`` per frame."""
    server = socket.server
    socket.connected = True
    socket.upgraded = True
    pending: list[str] = []
    queue = socket.queue
    while not queue.empty():  # the OPEN packet, queued before the WebSocket was served
        pkt = queue.get_nowait()
        queue.task_done()
        if pkt is not None:
            pending.append(pkt.encode())
    socket.queue = wire
    wire.write(pending)
    limit = server.max_http_buffer_size
    on_message = server.handlers.get("message")  # python-socketio's, awaited in turn
    while True:
        message = await receive()
        if message["type"] != "websocket.receive":
            break
        data = message.get("text")
        if data is None:
            data = message.get("bytes")
        if data is None or len(data) > limit:
            break
        try:
            pkt = eio_packet.Packet(encoded_packet=data)
            if pkt.packet_type == eio_packet.MESSAGE and on_message is not None:
                await on_message(socket.sid, pkt.data)  # what receive() does, less its wrapper
            else:
                await socket.receive(pkt)
        except exceptions.UnknownPacketError:
            pass
        except exceptions.SocketIsClosedError:
            break
        except Exception:  # as python-engineio: log it, keep the connection
            server.logger.exception("Unknown receive error")
    wire.close()  # python-engineio's writer closes the WebSocket as it ends
    if wire.closing is not None:
        await wire.closing
    await socket.close(wait=False, abort=True, reason=server.reason.TRANSPORT_CLOSE)
