"""uvicorn as ``stoptable serve`` runs it: the connection-level limits no ASGI app can keep.

An ASGI app sees a request only once its headers are complete, and never sees a TCP
connection at all. So the limits on slow or numerous connections live in the HTTP protocol
class given to uvicorn (:func:`guarded_protocol`), and the one on accept errors in the
event loop's exception handler (:func:`quiet_accept_errors`):

* a connection must complete each request's headers within ``header_timeout_s`` of its
  start (or of the previous response): uvicorn has no such timeout, and half-open
  requests held 21,000 file descriptors in the audit until ``accept()`` failed;
* one client address holds at most ``connections_per_address`` connections at once; the
  next gets ``429`` and is closed before anything is read. The addresses of trusted
  proxies (``forwarded_allow_ips``, default ``127.0.0.1``) are exempt: their connections
  carry many clients, whose own addresses (from ``X-Forwarded-For``) the per-address
  limits of the app count instead;
* ``accept()`` failing for want of file descriptors is one counted log line, not a
  traceback per attempt (170,000 in 15 s in the audit);
* a WebSocket text frame that is not UTF-8 closes the connection (1007) with one counted
  line (:func:`guarded_websocket`), where uvicorn logs a traceback per frame.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Final

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from stoptable.server.config import Settings
from stoptable.server.guard import LogLimiter, log

TOO_MANY: Final = (
    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain\r\nconnection: close\r\n"
    b"content-length: 38\r\n\r\ntoo many connections from this address"
)
TIMED_OUT: Final = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain\r\nconnection: close\r\n"
    b"content-length: 22\r\n\r\nrequest headers too slow"
)


class Admission:
    """Open connections per client address (transports, so that a connection upgraded to
    a WebSocket, whose protocol object uvicorn replaces, still counts until it closes)."""

    def __init__(self, per_address: int, exempt: frozenset[str] = frozenset()) -> None:
        self.per_address = per_address
        self.exempt = exempt
        self.open: dict[str, set[asyncio.BaseTransport]] = {}

    def admit(self, address: str, transport: asyncio.BaseTransport) -> bool:
        if "*" in self.exempt or address in self.exempt:
            return True
        held = self.open.setdefault(address, set())
        if len(held) >= self.per_address:
            held -= {t for t in held if t.is_closing()}
        if len(held) >= self.per_address:
            return False
        held.add(transport)
        return True

    def release(self, address: str, transport: asyncio.BaseTransport) -> None:
        held = self.open.get(address)
        if held is not None:
            held.discard(transport)
            if not held:
                del self.open[address]


def guarded_protocol(settings: Settings, limiter: LogLimiter) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with the header timeout and the per-address cap."""
    proxies = frozenset(a.strip() for a in settings.forwarded_allow_ips.split(",") if a.strip())
    admission = Admission(settings.connections_per_address, proxies)
    timeout = settings.header_timeout_s

    class GuardedHttp(HttpToolsProtocol):
        header_timer: asyncio.TimerHandle | None = None
        address = "?"
        admitted = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.address = str(self.client[0]) if self.client else "?"
            if not admission.admit(self.address, transport):
                limiter.note(self.address, "connections per address", str(admission.per_address))
                with contextlib.suppress(Exception):
                    transport.write(TOO_MANY)
                transport.close()
                return
            self.admitted = True
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self.header_timer = self.loop.call_later(timeout, self._headers_too_slow)

        def _disarm(self) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None

        def _headers_too_slow(self) -> None:
            self.header_timer = None
            if not self.transport.is_closing() and (
                self.cycle is None or self.cycle.response_complete
            ):
                limiter.note(self.address, "header timeout", f"{timeout:g} s")
                with contextlib.suppress(Exception):
                    self.transport.write(TIMED_OUT)
                self.transport.close()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request's headers have the same time

        def data_received(self, data: bytes) -> None:
            if self.admitted:
                super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self.admitted:
                admission.release(self.address, self.transport)
            super().connection_lost(exc)

    return GuardedHttp


def guarded_websocket(limiter: LogLimiter) -> type[WebSocketsSansIOProtocol]:
    """uvicorn's sans-I/O WebSocket protocol, quiet about text frames that are not UTF-8."""

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        def send_receive_event_to_app(self) -> None:
            if self.curr_msg_data_type == "text" and not self.close_sent:
                data = b"".join(self.frames)
                try:
                    data.decode()
                except UnicodeDecodeError:
                    peer = str(self.client[0]) if self.client else "?"
                    limiter.note(peer, "invalid UTF-8", f"{len(data)} bytes")
                    self.frames = []
                    self.conn.send_close(1007)
                    self.handle_parser_exception()
                    return
            super().send_receive_event_to_app()

    return GuardedWebSocket


def quiet_accept_errors(limiter: LogLimiter) -> None:
    """Make the running loop log a failed ``accept()`` as a counted line, not a traceback
    (asyncio retries the accept itself a second later); anything else as before."""
    loop = asyncio.get_running_loop()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message", ""))
        if message.startswith("socket.accept() out of system resource"):
            limiter.note("accept", "accept failed", str(context.get("exception", "")))
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


def uvicorn_config(app: Any, settings: Settings, **overrides: Any) -> uvicorn.Config:
    """The uvicorn configuration of ``stoptable serve`` (the tests use it too)."""
    limiter = LogLimiter(log, rate=settings.log_lines_per_s)
    options: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "log_level": "warning",
        "lifespan": "on",
        "ws_max_size": 64 * 1024,
        "http": guarded_protocol(settings, limiter),
        "ws": guarded_websocket(limiter),
        "h11_max_incomplete_event_size": 16 * 1024,
        "timeout_keep_alive": 5,
        "proxy_headers": True,
        "forwarded_allow_ips": settings.forwarded_allow_ips,
    }
    if settings.redis is not None:
        # one of several processes (protocol.md §9): SIGTERM must hand the tables over and
        # exit within 10 s, so open connections get at most 3 s to finish
        options["timeout_graceful_shutdown"] = 3
    options.update(overrides)
    return uvicorn.Config(app, **options)
