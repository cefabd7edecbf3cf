"""The Stop & Go game loop: records that replay to the same state, seeds, seating, report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stoptable.core.records import replay_lines
from stoptable.games import replayer
from stoptable.games.stopandgo import load_map
from stoptable.sim.stopandgo import play_game, seating, simulate, summarize
from tests.games.stopandgo.test_svg import fixture_map

SHORT = {"destination_count": 3}


def test_record_replays_to_the_same_final_state() -> None:
    result = play_game(["heuristic", "random", "heuristic"], 21, options=SHORT, record=True)
    assert result.record is not None and result.final is not None
    assert result.finished and result.final["phase"] == "game_over"
    replayed = replay_lines(result.record.lines(), replayer)
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output is not None
    replayed.output.pop("applied")
    assert replayed.output == result.final
    assert list(result.scores) == result.final["scores"]


def test_record_on_another_map_carries_the_map(tmp_path: Path) -> None:
    data = fixture_map()
    result = play_game(
        ["heuristic", "heuristic"], 4, load_map(data), {"destination_count": 2}, True, data
    )
    assert result.record is not None
    header = json.loads(result.record.lines()[0])
    assert header["map"]["name"] == "fixture-all-signs"
    path = tmp_path / "game.jsonl"
    result.record.write(path)
    replayed = replay_lines(path.read_text().splitlines(), replayer, base_dir=tmp_path)
    assert replayed.exit_code == 0
    assert replayed.output is not None and replayed.output["cars"] == result.final["cars"]


def test_same_seed_gives_the_same_record() -> None:
    a = play_game(["heuristic", "random"], 8, options=SHORT, record=True)
    b = play_game(["heuristic", "random"], 8, options=SHORT, record=True)
    c = play_game(["heuristic", "random"], 9, options=SHORT, record=True)
    assert a.record is not None and b.record is not None and c.record is not None
    assert a.record.lines() == b.record.lines()
    assert a.record.lines() != c.record.lines()


def test_every_roll_is_written_before_its_move() -> None:
    result = play_game(["random", "random"], 2, options={"destination_count": 1}, record=True)
    assert result.record is not None
    events = result.record.events
    assert len(events) == 2 * result.turns
    assert all("chance" in e for e in events[0::2])
    assert all(e.get("type") == "move" for e in events[1::2])


def test_seating_rotates_the_bots() -> None:
    names = ["heuristic", "random", "random", "random"]
    assert seating(names, 0) == names
    assert seating(names, 1) == ["random", "random", "random", "heuristic"]
    assert seating(names, 4) == names


def test_report_counts_every_seat_and_win() -> None:
    names = ["heuristic", "random", "random"]
    results = simulate(names, 6, seed=3, options=SHORT)
    assert [r.seed for r in results] == [3, 4, 5, 6, 7, 8]
    report = summarize(names, results)
    assert report.games == 6 and report.unfinished == 0
    assert [b.name for b in report.bots] == ["heuristic", "random"]
    assert [b.games for b in report.bots] == [6, 12]
    assert sum(b.win_share for b in report.bots) == pytest.approx(1.0)
    assert len(report.seat_shares) == 3 and sum(report.seat_shares) == pytest.approx(1.0)
    assert report.turns.mean == sum(r.turns for r in results) / 6
    assert all(b.tickets == 0 for b in report.bots)  # prevent: bots never break a rule


def test_G22_a_game_that_stalls_ends_by_the_rule_and_its_record_replays() -> None:
    # Random bots with stall_turns=2: two still turns in a row (a stand-still, a violation
    # or a missed turn) soon end the game, scored as it stands.
    options = {**SHORT, "stall_turns": 2}
    results = [
        play_game(["random", "random"], seed, options=options, record=True) for seed in range(8)
    ]
    stalled = [r for r in results if r.termination == "stalled"]
    assert stalled and all(r.finished for r in results)
    for result in stalled:
        assert result.final is not None and result.final["termination"] == "stalled"
        assert result.record is not None
        replayed = replay_lines(result.record.lines(), replayer)
        assert replayed.exit_code == 0 and replayed.output is not None
        assert replayed.output["termination"] == "stalled"
    report = summarize(["random", "random"], results)
    assert report.stalled == len(stalled) and report.unfinished == 0


def test_the_simulator_has_no_cut_off_of_its_own() -> None:
    import stoptable.sim.stopandgo as sim

    assert not hasattr(sim, "MAX_STUCK_TURNS")
    result = play_game(["heuristic", "heuristic"], 3, options=SHORT)
    assert result.termination in ("all_collected", "stalled") and result.finished
