"""Stop it!'s fixed action indices and its observation encoder (docs/rl.md, "Stop it!").

Actions, ``Discrete(172)`` (sized from ``spec.facts``: ``max_stacks`` 9, ``stop_cards`` 16,
``max_hand_size`` 135):

==========  =====  =======================================================================
index       count  action (records.md §5.3, stamped with the tick's time by the env)
==========  =====  =======================================================================
0           1      wait (send nothing this tick)
1           1      ``go`` (I-37)
2..10       9      ``grab`` the top card of stack S1..S9, as the agent saw it (I-31)
11..19      9      ``call_stop`` on the stop card on top of S1..S9 (I-10, I-33)
20..35      16     ``play_stop`` the i-th stop card of the own hand, left to right (I-17)
36..171     136    ``insert`` the held card at hand index 0..135 (I-7)
==========  =====  =======================================================================

Reordering (``move``) and the atomic grab-and-insert are not in the space: a grab then an
insert at any index reaches every hand order the agent builds card by card.

The card vocabulary is the kind order of ``spec.facts["card_kinds"]`` (stop-it.md §0: the
seven colours, their stop cards, ``SUPER``); a card id is ``kind#tag``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from stoptable.core.game import GameSpec
from stoptable.core.protocol import JSON
from stoptable.rl.common import MASK_DTYPE, Planes, relative

COLOURS: Final = ("red", "blue", "yellow", "green", "purple", "orange", "brown")
KINDS: Final = (*COLOURS, *(f"STOP-{c}" for c in COLOURS), "SUPER")
KIND_INDEX: Final = {kind: i for i, kind in enumerate(KINDS)}
PHASES: Final = ("waiting_go", "running", "interrupted", "evaluating", "game_over")


class Layout:
    """Index offsets and observation planes, sized from the spec's facts."""

    def __init__(self, spec: GameSpec) -> None:
        facts = spec.facts
        if facts["card_kinds"] != len(KINDS):
            raise RuntimeError("the Stop it! kind vocabulary no longer matches spec.facts")
        self.stacks = int(facts["max_stacks"])
        self.stop_cards = int(facts["stop_cards"])
        self.max_hand = int(facts["max_hand_size"])
        self.seats = int(facts["max_seats"])
        self.deck = int(facts["deck_size"])
        self.supply = int(facts["minus_cards"])
        self.wait = 0
        self.go = 1
        self.grab = 2
        self.call = self.grab + self.stacks
        self.play = self.call + self.stacks
        self.insert = self.play + self.stop_cards
        self.n_actions = self.insert + self.max_hand + 1
        k = len(KINDS)
        self.planes: tuple[tuple[str, int], ...] = (
            (
                "tops: per stack, the top card's kind one-hot (none: empty or no stack)",
                self.stacks * k,
            ),
            ("stack_sizes: per stack / 27", self.stacks),
            ("hand: the own hand in order, per index the kind one-hot", self.max_hand * k),
            ("held: the own held card's kind one-hot", k),
            ("hand_kinds: per relative seat, cards per kind / 17", self.seats * k),
            ("held_cards: per relative seat, the held card's kind one-hot", self.seats * k),
            ("hand_sizes: per relative seat / 135", self.seats),
            ("scores: per relative seat / 15", self.seats),
            ("seated: 1 per relative seat that exists", self.seats),
            ("supply: minus cards left / 15", 1),
            ("phase: waiting_go, running, interrupted, evaluating, game_over", len(PHASES)),
            ("go_seat: relative seat one-hot", self.seats),
            ("interrupt_by: relative seat one-hot", self.seats),
            ("removed: stop cards out of the game per kind / 2", k),
        )
        self.obs_size = sum(width for _, width in self.planes)

    def index(self, line: Mapping[str, JSON], stop_rank: int = 0) -> int:
        """The index of a request line (``stop_rank``: for ``play_stop``, the card's place
        among the hand's stop cards)."""
        kind = line["type"]
        if kind == "go":
            return self.go
        if kind == "grab":
            return self.grab + int(str(line["stack"])[1:]) - 1
        if kind == "call_stop":
            return self.call + int(str(line["stack"])[1:]) - 1
        if kind == "play_stop":
            return self.play + stop_rank
        if kind == "insert":
            return self.insert + int(line["pos"])
        raise ValueError(f"no index for a {kind} request")

    def mask(self, legal: list[Any]) -> tuple[np.ndarray, dict[int, dict[str, JSON]]]:
        """The mask of a seat's legal requests (wait always) and each index's line (without
        ``seat`` and ``t``)."""
        mask = np.zeros(self.n_actions, dtype=MASK_DTYPE)
        lines: dict[int, dict[str, JSON]] = {}
        stops = 0
        for request in legal:
            line = request.to_json()
            if line["type"] == "move" or (line.get("pos") is not None and line["type"] == "grab"):
                continue
            i = self.index(line, stops)
            if line["type"] == "play_stop":
                stops += 1
            del line["seat"], line["t"]
            lines[i] = line
            mask[i] = 1
        mask[self.wait] = 1
        return mask, lines

    def encode(self, view: Mapping[str, JSON]) -> np.ndarray:
        """The observation of a seat's view (``state.view(seat)``); reads nothing else."""
        me = view["seat"]
        n = view["seats"]
        k = len(KINDS)
        p = Planes(self.obs_size)
        tops = view["tops"]
        for s in range(self.stacks):
            top = tops[s] if s < len(tops) else None
            p.one_hot(k, None if top is None else KIND_INDEX[_kind(top)])
        p.values([size / 27 for size in view["stack_sizes"]], self.stacks)
        hand = view["hand"] or []
        for i in range(self.max_hand):
            p.one_hot(k, KIND_INDEX[_kind(hand[i])] if i < len(hand) else None)
        held = view["held"]
        p.one_hot(k, None if held is None else KIND_INDEX[_kind(held)])
        order = [(me + i) % n for i in range(n)]
        kinds = view["hand_kinds"]
        for i in range(self.seats):
            counts = kinds[order[i]] if i < n else {}
            p.values([counts.get(kind, 0) / 17 for kind in KINDS], k)
        held_cards = view["held_cards"]
        for i in range(self.seats):
            card = held_cards[order[i]] if i < n else None
            p.one_hot(k, None if card is None else KIND_INDEX[_kind(card)])
        p.values([view["hand_sizes"][s] / self.max_hand for s in order], self.seats)
        p.values([view["scores"][s] / self.supply for s in order], self.seats)
        p.values([1.0] * n, self.seats)
        p.value(view["supply"] / self.supply)
        p.one_hot(len(PHASES), PHASES.index(view["phase"]))
        p.one_hot(self.seats, relative(view["go_seat"], me, n))
        interrupt = view["interrupt"]
        p.one_hot(self.seats, None if interrupt is None else relative(interrupt["by"], me, n))
        removed = [0.0] * k
        for card in view["removed"]:
            removed[KIND_INDEX[_kind(card)]] += 0.5
        p.values(removed, k)
        assert p.at == self.obs_size
        return p.vector


def _kind(card: str) -> str:
    return card.partition("#")[0]
