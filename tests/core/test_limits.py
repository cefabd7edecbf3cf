"""``core/limits.py``: regular files only, never blocking; depth and numbers checked."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from stoptable.core.errors import InputLimitError
from stoptable.core.limits import MAX_DEPTH, json_depth, loads, read_text


def test_read_text_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputLimitError, match=r"not a regular file \(a FIFO\)"):
        read_text(fifo, 100)


def test_read_text_refuses_folders_and_devices(tmp_path: Path) -> None:
    with pytest.raises(InputLimitError, match="a directory"):
        read_text(tmp_path, 100)
    with pytest.raises(InputLimitError, match="a character device"):
        read_text(Path("/dev/null"), 100)


def test_read_text_refuses_a_file_over_the_limit_and_reads_one_at_it(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_text("x" * 101)
    with pytest.raises(InputLimitError, match="101 bytes; the limit is 100"):
        read_text(path, 100)
    path.write_text("é" * 50)
    assert read_text(path, 100) == "é" * 50


def test_read_text_lets_os_and_unicode_errors_through(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_text(tmp_path / "missing", 100)
    (tmp_path / "bad").write_bytes(b"\xff\xfe")
    with pytest.raises(UnicodeDecodeError):
        read_text(tmp_path / "bad", 100)


def test_json_depth_skips_brackets_inside_strings_and_escapes() -> None:
    assert json_depth(r'["[[[\"{{", {"a": []}]') == 3
    assert json_depth("[" * 10_000) == 10_000  # not JSON, still one pass, no recursion


def test_loads_refuses_deep_nesting_before_parsing() -> None:
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(InputLimitError, match=f"nesting deeper than {MAX_DEPTH} levels"):
        loads("[" * 3000 + "]" * 3000)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9" * 5000, "a number of 5000 characters; the limit is 100"),
        ("1e999", "too big for a float"),
        ("-1e999", "too big for a float"),
        ("0." + "1" * 200, "a number of 202 characters"),
    ],
)
def test_loads_refuses_numbers_past_the_limits(text: str, message: str) -> None:
    with pytest.raises(InputLimitError, match=message):
        loads(text)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_loads_refuses_what_python_reads_but_json_has_not(constant: str) -> None:
    with pytest.raises(json.JSONDecodeError, match="not a JSON number"):
        loads(f"[{constant}]")


def test_limit_errors_are_value_errors_with_one_line() -> None:
    with pytest.raises(ValueError) as info:
        loads("[" * 100 + "]" * 100)
    assert "\n" not in str(info.value)
