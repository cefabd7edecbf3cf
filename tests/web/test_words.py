"""Every visible word comes from a message catalogue (issue 19): pages are loaded with the
catalogues marked (tests/web/words.py) and every state reached is scanned for words outside
the marks, for snake_case identifiers and for raw JSON: the lobby with each game's folded
rules and a refused table, a Stop it! and a Stop & Go table with a refused action, to the
end and through their replays; every record line and every Stop log event of finished bot
games of each game and ruleset, put into words by the client's own functions."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from tests.web.conftest import require_game
from tests.web.helpers import game_data, join, seq, wait_seq_above
from tests.web.support import Server
from tests.web.words import check_words, leftover, mark_catalogues, unmarked


@pytest.fixture
def marked_page(new_page: Any) -> Any:
    """``marked_page(locale="ja-JP")``: a page whose catalogues are marked."""

    def make(locale: str = "ja-JP", width: int = 1280, height: int = 800) -> Any:
        page = new_page(width, height, locale=locale)
        mark_catalogues(page)
        return page

    return make


def open_all_details(page: Any) -> None:
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => (d.open = true))")


def test_the_lobby_each_game_and_a_refused_table(server: Server, marked_page: Any) -> None:
    page = marked_page()
    page.goto(server.url)
    page.wait_for_selector("#create #game")
    for game in ("stop", "stopit", "stopandgo"):
        page.select_option("#game", game)
        for ruleset in page.locator("#ruleset option").evaluate_all("(o) => o.map((x) => x.value)"):
            page.select_option("#ruleset", ruleset)
            page.wait_for_selector(f"#ruleset option[value='{ruleset}']:checked", state="attached")
            open_all_details(page)
            assert not unmarked(page), (game, ruleset, unmarked(page))
    # the server refuses an option: said in the page's language, naming the option
    page.select_option("#game", "stop")
    open_all_details(page)
    page.fill("#opt-deal_size", "99")
    page.fill("#creator-name", "Ann")
    page.click("#create-btn")
    page.wait_for_selector("#create-error:not([hidden])")
    text = page.inner_text("#create-error")
    assert "1" in text and "⟪" in text
    assert not unmarked(page, ["Ann"]), unmarked(page, ["Ann"])
    page.fill("#seats", "99")
    page.dispatch_event("#seats", "change")
    page.wait_for_selector("#seats-note.bad-note")
    assert not unmarked(page, ["Ann"])


def test_words_outside_the_catalogue_are_found() -> None:
    """The scan itself: a hard-coded word is found, a marked one and notation are not."""
    assert leftover("⟪Draw ⟪Ann⟫⟫ yes 12 h00c S-56 Enter", ["Enter"]) == ["yes"]
    assert leftover("⟪引く⟫ はい") == ["はい"]
    with pytest.raises(AssertionError):
        check_words("the game ended: target_score")
    with pytest.raises(AssertionError):
        check_words('{"type": "play"}')


def scan_until_over(page: Any, allowed: list[str], limit_ms: int = 30_000) -> None:
    waited = 0
    while game_data(page, "over") != "1":
        assert not unmarked(page, allowed), unmarked(page, allowed)
        assert waited < limit_ms, "the game did not end"
        page.wait_for_timeout(100)
        waited += 100
    page.wait_for_selector("dialog#over[open]")
    assert not unmarked(page, allowed), unmarked(page, allowed)


def replay_at(page: Any, k: int) -> None:
    """Move the replay's slider to position ``k`` and wait for that position's view."""
    page.evaluate(
        "(k) => { const s = document.getElementById('pos'); s.value = String(k);"
        " s.dispatchEvent(new Event('input')); }",
        k,
    )
    page.wait_for_selector(f"#count:has-text('{k} /')")
    page.wait_for_timeout(50)


def scan_replay(page: Any, url: str, table: str, allowed: list[str], stops: int = 4) -> int:
    """The replay at its end, its start and a few positions between; its length."""
    page.goto(f"{url}/t/{table}/replay")
    page.wait_for_selector("#event:not(:empty)")
    total = int(page.inner_text("#count").split("/")[1])
    for k in sorted({0, total, *range(1, total, max(1, total // stops))}):
        replay_at(page, k)
        assert not unmarked(page, allowed), (k, unmarked(page, allowed))
    return total


def test_stop_it_to_the_end_and_its_replay(server: Server, marked_page: Any) -> None:
    require_game("stopit")
    options = {"minus_supply": 1, "min_pause_ms": 0, "go_timeout_ms": 300}
    table = server.create("stopit", 2, [None, "normal"], options=options, bot_delay_ms=150)
    page = marked_page()
    join(page, server.url, table, 0, "あおい")
    assert not unmarked(page, ["あおい"])
    page.keyboard.press("g")
    page.keyboard.press("1")  # a grab, perhaps refused (a race): either way in words
    scan_until_over(page, ["あおい"])
    total = scan_replay(page, server.url, table, ["あおい"])
    # the panels follow the slider: no evaluation at the start, the last one at the end
    replay_at(page, 0)
    assert page.locator("#si-eval table").count() == 0
    start = page.inner_text("#si-others")
    replay_at(page, total)
    assert page.locator("#si-eval table").count() == 1
    assert page.inner_text("#si-others") != start


def test_stop_and_go_to_the_end_and_its_replay(server: Server, marked_page: Any) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    require_game("stopandgo")
    table = server.create("stopandgo", 2, [None, "normal"], options={"destination_count": 1})
    page = marked_page()
    join(page, server.url, table, 0, "あおい")
    page.wait_for_selector("#sg-map .hit.next")
    page.locator("#sg-map .hit:not(.next):not(.onpath)").last.dispatch_event("click")
    page.wait_for_selector("#error:not([hidden])")  # refused at once, in words
    assert not unmarked(page, ["あおい"]), unmarked(page, ["あおい"])
    for _ in range(200):
        if game_data(page, "over") == "1":
            break
        move = page.locator("#sg-moves button[data-path]")
        if move.count() and page.locator(".sg-panel #sg-move button[data-act=move]").count():
            before = seq(page)
            try:
                # The offer can go between the look and the click (the move before it
                # ended the game, or the bot moved): then look again, never wait 10 s.
                move.first.click(timeout=2000)
            except PlaywrightTimeout:
                continue
            wait_seq_above(page, before, timeout=5)  # the click's state, not a stale offer
        page.wait_for_timeout(40)
    scan_until_over(page, ["あおい"])
    total = scan_replay(page, server.url, table, ["あおい"])
    # the cars' table, the last move and the map follow the slider
    replay_at(page, 0)
    assert page.locator("#sg-last p.small").count() == 1  # no move yet
    cars = page.inner_text("#sg-cars")
    page.wait_for_selector("#sg-map[data-seq='0'] svg .car")
    at_start = page.inner_html("#sg-map svg")
    replay_at(page, total)
    assert page.locator("#sg-last p.small").count() == 0
    assert page.inner_text("#sg-cars") != cars
    page.wait_for_selector(f"#sg-map[data-seq='{total}'] svg .car")
    assert page.inner_html("#sg-map svg") != at_start


def stop_log_events() -> list[dict[str, Any]]:
    """One public event of each kind (and each with the cards only its seat sees) that
    seeded random Stop games of both rulesets make, S-64's stall included."""
    from stoptable import games
    from stoptable.core.rng import Rng
    from stoptable.games.stop.randomplay import step

    spec = games.spec("stop")
    seen: dict[tuple[str, bool], dict[str, Any]] = {}
    for ruleset in spec.rulesets:
        for seed in range(3):
            options = {"target_score": 100, "stall_actions": 40 if seed == 2 else 10_000}
            st = spec.new(ruleset, 3, seed=seed, options=options)
            rng = Rng(seed)
            for _ in range(2000):
                if st.phase == "round_over":
                    st.start_next_round()
                if st.phase == "game_over":
                    break
                step(st, rng, 0.5, 0.4)
                for seat in (None, 0):
                    for ev in st.view(seat)["log"]:
                        seen.setdefault((ev["kind"], "cards" in ev), ev)
    seen[("pass", False)] = {"kind": "pass", "seat": 1}  # needs both piles empty: rare
    kinds = {kind for kind, _ in seen}
    assert kinds >= STOP_EVENT_KINDS, STOP_EVENT_KINDS - kinds
    return list(seen.values())


STOP_EVENT_KINDS = {
    "play", "interject", "cancel", "draw", "accept", "reveal_draw", "reveal_play", "flip",
    "reveal", "skipped", "pass", "exchange", "reshuffle", "penalty", "round_end", "deal",
    "call", "stalled",
}  # fmt: skip
"""Every kind of event Stop's engine makes (state.py, resolve.py)."""

IN_WORDS = """async ([events, records]) => {
  const stop = await import("/static/js/games/stop.js");
  const lines = await import("/static/js/lines.js");
  const log = [];
  for (const ev of events) {
    for (const me of [0, null]) {
      const generic = stop.stopLogLine({ kind: "?", seat: ev.seat }, me);
      log.push([ev.kind, stop.stopLogLine(ev, me), generic]);
    }
  }
  const replay = records.map(([game, line]) => {
    const generic = line.chance !== undefined
      ? lines.recordLine(game, { chance: "?" })
      : lines.recordLine(game, { type: "?", seat: line.seat });
    const what = `${game} ${line.type ?? line.chance ?? "clock"}`;
    return [what, lines.recordLine(game, line), generic];
  });
  return { log, replay };
}"""


def test_every_log_event_and_record_line_in_words(server: Server, marked_page: Any) -> None:
    """Stop's log line for every event kind of both rulesets, and the replay's line for
    every line of finished games of each game and ruleset: each in words of its own (not
    the generic "someone acts"), from the catalogue, with no internal name."""
    quick_stop = {"deal_size": 3, "target_score": 1, "interjection_grace_ms": 0}
    made = [
        ("stop", server.create("stop", 3, ["easy"] * 3, options=quick_stop, round_pause_ms=0)),
        (
            "stop",
            server.create(
                "stop", 3, ["easy"] * 3, ruleset="abacus-ja", options=quick_stop, round_pause_ms=0
            ),
        ),
        ("stopit", server.create("stopit", 2, ["normal"] * 2, options={"minus_supply": 1})),
        (
            "stopandgo",
            server.create("stopandgo", 2, ["easy"] * 2, options={"destination_count": 1}),
        ),
    ]
    events = stop_log_events()
    records: list[tuple[str, dict[str, Any]]] = []
    for game, table in made:
        server.wait_phase(table, "over", 60)
        with urllib.request.urlopen(f"{server.url}/api/tables/{table}/record", timeout=10) as res:
            text = res.read().decode()
        records += [(game, json.loads(line)) for line in text.splitlines()[1:] if line.strip()]
    page = marked_page()
    page.goto(server.url)
    page.wait_for_selector("#create #game")
    found = page.evaluate(IN_WORDS, [events, records])
    for what, text, generic in [*found["log"], *found["replay"]]:
        check_words(text)
        assert not leftover(text), (what, text)
        assert text != generic, f"{what} has no words of its own: {text}"
