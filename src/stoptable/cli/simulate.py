"""``stoptable simulate GAME``: many seeded games between bots, for any registered game.

The game is looked up in the registry and run by :mod:`stoptable.sim.run`; nothing here
knows which game it is, so a new game is simulated as soon as it is registered.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

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

if TYPE_CHECKING:  # the simulator (and asyncio under it) loads when a simulation runs
    from stoptable.sim.run import Report


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
    real_time_factor: Annotated[
        float,
        typer.Option(
            "--real-time-factor",
            min=0.0,
            help="Stop it!: watch the games, paced against the wall clock (1: real speed, "
            "0.5: twice as fast; 0, the default: as fast as possible, nothing shown).",
        ),
    ] = 0.0,
) -> None:
    """Play many seeded games between bots and report win shares, scores and ranks with
    95% intervals, and each bot's score against the first bot's, paired game by game."""
    from stoptable.sim.run import plays_paced, plays_rounds, summarize
    from stoptable.sim.run import simulate as run

    spec = game_spec(game)
    if rounds and not plays_rounds(spec):
        raise usage_error(f"{spec.title} is not played in rounds", "--rounds")
    if real_time_factor > 0 and not plays_paced(spec):
        raise usage_error(f"{spec.title} is not a real-time game", "--real-time-factor")
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
        watch = Watcher(spec.name, names, bar.console) if real_time_factor > 0 else None

        def done(_result: object) -> None:
            bar.advance(task)
            if watch is not None:
                watch.game += 1

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
                on_game=done,
                rounds=rounds,
                real_time_factor=real_time_factor,
                watch=watch,
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


WATCH_MODULE = "stoptable.sim.{game}_log"
"""Where a real-time game's watch lines come from: its ``describe(happening, names)``, the
live game's log lines (:mod:`stoptable.sim.stopit_log`). A game without one is shown as
its public events."""


class Watcher:
    """I-55's watch mode: prints what happens in each game as it happens (game time first),
    in the live game's words where the game has them (:data:`WATCH_MODULE`)."""

    def __init__(self, game: str, bots: list[str], console: Console) -> None:
        self.bots = bots
        self.console = console
        self.game = 0
        """The game being played (0-based); the caller counts them."""
        self.shown = -1
        self.names: list[str] = []
        try:
            module = importlib.import_module(WATCH_MODULE.format(game=game))
            self.describe: Callable[[Any, list[str]], list[Any]] | None = module.describe
        except ImportError:
            self.describe = None

    def __call__(self, happening: Any) -> None:
        from stoptable.sim.run import seating

        if self.shown != self.game:  # a game's first happening: who sits where
            self.shown = self.game
            self.names = [f"{bot} ({k})" for k, bot in enumerate(seating(self.bots, self.game))]
            self.console.rule(f"game {self.game + 1}: " + ", ".join(self.names))
        if self.describe is not None:
            lines = self.describe(happening, self.names)
        elif happening.error is None:
            lines = [str(event.for_seat(None)) for event in happening.events]
        else:
            lines = []
        for line in lines:
            self.console.print(f"{happening.t / 1000:8.2f}s ", line, sep="")
