"""Re-run the six hostile-client audit cases of issue 22 against a fresh ``stoptable serve``.

    .venv/bin/python scripts/audit_hostile.py            # this checkout
    PYTHONPATH=/tmp/before/src .venv/bin/python scripts/audit_hostile.py   # another tree

Each case prints one line of figures (acks, status codes, log bytes and traceback count of
the server's stderr, RSS, seconds). It starts and stops its own servers on temp SQLite
files; the per-address limits are the defaults, as a public server would run them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

HUGE = "1" * 5000
DEEP = "[" * 5000 + "]" * 5000
CREATES = int(os.environ.get("AUDIT_CREATES", "300"))
"""Tables created from one address in case 5 (the audit made 2,000; slow on a busy host)."""


class Serve:
    """``stoptable serve`` in a subprocess with its stderr in a file."""

    def __init__(self, db: Path, log: Path) -> None:
        self.db, self.log = db, log
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self) -> float:
        began = time.monotonic()
        code = "import sys; from stoptable.cli import main; main(sys.argv[1:])"
        with self.log.open("a") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", code, "serve", "--db", f"sqlite+aiosqlite:///{self.db}",
                 "--port", "0"],
                stdout=subprocess.PIPE, stderr=err, text=True,
                env={**os.environ, "STOPTABLE_BOT_DELAY_MS": "0"},
            )  # fmt: skip
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        self.url = "http://127.0.0.1:" + line.rsplit(":", 1)[1].strip()
        while True:
            try:
                if httpx.get(self.url + "/api/health", timeout=30).status_code == 200:
                    return time.monotonic() - began
            except httpx.HTTPError:
                time.sleep(0.01)

    def rss_kib(self) -> int:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()

    def log_figures(self) -> str:
        text = self.log.read_text(errors="replace")
        return f"log {len(text.encode())} B, {text.count('Traceback')} tracebacks"


async def raw_ws(url: str, auth: dict[str, Any]) -> Any:
    ws = await websockets.connect(
        url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket", max_size=None
    )
    await ws.recv()
    await ws.send("40/table," + json.dumps(auth))
    return ws


async def acks_for(
    ws: Any, frames: list[str | bytes], wait: float = 2.0, refused: str | None = None
) -> int:
    for frame in frames:
        try:
            await ws.send(frame)
        except websockets.ConnectionClosed:
            break
    got = 0
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            msg = await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
        except (TimeoutError, websockets.ConnectionClosed):
            break
        if isinstance(msg, str) and msg.startswith("43/table,"):
            got += refused is None or f'"reason":"{refused}"' not in msg
        if msg == "2":
            await ws.send("3")
    return got


def seated_table(url: str) -> tuple[str, str]:
    table = httpx.post(url + "/api/tables", json={"game": "stop", "seats": 2}).json()["table"]
    token = httpx.post(f"{url}/api/tables/{table}/seats/0", json={"name": "a"}).json()["token"]
    httpx.post(f"{url}/api/tables/{table}/seats/1", json={"name": "b"})
    return table, token


async def case1_2(srv: Serve) -> None:
    table, token = seated_table(srv.url)
    ws = await raw_ws(srv.url, {"table": table, "token": token})
    c1 = [
        '42/table,1["action",{"type":"draw","\\udfff":1}]',
        '42/table,2["action",{"type":"draw"},{"x":1},3]',
        '42/table,3["resume",{"seq":0},1]',
    ]
    print(f"1 handler exceptions: {await acks_for(ws, c1)}/3 acked; {srv.log_figures()}")
    c2: list[str | bytes] = [
        '42/table,4["action",{"type":',
        '42/table,5["action",{"type":"draw"}]xyz',
        '42/table,6["action",{"type":"draw","n":' + HUGE + "}]",
        '42/table,7["action",' + DEEP + "]",
        '42/table,{"action":1}',
        "49/table,[]",
        b"\x04\x00",
        "4",
        "zzz",
    ]
    ws2 = await raw_ws(srv.url, {"table": table, "token": token})
    acked = await acks_for(ws2, c2)
    ws3 = await raw_ws(srv.url, {"table": table, "token": token})
    with contextlib.suppress(websockets.ConnectionClosed):
        await ws3.send(b'42/table,9["action",{"type":"\xff"}]', text=True)
    await asyncio.sleep(0.3)
    print(f"2 undecodable: {acked}/4 with an ack id acked; {srv.log_figures()}")
    before = srv.log.stat().st_size
    flood = await raw_ws(srv.url, {"table": table, "token": token})
    began = time.monotonic()
    sent = 0
    for k in range(5000):
        try:
            await flood.send(f'42/table,{k}["action",{{"type":')
        except websockets.ConnectionClosed:
            break
        sent += 1
    await asyncio.sleep(1.0)
    grown = srv.log.stat().st_size - before
    print(
        f"2 flood: {sent} garbage frames sent in {time.monotonic() - began:.2f} s (sends into "
        f"a closed connection included); log grew {grown} B in that time and 1 s more"
    )


def case3(srv: Serve) -> None:
    codes = []
    for opts in (
        {"target_score": 18446744073709551616},
        {"interjection_grace_ms": 10**18},
        {"cancel_window_ms": 10**30},
    ):
        r = httpx.post(srv.url + "/api/tables", json={"game": "stop", "seats": 2, "options": opts})
        codes.append(f"{next(iter(opts))}={r.status_code}")
    print(f"3 numbers: {', '.join(codes)}; {srv.log_figures()}")


def case4(srv: Serve) -> None:
    rss = srv.rss_kib()
    began = time.monotonic()
    body = b'{"game":"stop","seats":2,"x":"' + b"x" * (200 * 1024 * 1024) + b'"}'
    try:
        r = httpx.post(srv.url + "/api/tables", content=body, timeout=60,
                       headers={"content-type": "application/json"})  # fmt: skip
        status = str(r.status_code)
    except httpx.HTTPError as exc:
        status = type(exc).__name__
    took = time.monotonic() - began
    peak = srv.rss_kib()
    del body
    key = httpx.post(
        srv.url + "/api/tables",
        json={"game": "stop", "seats": 2, "options": {"k" * 900_000: 1}},
    )
    print(
        f"4 sizes: 200 MB body -> {status} in {took:.2f} s, RSS {rss // 1024} -> {peak // 1024}"
        f" MB; 900 kB option key -> {key.status_code}, {len(key.content)} B"
    )


async def case5(srv: Serve, tmp: Path) -> None:
    table, token = seated_table(srv.url)
    codes: dict[int, int] = {}
    for _ in range(CREATES):
        r = httpx.post(srv.url + "/api/tables", json={"game": "stop", "seats": 2})
        codes[r.status_code] = codes.get(r.status_code, 0) + 1
    listing = httpx.get(srv.url + "/api/tables")
    print(f"5 creates: {CREATES} from one address -> {codes}; list {len(listing.json())} entries")
    if table:
        wss = [await raw_ws(srv.url, {"table": table, "token": token}) for _ in range(100)]
        accepted = refused = 0

        async def act(ws: Any, k: int) -> None:
            nonlocal accepted, refused
            for i in range(40):
                await ws.send(f'42/table,{i}["action",{{"type":"fly"}}]')
            got = await acks_for(ws, [], 2.0, refused="rate_limited")
            accepted += got

        await asyncio.gather(*(act(ws, k) for k, ws in enumerate(wss)))
        print(f"5 one seat, 100 connections x 40 actions: {accepted} not rate_limited")
        for ws in wss:
            await ws.close()
    # half-open requests
    opened = []
    for _ in range(300):
        try:
            r, w = await asyncio.open_connection("127.0.0.1", int(srv.url.rsplit(":", 1)[1]))
            w.write(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            opened.append((r, w))
        except OSError:
            break
    await asyncio.sleep(11)
    still = 0
    for r, _w in opened:
        try:
            data = await asyncio.wait_for(r.read(), 0.01)
            still += 0 if data or r.at_eof() else 1
        except TimeoutError:
            still += 1
    for _r, w in opened:
        w.close()
    print(f"5 half-open: {len(opened)} opened, {still} still open after 11 s", flush=True)
    srv.stop()
    restart = srv.start()
    tables = httpx.get(srv.url + "/api/health").json()["tables"]
    print(f"5 restart: /api/health after {restart:.2f} s ({tables} tables live)")


def case6(srv: Serve) -> None:
    r = httpx.get(srv.url + "/")
    names = ("content-security-policy", "x-content-type-options", "referrer-policy")
    present = [n for n in names if n in r.headers]
    docs = httpx.get(srv.url + "/docs").status_code
    api = httpx.get(srv.url + "/openapi.json").status_code
    evil = httpx.get(srv.url + "/api/health", headers={"Host": "evil.example:8124"}).status_code
    print(f"6 headers: {present}; /docs {docs}, /openapi.json {api}, Host evil {evil}")


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        srv = Serve(Path(tmp) / "a.db", Path(tmp) / "a.log")
        srv.start()
        only = sys.argv[1:]
        try:
            if not only or "1" in only or "2" in only:
                await case1_2(srv)
            if not only or "3" in only:
                case3(srv)
            if not only or "4" in only:
                case4(srv)
            if not only or "6" in only:
                case6(srv)
            if not only or "5" in only:
                await case5(srv, Path(tmp))
        finally:
            srv.stop()


if __name__ == "__main__":
    asyncio.run(main())
