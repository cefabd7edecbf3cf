"""``stoptable replay FILE``: the readable summary of each game says what ``--json`` says;
``--json`` stays one JSON object; the exit codes are those of records.md §1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from stoptable.cli import app, main
from stoptable.cli.replay import replay_file
from stoptable.games.stop.summary import stop_card, stop_pending
from stoptable.games.stopandgo import load_default_map
from stoptable.games.stopit.summary import stopit_hand

runner = CliRunner()
SIMULATE = {
    "stop": ["--bots", "random,random,random", "-O", "target_score=60"],
    "stopit": ["--bots", "random,heuristic"],
    "stopandgo": ["--bots", "random,heuristic", "-O", "destination_count=3"],
}


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for game, args in SIMULATE.items():
        folder = tmp_path_factory.mktemp(game)
        result = runner.invoke(
            app, ["simulate", game, *args, "--games", "1", "--seed", "2", "--records", str(folder)]
        )
        assert result.exit_code == 0, result.output
        [out[game]] = sorted(folder.glob("*.jsonl"))
    return out


def show(path: Path, *args: str) -> Any:
    return runner.invoke(app, ["replay", str(path), *args], env={"COLUMNS": "200"})


def as_json(path: Path, *args: str) -> dict[str, Any]:
    result = show(path, "--json", *args)
    assert result.exit_code == 0
    assert result.output.count("\n") == 1 and result.output.endswith("}\n")
    data: dict[str, Any] = json.loads(result.output)
    return data


@pytest.mark.parametrize("upto", ["20", "200000"])
def test_stop_summary_tells_round_turn_top_card_hands_and_totals(
    records: dict[str, Path], upto: str
) -> None:
    data = as_json(records["stop"], "--upto", upto)
    text = show(records["stop"], "--upto", upto).output
    assert f"Stop · abacus-en · 3 seats · round {data['round']}" in text
    assert f"phase {data['phase']}" in text
    assert f"top card: {stop_card(data['discard'][-1])} ({data['discard'][-1]})" in text
    assert f"draw pile {len(data['draw_pile'])} · discard pile {len(data['discard'])}" in text
    assert f"pending: {stop_pending(data['pending'])}" in text
    if data["turn"] is not None:
        assert f"to act: P{data['turn']}" in text
    for k, hand in enumerate(data["hands"]):
        row = next(line for line in text.splitlines() if f"P{k} " in line and "│" in line)
        assert str(len(hand)) in row and (" ".join(hand) or "-") in row
        assert str(data["totals"][k]) in row
    assert f"after {data['applied']} events" in text


def test_stop_pending_in_words() -> None:
    assert stop_pending(None) == "nothing"
    assert stop_pending({"kind": "draw2", "count": 2, "victim": 1, "colour": "R"}) == (
        "Draw 2 x2 against P1 (top colour red)"
    )
    swap = {"kind": "exchange", "exchanger": 0, "mode": "swap", "target": 2, "colour": "Y"}
    assert "Card Exchange by P0 (swap with P2)" in stop_pending(swap)
    assert stop_card("GExch") == "green Card Exchange" and stop_card("FC") == "Free Choice"


@pytest.mark.parametrize("upto", ["60", "200000"])
def test_stopit_summary_tells_stacks_hands_scores_and_the_last_evaluation(
    records: dict[str, Path], upto: str
) -> None:
    data = as_json(records["stopit"], "--upto", upto)
    text = show(records["stopit"], "--upto", upto).output
    assert f"clock {data['clock'] / 1000:.1f} s" in text
    assert f"phase {data['phase']} · supply {data['supply']} minus cards" in text
    for stack in data["stacks"]:
        top = stack[0].partition("#")[0] if stack else "empty"
        assert f"{top} ({len(stack)})" in text
    flat = " ".join(text.split())
    for k, hand in enumerate(data["hands"]):
        assert f"P{k} │ {len(hand)} │ {stopit_hand(hand).split()[0]}" in flat
    evaluation = data["last_evaluation"]
    if evaluation is not None:
        assert f"P{evaluation['caller']} stopped with" in text
    if data["winners"] is not None:
        assert "game over: P" in text


def test_stopit_hand_shows_runs() -> None:
    hand = ["red#1", "red#2", "blue#3", "STOP-blue#1", "red#4"]
    assert stopit_hand(hand) == "red×2 blue STOP-blue red"
    assert stopit_hand([]) == "-"


@pytest.mark.parametrize("upto", ["10", "200000"])
def test_stopandgo_summary_tells_cars_destination_scores_and_the_last_move(
    records: dict[str, Path], upto: str
) -> None:
    data = as_json(records["stopandgo"], "--upto", upto)
    text = show(records["stopandgo"], "--upto", upto).output
    assert f"dial {data['dial']}" in text
    names = load_default_map().destination_name
    if data["active"] is not None:
        active = f"{data['active']} {names[data['active']]}"
        assert f"active destination: {active} at {data['active_space']}" in text
    flat = " ".join(text.split())
    for car in data["cars"]:
        for number in car["collected"]:
            assert f"{number} {names[number]}" in flat
    for k, car in enumerate(data["cars"]):
        assert f"P{k} │ {car['pos']} │" in flat
        assert f"│ {data['scores'][k]}" in flat
    move = data["last_move"]
    if move is not None:
        assert f"last move: P{move['seat']} threw {move['roll']}" in text
    if data["winners"] is not None:
        assert "game over (every card collected): " in text


def test_an_illegal_event_is_exit_2_with_the_state_before_and_the_error(
    records: dict[str, Path], tmp_path: Path
) -> None:
    lines = records["stop"].read_text().splitlines()
    first = json.loads(lines[1])
    assert "seat" in first
    wrong = {**first, "seat": (first["seat"] + 1) % 3}
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([lines[0], json.dumps(wrong)]) + "\n")
    result = show(bad)
    assert result.exit_code == 2
    assert "stopped at line 2: not_your_turn" in result.output
    assert "after 0 events" in result.output
    raw = show(bad, "--json")
    assert raw.exit_code == 2 and json.loads(raw.output)["error"]["line"] == 2


def test_json_output_is_the_replay_object_byte_for_byte(records: dict[str, Path]) -> None:
    for path in records.values():
        result = show(path, "--json")
        expected = replay_file(path).output
        assert result.output == json.dumps(expected) + "\n"


def test_unreadable_files_are_exit_1_with_one_line(tmp_path: Path) -> None:
    missing = show(tmp_path / "nope.jsonl")
    assert missing.exit_code == 1 and "cannot read" in missing.output
    junk = tmp_path / "junk.jsonl"
    junk.write_text("{not json\n")
    assert show(junk).exit_code == 1


def test_a_player_count_error_prints_the_short_output(tmp_path: Path) -> None:
    path = tmp_path / "seats.jsonl"
    header = {"format": "stoptable-record/1", "game": "stop", "ruleset": "abacus-en", "seats": 1}
    path.write_text(json.dumps(header) + "\n")
    result = show(path)
    assert result.exit_code == 2
    assert "player_count" in result.output and "seats" in result.output


def test_records_2_a_note_with_a_line_separator_is_one_line(tmp_path: Path) -> None:
    """JSON Lines split on newlines only: U+2028 inside a JSON string stays in its line."""
    header = {"format": "stoptable-record/1", "game": "stop", "ruleset": "abacus-en", "seats": 2}
    path = tmp_path / "r.jsonl"
    path.write_text(
        json.dumps(header) + "\r\n" + '{"seat":0,"type":"draw","note":"a\u2028b"}\n',
        encoding="utf-8",
    )
    result = replay_file(path)
    assert result.exit_code == 0, result.message
    assert result.output is not None and result.output["applied"] == 1


def test_records_1_bad_replay_arguments_exit_1_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """records.md §1: bad arguments are exit 1 (2 would mean a broken game rule)."""
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(tmp_path / "r.jsonl"), "--upto", "abc"])
    assert exit_info.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith("stoptable replay: ") and len(err.strip().splitlines()) == 1
