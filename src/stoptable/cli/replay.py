"""``stoptable replay FILE [--json] [--upto N]`` (rules/records.md §1)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from stoptable.core.records import ReplayResult, replay_lines
from stoptable.games import replayer


def replay_file(path: Path, upto: int | None = None) -> ReplayResult:
    """Replay the record at ``path``; unreadable files are exit 1 like any malformed record."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return ReplayResult(1, None, f"cannot read {path}: {exc}")
    return replay_lines(text.splitlines(), replayer, upto=upto, base_dir=path.parent)


def _short(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        return "\n".join(f"P{i}: {' '.join(map(str, v)) or '-'}" for i, v in enumerate(value))
    if isinstance(value, list):
        text = " ".join(map(str, value))
        return text if len(text) < 120 else f"{len(value)} items: {text[:100]} ..."
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return "-" if value is None else str(value)


def summary(output: dict[str, Any]) -> Table:
    """The readable summary: one row per field of the replay JSON."""
    table = Table(title=f"{output.get('game')} · {output.get('ruleset')}", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for key, value in output.items():
        if key in ("game", "ruleset", "error"):
            continue
        table.add_row(key, _short(value))
    return table


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
            console = Console()
            console.print(summary(result.output))
            error = result.output.get("error")
            if error:
                console.print(
                    f"[red]line {error['line']}: {error['reason']} ({error['rule']}):"
                    f" {error['message']}[/red]"
                )
        raise typer.Exit(result.exit_code)
