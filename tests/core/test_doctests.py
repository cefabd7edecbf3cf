"""The doctests in the kernel's docstrings run as tests (they are examples people copy)."""

from __future__ import annotations

import importlib

import pytest

from tests.support import run_doctests

MODULES = [
    "stoptable.core.errors",
    "stoptable.core.limits",
    "stoptable.core.protocol",
    "stoptable.core.rng",
    "stoptable.sim.stats",
    "stoptable.games.stopandgo.limits",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = run_doctests(importlib.import_module(name))
    assert result.failed == 0
