"""The one simulation runner, for every registered game through the registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from stoptable import games
from stoptable.cli.replay import replay_file
from stoptable.sim.run import play_game, seating, simulate, summarize

SHORT = {
    "stop": {"target_score": 50},
    "stopit": {"minus_supply": 6},
    "stopandgo": {"destination_count": 3},
}


@pytest.mark.parametrize("name", games.names())
def test_every_game_runs_and_its_records_replay(name: str, tmp_path: Path) -> None:
    spec = games.spec(name)
    options = SHORT.get(name, {})
    results = simulate(spec, ["heuristic", "random"], 2, seed=5, options=options, records=tmp_path)
    assert [r.bots for r in results] == [("heuristic", "random"), ("random", "heuristic")]
    files = sorted(tmp_path.glob("*.jsonl"))
    assert len(files) == 2
    for result, path in zip(results, files, strict=True):
        replayed = replay_file(path)
        assert replayed.exit_code == 0, replayed.message
        assert replayed.output is not None
        assert replayed.output["winners"] == list(result.outcome.winners)
        assert result.outcome.termination in spec.terminations
    report = summarize(spec, results)
    assert [line.name for line in report.lines] == ["heuristic", "random"]
    assert sum(report.terminations.values()) == 2
    assert report.lower_is_better == spec.lower_is_better
    assert report.lines[1].difference is not None


@pytest.mark.parametrize("name", games.names())
def test_the_same_seed_gives_the_same_games(name: str) -> None:
    spec = games.spec(name)
    options = SHORT.get(name, {})
    a = play_game(spec, ["random", "random", "heuristic"], 9, options=options, record=True)
    b = play_game(spec, ["random", "random", "heuristic"], 9, options=options, record=True)
    assert a == b


def test_seating_turns_the_bots_so_each_sits_everywhere() -> None:
    names = ["a", "b", "c"]
    assert {seating(names, g)[0] for g in range(3)} == {"a", "b", "c"}
