"""A throwaway PostgreSQL server for the store tests (Debian's ``postgresql`` package).

``initdb`` in a temp dir, a free port, ``pg_ctl start``; as root the server runs as the
``postgres`` user (initdb refuses root). :func:`find_bin` is None where PostgreSQL is not
installed: the tests that need it skip with one line saying so.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.server.support import free_port


def find_bin() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


class Postgres:
    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="stoptable-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=60)

    def start(self) -> Postgres:
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        opts = f"-p {self.port} -k {self.dir} -h 127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", opts, "-w", "-l", str(self.dir / "log"), "start"
        )
        return self

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
