"""``stoptable replay FILE [--json] [--upto N]`` (rules/records.md §1)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from stoptable.cli.replay_text import summary
from stoptable.core.records import ReplayResult, replay_lines
from stoptable.games import replayer


def replay_file(path: Path, upto: int | None = None) -> ReplayResult:
    """Replay the record at ``path``; unreadable files are exit 1 like any malformed record."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return ReplayResult(1, None, f"cannot read {path}: {exc}")
    # JSON Lines are split on "\n" only: str.splitlines() would also split on U+2028 and
    # other separators that are legal inside a JSON string (a note, say).
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    return replay_lines(lines, replayer, upto=upto, base_dir=path.parent)


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command to the root app."""

    @app.command()
    def replay(
        file: Annotated[Path, typer.Argument(help="A stoptable-record/1 file (JSON Lines).")],
        as_json: Annotated[bool, typer.Option("--json", help="Print the JSON state.")] = False,
        upto: Annotated[
            int | None, typer.Option("--upto", help="Apply only the first N events.")
        ] = None,
    ) -> None:
        """Replay a game record and print the resulting state."""
        result = replay_file(file, upto)
        if result.exit_code == 1 or result.output is None:
            print(f"stoptable replay: {result.message}", file=sys.stderr)
            raise typer.Exit(1)
        if as_json:
            sys.stdout.write(json.dumps(result.output) + "\n")
        else:
            Console().print(summary(result.output, result.state))
        raise typer.Exit(result.exit_code)
