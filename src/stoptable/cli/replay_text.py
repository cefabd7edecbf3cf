"""The readable summary of ``stoptable replay FILE`` (without ``--json``).

Each game says its state in words (its spec's ``summary``, in the game's ``summary.py``),
built from the replay JSON (records.md §4.5, §5.5, §6.3), so that what a person reads is
exactly what ``--json`` says. A short output (a ``player_count`` error) or a game without
a summary gets one row per field.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group

from stoptable.core.summary import error_lines, generic_summary


def summary(output: dict[str, Any], state: Any = None) -> Group:
    """The readable summary of one replay output, the error (if any) last; ``state`` is
    the replayed state when there is one."""
    from stoptable import games

    try:
        spec = games.spec(str(output.get("game")))
    except ValueError:
        spec = None
    if spec is not None and spec.summary is not None and "phase" in output:
        parts = spec.summary(output, state)
    else:
        parts = generic_summary(output)
    return Group(*parts, *error_lines(output))
