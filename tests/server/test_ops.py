"""Operations: ``GET /api/health`` (the process, the tables it drives, its store),
``GET /metrics`` (Prometheus text that moves with play) and the log formats with the
table id (operations.md)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from stoptable.server.health import Health, ProcessInfo, probe
from stoptable.server.logs import JsonFormatter, TextFormatter
from tests.server.support import Client, ThreadServer, claim, create

TOY = {"game": "toy", "seats": 2, "seed": 5, "options": {"goal": 100}}


def samples(text: str) -> dict[str, float]:
    """Every sample of a scrape by name (labels other than ``le`` are not used here)."""
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            key = s.name if "le" not in s.labels else f"{s.name}{{le={s.labels['le']}}}"
            out[key] = s.value
    return out


async def test_health_names_the_process_its_tables_and_its_store(server: ThreadServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        table = await create(server.url, TOY)
        r = await http.get("/api/health")
    assert r.status_code == 200
    body = r.json()
    assert body["ok"] is True
    assert body["process"]["pid"] == os.getpid()  # the test server runs in this process
    assert body["process"]["id"].startswith(f"{body['process']['host']}:{os.getpid()}:")
    assert table in body["driving"] and body["driving"] == sorted(body["driving"])
    assert body["tables"] >= len(body["driving"])
    assert body["store"]["ok"] is True and body["store"]["ms"] >= 0
    assert body["redis"] is None  # not configured: a single process


async def test_a_dependency_that_fails_or_hangs_is_not_ok() -> None:
    async def refused() -> None:
        raise ConnectionRefusedError("connect call failed ('127.0.0.1', 9)")

    async def hangs() -> None:
        await asyncio.sleep(10)

    async def fine() -> None:
        return None

    health = Health(ProcessInfo.this(), {"store": refused, "redis": fine})
    ok, body = await health.report(["t1"], 3)
    assert not ok and body["driving"] == ["t1"] and body["tables"] == 3
    assert body["store"] == {
        "ok": False,
        "error": "ConnectionRefusedError: connect call failed ('127.0.0.1', 9)",
    }
    assert isinstance(body["redis"], dict) and body["redis"]["ok"] is True
    assert (await probe(hangs, timeout_s=0.05)) == {"ok": False, "error": "TimeoutError"}
    assert (await probe(None)) is None
    assert (await Health(ProcessInfo.this(), {"store": fine}).report([], 0))[0]


async def test_metrics_scrape_and_move_with_play(server: ThreadServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        r = await http.get("/metrics")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        before = samples(r.text)
        table = await create(server.url, TOY)
        tokens = [await claim(server.url, table, k) for k in (0, 1)]
        a = await Client(server.url).connect(table, tokens[0])
        try:
            st = await a.wait(lambda s: s["legal"] != [])
            ack = await a.act(st["legal"][0])
            assert ack["ok"]
            during = samples((await http.get("/metrics")).text)
        finally:
            await a.close()
    assert during["stoptable_actions_stored_total"] >= before["stoptable_actions_stored_total"] + 1
    count = "stoptable_ack_latency_seconds_count"
    assert during[count] == before[count] + 1
    assert during["stoptable_ack_latency_seconds_bucket{le=+Inf}"] == during[count]
    assert during["stoptable_connections"] == before["stoptable_connections"] + 1
    assert during["stoptable_tables_driven"] >= before["stoptable_tables_driven"] + 1
    assert during["stoptable_takeovers_total"] == 0  # one process takes nothing over


def phase_counts(text: str) -> dict[str, float]:
    """``stoptable_action_phase_seconds_count`` by phase."""
    return {
        s.labels["phase"]: s.value
        for family in text_string_to_metric_families(text)
        if family.name == "stoptable_action_phase_seconds"
        for s in family.samples
        if s.name.endswith("_count")
    }


async def test_an_acted_change_is_timed_phase_by_phase_and_the_loop_lag_is_sampled(
    server: ThreadServer,
) -> None:
    """operations.md, "Where an ack's time goes": one stored action adds one observation
    to each phase of its table (inbox, machine, commit, publish), each within its ack's
    time; the loop's lag is sampled while the server runs."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        table = await create(server.url, TOY)
        tokens = [await claim(server.url, table, k) for k in (0, 1)]
        a = await Client(server.url).connect(table, tokens[0])
        try:
            st = await a.wait(lambda s: s["legal"] != [])
            before = (await http.get("/metrics")).text
            ack = await a.act(st["legal"][0])
            assert ack["ok"]
            after = (await http.get("/metrics")).text
        finally:
            await a.close()
        for _ in range(100):  # a sample every 50 ms
            lag = samples((await http.get("/metrics")).text)
            if lag["stoptable_loop_lag_seconds_count"] > 0:
                break
            await asyncio.sleep(0.05)
    old, new = phase_counts(before), phase_counts(after)
    assert sorted(new) == ["commit", "inbox", "machine", "publish"]
    assert {k: new[k] - old[k] for k in new} == dict.fromkeys(new, 1.0)
    sums = {
        s.labels["phase"]: s.value
        for family in text_string_to_metric_families(after)
        if family.name == "stoptable_action_phase_seconds"
        for s in family.samples
        if s.name.endswith("_sum")
    }
    # inbox, machine and commit come between an action's arrival and its ack
    before_ack = sums["inbox"] + sums["machine"] + sums["commit"]
    assert 0 < before_ack <= samples(after)["stoptable_ack_latency_seconds_sum"]
    assert lag["stoptable_loop_lag_seconds_count"] > 0


def _record(exc: bool = False) -> logging.LogRecord:
    info = None
    if exc:
        try:
            raise ValueError("boom")
        except ValueError:
            info = sys.exc_info()
    record = logging.LogRecord(
        "stoptable.server", logging.ERROR, __file__, 1, "table %s: %s", ("ab12", "x"), info
    )
    record.table = "ab12"
    return record


def test_log_lines_carry_the_table_id_in_both_formats() -> None:
    data = json.loads(JsonFormatter().format(_record(exc=True)))
    assert data["table"] == "ab12" and data["message"] == "table ab12: x"
    assert data["level"] == "error" and data["logger"] == "stoptable.server"
    assert data["t"].endswith("Z") and "ValueError: boom" in data["error"]
    assert "error" not in json.loads(JsonFormatter().format(_record()))
    text = TextFormatter().format(_record())
    assert text.endswith(" ERROR stoptable.server [table=ab12] table ab12: x")
    plain = logging.LogRecord("stoptable.server", logging.INFO, __file__, 1, "hi", (), None)
    assert TextFormatter().format(plain).endswith(" INFO stoptable.server hi")


def test_serve_takes_a_log_format_and_refuses_others() -> None:
    from typer.testing import CliRunner

    from stoptable.cli import app

    bad = CliRunner().invoke(app, ["serve", "--log-format", "xml"])
    assert bad.exit_code == 1 and "'text' or 'json'" in bad.output


async def test_metrics_answer_only_the_monitoring_networks(server: ThreadServer) -> None:
    """``metrics_allow`` defaults to loopback: a client that the trusted proxy forwards from
    another address gets 404, a loopback scrape the text."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        outside = await http.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
        inside = await http.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"})
        plain = await http.get("/metrics")
    assert outside.status_code == 404 and "stoptable_" not in outside.text
    assert inside.status_code == 200 and plain.status_code == 200


def test_metrics_allow_takes_networks_only() -> None:
    from pydantic import ValidationError

    from stoptable.server.config import Settings

    assert Settings(metrics_allow=["10.0.0.0/8"]).metrics_allow == ["10.0.0.0/8"]
    try:
        Settings(metrics_allow=["not a network"])
    except ValidationError as exc:
        assert "metrics_allow" in str(exc)
    else:
        raise AssertionError("a bad network was accepted")


def test_serve_runs_on_uvloop_where_it_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvloop

    from stoptable.cli.serve import loop_factory

    assert loop_factory() is uvloop.new_event_loop
    monkeypatch.setitem(sys.modules, "uvloop", None)  # not installed: asyncio's own loop
    assert loop_factory() is None
