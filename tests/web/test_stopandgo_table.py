"""Stop & Go in the browser: a move picked by clicking the spaces of its path on the map,
and an illegal path refused with its reason and rule."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import require_game
from tests.web.helpers import join, seq, wait_seq_above
from tests.web.support import Server


def test_move_by_clicking_spaces_and_an_illegal_path(server: Server, new_page: Any) -> None:
    require_game("stopandgo")
    table = server.create("stopandgo", 2, [None, "heuristic"])
    page = new_page()
    join(page, server.url, table, 0, "Ann")
    page.wait_for_selector("#sg-map .hit.next")
    # the whole map in view at 1280x800, no inner scroll; the zoom buttons enlarge it
    svg = page.locator("#sg-map svg").bounding_box()
    assert svg is not None and svg["y"] + svg["height"] <= 800
    fits = (
        "() => { const m = document.getElementById('sg-map');"
        " return [m.scrollWidth <= m.clientWidth + 1, m.scrollHeight <= m.clientHeight + 1]; }"
    )
    assert page.evaluate(fits) == [True, True]
    page.click("button[data-zoom=in]")
    assert page.evaluate(fits)[0] is False
    page.click("button[data-zoom=fit]")
    assert page.evaluate(fits) == [True, True]
    start = page.inner_text("#sg-cars tbody tr:first-child td:nth-child(2)")
    # An illegal path: a space far from the car, sent as it is; the server refuses it.
    far = page.locator("#sg-map .hit:not(.next):not(.onpath)").last
    far.dispatch_event("click")  # refused at once, with its rule: no Move needed
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#sg-move button[data-act=move][data-focus=sg-go]").is_disabled()
    refusal = page.inner_text("#error")
    assert "Not allowed" in refusal and "G-" in refusal
    # Back to the car, then click legal next spaces until the path is a legal move.
    page.keyboard.press("Escape")
    at = seq(page)
    for _ in range(8):
        page.locator("#sg-map .hit.next").first.dispatch_event("click")
        if "✓ legal" in page.inner_text("#sg-move .path"):
            break
    assert "✓ legal" in page.inner_text("#sg-move .path")
    page.click("#sg-move button[data-focus=sg-go]")
    assert wait_seq_above(page, at, 5)
    page.wait_for_function(
        "(s) => document.querySelector('#sg-cars tbody tr td:nth-child(2)').textContent !== s",
        arg=start,
    )
