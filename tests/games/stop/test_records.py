"""Records and replay for Stop (records.md §2-§4): setup, errors, exit codes, chance lines."""

from __future__ import annotations

import json
from typing import Any

import pytest

from stoptable.core.records import replay_lines
from stoptable.games import replayer
from stoptable.games.stop import FULL_DECK, new_game
from tests.support import replay

EXAMPLE = {
    "game": "stop",
    "ruleset": "abacus-en",
    "seats": 2,
    "position": {
        "hands": [["Y8", "B3"], ["G2", "R0"]],
        "discard": ["Y2"],
        "draw_pile": ["B7", "R1"],
        "turn": 0,
    },
}
PLAY_Y8 = {"seat": 0, "type": "play", "cards": ["Y8"], "calls": ["achtung"]}
DRAW1 = {"seat": 1, "type": "draw"}


def head(**kw: Any) -> dict[str, Any]:
    return {**EXAMPLE, **kw}


def pos(**kw: Any) -> dict[str, Any]:
    return {**EXAMPLE["position"], **kw}  # type: ignore[dict-item]


def test_records_example_of_section_7() -> None:
    result = replay(EXAMPLE, PLAY_Y8, DRAW1)
    assert result.exit_code == 0
    out = result.output
    assert out is not None
    assert out["hands"] == [["B3"], ["R0", "B7", "G2"]]
    assert (out["discard"], out["draw_pile"], out["turn"]) == (["Y2", "Y8"], ["R1"], 0)
    assert out["applied"] == 2
    bad = replay(EXAMPLE, PLAY_Y8, DRAW1, {"seat": 0, "type": "play", "cards": ["G2"]})
    assert bad.exit_code == 2 and bad.output is not None
    assert bad.output["error"]["line"] == 4 and bad.output["error"]["reason"] == "not_in_hand"
    assert {k: v for k, v in bad.output.items() if k != "error"} == out
    # without the call: penalty B7 R1 right after the placement, then the reshuffle (S-16)
    late = replay(EXAMPLE, {**PLAY_Y8, "calls": []}, DRAW1)
    assert late.output is not None
    assert late.output["hands"] == [["R1", "B3", "B7"], ["R0", "G2", "Y2"]]
    assert late.output["discard"] == ["Y8"]


def test_records_output_keys_in_order() -> None:
    out = replay(EXAMPLE).output
    assert out is not None
    assert list(out) == [
        "game", "ruleset", "phase", "seats", "round", "dealer", "next_dealer", "turn", "hands",
        "draw_pile", "discard", "pending", "obligations", "consecutive_passes", "last_reveal",
        "round_scores", "totals", "winners", "applied",
    ]  # fmt: skip


@pytest.mark.parametrize("seats", [1, 11])
def test_S6_player_count_is_exit_2_on_line_1(seats: int) -> None:
    result = replay({"game": "stop", "ruleset": "abacus-ja", "seats": seats})
    assert result.exit_code == 2
    assert result.output == {
        "game": "stop",
        "ruleset": "abacus-ja",
        "seats": seats,
        "applied": 0,
        "error": result.output["error"] if result.output else None,
    }
    assert result.output is not None and result.output["error"]["reason"] == "player_count"
    assert result.output["error"]["line"] == 1


def test_S8_seeded_setup_is_deterministic() -> None:
    one = replay({"game": "stop", "ruleset": "abacus-en", "seats": 4, "seed": 5}).output
    two = replay({"game": "stop", "ruleset": "abacus-en", "seats": 4, "seed": 5}).output
    other = replay({"game": "stop", "ruleset": "abacus-en", "seats": 4, "seed": 6}).output
    assert one == two != other
    assert one is not None and one == {**new_game("abacus-en", 4, seed=5).to_json(), "applied": 0}


def test_S9_deck_setup_puts_turned_fcs_at_the_bottom() -> None:
    rest = list(FULL_DECK)
    front = ["R1", "B1", "R2", "B2", "FC", "FC", "G5"]
    for code in front:
        rest.remove(code)
    deck = front + rest
    out = replay(
        {"game": "stop", "ruleset": "abacus-en", "seats": 2, "deck": deck,
         "options": {"deal_size": 2}}
    ).output  # fmt: skip
    assert out is not None
    assert out["hands"] == [["B1", "B2"], ["R1", "R2"]]
    assert out["discard"] == ["G5"] and out["draw_pile"] == [*rest, "FC", "FC"]


@pytest.mark.parametrize(
    "header",
    [
        {"game": "stop", "ruleset": "abacus-xx", "seats": 2},
        {"game": "stop", "ruleset": "abacus-en", "seats": 2, "options": {"nope": 1}},
        {"game": "stop", "ruleset": "abacus-en", "seats": 2, "options": {"voluntary_draw": 3}},
        {"game": "stop", "ruleset": "abacus-en", "seats": 2, "deck": list(FULL_DECK)[:-1]},
        {"game": "stop", "ruleset": "abacus-en", "seats": 2, "deck": [*FULL_DECK[:-1], "R1"]},
        {"game": "stop", "ruleset": "abacus-en", "seats": 2, "deck": [*FULL_DECK[:-1], "X1"]},
        {"game": "stop", "ruleset": "abacus-en", "seats": 2, "map": "x.json"},
        head(position=pos(extra=1)),
        head(position=pos(turn=2)),
        head(position={"hands": [["R1"], []], "discard": ["B4"]}),
        head(position=pos(hands=[["Y8"]])),
        head(position=pos(hands=[["R1", "R1", "R1"], []])),
        head(position=pos(discard=[])),
        head(position=pos(discard=["FC"])),
        head(position=pos(draw_pile=["Q9"])),
        head(position=pos(phase="round_over")),
        head(position=pos(pending={"kind": "draw2", "count": 2, "victim": 1, "colour": "Y"})),
        head(position=pos(pending={"kind": "boom"})),
        head(position=pos(obligations=[{"seat": 0, "kind": "achtung", "placed": 0}])),
        head(position=pos(totals=[0])),
    ],
)
def test_bad_headers_are_exit_1(header: dict[str, Any]) -> None:
    result = replay(header)
    assert result.exit_code == 1 and result.message


@pytest.mark.parametrize(
    "event",
    [
        {"seat": 2, "type": "draw"},
        {"seat": -1, "type": "draw"},
        {"seat": 0, "type": "play", "cards": ["Y8"], "colour": "R"},
        {"seat": 0, "type": "play", "cards": ["Y9"], "mode": "swap", "target": 5},
        {"seat": 0, "type": "interject", "card": "Y88"},
        {"chance": "roll", "value": 3},
        {"chance": "shuffle"},
        {"chance": "shuffle", "order": ["Y2"], "seed": 1},
        {"clock": 5},
    ],
)
def test_malformed_events_are_exit_1(event: dict[str, Any]) -> None:
    assert replay(EXAMPLE, event).exit_code == 1


def test_S16_shuffle_line_gives_the_new_draw_pile() -> None:
    position = pos(hands=[["Y8", "B3"], ["G2", "R0"]], discard=["R5", "Y2", "B4", "Y1"],
                   draw_pile=[], turn=1)  # fmt: skip
    order = {"chance": "shuffle", "order": ["B4", "R5", "Y2"]}
    out = replay(head(position=position), order, DRAW1).output
    assert out is not None
    assert out["hands"][1] == ["R0", "B4", "G2"] and out["draw_pile"] == ["R5", "Y2"]
    assert out["discard"] == ["Y1"]
    wrong = {"chance": "shuffle", "order": ["B4", "R5", "R5"]}
    assert replay(head(position=position), wrong, DRAW1).exit_code == 1
    # not consumed by the next seat action, or left at the end of the record
    assert replay(head(position=position), order, DRAW1, {"seat": 0, "type": "draw"}).exit_code == 0
    assert replay(EXAMPLE, order, PLAY_Y8).exit_code == 1
    assert replay(EXAMPLE, order).exit_code == 1


def test_S50_round_over_rejects_seat_actions_and_takes_a_shuffle_line() -> None:
    position = pos(hands=[["Y8"], ["G2", "R0"]])
    end = {"seat": 0, "type": "play", "cards": ["Y8"], "calls": ["stop"]}
    result = replay(head(position=position), end, DRAW1)
    assert result.exit_code == 2 and result.output is not None
    assert result.output["error"]["reason"] == "round_over"
    assert result.output["phase"] == "round_over" and result.output["next_dealer"] == 1
    assert result.output["round_scores"] == [0, 20] and result.output["turn"] is None
    order = list(reversed(FULL_DECK))
    out = replay(head(position=position), end, {"chance": "shuffle", "order": order}).output
    assert out is not None
    assert (out["round"], out["dealer"], out["turn"], out["phase"]) == (2, 1, 1, "playing")
    assert out["hands"][0] == sorted(out["hands"][0], key=FULL_DECK.index)
    assert out["totals"] == [0, 20] and out["round_scores"] is None
    seeded = replay(head(position=position), end, {"chance": "shuffle"}).output
    assert seeded is not None and seeded["round"] == 2


def test_S56_shuffle_line_in_game_over_is_malformed() -> None:
    position = pos(hands=[["Y8"], ["G2", "R0"]], totals=[0, 490])
    end = {"seat": 0, "type": "play", "cards": ["Y8"], "calls": ["stop"]}
    out = replay(head(position=position), end).output
    assert out is not None and out["phase"] == "game_over" and out["winners"] == [0]
    assert replay(head(position=position), end, {"chance": "shuffle"}).exit_code == 1


def test_S39_cancel_window_closes_before_other_events_and_at_the_end() -> None:
    position = pos(hands=[["YExch", "B3"], ["G2", "Y0"]], discard=["Y2"])
    exch = {"seat": 0, "type": "play", "cards": ["YExch"], "calls": ["achtung"], "mode": "left"}
    out = replay(head(position=position), exch).output
    assert out is not None and out["pending"] is None and out["hands"] == [["G2", "Y0"], ["B3"]]
    open_window = replay(head(position=position), exch, upto=1)
    assert open_window.output is not None and open_window.output["pending"] is None
    bad_cancel = {"seat": 1, "type": "cancel", "card": "G2"}
    result = replay(head(position=position), exch, bad_cancel)
    assert result.exit_code == 2 and result.output is not None
    assert result.output["pending"] == {
        "kind": "exchange", "exchanger": 0, "mode": "left", "target": None, "colour": "Y",
    }  # fmt: skip
    cancel = {"seat": 1, "type": "cancel", "card": "Y0"}
    out = replay(
        head(position=position), exch, bad_cancel | {"card": "Y0", "calls": ["achtung"]}
    ).output
    assert out is not None and out["hands"] == [["B3"], ["G2"]] and out["turn"] == 0
    late = replay(head(position=position), exch, DRAW1, cancel)
    assert late.output is not None and late.output["error"]["reason"] == "nothing_pending"


def test_blank_lines_count_for_line_numbers() -> None:
    lines = [json.dumps({"format": "stoptable-record/1", **EXAMPLE}), "", json.dumps(DRAW1)]
    result = replay_lines(lines, replayer)
    assert result.exit_code == 2 and result.output is not None
    assert result.output["error"] == {
        "line": 3, "reason": "not_your_turn", "rule": "S-11", "message": "it is seat 0's turn",
    }  # fmt: skip


def test_a_stalled_match_is_in_its_record_and_replays_to_the_same_end() -> None:
    """S-64: a driver-written record of a match that the stall cap ended names the option
    in its header and replays to the same final state (the count is part of the rules)."""
    from stoptable.bots.base import make_bot
    from stoptable.sim.stop import play_match

    bots = [make_bot("stop", "random", seat, 7 + seat) for seat in range(2)]
    match = play_match("abacus-en", bots, 5, {"stall_actions": 40}, record=True)
    assert match.record is not None
    lines = match.record.lines()
    assert json.loads(lines[0])["options"] == {"stall_actions": 40}
    assert max(match.totals) < 500 and match.round_lengths[-1] == 40  # ended by the stall
    result = replay_lines(lines, replayer)
    assert result.exit_code == 0 and result.output is not None
    assert {**result.output, "applied": None} == {**match.final_state, "applied": None}
    assert result.output["phase"] == "game_over"
