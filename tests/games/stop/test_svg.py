"""Stop's card art in Python is the browser's (web/js/cards.js), byte for byte."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from stoptable.games.stop.svg import back_svg, card_svg, table_svg
from stoptable.rl.stop_codec import CODES

WEB = Path(__file__).resolve().parents[3] / "src" / "stoptable" / "web"

I18N_STUB = """
const en = JSON.parse(process.env.EN_CATALOGUE);
export function t(key, params = {}) {
  return (en[key] ?? key).replace(/\\{(\\w+)\\}/g, (_, k) => String(params[k]));
}
export function has(key) {
  return key in en;
}
"""

SCRIPT = """
import { stopCardSvg, cardBackSvg } from "./cards.js";
const codes = JSON.parse(process.argv[2]);
console.log(JSON.stringify({cards: codes.map(stopCardSvg), back: cardBackSvg()}));
"""


def test_the_cards_are_the_browsers_byte_for_byte(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (make sysdeps installs nodejs)")
    for module in ("cards.js", "dom.js"):  # and the catalogue stubbed: i18n.js below
        shutil.copy(WEB / "js" / module, tmp_path / module)
    (tmp_path / "i18n.js").write_text(I18N_STUB)
    (tmp_path / "run.mjs").write_text(SCRIPT)
    out = subprocess.run(
        [node, str(tmp_path / "run.mjs"), json.dumps(list(CODES))],
        capture_output=True,
        text=True,
        check=True,
        env={"EN_CATALOGUE": (WEB / "i18n" / "en.json").read_text()},
    )
    browser = json.loads(out.stdout)
    assert [card_svg(code) for code in CODES] == browser["cards"]
    assert back_svg() == browser["back"]


def test_a_table_shows_the_seats_own_hand_and_the_top_card() -> None:
    view = {
        "seat": 1,
        "seats": 3,
        "hand": ["Y9", "R0", "FC"],
        "top": "GSkip",
        "draw_size": 50,
        "hand_sizes": [4, 3, 6],
        "totals": [10, 0, 3],
        "turn": 1,
        "pending": None,
        "round": 2,
        "phase": "playing",
    }
    svg = table_svg(view)
    assert svg.count('viewBox="0 0 60 90"') == 5  # the pile's back, the top card, 3 in hand
    assert svg.index('aria-label="red 0"') < svg.index('aria-label="yellow 9"')  # sorted
    assert 'aria-label="green Skip"' in svg and "you: 3 cards" in svg
