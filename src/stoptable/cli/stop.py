"""Command-line front end of Stop: ``stoptable play stop`` and ``stoptable simulate stop``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

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
from stoptable.sim.stats import mean_ci, paired_difference, win_shares

OPTION_HELP = option_help("stop.md §11", "target_score=100")

RULESETS = ("abacus-en", "abacus-ja")


def _check_ruleset(ruleset: str) -> str:
    if ruleset not in RULESETS:
        raise typer.BadParameter(f"choose one of {', '.join(RULESETS)}")
    return ruleset


def stop_options(ruleset: str, items: list[str] | None) -> dict[str, Any]:
    """``-O`` options checked against the ruleset (stop.md §11); usage error if bad."""
    from stoptable.games.stop.ruleset import Ruleset

    options = parse_options(items)
    check_options(options, lambda o: Ruleset.from_options(ruleset, o))
    return options


def simulate_stop(
    bots: Annotated[
        str, typer.Option(help="Comma-separated bot names, one per seat (2-10 seats).")
    ] = "heuristic,random,random,random",
    games: Annotated[int, typer.Option(min=1, help="Number of matches (or rounds).")] = 100,
    rounds: Annotated[
        bool, typer.Option("--rounds", help="Play single rounds instead of matches to 500.")
    ] = False,
    ruleset: Annotated[
        str, typer.Option(help="abacus-en or abacus-ja.", callback=_check_ruleset)
    ] = "abacus-en",
    seed: Annotated[int, typer.Option(help="Game g uses seed S+g.")] = 0,
    records: Annotated[
        Path | None, typer.Option(help="Write one record per game into this directory.")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-O", metavar="KEY=VALUE", help=OPTION_HELP)
    ] = None,
) -> None:
    """Play many seeded Stop matches (or rounds) between bots and report the figures."""
    from stoptable.sim.stop import simulate

    names = parse_bots("stop", bots, 2, 10, count_allowed=False, seats_word="S-6: 2-10 seats")
    options = stop_options(ruleset, option)
    records = records_dir(records)
    console = Console()
    unit = "rounds" if rounds else "matches"
    with Progress(
        TextColumn(f"[bold]Stop {ruleset}[/] {unit}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=games)
        try:
            report = simulate(
                names,
                games,
                ruleset=ruleset,
                seed=seed,
                rounds_only=rounds,
                options=options,
                records=records,
                progress=lambda: bar.advance(task),
            )
        except ValueError as exc:  # e.g. more seats than the options' max_players
            raise usage_error(str(exc), "'--bots' / '-O'") from None
    print_report(console, report)
    if records is not None:
        console.print(f"records: {games} files in {records}")


def print_report(console: Console, report: object) -> None:
    """The tables of a simulation report (win shares, means with 95% CIs, paired diffs)."""
    from stoptable.sim.stop import SimReport

    assert isinstance(report, SimReport)
    names = report.names
    seats = len(names)
    played = f"{len(report.round_scores)} rounds"
    if not report.rounds_only:
        played = f"{report.games} matches, {played}"
    console.print(f"Stop {report.ruleset}: {played}, {seats} seats (lower scores are better)")
    shares = win_shares(report.winners, seats)
    table = Table(title="per seat (mean ± 95% CI)")
    table.add_column("seat", justify="right")
    table.add_column("bot")
    table.add_column("win share", justify="right")
    if not report.rounds_only:
        table.add_column("final total", justify="right")
    table.add_column("round score", justify="right")
    for seat, name in enumerate(names):
        row = [str(seat), name, f"{shares[seat]:.1%}"]
        if not report.rounds_only:
            row.append(str(mean_ci(report.seat_game_scores(seat))))
        row.append(str(mean_ci(report.seat_round_scores(seat))))
        table.add_row(*row)
    console.print(table)
    lengths = mean_ci([float(n) for n in report.round_lengths])
    console.print(
        f"round length: {lengths} actions (min {min(report.round_lengths)}, "
        f"max {max(report.round_lengths)})"
    )
    base = report.seat_round_scores(0)
    paired = Table(title=f"round score minus seat 0's ({names[0]}), paired by round")
    paired.add_column("seat", justify="right")
    paired.add_column("bot")
    paired.add_column("difference", justify="right")
    paired.add_column("95% CI", justify="right")
    paired.add_column("verdict")
    for seat in range(1, seats):
        diff = paired_difference(report.seat_round_scores(seat), base)
        if diff.low > 0:
            verdict = "seat 0 scores lower"
        elif diff.high < 0:
            verdict = "seat 0 scores higher"
        else:
            verdict = "no clear difference"
        paired.add_row(
            str(seat),
            names[seat],
            f"{diff.mean:+.2f}",
            f"{diff.low:+.2f} .. {diff.high:+.2f}",
            verdict,
        )
    console.print(paired)


def play_stop(
    ruleset: Annotated[
        str, typer.Option(help="abacus-en or abacus-ja.", callback=_check_ruleset)
    ] = "abacus-en",
    bots: Annotated[
        str,
        typer.Option(help="Number of bot opponents (1-9) or their names, comma-separated."),
    ] = "3",
    seed: Annotated[int | None, typer.Option(help="Seed of the deal (default: random).")] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Where 'save' and the end of the game write the record "
            "(default: stop-RULESET-SEED.jsonl)."
        ),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-O", metavar="KEY=VALUE", help=OPTION_HELP)
    ] = None,
    delay: Annotated[
        float, typer.Option(min=0.0, help="Seconds between bot moves, to follow them.")
    ] = 0.3,
) -> None:
    """Play Stop in the terminal (you are seat 0) against bots, a whole match to 500."""
    names = parse_bots("stop", bots, 1, 9, count_allowed=True, seats_word="S-6: 2-10 seats")
    options = stop_options(ruleset, option)
    from stoptable.tui.stop import StopApp

    try:
        app = StopApp(
            ruleset=ruleset,
            bots=names,
            seed=game_seed(seed),
            record_path=record_file(record),
            options=options,
            bot_delay=delay,
        )
    except ValueError as exc:  # e.g. more seats than the options' max_players
        raise usage_error(str(exc), "'--bots' / '-O'") from None
    app.run()


def register(play_app: typer.Typer, simulate_app: typer.Typer) -> None:
    """Add ``play stop`` and ``simulate stop``."""
    play_app.command("stop")(play_stop)
    simulate_app.command("stop")(simulate_stop)
