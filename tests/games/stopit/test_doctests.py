"""The examples in the Stop it! docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests.support import doctest_module

MODULES = ["", ".cards", ".evaluation", ".actions", ".ruleset", ".setup", ".spec"]


@pytest.mark.parametrize("suffix", MODULES)
def test_docstring_examples(suffix: str) -> None:
    module = importlib.import_module(f"stoptable.games.stopit{suffix}")
    result = doctest.testmod(doctest_module(module))
    assert result.attempted > 0 and result.failed == 0
