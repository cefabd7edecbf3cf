"""The training example of docs/rl.md runs as written (in seconds)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_training_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- example: training -->\n```python\n(.*?)```", text, re.S)
    assert match is not None, "docs/rl.md lost its training example"
    code = match.group(1)
    assert len(code.strip().splitlines()) <= 30
    exec(compile(code, str(DOC), "exec"), {"__name__": "docs_example"})
    out = capsys.readouterr().out
    assert out.count("episode ") == 10


def test_maskable_ppo_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The MaskablePPO block of docs/rl.md, as written but for its budget: 64 steps in one
    small rollout and one evaluation match (the ``[rl-train]`` extra)."""
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is the [rl-train] extra")
    import torch

    torch.set_num_threads(1)
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- example: maskable-ppo -->\n```python\n(.*?)```", text, re.S)
    assert match is not None, "docs/rl.md lost its MaskablePPO example"
    code, budget = re.subn(
        r"(?m)^TIMESTEPS, MATCHES = .*$", "TIMESTEPS, MATCHES = 64, 1", match.group(1)
    )
    code, small = re.subn(
        r'MaskablePPO\("MultiInputPolicy", env, seed=0\)',
        'MaskablePPO("MultiInputPolicy", env, seed=0, n_steps=64, batch_size=32, n_epochs=1)',
        code,
    )
    assert budget == small == 1
    exec(compile(code, str(DOC), "exec"), {"__name__": "docs_example"})
    assert re.search(r"won [01] of 1 matches", capsys.readouterr().out)


def test_every_encoder_plane_is_documented() -> None:
    from stoptable.games import spec
    from stoptable.games.stopandgo.check import load_default_map
    from stoptable.rl import stop_codec, stopandgo_codec, stopit_codec

    text = DOC.read_text(encoding="utf-8")
    planes = [
        *stop_codec.PLANES,
        *stopandgo_codec.Layout(load_default_map()).planes,
        *stopit_codec.Layout(spec("stopit")).planes,
    ]
    for name, _width in planes:
        key = name.partition(":")[0]
        assert f"| `{key}` |" in text, key
