"""Shared test helpers: build a record in memory and replay it like ``stoptable replay``."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from stoptable.core.records import ReplayResult, replay_lines
from stoptable.games import replayer


def replay(
    header: dict[str, Any], *events: dict[str, Any], upto: int | None = None
) -> ReplayResult:
    """Replay a record given as a header and event objects; ``format`` is filled in."""
    head = {"format": "stoptable-record/1", **header}
    lines = [json.dumps(head)] + [json.dumps(e) for e in events]
    return replay_lines(lines, replayer, upto=upto)


def conforms(value: object, protocol: type) -> bool:
    """Whether ``value`` has every public member of ``protocol`` (what ``isinstance`` of a
    ``@runtime_checkable`` protocol checks; the core protocols are static contracts only,
    so that the compiled build can hold them)."""
    members = [name for name in vars(protocol) if not name.startswith("_")]
    return bool(members) and all(hasattr(value, name) for name in members)


def doctest_module(module: ModuleType) -> ModuleType:
    """The module whose docstrings ``doctest`` should run for ``module``: itself, or, for a
    module of the compiled build (an extension, whose functions doctest cannot see), its
    ``.py`` source beside it loaded as a separate module."""
    path = Path(module.__file__ or "")
    if path.suffix == ".py":
        return module
    source = path.with_name(path.name.split(".")[0] + ".py")
    spec = importlib.util.spec_from_file_location(f"_doctest_{module.__name__}", source)
    assert spec is not None and spec.loader is not None, f"no source for {module.__name__}"
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = loaded  # dataclasses look their module up while being made
    spec.loader.exec_module(loaded)
    return loaded
