"""Tournaments: schedules, determinism across backends and workers, ratings, JSON, plots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stoptable.cli import app
from stoptable.sim.backends import LocalBackend
from stoptable.sim.players import CallableBot, make_player
from stoptable.sim.tournament import run_tournament, schedule, seatings

SMALL = {"destination_count": 2}
"""Stop & Go with two destinations: whole games in a fraction of a second."""


def test_round_robin_rotates_every_seating_and_gauntlet_puts_the_first_entry_alone() -> None:
    tables = seatings(3, 2, "round-robin")
    assert len(tables) == 6 and {(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)} == set(tables)
    gauntlet = seatings(3, 4, "gauntlet")
    assert all(t.count(0) == 1 for t in gauntlet)
    assert [t.index(0) for t in gauntlet[:4]] == [0, 3, 2, 1]
    jobs = schedule("stopandgo", ["a", "b"], 2, "round-robin", 3, seed=10)
    assert [j.seed for j in jobs] == list(range(10, 16))
    with pytest.raises(ValueError):
        seatings(1, 2, "round-robin")


def test_local_backends_give_identical_results_for_the_same_seed() -> None:
    kwargs = {"seats": 2, "games": 2, "seed": 4, "options": SMALL}
    one = run_tournament("stopandgo", ["heuristic", "random"], **kwargs)  # type: ignore[arg-type]
    two = run_tournament(
        "stopandgo",
        ["heuristic", "random"],
        backend=LocalBackend(2),
        **kwargs,  # type: ignore[arg-type]
    )
    assert one.to_json() == two.to_json()
    assert len(one.games) == 4
    heuristic, random = one.ratings
    assert heuristic.mu > random.mu and heuristic.sigma < 25 / 3


def test_ray_backend_gives_the_local_results() -> None:
    ray = pytest.importorskip("ray", reason="ray is not installed (the [ray] extra)")
    from stoptable.sim.backends import RayBackend

    kwargs = {"seats": 2, "games": 1, "seed": 4, "options": SMALL}
    local = run_tournament("stopandgo", ["heuristic", "random"], **kwargs)  # type: ignore[arg-type]
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        remote = run_tournament(
            "stopandgo",
            ["heuristic", "random"],
            backend=RayBackend(),
            **kwargs,  # type: ignore[arg-type]
        )
    finally:
        ray.shutdown()
    assert remote.to_json() == local.to_json()


def test_every_game_plays_through_the_registry() -> None:
    stop = run_tournament("stop", ["heuristic", "random"], seats=2, options={"target_score": 30})
    assert stop.lower_is_better and len(stop.games) == 2
    stopit = run_tournament("stopit", ["heuristic", "random"], seats=2, mode="gauntlet")
    assert stopit.lower_is_better and len(stopit.games) == 2
    go = run_tournament("stopandgo", ["heuristic", "random"], seats=2, options=SMALL)
    assert not go.lower_is_better


def test_a_callable_is_a_bot() -> None:
    bot = make_player("stopandgo", "py:tests.sim.policies:first", 0, 1)
    assert isinstance(bot, CallableBot)
    assert bot.act({}, ["a", "b"]) == "a"
    with pytest.raises(ValueError, match="not legal"):
        CallableBot(lambda view, legal: "c").act({}, ["a", "b"])
    result = run_tournament(
        "stopandgo", ["heuristic", "py:tests.sim.policies:first"], seats=2, options=SMALL
    )
    assert len(result.games) == 2


def test_cli_writes_json_and_plots(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ["tournament", "stopandgo", "--bots", "heuristic,random", "--seats", "2",
            "-O", "destination_count=2", "--seed", "3", "--out", str(out)]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads((out / "tournament.json").read_text())
    assert data["entries"] == ["heuristic", "random"] and len(data["games"]) == 2
    assert {r["entry"] for r in data["ratings"]} == {"heuristic", "random"}
    for name in ("ratings.png", "seat_win_share.png", "scores.png"):
        assert (out / name).read_bytes()[:4] == b"\x89PNG"
    bad = CliRunner().invoke(app, ["tournament", "stopandgo", "--bots", "heuristic,nobody"])
    assert bad.exit_code == 2 and "unknown bot" in bad.output
