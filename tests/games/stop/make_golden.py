"""Write the golden Stop records: ``python -m tests.games.stop.make_golden``.

Each golden game is a whole seeded game (several rounds, to the target score) played by the
seeded random driver of :mod:`stoptable.games.stop.randomplay` through the S-61 offers. The
record goes to ``golden/<name>.jsonl`` and the replay output to ``<name>.expected.json``.
Regenerate only when a rule change is intended, and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from tests.games.stop.helpers import recorded_game, replay_record

GOLDEN: Final = Path(__file__).with_name("golden")

GAMES: Final[dict[str, tuple[str, int, int, dict[str, Any] | None]]] = {
    "en_2p_seed31": ("abacus-en", 2, 31, {"target_score": 300}),
    "en_4p_seed7": ("abacus-en", 4, 7, {"target_score": 300}),
    "en_6p_seed3": ("abacus-en", 6, 3, {"target_score": 300}),
    "ja_2p_seed1": ("abacus-ja", 2, 1, {"target_score": 300}),
    "ja_3p_seed4": ("abacus-ja", 3, 4, {"target_score": 300}),
    "ja_5p_seed2": ("abacus-ja", 5, 2, {"target_score": 300}),
}


def write_all() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (ruleset, seats, seed, options) in GAMES.items():
        state, header, events = recorded_game(ruleset, seats, seed, options, max_rounds=100)
        assert state.phase == "game_over", name
        lines = [json.dumps({"format": "stoptable-record/1", **header})]
        lines += [json.dumps(e) for e in events]
        (GOLDEN / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        result = replay_record(header, events)
        assert result.exit_code == 0
        text = json.dumps(result.output, indent=1) + "\n"
        (GOLDEN / f"{name}.expected.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_all()
