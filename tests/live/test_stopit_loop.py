"""The live machine's typed Stop it! loop (compiled only) against its generic loop.

``TableMachine._run_stopit`` does for Stop it! what ``_run_reaction`` does for any
continuous-time game, with the state, pacing and bots called by their own types; the
compiled build takes it (``live.bots.TYPED_STOPIT``) and the pure build does not. These
tests run both in whichever build imports them, by patching the flag, and hold them to
the same games; the queue's native ``queue_push``/``queue_pop`` are held to ``heapq``.
"""

from __future__ import annotations

import heapq
import random
from typing import Any

import pytest

import stoptable.live.bots as live_bots
from stoptable.live.bots import Queued, queue_pop, queue_push
from stoptable.sim.stopit_tournament import play_game

SEEDS = range(20_000, 20_006)


def _games(bots: list[str], typed: bool, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    monkeypatch.setattr(live_bots, "TYPED_STOPIT", typed)
    return [play_game(bots, seed, first_go_seat=seed % len(bots), record=True) for seed in SEEDS]


@pytest.mark.parametrize(
    "bots",
    [["heuristic"] * 4, ["random", "heuristic", "heuristic@0.8"], ["random", "random"]],
)
def test_typed_loop_plays_the_generic_loops_games(
    bots: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    generic = _games(bots, False, monkeypatch)
    typed = _games(bots, True, monkeypatch)
    assert [g.record for g in typed] == [g.record for g in generic]
    assert typed == generic


def test_the_typed_loop_is_taken_only_with_the_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    from stoptable.bots.stopit import make_stopit_bot
    from stoptable.games.stopit.ruleset import sim_ruleset
    from stoptable.games.stopit.spec import SPEC
    from stoptable.games.stopit.state import StopItState
    from stoptable.live.virtual import VirtualTable

    def table() -> VirtualTable:
        state = StopItState.new_game(sim_ruleset(), 2, 3)
        bots = {k: make_stopit_bot("heuristic", k, k) for k in range(2)}
        return VirtualTable(SPEC, state, bots)

    monkeypatch.setattr(live_bots, "TYPED_STOPIT", True)
    assert table().reaction.typed is not None
    monkeypatch.setattr(live_bots, "TYPED_STOPIT", False)
    assert table().reaction.typed is None


def test_queue_keeps_heapqs_order_and_layout() -> None:
    rng = random.Random(5)
    ours: list[Queued] = []
    theirs: list[Queued] = []
    seq = 0
    for _ in range(3_000):
        if ours and rng.random() < 0.45:
            assert queue_pop(ours) == heapq.heappop(theirs)
        else:
            item: Queued = (rng.randrange(50), seq, rng.randrange(2), rng.randrange(4), None)
            seq += 1
            queue_push(ours, item)
            heapq.heappush(theirs, item)
        assert ours == theirs  # the same items in the same places
    while ours:
        assert queue_pop(ours) == heapq.heappop(theirs)
