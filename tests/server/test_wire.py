"""server/wire.py's reader: orjson where it surely agrees with the limits' reader, the
same value or the same error as :func:`stoptable.core.limits.loads` on everything."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stoptable.core import limits
from stoptable.server import wire


def slow(text: str) -> tuple[str, Any]:
    """What the limits' reader makes of ``text``: ("ok", value) or ("error", message)."""
    try:
        return "ok", limits.loads(text, max_depth=wire.MAX_DEPTH)
    except ValueError as exc:
        return "error", str(exc)


def fast(text: str) -> tuple[str, Any]:
    try:
        return "ok", wire.loads(text)
    except ValueError as exc:
        return "error", str(exc)


def same(text: str) -> None:
    got, want = fast(text), slow(text)
    assert got == want, text
    if got[0] == "ok":  # 1 and 1.0 compare equal: the types must agree too
        assert json.dumps(got[1]) == json.dumps(want[1]), text


EDGES = [
    '["action",{"type":"grab","card":"R5"}]',
    '{"a":1,"a":2}',
    " [1] ",
    "[1,]",
    "NaN",
    "[Infinity]",
    "-Infinity",
    "1e400",
    "[-1e400]",
    "1e308",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "1" * 30,
    "0." + "0" * 120 + "1",
    "1" * 200,
    "[-0]",
    "-0.0",
    "1.0000000000000002",
    '"\\ud800"',
    '"\\ud83d\\ude00"',
    '"\\u00e9"',
    '"é€😀"',
    '"\x01"',
    "\ufeff[1]",
    "[" * 16 + "]" * 16,
    "[" * 17 + "]" * 17,
    "[" * 5000,
    '["[[[[[[[[[[[[[[[[[[[[", 1]',
    '{"k": "{{{{{{{{{{{{{{{{{{"}',
    "",
    "tru",
    "true",
    "null",
    '"a" "b"',
]


@pytest.mark.parametrize("text", EDGES)
def test_the_edges_read_as_the_limits_reader_reads_them(text: str) -> None:
    same(text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(json_values, st.booleans())
def test_any_json_value_reads_as_the_limits_reader_reads_it(value: Any, ascii: bool) -> None:
    try:
        text = json.dumps(value, ensure_ascii=ascii)
    except ValueError:
        return
    same(text)
    same(text[: len(text) // 2])  # cut short: the same error


def test_bytes_read_as_text_and_undecodable_bytes_are_a_value_error() -> None:
    assert wire.loads(b'{"seq": 3}') == {"seq": 3}
    with pytest.raises(ValueError, match="not UTF-8"):
        wire.loads(b"\xff")


def old_check_action(data: Any, limit: int) -> Any:
    """check_action as it was before orjson measured it (the standard library's size)."""
    from stoptable.server.messages import Envelope

    try:
        size = len(json.dumps(data, separators=(",", ":")).encode())
    except (TypeError, ValueError):
        return "not JSON"
    if size > limit:
        return f"over {limit} bytes"
    if not isinstance(data, dict):
        return "an action must be a JSON object"
    for key in ("seat", "t"):
        if key in data:
            return f"the server supplies {key!r}; an action must not carry it"
    if not isinstance(data.get("type"), str):
        return "an action needs a string 'type'"
    return dict(Envelope.model_validate(data).model_dump())


ACTIONS = [
    {"type": "grab", "card": "R5"},
    {"type": "insert", "at": 3, "x": [1, {"y": 2.5}]},
    {"type": "say", "text": "é" * 1300},  # 7,800 bytes escaped: within 8 KiB
    {"type": "say", "text": "é" * 1400},  # 8,400 escaped, 2,800 in UTF-8: over
    {"type": "say", "text": "😀" * 700},  # 8,400 escaped (two escapes each): over
    {"type": "say", "text": "x" * 8200},
    {"type": "say", "n": 1e16, "m": 1e-5, "k": 2**64 - 1},
    {"type": "say", "k": 2**70},  # beyond orjson: measured the slow way
    {"seat": 1, "type": "grab"},
    {"t": 5, "type": "grab"},
    {"type": 5},
    [1, 2],
    "grab",
    None,
]


@pytest.mark.parametrize("data", ACTIONS)
def test_check_action_answers_as_before(data: Any) -> None:
    from stoptable.server.messages import check_action

    got = check_action(data, 8192)
    assert got == old_check_action(data, 8192)
    if isinstance(got, dict):
        assert got is not data and json.dumps(got) == json.dumps(data)
