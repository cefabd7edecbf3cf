"""Golden whole-game records: replaying them must keep giving the stored output.

The records were played by tests/games/stopit/driver.py (seeded, legal requests only); the
expected outputs were checked for conservation and scoring when they were written. A change
here means the engine's behaviour changed: review it against the spec before updating.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stoptable.cli.replay import replay_file

GOLDEN = Path(__file__).parent / "golden"
NAMES = sorted(p.stem for p in GOLDEN.glob("*.jsonl"))


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_replays_to_its_output(name: str) -> None:
    result = replay_file(GOLDEN / f"{name}.jsonl")
    assert result.exit_code == 0, result.message
    expected = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    assert result.output == expected
    assert expected["phase"] == "game_over"
    cards = [c for s in expected["stacks"] for c in s] + [c for h in expected["hands"] for c in h]
    cards += [c for c in expected["held"] if c] + expected["removed"]
    assert len(cards) == len(set(cards)) == 135
    assert expected["supply"] + sum(expected["minus_cards"]) == 15


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_upto_equals_the_truncated_file(name: str, tmp_path: Path) -> None:
    lines = (GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    half = (len(lines) - 1) // 2
    truncated = tmp_path / "cut.jsonl"
    truncated.write_text("\n".join(lines[: half + 1]) + "\n", encoding="utf-8")
    upto = replay_file(GOLDEN / f"{name}.jsonl", upto=half)
    assert upto.exit_code == 0 and upto.output is not None
    assert upto.output == replay_file(truncated).output
    assert upto.output["applied"] == half and upto.output["phase"] != "game_over"
