"""Speed of random 2-seat Stop play: ``python -m tests.games.stop.speed [seconds]``.

Counts applied actions per second over whole rounds, (a) with the synchronous S-61 driver
(offers, cancel windows, standalone calls) and (b) with the seat to act only, picking
uniformly from ``legal_actions`` as RLCard's UNO random agent does. Not a test: timings
depend on the machine.
"""

from __future__ import annotations

import sys
import time

from stoptable.core.rng import Rng
from stoptable.games.stop import new_game
from stoptable.games.stop.randomplay import step


def turn_only(ruleset: str, seconds: float) -> float:
    actions, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        st = new_game(ruleset, 2, seed=seed)
        rng = Rng(seed)
        seed += 1
        while st.phase in ("playing", "closing"):
            if st.pending is not None and st.pending.kind == "exchange":
                st.close_cancel_window()
                continue
            legal = st.legal_actions(st.turn)
            st.apply(legal[rng.below(len(legal))])
            actions += 1
    return actions / (time.perf_counter() - start)


def synchronous(ruleset: str, seconds: float) -> float:
    actions, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        st = new_game(ruleset, 2, seed=seed)
        rng = Rng(seed)
        seed += 1
        while st.phase in ("playing", "closing"):
            if step(st, rng, take=0.4) is not None:
                actions += 1
    return actions / (time.perf_counter() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for ruleset in ("abacus-en", "abacus-ja"):
        print(f"{ruleset}: turn-only {turn_only(ruleset, seconds):,.0f} actions/s, "
              f"synchronous {synchronous(ruleset, seconds):,.0f} actions/s")  # fmt: skip


if __name__ == "__main__":
    main()
