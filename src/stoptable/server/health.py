"""``GET /api/health`` (protocol.md §9, operations.md): which process this is, the tables
it drives, and whether what it depends on answers (the store; Redis where configured).

A load balancer or a person reads it, so it is cheap: one ``SELECT 1`` per dependency,
each bounded by :data:`PROBE_TIMEOUT_S`. It answers 200 while every dependency answers,
503 otherwise (HAProxy's ``option httpchk`` takes a process out of rotation then).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final

from stoptable.core.protocol import JSON

PROBE_TIMEOUT_S: Final = 2.0

Probe = Callable[[], Awaitable[None]]
"""Answers None when the dependency is reachable; raises (or times out) when not."""


@dataclass(frozen=True, slots=True)
class ProcessInfo:
    """Who answers: ``id`` is unique per process start (host, pid and a random tail, so a
    restarted process with a recycled pid is a new id)."""

    id: str
    pid: int
    host: str
    started: float = field(default_factory=time.time)

    @classmethod
    def this(cls) -> ProcessInfo:
        host, pid = socket.gethostname(), os.getpid()
        return cls(f"{host}:{pid}:{secrets.token_hex(3)}", pid, host)

    def to_json(self) -> dict[str, JSON]:
        return {"id": self.id, "pid": self.pid, "host": self.host, "started": int(self.started)}


async def probe(check: Probe | None, timeout_s: float = PROBE_TIMEOUT_S) -> JSON:
    """``{"ok": true, "ms"}`` or ``{"ok": false, "error"}`` (the error's class and first
    words: a person reads it), or None when the dependency is not configured."""
    if check is None:
        return None
    start = time.perf_counter()
    try:
        await asyncio.wait_for(check(), timeout_s)
    except Exception as exc:  # unreachable, refused, timed out: all say "not ok"
        detail = str(exc).splitlines()[0][:200] if str(exc) else ""
        return {"ok": False, "error": f"{type(exc).__name__}: {detail}".rstrip(": ")}
    return {"ok": True, "ms": round((time.perf_counter() - start) * 1000, 2)}


@dataclass(slots=True)
class Health:
    """The process and its dependencies. ``probes`` maps a field of the answer (``store``,
    ``redis``) to its check, None where that dependency is not configured."""

    process: ProcessInfo
    probes: dict[str, Probe | None]

    async def report(self, driving: list[str], loaded: int) -> tuple[bool, dict[str, JSON]]:
        """(every dependency answered, the answer's body)."""
        names = list(self.probes)
        results = await asyncio.gather(*(probe(self.probes[n]) for n in names))
        checks: dict[str, JSON] = dict(zip(names, results, strict=True))
        ok = all(r is None or (isinstance(r, dict) and r.get("ok") is True) for r in results)
        body: dict[str, JSON] = {
            "ok": ok,
            "process": self.process.to_json(),
            "driving": list(driving),
            "tables": loaded,
            **checks,
        }
        return ok, body
