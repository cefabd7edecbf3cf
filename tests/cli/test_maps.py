"""``stoptable map check/render`` and ``stoptable simulate stopandgo``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from stoptable.cli import app
from tests.games.stopandgo.test_svg import SVG, fixture_map, groups

runner = CliRunner()


def write(tmp_path: Path, data: Any, name: str = "map.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_map_check_accepts_the_default_map_with_a_summary() -> None:
    result = runner.invoke(app, ["map", "check", "--requirements"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok")
    assert "25 destinations" in result.output and "4 lighted" in result.output


def test_map_check_accepts_a_fixture(tmp_path: Path) -> None:
    result = runner.invoke(app, ["map", "check", str(write(tmp_path, fixture_map()))])
    assert result.exit_code == 0, result.output
    assert "fixture-all-signs" in result.output


def test_GM9_map_check_lists_unreachable_destinations(tmp_path: Path) -> None:
    data = fixture_map()
    # Close the street of destination 7 at both ends: it can no longer be reached.
    data["signs"] += [
        {"type": "closed", "from": "x3y1", "to": "x3y2"},
        {"type": "closed", "from": "x3y3", "to": "x3y2"},
    ]
    result = runner.invoke(app, ["map", "check", str(write(tmp_path, data))])
    assert result.exit_code == 1
    assert "problem" in result.output
    assert "destination 7 'x3y2': not reachable from the market" in result.output


def test_map_check_reports_broken_files(tmp_path: Path) -> None:
    bad_json = runner.invoke(app, ["map", "check", str(write(tmp_path, "{not json"))])
    assert bad_json.exit_code == 1 and "invalid JSON" in bad_json.output
    data = fixture_map()
    data["edges"].append(["x0y0", "nowhere"])
    data["spaces"][0]["kind"] = "park"
    shape = runner.invoke(app, ["map", "check", str(write(tmp_path, data))])
    assert shape.exit_code == 1
    assert "kind" in shape.output
    data = fixture_map()
    data["edges"].append(["x0y0", "nowhere"])
    dangling = runner.invoke(app, ["map", "check", str(write(tmp_path, data))])
    assert dangling.exit_code == 1 and "nowhere" in dangling.output
    missing = runner.invoke(app, ["map", "check", str(tmp_path / "absent.json")])
    assert missing.exit_code == 1


def test_map_render_writes_the_board(tmp_path: Path) -> None:
    out = tmp_path / "map.svg"
    result = runner.invoke(app, ["map", "render", "-o", str(out), "--dial", "1"])
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text("utf-8"))
    assert len(groups(root, "space")) > 150
    assert groups(root, "car") == []


def test_map_render_refuses_an_invalid_map(tmp_path: Path) -> None:
    result = runner.invoke(app, ["map", "render", str(write(tmp_path, "[]")), "-o", "x.svg"])
    assert result.exit_code == 1


def test_simulate_writes_records_that_render_and_replay(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "simulate", "stopandgo", "--bots", "heuristic,random", "--games", "3",
            "--seed", "4", "--records", str(tmp_path), "-O", "destination_count=2",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("*.jsonl"))
    assert [f.name for f in files] == [
        "stopandgo-0001.jsonl",
        "stopandgo-0002.jsonl",
        "stopandgo-0003.jsonl",
    ]
    replayed = runner.invoke(app, ["replay", str(files[0]), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.stdout)["phase"] == "game_over"
    out = tmp_path / "pos.svg"
    drawn = runner.invoke(
        app, ["map", "render", "-o", str(out), "--record", str(files[0]), "--upto", "6"]
    )
    assert drawn.exit_code == 0, drawn.output
    root = ET.fromstring(out.read_text("utf-8"))
    assert sorted(g.get("data-seat") for g in groups(root, "car")) == ["0", "1"]
    assert any("to play" in (t.text or "") for t in root.iter(f"{SVG}text"))


def test_simulate_refuses_unknown_bots_and_options() -> None:
    unknown = runner.invoke(app, ["simulate", "stopandgo", "--bots", "heuristic,nobody"])
    assert unknown.exit_code == 2 and "nobody" in unknown.output
    option = runner.invoke(
        app, ["simulate", "stopandgo", "--bots", "random,random", "--games", "1", "-O", "x=1"]
    )
    assert option.exit_code == 2 and "unknown Stop & Go option" in option.output


def test_map_render_of_a_record_uses_the_record_map(tmp_path: Path) -> None:
    map_path = write(tmp_path, fixture_map())
    result = runner.invoke(
        app,
        [
            "simulate", "stopandgo", "--bots", "heuristic,heuristic", "--games", "1",
            "--map", str(map_path), "--records", str(tmp_path), "-O", "destination_count=2",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = tmp_path / "stopandgo-0001.jsonl"
    out = tmp_path / "fixture.svg"
    drawn = runner.invoke(app, ["map", "render", "-o", str(out), "--record", str(record)])
    assert drawn.exit_code == 0, drawn.output
    root = ET.fromstring(out.read_text("utf-8"))
    assert len(groups(root, "car")) == 2
    assert any(t.text == "fixture-all-signs" for t in root.iter(f"{SVG}text"))


def _unreachable_map() -> dict[str, Any]:
    """The fixture city with the street of destination 7 closed at both ends (fails GM-9)."""
    data = fixture_map()
    data["signs"] += [
        {"type": "closed", "from": "x3y1", "to": "x3y2"},
        {"type": "closed", "from": "x3y3", "to": "x3y2"},
    ]
    return data


def test_GM9_play_and_simulate_refuse_a_map_with_the_message_of_map_check(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, _unreachable_map())
    checked = runner.invoke(app, ["map", "check", str(path)])
    assert checked.exit_code == 1
    lines = checked.output.strip().splitlines()
    assert lines[0] == f"{path}: {len(lines) - 1} problem(s)"
    assert any("destination 7 'x3y2': not reachable from the market" in x for x in lines)
    simulated = runner.invoke(
        app,
        ["simulate", "stopandgo", "--bots", "random,random", "--games", "1", "--map", str(path)],
    )
    played = runner.invoke(app, ["play", "stopandgo", "--bots", "1", "--map", str(path)])
    for refused in (simulated, played):
        assert refused.exit_code == 1
        assert refused.output.strip().splitlines() == lines
        assert "Traceback" not in refused.output


def test_GM1_GM9_replay_accepts_a_record_whose_map_fails_GM9(tmp_path: Path) -> None:
    write(tmp_path, _unreachable_map())
    header = {
        "format": "stoptable-record/1", "game": "stopandgo", "ruleset": "stopgo-standard",
        "seats": 2, "seed": 5, "map": "map.json", "deck": [7, 1],
    }  # fmt: skip
    record = tmp_path / "r.jsonl"
    lines = [header, {"chance": "roll", "value": 2}, {"seat": 0, "type": "move", "path": ["x0y0"]}]
    record.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    replayed = runner.invoke(app, ["replay", str(record), "--json"])
    assert replayed.exit_code == 0, replayed.output
    out = json.loads(replayed.stdout)
    assert (out["active"], out["active_space"], out["applied"]) == (7, "x3y2", 2)
    text = runner.invoke(app, ["replay", str(record)])
    assert text.exit_code == 0 and "active destination: 7 Fire Station at x3y2" in text.output
