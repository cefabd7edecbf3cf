"""The ASGI application: FastAPI for the HTTP lobby, python-socketio for ``/table``.

:func:`create_app` builds both around one :class:`~stoptable.server.lobby.Lobby`; uvicorn
runs the result (``stoptable serve``). Every client message is checked here (auth, size,
rate, shape) before it reaches a table's inbox, so garbage costs its sender's connection
a refusal and never a table's time.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Final

import socketio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import ValidationError

from stoptable.core.protocol import JSON
from stoptable.server import acks, wire
from stoptable.server.config import Settings
from stoptable.server.fanout import NAMESPACE
from stoptable.server.lobby import Lobby, LobbyError, token_hash
from stoptable.server.messages import Auth, ClaimSeat, CreateTable, Resume, check_action
from stoptable.server.pages import mount_pages
from stoptable.server.store import Store
from stoptable.server.table import Table

log = logging.getLogger("stoptable.server")


class JsonPacket(socketio.packet.Packet):  # type: ignore[misc]
    """Socket.IO packets of plain JSON: the server never sends binary attachments, so the
    recursive search for them (a large share of the cost of a broadcast) is skipped."""

    def data_is_binary(self, data: Any) -> bool:
        return False


GC_THRESHOLDS: Final = (7_000, 20, 100)
"""The collector's thresholds while serving (Python's defaults: 700, 10, 10)."""


def quiet_collector() -> None:
    """Keep the cyclic garbage collector from stalling every table at once.

    A full collection stops the one event loop, so every table, for as long as it takes:
    under load (100 Stop tables) they took 50-300 ms, every few seconds, and were the p99
    of the whole server. Everything made at start-up (modules, classes, restored tables)
    lives as long as the process, so it is frozen out of the collector's sight; and the
    thresholds are raised a hundredfold for full collections (tenfold for the youngest
    generation): the server makes little cyclic garbage (almost everything is freed by
    reference counting), so collections are rarer, not memory that grows.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@dataclass
class Conn:
    """One Socket.IO connection: its table, its seat (None: watching) and its bucket."""

    table: Table
    seat: int | None
    tokens: float
    stamp: float

    def allow(self, rate: float, burst: int) -> bool:
        now = time.monotonic()
        self.tokens = min(float(burst), self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


def _detail(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        parts.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def create_app(settings: Settings) -> Any:
    """The ASGI app (Socket.IO wrapping FastAPI) for ``settings``."""
    origins: Any = None
    if settings.allowed_origins:
        origins = "*" if "*" in settings.allowed_origins else settings.allowed_origins
    sio = socketio.AsyncServer(
        async_mode="asgi",
        cors_allowed_origins=origins,
        max_http_buffer_size=64 * 1024,
        serializer=JsonPacket,
        json=wire,
        logger=False,
        engineio_logger=False,
    )
    store = Store(settings.db)
    lobby = Lobby(settings, store, sio)
    conns: dict[str, Conn] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await store.open()
        await lobby.restore()
        quiet_collector()
        yield
        await lobby.close()
        await store.close()

    api = FastAPI(title="stoptable", lifespan=lifespan)
    api.state.lobby = lobby

    @api.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _detail(exc)}, status_code=422)

    @api.exception_handler(LobbyError)
    async def _lobby_error(_request: Request, exc: LobbyError) -> JSONResponse:
        return JSONResponse({"detail": exc.message}, status_code=exc.status)

    @api.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return JSONResponse({"detail": "internal error"}, status_code=500)

    @api.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable) -> dict[str, JSON]:
        return {"table": await lobby.create(body)}

    @api.get("/api/tables")
    async def list_tables() -> list[dict[str, JSON]]:
        return await lobby.listing()

    @api.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, JSON]:
        return lobby.info(await lobby.table(table_id))

    @api.post("/api/tables/{table_id}/seats/{seat}")
    async def claim_seat(table_id: str, seat: int, body: ClaimSeat) -> dict[str, JSON]:
        token = await lobby.claim(table_id, seat, body.name)
        return {"seat": seat, "token": token}

    @api.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> PlainTextResponse:
        text = await lobby.record(table_id)
        return PlainTextResponse(text, media_type="application/x-ndjson")

    @api.get("/api/health")
    async def health() -> dict[str, JSON]:
        return {"ok": True, "tables": len(lobby.tables)}

    # ------------------------------------------------------------------ Socket.IO

    async def connect(sid: str, _environ: Any, auth: Any = None) -> None:
        try:
            parsed = Auth.model_validate(auth if auth is not None else {})
        except ValidationError:
            raise socketio.exceptions.ConnectionRefusedError(
                "auth must be {table, token?}"
            ) from None
        try:
            table = await lobby.table(parsed.table)
        except LobbyError as exc:
            raise socketio.exceptions.ConnectionRefusedError(exc.message) from None
        seat: int | None = None
        if parsed.token is not None:
            digest = token_hash(parsed.token)
            seat = next((k for k, h in table.people.items() if h == digest), None)
            if seat is None:
                raise socketio.exceptions.ConnectionRefusedError("bad token")
        conns[sid] = Conn(table, seat, float(settings.rate_burst), time.monotonic())
        # After this handler returns and the CONNECT packet went out: the table's task
        # sends the first state and joins the rooms, so nothing reaches the client earlier.
        asyncio.get_running_loop().call_soon(table.connect, sid, seat)

    async def disconnect(sid: str, *_args: Any) -> None:
        conn = conns.pop(sid, None)
        if conn is not None:
            conn.table.leave(sid, conn.seat)

    async def action(sid: str, data: Any = None) -> dict[str, JSON]:
        conn = conns.get(sid)
        if conn is None:
            return acks.NOT_CONNECTED
        if not conn.allow(settings.rate_per_s, settings.rate_burst):
            return acks.RATE_LIMITED
        checked = check_action(data, settings.max_message_bytes)
        if isinstance(checked, str):
            return acks.malformed(checked)
        if conn.seat is None:
            return acks.SPECTATOR
        return await conn.table.submit(conn.seat, checked)

    async def resume(sid: str, data: Any = None) -> dict[str, JSON]:
        conn = conns.get(sid)
        if conn is None:
            return acks.NOT_CONNECTED
        if not conn.allow(settings.rate_per_s, settings.rate_burst):
            return acks.RATE_LIMITED
        try:
            parsed = Resume.model_validate(data)
        except ValidationError:
            return acks.malformed("resume takes {seq: n}")
        table = conn.table
        # The events go out after this ack (the task runs once this handler has returned).
        asyncio.get_running_loop().call_soon(table.resume, sid, conn.seat, parsed.seq)
        return acks.ok(seq=table.seq)

    async def other(event: str, sid: str, *_args: Any) -> dict[str, JSON]:
        return acks.malformed(f"unknown message {str(event)[:40]!r}")

    sio.on("connect", connect, namespace=NAMESPACE)
    sio.on("disconnect", disconnect, namespace=NAMESPACE)
    sio.on("action", action, namespace=NAMESPACE)
    sio.on("resume", resume, namespace=NAMESPACE)
    sio.on("*", other, namespace=NAMESPACE)

    mount_pages(api)
    return socketio.ASGIApp(sio, other_asgi_app=api)
