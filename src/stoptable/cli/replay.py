"""``stoptable replay FILE [--json] [--upto N]`` (rules/records.md §1)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from stoptable.cli.replay_text import summary
from stoptable.core.errors import InputLimitError
from stoptable.core.limits import (
    MAX_DEPTH,
    MAX_LINE_CHARS,
    MAX_RECORD_BYTES,
    MAX_RECORD_LINES,
    read_text,
)
from stoptable.core.records import ReplayResult, replay_lines
from stoptable.games import replayer

REPLAY_HELP = (
    "Replay a game record and print the resulting state.\n\n"
    "Exit 0: every event legal; 2: an event breaks a rule; 1: anything malformed, with one "
    f"line on stderr. Limits: a regular file of at most {MAX_RECORD_BYTES} bytes and "
    f"{MAX_RECORD_LINES} lines, each line at most {MAX_LINE_CHARS} characters, JSON nested "
    f"at most {MAX_DEPTH} levels deep."
)


def replay_file(path: Path, upto: int | None = None) -> ReplayResult:
    """Replay the record at ``path``; unreadable files are exit 1 like any malformed record.

    The file is read within the limits of :mod:`stoptable.core.limits`: a regular file
    (a FIFO is refused, not waited on) of at most ``MAX_RECORD_BYTES``.
    """
    try:
        text = read_text(path, MAX_RECORD_BYTES)
    except (OSError, UnicodeDecodeError) as exc:
        return ReplayResult(1, None, f"cannot read {path}: {exc}")
    except InputLimitError as exc:
        return ReplayResult(1, None, f"{path}: {exc}")
    # JSON Lines are split on "\n" only: str.splitlines() would also split on U+2028 and
    # other separators that are legal inside a JSON string (a note, say).
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    return replay_lines(lines, replayer, upto=upto, base_dir=path.parent)


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command to the root app."""

    @app.command(help=REPLAY_HELP)
    def replay(
        file: Annotated[Path, typer.Argument(help="A stoptable-record/1 file (JSON Lines).")],
        as_json: Annotated[bool, typer.Option("--json", help="Print the JSON state.")] = False,
        upto: Annotated[
            int | None, typer.Option("--upto", help="Apply only the first N events.")
        ] = None,
    ) -> None:
        """Replay a game record and print the resulting state (help: REPLAY_HELP)."""
        result = replay_file(file, upto)
        if result.exit_code == 1 or result.output is None:
            # One line whatever the message quotes (a space id or path may hold a newline).
            print(f"stoptable replay: {' '.join(str(result.message).split())}", file=sys.stderr)
            raise typer.Exit(1)
        if as_json:
            sys.stdout.write(json.dumps(result.output) + "\n")
        else:
            Console().print(summary(result.output, result.state))
        raise typer.Exit(result.exit_code)
