"""Golden records: whole seeded games replay to the stored records.md §4.5 output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stoptable.core.records import replay_lines
from stoptable.games import replayer

GOLDEN = Path(__file__).with_name("golden")
NAMES = sorted(p.name.removesuffix(".jsonl") for p in GOLDEN.glob("*.jsonl"))


def test_golden_set_covers_both_rulesets() -> None:
    assert any(n.startswith("en_") for n in NAMES) and any(n.startswith("ja_") for n in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_S50_S56_golden_game_replays_to_expected_output(name: str) -> None:
    lines = (GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    result = replay_lines(lines, replayer)
    assert result.exit_code == 0, result.message
    assert result.output == expected
    assert expected["phase"] == "game_over" and expected["round"] >= 3
    assert sum(1 for line in lines if '"chance"' in line) == expected["round"] - 1
