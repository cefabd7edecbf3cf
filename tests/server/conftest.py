"""Fixtures of the server tests: a real uvicorn per test module on a temp SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.support import ThreadServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "t.db"
    srv = ThreadServer(f"sqlite+aiosqlite:///{db}").start()
    yield srv
    srv.stop()
