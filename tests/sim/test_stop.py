"""Stop simulations: seeded matches and rounds, deterministic, every round counted."""

from __future__ import annotations

import json
from pathlib import Path

from stoptable.sim.stop import simulate


def test_simulate_is_deterministic_and_counts_every_round() -> None:
    a = simulate(["heuristic", "random", "random"], 5, seed=2)
    b = simulate(["heuristic", "random", "random"], 5, seed=2)
    assert a == b
    assert len(a.round_scores) == len(a.round_lengths) >= 5
    assert all(max(g) >= 500 for g in a.game_scores)


def test_S7_single_rounds_rotate_the_first_dealer(tmp_path: Path) -> None:
    simulate(["random", "random", "random"], 4, seed=5, rounds_only=True, records=tmp_path)
    dealers = [
        json.loads(p.read_text(encoding="utf-8").splitlines()[0])["options"]["first_dealer"]
        for p in sorted(tmp_path.glob("stop-*.jsonl"))
    ]
    assert dealers == [0, 1, 2, 0]
