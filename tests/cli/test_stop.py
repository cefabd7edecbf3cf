"""``stoptable simulate stop`` (report and records) and ``stoptable play stop``'s options."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from stoptable.bots.base import make_bot
from stoptable.cli import app
from stoptable.sim.stop import bot_seed, play_match

runner = CliRunner()


def test_simulate_stop_rounds_report_states_the_paired_differences() -> None:
    result = runner.invoke(
        app,
        ["simulate", "stop", "--bots", "heuristic,random,random,random", "--games", "60",
         "--rounds", "--seed", "3"],
        env={"COLUMNS": "160"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Stop abacus-en: 60 rounds, 4 seats" in out
    assert "win share" in out and "round score" in out and "round length" in out
    assert "paired by round" in out and "95% CI" in out
    assert out.count("seat 0 scores lower") == 3


def test_simulate_stop_records_replay_to_the_final_state(tmp_path: Path) -> None:
    names = ["heuristic", "random", "random"]
    result = runner.invoke(
        app,
        ["simulate", "stop", "--bots", ",".join(names), "--games", "2", "--seed", "9",
         "--ruleset", "abacus-ja", "--records", str(tmp_path)],
        env={"COLUMNS": "160"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "2 matches" in result.output and "final total" in result.output
    files = sorted(tmp_path.glob("stop-*.jsonl"))
    assert len(files) == 2
    for game, path in enumerate(files):
        header = json.loads(path.read_text("utf-8").splitlines()[0])
        assert header["seed"] == 9 + game and header["ruleset"] == "abacus-ja"
        replayed = runner.invoke(app, ["replay", str(path), "--json"])
        assert replayed.exit_code == 0, replayed.output
        out = json.loads(replayed.stdout)
        assert out["phase"] == "game_over"
        out.pop("applied")
        bots = [make_bot("stop", n, s, bot_seed(9, game, s)) for s, n in enumerate(names)]
        direct = play_match("abacus-ja", bots, 9 + game)
        assert json.dumps(out, sort_keys=True) == json.dumps(direct.final_state, sort_keys=True)


def test_simulate_stop_rejects_unknown_bots_and_rulesets() -> None:
    bad_bot = runner.invoke(app, ["simulate", "stop", "--bots", "heuristic,wizard"])
    assert bad_bot.exit_code != 0 and "wizard" in bad_bot.output
    bad_rules = runner.invoke(app, ["simulate", "stop", "--ruleset", "abacus-xx"])
    assert bad_rules.exit_code != 0


def test_play_stop_rejects_too_many_bots() -> None:
    result = runner.invoke(app, ["play", "stop", "--bots", "10"])
    assert result.exit_code != 0
