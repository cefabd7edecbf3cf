"""Every example record in docs/notation.md replays to what the doc says it does.

An example is a fenced block of JSON lines whose first line is a ``stoptable-record/1``
header; the ```json block that follows it is the replay output the doc quotes (every field
it shows must match), and the prose between them states the exit code ("exit 0",
"exits 2"). The variants the prose describes (a line replaced or added) are checked too.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from stoptable.cli.replay import replay_file

DOC = Path(__file__).resolve().parents[2] / "docs" / "notation.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Example:
    """A record of the doc, the output it quotes, and the exit code its prose states."""

    game: str
    lines: list[str]
    expected: dict[str, Any]
    exit_code: int


def examples() -> list[Example]:
    text = DOC.read_text(encoding="utf-8")
    blocks = list(FENCE.finditer(text))
    found: list[Example] = []
    for i, block in enumerate(blocks):
        lines = [line for line in block.group(2).splitlines() if line.strip()]
        if block.group(1) == "json" or not lines or '"stoptable-record/1"' not in lines[0]:
            continue
        header = json.loads(lines[0])
        assert header.get("format") == "stoptable-record/1"
        output = blocks[i + 1]
        assert output.group(1) == "json", "an example record is followed by its output"
        prose = text[block.end() : output.start()]
        codes = re.findall(r"exit(?:s| status)? \(?(\d)\)?|\(exit (\d)\)", prose)
        stated = {int(a or b) for a, b in codes}
        assert len(stated) == 1, f"the prose must state one exit code: {prose!r}"
        found.append(Example(header["game"], lines, json.loads(output.group(2)), stated.pop()))
    return found


EXAMPLES = examples()


def run(tmp_path: Path, lines: list[str]) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "example.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = replay_file(path)
    assert result.output is not None, result.message
    return result.exit_code, result.output


def test_the_doc_has_an_example_for_every_game() -> None:
    assert sorted(e.game for e in EXAMPLES) == ["stop", "stopandgo", "stopit"]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.game for e in EXAMPLES])
def test_each_example_replays_to_the_quoted_output(tmp_path: Path, example: Example) -> None:
    code, output = run(tmp_path, example.lines)
    assert code == example.exit_code
    for key, value in example.expected.items():
        if key == "error":
            for field, quoted in value.items():
                assert output["error"][field] == quoted, (field, output["error"])
        else:
            assert output[key] == value, key
    assert ("error" in output) == ("error" in example.expected)


def by_game(game: str) -> Example:
    return next(e for e in EXAMPLES if e.game == game)


def test_stopit_variant_a_grab_while_interrupted_is_refused(tmp_path: Path) -> None:
    """'Replacing the clock line with a grab at t=250 stops replay with exit 2 ...'"""
    lines = by_game("stopit").lines
    grab = '{"seat":1,"type":"grab","stack":"S1","expect_id":"red#1","t":250}'
    code, output = run(tmp_path, [*lines[:3], grab])
    assert code == 2
    assert output["phase"] == "interrupted" and output["clock"] == 250
    assert output["held"][1] == "blue#1"
    assert output["error"]["line"] == 4
    assert output["error"]["reason"] == "interrupted" and output["error"]["rule"] == "I-35"


def test_stop_variants_the_achtung_window(tmp_path: Path) -> None:
    """'A 6th line call_achtung discharges the obligation. Draws do not count towards the
    window ... Under abacus-en the same B4 would make P0 draw 2 at once.'"""
    lines = by_game("stop").lines
    code, output = run(tmp_path, [*lines, '{"seat":0,"type":"call_achtung"}'])
    assert code == 0 and output["obligations"] == [] and output["hands"][0] == ["GExch"]
    draws = ['{"seat":1,"type":"draw"}', '{"seat":2,"type":"draw"}']
    code, output = run(tmp_path, [*lines, *draws])
    assert code == 0
    assert output["obligations"] == [{"seat": 0, "kind": "achtung", "placed": 0}]
    header = json.loads(lines[0])
    en = json.dumps({**header, "ruleset": "abacus-en"})
    code, output = run(tmp_path, [en, *lines[1:]])
    assert code == 0 and len(output["hands"][0]) == 3 and output["obligations"] == []


def test_the_readable_summary_quoted_for_the_stop_example(tmp_path: Path) -> None:
    """The block after 'prints a summary in words. For this example:' is what replay prints."""
    from typer.testing import CliRunner

    from stoptable.cli import app

    text = DOC.read_text(encoding="utf-8")
    after = text[text.index("prints a summary in words. For this example:") :]
    quoted = FENCE.search(after)
    assert quoted is not None
    path = tmp_path / "example.jsonl"
    path.write_text("\n".join(by_game("stop").lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    shown = [line.rstrip() for line in result.output.splitlines()]
    assert shown == quoted.group(2).rstrip("\n").splitlines()


def test_stopandgo_variant_waiting_at_the_light(tmp_path: Path) -> None:
    """'P0 may still submit another path, for instance ["v11a"] to wait at the light.'"""
    lines = by_game("stopandgo").lines
    wait = '{"seat":0,"type":"move","path":["v11a"]}'
    code, output = run(tmp_path, [*lines[:-1], wait])
    assert code == 0 and output["cars"][0]["pos"] == "v11a" and output["turn"] == 1
