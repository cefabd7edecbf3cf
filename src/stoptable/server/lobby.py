"""The lobby: creating tables, claiming seats, loading tables back from the store.

A service object with typed errors; the HTTP handlers in :mod:`stoptable.server.app` only
translate them to status codes. Everything game-specific comes from the game's spec
(rulesets, options, seat counts, replayer) and the bot registry.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

import socketio

from stoptable.bots.base import bot_names, make_bot
from stoptable.core.errors import IllegalAction, OptionError, RecordError, UnknownGame
from stoptable.core.game import GameSpec
from stoptable.core.protocol import JSON, StepKind
from stoptable.core.ruleset import Option
from stoptable.games import spec as game_spec
from stoptable.live.clock import TurnClock
from stoptable.live.machine import TableMachine
from stoptable.server.config import Settings
from stoptable.server.fanout import Fanout
from stoptable.server.messages import CreateTable
from stoptable.server.store import SeatRow, Store, TableRow, dumps
from stoptable.server.table import Table, now_ms

log = logging.getLogger("stoptable.server")


class LobbyError(Exception):
    """An HTTP error with its status and a one-line message."""

    def __init__(self, status: int, message: str, retry_after_s: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after_s = retry_after_s


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Created:
    table_id: str


def full_options(ruleset: Any) -> dict[str, JSON]:
    """Every option with its value: the stored header says exactly what the table played,
    whatever a replayer's defaults are (Stop it!'s replay defaults ``min_pause_ms`` to 0)."""
    return {opt.name: Option.to_json(getattr(ruleset, opt.name)) for opt in ruleset.OPTIONS}


class Lobby:
    """Live tables by id, and the operations of protocol.md §2."""

    def __init__(self, settings: Settings, store: Store, sio: socketio.AsyncServer) -> None:
        self.settings = settings
        self.store = store
        self.sio = sio
        self.tables: dict[str, Table] = {}
        self.loading = asyncio.Lock()
        self.pages: dict[tuple[int, int], tuple[float, dict[str, JSON]]] = {}

    # ------------------------------------------------------------------ create

    def _spec(self, game: str) -> GameSpec:
        try:
            return game_spec(game)
        except (UnknownGame, ModuleNotFoundError) as exc:
            raise LobbyError(422, f"game: {exc}") from None

    async def create(self, body: CreateTable) -> str:
        spec = self._spec(body.game)
        try:
            ruleset = spec.ruleset(body.ruleset, body.options)
        except OptionError as exc:
            raise LobbyError(422, str(exc)) from None
        try:
            spec.check_seats(body.seats, ruleset)
        except IllegalAction as exc:
            raise LobbyError(422, f"seats: {exc.message}") from None
        bots = body.bots if body.bots is not None else [None] * body.seats
        if len(bots) != body.seats:
            raise LobbyError(422, f"bots: give one entry per seat ({body.seats}), not {len(bots)}")
        try:
            known = bot_names(spec.name)
        except ModuleNotFoundError:
            known = []
        for name in bots:
            if name is not None and name not in known:
                raise LobbyError(
                    422, f"bots: unknown bot {name!r} for {spec.name} (known: {', '.join(known)})"
                )
        seed = body.seed if body.seed is not None else secrets.randbits(31)
        header = spec.header(ruleset, body.seats, seed).to_json()
        header["options"] = full_options(ruleset)
        try:
            spec.rebuild(header, [])
        except (RecordError, IllegalAction, ValueError) as exc:
            raise LobbyError(422, f"setup: {exc}") from None
        table_id = secrets.token_hex(6)
        config: dict[str, JSON] = {
            "bots": bots,
            "clock": None if body.clock is None else body.clock.model_dump(),
            "bot_delay_ms": body.bot_delay_ms,
            "round_pause_ms": body.round_pause_ms,
        }
        row = TableRow(
            id=table_id,
            game=spec.name,
            ruleset=ruleset.name,
            seats=body.seats,
            header=header,
            config=config,
            phase="waiting",
            seq=0,
            created_ms=now_ms(),
            started_ms=None,
        )
        await self.store.create_table(
            row, [SeatRow(k, bots[k], None, bots[k]) for k in range(body.seats)]
        )
        table = await self.load(row)
        self.pages.clear()
        if not table.free_seats():
            table.start()
        return table_id

    # ------------------------------------------------------------------ load

    async def load(self, row: TableRow) -> Table:
        """Build a live table from its stored row and lines (on create, on restart)."""
        spec = self._spec(row.game)
        lines = await self.store.lines(row.id)
        state = spec.rebuild(row.header, [line for _, line, _ in lines])
        seat_rows = await self.store.seats(row.id)
        config = row.config
        delay = config.get("bot_delay_ms")
        seed = int(row.header.get("seed", 0))
        bots: dict[int, Any] = {}
        people: dict[int, str | None] = {}
        for s in seat_rows:
            if s.bot is not None:
                bots[s.seat] = make_bot(spec.name, s.bot, s.seat, seed * 7919 + s.seat)
            else:
                people[s.seat] = s.token_hash
        clock_cfg = config.get("clock")
        clock = (
            None
            if not clock_cfg
            else TurnClock(float(clock_cfg["turn_s"]), float(clock_cfg["bank_s"]), row.seats)
        )
        pause = config.get("round_pause_ms")
        last_t = max([t for _, _, t in lines], default=0)

        def standin(seat: int) -> Any:
            return make_bot(spec.name, "heuristic", seat, seed * 7717 + seat)

        machine = TableMachine(
            spec,
            state,
            seq=len(lines),
            last_t=last_t,
            playing=row.started_ms is not None,
            bots=bots,
            people=people,
            standin=standin,
            clock=clock,
            round_pause_ms=self.settings.round_pause_ms if pause is None else int(pause),
            bot_delay_ms=self.settings.bot_delay_ms if delay is None else int(delay),
        )
        step = state.next_step()
        if step is not None and step.kind is not StepKind.TIMER:
            machine.step_seen = (step, last_t)  # a window or pause runs on from its stored time
        table = Table(
            table_id=row.id,
            ruleset=row.ruleset,
            machine=machine,
            store=self.store,
            fanout=Fanout(row.id, self.sio, self.settings.resume_limit),
            started_ms=row.started_ms,
            people=people,
        )
        self.tables[row.id] = table
        table.start_task()
        return table

    async def restore(self) -> int:
        """Rebuild every table being played (protocol.md §5); how many.

        Only started tables need their driver at once (clocks, bots, windows run on);
        waiting and finished ones load on first use. Each goes through :meth:`table`, so
        a visitor who asks for a table while this runs in the background never gets a
        second driver for it.
        """
        count = 0
        for row in await self.store.playing():
            try:
                await self.table(row.id)
            except Exception:
                log.exception("table %s cannot be rebuilt from its record; skipped", row.id)
                continue
            count += 1
        return count

    async def table(self, table_id: str) -> Table:
        """A live table, loaded from the store if needed; LobbyError 404 if unknown."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if len(table_id) > 32:
            raise LobbyError(404, f"no table {table_id!r}")
        async with self.loading:  # two first visitors must not start two drivers
            table = self.tables.get(table_id)
            if table is not None:
                return table
            row = await self.store.table(table_id)
            if row is None:
                raise LobbyError(404, f"no table {table_id!r}")
            if row.phase == "expired":
                raise LobbyError(410, f"table {table_id} expired waiting for players")
            return await self.load(row)

    async def expire(self, ttl_s: float) -> list[str]:
        """Tables still waiting ``ttl_s`` after they were created expire: their driver
        stops, the list leaves them out, and asking for them is 410 (operations.md)."""
        ids = await self.store.expire_waiting(now_ms() - int(ttl_s * 1000))
        for table_id in ids:
            table = self.tables.pop(table_id, None)
            if table is not None:
                await table.stop()
        if ids:
            self.pages.clear()
        return ids

    async def close(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()

    # ------------------------------------------------------------------ seats

    async def claim(self, table_id: str, seat: int, name: str) -> str:
        table = await self.table(table_id)
        if not 0 <= seat < table.state.seats:
            raise LobbyError(404, f"table {table_id} has no seat {seat}")
        if seat not in table.people:
            raise LobbyError(409, f"seat {seat} is a bot's")
        token = secrets.token_urlsafe(32)
        digest = token_hash(token)
        if table.people[seat] is not None or not await self.store.claim_seat(
            table_id, seat, name, digest
        ):
            raise LobbyError(409, f"seat {seat} is taken")
        table.people[seat] = digest
        self.pages.clear()
        if not table.free_seats():
            table.start()
        return token

    def info(self, table: Table) -> dict[str, JSON]:
        return {
            "table": table.id,
            "game": table.spec.name,
            "ruleset": table.ruleset,
            "seats": table.state.seats,
            "free_seats": table.free_seats(),
            "phase": table.phase,
        }

    async def listing(self, offset: int, limit: int) -> dict[str, JSON]:
        """One page of the lobby list (waiting tables first), kept for
        ``lobby_cache_s``: ``{"tables", "total", "offset", "next"}`` (``next``: the offset
        of the next page, or null). A create or a claim empties the cache."""
        key = (offset, limit)
        now = time.monotonic()
        cached = self.pages.get(key)
        if cached is not None and now - cached[0] < self.settings.lobby_cache_s:
            return cached[1]
        rows, total = await self.store.page(offset, limit)
        listed: list[JSON] = []
        for row in rows:
            live = self.tables.get(str(row["table"]))
            listed.append(self.info(live) if live is not None else row)
        page: dict[str, JSON] = {
            "tables": listed,
            "total": total,
            "offset": offset,
            "next": offset + limit if offset + limit < total else None,
        }
        if len(self.pages) >= 64:
            self.pages.clear()
        self.pages[key] = (now, page)
        return page

    async def record(self, table_id: str) -> str:
        row = await self.store.table(table_id)
        if row is None:
            raise LobbyError(404, f"no table {table_id!r}")
        if row.phase != "over":
            raise LobbyError(403, "the record is closed until the game is over")
        lines = await self.store.lines(table_id)
        return "".join(dumps(x) + "\n" for x in [row.header, *[line for _, line, _ in lines]])
