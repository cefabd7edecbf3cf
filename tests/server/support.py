"""Real servers for the server tests: uvicorn in a thread, or ``stoptable serve`` in a
subprocess; and a recording Socket.IO client."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import socketio
import uvicorn

from stoptable import games
from stoptable.server.app import create_app
from stoptable.server.config import Settings
from stoptable.server.serving import uvicorn_config

ROOT = Path(__file__).resolve().parents[2]
TOY = "tests.server.toygame"


OPEN_LIMITS: dict[str, Any] = {
    "creates_per_min": 1e6,
    "creates_burst": 1_000_000,
    "waiting_per_address": 1_000_000,
    "sockets_per_address": 100_000,
}
"""The per-address limits lifted: every test client is 127.0.0.1 (the tests of the limits
themselves start servers with the defaults)."""

OPEN_LIMITS_ENV: dict[str, str] = {f"STOPTABLE_{k.upper()}": str(v) for k, v in OPEN_LIMITS.items()}


def register_toy() -> None:
    games.REGISTRY["toy"] = TOY  # type: ignore[index]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ThreadServer:
    """uvicorn on 127.0.0.1 in a thread with its own event loop."""

    def __init__(self, db: str, **settings: Any) -> None:
        register_toy()
        self.port = free_port()
        self.settings = Settings(
            db=db, port=self.port, bot_delay_ms=0, **{**OPEN_LIMITS, **settings}
        )
        config = uvicorn_config(create_app(self.settings), self.settings, host="127.0.0.1")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


class ProcessServer:
    """``stoptable serve`` in a subprocess (the toy game registered too)."""

    def __init__(
        self, db: str, env: dict[str, str] | None = None, stderr: Path | None = None
    ) -> None:
        self.db = db
        self.env = {**os.environ, "STOPTABLE_BOT_DELAY_MS": "0", **OPEN_LIMITS_ENV, **(env or {})}
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.stderr = stderr

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ProcessServer:
        code = (
            "import sys; from stoptable import games; "
            f"games.REGISTRY['toy'] = {TOY!r}; "
            "from stoptable.cli import main; main(sys.argv[1:])"
        )
        with contextlib.ExitStack() as files:
            err = None if self.stderr is None else files.enter_context(self.stderr.open("w"))
            self.proc = subprocess.Popen(
                [sys.executable, "-c", code, "serve", "--db", self.db, "--port", "0"],
                cwd=ROOT,
                env=self.env,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
            )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("serving on http://127.0.0.1:"):
            self.proc.kill()
            raise RuntimeError(f"stoptable serve printed {line!r}")
        self.port = int(line.rsplit(":", 1)[1])
        return self

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None


class Client:
    """A Socket.IO client of ``/table`` that keeps every message it gets, in order."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sio = socketio.AsyncClient(reconnection=False)
        self.messages: list[tuple[str, dict[str, Any]]] = []
        """The ``state`` and ``events`` messages, in order."""
        self.chat_batches: list[dict[str, Any]] = []
        """The ``chat`` messages (protocol.md §8), in order."""
        self.order: list[str] = []
        """The kind of every message, chat included, in arrival order."""
        self.changed = asyncio.Event()
        self.sio.on("state", self._on("state"), namespace="/table")
        self.sio.on("events", self._on("events"), namespace="/table")
        self.sio.on("chat", self._on("chat"), namespace="/table")

    def _on(self, kind: str) -> Callable[[Any], Any]:
        async def handler(data: Any) -> None:
            self.order.append(kind)
            if kind == "chat":
                self.chat_batches.append(data)
            else:
                self.messages.append((kind, data))
            self.changed.set()

        return handler

    async def connect(self, table: str, token: str | None = None) -> Client:
        auth: dict[str, Any] = {"table": table}
        if token is not None:
            auth["token"] = token
        await self.sio.connect(
            self.url, namespaces=["/table"], auth=auth, transports=["websocket"], wait_timeout=10
        )
        return self

    async def close(self) -> None:
        await self.sio.disconnect()

    async def call(self, event: str, data: Any, timeout: float = 10) -> Any:
        return await self.sio.call(event, data, namespace="/table", timeout=timeout)

    async def act(self, data: Any) -> Any:
        return await self.call("action", data)

    def states(self) -> list[dict[str, Any]]:
        return [m for k, m in self.messages if k == "state"]

    def chats(self) -> list[dict[str, Any]]:
        """Every chat message received, in order (history and live alike)."""
        return [msg for m in self.chat_batches for msg in m["messages"]]

    async def wait_for(self, pred: Callable[[], bool], timeout: float = 10) -> None:
        """Until ``pred()`` holds over what has arrived."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not pred():
            self.changed.clear()
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"not yet; last messages: {self.order[-3:]}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    @property
    def last(self) -> dict[str, Any]:
        return self.states()[-1]

    async def wait(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20
    ) -> dict[str, Any]:
        """The first state (from now on, or the latest) for which ``pred`` holds."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            states = self.states()
            if states and pred(states[-1]):
                return states[-1]
            self.changed.clear()
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"no such state; last: {states[-1] if states else None}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)


HTTP_TIMEOUT_S = 30.0
"""The tests' HTTP calls wait this long (httpx's default is 5 s): a server process just
started on PostgreSQL, on a machine running more than the suite (load 16 on 2 cores),
answered its first table's creation after more than 5 s, and test_restart and a cluster
test failed on that timeout, not on what they check."""


async def create(url: str, body: dict[str, Any]) -> str:
    async with httpx.AsyncClient(base_url=url, timeout=HTTP_TIMEOUT_S) as http:
        r = await http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        return str(r.json()["table"])


async def claim(url: str, table: str, seat: int, name: str | None = None) -> str:
    """Seat ``seat`` (named ``p{seat}`` unless given: two seats never share a name)."""
    async with httpx.AsyncClient(base_url=url, timeout=HTTP_TIMEOUT_S) as http:
        body = {"name": f"p{seat}" if name is None else name}
        r = await http.post(f"/api/tables/{table}/seats/{seat}", json=body)
        assert r.status_code == 200, r.text
        return str(r.json()["token"])


async def play_to_end(
    clients: list[Client], rng: random.Random, first: float = 0.7, limit_s: float = 60
) -> None:
    """Play the clients' seats to the end of the game: each sends its first legal action
    (with probability ``first``) or another one at random; AssertionError if the game is
    still going after ``limit_s``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit_s
    while loop.time() < deadline:
        acted = False
        for c in clients:
            if not c.messages:
                continue
            st = c.last
            if st["result"] is not None:
                return
            if st["legal"]:
                legal = st["legal"]
                await c.act(legal[0] if rng.random() < first else rng.choice(legal))
                acted = True
        if not acted:
            await asyncio.sleep(0.01)
    raise AssertionError("the game did not end")
