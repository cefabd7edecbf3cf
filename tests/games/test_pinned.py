"""Seeded games of every game stay the same games, byte for byte (issue 20's pin).

``pinned_digests.json`` holds the digests (:mod:`tests.games.pinned`) of 1,000 seeded games
of each game, taken before the speed work: records, every bot decision with the view and
legal list behind it, and the final views. ``make test`` compares a sample spread over the
whole range (every seat count, ruleset and bot mix); ``python scripts/pin_games.py``
compares all 3,000 (some 8 minutes on 2 busy cores, so not in ``make test``).
"""

from __future__ import annotations

import pytest

from tests.games.pinned import GAMES, digest, load

SAMPLE = 12
"""Games of each game compared in ``make test``: g = 0, 83, 166, ... (every setup variant)."""

PINNED = load()


def _sample(game: str) -> list[int]:
    total = len(PINNED[game])
    return [g * total // SAMPLE for g in range(SAMPLE)]


def test_every_game_is_pinned_a_thousand_times() -> None:
    assert sorted(PINNED) == sorted(GAMES)
    assert all(len(PINNED[game]) == 1000 for game in GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_a_sample_of_seeded_games_is_unchanged(game: str) -> None:
    changed = [g for g in _sample(game) if digest(game, g) != PINNED[game][g]]
    assert not changed, f"{game}: seeded games {changed} are no longer the pinned games"
