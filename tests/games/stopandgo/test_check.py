"""check_map: broken maps are rejected with a message naming the bad entry; the default map
passes every requirement and is what mapgen builds."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from stoptable.games.stopandgo import (
    MapError,
    UnplayableMap,
    check_map,
    load_default_map,
    load_map,
    require_playable_map,
)
from stoptable.games.stopandgo.mapgen import DEFAULT_PATH, build_default_map, render_json
from tests.games.stopandgo.support import MAPS


def _base() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((MAPS / "base.json").read_text(encoding="utf-8"))
    return copy.deepcopy(data)


def _sign(kind: str, frm: str, to: str, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "from": frm, "to": to, **extra}


def _with_signs(*signs: dict[str, Any]) -> dict[str, Any]:
    data = _base()
    data["signs"] = list(signs)
    return data


def _space(data: dict[str, Any], sid: str) -> dict[str, Any]:
    return next(s for s in data["spaces"] if s["id"] == sid)


def test_default_map_meets_every_requirement_and_matches_its_generator() -> None:
    assert check_map(DEFAULT_PATH, requirements=True) == []
    assert DEFAULT_PATH.read_text(encoding="utf-8") == render_json(build_default_map())


def test_fixture_maps_are_valid_but_not_default_maps() -> None:
    assert check_map(MAPS / "base.json") == []
    assert any(p.startswith("GM-2") for p in check_map(MAPS / "base.json", requirements=True))


BROKEN: list[tuple[str, dict[str, Any], str]] = [
    ("unknown sign", _with_signs(_sign("speed_bump", "s1", "X")), "signs[0]"),
    ("dangling edge", {**_base(), "edges": [*_base()["edges"], ["M", "zz"]]}, "unknown space 'zz'"),
    (
        "duplicate id",
        {**_base(), "spaces": [*_base()["spaces"], {"id": "X", "kind": "road", "x": 9, "y": 9}]},
        "spaces[21] 'X': duplicate id",
    ),
    ("step that does not exist", _with_signs(_sign("stop", "w1", "e1")), "does not exist"),
    (
        "watch is not the perpendicular arms",
        _with_signs(_sign("major_road_ahead", "s1", "X", watch=["n1", "w1"])),
        "watch must be the perpendicular arms ['e1', 'w1']",
    ),
    ("watch missing", _with_signs(_sign("major_road_ahead", "s1", "X")), "needs 'watch'"),
    (
        "exits not neighbours",
        _with_signs(_sign("compulsory_straight_or_right", "s1", "X", exits=["s1", "M"])),
        "exits must be neighbours of X other than s1",
    ),
    (
        "one-way segment that breaks",
        _with_signs(_sign("one_way", "X", "e1", segment=[["X", "e1"], ["X", "n1"]])),
        "does not continue",
    ),
    (
        "dial slot of the wrong length",
        {
            **_base(),
            "dial": {"positions": 4, "slots": [{"from": "s1", "to": "X", "signs": ["red"]}]},
        },
        "1 signs, the dial has 4 positions",
    ),
    (
        "red on a fixed sign",
        _with_signs(_sign("red", "s1", "X")),
        "signs[0]",
    ),
    (
        "one-way segment without the sign's step",
        _with_signs(_sign("one_way", "X", "e1", segment=[["w1", "X"]])),
        "the sign's step is not a step of its segment",
    ),
    (
        "destination number twice",
        {
            **_base(),
            "spaces": [{**s, "number": 1} if s["id"] == "be" else s for s in _base()["spaces"]],
        },
        "destination number 1 is also on 'an'",
    ),
]


@pytest.mark.parametrize(("label", "data", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_check_map_rejects_broken_maps_naming_the_entry(
    label: str, data: dict[str, Any], message: str
) -> None:
    problems = check_map(data)
    assert problems, label
    assert any(message in p for p in problems), problems
    with pytest.raises(MapError) as err:
        load_map(data)
    assert err.value.problems == problems


# GM-8 placement rules that only the default map must meet (fixtures may break them, like
# the §6 example whose one-way segment starts at a road space): (sign, problem reported
# with requirements=True).
PLACEMENT: list[tuple[str, dict[str, Any], str]] = [
    (
        "stop not into crossroads",
        _sign("stop", "X", "w1"),
        "must stand on a step into a crossroads",
    ),
    (
        "one-way from a road space without no_entry",
        _sign("one_way", "A", "an", segment=[["A", "an"], ["an", "n"]]),
        "does not run from crossroads to crossroads",
    ),
    (
        "one-way without no_entry at its far end",
        _sign("one_way", "X", "e1", segment=[["X", "e1"], ["e1", "e"]]),
        "the contraflow entry e->e1 needs a no_entry sign",
    ),
    (
        "entry with no exit",
        _sign("no_turn", "s1", "X", forbidden_exits=["w1", "n1", "e1"]),
        "crossroads 'X': entered from 's1' it has no permitted exit",
    ),
    (
        "compulsory direction off a crossroads",
        _sign("compulsory_straight_or_right", "cm", "M", exits=["s1"]),
        "must stand on a step into a crossroads",
    ),
]


@pytest.mark.parametrize(("label", "sign", "message"), PLACEMENT, ids=[p[0] for p in PLACEMENT])
def test_GM1_GM8_a_fixture_breaking_sign_placement_loads_and_the_requirements_report_it(
    label: str, sign: dict[str, Any], message: str
) -> None:
    data = _with_signs(sign)
    assert check_map(data) == [], label
    assert load_map(data).model.signs[0].type == sign["type"]
    problems = check_map(data, requirements=True)
    assert any(p.startswith("GM-8") and message in p for p in problems), problems


def test_GM5_unique_building_names_are_a_requirement_only() -> None:
    data = _base()
    _space(data, "be")["name"] = "Town Hall"
    assert check_map(data) == []
    problems = check_map(data, requirements=True)
    assert "GM-5: destination 2 has the building name 'Town Hall' of 1" in problems


def test_check_map_names_bad_space_fields_and_markets() -> None:
    data = _base()
    del _space(data, "an")["number"]
    problems = check_map(data)
    assert any("spaces[9] 'an'" in p and "'number'" in p for p in problems), problems
    two = _base()
    _space(two, "X")["kind"] = "market"
    assert check_map(two) == ["map: needs exactly one market space, found 2"]


def test_GM1_GM9_an_unreachable_destination_is_a_problem_but_the_map_loads() -> None:
    data = _with_signs(_sign("closed", "A", "an"), _sign("closed", "n", "an"))
    problems = check_map(data)
    assert "destination 1 'an': not reachable from the market at dial position 0" in problems
    # GM-1: the engine loads any map in the §6 format; only front ends refuse it (GM-9).
    game_map = load_map(data)
    with pytest.raises(UnplayableMap) as err:
        require_playable_map(game_map)
    assert err.value.problems == problems
    assert isinstance(err.value, MapError) and "fails GM-9" in str(err.value)


def test_GM9_a_destination_the_market_cannot_be_reached_from_is_rejected() -> None:
    # One way into destination 1 (an) from n only; no way back even with a U-turn.
    data = _with_signs(
        _sign("one_way", "n", "an", segment=[["n", "an"], ["an", "A"]]),
        _sign("no_entry", "A", "an"),
        _sign("closed", "A", "aw"),
    )
    problems = check_map(data)
    assert any("destination 1 'an': the market is not reachable" in p for p in problems), problems


def test_check_map_reads_files_and_reports_bad_json(tmp_path: Path) -> None:
    assert check_map(tmp_path / "missing.json")[0].startswith("cannot read")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert "invalid JSON" in check_map(bad)[0]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_base()), encoding="utf-8")
    assert check_map(str(good)) == []


def test_default_map_keeps_destinations_away_from_stop_lines() -> None:
    # A car that must end its move on a stop line cannot pass a car waiting there for an
    # occupied destination next to it: two such cars would block each other for good.
    m = load_default_map()
    for sign in m.model.signs:
        if sign.type not in ("stop", "stop_alt"):
            continue
        prev, here = m.index[sign.to], m.index[sign.from_]
        for _ in range(3):
            assert here not in m.destination_number, (sign.from_, sign.to)
            prev, here = here, next(b for b in m.neighbours[here] if b != prev)


def test_GM1_GM8_map_check_command_needs_requirements_for_sign_placement(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from stoptable.cli import app

    path = tmp_path / "stop-off-crossroads.json"
    path.write_text(json.dumps(_with_signs(_sign("stop", "X", "w1"))), encoding="utf-8")
    plain = CliRunner().invoke(app, ["map", "check", str(path)])
    assert plain.exit_code == 0, plain.output
    strict = CliRunner().invoke(app, ["map", "check", "--requirements", str(path)])
    assert strict.exit_code == 1
    assert "GM-8: signs[0] stop X->w1: a stop sign must stand on a step into a crossroads" in (
        strict.output
    )
