"""Slow and numerous clients (issue 22 §5): header and body read timeouts, a cap on
connections per address, and no traceback per failed ``accept()``."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import httpx

from stoptable.server.guard import LogLimiter
from stoptable.server.serving import quiet_accept_errors
from tests.server.rawio import recording
from tests.server.support import ThreadServer


def server_with(tmp_path: Path, **settings: object) -> ThreadServer:
    return ThreadServer(f"sqlite+aiosqlite:///{tmp_path / 't.db'}", **settings).start()


async def answer(port: int, data: bytes, wait: float = 5) -> bytes:
    """Everything the server sends after ``data`` until it closes the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(), wait)
    finally:
        writer.close()


async def test_headers_that_never_end_are_408_and_closed(tmp_path: Path) -> None:
    srv = server_with(tmp_path, header_timeout_s=0.3)
    try:
        text = await answer(srv.port, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        assert text.startswith(b"HTTP/1.1 408")
        # a complete request on a kept-alive connection, then a slow one: same timeout
        text = await answer(
            srv.port, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET / HTTP/1.1\r\n"
        )
        assert text.startswith(b"HTTP/1.1 200") and b"HTTP/1.1 408" in text
        assert httpx.get(srv.url + "/api/health").status_code == 200
    finally:
        srv.stop()


async def test_a_body_that_stalls_is_408(tmp_path: Path) -> None:
    srv = server_with(tmp_path, body_timeout_s=0.3)
    try:
        text = await answer(
            srv.port,
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            b'content-length: 100\r\n\r\n{"game":',
        )
        assert text.startswith(b"HTTP/1.1 408")
    finally:
        srv.stop()


async def test_connections_per_address_are_capped(tmp_path: Path) -> None:
    # 127.0.0.1 is a trusted proxy by default (exempt); here it is a plain client
    srv = server_with(tmp_path, connections_per_address=3, forwarded_allow_ips="10.9.9.9")
    held = []
    try:
        for _ in range(3):
            held.append(await asyncio.open_connection("127.0.0.1", srv.port))
        text = await answer(srv.port, b"")  # answered at once, before reading anything
        assert text.startswith(b"HTTP/1.1 429")
        _reader, writer = held.pop()
        writer.close()
        await asyncio.sleep(0.1)
        text = await answer(
            srv.port, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        assert text.startswith(b"HTTP/1.1 200")
    finally:
        for _reader, writer in held:
            writer.close()
        srv.stop()


async def test_failed_accepts_are_one_counted_line() -> None:
    logger = logging.getLogger("test.accept")
    limiter = LogLimiter(logger)
    old = asyncio.get_running_loop().get_exception_handler()
    with recording() as log:
        quiet_accept_errors(limiter)
        try:
            for _ in range(10_000):
                asyncio.get_running_loop().call_exception_handler(
                    {
                        "message": "socket.accept() out of system resource",
                        "exception": OSError(24, "Too many open files"),
                    }
                )
        finally:
            asyncio.get_running_loop().set_exception_handler(old)
    lines = [r for r in log.records if r.name == "test.accept"]
    assert len(lines) == 1 and lines[0].exc_info is None
    assert "accept failed" in lines[0].getMessage()
