"""``stoptable cluster`` (make cluster): its HAProxy configuration is deploy/haproxy.cfg,
and it says what is missing instead of starting half a cluster. The cluster it starts is
what tests/server/test_cluster.py runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from stoptable.cli import app
from stoptable.cli import cluster as cluster_cmd

ROOT = Path(__file__).resolve().parents[2]


def test_deploy_haproxy_cfg_is_the_launchers() -> None:
    """deploy/haproxy.cfg is what ``make cluster`` runs, for the ports of deploy/."""
    text = (ROOT / "deploy" / "haproxy.cfg").read_text()
    assert text == cluster_cmd.haproxy_config(8080, [8001, 8002, 8003], host="0.0.0.0")


def test_the_haproxy_config_balances_every_process_round_robin() -> None:
    text = cluster_cmd.haproxy_config(9000, [9001, 9002])
    assert "balance roundrobin" in text and "timeout tunnel" in text
    assert "cookie STOPTABLE_SERVER insert" in text
    assert text.count("\n    server s") == 2 and "127.0.0.1:9002 check" in text


def test_cluster_says_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_cmd, "missing_programs", lambda haproxy=True: ["haproxy"])
    result = CliRunner().invoke(app, ["cluster", "--port", "0"])
    assert result.exit_code == 1
    assert "not installed: haproxy" in result.output
