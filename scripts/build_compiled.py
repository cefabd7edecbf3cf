"""Build the optional compiled (mypyc) stoptable in ``build/compiled``: ``make compiled``.

The compiled build is the same source, not a fork: ``src/stoptable`` is copied to
``build/compiled/stoptable`` and the modules of :data:`MODULES` are compiled there in place
(mypyc, one shared library group), the rest staying interpreted beside them. Put
``build/compiled`` first on ``PYTHONPATH`` to run it (the benchmarks' ``--compiled`` and
``make test-compiled`` do); without it the project's ``.venv`` imports the pure build as
always, so a machine without a C compiler loses nothing but speed. docs/architecture.md
lists the rules code must follow to stay compilable.

A stamp (the digests of the compiled layers and of every source file) makes a second run
with nothing changed a no-op, and one after a change outside core, games and bots a copy.
``--check``: exit 0 if the build is current, 1 if not, 2 if this machine cannot build it
(no C compiler or no mypyc), building nothing. ``--if-able``: a machine that cannot build it
says why and exits 0 (``make test`` builds it beside the type check this way; the compiled
test then skips with the same reason, or fails under ``STOPTABLE_REQUIRE_ALL=1``).

One build of a level runs at a time: a lock file (``build/.lock-O<n>``) makes a second caller
wait and then find the first one's build current, so ``make test`` can start the build beside
the suite and the compiled test simply waits for it instead of building it again.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "stoptable"
BUILD = ROOT / "build" / "compiled"
"""The optimised build (C at -O3): ``make compiled``, the benchmarks, ``make test-compiled``."""
CHECK_OPT_LEVEL = "0"
"""The C optimisation level of the build ``make test`` checks: the same mypyc translation
(what can differ from the pure build) compiled at -O0, in about 90 s instead of 150 s."""


def build_dir(opt_level: str = "3") -> Path:
    """Where the build of C optimisation level ``opt_level`` goes."""
    return BUILD if opt_level == "3" else ROOT / "build" / f"compiled-O{opt_level}"


MODULES = (
    # the core the engines share: chance, events, decisions
    "core/rng.py",
    "core/protocol.py",
    "core/driver.py",
    # the Stop engine, its driver and bots
    "games/stop/cards.py",
    "games/stop/actions.py",
    "games/stop/action_cache.py",
    "games/stop/model.py",
    "games/stop/events.py",
    "games/stop/resolve.py",
    "games/stop/legal.py",
    "games/stop/engine.py",
    "games/stop/state.py",
    "games/stop/driver.py",
    "bots/stop.py",
    # the Stop it! engine, its views, bots and pacing (what the live machine asks of it)
    "games/stopit/actions.py",
    "games/stopit/cards.py",
    "games/stopit/engine.py",
    "games/stopit/evaluation.py",
    "games/stopit/state.py",
    "games/stopit/views.py",
    "bots/stopit.py",
    "games/stopit/pacing.py",
    # the Stop & Go engine, its views and bots
    "games/stopandgo/actions.py",
    "games/stopandgo/board.py",
    "games/stopandgo/car.py",
    "games/stopandgo/chance.py",
    "games/stopandgo/paths.py",
    "games/stopandgo/placement.py",
    "games/stopandgo/playable.py",
    "games/stopandgo/reach.py",
    "games/stopandgo/state.py",
    "games/stopandgo/views.py",
    "bots/stopandgo.py",
    # the drivers the simulators run: the live machine (Stop it! on a virtual clock) and
    # its bot schedule, and Stop & Go's game loop
    "live/bots.py",
    "live/machine.py",
    "live/virtual.py",
    "sim/stopandgo.py",
)
"""The compiled modules, relative to ``stoptable/`` (docs/architecture.md says why these)."""


def compiler() -> str | None:
    """Why this machine cannot build the compiled stoptable, or None if it can."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (it comes with mypy: pip install -e '.[dev]')"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc}) on PATH"
    return None


TYPED_LAYERS = ("core", "games", "bots", "live", "sim")
"""The packages whose types the compiled modules are built against (they import only from
these layers): a change there rebuilds, a change anywhere else only copies the file."""


def _digest(paths: list[Path], opt_level: str) -> str:
    import mypy.version

    digest = hashlib.sha256(repr((MODULES, mypy.version.__version__, opt_level)).encode())
    for path in paths:
        digest.update(str(path.relative_to(SOURCE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _sources() -> list[Path]:
    return sorted(
        path for path in SOURCE.rglob("*") if path.is_file() and "__pycache__" not in path.parts
    )


def compiled_digest(opt_level: str = "3") -> str:
    """The digest of what the compiled code depends on: :data:`MODULES`, mypyc's version,
    the optimisation level and every file of :data:`TYPED_LAYERS`."""
    layers = [SOURCE / name for name in TYPED_LAYERS]
    paths = [p for p in _sources() if any(p.is_relative_to(d) for d in layers)]
    return _digest(paths, opt_level)


def source_digest(opt_level: str = "3") -> str:
    """The digest of every file of ``src/stoptable`` (and of :data:`MODULES`)."""
    return _digest(_sources(), opt_level)


def _stamp(opt_level: str) -> list[str]:
    stamp = build_dir(opt_level) / "STAMP"
    return stamp.read_text("utf-8").split() if stamp.exists() else []


def current(opt_level: str = "3") -> bool:
    """Whether :func:`build_dir` holds the compiled build of the source as it is now."""
    return _stamp(opt_level) == [compiled_digest(opt_level), source_digest(opt_level)]


def _sync(opt_level: str) -> None:
    """Copy the source over the build, compiled extensions kept (an extension module is
    imported before a ``.py`` of the same name, so the copied ``.py`` of a compiled module
    is never the one that runs); files gone from the source go from the build."""
    target = build_dir(opt_level) / "stoptable"
    wanted = set()
    for path in _sources():
        rel = path.relative_to(SOURCE)
        wanted.add(rel)
        dest = target / rel
        if not dest.exists() or dest.read_bytes() != path.read_bytes():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
    for dest in sorted(target.rglob("*")):
        rel = dest.relative_to(target)
        keep = dest.suffix == ".so" or "__pycache__" in rel.parts or rel in wanted
        if dest.is_file() and not keep:
            dest.unlink()


def build(quiet: bool = False, opt_level: str = "3") -> float:
    """Build (or keep, if current) the compiled stoptable of C optimisation level
    ``opt_level`` in :func:`build_dir`; the seconds it took (0.0: it was current).

    A change outside :data:`TYPED_LAYERS` (the server...) is only copied into the build;
    anything else compiles the whole group again (one to three minutes). Holds the level's
    lock file meanwhile: a caller that had to wait for another's build finds it current."""
    lock = ROOT / "build" / f".lock-O{opt_level}"
    lock.parent.mkdir(parents=True, exist_ok=True)
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # released when the file closes
        return _build(quiet, opt_level)


def _build(quiet: bool, opt_level: str) -> float:
    """:func:`build`'s work, under its lock."""
    start = time.perf_counter()
    if current(opt_level):
        return 0.0
    where = build_dir(opt_level)
    compiled, source = compiled_digest(opt_level), source_digest(opt_level)
    stamp = _stamp(opt_level)
    if stamp and stamp[0] == compiled:
        _sync(opt_level)
        (where / "STAMP").write_text(f"{compiled}\n{source}\n", "utf-8")
        return time.perf_counter() - start
    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    shutil.copytree(SOURCE, where / "stoptable", ignore=shutil.ignore_patterns("__pycache__"))
    paths = [f"stoptable/{module}" for module in MODULES]
    out = subprocess.run(
        [sys.executable, "-m", "mypyc", *paths],
        cwd=where,
        capture_output=quiet,
        text=True,
        env={**os.environ, "MYPYC_OPT_LEVEL": opt_level},
    )
    if out.returncode != 0:
        if quiet:
            sys.stderr.write(out.stdout[-4000:] + out.stderr[-4000:])
        raise SystemExit(f"mypyc failed (exit {out.returncode})")
    shutil.rmtree(where / "build", ignore_errors=True)  # mypyc's intermediate C and objects
    (where / "STAMP").write_text(f"{compiled}\n{source}\n", "utf-8")
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    parser.add_argument(
        "--if-able", action="store_true", help="exit 0, saying why, where it cannot be built"
    )
    parser.add_argument(
        "--quiet", action="store_true", help="print the compiler's output only on failure"
    )
    parser.add_argument(
        "--opt-level",
        choices=["0", "1", "2", "3"],
        default="3",
        help="C optimisation level (3: build/compiled; others: build/compiled-O<n>)",
    )
    args = parser.parse_args()
    reason = compiler()
    if args.check:
        if reason is not None:
            print(f"cannot build: {reason}")
            return 2
        fresh = current(args.opt_level)
        print("current" if fresh else "stale")
        return 0 if fresh else 1
    if reason is not None:
        print(f"cannot build the compiled stoptable: {reason}", file=sys.stderr)
        return 0 if args.if_able else 2
    seconds = build(quiet=args.quiet, opt_level=args.opt_level)
    where = build_dir(args.opt_level).relative_to(ROOT)
    if seconds == 0.0:
        print(f"{where}: current, nothing to build")
    else:
        print(f"{where}: {len(MODULES)} modules compiled in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
