"""Seeded simulated games stay the same games (stop-it.md I-50): pinned results and records.

The simulator, its views and the bots are tuned for speed; none of that may change a
seeded game. These pins were taken before the speed work (benchmarks/stopit_sim.py) and
must only change with a rule or a bot's behaviour, and then on purpose.
"""

from __future__ import annotations

import hashlib

import pytest

from stoptable.sim.stopit_tournament import play_game

PINNED = [
    # bots, seed, first Go seat -> scores, termination, evaluations, virtual ms, record
    (
        ["heuristic"] * 4,
        10_000,
        0,
        (7, 4, 2, 2),
        "supply_empty",
        11,
        42_667,
        "15b945858cb6557c",
    ),
    (
        ["random", "heuristic", "heuristic@0.8"],
        7,
        2,
        (8, 5, 3),
        "supply_empty",
        10,
        25_512,
        "cb42517650f82269",
    ),
    (
        ["heuristic"] * 2,
        123,
        1,
        (6, 6),
        "stacks_exhausted",
        12,
        113_565,
        "940305147c95cd8c",
    ),
]


@pytest.mark.parametrize(
    ("bots", "seed", "first", "scores", "termination", "evaluations", "ms", "digest"), PINNED
)
def test_a_seeded_game_is_pinned(
    bots: list[str],
    seed: int,
    first: int,
    scores: tuple[int, ...],
    termination: str,
    evaluations: int,
    ms: int,
    digest: str,
) -> None:
    result = play_game(bots, seed, first_go_seat=first, record=True)
    assert result.scores == scores
    assert result.termination == termination
    assert result.evaluations == evaluations
    assert result.duration_ms == ms
    assert result.record is not None
    assert hashlib.sha256(result.record.encode()).hexdigest()[:16] == digest
    unrecorded = play_game(bots, seed, first_go_seat=first)
    assert (unrecorded.scores, unrecorded.duration_ms) == (scores, ms)


def test_pacing_changes_nothing_but_the_wall_clock() -> None:
    """The paced loop (``real_time_factor``) and the virtual-clock loop play one game."""
    waits: list[float] = []
    paced = play_game(["heuristic"] * 3, 5, record=True, real_time_factor=1e-9, sleep=waits.append)
    assert paced.record == play_game(["heuristic"] * 3, 5, record=True).record
