"""``stoptable simulate GAME``: many seeded games between bots, for any registered game.

The game is looked up in the registry and run by :mod:`stoptable.sim.run`; nothing here
knows which game it is, so a new game is simulated as soon as it is registered.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from stoptable.cli.common import (
    BOTS_HINT,
    OPTION_HELP,
    game_rules,
    game_setup,
    game_spec,
    parse_bots,
    records_dir,
    usage_error,
)
from stoptable.sim.run import Report, plays_rounds


def simulate(
    game: Annotated[str, typer.Argument(help="The game: stop, stopit or stopandgo.")],
    bots: Annotated[
        str,
        typer.Option(
            help="Comma-separated bot names, one per seat; the seats rotate from game to game. "
            "A real-time bot takes @F to scale its reaction times (heuristic@0.8: 20% faster)."
        ),
    ] = "heuristic,random,random,random",
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option(help="Game g is dealt with seed S+g.")] = 0,
    ruleset: Annotated[
        str | None, typer.Option(help="The ruleset (default: the game's first).")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-O", metavar="KEY=VALUE", help=OPTION_HELP)
    ] = None,
    records: Annotated[
        Path | None, typer.Option(help="Write one record per game into this directory.")
    ] = None,
    map_file: Annotated[
        Path | None, typer.Option("--map", help="Stop & Go: play on this map.")
    ] = None,
    rounds: Annotated[
        bool,
        typer.Option(
            "--rounds",
            help="Stop: each game is a single round, scored by its minus points, "
            "instead of a whole match (the seats rotate, so the dealer does too).",
        ),
    ] = False,
) -> None:
    """Play many seeded games between bots and report win shares, scores and ranks with
    95% intervals, and each bot's score against the first bot's, paired game by game."""
    from stoptable.sim.run import simulate as run
    from stoptable.sim.run import summarize

    spec = game_spec(game)
    if rounds and not plays_rounds(spec):
        raise usage_error(f"{spec.title} is not played in rounds", "--rounds")
    rules, options = game_rules(spec, ruleset, option)
    low, high = spec.seat_range(rules)
    names = parse_bots(spec.name, bots, low, high, count_allowed=False)
    setup, header = game_setup(spec, {"map": map_file})
    out = records_dir(records)
    console = Console()
    with Progress(
        TextColumn(f"[bold]{spec.title}[/] {rules.name}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=games)
        try:
            results = run(
                spec,
                names,
                games,
                seed,
                ruleset=rules.name,
                options=options,
                setup=setup,
                header_setup=header,
                records=out,
                on_game=lambda _result: bar.advance(task),
                rounds=rounds,
            )
        except ValueError as exc:  # a seat count the options do not allow, say
            raise usage_error(str(exc), f"{BOTS_HINT} / '-O'") from None
    print_report(console, summarize(spec, results), spec.title, rules.name)
    if out is not None:
        console.print(f"records: {games} files in {out}")


def print_report(console: Console, report: Report, title: str, ruleset: str) -> None:
    """The tables of a simulation report."""
    better = "lower" if report.lower_is_better else "higher"
    console.print(
        f"{title} {ruleset}: {report.games} games, {len(report.seat_shares)} seats "
        f"(seats rotate; {better} scores are better)"
    )
    table = Table(title="per bot (mean ± 95% CI)")
    table.add_column("bot")
    table.add_column("seats", justify="right")
    table.add_column("win share", justify="right")
    table.add_column("score", justify="right")
    table.add_column("rank", justify="right")
    table.add_column(f"vs {report.lines[0].name}, paired", justify="right")
    for line in report.lines:
        diff = line.difference
        paired = "—" if diff is None else f"{diff.mean:+.2f} [{diff.low:+.2f}, {diff.high:+.2f}]"
        table.add_row(
            line.name,
            str(line.seats_played),
            f"{line.win_share:.1%}",
            str(line.score),
            str(line.rank),
            paired,
        )
    console.print(table)
    shares = ", ".join(f"seat {k}: {share:.1%}" for k, share in enumerate(report.seat_shares))
    console.print(f"win share by seat: {shares}")
    endings = ", ".join(f"{name} {count}" for name, count in sorted(report.terminations.items()))
    console.print(f"game length: {report.actions} actions; endings: {endings}")
