"""Cards: the S-1 deck, 6≡9, values and the canonical order of records.md §4.1."""

from __future__ import annotations

import copy
import pickle
from collections import Counter

import pytest

from stoptable.core.errors import InvalidNotation
from stoptable.games.stop import DECK_CARDS, FULL_DECK, parse_card, sort_cards
from stoptable.games.stop.cards import COLOURS, codes


def test_S1_deck_has_26_cards_per_colour_and_8_free_choice() -> None:
    assert len(FULL_DECK) == 112 == len(DECK_CARDS)
    counts = Counter(FULL_DECK)
    assert counts["FC"] == 8
    for colour in COLOURS:
        of_colour = [c for c in FULL_DECK if c.startswith(colour)]
        assert len(of_colour) == 26
        for rank in [*map(str, range(10)), "Skip", "Exch", "DrawX"]:
            assert counts[colour + rank] == 2


def test_S2_S3_colours_and_card_classes() -> None:
    assert COLOURS == ("R", "B", "G", "Y")
    assert all(parse_card(f"B{n}").is_number for n in range(10))
    for symbol in ("RSkip", "GExch", "YDrawX", "FC"):
        assert not parse_card(symbol).is_number
    assert parse_card("FC").colour_letter is None
    assert parse_card("YDrawX").colour_letter == "Y"


def test_S4_six_and_nine_are_the_same_number() -> None:
    assert parse_card("R6").identical(parse_card("R9"))
    assert not parse_card("R6").identical(parse_card("B9"))
    assert not parse_card("RSkip").identical(parse_card("RSkip"))
    assert parse_card("R9").code == "R9" and parse_card("R6").code == "R6"


def test_S53_card_values_face_and_nine() -> None:
    values = {"R0": 0, "R1": 1, "R2": 20, "R5": 5, "R6": 6, "R9": 9, "RSkip": 10, "RExch": 30}
    values |= {"RDrawX": 40, "FC": 50}
    for code, value in values.items():
        assert parse_card(code).value(nine=False) == value
    assert parse_card("G6").value(nine=True) == 9


def test_S5_canonical_order_of_records() -> None:
    hand = [parse_card(c) for c in ["FC", "B0", "RSkip", "R9", "R2"]]
    assert codes(hand) == ["R2", "R9", "RSkip", "B0", "FC"]
    assert [c.code for c in sort_cards(reversed(DECK_CARDS))] == list(FULL_DECK)
    assert [c.code for c in sorted(hand)] == ["R2", "R9", "RSkip", "B0", "FC"]
    assert parse_card("R9") < parse_card("RSkip") <= parse_card("B0")


def test_cards_are_interned_singletons() -> None:
    card = parse_card("B4")
    assert parse_card("B4") is card
    assert copy.copy(card) is card and copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert eval(repr(card), {"parse_card": parse_card}) is card


@pytest.mark.parametrize("code", ["", "B", "b4", "X4", "R10", "FC1", "RSKIP", "R-1"])
def test_parse_card_rejects_bad_codes(code: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_card(code)
