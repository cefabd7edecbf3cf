"""A real ``stoptable serve`` in a subprocess and small HTTP helpers for the browser tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.server.support import OPEN_LIMITS_ENV

CHROMIUM = Path(os.environ.get("STOPTABLE_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``stoptable serve`` on 127.0.0.1 with a temp SQLite file; restartable on the same port."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.proc: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        exe = Path(sys.executable).parent / "stoptable"
        cmd = [
            str(exe),
            "serve",
            "--db",
            f"sqlite+aiosqlite:///{self.db}",
            "--port",
            str(self.port),
        ]
        self.proc = subprocess.Popen(
            cmd,
            env={**os.environ, **OPEN_LIMITS_ENV},
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("serving on http://"):
            self.proc.kill()
            raise RuntimeError(f"stoptable serve did not start: {line!r}")
        return self

    def kill(self) -> None:
        """kill -9, as protocol.md §5 allows at any moment."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as res:
            text = res.read().decode()
        return json.loads(text) if text.startswith(("{", "[")) else text

    def create(self, game: str, seats: int, bots: list[str | None], **extra: Any) -> str:
        body = {"game": game, "seats": seats, "bots": bots, "bot_delay_ms": 0, "seed": 11}
        body.update(extra)
        table: str = self.request("POST", "/api/tables", body)["table"]
        return table

    def wait_phase(self, table: str, phase: str, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.request("GET", f"/api/tables/{table}")["phase"] == phase:
                return
            time.sleep(0.1)
        raise AssertionError(f"table {table} did not reach {phase}")


def http_error(server: Server, method: str, path: str, body: Any = None) -> tuple[int, str]:
    try:
        server.request(method, path, body)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read().decode())["detail"]
    raise AssertionError("expected an HTTP error")
