"""``stoptable simulate stopit`` and its records, replayed by ``stoptable replay``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from stoptable.cli import app
from stoptable.sim.stopit_tournament import play_game

runner = CliRunner()


def test_simulate_stopit_reports_and_writes_replayable_records(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "simulate", "stopit", "--bots", "heuristic,random,random",
            "--games", "3", "--seed", "5", "--records", str(tmp_path),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "minus points" in result.output and "win share" in result.output
    assert "evaluations per game" in result.output
    files = sorted(tmp_path.glob("*.jsonl"))
    assert len(files) == 3
    for game, path in enumerate(files):
        lines = path.read_text("utf-8").splitlines()
        assert json.loads(lines[0])["seed"] == 5 + game
        assert all("t" in json.loads(line) or "clock" in json.loads(line) for line in lines[1:])
        replayed = runner.invoke(app, ["replay", str(path), "--json"])
        assert replayed.exit_code == 0, replayed.output
        out = json.loads(replayed.stdout)
        assert out["phase"] == "game_over"
        seats = [["heuristic", "random", "random"][(s + game) % 3] for s in range(3)]
        direct = play_game(seats, 5 + game, first_go_seat=0, record=True)
        assert direct.record == path.read_text("utf-8")
        assert out["scores"] == list(direct.scores)


def test_simulate_stopit_rejects_unknown_bots_and_seat_counts() -> None:
    result = runner.invoke(app, ["simulate", "stopit", "--bots", "heuristic,nobody"])
    assert result.exit_code != 0
    result = runner.invoke(app, ["simulate", "stopit", "--bots", "heuristic"])
    assert result.exit_code != 0


def test_play_stopit_builds_the_live_game(monkeypatch: Any, tmp_path: Path) -> None:
    from stoptable.tui.stopit import StopItApp

    started: list[StopItApp] = []
    monkeypatch.setattr(StopItApp, "run", lambda self, *a, **k: started.append(self))
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
    assert runner.invoke(app, ["play", "stopit", "--bots", "6"]).exit_code != 0
    assert runner.invoke(app, ["play", "stopit", "--speed", "warp"]).exit_code != 0


def test_simulate_stopit_accepts_per_bot_speed() -> None:
    result = runner.invoke(
        app, ["simulate", "stopit", "--bots", "heuristic@0.8,random@1.5", "--games", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "heuristic@0.8" in result.output
    bad = runner.invoke(app, ["simulate", "stopit", "--bots", "heuristic@-1,random"])
    assert bad.exit_code != 0
