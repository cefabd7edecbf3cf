"""Browser tests: Playwright's Python package driving Debian's Chromium (never a downloaded
browser) against one real ``stoptable serve`` per test process (starting it is most of a
test's time). The browser lives for one module: Playwright's sync API keeps an event loop
running while it is open, which the asyncio tests of other modules in the same worker cannot
share.

Without ``/usr/bin/chromium`` or the playwright package every test here skips with one
line; with ``STOPTABLE_REQUIRE_ALL=1`` (CI) that is a failure instead.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.support import ARGS, CHROMIUM, Server

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")


def _missing() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium; make test does it as root)"
    return None


def _check() -> None:
    why = _missing()
    if why is None:
        return
    if os.environ.get("STOPTABLE_REQUIRE_ALL") == "1":
        pytest.fail(f"STOPTABLE_REQUIRE_ALL=1 and the browser tests cannot run: {why}")
    pytest.skip(f"browser tests: {why}")


def require_game(game: str) -> None:
    """Skip (or fail under STOPTABLE_REQUIRE_ALL) when a game has no spec yet."""
    from stoptable import games

    try:
        games.spec(game)
    except ModuleNotFoundError as exc:
        if os.environ.get("STOPTABLE_REQUIRE_ALL") == "1":
            pytest.fail(f"{game}: {exc}")
        pytest.skip(f"{game} has no game spec in this tree ({exc})")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(Path(tmp_path_factory.mktemp("web")) / "t.db").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _check()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any, server: Server) -> Iterator[Any]:
    """``new_page(width=1280, height=800, locale=None)``: a page in a fresh context (its own
    storage); ``locale`` is the language the browser prefers (e.g. ``"ja-JP"``)."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 800, locale: str | None = None) -> Any:
        options: dict[str, Any] = {"viewport": {"width": width, "height": height}}
        if locale is not None:
            options["locale"] = locale
        ctx = browser.new_context(**options)
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"
