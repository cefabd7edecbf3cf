"""A lean Socket.IO client for the load generator: the real wire protocol, little else.

``server_load.py``'s people used python-socketio's ``AsyncClient``. On the 2-core machine
the generator runs beside the server it measures, and that client spent about as much CPU
per acked action as the server itself (1.6-1.8 ms: aiohttp's WebSocket reader, Engine.IO's
and Socket.IO's packet classes, a task per received event), so the server got half the
machine and the latency measured was as much the generator's as the server's. A person's
browser is on another machine; the server's cost per action does not depend on the client.

This client speaks exactly what a browser's socket.io client sends and reads (Engine.IO 4
over a WebSocket from the first request, Socket.IO 5 packets in text frames):

* it opens ``/socket.io/?EIO=4&transport=websocket``, reads the Engine.IO open packet
  (``0{...}``), then connects the namespace with its auth (``40/table,{...}``) and waits
  for the server's ``40`` (or ``44``, a refusal: :class:`ConnectError`);
* an Engine.IO ping (``2``) is answered with a pong (``3``);
* an event (``42/table,["state",{...}]``) goes to the handler registered with :meth:`on`,
  called in the reader's task (no task per message);
* :meth:`call` sends ``42/table,<id>["action",{...}]`` and waits for the ack
  ``43/table,<id>[...]`` with the same id.

JSON is orjson, as the server's ``wire.py`` and the old client's ``json=`` module. The
WebSocket is aiohttp's (python-socketio's own client uses it too), whose frame reader is
compiled, without per-message compression (the old client did not ask for it either).
``server_load.py --client socketio`` still runs python-socketio's client, to compare.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import orjson

Handler = Callable[[Any], Awaitable[None] | None]


class ConnectError(Exception):
    """The server refused the namespace connection (Socket.IO ``CONNECT_ERROR``)."""


class WireClient:
    """One connection to one namespace, with the subset of python-socketio's
    ``AsyncClient`` that the load generator uses: :meth:`on`, :meth:`connect`,
    :meth:`call`, :meth:`disconnect`."""

    def __init__(self, namespace: str = "/table") -> None:
        self.namespace = namespace
        self._prefix = f"{namespace},"
        self._handlers: dict[str, Handler] = {}
        self._acks: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._session: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None
        self._connected: asyncio.Future[None] | None = None

    def on(self, event: str, handler: Handler, namespace: str | None = None) -> None:
        self._handlers[event] = handler

    async def connect(self, url: str, auth: dict[str, Any]) -> None:
        ws_url = url.replace("http://", "ws://", 1).rstrip("/")
        ws_url += "/socket.io/?EIO=4&transport=websocket"
        self._session = aiohttp.ClientSession()
        self._ws = ws = await self._session.ws_connect(ws_url, compress=0, max_msg_size=2**22)
        opened = await ws.receive_str()
        if not opened.startswith("0"):
            raise ConnectError(f"not an Engine.IO open packet: {opened!r}")
        self._connected = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(ws))
        await ws.send_str(f"40{self._prefix}{orjson.dumps(auth).decode()}")
        await asyncio.wait_for(self._connected, 30)

    async def call(
        self, event: str, data: Any, namespace: str | None = None, timeout: float = 30
    ) -> Any:
        """Send ``event`` with ``data`` and return the server's acknowledgement."""
        assert self._ws is not None, "not connected"
        ack_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._acks[ack_id] = future
        try:
            await self._ws.send_str(
                f"42{self._prefix}{ack_id}{orjson.dumps([event, data]).decode()}"
            )
            return await asyncio.wait_for(future, timeout)
        finally:
            self._acks.pop(ack_id, None)

    async def disconnect(self) -> None:
        ws, self._ws = self._ws, None
        if ws is None:
            return
        with contextlib.suppress(Exception):
            await ws.send_str(f"41{self._prefix}")
        await ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self._session is not None:
            await self._session.close()

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        try:
            async for message in ws:
                if message.type == aiohttp.WSMsgType.TEXT:
                    await self._packet(ws, message.data)
        finally:
            error = ConnectionError("the connection closed")
            for future in [*self._acks.values(), self._connected]:
                if future is not None and not future.done():
                    future.set_exception(error)

    async def _packet(self, ws: aiohttp.ClientWebSocketResponse, text: str) -> None:
        kind = text[0]
        if kind == "2":  # Engine.IO ping: the server closes a connection that does not pong
            await ws.send_str("3" + text[1:])
            return
        if kind != "4" or len(text) < 2:
            return  # noop, close, upgrade: nothing for this client
        body = text[2:]
        if not body.startswith(self._prefix):
            return  # another namespace
        body = body[len(self._prefix) :]
        sio = text[1]
        if sio == "2":  # EVENT
            event, *args = orjson.loads(body)
            handler = self._handlers.get(event)
            if handler is not None:
                result = handler(*args)
                if result is not None:
                    await result
        elif sio == "3":  # ACK: digits, then the JSON array of the answer
            digits = len(body) - len(body.lstrip("0123456789"))
            future = self._acks.get(int(body[:digits]))
            if future is not None and not future.done():
                answer = orjson.loads(body[digits:])
                future.set_result(answer[0] if len(answer) == 1 else tuple(answer))
        elif sio == "0" and self._connected is not None and not self._connected.done():
            self._connected.set_result(None)
        elif sio == "4" and self._connected is not None and not self._connected.done():
            self._connected.set_exception(ConnectError(body))
