"""A raw Engine.IO 4 / Socket.IO 5 client over a WebSocket, for sending what no library
would: the frames of the hostile-client tests go out byte for byte as written."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection


class Raw:
    """One WebSocket to ``/socket.io/``, joined to ``/table`` with ``auth``."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.acks: dict[int, Any] = {}
        self.frames: list[str | bytes] = []
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url: str, auth: Any) -> Raw:
        ws_url = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
        ws = await websockets.connect(ws_url, max_size=None)
        raw = cls(ws)
        await raw.send("40/table," + json.dumps(auth))
        await raw.wait_for(lambda f: isinstance(f, str) and f.startswith(("40/table", "44/table")))
        return raw

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                if frame == "2":
                    await self.ws.send("3")
                    continue
                self.frames.append(frame)
                if isinstance(frame, str) and frame.startswith("43/table,"):
                    body = frame[len("43/table,") :]
                    digits = len(body) - len(body.lstrip("0123456789"))
                    self.acks[int(body[:digits])] = json.loads(body[digits:])[0]
        except websockets.ConnectionClosed:
            pass

    async def send(self, frame: str | bytes, text: bool | None = None) -> None:
        """Send ``frame``; nothing if the server has closed the connection."""
        with suppress(websockets.ConnectionClosed):
            await self.ws.send(frame, text=text)

    async def wait_for(self, pred: Any, timeout: float = 10) -> Any:
        deadline = asyncio.get_running_loop().time() + timeout
        while asyncio.get_running_loop().time() < deadline:
            for frame in self.frames:
                if pred(frame):
                    return frame
            if self.reader.done():
                break
            await asyncio.sleep(0.01)
        raise TimeoutError("no such frame")

    async def ack(self, ack_id: int, timeout: float = 10) -> Any:
        deadline = asyncio.get_running_loop().time() + timeout
        while ack_id not in self.acks:
            if asyncio.get_running_loop().time() > deadline or self.reader.done():
                raise TimeoutError(f"no ack {ack_id}")
            await asyncio.sleep(0.01)
        return self.acks[ack_id]

    @property
    def closed(self) -> bool:
        return self.reader.done()

    async def close(self) -> None:
        await self.ws.close()
        await self.reader


class LogRecorder(logging.Handler):
    """Every log record of the process (every thread), to look for tracebacks in."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def tracebacks(self) -> list[str]:
        """Records that carry a traceback or are errors, as text."""
        return [
            self.format(r)
            for r in self.records
            if r.exc_info or r.levelno >= logging.ERROR or "Traceback" in r.getMessage()
        ]


@contextmanager
def recording() -> Iterator[LogRecorder]:
    recorder = LogRecorder()
    root = logging.getLogger()
    old = root.level
    # uvicorn's loggers do not propagate to the root: their errors (an exception in the
    # ASGI app, a handshake not completed) are recorded at their own top.
    watched = [root, logging.getLogger("uvicorn")]
    for logger in watched:
        logger.addHandler(recorder)
    root.setLevel(logging.WARNING)
    try:
        yield recorder
    finally:
        for logger in watched:
            logger.removeHandler(recorder)
        root.setLevel(old)
