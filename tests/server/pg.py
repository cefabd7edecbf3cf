"""A throwaway PostgreSQL server for the store tests (Debian's ``postgresql`` package):
the one ``stoptable cluster`` starts (:mod:`stoptable.cli.cluster`). :func:`find_bin` is
None where PostgreSQL is not installed: the tests that need it skip with one line saying so.
"""

from __future__ import annotations

from stoptable.cli.cluster import Postgres, pg_bindir

find_bin = pg_bindir

__all__ = ["Postgres", "find_bin"]
