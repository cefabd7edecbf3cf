"""The examples in the Stop it! docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["", ".cards", ".evaluation", ".actions", ".ruleset", ".setup", ".spec"]


@pytest.mark.parametrize("suffix", MODULES)
def test_docstring_examples(suffix: str) -> None:
    module = importlib.import_module(f"stoptable.games.stopit{suffix}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
