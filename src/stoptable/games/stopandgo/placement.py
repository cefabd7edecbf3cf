"""GM-8 sign placement: where the default map puts its signs, beyond what the format needs.

The map format (§6) only asks that a sign stands on a step that exists and that its lists
name the right spaces; the engine plays any such map. The default map also promises
(GM-8) that crossroads signs stand on approaches into crossroads, that every one-way
segment runs crossroads to crossroads with ``no_entry`` on each contraflow entry, and that
no entry into a crossroads is a trap under the fixed signs. Fixture maps may break these,
so they run only with ``check_map(..., requirements=True)``.
"""

from __future__ import annotations

from typing import Final

from stoptable.games.stopandgo.board import StopGoMap

CROSSROADS_SIGNS: Final = (
    "stop",
    "stop_alt",
    "major_road_ahead",
    "compulsory_straight_or_right",
    "no_turn",
)
"""Fixed signs that GM-8 puts only on approach steps into crossroads."""


def placement_problems(m: StopGoMap) -> list[str]:
    """Every way the signs of ``m`` break GM-8 placement (empty: none)."""
    return _crossroads_signs(m) + _one_way(m) + _exits(m)


def _crossroads_signs(m: StopGoMap) -> list[str]:
    problems: list[str] = []
    for i, sign in enumerate(m.model.signs):
        if sign.type in CROSSROADS_SIGNS and m.kinds[m.index[sign.to]] != "crossroads":
            problems.append(
                f"GM-8: signs[{i}] {sign.type} {sign.from_}->{sign.to}: a {sign.type} sign "
                "must stand on a step into a crossroads"
            )
    return problems


def _one_way(m: StopGoMap) -> list[str]:
    problems: list[str] = []
    segments = [s for s in m.model.signs if s.type in ("one_way", "one_way_alt")]
    if len({s.segment for s in segments}) < 2:
        problems.append("GM-8: fewer than two one-way segments")
    no_entry = {(s.from_, s.to) for s in m.model.signs if s.type == "no_entry"}
    for sign in segments:
        label = f"GM-8: one-way segment {sign.from_}->{sign.to}"
        segment = sign.segment or ()
        ends = (segment[0][0], segment[-1][1]) if segment else ()
        if any(m.kinds[m.index[e]] != "crossroads" for e in ends):
            problems.append(f"{label} does not run from crossroads to crossroads")
        last = segment[-1][1] if segment else ""
        for a, b in segment:
            # A car enters the segment against the flow at its far end, and wherever a side
            # street joins it; GA-13: such an entry must show no_entry.
            if (b == last or len(m.neighbours[m.index[b]]) > 2) and (b, a) not in no_entry:
                problems.append(f"{label}: the contraflow entry {b}->{a} needs a no_entry sign")
    return problems


def _exits(m: StopGoMap) -> list[str]:
    """Under fixed signs every permitted entry into a crossroads has a permitted exit."""
    problems: list[str] = []
    for x, kind in enumerate(m.kinds):
        if kind != "crossroads":
            continue
        for a in m.neighbours[x]:
            if (a, x) in m.step_bans:
                continue
            allowed = m.compulsory_exits.get((a, x))
            forbidden = m.forbidden_exits.get((a, x), frozenset())
            exits = [
                b
                for b in m.neighbours[x]
                if b != a
                and (x, b) not in m.step_bans
                and b not in forbidden
                and (allowed is None or b in allowed)
            ]
            if not exits:
                problems.append(
                    f"GM-8: crossroads {m.ids[x]!r}: entered from {m.ids[a]!r} it has no "
                    "permitted exit under the fixed signs"
                )
    return problems
