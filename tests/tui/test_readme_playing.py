"""README's "Playing" section and the apps' own help name the same keys and commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.text import Text

from stoptable.tui.stop_text import HELP as STOP_HELP
from stoptable.tui.stopandgo_text import HELP as STOPANDGO_HELP
from stoptable.tui.stopit_text import HELP as STOPIT_KEYS
from stoptable.tui.stopit_text import LONG_HELP as STOPIT_HELP

README = Path(__file__).resolve().parents[2] / "README.md"


def paragraph(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Playing") :]
    start = section.index(f"**{title}**")
    end = section.find("\n\n", start)
    return " ".join(section[start:end].split())


def plain(markup: str) -> str:
    return " ".join(Text.from_markup(markup).plain.split())


@pytest.mark.parametrize(
    ("title", "help_text", "both"),
    [
        (
            "Stop",
            STOP_HELP,
            ["3 a", "3 s", "1 4", "5 left", "swap 2", "save", "quit", "play R4 achtung"],
        ),
        (
            "Stop it!",
            STOPIT_KEYS + " " + " ".join(STOPIT_HELP),
            ["1-9", "Enter", "s", "p", "m", "g", "w", "q", "?"],
        ),
        ("Stop & Go", STOPANDGO_HELP, ["move a b c", "0", "save", "quit", "?", "F1"]),
    ],
)
def test_the_readme_names_what_the_help_names(title: str, help_text: str, both: list[str]) -> None:
    readme, shown = paragraph(title), plain(help_text)
    spans = re.findall(r"`([^`]*)`", readme)
    for word in both:
        in_code = any(span == word or span.startswith(word + " ") for span in spans)
        assert in_code or (len(word) >= 2 and word in readme), (title, word)
        assert word in shown, (title, word)
