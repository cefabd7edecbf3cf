"""The JSON map format of stop-and-go.md §6 as pydantic models.

This module checks the *shape* of a map file: keys, types, the sign types that exist and
the fields each sign type needs. Whether the entries fit together (edges between known
spaces, signs on steps that exist, watch lists that are the perpendicular arms, the GM-9
reachability) is checked by :mod:`stoptable.games.stopandgo.check`, which reports every
problem with the entry it concerns.

Coordinates are integer grid points; ``x`` grows to the east and ``y`` grows to the south
(screen order), so the map is drawn with north up without flipping.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

SpaceKind = Literal["road", "crossroads", "market", "destination"]

FixedSignType = Literal[
    "stop",
    "stop_alt",
    "major_road_ahead",
    "no_waiting",
    "no_motor_vehicles",
    "closed",
    "no_entry",
    "one_way",
    "one_way_alt",
    "compulsory_straight_or_right",
    "no_turn",
]
"""The signs that may stand on a step for good (G-12)."""

DialSignType = Literal["red", "green", "closed", "no_entry", "major_road_ahead", "none"]
"""The values a dial slot may show at one position (G-13)."""

FIXED_SIGN_TYPES: Final = frozenset(FixedSignType.__args__)  # type: ignore[attr-defined]
DIAL_SIGN_TYPES: Final = frozenset(DialSignType.__args__)  # type: ignore[attr-defined]

ID_PATTERN: Final = r"^[A-Za-z0-9_]+$"
"""Space ids are plain words, so that the move notation can separate them with spaces."""

# The extra field each sign type requires; every other extra field is forbidden.
_SIGN_FIELDS: Final[dict[str, str | None]] = {
    "major_road_ahead": "watch",
    "one_way": "segment",
    "one_way_alt": "segment",
    "compulsory_straight_or_right": "exits",
    "no_turn": "forbidden_exits",
}
_EXTRA_FIELDS: Final = ("watch", "segment", "exits", "forbidden_exits")


class _Strict(BaseModel):
    """Every map object: unknown keys are errors, except a ``note`` string (records.md §2)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    note: str | None = None


class SpaceModel(_Strict):
    """One space; a destination also carries its number and building name."""

    id: str = Field(pattern=ID_PATTERN)
    kind: SpaceKind
    x: int
    y: int
    number: int | None = Field(default=None, ge=1)
    name: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _destination_fields(self) -> SpaceModel:
        if self.kind == "destination":
            if self.number is None or self.name is None:
                raise ValueError("a destination needs a 'number' and a 'name'")
        elif self.number is not None or self.name is not None:
            raise ValueError(f"a {self.kind} space has no 'number' or 'name'")
        return self


class SignModel(_Strict):
    """A fixed sign on the step ``from -> to`` (stop-and-go.md §0, G-12)."""

    type: FixedSignType
    from_: str = Field(alias="from")
    to: str
    watch: tuple[str, ...] | None = None
    segment: tuple[tuple[str, str], ...] | None = None
    exits: tuple[str, ...] | None = None
    forbidden_exits: tuple[str, ...] | None = None

    @model_validator(mode="after")
    def _fields_of_type(self) -> SignModel:
        _check_extra_fields(self, self.type)
        return self

    def extra(self) -> tuple[str, ...]:
        """The space list of ``watch``, ``exits`` or ``forbidden_exits`` (empty if none)."""
        return self.watch or self.exits or self.forbidden_exits or ()


class DialSignModel(_Strict):
    """A dial value written as an object, needed for ``major_road_ahead`` with ``watch``."""

    type: DialSignType
    watch: tuple[str, ...] | None = None

    @model_validator(mode="after")
    def _fields_of_type(self) -> DialSignModel:
        _check_extra_fields(self, self.type)
        return self


class DialSlotModel(_Strict):
    """The window on the step ``from -> to``: one value per dial position."""

    from_: str = Field(alias="from")
    to: str
    signs: tuple[DialSignType | DialSignModel, ...]


class DialModel(_Strict):
    """The traffic-light dial: ``positions`` positions, the start and the slots."""

    positions: int = Field(default=4, ge=1)
    start: int = Field(default=0, ge=0)
    slots: tuple[DialSlotModel, ...] = ()


class MapModel(_Strict):
    """A whole map file (stop-and-go.md §6)."""

    name: str = Field(min_length=1)
    spaces: tuple[SpaceModel, ...]
    edges: tuple[tuple[str, str], ...]
    signs: tuple[SignModel, ...] = ()
    dial: DialModel = DialModel()


def _check_extra_fields(model: SignModel | DialSignModel, kind: str) -> None:
    wanted = _SIGN_FIELDS.get(kind)
    for name in _EXTRA_FIELDS:
        present = getattr(model, name, None) is not None
        if name == wanted and not present:
            raise ValueError(f"a {kind} sign needs '{name}'")
        if name != wanted and present:
            raise ValueError(f"a {kind} sign has no '{name}'")


def _entry_label(data: object, loc: tuple[int | str, ...]) -> str:
    """``spaces[3] 'x1'``: the location of an error, with the id of the entry if it has one."""
    text = ""
    node: object = data
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
        if isinstance(node, dict):
            node = node.get(part) if isinstance(part, str) else None
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            node = None
        if isinstance(node, dict) and "id" in node and isinstance(part, int):
            text += f" {node['id']!r}"
        elif isinstance(node, dict) and "from" in node and "to" in node and isinstance(part, int):
            text += f" {node.get('type', 'slot')} {node['from']}->{node['to']}"
    return text or "map"


def _readable_loc(loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """Drop pydantic's union-branch names (``str``, ``DialSignModel``...) from a location."""
    keep: list[int | str] = []
    for part in loc:
        if isinstance(part, str) and (part[:1].isupper() or part.startswith(("literal[", "str"))):
            continue
        keep.append("from" if part == "from_" else part)
    return tuple(keep)


def parse_map_model(data: object) -> tuple[MapModel | None, list[str]]:
    """Validate the shape of a map; return the model or the list of problems.

    Every message names the entry it concerns, for example
    ``signs[2] stop w1->X: type: Input should be 'stop', ...``.
    """
    try:
        return MapModel.model_validate(data), []
    except ValidationError as exc:
        problems: list[str] = []
        seen: set[str] = set()
        for err in exc.errors():
            loc = _readable_loc(tuple(err["loc"]))
            message = f"{_entry_label(data, loc)}: {err['msg']}"
            if message not in seen:
                seen.add(message)
                problems.append(message)
        return None, problems
