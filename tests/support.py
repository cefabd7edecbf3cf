"""Shared test helpers: build a record in memory and replay it like ``stoptable replay``."""

from __future__ import annotations

import ast
import doctest
import json
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


def run_doctests(module: ModuleType, optionflags: int = 0) -> doctest.TestResults:
    """``doctest.testmod(module)``; for a module of the compiled build (an extension, whose
    functions doctest cannot see) the examples are read from the docstrings of its ``.py``
    source beside it and run in the compiled module's namespace (never by running the
    source again: a module that registers bots would register its copies)."""
    path = Path(module.__file__ or "")
    if path.suffix == ".py":
        return doctest.testmod(module, optionflags=optionflags)
    source = path.with_name(path.name.split(".")[0] + ".py")
    tree = ast.parse(source.read_text("utf-8"))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=optionflags)
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, DOCUMENTED))]
    for node in nodes:
        text = ast.get_docstring(node, clean=False)
        if text and ">>>" in text:
            name = getattr(node, "name", module.__name__)
            line = getattr(node, "lineno", 0)
            test = parser.get_doctest(text, dict(vars(module)), name, str(source), line)
            runner.run(test)
    return runner.summarize(verbose=False)


DOCUMENTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
