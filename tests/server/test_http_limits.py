"""HTTP limits a stranger meets (issue 22): numbers out of range are 422 naming them, a
body over the limit is 413 unread, echoes are cut, pages carry the security headers."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from tests.server.rawio import recording
from tests.server.support import ThreadServer

STOP = {"game": "stop", "seats": 2}


async def post(url: str, path: str, **kwargs: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        return await http.post(path, **kwargs)


@pytest.mark.parametrize(
    ("body", "names"),
    [
        ({**STOP, "options": {"target_score": 18446744073709551616}}, "target_score"),
        ({**STOP, "options": {"interjection_grace_ms": 10**18}}, "interjection_grace_ms"),
        ({**STOP, "options": {"cancel_window_ms": 10**400}}, "cancel_window_ms"),
        ({"game": "stopit", "seats": 2, "options": {"go_timeout_ms": 10**400}}, "go_timeout_ms"),
        ({**STOP, "seed": 2**64}, "seed"),
        ({**STOP, "seed": -1}, "seed"),
        ({**STOP, "bot_delay_ms": 10**400}, "bot_delay_ms"),
        ({**STOP, "clock": {"turn_s": 1e400, "bank_s": 1}}, "turn_s"),
        ({**STOP, "seats": 10**30}, "seats"),
    ],
)
async def test_numbers_out_of_range_are_422_naming_them(
    server: ThreadServer, body: dict[str, Any], names: str
) -> None:
    text = json.dumps(body).replace("Infinity", "1e400")
    r = await post(
        server.url, "/api/tables", content=text, headers={"content-type": "application/json"}
    )
    assert r.status_code == 422, r.text
    assert names in r.json()["detail"]


async def test_an_unknown_option_key_is_not_echoed_whole(server: ThreadServer) -> None:
    r = await post(server.url, "/api/tables", json={**STOP, "options": {"k" * 500_000: 1}})
    assert r.status_code == 422
    assert len(r.content) < 2000


async def test_a_body_over_the_limit_is_413_before_it_is_read(server: ThreadServer) -> None:
    host, port = "127.0.0.1", server.port
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        b"content-length: 200000000\r\n\r\n{"
    )
    await writer.drain()
    status = await asyncio.wait_for(reader.readline(), 5)  # no need to send the 200 MB
    assert status.startswith(b"HTTP/1.1 413")
    writer.close()

    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        b"transfer-encoding: chunked\r\n\r\n"
    )
    chunk = b"10000\r\n" + b"x" * 65536 + b"\r\n"
    for _ in range(17):  # 1.06 MiB: past the limit, and no end
        writer.write(chunk)
    await writer.drain()
    status = await asyncio.wait_for(reader.readline(), 5)
    assert status.startswith(b"HTTP/1.1 413")
    writer.close()


def test_pages_and_answers_carry_the_security_headers(server: ThreadServer) -> None:
    for path in ("/", "/api/health", "/api/tables/nope"):
        r = httpx.get(server.url + path)
        assert "connect-src 'self'" in r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        policy = dict(
            d.strip().split(" ", 1) for d in r.headers["content-security-policy"].split(";")
        )
        assert policy["script-src"] == "'self'" and policy["style-src-elem"] == "'self'"
        assert policy["default-src"] == "'self'"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"


def test_docs_are_off_and_foreign_hosts_refused(server: ThreadServer) -> None:
    for path in ("/docs", "/openapi.json", "/redoc"):
        assert httpx.get(server.url + path).status_code == 404
    r = httpx.get(server.url + "/api/health", headers={"Host": "evil.example:8124"})
    assert r.status_code == 400
    r = httpx.get(
        server.url + "/socket.io/?EIO=4&transport=polling",
        headers={"Host": "evil.example:8124", "Origin": "http://evil.example:8124"},
    )
    assert r.status_code == 400
    assert "evil" not in r.headers.get("access-control-allow-origin", "")
    assert httpx.get(server.url + "/api/health", headers={"Host": "localhost"}).status_code == 200


async def test_a_websocket_with_a_foreign_host_is_refused_quietly(server: ThreadServer) -> None:
    with recording() as log:
        for host, status in ((b"evil.example:8124", b"403"), (b"127.0.0.1", b"101")):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(
                b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: " + host + b"\r\n"
                b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
            )
            line = await asyncio.wait_for(reader.readline(), 5)
            assert line.split()[1] == status, (host, line)
            writer.close()
        await asyncio.sleep(0.2)
    assert log.tracebacks() == []
