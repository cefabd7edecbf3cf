"""The examples in the Stop it! docstrings run and hold."""

from __future__ import annotations

import importlib

import pytest

from tests.support import run_doctests

MODULES = ["", ".cards", ".evaluation", ".actions", ".ruleset", ".setup", ".spec"]


@pytest.mark.parametrize("suffix", MODULES)
def test_docstring_examples(suffix: str) -> None:
    module = importlib.import_module(f"stoptable.games.stopit{suffix}")
    result = run_doctests(module)
    assert result.attempted > 0 and result.failed == 0
