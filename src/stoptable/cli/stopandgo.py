"""Command-line front end of Stop & Go: ``play``, ``simulate`` and ``stoptable map``.

``stoptable map check FILE`` runs the engine's map validator (the §6 format and GM-9
reachability; ``--requirements`` adds the default-map rules GM-2 to GM-8); ``play`` and
``simulate`` refuse a map that fails GM-9 with the same lines (``replay`` plays any map in
the §6 format, GM-1);
``stoptable map render FILE -o map.svg`` draws the map, or the position of a record after
N events. Game modules are imported inside the commands, so that ``stoptable --help``
never pays for them.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from stoptable.cli.common import (
    check_options,
    existing_file,
    game_seed,
    option_help,
    parse_bots,
    parse_options,
    record_file,
    records_dir,
    usage_error,
)

OPTION_HELP = option_help("stop-and-go.md §7", "destination_count=5")
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


def problem_lines(path: Path, problems: list[str]) -> list[str]:
    """How ``map check`` lists a map's problems, and how ``play`` and ``simulate`` refuse
    one (GM-9: "with the same message")."""
    # One problem a line, whatever ids it quotes.
    lines = (" ".join(p.split()) for p in problems)
    return [f"{path}: {len(problems)} problem(s)", *(f"  - {p}" for p in lines)]


def load_game_map(file: Path | None) -> Any:
    """The map of ``--map`` (None: the default map), ready to start games on: in the §6
    format and passing GM-9 (``require_playable_map``); exit 1 listing its problems, as
    ``stoptable map check`` lists them."""
    from stoptable.games.stopandgo import MapError, load_default_map, load_map
    from stoptable.games.stopandgo.playable import require_playable_map

    existing_file(file, "'--map'")
    try:
        return require_playable_map(load_default_map() if file is None else load_map(file))
    except MapError as exc:
        for line in problem_lines(file or default_map_path(), exc.problems):
            print(line, file=sys.stderr)
        raise typer.Exit(1) from None


def register(play_app: typer.Typer, simulate_app: typer.Typer, map_app: typer.Typer) -> None:
    """Add this game's subcommands."""
    _register_map(map_app)
    _register_simulate(simulate_app)
    _register_play(play_app)


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


def stopandgo_options(items: list[str] | None) -> dict[str, Any]:
    """``-O`` options checked against stop-and-go.md §7; usage error naming the option."""
    from stoptable.games.stopandgo.spec import SPEC

    options = parse_options(items)
    check_options(options, lambda o: SPEC.ruleset(None, o))
    return options


def _register_simulate(simulate_app: typer.Typer) -> None:
    @simulate_app.command("stopandgo")
    def simulate_stopandgo(
        bots: Annotated[str, typer.Option(help="Comma-separated bot names, one per seat.")] = (
            "heuristic,random,random,random"
        ),
        games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 100,
        seed: Annotated[int, typer.Option(help="Seed of the first game (game i: seed+i).")] = 0,
        records: Annotated[
            Path | None, typer.Option(help="Write each game's record into this directory.")
        ] = None,
        map_file: Annotated[Path | None, typer.Option("--map", help="Play on this map.")] = None,
        option: Annotated[
            list[str] | None, typer.Option("--option", "-O", metavar="KEY=VALUE", help=OPTION_HELP)
        ] = None,
    ) -> None:
        """Play many Stop & Go games between bots and report wins, scores and lengths."""
        from rich.console import Console
        from rich.progress import Progress

        from stoptable.sim.stopandgo import GameResult, simulate, summarize

        names = parse_bots(
            "stopandgo", bots, 2, 6, count_allowed=False, seats_word="G-2: 2-6 players"
        )
        options = stopandgo_options(option)
        game_map = load_game_map(map_file)
        source = None if map_file is None else _read_json(map_file)
        records = records_dir(records)
        console = Console(stderr=True)
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("playing", total=games)

            def done(result: GameResult) -> None:
                if records is not None and result.record is not None:
                    result.record.write(records / f"game-{result.seed:06d}.jsonl")
                progress.advance(task)

            try:
                results = simulate(names, games, seed, game_map, options, records is not None,
                                   source, on_game=done)  # fmt: skip
            except ValueError as exc:
                raise usage_error(str(exc), "'-O'") from None
        report_table(summarize(names, results), names)


def report_table(report: Any, names: list[str]) -> None:
    """Print a simulation report as Rich tables."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Stop & Go: {report.games} games, bots {', '.join(names)}")
    for column in ("bot", "seats played", "win share", "mean score (95% CI)", "tickets/game"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for bot in report.bots:
        table.add_row(bot.name, str(bot.games), f"{bot.win_share:.1%}", str(bot.score),
                      f"{bot.tickets:.2f}")  # fmt: skip
    console = Console()
    console.print(table)
    console.print(f"mean game length: {report.turns} turns")
    shares = "  ".join(f"P{i} {share:.1%}" for i, share in enumerate(report.seat_shares))
    console.print(f"win share by seat: {shares}")
    if report.stalled:
        console.print(f"{report.stalled} game(s) stalled (G-22) and were scored as they stood")
    if report.unfinished:
        console.print(f"[yellow]{report.unfinished} game(s) stopped unfinished (turn limit)[/]")


def _register_play(play_app: typer.Typer) -> None:
    @play_app.command("stopandgo")
    def play_stopandgo(
        bots: Annotated[
            str,
            typer.Option(help="Number of bot opponents (1-5) or their names, comma-separated."),
        ] = "3",
        seed: Annotated[
            int | None, typer.Option(help="Seed of the game (default: random).")
        ] = None,
        record: Annotated[
            Path | None,
            typer.Option(
                help="Where 'save' and the end of the game write the record "
                "(default: stopandgo-SEED.jsonl)."
            ),
        ] = None,
        map_file: Annotated[Path | None, typer.Option("--map", help="Play on this map.")] = None,
        option: Annotated[
            list[str] | None, typer.Option("--option", "-O", metavar="KEY=VALUE", help=OPTION_HELP)
        ] = None,
        delay: Annotated[
            float, typer.Option(min=0.0, help="Seconds between bot moves, to follow them.")
        ] = 0.4,
    ) -> None:
        """Play Stop & Go in the terminal against bots (you are seat 0)."""
        from stoptable.tui.stopandgo import StopGoApp

        names = parse_bots(
            "stopandgo", bots, 1, 5, count_allowed=True, seats_word="G-2: 2-6 players"
        )
        options = stopandgo_options(option)
        game_map = load_game_map(map_file)
        seed = game_seed(seed)
        path = record_file(record) or Path(f"stopandgo-{seed}.jsonl")
        source = None if map_file is None else _read_json(map_file)
        try:
            app = StopGoApp(names, seed, game_map, options, delay, record_path=path,
                            map_source=source)  # fmt: skip
        except ValueError as exc:
            raise usage_error(str(exc), "'-O'") from None
        app.run()
