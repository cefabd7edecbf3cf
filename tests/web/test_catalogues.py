"""The web client's message catalogues (web/i18n/en.json, ja.json) are complete.

Every key the client asks for (``t("key")`` in the scripts, ``data-i18n*`` in the pages,
and the families it builds from data: games, rulesets, phases, endings, bot strengths) is in
both catalogues, with the plural forms each language needs (English: one and other;
Japanese: other). Runs without a browser.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from stoptable import games
from stoptable.bots.strength import STRENGTHS
from stoptable.games.stopandgo.svg_signs import SIGN_NAMES
from stoptable.server.pages import WEB

MAP = Path(games.__file__).parent / "stopandgo" / "maps" / "default.json"
PLURALS = {"en": ("one", "other"), "ja": ("other",)}
CALL = re.compile(r"""\bt\(\s*(["'])([a-z0-9_.\-]+)\1(\s*,\s*\{[^)]*\bcount\b)?""")
ATTR = re.compile(r'data-i18n(?:-aria|-title)?="([a-z0-9_.\-]+)"')


def catalogue(lang: str) -> dict[str, str]:
    data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def scripts() -> list[Path]:
    return sorted((WEB / "js").rglob("*.js"))


def used_keys() -> tuple[set[str], set[str]]:
    """(plain keys, plural keys) the scripts and pages name literally."""
    plain: set[str] = set()
    plural: set[str] = set()
    for path in scripts():
        for m in CALL.finditer(path.read_text(encoding="utf-8")):
            (plural if m.group(3) else plain).add(m.group(2))
    for page in WEB.glob("*.html"):
        plain |= set(ATTR.findall(page.read_text(encoding="utf-8")))
    return plain, plural


def data_keys() -> set[str]:
    """Keys the client builds from the server's data (`game.${x.game}` and the like)."""
    keys = {f"phase.{p}" for p in ("waiting", "playing", "over")}
    keys |= {f"bot.{s}" for s in STRENGTHS} | {f"bot.level.{s}" for s in STRENGTHS}
    keys |= {f"lang.{code}" for code in PLURALS}
    # families the views build from the engines' words (card colours and symbols, Stop it!
    # phases and colours, Stop's pending effects and logged event kinds)
    stop_colours = ("red", "blue", "green", "yellow")
    stopit_colours = ("red", "blue", "yellow", "green", "purple", "orange", "brown")
    keys |= {f"colour.{c}" for c in {*stop_colours, *stopit_colours}}
    keys |= {f"stopit.abbr.{c}" for c in stopit_colours}
    keys |= {f"card.{s}" for s in ("Skip", "Exch", "DrawX")}
    phases = ("waiting_go", "running", "interrupted", "evaluating", "game_over", "unknown")
    keys |= {f"stopit.phase.{p}" for p in phases}
    keys |= {f"stop.pending.{p}" for p in ("draw2", "skip", "drawx", "exchange", "effect")}
    keys |= {f"stop.log.{k}" for k in ("play", "interject")}
    keys |= {f"stop.log.{k}{s}" for k in ("draw", "accept", "reveal_draw") for s in ("", "_seen")}
    keys |= {f"chat.refused.{r}" for r in ("rate", "spectator", "malformed", "failed")}
    for name in ("stop", "stopit", "stopandgo"):
        spec = games.spec(name)
        keys.add(f"game.{name}")
        keys |= {f"ruleset.{r}" for r in spec.rulesets}
        keys |= {f"over.why.{why}" for why in spec.terminations}
        keys |= option_keys(name)
    keys |= {f"sg.sign.{kind}" for kind in SIGN_NAMES} | set(map_places())
    return keys


def map_places() -> dict[str, str]:
    """The default Stop & Go map's places by their catalogue keys, with their names."""
    data = json.loads(MAP.read_text(encoding="utf-8"))
    return {
        f"sg.place.{s['number']}": s["name"] for s in data["spaces"] if s.get("number") is not None
    }


def option_keys(game: str) -> set[str]:
    """The lobby's words for each option of every ruleset of ``game``: its label, its help
    and each of its choices (the option table's own words are English identifiers)."""
    keys: set[str] = set()
    spec = games.spec(game)
    for ruleset in spec.rulesets:
        for opt in type(spec.ruleset(ruleset, {})).OPTIONS:
            keys |= {f"opt.{opt.name}", f"opt.{opt.name}.help"}
            keys |= {f"opt.{opt.name}.choice.{c}" for c in opt.choices or ()}
    return keys


def has_plural(cat: dict[str, str], key: str, lang: str) -> bool:
    return all(f"{key}.{form}" in cat for form in PLURALS[lang])


@pytest.mark.parametrize("lang", list(PLURALS))
def test_every_key_the_client_uses_is_in_the_catalogue(lang: str) -> None:
    cat = catalogue(lang)
    plain, plural = used_keys()
    assert len(plain) > 50  # the scan finds the client's calls (a broken pattern finds none)
    missing = sorted(
        k for k in plain | data_keys() if k not in cat and not has_plural(cat, k, lang)
    )
    assert not missing, f"{lang}: missing keys {missing}"
    missing_plural = sorted(k for k in plural if k not in cat and not has_plural(cat, k, lang))
    assert not missing_plural, f"{lang}: missing plural forms of {missing_plural}"


def test_both_catalogues_have_the_same_messages() -> None:
    def base(key: str) -> str:
        head, _, tail = key.rpartition(".")
        return head if tail in ("zero", "one", "two", "few", "many", "other") else key

    en, ja = catalogue("en"), catalogue("ja")
    assert {base(k) for k in en} == {base(k) for k in ja}
    for key in {base(k) for k in en}:
        for lang, cat in (("en", en), ("ja", ja)):
            if key not in cat:
                assert has_plural(cat, key, lang), (lang, key)


def test_placeholders_match_between_languages() -> None:
    en, ja = catalogue("en"), catalogue("ja")
    field = re.compile(r"\{(\w+)\}")
    for key, text in ja.items():
        other = en.get(key) or en.get(key.rpartition(".")[0] + ".other", "")
        assert set(field.findall(text)) <= set(field.findall(other)) | {"count"}, key


def test_no_message_is_empty_or_untranslated_english() -> None:
    en, ja = catalogue("en"), catalogue("ja")
    assert all(text.strip() for text in [*en.values(), *ja.values()])
    same = {k for k in ja if k in en and ja[k] == en[k]}
    # Only names that are the same in both languages may be equal.
    allowed = {"lang.en", "lang.ja", "table.doc_title"}
    assert same <= allowed, sorted(same - allowed)


def test_the_map_words_in_english_are_the_maps_own() -> None:
    """The board's places and signs read in English as the map and the renderer name them
    (the catalogue only adds other languages)."""
    en = catalogue("en")
    assert {k: en[k] for k in map_places()} == map_places()
    assert {kind: en[f"sg.sign.{kind}"] for kind in SIGN_NAMES} == SIGN_NAMES
