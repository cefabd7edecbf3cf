"""``stoptable cluster``: several servers on one machine, for trying §9 (``make cluster``).

A throwaway PostgreSQL (``initdb`` in a temporary directory), a ``redis-server``, N
``stoptable serve --db postgresql+asyncpg://… --redis redis://…`` processes and HAProxy
in front of them on one port (the configuration of ``deploy/haproxy.cfg``, rendered for
the ports taken). It prints ``cluster on http://HOST:PORT`` and runs until Ctrl-C, then
stops everything it started and removes the temporary directory. The classes are what
the cluster tests and ``benchmarks/server_load.py --processes N`` start too.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Annotated, Final

import typer

SERVE_CODE: Final = "import sys; from stoptable.cli import main; main(sys.argv[1:])"
"""How a server process is started (tests put a registration of their own before it)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_port(port: int, proc: subprocess.Popen[bytes] | None, what: str, within: float) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.02)
    raise RuntimeError(f"{what} did not listen on port {port}")


def _end(proc: subprocess.Popen[bytes] | None) -> None:
    """SIGTERM, then SIGKILL if ``proc`` has not gone within 5 s (Redis, HAProxy)."""
    if proc is None:
        return
    proc.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(5)
    if proc.poll() is None:
        proc.kill()


def pg_bindir() -> Path | None:
    """Where Debian's PostgreSQL programs are (None: not installed)."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


class Postgres:
    """A throwaway PostgreSQL: ``initdb`` in a temp dir, a free port, ``pg_ctl start``;
    as root it runs as the ``postgres`` user (initdb refuses root)."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="stoptable-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=60)

    def start(self, max_connections: int = 200) -> Postgres:
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        opts = (
            f"-p {self.port} -k {self.dir} -h 127.0.0.1 -c fsync=off"
            f" -c max_connections={max_connections}"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", opts, "-w", "-l", str(self.dir / "log"), "start"
        )
        return self

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    """A ``redis-server`` on a free port, keeping nothing on disk."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Redis:
        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _wait_port(self.port, self.proc, "redis-server", 10)
        return self

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        _end(self.proc)
        self.proc = None


class Server:
    """One ``stoptable serve`` process of the cluster on ``port`` (0: a free one, the port
    it prints)."""

    def __init__(
        self,
        db: str,
        redis: str,
        env: dict[str, str] | None = None,
        code: str = SERVE_CODE,
        log: Path | None = None,
        port: int = 0,
    ) -> None:
        self.args = ["serve", "--db", db, "--redis", redis, "--port", str(port)]
        self.env = {**os.environ, **(env or {})}
        self.code = code
        self.log = log
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def spawn(self) -> Server:
        """Start the process (without waiting for it: :meth:`ready`)."""
        with contextlib.ExitStack() as files:
            err = None if self.log is None else files.enter_context(self.log.open("a"))
            self.proc = subprocess.Popen(
                [sys.executable, "-c", self.code, *self.args],
                env=self.env,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
            )
        return self

    def ready(self) -> Server:
        """Wait for its ``serving on`` line."""
        assert self.proc is not None and self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("serving on http://"):
            self.proc.kill()
            raise RuntimeError(f"stoptable serve printed {line!r}")
        self.port = int(line.rsplit(":", 1)[1])
        return self

    def start(self) -> Server:
        return self.spawn().ready()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int) -> None:
        if self.proc is not None:
            self.proc.send_signal(sig)

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def terminate(self, within: float = 10) -> float:
        """SIGTERM, and the seconds it took to exit (the process is killed past ``within``)."""
        assert self.proc is not None
        began = time.monotonic()
        self.proc.terminate()
        try:
            self.proc.wait(within)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        took = time.monotonic() - began
        self.proc = None
        return took

    def stop(self) -> None:
        if self.alive:
            self.terminate()


def haproxy_config(port: int, servers: list[int], host: str = "127.0.0.1") -> str:
    """The HAProxy configuration of ``deploy/haproxy.cfg`` for a front ``port`` and the
    servers' ports: round robin over every process (any takes any table, §9), WebSockets
    passed through as long as they stay open, and a cookie that keeps a long-polling
    Socket.IO client on the process that holds its session."""
    lines = [
        "# stoptable behind HAProxy (protocol.md §9): any process serves any table, so",
        "# plain round robin; the cookie keeps Socket.IO long-polling on one process.",
        "global",
        "    maxconn 4000",
        "",
        "defaults",
        "    mode http",
        "    option forwardfor",
        "    option redispatch",
        "    retries 3",
        "    timeout connect 2s",
        "    timeout client 60s",
        "    timeout server 60s",
        "    timeout tunnel 1h",
        "    timeout check 3s",
        "",
        "frontend stoptable",
        f"    bind {host}:{port}",
        "    default_backend servers",
        "",
        "backend servers",
        "    balance roundrobin",
        "    cookie STOPTABLE_SERVER insert indirect nocache",
        "    option httpchk",
        "    http-check send meth GET uri /api/health ver HTTP/1.1 hdr Host localhost",
        "    http-check expect status 200",
    ]
    for k, server_port in enumerate(servers, 1):
        lines.append(
            f"    server s{k} 127.0.0.1:{server_port} check inter 1s fall 3 rise 1 cookie s{k}"
        )
    return "\n".join(lines) + "\n"


class HAProxy:
    def __init__(self, servers: list[int], port: int = 0, host: str = "127.0.0.1") -> None:
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="stoptable-haproxy-"))
        self.config = self.dir / "haproxy.cfg"
        self.config.write_text(haproxy_config(self.port, servers, host))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> HAProxy:
        exe = shutil.which("haproxy") or "/usr/sbin/haproxy"
        self.proc = subprocess.Popen(
            [exe, "-db", "-f", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_port(self.port, self.proc, "haproxy", 10)
        return self

    def stop(self) -> None:
        _end(self.proc)
        self.proc = None
        shutil.rmtree(self.dir, ignore_errors=True)


def missing_programs(haproxy: bool = True) -> list[str]:
    """The system programs a local cluster needs and this machine lacks."""
    missing = [] if pg_bindir() is not None else ["postgresql (initdb)"]
    if not shutil.which("redis-server") and not Path("/usr/bin/redis-server").exists():
        missing.append("redis-server")
    if haproxy and not shutil.which("haproxy") and not Path("/usr/sbin/haproxy").exists():
        missing.append("haproxy")
    return missing


class LocalCluster:
    """PostgreSQL, Redis, ``processes`` servers and (``port`` not None) HAProxy."""

    def __init__(
        self,
        processes: int = 3,
        port: int | None = 0,
        env: dict[str, str] | None = None,
        code: str = SERVE_CODE,
        logs: Path | None = None,
    ) -> None:
        self.count = processes
        self.port = port
        self.env = env or {}
        self.code = code
        self.logs = logs
        self.pg: Postgres | None = None
        self.redis: Redis | None = None
        self.servers: list[Server] = []
        self.haproxy: HAProxy | None = None

    def server(self, port: int = 0) -> Server:
        """A new (not started) server process on this cluster's database and Redis, on
        ``port`` (a process started again in place of a dead one takes its port, so that
        HAProxy, which knows the ports it was started with, finds it again)."""
        assert self.pg is not None and self.redis is not None
        log = None
        if self.logs is not None:
            log = self.logs / f"server-{len(self.servers)}.log"
        return Server(self.pg.url, self.redis.url, self.env, self.code, log, port)

    def start(self) -> LocalCluster:
        missing = missing_programs(self.port is not None)
        if missing:
            raise RuntimeError(f"not installed: {', '.join(missing)} (make sysdeps)")
        try:
            bindir = pg_bindir()
            assert bindir is not None
            self.pg = Postgres(bindir).start()
            self.redis = Redis().start()
            # the first one alone (it creates the schema), then the others together
            self.servers = [self.server().start()]
            more = [self.server().spawn() for _ in range(self.count - 1)]
            self.servers += [s.ready() for s in more]
            if self.port is not None:
                self.haproxy = HAProxy([s.port for s in self.servers], self.port).start()
                self._wait_healthy()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_healthy(self, within: float = 10) -> None:
        """Until HAProxy answers through a server (its first health checks passed)."""
        assert self.haproxy is not None
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            health = f"{self.haproxy.url}/api/health"
            with contextlib.suppress(OSError), urllib.request.urlopen(health, timeout=1) as r:
                if r.status == 200:
                    return
            time.sleep(0.05)
        raise RuntimeError("HAProxy did not reach a server")

    @property
    def url(self) -> str:
        """HAProxy's address (else the first server's)."""
        return self.haproxy.url if self.haproxy is not None else self.servers[0].url

    def stop(self) -> None:
        if self.haproxy is not None:
            self.haproxy.stop()
        for server in self.servers:
            with contextlib.suppress(Exception):
                server.stop()
        if self.redis is not None:
            self.redis.stop()
        if self.pg is not None:
            self.pg.stop()


def register(app: typer.Typer) -> None:
    """Add the ``cluster`` command to the root app."""

    @app.command()
    def cluster(
        processes: Annotated[int, typer.Option("--processes", "-n", min=1, max=32)] = 3,
        port: Annotated[int, typer.Option("--port", help="HAProxy's port (0: a free one).")] = 8080,
    ) -> None:
        """Try several processes on one machine: PostgreSQL, Redis, N servers, HAProxy."""
        local = LocalCluster(processes, port)
        try:
            local.start()
        except RuntimeError as exc:
            print(f"stoptable cluster: {exc}", file=sys.stderr)
            raise typer.Exit(1) from None
        try:
            for s in local.servers:
                print(f"  server {s.url}")
            print(f"cluster on {local.url}", flush=True)
            stop = False

            def _stop(*_args: object) -> None:
                nonlocal stop
                stop = True

            signal.signal(signal.SIGTERM, _stop)
            with contextlib.suppress(KeyboardInterrupt):
                while not stop:
                    time.sleep(0.5)
        finally:
            local.stop()
