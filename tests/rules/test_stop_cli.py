"""Stop conformance through the command: ``stoptable replay FILE --json [--upto N]``
(records.md §1): exit statuses 0/1/2, one JSON object on stdout, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from stoptable.cli import app
from tests.rules.stop_scenarios import EN, header, play, pos

ROOT = Path(__file__).resolve().parents[2]
POSITION = pos([["Y8", "B3"], ["G2", "R0"]], ["Y2"], 0, ["B7", "R1"])


def write(tmp_path: Path, *lines: Any, name: str = "game.jsonl") -> Path:
    head = {"format": "stoptable-record/1", **header(EN, POSITION)}
    text = "\n".join(json.dumps(x) if not isinstance(x, str) else x for x in (head, *lines))
    path = tmp_path / name
    path.write_text(text + "\n", encoding="utf-8")
    return path


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, ["replay", *args])


def test_S58_cli_exit_0_prints_one_json_object(tmp_path: Path) -> None:
    """records §1/§7: exit 0; stdout holds exactly one JSON object, the records §7
    example state."""
    path = write(tmp_path, play(0, "Y8", calls=("achtung",)), {"seat": 1, "type": "draw"})
    res = invoke(str(path), "--json")
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert out["hands"] == [["B3"], ["R0", "B7", "G2"]]
    assert out["discard"] == ["Y2", "Y8"]
    assert out["draw_pile"] == ["R1"]
    assert out["turn"] == 0
    assert out["applied"] == 2


def test_S59_cli_exit_2_reports_error_with_state_before(tmp_path: Path) -> None:
    """records §1/§7: a 4th line playing a card not in hand: exit 2, error.line 4,
    reason not_in_hand, with the state before that line."""
    path = write(
        tmp_path,
        play(0, "Y8", calls=("achtung",)),
        {"seat": 1, "type": "draw"},
        play(0, "G2"),
    )
    res = invoke(str(path), "--json")
    assert res.exit_code == 2
    out = json.loads(res.stdout)
    assert out["error"]["line"] == 4
    assert out["error"]["reason"] == "not_in_hand"
    assert out["hands"] == [["B3"], ["R0", "B7", "G2"]]
    assert out["applied"] == 2


def test_S58_cli_upto(tmp_path: Path) -> None:
    """records §1: --upto N applies only the first N events; the rest is not parsed."""
    path = write(tmp_path, play(0, "Y8", calls=("achtung",)), "{not json")
    res = invoke(str(path), "--json", "--upto", "1")
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert out["applied"] == 1
    assert out["hands"] == [["B3"], ["R0", "G2"]]
    res = invoke(str(path), "--json", "--upto", "0")
    assert json.loads(res.stdout)["hands"] == [["B3", "Y8"], ["R0", "G2"]]


def test_S58_cli_exit_1_one_line_no_traceback(tmp_path: Path) -> None:
    """records §1: malformed input (invalid JSON, unknown key, a missing file, a bad
    --upto) is exit 1 with a one-line message on stderr and no traceback."""
    cases = [
        [str(write(tmp_path, "{not json", name="a.jsonl")), "--json"],
        [str(write(tmp_path, {"seat": 0, "type": "draw", "x": 1}, name="b.jsonl")), "--json"],
        [str(tmp_path / "missing.jsonl"), "--json"],
        [str(write(tmp_path, name="c.jsonl")), "--json", "--upto", "-1"],
    ]
    for args in cases:
        res = invoke(*args)
        assert res.exit_code == 1, args
        assert "Traceback" not in res.stdout
        assert len(res.stderr.strip().splitlines()) == 1, res.stderr
        assert "Traceback" not in res.stderr


def test_S58_cli_subprocess_stdout_is_only_json(tmp_path: Path) -> None:
    """records §1: the installed command prints one JSON object and nothing else on
    stdout; a malformed record gives exit 1, a one-line stderr and no traceback."""
    path = write(tmp_path, play(0, "Y8", calls=("achtung",)))
    cmd = [sys.executable, "-m", "stoptable.cli", "replay", str(path), "--json"]
    exe = Path(sys.executable).parent / "stoptable"
    if exe.exists():
        cmd = [str(exe), "replay", str(path), "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["applied"] == 1
    bad = write(tmp_path, "[1, 2", name="bad.jsonl")
    proc = subprocess.run(
        [*cmd[:-2], str(bad), "--json"], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_S59_cli_blank_lines_count_for_line_numbers(tmp_path: Path) -> None:
    """records §2: blank lines are skipped but count for line numbers (error.line)."""
    path = write(tmp_path, "", play(0, "Y8", calls=("achtung",)), "", play(0, "B3"))
    res = invoke(str(path), "--json")
    assert res.exit_code == 2
    out = json.loads(res.stdout)
    assert out["error"]["line"] == 5
    assert out["error"]["reason"] == "not_your_turn"
    assert out["applied"] == 1
