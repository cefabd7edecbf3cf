"""Server settings: command-line flags and ``STOPTABLE_*`` environment variables."""

from __future__ import annotations

import ipaddress
from typing import Literal, Self

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DB = "sqlite+aiosqlite:///stoptable.db"


class Settings(BaseSettings):
    """Everything an operator may set. Flags of ``stoptable serve`` win over the environment.

    ``allowed_origins``: the browser origins Socket.IO accepts (``*`` for any; the default
    is the server's own origin only). ``rate_per_s`` / ``rate_burst``: a token bucket per
    connection. ``bot_delay_ms``: the bots' thinking time when a table does not fix it
    (None: each bot's own human-like delay). The limits a stranger meets (body size,
    timeouts, connections, creations, garbage) are listed with their answers in
    operations.md, "Running it in public".
    """

    model_config = SettingsConfigDict(env_prefix="STOPTABLE_", extra="ignore")

    db: str = DEFAULT_DB
    redis: str | None = None
    """``redis://HOST:PORT/N``: one of several processes on one PostgreSQL (protocol.md §9)."""
    lease_s: float = Field(default=4.0, ge=1.0, le=60.0)
    """How long a process's hold on a table lasts without renewal (renewed every quarter
    of it): the bound on a takeover after a ``kill -9`` is about this plus a scan."""
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    allowed_origins: list[str] = Field(default_factory=list)
    rate_per_s: float = Field(default=20.0, gt=0)
    rate_burst: int = Field(default=40, ge=1)
    bot_delay_ms: int | None = Field(default=None, ge=0)
    round_pause_ms: int = Field(default=4000, ge=0)
    max_message_bytes: int = Field(default=8192, ge=256)
    resume_limit: int = Field(default=200, ge=0)
    # Running it in public (operations.md): every limit a stranger meets.
    allowed_hosts: list[str] = Field(default_factory=list)
    api_docs: bool = False
    max_body_bytes: int = Field(default=1024 * 1024, ge=1024, le=1024 * 1024)
    body_timeout_s: float = Field(default=10.0, gt=0, le=300)
    header_timeout_s: float = Field(default=10.0, gt=0, le=300)
    garbage_burst: int = Field(default=20, ge=1)
    garbage_per_s: float = Field(default=0.5, gt=0)
    log_lines_per_s: float = Field(default=2.0, gt=0)
    connections_per_address: int = Field(default=64, ge=1)
    sockets_per_address: int = Field(default=32, ge=1)
    creates_per_min: float = Field(default=10.0, gt=0)
    creates_burst: int = Field(default=10, ge=1)
    waiting_per_address: int = Field(default=20, ge=1)
    waiting_ttl_s: float = Field(default=3600.0, gt=0)
    lobby_page_size: int = Field(default=50, ge=1, le=500)
    lobby_cache_s: float = Field(default=2.0, ge=0)
    finished_tables_kept: int = Field(default=200, ge=0, le=100_000)
    """Finished tables kept loaded without a connection (the rest are read from the store
    again when asked for)."""
    forwarded_allow_ips: str = "127.0.0.1"
    metrics_allow: list[str] = Field(default_factory=lambda: ["127.0.0.0/8", "::1/128"])
    """The networks that may read ``GET /metrics`` (the client's address as the trusted
    proxy forwards it); every other address gets 404. ``["0.0.0.0/0", "::/0"]`` opens it."""
    gc_freeze_every_s: float = Field(default=1.0, ge=0, le=60)
    """How often the young objects are frozen out of the cyclic collector's sight instead of
    searched (0: Python's own young collections; operations.md, "Memory and the garbage
    collector")."""
    gc_full_every_s: float = Field(default=600.0, ge=1, le=86_400)
    """How often a full collection reclaims the cyclic garbage frozen since the last one."""
    gc_full_growth: int = Field(default=1_000_000, ge=10_000)
    """A full collection comes sooner once the frozen objects grew by this many."""
    max_send_buffer_bytes: int = Field(default=1024 * 1024, ge=256 * 1024, le=64 * 1024 * 1024)
    """What one connection may have waiting to be sent (a client that stops reading): past
    it the connection is dropped (server/backlog.py; a table's change is a few kB)."""
    ping_interval_s: float = Field(default=25.0, ge=1.0, le=300.0)
    ping_timeout_s: float = Field(default=20.0, ge=1.0, le=300.0)
    """Engine.IO's heartbeat: a client that answers no ping within interval plus timeout
    is closed (a silent or stalled client; python-engineio's defaults)."""
    lean_transport: bool = True
    """Serve Engine.IO WebSockets the lean way (server/lean.py: no task per frame, a
    seat's messages in one write); off, or on a python-engineio other than the pinned one,
    the library's own path serves them (operations.md, "Session 8")."""
    log_format: Literal["text", "json"] = "text"
    """``json``: one JSON object per log line, with the table id (operations.md)."""

    def hosts(self) -> list[str]:
        """The Host headers served: ``allowed_hosts``, else the bound host and localhost."""
        if self.allowed_hosts:
            return list(self.allowed_hosts)
        return sorted({self.host, "localhost", "127.0.0.1", "::1", "[::1]"})

    @model_validator(mode="after")
    def _cluster_needs_postgres(self) -> Self:
        if self.redis is not None and not self.db.startswith("postgresql+asyncpg://"):
            raise ValueError(
                "--redis runs several processes on one database: give --db "
                "postgresql+asyncpg://… (SQLite has one writer, one process)"
            )
        if self.redis is not None and not self.redis.startswith(("redis://", "rediss://")):
            raise ValueError("redis must be a redis:// or rediss:// URL")
        return self

    @field_validator("metrics_allow")
    @classmethod
    def _networks(cls, value: list[str]) -> list[str]:
        for net in value:
            ipaddress.ip_network(net, strict=False)  # ValueError: pydantic says which
        return value

    @field_validator("db")
    @classmethod
    def _known_driver(cls, value: str) -> str:
        if not value.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
            raise ValueError("db must be a sqlite+aiosqlite:// or postgresql+asyncpg:// URL")
        return value
