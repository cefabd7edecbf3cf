"""Suite-wide hooks.

``STOPTABLE_REQUIRE_ALL=1`` (set by ``.ci/run``) turns every skipped test into a failure:
in CI the system packages a test needs (PostgreSQL) are installed by ``make test``, so a
skip there means something is missing, not optional.
"""

from __future__ import annotations

import os

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.skipped and os.environ.get("STOPTABLE_REQUIRE_ALL") == "1":
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped, but STOPTABLE_REQUIRE_ALL=1: {reason}"
    return None
