"""Every number a stranger may set is bounded (issue 22): each integer option of every
registered game declares its range, and the one option checker refuses what is outside."""

from __future__ import annotations

import pytest

from stoptable import games
from stoptable.core.errors import OptionError
from stoptable.core.ruleset import Option

INT_KINDS = ("int", "optional_int", "int_set", "optional_int_list")


def every_option() -> list[tuple[str, Option]]:
    out = []
    for spec in games.specs():
        for opt in type(spec.ruleset()).OPTIONS:
            out.append((spec.name, opt))
    return out


@pytest.mark.parametrize(("game", "opt"), every_option(), ids=lambda x: getattr(x, "name", x))
def test_every_integer_option_declares_a_finite_range(game: str, opt: Option) -> None:
    if opt.kind not in INT_KINDS:
        return
    assert opt.minimum is not None and opt.maximum is not None, (game, opt.name)
    assert opt.maximum - opt.minimum <= 10_000_000, "a sane maximum, not a placeholder"
    huge = 2**64 if opt.kind in ("int", "optional_int") else [2**64]
    with pytest.raises(OptionError, match=opt.name):
        games.spec(game).ruleset(None, {opt.name: huge})
    top = opt.maximum if opt.kind in ("int", "optional_int") else [opt.maximum]
    above = opt.maximum + 1 if opt.kind in ("int", "optional_int") else [opt.maximum + 1]
    with pytest.raises(OptionError, match=opt.name):
        games.spec(game).ruleset(None, {opt.name: above})
    try:  # the maximum itself is an option value (another option may still refuse it)
        games.spec(game).ruleset(None, {opt.name: top})
    except OptionError as exc:
        assert "must be" not in str(exc) or opt.name not in str(exc).split("must be")[0]


def test_an_integer_option_without_a_range_cannot_be_declared() -> None:
    with pytest.raises(TypeError, match="minimum and maximum"):
        Option("target_score", "int", minimum=1)
    with pytest.raises(TypeError):
        Option("destination_list", "optional_int_list")


@pytest.mark.parametrize(
    ("game", "name", "value"),
    [
        ("stop", "target_score", 18446744073709551616),
        ("stop", "interjection_grace_ms", 10**18),
        ("stop", "cancel_window_ms", 10**18),
        ("stopit", "go_timeout_ms", 3_600_001),
        ("stopandgo", "stall_turns", 10**9),
    ],
)
def test_the_audit_values_are_refused_naming_the_option(game: str, name: str, value: int) -> None:
    with pytest.raises(OptionError, match=f"'{name}' must be an integer from"):
        games.spec(game).ruleset(None, {name: value})


def test_an_unknown_option_is_not_echoed_whole() -> None:
    with pytest.raises(OptionError) as caught:
        games.spec("stop").ruleset(None, {"k" * 2_000_000: 1})
    assert len(str(caught.value)) < 2000
