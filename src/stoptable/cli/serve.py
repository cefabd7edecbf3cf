"""``stoptable serve [--db URL] [--host H] [--port P] [--log-format text|json]``
(protocol.md §1)."""

from __future__ import annotations

import contextlib
import sys
from asyncio import AbstractEventLoop
from collections.abc import Callable
from typing import Annotated, Any

import typer


async def _serve(settings: Any) -> None:
    import asyncio

    import uvicorn

    from stoptable.server.app import create_app
    from stoptable.server.logs import configure
    from stoptable.server.serving import uvicorn_config

    config = uvicorn_config(create_app(settings), settings)  # sets uvicorn's logging up
    configure(settings.log_format)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
            raise SystemExit(1)
        await asyncio.sleep(0.02)
    port = settings.port
    for srv in server.servers:
        for sock in srv.sockets:
            port = sock.getsockname()[1]
    print(f"serving on http://{settings.host}:{port}", flush=True)
    await task


def loop_factory() -> Callable[[], AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (``uvicorn[standard]`` brings it on Linux
    and macOS), else asyncio's own (None).

    The server's time is mostly the loop's: every Socket.IO message is a task wake-up and
    a socket write. uvloop does both in C: at 100 Stop it! tables the server's CPU per
    action fell by a third (operations.md, "Where an ack's time goes")."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the root app."""

    @app.command()
    def serve(
        db: Annotated[
            str | None, typer.Option("--db", help="Database URL (default sqlite stoptable.db).")
        ] = None,
        host: Annotated[str | None, typer.Option("--host", help="Address to listen on.")] = None,
        port: Annotated[int | None, typer.Option("--port", help="Port (0: any free one).")] = None,
        log_format: Annotated[
            str | None,
            typer.Option("--log-format", help="Log lines as 'text' (default) or 'json'."),
        ] = None,
        redis: Annotated[
            str | None,
            typer.Option(
                "--redis", help="redis://HOST:PORT/N: one of several processes (needs PostgreSQL)."
            ),
        ] = None,
    ) -> None:
        """Run the game server: HTTP lobby and Socket.IO tables (shared/rules/protocol.md)."""
        import asyncio  # here, not at the top: the other commands start without it

        from pydantic import ValidationError

        try:
            from stoptable.server.config import Settings
        except ImportError as exc:  # the base install has no web server
            print(
                f"stoptable serve: the web server is not installed ({exc.name} is missing):"
                " pip install 'stoptable[server]' (make serve does it)",
                file=sys.stderr,
            )
            raise typer.Exit(1) from None

        flags: dict[str, Any] = {
            k: v
            for k, v in {
                "db": db,
                "host": host,
                "port": port,
                "log_format": log_format,
                "redis": redis,
            }.items()
            if v is not None
        }
        try:
            settings = Settings(**flags)
        except ValidationError as exc:
            print(f"stoptable serve: {exc.errors()[0]['msg']}", file=sys.stderr)
            raise typer.Exit(1) from None
        with (
            contextlib.suppress(KeyboardInterrupt),
            asyncio.Runner(loop_factory=loop_factory()) as runner,
        ):
            runner.run(_serve(settings))
