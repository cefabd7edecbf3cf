"""``stoptable map``: the Stop & Go map tools, ``check`` and ``render``.

``stoptable map check FILE`` runs the engine's map validator (the §6 format and GM-9
reachability; ``--requirements`` adds the default-map rules GM-2 to GM-8); ``play`` and
``simulate`` refuse a map that fails GM-9 with the same lines (``replay`` plays any map in
the §6 format, GM-1). ``stoptable map render FILE -o map.svg`` draws the map, or the
position of a record after N events. Game modules are imported inside the commands, so
that ``stoptable --help`` never pays for them.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from stoptable.cli.common import problem_lines

MAP_ARG = typer.Argument(help="A map file (JSON, stop-and-go.md §6); default: the default map.")


LIMITS_HELP = (
    "A map past one of the limits of docs/notation.md (Limits: file size, nesting, spaces, "
    "edges, neighbours per space, destinations, signs, dial positions, coordinates, edge "
    "length, names) is refused with one line on stderr, exit 1."
)


CHECK_HELP = (
    "Validate a map: exit 0 with a summary, or 1 with every problem found.\n\n" + LIMITS_HELP
)
RENDER_HELP = (
    "Draw a map (and a record's position) as SVG. With --record and no map file, the "
    "record's own map is drawn; the record must be a Stop & Go one.\n\n" + LIMITS_HELP
)


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


def _fail(message: str, code: int = 1) -> typer.Exit:
    """Print one line on stderr (whatever the message holds) and give the exit to raise."""
    print(f"stoptable map: {' '.join(message.split())}", file=sys.stderr)
    return typer.Exit(code)


def _read_json(path: Path) -> Any:
    """The JSON of a map file, read within the limits of ``games/stopandgo/limits.py``.

    What cannot be read, is not JSON or passes a limit is one line on stderr and exit 1.
    """
    from stoptable.core.errors import InputLimitError
    from stoptable.games.stopandgo.limits import check_limits, read_map_file

    try:
        data = read_map_file(path)
        check_limits(data)
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise _fail(f"{path}: invalid JSON ({exc.msg}, line {exc.lineno})") from None
    except InputLimitError as exc:
        raise _fail(f"{path}: {exc}") from None
    return data


def _output_path(text: str) -> Path:
    """``-o``: a file name in a folder that exists; a usage error (exit 2, one line) if not.

    Checked before any work is done. An existing FIFO or device is refused too: opening it
    for writing would wait for a reader.
    """
    if not text:
        raise _fail("'-o': give the name of the SVG file to write, not ''", 2)
    path = Path(text)
    if path.is_dir():
        raise _fail(f"'-o': {text} is a folder; give the name of a file to write", 2)
    if path.exists() and not path.is_file():
        raise _fail(f"'-o': {text} exists and is not a regular file", 2)
    if not path.parent.is_dir():
        raise _fail(f"'-o': no folder {path.parent} to write {path.name} in", 2)
    return path


def _record_state(record: Path, upto: int | None) -> tuple[dict[str, Any], Any]:
    """The replay output and state of a Stop & Go record; one line and exit 1 otherwise."""
    from stoptable.cli.replay import replay_file

    result = replay_file(record, upto)
    if result.output is None:
        raise _fail(f"{record}: {result.message}")
    game = result.output.get("game")
    if game != "stopandgo":
        raise _fail(f"{record}: a {game} record, not a Stop & Go one: there is no map to draw")
    return result.output, result.state


def register(map_app: typer.Typer) -> None:
    """Add ``map check`` and ``map render``."""
    _register_map(map_app)


def _register_map(map_app: typer.Typer) -> None:
    @map_app.command("check", help=CHECK_HELP)
    def check(
        file: Annotated[Path | None, MAP_ARG] = None,
        requirements: Annotated[
            bool,
            typer.Option(
                "--requirements", help="Also check the default-map requirements GM-2 to GM-8."
            ),
        ] = False,
    ) -> None:
        """Validate a map: exit 0 with a summary, or 1 with every problem found (help: MAP_HELP)."""
        from stoptable.games.stopandgo.check import check_map

        path = file or default_map_path()
        data = _read_json(path)
        problems = check_map(data, requirements=requirements)
        if problems:
            print("\n".join(problem_lines(path, problems)))
            raise typer.Exit(1)
        print(f"ok  {map_summary(data)}")

    @map_app.command("render", help=RENDER_HELP)
    def render(
        file: Annotated[Path | None, MAP_ARG] = None,
        output: Annotated[
            str,
            typer.Option("-o", "--output", help="The SVG file to write (its folder must exist)."),
        ] = "map.svg",
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
        """Draw a map (and a record's position) as SVG (help: RENDER_HELP).

        With ``--record`` and no map file, the record's own map is drawn.
        """
        from stoptable.games.stopandgo.check import check_map
        from stoptable.games.stopandgo.svg import render_svg

        target = _output_path(output)
        path = file or default_map_path()
        data = _read_json(path)
        problems = check_map(data)
        if problems:
            more = f" (and {len(problems) - 1} more: see 'stoptable map check')"
            raise _fail(
                f"{path} is not a valid map: {problems[0]}{more if len(problems) > 1 else ''}"
            )
        state: dict[str, Any] | None = None
        if record is not None:
            state, replayed = _record_state(record, upto)
            if file is None and replayed is not None:
                # Without a map file, draw the map the record is played on.
                data = replayed.game_map.model.model_dump(by_alias=True, exclude_none=True)
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
        try:
            target.write_text(render_svg(data, state), encoding="utf-8")
        except OSError as exc:
            raise _fail(f"cannot write {target}: {exc}") from None
        print(f"wrote {target}")
