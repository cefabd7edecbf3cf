"""Stop conformance: components, setup, player count and malformed records (S-1..S-10).

Every scenario is a record replayed as ``stoptable replay`` does (rules/records.md).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.rules.stop_scenarios import (
    EN,
    FULL_DECK,
    JA,
    canon,
    deck_with,
    malformed,
    ok,
    play,
    pos,
    run,
)
from tests.support import replay

OUTPUT_KEYS = {
    "game", "ruleset", "phase", "seats", "round", "dealer", "next_dealer", "turn", "hands",
    "draw_pile", "discard", "pending", "obligations", "consecutive_passes", "last_reveal",
    "round_scores", "totals", "winners", "applied",
}  # fmt: skip


def seeded(seats: int, ruleset: str = EN, seed: int = 7, **extra: Any) -> dict[str, Any]:
    return ok(replay({"game": "stop", "ruleset": ruleset, "seats": seats, "seed": seed, **extra}))


def all_cards(out: dict[str, Any]) -> Counter[str]:
    cards: Counter[str] = Counter(out["draw_pile"]) + Counter(out["discard"])
    for hand in out["hands"]:
        cards += Counter(hand)
    return cards


def test_S1_S2_A2_A4_seeded_setup_uses_the_112_card_deck() -> None:
    """S-1: 4 colours x (0-9 twice, Skip/Exch/DrawX twice) = 104 coloured cards + 8 FC.
    S-2/A-4: the colours are R, B, G, Y. A-2: two 6s and two 9s per colour (four 6/9)."""
    out = seeded(4)
    cards = all_cards(out)
    assert cards == Counter(FULL_DECK)
    for colour in "RBGY":
        assert cards[f"{colour}6"] == 2
        assert cards[f"{colour}9"] == 2
        assert sum(n for code, n in cards.items() if code.startswith(colour)) == 26
    assert cards["FC"] == 8
    assert len(FULL_DECK) == 112
    assert {c[0] for c in FULL_DECK if c != "FC"} == {"R", "B", "G", "Y"}


def test_S2_unknown_colour_code_is_malformed() -> None:
    """S-2/records §4.1: only R, B, G, Y exist; a purple card in a position is exit 1."""
    malformed(run(EN, pos([["P4"], ["B1"]], ["B3"], 0)))


def test_S3_plain_number_card_has_no_effect() -> None:
    """S-3: 1, 3, 4, 5, 7 and 8 are plain; S-13: the turn passes to left(placer)."""
    out = ok(
        run(EN, pos([["R7", "B1", "G1"], ["B5", "G5"], ["Y5", "Y7"]], ["R3"], 0), play(0, "R7"))
    )
    assert out["pending"] is None
    assert out["turn"] == 1
    assert out["discard"] == ["R3", "R7"]


def test_S4_six_and_nine_are_the_same_number() -> None:
    """S-4: for matching, 6 and 9 are the same number (6≡9): a B9 may be played on an R6."""
    out = ok(run(EN, pos([["B9", "G1", "G2"], ["B5", "G5"]], ["R6"], 0), play(0, "B9")))
    assert out["discard"] == ["R6", "B9"]
    assert out["hands"][0] == ["G1", "G2"]


def test_S5_all_cards_used_with_two_and_ten_players() -> None:
    """S-5: all 112 cards are used whatever the number of players."""
    for seats in (2, 10):
        out = seeded(seats)
        assert all_cards(out) == Counter(FULL_DECK)
        assert [len(h) for h in out["hands"]] == [7] * seats
        assert len(out["discard"]) == 1
        assert len(out["draw_pile"]) == 112 - 7 * seats - 1


def test_S6_A1_player_count_bounds() -> None:
    """S-6/A-1: 2-10 players; records §2.1: outside it, exit 2 with only game, ruleset,
    seats, applied and error (reason player_count, line 1)."""
    for ruleset in (EN, JA):
        for seats in (1, 11):
            res = replay({"game": "stop", "ruleset": ruleset, "seats": seats})
            assert res.exit_code == 2
            assert res.output is not None
            assert set(res.output) == {"game", "ruleset", "seats", "applied", "error"}
            assert res.output["game"] == "stop"
            assert res.output["ruleset"] == ruleset
            assert res.output["seats"] == seats
            assert res.output["applied"] == 0
            assert res.output["error"]["reason"] == "player_count"
            assert res.output["error"]["line"] == 1
        assert seeded(10, ruleset)["seats"] == 10
        assert seeded(2, ruleset)["seats"] == 2


def test_S6_max_players_option_override() -> None:
    """S-6 {max_players}: a house rule may lower the maximum; 5 seats then fail."""
    res = replay({"game": "stop", "ruleset": EN, "seats": 5, "options": {"max_players": 4}})
    assert res.exit_code == 2
    assert res.output is not None
    assert res.output["error"]["reason"] == "player_count"


def test_S7_S10_first_dealer_begins() -> None:
    """S-7: the first dealer is seat {first_dealer} (default 0); S-10: the dealer takes the
    first turn."""
    out = seeded(3)
    assert out["dealer"] == 0
    assert out["turn"] == 0
    assert out["round"] == 1
    assert out["phase"] == "playing"
    assert out["next_dealer"] is None
    out = seeded(3, options={"first_dealer": 2})
    assert out["dealer"] == 2
    assert out["turn"] == 2


def test_S8_deal_from_deck_one_at_a_time_from_left_of_dealer() -> None:
    """S-8: deal 7 cards one at a time clockwise starting with left(dealer); records §4.2:
    card 0 goes to left(dealer). S-9: the next card is the starter."""
    deck = deck_with([])[::-1]  # any fixed order; reversed to make the deal non-trivial
    out = ok(replay({"game": "stop", "ruleset": EN, "seats": 3, "deck": deck}))
    # dealer 0: card 0 -> P1, card 1 -> P2, card 2 -> P0, ...
    assert out["hands"][1] == canon(deck[0:21:3])
    assert out["hands"][2] == canon(deck[1:21:3])
    assert out["hands"][0] == canon(deck[2:21:3])
    assert out["discard"] == [deck[21]]
    assert out["draw_pile"] == deck[22:]
    assert out["turn"] == 0


def test_S8_deal_with_first_dealer_option() -> None:
    """S-8 with dealer 1 of 2 seats: card 0 goes to left(1) = P0."""
    deck = deck_with(["R1", "B1", "R3", "B3", "R4", "B4", "R5", "B5", "R7", "B7"])
    out = ok(
        replay(
            {
                "game": "stop",
                "ruleset": EN,
                "seats": 2,
                "deck": deck,
                "options": {"first_dealer": 1, "deal_size": 5},
            }
        )
    )
    assert out["hands"] == [["R1", "R3", "R4", "R5", "R7"], ["B1", "B3", "B4", "B5", "B7"]]
    assert out["discard"] == [deck[10]]
    assert out["dealer"] == 1
    assert out["turn"] == 1


def test_S9_A5_starter_free_choice_goes_to_bottom() -> None:
    """S-9/A-5: a starter FC goes to the bottom of the draw pile and the next card is
    turned; records §4.2: a later turned FC goes below an earlier one."""
    front = ["R1"] * 2 + ["B1"] * 2 + ["G1"] * 2 + ["Y1"] * 2 + ["R3"] * 2 + ["B3"] * 2
    front += ["G3"] * 2 + ["FC", "FC", "Y4"]
    deck = deck_with(front)
    out = ok(replay({"game": "stop", "ruleset": EN, "seats": 2, "deck": deck}))
    assert out["discard"] == ["Y4"]
    assert out["draw_pile"] == [*deck[17:], "FC", "FC"]
    assert len(out["draw_pile"]) == 112 - 14 - 1


def test_S9_A5_starter_effect_never_applies() -> None:
    """S-9/A-5 {starter_effect=none}: a starter Skip or Draw Two creates no pending effect;
    the dealer (S-10) plays first."""
    for starter in ("RSkip", "R2", "RDrawX", "RExch"):
        for ruleset in (EN, JA):
            deck = deck_with(["B1", "B3", "B4", "B5", "B7", "B8", "G1", "G3", starter])
            out = ok(
                replay(
                    {
                        "game": "stop",
                        "ruleset": ruleset,
                        "seats": 2,
                        "deck": deck,
                        "options": {"deal_size": 4},
                    }
                )
            )
            assert out["discard"] == [starter]
            assert out["pending"] is None
            assert out["turn"] == 0
            assert out["hands"] == [["B3", "B5", "B8", "G3"], ["B1", "B4", "B7", "G1"]]


def test_S57_output_has_exactly_the_spec_fields() -> None:
    """S-57/records §4.5: the output object has exactly these keys; fresh round values."""
    out = seeded(3, ruleset=JA, options={"first_dealer": 1})
    assert set(out) == OUTPUT_KEYS
    assert out["game"] == "stop"
    assert out["ruleset"] == JA
    assert out["pending"] is None
    assert out["obligations"] == []
    assert out["consecutive_passes"] == 0
    assert out["last_reveal"] is None
    assert out["round_scores"] is None
    assert out["totals"] == [0, 0, 0]
    assert out["winners"] is None
    assert out["applied"] == 0
    for hand in out["hands"]:
        assert hand == canon(hand)


def test_S57_position_defaults() -> None:
    """records §4.2: a position's omitted keys take their defaults (dealer 0, round 1,
    pending null, obligations [], totals zeros, consecutive_passes 0, phase playing)."""
    out = ok(run(EN, pos([["B5", "R1"], ["Y5"]], ["R3"], 1, ["G1"])))
    assert out["hands"] == [["R1", "B5"], ["Y5"]]
    assert out["dealer"] == 0
    assert out["round"] == 1
    assert out["turn"] == 1
    assert out["pending"] is None
    assert out["totals"] == [0, 0]
    assert out["phase"] == "playing"
    assert out["draw_pile"] == ["G1"]
    assert out["discard"] == ["R3"]


# ---- malformed records: exit 1, never a traceback (records §1) ----


def test_S1_deck_of_wrong_composition_is_malformed() -> None:
    """records §4.2: ``deck`` must be exactly the S-1 deck (112 codes)."""
    short = FULL_DECK[:-1]
    malformed(replay({"game": "stop", "ruleset": EN, "seats": 2, "deck": short}))
    wrong = [*FULL_DECK[:-1], "R5"]  # three R5
    malformed(replay({"game": "stop", "ruleset": EN, "seats": 2, "deck": wrong}))


def test_S1_position_with_too_many_copies_is_malformed() -> None:
    """records §4.2: all cards of a position must be a sub-multiset of the 112-card deck."""
    malformed(run(EN, pos([["R5", "R5"], ["R5"]], ["B3"], 0)))
    malformed(run(EN, pos([["R10"], ["B5"]], ["B3"], 0)))  # no such card


def test_S58_malformed_headers_and_lines() -> None:
    """records §1/§2: unknown keys, unknown options/ruleset, missing required position
    keys, empty discard, a seat that does not exist, an unknown action type (there is no
    ``decline`` line) and invalid JSON are exit 1."""
    good = pos([["R1", "B1"], ["G1"]], ["R3"], 0, ["Y1"])
    malformed(run(EN, good, {"seat": 0, "type": "play", "cards": ["R1"], "bogus": 1}))
    malformed(run(EN, good, {"seat": 2, "type": "draw"}))
    malformed(run(EN, good, {"seat": 0, "type": "decline"}))
    malformed(run(EN, good, {"seat": 0, "type": "play"}))
    malformed(run(EN, good, options={"no_such_option": True}))
    malformed(run("abacus-xx", good))
    malformed(run(EN, pos([["R1"], ["G1"]], [], 0)))
    malformed(run(EN, {"hands": [["R1"], ["G1"]], "discard": ["R3"]}))  # no turn
    bad = {**good, "colour": "R"}
    malformed(run(EN, bad))
    malformed(replay({"game": "stop", "ruleset": EN, "seats": 2, "bogus": 1}))
