"""The docstring examples of the Stop & Go modules run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests.support import run_doctests

MODULES = [
    "actions", "ruleset", "board", "paths", "state", "check", "map_model", "mapgen", "playable",
]  # fmt: skip


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"stoptable.games.stopandgo.{name}")
    failures, _tried = run_doctests(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
