"""A connection's send backlog is bounded (server/backlog.py): a client that stops reading
is dropped once ``max_send_buffer_bytes`` wait for it, on the lean path and the library's,
and the other clients of its table go on."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import pydantic
import pytest
import websockets
from engineio import packet as eio_packet

from stoptable.server.backlog import PACKET_OVERHEAD, Backlog, BoundedQueue, packet_size
from stoptable.server.config import Settings
from stoptable.server.guard import LogLimiter
from tests.server.cases import body
from tests.server.support import Client, ThreadServer, create

LIMIT = 1024 * 1024
"""The default: a healthy reader of a table of bots at full speed had up to 277 kB queued
on the library's path (the first second's burst)."""


class Sockets:
    """The part of an Engine.IO server :class:`Backlog` reads: its sockets."""

    def __init__(self) -> None:
        self.sockets: dict[str, Any] = {}


class Transport:
    """A transport's ``abort``, counted."""

    def __init__(self) -> None:
        self.aborted = 0

    def abort(self) -> None:
        self.aborted += 1


class Owner:
    def __init__(self, queue: BoundedQueue, transport: Transport) -> None:
        self.queue = queue
        self.stoptable_transport = transport


def test_a_queue_counts_its_bytes_and_drops_its_owner_once_past_the_limit() -> None:
    eio = Sockets()
    backlog = Backlog(eio, LIMIT, LogLimiter())
    queue = BoundedQueue(backlog)
    transport = Transport()
    eio.sockets["sid"] = Owner(queue, transport)
    frame = eio_packet.Packet(eio_packet.MESSAGE, data="x" * 1000)
    assert packet_size(frame) == 1000 + PACKET_OVERHEAD
    fits = LIMIT // packet_size(frame)
    for _ in range(fits):
        queue.put_nowait(frame)
    assert queue.waiting == fits * packet_size(frame) and transport.aborted == 0
    queue.get_nowait()  # a reader that catches up frees its share
    queue.put_nowait(frame)
    assert transport.aborted == 0 and queue.qsize() == fits
    queue.put_nowait(frame)  # past the limit: not queued, the owner dropped
    queue.put_nowait(frame)
    assert queue.qsize() == fits and transport.aborted == 1 and backlog.dropped == 1
    queue.put_nowait(None)  # the writer's stop is always queued
    assert queue.qsize() == fits + 1


@pytest.mark.parametrize("value", [1024, 128 * 1024 * 1024])
def test_the_limit_has_bounds(value: int) -> None:
    with pytest.raises(pydantic.ValidationError, match="max_send_buffer_bytes"):
        Settings(max_send_buffer_bytes=value)


async def busy_table(url: str) -> str:
    """A table where four bots play a long Stop match at once: a change (events and state,
    a few kB each to every watcher) every few ms."""
    options = {"interjection_grace_ms": 0, "cancel_window_ms": 0, "target_score": 5000}
    return await create(url, body("stop", 4, ["random"] * 4, 7, options=options, round_pause_ms=0))


async def slow_watcher(url: str, table: str) -> tuple[Any, socket.socket]:
    """A spectator of ``table`` on a WebSocket whose receive buffer is tiny, which stops
    reading once it has joined (the client library stops reading the socket once 4
    frames wait unread)."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.setblocking(False)
    host, port = url.removeprefix("http://").split(":")
    await asyncio.get_running_loop().sock_connect(raw, (host, int(port)))
    ws_url = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
    ws = await websockets.connect(ws_url, sock=raw, max_size=None, max_queue=4)
    await ws.recv()  # Engine.IO's open
    await ws.send("40/table," + json.dumps({"table": table}))
    return ws, raw


def shrink_server_send_buffer(server: ThreadServer, client: socket.socket) -> None:
    """The server's kernel send buffer for ``client``'s connection made small (Linux grows
    it to megabytes on its own, which a test would take half a minute to fill), so that what
    the client does not read waits in the server's own buffers at once."""
    port = client.getsockname()[1]
    for protocol in list(server.server.server_state.connections):
        transport = getattr(protocol, "transport", None)
        peer = transport.get_extra_info("peername") if transport is not None else None
        if peer is not None and peer[1] == port:
            transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
            return
    raise AssertionError("the slow client's connection is not among the server's")


async def drained_until_closed(ws: Any, within_s: float) -> bool:
    """Read what is left; True when the server's side is gone within ``within_s``."""
    deadline = time.monotonic() + within_s
    try:
        while time.monotonic() < deadline:
            await asyncio.wait_for(ws.recv(), timeout=max(0.01, deadline - time.monotonic()))
    except (websockets.ConnectionClosed, ConnectionError):
        return True
    except TimeoutError:
        return False
    return False


@pytest.mark.parametrize("lean", [True, False])
async def test_a_client_that_stops_reading_is_dropped_and_the_table_goes_on(
    lean: bool, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server = ThreadServer(
        f"sqlite+aiosqlite:///{tmp_path / 't.db'}",
        lean_transport=lean,
        max_send_buffer_bytes=LIMIT,
    ).start()
    try:
        table = await busy_table(server.url)
        watcher = await Client(server.url).connect(table)
        with caplog.at_level(logging.WARNING, logger="stoptable.server"):
            ws, raw = await slow_watcher(server.url, table)
            shrink_server_send_buffer(server, raw)
            try:
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline and not any(
                    "send backlog" in r.getMessage() for r in caplog.records
                ):
                    await asyncio.sleep(0.05)
                lines = [r.getMessage() for r in caplog.records if "send backlog" in r.getMessage()]
                assert len(lines) == 1, lines
                assert f"limit {LIMIT}" in lines[0] or "bytes waiting" in lines[0]
                # the dropped client finds its connection gone once it reads again
                assert await drained_until_closed(ws, 10)
            finally:
                raw.close()
        # the other watcher of the table still gets every change
        seen = watcher.messages[-1][1]["seq"]
        await asyncio.wait_for(watcher.changed.wait(), 5)
        watcher.changed.clear()
        deadline = time.monotonic() + 5
        while watcher.messages[-1][1]["seq"] <= seen and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert watcher.messages[-1][1]["seq"] > seen
        assert watcher.sio.connected
        await watcher.close()
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            metrics = (await http.get("/metrics")).text
        assert "stoptable_backlog_drops_total 1.0" in metrics
    finally:
        server.stop()


async def test_a_polling_client_that_stops_polling_is_dropped(tmp_path: Path) -> None:
    """Long-polling has no transport of its own to abort: the socket is closed instead,
    and the session is gone for the client's next poll."""
    server = ThreadServer(
        f"sqlite+aiosqlite:///{tmp_path / 't.db'}", max_send_buffer_bytes=256 * 1024
    ).start()
    try:
        table = await busy_table(server.url)
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            path = "/socket.io/?EIO=4&transport=polling"
            opened = (await http.get(path)).text
            sid = json.loads(opened[opened.index("{") :])["sid"]
            session = f"{path}&sid={sid}"
            joined = await http.post(session, content="40/table," + json.dumps({"table": table}))
            assert joined.status_code == 200
            # no more polls: the table's changes queue up for this client until the limit
            deadline = time.monotonic() + 30
            metrics = ""
            while time.monotonic() < deadline:
                metrics = (await http.get("/metrics")).text
                if "stoptable_backlog_drops_total 1.0" in metrics:
                    break
                await asyncio.sleep(0.1)
            assert "stoptable_backlog_drops_total 1.0" in metrics
            late = await http.get(session)
            assert late.status_code == 400 and "disconnected" in late.text
    finally:
        server.stop()
