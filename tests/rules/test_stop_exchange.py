"""Stop conformance: Card Exchange and its cancel window (S-38..S-41, A-16, A-17, A-30,
A-32, records §4.4.2)."""

from __future__ import annotations

from tests.rules.stop_scenarios import (
    EN,
    JA,
    call_achtung,
    cancel,
    ok,
    play,
    pos,
    rejected,
    run,
)

DRAW = ["B5", "B7", "G8", "Y8", "G7"]
EX3 = pos([["RExch", "R1", "G3"], ["R0", "B1", "B3"], ["R0", "Y1", "Y3", "Y4"]], ["R5"], 0, DRAW)


def exch(exchanger: int, mode: str, target: int | None, colour: str) -> dict[str, object]:
    return {
        "kind": "exchange",
        "exchanger": exchanger,
        "mode": mode,
        "target": target,
        "colour": colour,
    }


def test_S41_exchange_left() -> None:
    """S-41: with left, every hand moves to its left neighbour at the same moment; the
    turn passes to left(exchanger). records §4.4.2: at the end of the events the cancel
    window closes without a cancel and the exchange is performed."""
    for ruleset in (EN, JA):
        out = ok(run(ruleset, EX3, play(0, "RExch", mode="left")))
        assert out["hands"] == [["R0", "Y1", "Y3", "Y4"], ["R1", "G3"], ["R0", "B1", "B3"]]
        assert out["turn"] == 1
        assert out["pending"] is None
        assert out["discard"] == ["R5", "RExch"]


def test_S41_exchange_right() -> None:
    """S-41: with right, hands move to the right neighbour."""
    out = ok(run(EN, EX3, play(0, "RExch", mode="right")))
    assert out["hands"] == [["R0", "B1", "B3"], ["R0", "Y1", "Y3", "Y4"], ["R1", "G3"]]
    assert out["turn"] == 1


def test_S38_S41_A16_swap_ja() -> None:
    """S-38 {exchange_modes} (ja: left, right, swap)/A-16; S-41: with swap the exchanger
    and the target swap hands."""
    out = ok(run(JA, EX3, play(0, "RExch", mode="swap", target=2)))
    assert out["hands"] == [["R0", "Y1", "Y3", "Y4"], ["R0", "B1", "B3"], ["R1", "G3"]]
    assert out["turn"] == 1


def test_S38_A16_invalid_modes() -> None:
    """S-38/A-16: en allows only left/right; the mode is required; a swap needs a target
    that is another player."""
    rejected(EN, EX3, play(0, "RExch", mode="swap", target=2), reason="invalid_mode")
    rejected(EN, EX3, play(0, "RExch"), reason="invalid_mode")
    rejected(JA, EX3, play(0, "RExch"), reason="invalid_mode")
    rejected(JA, EX3, play(0, "RExch", mode="swap"), reason="invalid_mode")
    rejected(JA, EX3, play(0, "RExch", mode="swap", target=0), reason="invalid_mode")
    out = ok(
        run(
            EN,
            EX3,
            play(0, "RExch", mode="swap", target=1),
            options={"exchange_modes": ["left", "right", "swap"]},
        )
    )
    assert out["hands"][0] == ["R0", "B1", "B3"]


def test_S41_window_closes_before_the_next_event() -> None:
    """records §4.4.2: just before any event other than a cancel, the window closes and
    the exchange is performed: P1 may then play a card received from P0."""
    out = ok(run(EN, EX3, play(0, "RExch", mode="left"), play(1, "R1", calls=("achtung",))))
    assert out["discard"] == ["R5", "RExch", "R1"]
    assert out["hands"][1] == ["G3"]
    assert out["turn"] == 2


def test_S39_S40_A17_any_player_may_cancel_en() -> None:
    """S-39 {exchange_cancel_by=any}/S-40/A-17 (en): any player with a 0 of the Exchange's
    colour cancels; the exchange does not happen and the turn passes to left(canceller)."""
    out = ok(run(EN, EX3, play(0, "RExch", mode="left"), cancel(2, "R0")))
    assert out["hands"] == [["R1", "G3"], ["R0", "B1", "B3"], ["Y1", "Y3", "Y4"]]
    assert out["discard"] == ["R5", "RExch", "R0"]
    assert out["pending"] is None
    assert out["turn"] == 0


def test_S39_A17_exchanger_may_cancel_own_card() -> None:
    """S-39/A-17: the exchanger may cancel their own Card Exchange."""
    position = pos([["RExch", "R0", "G1", "G3"], ["B1", "B3"], ["Y1", "Y3"]], ["R5"], 0, DRAW)
    out = ok(run(EN, position, play(0, "RExch", mode="right"), cancel(0, "R0")))
    assert out["hands"] == [["G1", "G3"], ["B1", "B3"], ["Y1", "Y3"]]
    assert out["turn"] == 1


def test_S39_A17_only_affected_players_cancel_a_swap_ja() -> None:
    """S-39 {exchange_cancel_by=affected} (ja): for swap only the exchanger and the target
    are eligible; records §4.4.2: a rejected cancel leaves the window open, so the state
    before it shows the pending exchange and turn left(exchanger)."""
    out = rejected(
        JA,
        EX3,
        play(0, "RExch", mode="swap", target=2),
        cancel(1, "R0"),
        reason="not_eligible",
        compare_before=False,
    )
    assert out["pending"] == exch(0, "swap", 2, "R")
    assert out["turn"] == 1
    assert out["hands"] == [["R1", "G3"], ["R0", "B1", "B3"], ["R0", "Y1", "Y3", "Y4"]]
    out = ok(run(JA, EX3, play(0, "RExch", mode="swap", target=2), cancel(2, "R0")))
    assert out["hands"] == [["R1", "G3"], ["R0", "B1", "B3"], ["Y1", "Y3", "Y4"]]
    assert out["turn"] == 0
    # With left or right every player is affected.
    out = ok(run(JA, EX3, play(0, "RExch", mode="left"), cancel(1, "R0")))
    assert out["hands"] == [["R1", "G3"], ["B1", "B3"], ["R0", "Y1", "Y3", "Y4"]]
    assert out["turn"] == 2


def test_S39_en_any_third_player_may_cancel_swap_override() -> None:
    """S-39 {exchange_cancel_by=any}: with any, even a player outside a swap may cancel."""
    out = ok(
        run(
            JA,
            EX3,
            play(0, "RExch", mode="swap", target=2),
            cancel(1, "R0"),
            options={"exchange_cancel_by": "any"},
        )
    )
    assert out["hands"][1] == ["B1", "B3"]
    assert out["turn"] == 2


def test_S40_cancel_needs_zero_of_exchange_colour() -> None:
    """S-40: the cancel must be a 0 of the Card Exchange's colour."""
    position = pos([["RExch", "R1", "G3"], ["B0", "B1", "B3"], ["Y1", "Y3"]], ["R5"], 0, DRAW)
    out = rejected(
        EN,
        position,
        play(0, "RExch", mode="left"),
        cancel(1, "B0"),
        reason="wrong_defence_colour",
        compare_before=False,
    )
    assert out["pending"] == exch(0, "left", None, "R")


def test_S40_first_valid_cancel_wins() -> None:
    """S-40: the first valid cancel wins; the window is then closed (nothing_pending)."""
    rejected(
        EN,
        EX3,
        play(0, "RExch", mode="left"),
        cancel(2, "R0"),
        cancel(1, "R0"),
        reason="nothing_pending",
    )


def test_S40_calls_apply_to_cancel() -> None:
    """S-40/S-25: calls apply to a cancel like any other placement (en: a cancel leaving 1
    card without achtung draws 2)."""
    position = pos([["RExch", "R1", "G3"], ["B1", "B3"], ["R0", "Y1"]], ["R5"], 0, DRAW)
    out = ok(run(EN, position, play(0, "RExch", mode="left"), cancel(2, "R0")))
    assert out["hands"][2] == ["B5", "B7", "Y1"]
    out = ok(run(EN, position, play(0, "RExch", mode="left"), cancel(2, "R0", ("achtung",))))
    assert out["hands"][2] == ["Y1"]


def test_S26_S41_A30_penalty_before_exchange() -> None:
    """S-26/S-41/A-30: a player who forgets Achtung on a Card Exchange draws 2 first and
    then passes the larger hand on."""
    position = pos([["RExch", "G3"], ["B1", "B3"], ["Y1", "Y3", "Y4"]], ["R5"], 0, DRAW)
    out = ok(run(EN, position, play(0, "RExch", mode="left")))
    assert out["hands"] == [["Y1", "Y3", "Y4"], ["B5", "B7", "G3"], ["B1", "B3"]]
    assert out["draw_pile"] == DRAW[2:]


def test_S25_A32_exchange_leaving_one_card() -> None:
    """A-32/S-25: ja: receiving a hand of 1 card by exchange opens an Achtung obligation
    (discharged by call_achtung); en: no obligation."""
    position = pos([["RExch", "R1", "G3"], ["B1", "B3", "B4"], ["Y1"]], ["R5"], 0, DRAW)
    out = ok(run(JA, position, play(0, "RExch", mode="left")))
    assert out["hands"][0] == ["Y1"]
    assert out["obligations"] == [{"seat": 0, "kind": "achtung", "placed": 0}]
    out = ok(run(JA, position, play(0, "RExch", mode="left"), call_achtung(0)))
    assert out["obligations"] == []
    out = ok(run(EN, position, play(0, "RExch", mode="left")))
    assert out["hands"][0] == ["Y1"]
    assert out["obligations"] == []


def test_S40_cancel_without_window() -> None:
    """records §4.6: a cancel with no open window is nothing_pending."""
    rejected(EN, EX3, cancel(1, "R0"), reason="nothing_pending")
