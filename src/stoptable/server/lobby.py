"""The lobby: creating tables, claiming seats, loading tables back from the store.

A service object with typed errors; the HTTP handlers in :mod:`stoptable.server.app` only
translate them to status codes. Everything game-specific comes from the game's spec
(rulesets, options, seat counts, replayer) and the bot registry.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import socketio

from stoptable.bots.base import bot_names, make_bot
from stoptable.bots.strength import STRENGTHS, bot_for
from stoptable.core.errors import IllegalAction, OptionError, RecordError, UnknownGame
from stoptable.core.game import GameSpec
from stoptable.core.protocol import JSON, StepKind
from stoptable.core.ruleset import Option
from stoptable.games import spec as game_spec
from stoptable.live.clock import TurnClock
from stoptable.live.machine import TableMachine
from stoptable.server.chat import HISTORY, ChatRoom
from stoptable.server.cluster import Cluster, Elsewhere
from stoptable.server.config import Settings
from stoptable.server.fanout import Fanout, batch_of
from stoptable.server.messages import CreateTable
from stoptable.server.metrics import Metrics
from stoptable.server.people import NameRefused, Roster, bot_label, clean_name, name_key
from stoptable.server.store import Carried, SeatRow, Store, TableRow, dumps
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
    """A new table, and the creator's seat and token when the body had ``creator``."""

    table_id: str
    seat: int | None = None
    token: str | None = None

    def to_json(self) -> dict[str, JSON]:
        if self.seat is None:
            return {"table": self.table_id}
        return {"table": self.table_id, "seat": self.seat, "token": self.token}


def checked_name(raw: str) -> str:
    """A name by §8's rules, or LobbyError 422 naming ``name``."""
    try:
        return clean_name(raw)
    except NameRefused as exc:
        raise LobbyError(exc.status, exc.message) from None


def full_options(ruleset: Any) -> dict[str, JSON]:
    """Every option with its value: the stored header says exactly what the table played,
    whatever a replayer's defaults are (Stop it!'s replay defaults ``min_pause_ms`` to 0)."""
    return {opt.name: Option.to_json(getattr(ruleset, opt.name)) for opt in ruleset.OPTIONS}


class Lobby:
    """Live tables by id, and the operations of protocol.md §2."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        sio: socketio.AsyncServer,
        metrics: Metrics | None = None,
    ) -> None:
        self.settings = settings
        self.metrics = metrics if metrics is not None else Metrics()
        self.store = store
        self.sio = sio
        self.tables: dict[str, Table] = {}
        self.loading = asyncio.Lock()
        self.pages: dict[tuple[int, int], tuple[float, dict[str, JSON]]] = {}
        self.used: dict[str, float] = {}
        self.chores: set[asyncio.Task[Any]] = set()
        """Table id -> when it was last asked for (which finished tables stay loaded)."""
        self.seating = asyncio.Lock()
        """Claims and rematches one at a time: a name is checked and taken in one go."""
        self.cluster: Cluster | None = None
        """Set when this is one of several processes (protocol.md §9): a table is loaded
        here only once this process holds its lease; otherwise :meth:`table` raises
        :class:`~stoptable.server.cluster.Elsewhere` naming the process that drives it."""
        self.on_adopt: Callable[[Table], None] | None = None
        """Called with a table this process starts driving (its local connections are
        registered with it again)."""

    # ------------------------------------------------------------------ create

    def _spec(self, game: str) -> GameSpec:
        try:
            return game_spec(game)
        except (UnknownGame, ModuleNotFoundError) as exc:
            raise LobbyError(422, f"game: {exc}") from None

    async def create(self, body: CreateTable) -> Created:
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
        offered = [*STRENGTHS, *known] if known else []
        for name in bots:
            if name is not None and name not in offered:
                raise LobbyError(
                    422,
                    f"bots: unknown bot {name!r} for {spec.name} (known: {', '.join(offered)})",
                )
        creator: tuple[int, str] | None = None
        if body.creator is not None:
            k = body.creator.seat
            if not 0 <= k < body.seats or bots[k] is not None:
                raise LobbyError(422, f"creator.seat: {k} is not a person's seat of this table")
            name = checked_name(body.creator.name)
            bot_names_here = [bot_label(j, b) for j, b in enumerate(bots) if b is not None]
            if name_key(name) in {name_key(b) for b in bot_names_here}:
                raise LobbyError(409, "name taken")
            creator = (k, name)
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
        seat_rows = [SeatRow(k, bots[k], None, bots[k]) for k in range(body.seats)]
        token: str | None = None
        if creator is not None:
            token = secrets.token_urlsafe(32)
            seat_rows[creator[0]] = SeatRow(creator[0], creator[1], token_hash(token), None)
        await self.store.create_table(row, seat_rows)
        if self.cluster is not None and await self.cluster.acquire(table_id) is None:
            raise LobbyError(503, "the new table could not be taken; try again")
        table = await self.load(row)
        self.pages.clear()
        if not table.free_seats():
            table.start()
        if creator is None:
            return Created(table_id)
        return Created(table_id, creator[0], token)

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
        roster = Roster.empty(row.seats)
        roster.next = row.next_table
        for s in seat_rows:
            if s.bot is not None:
                bot = bot_for(spec.name, s.bot)
                bots[s.seat] = make_bot(spec.name, bot, s.seat, seed * 7919 + s.seat)
                roster.bots[s.seat] = s.bot
            else:
                people[s.seat] = s.token_hash
                roster.names[s.seat] = s.name if s.token_hash else None
                if s.rematch:
                    roster.via_rematch.add(s.seat)
        clock_cfg = config.get("clock")
        clock = (
            None
            if not clock_cfg
            else TurnClock(float(clock_cfg["turn_s"]), float(clock_cfg["bank_s"]), row.seats)
        )
        pause = config.get("round_pause_ms")
        last_t = max([t for _, _, t in lines], default=0)
        carried = (
            await self.store.carried(row.id, self.settings.resume_limit)
            if lines
            else Carried(None, [])
        )

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
            live=carried.live,
        )
        history = await self.store.chat(row.id, HISTORY)
        step = state.next_step()
        if step is not None and step.kind is not StepKind.TIMER:
            machine.step_seen = (step, last_t)  # a window or pause runs on from its stored time
        table = Table(
            table_id=row.id,
            ruleset=row.ruleset,
            machine=machine,
            store=self.store,
            fanout=Fanout(
                row.id, self.sio, self.settings.resume_limit, shared=self.cluster is not None
            ),
            started_ms=row.started_ms,
            people=people,
        )
        table.roster = roster
        table.chat = ChatRoom(row.id, row.created_ms, self.store, self.sio, history)
        table.fanout.remember([batch_of(*b) for b in carried.batches])
        table.metrics = self.metrics
        machine.reopen(table.now())
        log.info(
            "table %s driven here: %s, seq %d",
            row.id,
            table.phase,
            machine.seq,
            extra={"table": row.id},
        )
        self.tables[row.id] = table
        self.used[row.id] = time.monotonic()
        table.on_over = self._finished
        table.on_lost = self._lost
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
        if self.cluster is not None:
            ids = await self.store.orphans(limit=100_000)  # the others drive the rest
        else:
            ids = [row.id for row in await self.store.playing()]
        for table_id in ids:
            try:
                await self.table(table_id)
            except Elsewhere:
                continue
            except Exception:
                log.exception(
                    "table %s cannot be rebuilt from its record; skipped",
                    table_id,
                    extra={"table": table_id},
                )
                continue
            count += 1
        return count

    async def table(self, table_id: str) -> Table:
        """A live table, loaded from the store if needed; LobbyError 404 if unknown."""
        table = self.tables.get(table_id)
        if table is not None:
            self.used[table_id] = time.monotonic()
            return table
        if len(table_id) > 32:
            raise LobbyError(404, f"no table {table_id!r}")
        cluster = self.cluster
        if cluster is not None:
            owner = await cluster.owner_of(table_id)
            if owner is not None and owner != cluster.me:
                raise Elsewhere(table_id, owner)
        async with self.loading:  # two first visitors must not start two drivers
            table = self.tables.get(table_id)
            if table is not None:
                return table
            row = await self.store.table(table_id)
            if row is None:
                raise LobbyError(404, f"no table {table_id!r}")
            if row.phase == "expired":
                raise LobbyError(410, f"table {table_id} expired waiting for players")
            token = None
            if cluster is not None:
                token = await cluster.acquire(table_id)
                if token is None:  # another process was quicker
                    cluster.forget(table_id)
                    owner = await cluster.owner_of(table_id)
                    raise Elsewhere(table_id, owner or "?")
            table = await self.load(row)
            self.used[table_id] = time.monotonic()
            if table.phase == "waiting" and not table.free_seats():
                table.start()  # every seat was taken, but the start was never stored
            if cluster is not None and token is not None:
                cluster.adopted(table_id, token)
                self.metrics.takeovers.inc()
                if self.on_adopt is not None:
                    self.on_adopt(table)
            await self.unload_finished()
            return table

    def driving(self) -> list[str]:
        """The ids of the tables this process drives now (``GET /api/health``, §9): every
        table loaded here whose runner still runs (a finished one too, until it leaves
        memory: its connections and chat are served here)."""
        return sorted(t.id for t in self.tables.values() if not t.broken)

    def _lost(self, table: Table) -> None:
        """Another process drives ``table`` now (a write of it was fenced off)."""
        task = asyncio.get_running_loop().create_task(self.drop([table.id]))
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)

    async def drop(self, table_ids: list[str]) -> list[Table]:
        """Stop driving ``table_ids`` here (they were taken over, or this process's leases
        may have run out): their runners stop, every waiting action is answered
        ``unavailable``; the tables dropped."""
        dropped = []
        for table_id in table_ids:
            table = self.tables.pop(table_id, None)
            self.used.pop(table_id, None)
            if self.store.fences is not None:
                self.store.fences.pop(table_id, None)
            if self.cluster is not None:
                self.cluster.forget(table_id)
            if table is not None:
                await table.stop()
                dropped.append(table)
        return dropped

    async def release(self, table_ids: list[str]) -> None:
        """This process lets ``table_ids`` go (unloaded, expired, stopping)."""
        if self.cluster is not None and table_ids:
            with contextlib.suppress(Exception):
                await self.cluster.release(table_ids)

    def _finished(self, table: Table) -> None:
        """A game ended: finished tables beyond the kept number may leave memory now."""
        log.info("table %s: game over at seq %d", table.id, table.seq, extra={"table": table.id})
        task = asyncio.get_running_loop().create_task(self.unload_finished())
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)

    async def unload_finished(self) -> int:
        """Finished tables nobody is connected to, beyond the ``finished_tables_kept``
        most recently asked for, leave memory (their record stays in the store, and the
        next request loads them again): reading old games must not grow the process
        without bound (operations.md, "Running it in public"). How many left."""
        idle = [
            t
            for t in self.tables.values()
            if t.phase == "over" and not any(t.fanout.conns.values())
        ]
        excess = len(idle) - self.settings.finished_tables_kept
        if excess <= 0:
            return 0
        idle.sort(key=lambda t: self.used.get(t.id, 0.0))
        for table in idle[:excess]:
            self.tables.pop(table.id, None)
            self.used.pop(table.id, None)
            await table.stop()
        await self.release([t.id for t in idle[:excess]])
        return excess

    async def expire(self, ttl_s: float) -> list[str]:
        """Tables still waiting ``ttl_s`` after they were created expire: their driver
        stops, the list leaves them out, and asking for them is 410 (operations.md)."""
        ids = await self.store.expire_waiting(now_ms() - int(ttl_s * 1000))
        mine = []
        for table_id in ids:
            table = self.tables.pop(table_id, None)
            if table is not None:
                await table.stop()
                mine.append(table_id)
        await self.release(mine)
        if ids:
            self.pages.clear()
        return ids

    async def close(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()

    # ------------------------------------------------------------------ seats

    async def claim(self, table_id: str, seat: int, raw_name: str) -> str:
        table = await self.table(table_id)
        if not 0 <= seat < table.state.seats:
            raise LobbyError(404, f"table {table_id} has no seat {seat}")
        if seat not in table.people:
            raise LobbyError(409, f"seat {seat} is a bot's")
        name = checked_name(raw_name)
        async with self.seating:
            if table.people[seat] is not None:
                raise LobbyError(409, f"seat {seat} is taken")
            return await self._seat(table, seat, name, rematch=False)

    async def _seat(self, table: Table, seat: int, name: str, *, rematch: bool) -> str:
        """Give the free person's ``seat`` of ``table`` to ``name`` (under ``seating``)."""
        try:
            table.roster.check_free_name(name, seat)
        except NameRefused as exc:
            raise LobbyError(exc.status, exc.message) from None
        token = secrets.token_urlsafe(32)
        digest = token_hash(token)
        if not await self.store.claim_seat(table.id, seat, name, digest, rematch=rematch):
            raise LobbyError(409, f"seat {seat} is taken")
        table.people[seat] = digest
        self.pages.clear()
        table.roster.names[seat] = name
        if rematch:
            table.roster.via_rematch.add(seat)
        table.refresh()
        if not table.free_seats():
            table.start()
        return token

    # ------------------------------------------------------------------ play again

    async def rematch(self, table: Table, seat: int) -> dict[str, JSON]:
        """§8 ``rematch`` from a person's ``seat`` of a finished ``table``: the next table
        (made by the first one to ask) and this seat in it, under the same name."""
        if table.phase != "over":
            message = "play again once the game is over"
            return {"ok": False, "reason": "not_over", "rule": "", "message": message}
        name = table.roster.names[seat]
        if name is None:
            return {"ok": False, "reason": "spectator", "rule": "", "message": "watching only"}
        async with self.seating:
            if table.roster.next is None:
                next_id = await self._again(table)
                await self.store.set_next(table.id, next_id)
                table.roster.next = next_id
                table.refresh()
            nxt = await self.table(table.roster.next)
            if seat in nxt.roster.via_rematch and nxt.roster.names[seat] == name:
                token = secrets.token_urlsafe(32)  # the same person asked again
                await self.store.new_token(nxt.id, seat, token_hash(token))
                nxt.people[seat] = token_hash(token)
            elif nxt.people.get(seat, "bot") is not None:
                message = f"seat {seat} of the next table is taken"
                return {"ok": False, "reason": "taken", "rule": "", "message": message}
            else:
                try:
                    token = await self._seat(nxt, seat, name, rematch=True)
                except LobbyError as exc:
                    return {"ok": False, "reason": "taken", "rule": "", "message": exc.message}
        return {"ok": True, "table": nxt.id, "seat": seat, "token": token}

    async def _again(self, table: Table) -> str:
        """A new table like ``table``: same game, ruleset, options, seats, bots, clock,
        bot delay and round pause, a new server-drawn seed, every person's seat free."""
        row = await self.store.table(table.id)
        assert row is not None
        config = row.config
        body = CreateTable.model_validate(
            {
                "game": row.game,
                "ruleset": row.ruleset,
                "options": row.header.get("options") or {},
                "seats": row.seats,
                "bots": config.get("bots"),
                "clock": config.get("clock"),
                "bot_delay_ms": config.get("bot_delay_ms"),
                "round_pause_ms": config.get("round_pause_ms"),
            }
        )
        return (await self.create(body)).table_id

    def info(self, table: Table) -> dict[str, JSON]:
        return {
            "table": table.id,
            "game": table.spec.name,
            "ruleset": table.ruleset,
            "seats": table.state.seats,
            "free_seats": table.free_seats(),
            "phase": table.phase,
            "players": table.players(),
            "next": table.roster.next,
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
            seat_rows = row.pop("seat_rows")
            live = self.tables.get(str(row["table"]))
            if live is not None:
                listed.append(self.info(live))
                continue
            roster = Roster.empty(int(str(row["seats"])))
            assert isinstance(seat_rows, list)
            for entry in seat_rows:
                assert isinstance(entry, list)
                seat, name, bot, claimed = entry
                assert isinstance(seat, int)
                roster.bots[seat] = bot if isinstance(bot, str) else None
                roster.names[seat] = str(name) if bot is None and claimed else None
            listed.append({**row, "players": roster.players(set(), set())})
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
