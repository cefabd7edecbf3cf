"""``stoptable simulate GAME``: one command for every registered game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from stoptable import games
from stoptable.cli import app
from stoptable.sim.run import play_game, seating

runner = CliRunner()
SHORT = {"stop": "target_score=60", "stopit": "minus_supply=6", "stopandgo": "destination_count=2"}


def simulated(*args: str) -> str:
    """The output of ``stoptable simulate ARGS`` (wide, so tables do not wrap), which must
    succeed."""
    result = runner.invoke(app, ["simulate", *args], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    return result.output


def test_simulate_stop_reports_the_paired_differences() -> None:
    out = simulated(
        "stop", "--bots", "heuristic,random,random,random", "--games", "12",
        "-O", "target_score=100", "--seed", "3",
    )  # fmt: skip
    assert "Stop abacus-en: 12 games, 4 seats (seats rotate; lower scores are better)" in out
    for words in ("win share", "score", "rank", "vs heuristic, paired", "win share by seat"):
        assert words in out
    assert "endings: target_score 12" in out


@pytest.mark.parametrize("game", games.names())
def test_simulate_records_are_the_games_it_played(game: str, tmp_path: Path) -> None:
    names = ["heuristic", "random", "random"]
    simulated(
        game, "--bots", ",".join(names), "--games", "2", "--seed", "9",
        "-O", SHORT[game], "--records", str(tmp_path),
    )  # fmt: skip
    files = sorted(tmp_path.glob(f"{game}-*.jsonl"))
    assert len(files) == 2
    spec = games.spec(game)
    key, _, value = SHORT[game].partition("=")
    for g, path in enumerate(files):
        header = json.loads(path.read_text("utf-8").splitlines()[0])
        assert header["seed"] == 9 + g and header["options"][key] == int(value)
        replayed = runner.invoke(app, ["replay", str(path), "--json"])
        assert replayed.exit_code == 0, replayed.output
        out = json.loads(replayed.stdout)
        assert out["phase"] == "game_over"
        direct = play_game(spec, seating(names, g), 9 + g, options={key: int(value)}, record=True)
        assert direct.record == path.read_text("utf-8")
        assert out["winners"] == list(direct.outcome.winners)


def test_simulate_takes_a_ruleset_and_per_bot_reaction_factors() -> None:
    result = runner.invoke(
        app, ["simulate", "stop", "--ruleset", "abacus-ja", "--bots", "random,random",
              "--games", "1", "-O", "target_score=30"],
    )  # fmt: skip
    assert result.exit_code == 0 and "Stop abacus-ja" in result.output
    out = simulated(
        "stopit", "--bots", "heuristic@0.8,random@1.5", "--games", "2", "-O", "minus_supply=5"
    )
    assert "heuristic@0.8" in out
    for bad in ("heuristic@-1,random", "heuristic@x,random"):
        refused = runner.invoke(app, ["simulate", "stopit", "--bots", bad])
        assert refused.exit_code == 2 and "@" in refused.output
    refused = runner.invoke(app, ["simulate", "stop", "--bots", "heuristic@0.8,random"])
    assert refused.exit_code == 2 and "no @factor" in refused.output


def test_simulate_refuses_unknown_games_rulesets_and_seat_counts() -> None:
    unknown = runner.invoke(app, ["simulate", "chess"])
    assert unknown.exit_code == 2 and "unknown game 'chess'" in unknown.output
    assert "stopandgo" in unknown.output
    ruleset = runner.invoke(app, ["simulate", "stop", "--ruleset", "abacus-xx"])
    assert ruleset.exit_code == 2 and "abacus-xx" in ruleset.output
    seats = runner.invoke(app, ["simulate", "stopit", "--bots", "heuristic"])
    assert seats.exit_code == 2 and "give 2-6 bots" in seats.output
    no_map = runner.invoke(app, ["simulate", "stop", "--map", "x.json"])
    assert no_map.exit_code == 2 and "Stop takes no map" in no_map.output


def test_simulate_stop_rounds_plays_and_records_single_rounds(tmp_path: Path) -> None:
    """``--rounds`` (issue 3's `simulate stop ... --rounds`): each game is the first round
    only, scored by its minus points; its record replays to that round's end."""
    out = simulated(
        "stop", "--bots", "heuristic,random,random", "--games", "6", "--rounds",
        "--seed", "4", "--records", str(tmp_path),
    )  # fmt: skip
    assert "endings: round 6" in out
    files = sorted(tmp_path.glob("stop-*.jsonl"))
    assert len(files) == 6
    spec = games.spec("stop")
    for g, path in enumerate(files):
        replayed = runner.invoke(app, ["replay", str(path), "--json"])
        assert replayed.exit_code == 0, replayed.output
        out = json.loads(replayed.stdout)
        assert out["phase"] in ("round_over", "game_over") and out["round"] == 1
        direct = play_game(
            spec, seating(["heuristic", "random", "random"], g), 4 + g, record=True, rounds=True
        )
        assert direct.record == path.read_text("utf-8")
        assert list(direct.outcome.scores) == out["round_scores"]
        assert direct.outcome.termination == "round"


@pytest.mark.parametrize("game", ["stopit", "stopandgo"])
def test_simulate_rounds_is_refused_for_a_game_without_rounds(game: str) -> None:
    result = runner.invoke(app, ["simulate", game, "--rounds", "--games", "1"])
    assert result.exit_code == 2, result.output
    assert "--rounds" in result.output and "not played in rounds" in result.output
    with pytest.raises(ValueError, match="not played in rounds"):
        play_game(games.spec(game), ["random", "random"], 1, rounds=True)


def test_simulate_real_time_factor_paces_and_shows_the_same_games() -> None:
    """I-55's watch mode through the registry: ``real_time_factor`` > 0 sleeps up to each
    step's game time (times the factor) and ``watch`` sees every happening in time order;
    the game is the one played as fast as possible."""
    spec = games.spec("stopit")
    bots = ["heuristic", "random"]
    options = {"minus_supply": 3}
    plain = play_game(spec, bots, 8, options=options, record=True)
    waits: list[float] = []
    seen: list[Any] = []
    paced = play_game(
        spec, bots, 8, options=options, record=True, real_time_factor=1.0,
        sleep=waits.append, watch=seen.append,
    )  # fmt: skip
    assert paced == plain
    assert waits and all(w > 0 for w in waits)
    times = [h.t for h in seen]
    assert times == sorted(times) and len(seen) >= plain.actions
    # nothing really sleeps here, so each wait is the game time of its step (factor 1),
    # less the little wall time the loop took: the last is about the game's length
    assert abs(max(waits) - times[-1] / 1000) < 0.5


def test_simulate_cli_watches_stopit_games() -> None:
    out = simulated(
        "stopit", "--bots", "heuristic,random", "--games", "2",
        "-O", "minus_supply=2", "--real-time-factor", "0.0001",
    )  # fmt: skip
    assert "game 1: heuristic (0), random (1)" in out
    assert "game 2: random (0), heuristic (1)" in out  # the seats rotate
    assert "grabs" in out and "Evaluation of" in out and "win share" in out


@pytest.mark.parametrize("game", ["stop", "stopandgo"])
def test_real_time_factor_is_refused_for_a_turn_based_game(game: str) -> None:
    result = runner.invoke(app, ["simulate", game, "--real-time-factor", "1", "--games", "1"])
    assert result.exit_code == 2, result.output
    assert "--real-time-factor" in result.output and "not a real-time game" in result.output
    with pytest.raises(ValueError, match="not a real-time game"):
        play_game(games.spec(game), ["random", "random"], 1, real_time_factor=1.0)
    negative = runner.invoke(app, ["simulate", "stopit", "--real-time-factor", "-1"])
    assert negative.exit_code == 2 and "--real-time-factor" in negative.output
