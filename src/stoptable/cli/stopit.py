"""Command-line front end of Stop it!: ``stoptable play stopit`` and ``stoptable simulate stopit``.

Heavy modules (the simulator, Textual) are imported inside the commands so that
``stoptable --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from stoptable.cli.common import (
    check_options,
    game_seed,
    option_help,
    parse_bots,
    parse_options,
    record_file,
    records_dir,
    usage_error,
)

if TYPE_CHECKING:
    from stoptable.sim.stopit import Happening
    from stoptable.sim.stopit_tournament import TournamentReport

OPTION_HELP = option_help("stop-it.md §7", "minus_supply=5")
SPEEDS = {"slow": 1.6, "normal": 1.0, "fast": 0.7}
"""``--speed``: the factor on the bots' reaction times."""


def _bot_list(text: str, humans: int, default_count: bool) -> list[str]:
    """``--bots``: as many as fill the seats of I-2 (the spec's range) with ``humans``."""
    from stoptable.games.stopit.spec import SPEC

    low, high = SPEC.seat_range()
    return parse_bots(
        SPEC.name,
        text,
        max(low - humans, 1),
        high - humans,
        count_allowed=default_count,
        seats_word=f"{SPEC.seat_rule}: {low}-{high} players",
        factors=True,
    )


def stopit_options(items: list[str] | None) -> dict[str, Any]:
    """``-O`` options checked against the option table of stop-it.md §7; usage error if bad."""
    from stoptable.games.stopit.spec import SPEC

    options = parse_options(items)
    check_options(options, lambda o: SPEC.ruleset(options=o))
    return options


def simulate_stopit(
    bots: Annotated[
        str,
        typer.Option(
            help="Comma-separated bot names, one per seat (2-6 seats); name@F scales that "
            "bot's reaction times by F (heuristic@0.8 is 20% faster)."
        ),
    ] = "heuristic,random,random,random",
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option(help="Game g uses seed S+g.")] = 0,
    records: Annotated[
        Path | None, typer.Option(help="Write one record per game into this directory.")
    ] = None,
    real_time_factor: Annotated[
        float,
        typer.Option(
            min=0.0, help="0: as fast as possible; 1: wall-clock speed, printing every event."
        ),
    ] = 0.0,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-O", metavar="KEY=VALUE", help=OPTION_HELP)
    ] = None,
) -> None:
    """Play many seeded Stop it! games between bots on the virtual clock and report (I-55)."""
    from stoptable.sim.stopit_tournament import run_tournament

    names = _bot_list(bots, 0, default_count=False)
    options = stopit_options(option)
    records = records_dir(records)
    if "first_go_seat" in options:
        raise usage_error("first_go_seat rotates from game to game here (I-55)", "'-O'")
    console = Console()
    watch = None
    if real_time_factor > 0:
        from stoptable.sim.stopit_log import describe

        seats = [f"P{k}" for k in range(len(names))]

        def watch(happening: Happening) -> None:
            for line in describe(happening, seats):
                console.print(Text(f"{happening.t / 1000:7.1f}s ", style="dim") + line)

    with Progress(
        TextColumn("[bold]Stop it![/] games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=games)
        report = run_tournament(
            names,
            games,
            seed,
            options=options or None,
            records_dir=records,
            real_time_factor=real_time_factor,
            progress=lambda _result: bar.advance(task),
            watch=watch,
        )
    print_report(console, report)
    if records is not None:
        console.print(f"records: {games} files in {records}")


def print_report(console: Console, report: TournamentReport) -> None:
    """The I-55 report: per bot entry mean minus points and win share; evaluations/game."""
    console.print(
        f"Stop it!: {report.games} games, {len(report.lines)} seats, seed {report.seed} "
        "(seats and the first Go rotate; fewer minus points are better)"
    )
    table = Table(title="per bot (mean ± 95% CI)")
    table.add_column("entry", justify="right")
    table.add_column("bot")
    table.add_column("minus points", justify="right")
    table.add_column("win share", justify="right")
    for line in report.lines:
        table.add_row(str(line.entry), line.name, str(line.minus), f"{line.win_share:.1%}")
    console.print(table)
    console.print(f"evaluations per game: {report.evaluations}")
    console.print(f"game length: {report.duration_s} s of game time")


def play_stopit(
    bots: Annotated[
        str,
        typer.Option(help="Number of bot opponents (1-5) or their names, comma-separated."),
    ] = "3",
    speed: Annotated[
        str, typer.Option(help="How fast the bots react: slow, normal or fast.")
    ] = "normal",
    seed: Annotated[int | None, typer.Option(help="Seed of the deal (default: random).")] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Where 'w' and the end of the game save the record (default: stopit-SEED.jsonl)."
        ),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-O", metavar="KEY=VALUE", help=OPTION_HELP)
    ] = None,
) -> None:
    """Play Stop it! live in the terminal (you are P0) against bots on the wall clock."""
    if speed not in SPEEDS:
        raise usage_error(f"choose one of {', '.join(SPEEDS)}", "'--speed'")
    names = _bot_list(bots, 1, default_count=True)
    options = stopit_options(option)
    from stoptable.tui.stopit import StopItApp

    seed = game_seed(seed)
    path = record_file(record) or Path(f"stopit-{seed}.jsonl")
    try:
        app = StopItApp(
            names, seed=seed, delay_scale=SPEEDS[speed], record_path=path, options=options
        )
    except ValueError as exc:
        raise usage_error(str(exc), "'--bots' / '-O'") from None
    app.run()


def register(play_app: typer.Typer, simulate_app: typer.Typer) -> None:
    """Add ``play stopit`` and ``simulate stopit``."""
    play_app.command("stopit")(play_stopit)
    simulate_app.command("stopit")(simulate_stopit)
