"""Fixtures of the server tests: a real uvicorn per test module on a temp SQLite file, and
one throwaway PostgreSQL server for the whole session (started by the first test that
asks for it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.pg import Postgres, find_bin
from tests.server.support import ThreadServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "t.db"
    srv = ThreadServer(f"sqlite+aiosqlite:///{db}").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    bindir = find_bin()
    if bindir is None:
        pytest.skip(
            "PostgreSQL is not installed (apt-get install postgresql; make test does it as root)"
        )
    pg = Postgres(bindir).start()
    yield pg
    pg.stop()
