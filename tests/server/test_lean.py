"""The lean Engine.IO transport (server/lean.py): on by default for a WebSocket opened as
such, the library's own path when it is off, when the installed python-engineio is not
the pinned one, or for a connection upgraded from long-polling; a table plays the same on
every path."""

from __future__ import annotations

import logging
import re
import tomllib
from pathlib import Path
from typing import Any

import engineio
import pytest
from engineio.async_drivers import asgi as eio_asgi

from stoptable.server import lean
from tests.server.cases import body
from tests.server.support import Client, ThreadServer, claim, create

ROOT = Path(__file__).resolve().parents[2]


def test_the_pinned_versions_are_those_of_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pins = {}
    for line in project["project"]["optional-dependencies"]["server"]:
        found = re.fullmatch(r"([a-z-]+)==([0-9.]+)", line)
        if found:
            pins[found.group(1)] = found.group(2)
    assert pins == lean.PINNED


def test_the_installed_library_is_served_lean() -> None:
    eio = engineio.AsyncServer(async_mode="asgi")
    assert lean.why_not(eio) is None
    assert lean.install(eio)
    assert eio._async["websocket"] is lean.LeanWebSocket


def test_another_version_keeps_the_library_path(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(lean, "PINNED", {"python-engineio": "0.0.1"})
    eio = engineio.AsyncServer(async_mode="asgi")
    with caplog.at_level(logging.WARNING, logger="stoptable.server"):
        assert not lean.install(eio)
    assert eio._async["websocket"] is eio_asgi.WebSocket
    lines = [r.getMessage() for r in caplog.records if "lean Engine.IO" in r.getMessage()]
    assert len(lines) == 1 and "0.0.1" in lines[0]


def test_a_missing_private_part_keeps_the_library_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(engineio.async_socket.AsyncSocket, "_websocket_handler")
    eio = engineio.AsyncServer(async_mode="asgi")
    assert lean.why_not(eio) == "engineio's AsyncSocket has no _websocket_handler"
    assert not lean.install(eio)


async def play(url: str, transports: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Two people of a Stop it! table: the first acts; what the second saw, in order."""
    table = await create(url, body("stopit", 2, [None, None], 4))
    first = Client(url)
    auth = {"table": table, "token": await claim(url, table, 0)}
    await first.sio.connect(
        url, namespaces=["/table"], auth=auth, transports=transports, wait_timeout=10
    )
    second = await Client(url).connect(table, await claim(url, table, 1))
    try:
        state = await first.wait(lambda s: bool(s["legal"]))
        ack = await first.call("action", state["legal"][0])
        assert ack["ok"], ack
        await second.wait(lambda s: s["seq"] >= ack["seq"])
        assert await first.call("action", {"type": "teleport"}) != {"ok": True}
        return second.messages
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize("on", [True, False])
async def test_a_table_plays_the_same_on_either_path(
    on: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served: list[Any] = []
    serve = lean.serve

    async def counted(socket: Any, wire: lean.Wire, receive: Any) -> None:
        served.append(socket)
        await serve(socket, wire, receive)

    monkeypatch.setattr(lean, "serve", counted)
    server = ThreadServer(f"sqlite+aiosqlite:///{tmp_path / 't.db'}", lean_transport=on).start()
    try:
        seen = await play(server.url, ["websocket"])
        assert len(served) == (2 if on else 0)
        kinds = [kind for kind, _ in seen]
        assert kinds[0] == "state" and "events" in kinds
        for at, kind in enumerate(kinds):  # a change's events come before its state
            if kind == "events":
                assert kinds[at + 1] == "state"
                assert seen[at + 1][1]["seq"] == seen[at][1]["seq"]
        served.clear()
        await play(server.url, ["polling", "websocket"])  # upgraded: the library's path
        assert len(served) == (1 if on else 0)  # the second person opens a WebSocket
    finally:
        server.stop()
