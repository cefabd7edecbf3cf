"""Screenshots of the lobby and each table at 1280x800 and 375x812, in English and Japanese,
taken mid-game so that hands, piles, the map and the chat are on them, and of a finished
game's dialog.

A test run writes them to a temporary folder, so that `make test` never changes tracked
files; `STOPTABLE_SCREENSHOTS=docs/screenshots make unit` refreshes the ones the README links."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import require_game
from tests.web.helpers import join, seq, wait_seq_above
from tests.web.test_stop_table import Player

SIZES = {"desktop": (1280, 800), "mobile": (375, 812)}


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """Where the screenshots go: ``STOPTABLE_SCREENSHOTS`` if set, else a temporary folder."""
    chosen = os.environ.get("STOPTABLE_SCREENSHOTS")
    return Path(chosen).resolve() if chosen else tmp_path


def shoot(page: Any, out: Path, name: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for label, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        path = out / f"{name}-{label}.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size > 1000, f"{path} is empty"


LANGS = ["en", "ja"]


def lang_page(new_page: Any, lang: str) -> Any:
    page = new_page()
    page.add_init_script(f"localStorage.setItem('stoptable:lang', '{lang}')")
    return page


def suffix(lang: str) -> str:
    return "" if lang == "en" else f"-{lang}"


@pytest.mark.parametrize("lang", LANGS)
def test_lobby_screenshot(server: Any, new_page: Any, out: Path, lang: str) -> None:
    server.create("stop", 3, [None, "normal", "normal"])
    page = lang_page(new_page, lang)
    page.goto(server.url + "/")
    page.wait_for_selector(".table-list li")
    shoot(page, out, f"lobby{suffix(lang)}")


def say(page: Any, lang: str) -> None:
    """Two lines in the chat, so it is on the screenshot."""
    for text in ("Hi all! 👋", "よろしく！") if lang == "ja" else ("Hi all! 👋", "Good luck!"):
        page.fill(".chat-input", text)
        page.press(".chat-input", "Enter")
        try:
            page.wait_for_selector(f".chat-log li:has-text('{text}')", timeout=20_000)
        except PlaywrightTimeout as exc:  # say what the page said instead
            note = page.locator(".chat-note").inner_text()
            raise AssertionError(f"{text!r} not in the chat; the chat's note: {note!r}") from exc


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", ["stop", "stopit", "stopandgo"])
def test_table_screenshots(server: Any, new_page: Any, out: Path, game: str, lang: str) -> None:
    require_game(game)
    options: dict[str, int] = {"min_pause_ms": 0, "sort_grace_ms": 300} if game == "stopit" else {}
    if game == "stop":  # short real-time windows: the turns below come round sooner
        options = {"interjection_grace_ms": 200, "cancel_window_ms": 400}
    # Stop's "hard" bot searches for seconds a turn: the three turns below wait for it
    bots: list[str | None] = [None, "normal", "hard" if game == "stopandgo" else "normal", "easy"]
    delay = 300 if game == "stopit" else 0  # real-time bots at 0 ms leave nothing to grab
    table = server.create(game, 4, bots, options=options, bot_delay_ms=delay)
    page = lang_page(new_page, lang)
    join(page, server.url, table, 0, "Ann" if lang == "en" else "あおい")
    say(page, lang)
    page.evaluate("() => document.activeElement.blur()")  # the keys below play, not chat
    if game == "stop":
        me = Player(page, 0)
        for _ in range(3):  # a few turns, so the log and the piles have something on them
            page.wait_for_selector(".seat.me.turn", timeout=30_000)
            before = seq(page)
            if me.step():
                wait_seq_above(page, before, 3)
    elif game == "stopit":
        page.keyboard.press("g")
        for k in range(12):
            page.keyboard.press(str(1 + k % 5))
            page.wait_for_timeout(60)
    else:
        page.wait_for_selector("#sg-map .hit")
        nxt = page.locator("#sg-map .hit.next")
        if nxt.count():
            # the map is drawn again on every state: a space can go as it is clicked
            with contextlib.suppress(PlaywrightTimeout):
                nxt.first.click(timeout=2000)
    page.wait_for_timeout(300)  # past Stop's interjection grace
    shoot(page, out, f"{game}{suffix(lang)}")


@pytest.mark.parametrize("lang", LANGS)
def test_game_over_screenshot(server: Any, new_page: Any, out: Path, lang: str) -> None:
    require_game("stop")
    made = server.request(
        "POST",
        "/api/tables",
        {
            "game": "stop",
            "seats": 3,
            "bots": [None, "easy", "normal"],
            "options": {"deal_size": 3, "target_score": 1, "interjection_grace_ms": 100},
            "bot_delay_ms": 0,
            "round_pause_ms": 300,
            "seed": 5,
            "creator": {"seat": 0, "name": "Ann" if lang == "en" else "あおい"},
        },
    )
    page = lang_page(new_page, lang)
    page.goto(server.url)
    page.evaluate(
        "([t, s]) => localStorage.setItem('stoptable:seat:' + t, JSON.stringify(s))",
        [made["table"], {"seat": 0, "token": made["token"], "name": "Ann"}],
    )
    page.goto(f"{server.url}/t/{made['table']}")
    page.wait_for_selector(".who.seated")
    say(page, lang)
    me = Player(page, 0)
    for _ in range(400):
        if page.locator("dialog#over[open]").count():
            break
        before = seq(page)
        if me.step():
            wait_seq_above(page, before, 2)
        else:
            page.wait_for_timeout(50)
    page.wait_for_selector("dialog#over[open]")
    shoot(page, out, f"gameover{suffix(lang)}")
