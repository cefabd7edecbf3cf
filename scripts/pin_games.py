"""Check (or, on purpose only, rewrite) the pinned digests of 1,000 seeded games of each game.

``python scripts/pin_games.py``: compare every pinned game (tests/games/pinned_digests.json)
with the code as it is, print the count of changed games per game and exit 1 if any.
``--games N``: only the first N of each game. ``--write``: take the digests anew from the
code as it is (only when a rule or a bot is meant to change; review why first). Games are
played in ``--jobs`` processes (default 2).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.games.pinned import DIGESTS, GAMES, digest  # noqa: E402


def _digests(job: tuple[str, int, int]) -> list[str]:
    game, first, stop = job
    return [digest(game, g) for g in range(first, stop)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    from stoptable.games.stop.cards import COMPILED

    print(f"build: {'compiled (mypyc)' if COMPILED else 'pure'}", flush=True)
    pinned = {} if args.write else json.loads(DIGESTS.read_text("utf-8"))
    taken: dict[str, list[str]] = {}
    failed = False
    with ProcessPoolExecutor(args.jobs) as pool:
        for game in GAMES:
            start = time.perf_counter()
            chunks = [(game, g, min(g + 50, args.games)) for g in range(0, args.games, 50)]
            taken[game] = [d for chunk in pool.map(_digests, chunks) for d in chunk]
            seconds = time.perf_counter() - start
            if args.write:
                print(f"{game}: {args.games} games pinned in {seconds:.0f} s", flush=True)
                continue
            changed = [g for g, d in enumerate(taken[game]) if d != pinned[game][g]]
            failed |= bool(changed)
            print(
                f"{game}: {len(changed)}/{args.games} games changed in {seconds:.0f} s"
                + (f", first {changed[:10]}" if changed else ""),
                flush=True,
            )
    if args.write:
        DIGESTS.write_text(json.dumps(taken, indent=0) + "\n", "utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
