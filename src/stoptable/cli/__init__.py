"""The ``stoptable`` command: replay, play, simulate and map tools.

Each game contributes its own ``play``/``simulate`` subcommands from its own module
(``cli/stop.py``, ``cli/stopit.py``, ``cli/stopandgo.py``), so that the games stay apart here
as they are in the engines.
"""

from __future__ import annotations

import sys

import typer

from stoptable.cli import replay as replay_cmd
from stoptable.cli import stop as stop_cmd
from stoptable.cli import stopandgo as stopandgo_cmd
from stoptable.cli import stopit as stopit_cmd
from stoptable.cli import tournament as tournament_cmd

app = typer.Typer(
    name="stoptable",
    help="The Stop family of tabletop games: play, simulate, replay.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(help="Play a game in the terminal against bots.", no_args_is_help=True)
simulate_app = typer.Typer(help="Play many games between bots and report.", no_args_is_help=True)
map_app = typer.Typer(help="Stop & Go map tools: check and render.", no_args_is_help=True)
app.add_typer(play_app, name="play")
app.add_typer(simulate_app, name="simulate")
app.add_typer(map_app, name="map")

replay_cmd.register(app)
stop_cmd.register(play_app, simulate_app)
stopit_cmd.register(play_app, simulate_app)
stopandgo_cmd.register(play_app, simulate_app, map_app)
tournament_cmd.register(app)


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
