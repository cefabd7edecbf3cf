"""``stoptable tournament``: round-robin or gauntlet matches between bots, for any game.

The game comes from the registry (``stoptable.games.spec``), so this command names no
game. Results are written as ``tournament.json`` plus three PNG plots (docs/tournaments.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from stoptable.cli.common import parse_options, usage_error

BOTS_HELP = (
    "comma-separated entries: registered bots (heuristic, random, ismcts, ismcts:200, "
    "ismcts:50ms) or py:<module>:<factory> for a saved policy"
)


def tournament(
    game: Annotated[str, typer.Argument(help="the game (stop, stopit, stopandgo)")],
    bots: Annotated[str, typer.Option("--bots", "-b", help=BOTS_HELP)] = "heuristic,random",
    mode: Annotated[str, typer.Option(help="round-robin or gauntlet (first entry vs each)")] = (
        "round-robin"
    ),
    seats: Annotated[int | None, typer.Option(help="seats per game (default: the fewest)")] = None,
    games: Annotated[int, typer.Option(help="repetitions of every seating", min=1)] = 1,
    ruleset: Annotated[str | None, typer.Option(help="ruleset (default: the game's)")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-O", metavar="KEY=VALUE", help="rule option")
    ] = None,
    seed: Annotated[int, typer.Option(help="game i has seed SEED + i")] = 0,
    workers: Annotated[int, typer.Option(help="local worker processes", min=1)] = 1,
    backend: Annotated[str, typer.Option(help="local or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (ray only)")] = None,
    out: Annotated[Path, typer.Option(help="directory for tournament.json and the plots")] = Path(
        "tournament"
    ),
    plots: Annotated[bool, typer.Option(help="write the PNG plots")] = True,
) -> None:
    """Play a tournament between bots, rate them (openskill) and write JSON and plots."""
    from stoptable.core.errors import StoptableError
    from stoptable.games import spec as game_spec
    from stoptable.sim.backends import LocalBackend, RayBackend
    from stoptable.sim.players import check_entry
    from stoptable.sim.tournament import MODES, run_tournament

    try:
        spec = game_spec(game)
    except ValueError as exc:
        raise usage_error(str(exc), "'GAME'") from None
    if mode not in MODES:
        raise usage_error(f"unknown mode {mode!r} (known: {', '.join(MODES)})", "'--mode'")
    entries = [e.strip() for e in bots.split(",") if e.strip()]
    if len(entries) < 2:
        raise usage_error("give at least two entries", "'--bots'")
    for entry in entries:
        if spec.realtime and entry.startswith("py:"):
            raise usage_error(f"{entry}: saved policies play the turn-based games", "'--bots'")
        try:
            check_entry(game, entry.partition("@")[0] if spec.realtime else entry)
        except ValueError as exc:
            raise usage_error(str(exc), "'--bots'") from None
    options = parse_options(option)
    try:
        rules = spec.ruleset(ruleset, options)
        count = spec.seat_range(rules)[0] if seats is None else seats
        spec.check_seats(count, rules)
    except (StoptableError, ValueError) as exc:
        raise usage_error(str(exc), "'--ruleset', '-O' or '--seats'") from None
    runner: Any
    if backend == "local":
        if address is not None:
            raise usage_error("--address is for the ray backend", "'--address'")
        runner = LocalBackend(workers)
    elif backend == "ray":
        try:
            runner = RayBackend(address, num_cpus=workers if address is None else None)
        except RuntimeError as exc:
            raise usage_error(str(exc), "'--backend'") from None
    else:
        raise usage_error(f"unknown backend {backend!r} (local or ray)", "'--backend'")

    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(f"{spec.title} {mode}", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = run_tournament(
            game, entries, seats=count, mode=mode,  # type: ignore[arg-type]
            games=games, seed=seed, ruleset=rules.name, options=options, backend=runner,
            progress=progress,
        )  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    data = result.to_json()
    (out / "tournament.json").write_text(json.dumps(data, indent=1) + "\n", "utf-8")
    written = [out / "tournament.json"]
    if plots:
        from stoptable.sim.plots import write_plots

        written += write_plots(result, out)

    table = Table(title=f"{spec.title}: {len(result.games)} games, {mode}, {count} seats")
    table.add_column("entry")
    table.add_column("rating (mu ± sigma)", justify="right")
    table.add_column("ordinal", justify="right")
    table.add_column("mean score", justify="right")
    for rating, line in sorted(
        zip(result.ratings, data["summary"], strict=True), key=lambda p: -p[0].ordinal
    ):
        table.add_row(
            rating.entry,
            f"{rating.mu:.1f} ± {rating.sigma:.1f}",
            f"{rating.ordinal:.1f}",
            f"{line['mean_score']:.1f} ± {line['mean_score_ci95']:.1f}",
        )
    Console().print(table)
    for path in written:
        typer.echo(f"wrote {path}")


def register(app: typer.Typer) -> None:
    """Add ``tournament`` to the ``stoptable`` app."""
    app.command("tournament")(tournament)
