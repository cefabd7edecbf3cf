"""Bad input found from outside (issue "One shape for every game"): each case ends in one
line on stderr that names the limit, fast, never in a traceback or a hang.

The FIFO cases run ``stoptable`` in a subprocess with a timeout, so that a regression
blocks that process and not the test session.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from stoptable.cli import app
from stoptable.cli.maps import default_map_path
from stoptable.games.stopandgo import check_map
from stoptable.games.stopandgo import limits as map_limits

TESTS = Path(__file__).resolve().parents[1]
STOP_RECORD = TESTS / "games/stop/golden/en_2p_seed31.jsonl"
STOPIT_RECORD = TESTS / "games/stopit/golden/standard-3p.jsonl"
STOPANDGO_RECORD = TESTS / "games/stopandgo/records/example.jsonl"
SECONDS: float = 10.0
"""What any one case may take here (the issue's outside fuzzer waited 20 s)."""

runner = CliRunner()


def one_line_error(args: list[str], code: int = 1) -> str:
    """Run ``stoptable ARGS`` in-process; it must fail with ``code`` and one stderr line."""
    start = time.perf_counter()
    result = runner.invoke(app, args)
    assert time.perf_counter() - start < SECONDS, args
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def default_map() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(default_map_path().read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, data: Any, name: str = "map.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


# -- replay -----------------------------------------------------------------------------


def test_replay_a_line_nested_3000_deep_names_the_depth_limit(tmp_path: Path) -> None:
    header = {"format": "stoptable-record/1", "game": "stop", "ruleset": "abacus-en", "seats": 2}
    record = write(tmp_path, json.dumps(header) + "\n" + "[" * 3000 + "]" * 3000 + "\n", "r.jsonl")
    line = one_line_error(["replay", record, "--json"])
    assert "line 2: nesting deeper than 64 levels" in line


def test_replay_a_header_with_a_huge_integer_names_the_number_limit(tmp_path: Path) -> None:
    record = write(tmp_path, '{"format":"stoptable-record/1","seats":' + "9" * 5000 + "}\n", "r")
    assert "line 1: a number of 5000 characters; the limit is 100" in one_line_error(
        ["replay", record]
    )


def test_replay_too_many_lines_names_the_line_limit(tmp_path: Path) -> None:
    header = {"format": "stoptable-record/1", "game": "stop", "ruleset": "abacus-en", "seats": 2}
    record = write(tmp_path, json.dumps(header) + "\n" * 100_001, "r.jsonl")
    assert "lines; the limit is 100000" in one_line_error(["replay", record])


# -- map check / map render: the map ----------------------------------------------------


def test_a_map_nested_deeply_names_the_depth_limit(tmp_path: Path) -> None:
    data = '{"name": ' + "[" * 5000 + "]" * 5000 + "}"
    for command in ("check", "render"):
        args = ["map", command, write(tmp_path, data)]
        if command == "render":
            args += ["-o", str(tmp_path / "out.svg")]
        assert "nesting deeper than 64 levels" in one_line_error(args)


def test_a_space_with_10000_neighbours_is_refused_by_a_named_limit(tmp_path: Path) -> None:
    hub = {"id": "M", "kind": "market", "x": 0, "y": 0}
    spaces = [hub] + [{"id": f"r{i}", "kind": "road", "x": 1, "y": 0} for i in range(10_000)]
    edges = [["M", f"r{i}"] for i in range(10_000)]
    line = one_line_error(["map", "check", write(tmp_path, {"name": "hub", "spaces": spaces,
                                                            "edges": edges})])  # fmt: skip
    assert "; the limit is " in line
    # Within every other limit, the neighbours limit is the one that speaks.
    spaces, edges = spaces[:8], edges[:7]
    problems = check_map({"name": "hub", "spaces": spaces, "edges": edges})
    assert problems == ["space 'M' has 7 neighbours; the limit is 6"]


def test_a_chain_of_100000_spaces_is_refused_by_a_named_limit(tmp_path: Path) -> None:
    spaces = [{"id": "M", "kind": "market", "x": 0, "y": 0}] + [
        {"id": f"c{i}", "kind": "road", "x": 0, "y": 0} for i in range(100_000)
    ]
    edges = [[f"c{i}", f"c{i + 1}"] for i in range(99_999)]
    data = {"name": "chain", "spaces": spaces, "edges": edges}
    line = one_line_error(["map", "check", write(tmp_path, data)])
    assert f"bytes; the limit is {map_limits.MAX_MAP_BYTES}" in line
    assert check_map(data) == ["the map has 100001 spaces; the limit is 500"]


def test_a_dial_with_100000_positions_names_the_dial_limit(tmp_path: Path) -> None:
    data = default_map()
    data["dial"]["positions"] = 100_000
    line = one_line_error(["map", "check", write(tmp_path, data)])
    assert "the dial has 100000 positions; the limit is 8" in line


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1" + "0" * 400, "a number of 401 characters; the limit is 100"),
        ("1" + "0" * 90, "a coordinate of 1000000000...(91 digits); the limit is 1000"),
        ("1e308", "a coordinate of 1e+308; the limit is 1000"),
        ("1e999", "the number 1e999 is too big for a float"),
        ("-1000001", "a coordinate of -1000001; the limit is 1000"),
    ],
)
def test_huge_numbers_and_coordinates_name_their_limit(
    tmp_path: Path, value: str, message: str
) -> None:
    text = json.dumps(default_map()).replace('"x": 0,', f'"x": {value},', 1)
    assert value in text
    for command in ("check", "render"):
        args = ["map", command, write(tmp_path, text), "-o", str(tmp_path / "o.svg")]
        assert message in one_line_error(args if command == "render" else args[:3])


# -- map render: the output and the record ----------------------------------------------


@pytest.mark.parametrize("where", ["missing", "folder", "empty"])
def test_render_output_path_must_be_a_file_in_a_folder(tmp_path: Path, where: str) -> None:
    output = {"missing": str(tmp_path / "no" / "map.svg"), "folder": str(tmp_path), "empty": ""}
    line = one_line_error(["map", "render", "-o", output[where]], code=2)
    assert line.startswith("stoptable map: '-o': ")
    assert {"missing": "no folder", "folder": "is a folder", "empty": "not ''"}[where] in line


@pytest.mark.parametrize("record", [STOP_RECORD, STOPIT_RECORD], ids=["stop", "stopit"])
def test_render_record_of_another_game_is_one_line(tmp_path: Path, record: Path) -> None:
    line = one_line_error(["map", "render", "--record", str(record), "-o", str(tmp_path / "o")])
    assert "not a Stop & Go one" in line


def test_render_malformed_record_is_one_line(tmp_path: Path) -> None:
    record = write(tmp_path, "{not json\n", "r.jsonl")
    line = one_line_error(["map", "render", "--record", record, "-o", str(tmp_path / "o.svg")])
    assert "line 1: invalid JSON" in line


def test_render_a_stopandgo_record_still_draws(tmp_path: Path) -> None:
    output = tmp_path / "o.svg"
    result = runner.invoke(
        app, ["map", "render", "--record", str(STOPANDGO_RECORD), "-o", str(output)]
    )
    assert result.exit_code == 0, result.output
    assert output.read_text(encoding="utf-8").startswith("<svg")


# -- FIFOs, in a subprocess -------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [["replay", "{fifo}"], ["map", "check", "{fifo}"], ["map", "render", "{fifo}", "-o", "{out}"],
     ["map", "render", "--record", "{fifo}", "-o", "{out}"]],
    ids=["replay", "check", "render", "render-record"],
)  # fmt: skip
def test_a_fifo_is_refused_at_once(tmp_path: Path, args: list[str]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    argv = [a.format(fifo=fifo, out=tmp_path / "o.svg") for a in args]
    done = subprocess.run(
        [sys.executable, "-c", "from stoptable.cli import main; main()", *argv],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "not a regular file (a FIFO)" in done.stderr


def test_docs_list_every_limit_with_its_value() -> None:
    """docs/notation.md "Limits" quotes each constant; this keeps the numbers in step."""
    from stoptable.core import limits as core_limits

    doc = (TESTS.parent / "docs" / "notation.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Limits") :]
    for module in (core_limits, map_limits):
        for name in dir(module):
            if name.startswith("MAX_"):
                row = next(line for line in section.splitlines() if f"`{name}`" in line)
                assert str(getattr(module, name)) in row, name
