"""The ``stoptable`` command: play, simulate, replay, options and the map tools.

Every command reaches a game through the registry (``stoptable.games.spec(name)``), so no
command is written per game: a new game is played, simulated and replayed as soon as it
is registered (``play`` also needs its Textual app in ``stoptable.tui``).
"""

from __future__ import annotations

import sys

import typer

from stoptable.cli import cluster as cluster_cmd
from stoptable.cli import maps as maps_cmd
from stoptable.cli import replay as replay_cmd
from stoptable.cli import serve as serve_cmd
from stoptable.cli.play import options as options_cmd
from stoptable.cli.play import play as play_cmd
from stoptable.cli.simulate import simulate as simulate_cmd
from stoptable.cli.tournament import register as register_tournament

app = typer.Typer(
    name="stoptable",
    help="The Stop family of tabletop games: play, simulate, replay.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
map_app = typer.Typer(help="Stop & Go map tools: check and render.", no_args_is_help=True)
app.command("play")(play_cmd)
app.command("simulate")(simulate_cmd)
app.command("options")(options_cmd)
app.add_typer(map_app, name="map")

replay_cmd.register(app)
serve_cmd.register(app)
cluster_cmd.register(app)
maps_cmd.register(map_app)
register_tournament(app)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point.

    ``stoptable replay`` has the exit statuses of records.md §1, where 2 means "a game rule
    was broken": its bad arguments therefore exit 1 with one line on stderr, not with
    Click's usage box and status 2. The other commands keep Click's usual status 2.
    """
    args = sys.argv[1:] if argv is None else argv
    if args[:1] != ["replay"]:
        app(args=args, prog_name="stoptable")
        return
    command = typer.main.get_command(app)
    try:
        code = command.main(args=args, prog_name="stoptable", standalone_mode=False)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.exit(1)
    except typer.exceptions.TyperException as exc:
        format_message = getattr(exc, "format_message", None)
        message = format_message() if callable(format_message) else str(exc)
        print(f"stoptable replay: {' '.join(str(message).split())}", file=sys.stderr)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
