"""The ASGI edge: what every HTTP request and WebSocket frame passes before the app sees it.

One small middleware (:class:`Edge`) in front of Socket.IO and FastAPI keeps the limits
that no handler can keep, because they concern bytes the app has not read yet
(operations.md, "Running it in public"):

* a request body is read here, at most ``max_body_bytes`` of it: a larger
  ``Content-Length`` is 413 before a byte is read, a chunked body is 413 as soon as it goes
  past, and the app gets the buffered body; a body that stalls for ``body_timeout_s``
  between two chunks is 408;
* an Engine.IO frame that is not a packet a client may send (``zzz``, an empty frame, a
  binary frame, a ``4`` not followed by a Socket.IO packet type) is dropped before
  Engine.IO's decoder (which raises on some of them outside any handler); more than
  ``bad_frames`` of them close the WebSocket, and a long-polling body with one is 400;
* every HTTP answer carries the security headers (:data:`SECURITY_HEADERS`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware

from stoptable.server.guard import LogLimiter

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-elem 'self'; "
    "style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The pages' Content-Security-Policy: no inline or foreign script, no frames, connections
to this origin only. ``style="…"`` attributes (which the client's templates use for
widths and card colours) are allowed; ``<style>`` elements and foreign sheets are not."""

SECURITY_HEADERS: Final = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)

SOCKETIO_PATH: Final = "/socket.io"

_CONTROL_FRAMES: Final = frozenset({"1", "2probe", "3", "3probe", "5", "6"})
"""Engine.IO packets other than messages that a client sends (close, probe, pong, upgrade,
noop)."""


def engineio_frame_ok(frame: object) -> bool:
    """Whether ``frame`` is an Engine.IO packet this server's clients send: a control
    packet, or ``4`` followed by a Socket.IO packet (which starts with its type digit).

    >>> [engineio_frame_ok(f) for f in ("3", "42/table,[]", "zzz", "4", "4{}", b"\\x04")]
    [True, True, False, False, False, False]
    """
    if not isinstance(frame, str):
        return False
    if frame in _CONTROL_FRAMES:
        return True
    return len(frame) >= 2 and frame[0] == "4" and frame[1] in "0123456"


async def _answer(send: Send, status: int, text: str, close: bool = True) -> None:
    headers = [(b"content-type", b"application/json"), *SECURITY_HEADERS]
    if close:
        headers.append((b"connection", b"close"))
    body = ('{"detail": "' + text + '"}').encode()
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Edge:
    """The middleware of the module docstring around ``app``."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int,
        body_timeout_s: float,
        bad_frames: int = 20,
        limiter: LogLimiter | None = None,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.body_timeout_s = body_timeout_s
        self.bad_frames = bad_frames
        self.limiter = limiter if limiter is not None else LogLimiter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":
            await self._http(scope, receive, send)
        elif kind == "websocket" and scope.get("path", "").startswith(SOCKETIO_PATH):
            await self.app(scope, self._frames(scope, receive), send)
        else:
            await self.app(scope, receive, send)

    def _peer(self, scope: Scope) -> str:
        client = scope.get("client")
        return str(client[0]) if client else "?"

    # ------------------------------------------------------------------ HTTP

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        if scope.get("method") in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send_with_headers)
            return
        length = self._content_length(scope)
        if length is not None and length > self.max_body_bytes:
            self.limiter.note(self._peer(scope), "body too large", f"{length} bytes")
            await _answer(send, 413, f"the body is over {self.max_body_bytes} bytes")
            return
        body = await self._read_body(scope, receive, send)
        if body is None:
            return
        path = scope.get("path", "")
        if path.startswith(SOCKETIO_PATH) and not self._polling_payload_ok(body):
            self.limiter.note(self._peer(scope), "bad polling payload", repr(body[:40]))
            await _answer(send, 400, "not an Engine.IO payload", close=False)
            return
        await self.app(scope, _replay(body, receive), send_with_headers)

    def _content_length(self, scope: Scope) -> int | None:
        for name, value in scope.get("headers", ()):
            if name.lower() == b"content-length":
                text = value.decode("latin-1").strip()
                return int(text) if text.isdigit() and len(text) < 20 else self.max_body_bytes + 1
        return None

    async def _read_body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None once an answer (413, 408) went out or the client left."""
        chunks: list[bytes] = []
        size = 0
        while True:
            try:
                message = await asyncio.wait_for(receive(), self.body_timeout_s)
            except TimeoutError:
                self.limiter.note(self._peer(scope), "body timeout", f"{size} bytes read")
                await _answer(send, 408, f"no body bytes for {self.body_timeout_s:g} s")
                return None
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                self.limiter.note(self._peer(scope), "body too large", "chunked")
                await _answer(send, 413, f"the body is over {self.max_body_bytes} bytes")
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _polling_payload_ok(self, body: bytes) -> bool:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return all(engineio_frame_ok(frame) for frame in text.split("\x1e"))

    # ------------------------------------------------------------------ WebSocket

    def _frames(self, scope: Scope, receive: Receive) -> Receive:
        """``receive`` that drops frames that are not Engine.IO packets, and ends the
        connection (a disconnect to the app, which closes the socket) after too many."""
        bad = 0
        peer = self._peer(scope)

        async def guarded() -> Message:
            nonlocal bad
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return message
                frame = message.get("text")
                if frame is None:
                    frame = message.get("bytes")
                if engineio_frame_ok(frame):
                    return message
                bad += 1
                self.limiter.note(peer, "bad frame", repr(frame)[:40])
                if bad > self.bad_frames:
                    self.limiter.note(peer, "closed", "too many bad frames")
                    return {"type": "websocket.disconnect", "code": 1008}

        return guarded


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` once, then waits for the client's disconnect."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class TrustedHosts(TrustedHostMiddleware):
    """Starlette's Host check, with a WebSocket handshake refused the WebSocket way.

    Starlette answers a foreign ``Host`` with an HTTP response even on a WebSocket scope,
    which uvicorn logs as an error ("returned without completing handshake") per
    attempt; a ``websocket.close`` before accepting is uvicorn's plain 403.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and not self.allow_any:
            host = Headers(scope=scope).get("host", "").lower()
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if not any(
                name == pattern or (pattern.startswith("*") and name.endswith(pattern[1:]))
                for pattern in self.allowed_hosts
            ):
                await send({"type": "websocket.close", "code": 1008})
                return
        await super().__call__(scope, receive, send)
