"""Accessibility (WCAG 2.1 AA) of every page in both languages, checked by axe-core
(vendored from npm by scripts/vendor.sh): no serious or critical violation on the lobby,
a table of each game (seated, with its chat), a finished game's dialog and its replay."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import require_game
from tests.web.helpers import join, wait_state
from tests.web.support import Server

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    page.add_script_tag(url="/static/vendor/axe.min.js")
    found = page.evaluate(
        """async (tags) => {
            const r = await axe.run(document, { runOnly: { type: "tag", values: tags } });
            return r.violations
                .filter((v) => v.impact === "serious" || v.impact === "critical")
                .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" "))}`);
        }""",
        TAGS,
    )
    return list(found)


def open_page(new_page: Any, lang: str) -> Any:
    page = new_page()
    page.add_init_script(f"localStorage.setItem('stoptable:lang', '{lang}')")
    return page


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_lobby(server: Server, new_page: Any, lang: str) -> None:
    page = open_page(new_page, lang)
    page.goto(server.url)
    page.wait_for_selector("#create #game")
    assert page.evaluate("() => document.documentElement.lang") == lang
    found = violations(page)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", ["stop", "stopit", "stopandgo"])
def test_a_table_of_each_game(server: Server, new_page: Any, lang: str, game: str) -> None:
    require_game(game)
    table = server.create(game, 2, [None, "normal"], bot_delay_ms=400)
    page = open_page(new_page, lang)
    join(page, server.url, table, 0, "Ann")
    wait_state(page)
    page.wait_for_timeout(300)
    found = violations(page)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_game_over_and_the_replay(server: Server, new_page: Any, lang: str) -> None:
    require_game("stop")
    table = server.create(
        "stop",
        2,
        ["easy", "normal"],
        options={"deal_size": 3, "target_score": 1, "interjection_grace_ms": 0},
        round_pause_ms=0,
    )
    server.wait_phase(table, "over")
    page = open_page(new_page, lang)
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_selector("dialog#over[open]")
    found = violations(page)
    assert not found, "\n".join(found)
    page.goto(f"{server.url}/t/{table}/replay")
    page.wait_for_selector("#st-seats .seat")
    found = violations(page)
    assert not found, "\n".join(found)
