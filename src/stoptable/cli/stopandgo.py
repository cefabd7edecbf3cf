"""Command-line front end of Stop & Go: ``play``, ``simulate`` and ``stoptable map``.

``stoptable map check FILE`` runs the engine's map validator (schema, consistency, GM-9
reachability); ``stoptable map render FILE -o map.svg`` draws the map, or the position of
a record after N events. Game modules are imported inside the commands, so that
``stoptable --help`` never pays for them.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

MAP_ARG = typer.Argument(help="A map file (JSON, stop-and-go.md §6); default: the default map.")


def default_map_path() -> Path:
    """Where the default map file lives (inside the installed package)."""
    from importlib import resources

    return Path(str(resources.files("stoptable.games.stopandgo").joinpath("maps/default.json")))


def map_summary(data: dict[str, Any]) -> str:
    """One line that says what a map holds: spaces by kind, signs, lights and dial."""
    kinds = Counter(str(s.get("kind")) for s in data.get("spaces", []))
    dial = data.get("dial") or {}
    slots = dial.get("slots", [])
    lighted = {s["to"] for s in slots} & {
        s["id"] for s in data.get("spaces", []) if s.get("kind") == "crossroads"
    }
    return (
        f"{data.get('name')}: {sum(kinds.values())} spaces, {len(data.get('edges', []))} edges, "
        f"{kinds['destination']} destinations, {kinds['crossroads']} crossroads "
        f"({len(lighted)} lighted), {len(data.get('signs', []))} signs, "
        f"{len(slots)} dial slots, {dial.get('positions', 4)} dial positions"
    )


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(f"stoptable map: cannot read {path}: {exc}", file=sys.stderr)
        raise typer.Exit(1) from None


def register(play_app: typer.Typer, simulate_app: typer.Typer, map_app: typer.Typer) -> None:
    """Add this game's subcommands."""
    _register_map(map_app)


def _register_map(map_app: typer.Typer) -> None:
    @map_app.command("check")
    def check(
        file: Annotated[Path | None, MAP_ARG] = None,
        requirements: Annotated[
            bool,
            typer.Option(
                "--requirements", help="Also check the default-map requirements GM-2 to GM-8."
            ),
        ] = False,
    ) -> None:
        """Validate a map: exit 0 with a summary, or 1 with every problem found."""
        from stoptable.games.stopandgo.check import check_map

        path = file or default_map_path()
        problems = check_map(path, requirements=requirements)
        if problems:
            print(f"{path}: {len(problems)} problem(s)")
            for problem in problems:
                print(f"  - {problem}")
            raise typer.Exit(1)
        print(f"ok  {map_summary(_read_json(path))}")

    @map_app.command("render")
    def render(
        file: Annotated[Path | None, MAP_ARG] = None,
        output: Annotated[Path, typer.Option("-o", "--output", help="The SVG file to write.")] = (
            Path("map.svg")
        ),
        record: Annotated[
            Path | None, typer.Option("--record", help="Draw the position of this record.")
        ] = None,
        upto: Annotated[
            int | None, typer.Option("--upto", help="Only the first N events of the record.")
        ] = None,
        dial: Annotated[
            int | None, typer.Option("--dial", help="Dial position to show (map only).")
        ] = None,
    ) -> None:
        """Draw a map (and a record's position) as SVG."""
        from stoptable.games.stopandgo.check import check_map
        from stoptable.games.stopandgo.svg import render_svg

        path = file or default_map_path()
        problems = check_map(path)
        if problems:
            print(f"stoptable map: {path} is not a valid map:", file=sys.stderr)
            for problem in problems:
                print(f"  - {problem}", file=sys.stderr)
            raise typer.Exit(1)
        data = _read_json(path)
        state: dict[str, Any] | None = None
        if record is not None:
            from stoptable.cli.replay import replay_file

            result = replay_file(record, upto)
            if result.output is None:
                print(f"stoptable map: {record}: {result.message}", file=sys.stderr)
                raise typer.Exit(1)
            state = result.output
            error = state.get("error")
            if error:
                print(
                    f"stoptable map: {record} line {error['line']}: {error['reason']};"
                    " drawing the position before it",
                    file=sys.stderr,
                )
        elif dial is not None:
            state = None
            data = {**data, "dial": {**(data.get("dial") or {}), "start": dial}}
        output.write_text(render_svg(data, state), encoding="utf-8")
        print(f"wrote {output}")
