"""Seeded fuzzing of the commands that read files: ``replay``, ``map check``, ``map render``.

Real inputs - golden records of the three games, a Stop & Go record that carries its map
in the header, and the default map - are mutated the ways an outside fuzzer found
failures: deep nesting, huge numbers, huge lists and strings, wrong types, dropped keys,
truncation and random bytes. Every case runs in-process through the Typer app and must
end with an allowed exit status, no traceback, an error of exactly one line on stderr,
and within a few seconds. Each case has its own seed, so a failure names a case that
replays alone (``-k "record-17"``).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from stoptable.cli import app
from stoptable.cli.maps import default_map_path

TESTS = Path(__file__).resolve().parents[1]
RECORDS = (
    TESTS / "games/stop/golden/en_2p_seed31.jsonl",
    TESTS / "games/stop/golden/ja_3p_seed4.jsonl",
    TESTS / "games/stopit/golden/standard-3p.jsonl",
    TESTS / "games/stopandgo/records/example.jsonl",
)
SEED = 20261201
RECORD_CASES = 100
MAP_CASES = 60
SECONDS = 8.0
"""What one command may take on one case (the outside fuzzer gave up after 20 s)."""
RAW = "@@raw@@"
"""A string put in the data where raw JSON text goes after dumping (numbers, nesting)."""

runner = CliRunner()


def _record_texts() -> list[str]:
    texts = [path.read_text(encoding="utf-8") for path in RECORDS]
    # The Stop & Go record again, with the default map inside its header.
    lines = texts[-1].splitlines()
    header = json.loads(lines[0])
    header["map"] = json.loads(default_map_path().read_text(encoding="utf-8"))
    texts.append("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return texts


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, the value itself included."""
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*path, i))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def _put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    _get(value, path[:-1])[path[-1]] = new
    return value


def _raw_value(rng: random.Random) -> str:
    """JSON text that breaks naive readers: nesting, huge or odd numbers, non-JSON numbers."""
    depth = rng.choice([65, 200, 3000])
    return rng.choice(
        [
            "[" * depth + "0" + "]" * depth,
            '{"a":' * depth + "0" + "}" * depth,
            "1" + "0" * rng.choice([30, 99, 400, 5000]),
            "-1" + "0" * rng.choice([20, 300]),
            rng.choice(["1e999", "-1e999", "1e308", "1e-400", "NaN", "Infinity", "-0.0"]),
            str(rng.choice([2**63, -(2**31), 10**6, 4300, -1, 0])),
        ]
    )


def _mutate_value(data: Any, rng: random.Random) -> tuple[Any, list[str]]:
    """One structural mutation of parsed JSON; raw texts to put in place of RAW, in order."""
    path = rng.choice(_paths(data))
    node = _get(data, path)
    kind = rng.choice(["raw", "type", "list", "string", "drop", "raw"])
    raws: list[str] = []
    if kind == "raw":
        data = _put(data, path, RAW)
        raws.append(_raw_value(rng))
    elif kind == "type":
        data = _put(data, path, rng.choice([None, True, False, "", "x", 0, -1, 1.5, [], {}]))
    elif kind == "list" and isinstance(node, list) and node:
        data = _put(data, path, node * rng.choice([2, 50, 3000]))
    elif kind == "list":
        data = _put(data, path, [node] * rng.choice([10, 5000]))
    elif kind == "string":
        data = _put(data, path, rng.choice(["\n\x00", "é" * 70, "x" * 200_000, "a\u2028b"]))
    elif path:
        container = _get(data, path[:-1])
        del container[path[-1]]
    return data, raws


def _dump(data: Any, raws: list[str]) -> str:
    text = json.dumps(data)
    for raw in raws:
        text = text.replace(json.dumps(RAW), raw, 1)
    return text


def _mutate_text(text: str, rng: random.Random) -> bytes:
    """Byte-level damage: truncation or random bytes."""
    raw = text.encode("utf-8")
    if rng.random() < 0.5:
        return raw[: rng.randrange(len(raw) + 1)]
    damaged = bytearray(raw)
    for _ in range(rng.choice([1, 3, 30])):
        damaged[rng.randrange(len(damaged))] = rng.randrange(256)
    return bytes(damaged)


def _record_case(rng: random.Random) -> bytes:
    text = rng.choice(_record_texts())
    if rng.random() < 0.3:
        return _mutate_text(text, rng)
    lines = text.splitlines()
    target = rng.randrange(len(lines)) if rng.random() < 0.7 else 0
    data, raws = _mutate_value(json.loads(lines[target]), rng)
    lines[target] = _dump(data, raws)
    return ("\n".join(lines) + "\n").encode("utf-8")


def _map_case(rng: random.Random) -> bytes:
    text = default_map_path().read_text(encoding="utf-8")
    if rng.random() < 0.25:
        return _mutate_text(text, rng)
    data, raws = json.loads(text), []
    for _ in range(rng.choice([1, 1, 2, 3])):
        data, more = _mutate_value(data, rng)
        raws += more
    return _dump(data, raws).encode("utf-8")


def _run(args: list[str], codes: set[int]) -> None:
    """Run one command; check status, traceback, one-line errors and time."""
    start = time.perf_counter()
    result = runner.invoke(app, args)
    took = time.perf_counter() - start
    assert took < SECONDS, f"{args} took {took:.1f} s"
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in codes, (result.exit_code, result.stdout, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    errors = result.stderr.splitlines()
    if args[:2] == ["map", "check"] and result.exit_code == 1 and not errors:
        # A readable map with problems: the report on stdout, one problem a line.
        assert result.stdout.splitlines()[0].endswith("problem(s)")
    elif result.exit_code == 1:
        assert len(errors) == 1, result.stderr
    else:
        # Success prints at most one warning (render: "drawing the position before it").
        assert len(errors) <= 1, result.stderr


@pytest.mark.parametrize("case", range(RECORD_CASES), ids=lambda c: f"record-{c}")
def test_fuzz_replay_and_render_record(case: int, tmp_path: Path) -> None:
    rng = random.Random(SEED * 1000 + case)
    record = tmp_path / "r.jsonl"
    record.write_bytes(_record_case(rng))
    upto = ["--upto", str(rng.choice([0, 3, 10**9]))] if rng.random() < 0.2 else []
    _run(["replay", str(record), "--json", *upto], {0, 1, 2})
    if case % 4 == 0:
        out = tmp_path / "o.svg"
        _run(["map", "render", "--record", str(record), "-o", str(out), *upto], {0, 1})


@pytest.mark.parametrize("case", range(MAP_CASES), ids=lambda c: f"map-{c}")
def test_fuzz_map_check_and_render(case: int, tmp_path: Path) -> None:
    rng = random.Random(SEED * 1000 + RECORD_CASES + case)
    path = tmp_path / "map.json"
    path.write_bytes(_map_case(rng))
    _run(["map", "check", str(path)], {0, 1})
    _run(["map", "render", str(path), "-o", str(tmp_path / "o.svg")], {0, 1})
