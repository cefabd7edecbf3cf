"""The ASGI application: FastAPI for the HTTP lobby, python-socketio for ``/table``.

:func:`create_app` builds both around one :class:`~stoptable.server.lobby.Lobby`; uvicorn
runs the result (``stoptable serve``). Every client message is checked here (auth, size,
rate, shape) before it reaches a table's inbox, so garbage costs its sender's connection
a refusal and never a table's time. Decoding and every handler go through the guarded
entry of :mod:`stoptable.server.guard`; bytes the app has not read yet (bodies, Engine.IO
frames, hosts) through :mod:`stoptable.server.edge`.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Final

import socketio
from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import ValidationError

from stoptable.core.protocol import JSON
from stoptable.server import acks, backlog, lean, wire
from stoptable.server.cluster import Cluster, RedisRooms
from stoptable.server.collector import Collector
from stoptable.server.config import Settings
from stoptable.server.edge import Edge, TrustedHosts
from stoptable.server.fanout import NAMESPACE
from stoptable.server.guard import Bucket, GuardedServer, LogLimiter, cut
from stoptable.server.health import Health, ProcessInfo
from stoptable.server.lobby import Lobby, LobbyError, token_hash
from stoptable.server.messages import (
    Auth,
    ClaimSeat,
    CreateTable,
    Resume,
    check_action,
    check_chat,
    check_empty,
)
from stoptable.server.metrics import CONTENT_TYPE, Metrics
from stoptable.server.pages import mount_pages
from stoptable.server.routing import Conn, Router
from stoptable.server.serving import quiet_accept_errors
from stoptable.server.store import Store
from stoptable.server.strangers import CreateGate, TooMany

log = logging.getLogger("stoptable.server")


class JsonPacket(socketio.packet.Packet):  # type: ignore[misc]
    """Socket.IO packets of plain JSON: the server never sends binary attachments, so the
    recursive search for them (a large share of the cost of a broadcast) is skipped."""

    def data_is_binary(self, data: Any) -> bool:
        return False


MAX_SEAT_BUCKETS: Final = 100_000
"""Seat buckets kept; past this the table of buckets starts afresh (memory stays bounded)."""


def _detail(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = cut(".".join(str(x) for x in err.get("loc", ()) if x != "body"), 64)
        parts.append(f"{where or 'body'}: {cut(str(err.get('msg', 'invalid')), 120)}")
    return "; ".join(parts)


def client_address(environ: Any) -> str:
    """The peer address of a Socket.IO connection (behind a trusted proxy, uvicorn has
    already put the forwarded client there: ``--forwarded-allow-ips``)."""
    return str(environ.get("REMOTE_ADDR") or "?")


def _from(request: Request, networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    """Whether the request's client (as the trusted proxy forwards it) is in ``networks``."""
    host = request.client.host if request.client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in net for net in networks)


def create_app(settings: Settings) -> Any:
    """The ASGI app (Socket.IO wrapping FastAPI) for ``settings``."""
    origins: Any = None
    if settings.allowed_origins:
        origins = "*" if "*" in settings.allowed_origins else settings.allowed_origins
    limiter = LogLimiter(log, rate=settings.log_lines_per_s)
    shared: dict[str, Any] = {}
    if settings.redis is not None:  # several processes (protocol.md §9)
        shared["client_manager"] = RedisRooms(settings.redis, channel="stoptable:socketio")
    sio = GuardedServer(
        garbage_burst=settings.garbage_burst,
        garbage_per_s=settings.garbage_per_s,
        limiter=limiter,
        async_mode="asgi",
        cors_allowed_origins=origins,
        max_http_buffer_size=64 * 1024,
        ping_interval=settings.ping_interval_s,
        ping_timeout=settings.ping_timeout_s,
        serializer=JsonPacket,
        json=wire,
        logger=False,
        engineio_logger=False,
        **shared,
    )
    backlogs = backlog.install(sio.eio, settings.max_send_buffer_bytes, limiter)
    if settings.lean_transport and lean.install(sio.eio):
        sio.inline_events = frozenset({"action"})
    store = Store(settings.db)
    metrics = Metrics()
    backlogs.on_drop = metrics.backlog_drops.inc
    collector = Collector(
        settings.gc_freeze_every_s,
        settings.gc_full_every_s,
        settings.gc_full_growth,
        metrics.gc_pauses,
    )
    process = ProcessInfo.this()
    lobby = Lobby(settings, store, sio, metrics)
    cluster = None
    if settings.redis is not None:
        cluster = Cluster(settings.redis, store, settings.lease_s, process.id)
        lobby.cluster = cluster
    router = Router(lobby, cluster)
    conns = router.conns
    # "redis" stays None (null in the answer) for the single process; a process started
    # with --redis answers with its PING (protocol.md §9)
    health = Health(process, {"store": store.ping, "redis": cluster.ping if cluster else None})
    metrics.watch(lambda: len(lobby.driving()), lambda: len(conns))
    seat_buckets: dict[tuple[str, int], Bucket] = {}
    sockets_from: Counter[str] = Counter()

    def bucket_for(table_id: str, seat: int | None) -> Bucket:
        if seat is None:
            return Bucket(settings.rate_per_s, float(settings.rate_burst))
        key = (table_id, seat)
        bucket = seat_buckets.get(key)
        if bucket is None:
            if len(seat_buckets) >= MAX_SEAT_BUCKETS:
                seat_buckets.clear()
            bucket = seat_buckets[key] = Bucket(settings.rate_per_s, float(settings.rate_burst))
        return bucket

    gate = CreateGate(
        settings.creates_per_min, settings.creates_burst, settings.waiting_per_address
    )

    def still_waiting(table_id: str) -> bool:
        table = lobby.tables.get(table_id)
        return table is not None and table.phase == "waiting"

    async def sweep() -> None:
        """Expire idle waiting tables, every minute (or sooner for a short TTL)."""
        every = min(60.0, settings.waiting_ttl_s / 4)
        while True:
            await asyncio.sleep(every)
            try:
                await lobby.expire(settings.waiting_ttl_s)
            except Exception as exc:  # the store was busy or gone: next time
                limiter.note("sweep", type(exc).__name__, str(exc))

    async def restore() -> None:
        count = await lobby.restore()
        log.info("rebuilt %d tables being played", count)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        quiet_accept_errors(limiter)
        await store.open()
        if cluster is not None:
            store.fence_on()
            await cluster.start()
            await shared["client_manager"].listening(sio)
        collector.start()
        # Tables being played are rebuilt in the background: /api/health answers at once,
        # and a visitor who asks for a table first has it loaded on the spot.
        background = [
            asyncio.create_task(restore()),
            asyncio.create_task(sweep()),
            asyncio.create_task(metrics.watch_loop()),
            asyncio.create_task(collector.run()),
        ]
        if cluster is not None:
            background.append(asyncio.create_task(router.watch_remote()))
        yield
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        driven = list(lobby.tables)
        await lobby.close()
        if cluster is not None:
            # SIGTERM hands the tables over: stopped here, their last writes settled,
            # leases ended, and the others told to take them now (protocol.md §9)
            await store.drain()
            await lobby.release(driven)
            await cluster.stop()
        await store.close()
        collector.stop()

    docs = settings.api_docs
    api = FastAPI(
        title="stoptable",
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url="/redoc" if docs else None,
        openapi_url="/openapi.json" if docs else None,
    )
    api.state.lobby = lobby
    api.state.health = health
    api.state.metrics = metrics

    @api.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _detail(exc)}, status_code=422)

    @api.exception_handler(LobbyError)
    async def _lobby_error(_request: Request, exc: LobbyError) -> JSONResponse:
        headers = None
        if exc.retry_after_s is not None:
            headers = {"Retry-After": str(exc.retry_after_s)}
        return JSONResponse(
            {"detail": cut(exc.message, 300)}, status_code=exc.status, headers=headers
        )

    @api.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return JSONResponse({"detail": "internal error"}, status_code=500)

    @api.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, JSON]:
        address = request.client.host if request.client else "?"
        try:
            gate.check(address, still_waiting)
        except TooMany as exc:
            limiter.note(address, "create limit", exc.message)
            raise LobbyError(429, exc.message, exc.retry_after_s) from None
        created = await lobby.create(body)
        gate.created(address, created.table_id)
        return created.to_json()

    @api.get("/api/tables")
    async def list_tables(
        offset: int = Query(0, ge=0, le=1_000_000), limit: int | None = Query(None, ge=1)
    ) -> JSONResponse:
        size = min(limit or settings.lobby_page_size, settings.lobby_page_size)
        page = await lobby.listing(offset, size)
        headers = {"X-Total-Count": str(page["total"])}
        if page["next"] is not None:
            headers["Link"] = f'</api/tables?offset={page["next"]}&limit={size}>; rel="next"'
        return JSONResponse(page["tables"], headers=headers)

    @api.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> JSON:
        return (await router.ask(table_id, "info", {}))["info"]

    @api.post("/api/tables/{table_id}/seats/{seat}")
    async def claim_seat(table_id: str, seat: int, body: ClaimSeat) -> dict[str, JSON]:
        answer = await router.ask(table_id, "claim", {"seat": seat, "name": body.name})
        return {"seat": seat, "token": answer["token"]}

    @api.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> PlainTextResponse:
        text = await lobby.record(table_id)
        return PlainTextResponse(text, media_type="application/x-ndjson")

    @api.get("/api/health")
    async def health_report() -> JSONResponse:
        ok, body = await health.report(lobby.driving(), len(lobby.tables))
        return JSONResponse(body, status_code=200 if ok else 503)

    scrapers = [ipaddress.ip_network(net, strict=False) for net in settings.metrics_allow]

    @api.get("/metrics")
    async def scrape(request: Request) -> Response:
        """Prometheus text, to the monitoring networks only (``metrics_allow``): the
        numbers are not secret, but strangers have no use for them (operations.md)."""
        if not _from(request, scrapers):
            raise HTTPException(404, "Not Found")
        return Response(metrics.exposition(), media_type=CONTENT_TYPE)

    # ------------------------------------------------------------------ Socket.IO

    async def connect(sid: str, environ: Any, auth: Any = None) -> None:
        try:
            await admit(sid, environ, auth)
        except socketio.exceptions.ConnectionRefusedError:
            raise
        except Exception as exc:  # never a traceback: the connection is refused
            limiter.note(sid, f"connect {type(exc).__name__}", str(exc))
            raise socketio.exceptions.ConnectionRefusedError("refused") from None

    async def admit(sid: str, environ: Any, auth: Any) -> None:
        address = client_address(environ)
        if sockets_from[address] >= settings.sockets_per_address:
            limiter.note(address, "sockets per address", str(settings.sockets_per_address))
            raise socketio.exceptions.ConnectionRefusedError("too many connections")
        try:
            parsed = Auth.model_validate(auth if auth is not None else {})
        except ValidationError:
            raise socketio.exceptions.ConnectionRefusedError(
                "auth must be {table, token?}"
            ) from None
        digest = None if parsed.token is None else token_hash(parsed.token)
        try:
            seat = await router.seat_of(parsed.table, digest)
        except LobbyError as exc:
            raise socketio.exceptions.ConnectionRefusedError(exc.message) from None
        except ValueError:
            raise socketio.exceptions.ConnectionRefusedError("bad token") from None
        sockets_from[address] += 1
        # After this handler returns and the CONNECT packet went out: the table's task
        # sends the first state and joins the rooms, so nothing reaches the client earlier.
        router.joined(sid, Conn(parsed.table, seat, address, bucket_for(parsed.table, seat)))

    async def disconnect(sid: str, *_args: Any) -> None:
        conn = router.left(sid)
        if conn is not None:
            sockets_from[conn.address] -= 1
            if sockets_from[conn.address] <= 0:
                del sockets_from[conn.address]

    def admitted(sid: str) -> Conn | dict[str, JSON]:
        """The connection of ``sid`` if it may send now (its seat's budget, shared by all
        its connections), else the refusal to answer with."""
        conn = conns.get(sid)
        if conn is None:
            return acks.NOT_CONNECTED
        if not conn.allow():
            return acks.RATE_LIMITED
        return conn

    async def action(sid: str, data: Any = None) -> dict[str, JSON]:
        conn = admitted(sid)
        if not isinstance(conn, Conn):
            return conn
        checked = check_action(data, settings.max_message_bytes)
        if isinstance(checked, str):
            return acks.malformed(checked)
        if conn.seat is None:
            return acks.SPECTATOR
        start = time.perf_counter()
        answer = await router.send(conn.table_id, "action", {"seat": conn.seat, "line": checked})
        metrics.ack_latency.observe(time.perf_counter() - start)
        return answer

    async def resume(sid: str, data: Any = None) -> dict[str, JSON]:
        conn = admitted(sid)
        if not isinstance(conn, Conn):
            return conn
        try:
            parsed = Resume.model_validate(data)
        except ValidationError:
            return acks.malformed("resume takes {seq: n}")
        answer = await router.send(conn.table_id, "seq", {})
        # The events go out after this ack (the task runs once this handler has returned).
        args: dict[str, JSON] = {"sid": sid, "seat": conn.seat, "after": parsed.seq}
        asyncio.get_running_loop().call_soon(
            router.spawn, router.quietly(conn.table_id, "resume", args)
        )
        return answer

    async def chat(sid: str, data: Any = None) -> dict[str, JSON]:
        """§8 chat: stored before its ack, then sent to every client of the table."""
        conn = admitted(sid)
        if not isinstance(conn, Conn):
            return conn
        text = check_chat(data)
        if text is None:
            return acks.malformed("chat takes {text}: 1 to 300 characters, no control characters")
        if conn.seat is None:
            return acks.SPECTATOR
        return await router.send(conn.table_id, "chat", {"seat": conn.seat, "text": text})

    async def rematch(sid: str, data: Any = None) -> dict[str, JSON]:
        """§8 play again: the next table, and this seat in it."""
        conn = admitted(sid)
        if not isinstance(conn, Conn):
            return conn
        if not check_empty(data):
            return acks.malformed("rematch takes {}")
        if conn.seat is None:
            return acks.SPECTATOR
        return await router.send(conn.table_id, "rematch", {"seat": conn.seat})

    async def other(event: str, sid: str, *_args: Any) -> dict[str, JSON]:
        return acks.malformed(f"unknown message {str(event)[:40]!r}")

    sio.on("connect", connect, namespace=NAMESPACE)
    sio.on("disconnect", disconnect, namespace=NAMESPACE)
    sio.on("action", sio.guarded(action, 1, NAMESPACE), namespace=NAMESPACE)
    sio.on("resume", sio.guarded(resume, 1, NAMESPACE), namespace=NAMESPACE)
    sio.on("chat", sio.guarded(chat, 1, NAMESPACE), namespace=NAMESPACE)
    sio.on("rematch", sio.guarded(rematch, 1, NAMESPACE), namespace=NAMESPACE)
    sio.on("*", sio.guarded_catch_all(other, NAMESPACE), namespace=NAMESPACE)

    mount_pages(api)
    edge = Edge(
        socketio.ASGIApp(sio, other_asgi_app=api),
        max_body_bytes=settings.max_body_bytes,
        body_timeout_s=settings.body_timeout_s,
        bad_frames=settings.garbage_burst,
        limiter=limiter,
    )
    return TrustedHosts(edge, allowed_hosts=settings.hosts())
