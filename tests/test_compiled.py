"""The compiled (mypyc) build plays the same games as the pure one (issue 20).

``make test`` builds ``build/compiled-O0`` (``scripts/build_compiled.py --opt-level 0``: the
same mypyc translation as ``make compiled``, its C at -O0; a no-op when it is current, about
90 s when not) and replays a sample of the pinned seeded games of
every game under it, in a child process whose ``stoptable`` is the compiled one: each must
give the digest the pure build pinned (records, every bot decision with its view and
legal list, the final views; :mod:`tests.games.pinned`). ``make test-compiled`` compares all
1,000 of each game and runs the game, bot, live-table, RL and simulator tests compiled.

Without a C compiler or mypyc the test skips, saying why (``STOPTABLE_REQUIRE_ALL=1``, as
in CI, turns that into a failure).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import build_compiled  # noqa: E402

SAMPLE = 6
"""Pinned games of each game replayed compiled in ``make test`` (spread over the range)."""

CHILD = r"""
import json, sys
from stoptable.games.stop.cards import COMPILED
from tests.games.pinned import GAMES, digest
assert COMPILED, "the child did not import the compiled build"
games = json.loads(sys.argv[1])
print(json.dumps({game: [digest(game, g) for g in games] for game in GAMES}))
"""


def test_the_compiled_build_plays_the_pinned_games() -> None:
    reason = build_compiled.compiler()
    if reason is not None:
        pytest.skip(f"no compiled build on this machine: {reason}")
    level = build_compiled.CHECK_OPT_LEVEL  # the build `make test` made beside the type check
    build_compiled.build(quiet=True, opt_level=level)
    pinned = json.loads((ROOT / "tests" / "games" / "pinned_digests.json").read_text("utf-8"))
    games = [g * 1000 // SAMPLE + g for g in range(SAMPLE)]
    path = os.pathsep.join([str(build_compiled.build_dir(level)), str(ROOT)])
    env = {**os.environ, "PYTHONPATH": path}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(games)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    for game, digests in seen.items():
        changed = [g for g, d in zip(games, digests, strict=True) if d != pinned[game][g]]
        assert not changed, f"{game}: compiled games {changed} differ from the pure build's"


def test_the_pure_build_is_what_the_project_imports() -> None:
    from stoptable.games.stop.cards import COMPILED

    assert not COMPILED or "build/compiled" in os.environ.get("PYTHONPATH", "")


def test_a_second_build_waits_for_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``make test`` starts the compiled build beside the suite; this test's own call must
    wait for it (the lock file) rather than build the same directory at the same time."""
    import fcntl
    import threading
    import time

    monkeypatch.setattr(build_compiled, "ROOT", tmp_path)
    monkeypatch.setattr(build_compiled, "_build", lambda quiet, opt_level: 0.0)
    lock = tmp_path / "build" / ".lock-O0"
    lock.parent.mkdir()
    done = threading.Event()
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # another process's build, still running
        waiter = threading.Thread(
            target=lambda: (build_compiled.build(quiet=True, opt_level="0"), done.set())
        )
        waiter.start()
        time.sleep(0.3)
        assert not done.is_set(), "the second build did not wait for the lock"
    waiter.join(timeout=5)
    assert done.is_set(), "the second build did not go on once the lock was free"
