"""``stoptable play GAME``: the command line builds the game's own terminal app, and
``stoptable options GAME`` lists the option table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from stoptable import games
from stoptable.cli import app

runner = CliRunner()


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Apps are built but not run: their ``run`` records them instead."""
    from stoptable.tui.stop import StopApp
    from stoptable.tui.stopandgo import StopGoApp
    from stoptable.tui.stopit import StopItApp

    apps: list[Any] = []
    for cls in (StopApp, StopItApp, StopGoApp):
        monkeypatch.setattr(cls, "run", lambda self, *a, **k: apps.append(self))
    return apps


def test_play_stopit_builds_the_live_game(started: list[Any], tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    args = [
        "play",
        "stopit",
        "--bots",
        "2",
        "--speed",
        "fast",
        "--seed",
        "3",
        "--record",
        str(path),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    (game,) = started
    assert game.names == ["You", "P1 heuristic", "P2 heuristic"]
    assert game.table.delay_scale == 0.7 and game.seed == 3 and game.record_path == path
    result = runner.invoke(app, ["play", "stopit", "--bots", "random,heuristic", "--seed", "1"])
    assert result.exit_code == 0 and started[-1].names[1:] == ["P1 random", "P2 heuristic"]
    assert runner.invoke(app, ["play", "stopit", "--bots", "6"]).exit_code == 2
    assert runner.invoke(app, ["play", "stopit", "--speed", "warp"]).exit_code == 2


def test_play_stop_takes_ruleset_options_and_speed(started: list[Any]) -> None:
    result = runner.invoke(
        app, ["play", "stop", "--ruleset", "abacus-ja", "--bots", "random,heuristic",
              "-O", "target_score=100", "--seed", "4", "--speed", "slow"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (game,) = started
    assert game.names == ["you", "random", "heuristic"] and game.bot_delay == 0.8
    assert game.record_path == Path("stop-abacus-ja-4.jsonl")
    view = game.state.view(0)
    assert view["ruleset"] == "abacus-ja" and view["seats"] == 3
    assert runner.invoke(app, ["play", "stop", "--bots", "10"]).exit_code == 2


def test_play_stopandgo_reads_its_map(started: list[Any], tmp_path: Path) -> None:
    from tests.games.stopandgo.test_svg import fixture_map

    path = tmp_path / "map.json"
    import json

    path.write_text(json.dumps(fixture_map()), encoding="utf-8")
    result = runner.invoke(app, ["play", "stopandgo", "--bots", "1", "--map", str(path)])
    assert result.exit_code == 0, result.output
    (game,) = started
    assert game.state.game_map.name == "fixture-all-signs"
    assert game.writer.header["map"]["name"] == "fixture-all-signs"


@pytest.mark.parametrize("game", games.names())
def test_options_lists_every_option_with_its_rule(game: str) -> None:
    spec = games.spec(game)
    result = runner.invoke(app, ["options", game], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    for row in spec.ruleset_type.option_table(spec.default_ruleset):
        assert row["name"] in result.output and row["rule"] in result.output
