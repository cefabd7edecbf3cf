"""Hostile input at the Socket.IO and Engine.IO level (issue 22, protocol.md "Hostile
input"): every frame gets an ack ``malformed`` or is dropped, garbage closes a connection,
and nothing writes a traceback."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.server.rawio import Raw, recording
from tests.server.support import ThreadServer, claim, create

TOY = {"game": "toy", "seats": 2, "seed": 5}

DEEP = "[" * 5000 + "]" * 5000
HUGE = "1" * 5000

ACKED = [
    '42/table,1["action",{"type":"advance","\\udfff":1}]',
    '42/table,2["action",{"type":"advance"},{"x":1},3]',
    '42/table,3["resume",{"seq":0},1]',
    '42/table,4["action",{"type":',
    '42/table,5["action",{"type":"advance"}]xyz',
    '42/table,6["action",{"type":"advance","n":' + HUGE + "}]",
    '42/table,7["action",' + DEEP + "]",
    '42/table,8["action",{"type":"advance","n":18446744073709551616}]',
    '42/table,9{"action":1}',
    '42/table,10["connect",{}]',
    "42/table,11[]",
    '42/table,12["' + "e" * 100 + '"]',
    '42/table,13["resume",{"seq":"\\ud800"}]',
]
"""Frames with an ack id: each must be answered ``malformed`` (ack id = position + 1)."""

DROPPED: list[str | bytes] = [
    '42/table,{"action":1}',
    "49/table,[]",
    b"\x04\x00\xff",
    "4",
    "zzz",
    "",
    "4{}",
    '43/table,7[{"ok":true}]',
    '45-/table,["action",{"_placeholder":true,"num":0}]',
    '44/table,"x"',
]
"""Frames without an ack id (or that are not packets): dropped, the connection stays."""


async def joined(server: ThreadServer) -> tuple[str, Raw]:
    table = await create(server.url, TOY)
    token = await claim(server.url, table, 0)
    await claim(server.url, table, 1)
    return table, await Raw.open(server.url, {"table": table, "token": token})


async def test_every_undecodable_or_odd_frame_is_acked_malformed(server: ThreadServer) -> None:
    with recording() as log:
        _table, raw = await joined(server)
        try:
            for frame in ACKED:
                await raw.send(frame)
            for k in range(1, len(ACKED) + 1):
                ack = await raw.ack(k)
                assert ack["ok"] is False and ack["reason"] == "malformed", (k, ack)
                assert len(ack["message"]) <= 200
            for frame in DROPPED:
                await raw.send(frame)
            await raw.send('42/table,99["action",{"type":"advance"}]')
            assert (await raw.ack(99))["ok"] is True
            assert not raw.closed
        finally:
            await raw.close()
        await asyncio.sleep(0.2)
    assert log.tracebacks() == []


async def test_invalid_utf8_closes_quietly(server: ThreadServer) -> None:
    with recording() as log:
        _table, raw = await joined(server)
        await raw.send(b'42/table,1["action",{"type":"\xff\xfe"}]', text=True)
        await asyncio.wait_for(raw.reader, 10)
        await asyncio.sleep(0.2)
    assert log.tracebacks() == []


async def test_repeated_garbage_closes_the_connection(server: ThreadServer) -> None:
    with recording() as log:
        _table, raw = await joined(server)
        for k in range(200):
            if raw.closed:
                break
            await raw.send(f'42/table,{k}["action",{{"type":')
            await asyncio.sleep(0)
        await asyncio.wait_for(raw.reader, 10)
        _table, frames = await joined(server)
        for _ in range(200):
            if frames.closed:
                break
            await frames.send("zzz")
        await asyncio.wait_for(frames.reader, 10)
        await asyncio.sleep(0.2)
    assert log.tracebacks() == []
    # one counted line per connection and cause, not one per frame
    assert len(log.records) < 20


async def test_a_flood_writes_a_bounded_log(server: ThreadServer) -> None:
    with recording() as log:
        raws = [(await joined(server))[1] for _ in range(4)]
        for raw in raws:
            for k in range(10):
                await raw.send(f'42/table,{k}["action",{{"type":"advance"}},1,2]')
        for raw in raws:
            await raw.ack(9)
            await raw.close()
        await asyncio.sleep(0.2)
    assert log.tracebacks() == []
    assert len(log.records) <= 8


@pytest.mark.parametrize(
    "auth",
    [
        {"table": "x", "token": "\udfff"},
        {"table": ["x"]},
        {"table": "x" * 10_000},
        "table",
        [1, 2],
    ],
)
async def test_bad_auth_is_refused_without_a_traceback(server: ThreadServer, auth: Any) -> None:
    with recording() as log:
        raw = await Raw.open(server.url, auth) if not isinstance(auth, dict) else None
        if raw is None:
            table = await create(server.url, TOY)
            payload = json.dumps({**auth, "table": table} if auth["table"] == "x" else auth)
            raw = await Raw.open(server.url, json.loads(payload))
        assert any(isinstance(f, str) and f.startswith("44/table") for f in raw.frames)
        await raw.close()
        await asyncio.sleep(0.1)
    assert log.tracebacks() == []
