"""The command line is the same for the three games: ``--bots``, ``--seed``, ``-O``,
``--record``/``--records``, and usage errors (exit 2, the option named, no traceback)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from stoptable.cli import app
from stoptable.cli.common import parse_options

runner = CliRunner()
GAMES = ("stop", "stopit", "stopandgo")


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_every_play_and_simulate_has_the_same_options(game: str, command: str) -> None:
    result = invoke(command, game, "--help")
    assert result.exit_code == 0
    for option in ("--bots", "--seed", "--option", "-O"):
        assert option in result.output, (command, game, option)
    assert ("--record " if command == "play" else "--records") in result.output
    assert "--ruleset" in result.output and "--map" in result.output


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_usage_errors_name_the_option_and_exit_2(game: str, command: str) -> None:
    cases = [
        (["--bots", "heuristic,nobody"], "--bots", "unknown bot 'nobody'"),
        (["--bots", "99"] if command == "play" else ["--bots", "random"], "--bots", "give"),
        (["-O", "no_such_option=1"], "-O", "no_such_option"),
        (["-O", "novalue"], "-O", "is not key=value"),
        (["--seed", "abc"], "--seed", "integer"),
    ]
    for extra, hint, words in cases:
        result = invoke(command, game, *extra)
        assert result.exit_code == 2, (extra, result.output)
        assert hint in result.output and words in result.output, (extra, result.output)
        assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("game", "option", "words"),
    [
        ("stop", "target_score=abc", "target_score"),
        ("stop", "draw_x_mode=sideways", "draw_x_mode"),
        ("stopit", "drop_penalty=maybe", "drop_penalty"),
        ("stopit", "stack_count=0", "stack_count"),
        ("stopandgo", "scoring=bad", "scoring"),
        ("stopandgo", "destination_count=0", "destination_count"),
    ],
)
def test_bad_rule_option_values_are_usage_errors(game: str, option: str, words: str) -> None:
    for command in ("play", "simulate"):
        result = invoke(command, game, "-O", option)
        assert result.exit_code == 2, result.output
        assert words in result.output and "-O" in result.output


def test_options_that_do_not_fit_the_seats_are_usage_errors() -> None:
    result = invoke("play", "stop", "--bots", "3", "-O", "max_players=2")
    assert result.exit_code == 2 and "Traceback" not in result.output
    result = invoke("simulate", "stop", "--games", "1", "-O", "max_players=3")
    assert result.exit_code == 2 and "Traceback" not in result.output
    result = invoke("simulate", "stopit", "--bots", "random,random", "-O", "first_go_seat=3")
    assert result.exit_code == 2 and "first_go_seat" in result.output


def test_parse_options_reads_json_values() -> None:
    assert parse_options(["a=1", "b=true", "c=[1,6]", "d=left", "e="]) == {
        "a": 1,
        "b": True,
        "c": [1, 6],
        "d": "left",
        "e": "",
    }


@pytest.mark.parametrize(
    ("game", "option", "check"),
    [
        ("stop", "target_score=100", lambda h: h["options"] == {"target_score": 100}),
        ("stopit", "minus_supply=3", lambda h: h["options"]["minus_supply"] == 3),
        ("stopandgo", "destination_count=2", lambda h: h["options"] == {"destination_count": 2}),
    ],
)
def test_simulate_options_reach_the_records(
    tmp_path: Path, game: str, option: str, check: Any
) -> None:
    bots = "random,random"
    result = invoke("simulate", game, "--bots", bots, "--games", "1", "-O", option,
                    "--records", str(tmp_path), "--seed", "5")  # fmt: skip
    assert result.exit_code == 0, result.output
    [record] = sorted(tmp_path.glob("*.jsonl"))
    header = json.loads(record.read_text().splitlines()[0])
    assert header["game"] == game and check(header)
    replayed = invoke("replay", str(record), "--json")
    assert replayed.exit_code == 0, replayed.output


@pytest.mark.parametrize("game", GAMES)
def test_unwritable_record_places_and_missing_files_are_usage_errors(
    game: str, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    result = invoke("simulate", game, "--games", "1", "--records", str(blocker / "sub"))
    assert result.exit_code == 2 and "--records" in result.output
    assert "Traceback" not in result.output
    result = invoke("play", game, "--record", str(tmp_path / "no" / "such" / "r.jsonl"))
    assert result.exit_code == 2 and "--record" in result.output


def test_a_missing_map_file_is_a_usage_error(tmp_path: Path) -> None:
    for command in ("play", "simulate"):
        result = invoke(command, "stopandgo", "--map", str(tmp_path / "none.json"))
        assert (
            result.exit_code == 2 and "--map" in result.output and "no such file" in result.output
        )
