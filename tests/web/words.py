"""Checks of the words a page shows, shared by the browser tests (issue 19).

* :func:`no_internal_names`: no snake_case identifier, raw JSON or missing-key marker.
* :func:`mark_catalogues` and :func:`unmarked`: every message of the catalogues is served
  between ``⟪`` and ``⟫`` (a pseudo-locale, as translators use to find hard-coded text), so
  whatever visible text is left outside the marks did not come from a catalogue. What may
  stay outside: numbers and punctuation, the names and chat lines people typed, card and
  space notation (``h00c``), rule ids (``S-56``) and the keys on keyboard hints (``Enter``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
JSON_BITS = re.compile(r'[{\[]\s*"|"\s*:\s*[\[{"\d]')
OPEN, CLOSE = "⟪", "⟫"
_MESSAGE = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
_WORD = re.compile(r"[A-Za-z]{2,}|[\u3040-\u30ff\u3400-\u9fff]+")
_NOTATION = re.compile(r"\b(?:[SIG]-\d+|[A-Za-z]{1,2}\d+[a-z]?)\b")

VISIBLE_TEXT = """() => {
  // Visible text and the words given to assistive technology, with the keyboard hints
  // (<kbd>) and the printing on card and road-sign art (as on the real things) listed apart.
  const attrs = [];
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    for (const a of ["aria-label", "title", "placeholder", "alt"]) {
      const v = node.getAttribute(a);
      if (v) attrs.push(v);
    }
  }
  const kbd = [...document.querySelectorAll("kbd")].map((k) => k.textContent.trim());
  const art = [...document.querySelectorAll(".card-svg text, svg text.art")]
    .map((k) => k.textContent.trim());
  return { text: document.body.innerText, title: document.title, attrs, kbd, art };
}"""


def visible_text(page: Any) -> str:
    return str(page.evaluate("() => document.body.innerText"))


def no_internal_names(page: Any) -> None:
    """The page shows no snake_case identifier and no raw JSON (issue 19)."""
    text = visible_text(page)
    check_words(text)


def check_words(text: str) -> None:
    """``text`` has no snake_case identifier, raw JSON or missing message key."""
    assert not SNAKE.findall(text), SNAKE.findall(text)
    assert not JSON_BITS.search(text), JSON_BITS.search(text)
    assert "⟦" not in text, f"a message key is missing from the catalogue: {text!r}"


def mark_catalogues(page: Any) -> None:
    """Serve this page's catalogues with every message marked (before it loads them)."""

    def handle(route: Any) -> None:
        res = route.fetch()
        data = json.loads(res.text())
        marked = {key: f"{OPEN}{text}{CLOSE}" for key, text in data.items()}
        route.fulfill(
            response=res, body=json.dumps(marked), headers={"content-type": "application/json"}
        )

    page.route("**/static/i18n/*.json", handle)


def leftover(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` outside every marked message, less what may stay there."""
    before = None
    while before != text:
        before, text = text, _MESSAGE.sub(" ", text)
    for words in sorted(allowed, key=len, reverse=True):
        if words:
            text = text.replace(words, " ")
    return _WORD.findall(_NOTATION.sub(" ", text))


def unmarked(page: Any, allowed: Iterable[str] = ()) -> list[str]:
    """Visible words on ``page`` (text, title, accessible names) not from a catalogue, and
    no internal names anywhere; with :func:`mark_catalogues` in effect."""
    seen = page.evaluate(VISIBLE_TEXT)
    ok = [*allowed, *seen["kbd"], *seen["art"], "stoptable"]  # the product's own name
    found: list[str] = []
    for text in [seen["text"], seen["title"], *seen["attrs"]]:
        check_words(text.replace(OPEN, "").replace(CLOSE, ""))
        found += leftover(text, ok)
    return found
