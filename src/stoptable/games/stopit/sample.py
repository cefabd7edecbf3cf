"""Determinization for search bots: a full Stop it! state consistent with one seat's view.

What a seat cannot see (I-38): the order of the other hands (their contents per kind are
public: grabs are public), which ids of a kind they hold, and the cards under the top of
every stack. :func:`determinize` deals the ids that the view does not show - the 135 of
the deck less the seat's own hand, every held card, the stack tops and the removed cards -
into the other hands by their public kind counts, in a random order of kind blocks with
stop cards last (how a hand is kept sorted, I-8), and at random under the tops by the
public stack heights. Ids left over are out of play (the minus supply is a count, not
cards). Scores, supply, clock and the held cards are copied.

Only a ``running`` game (or one waiting for Go) can be sampled: an interruption is a
moment inside an evaluation that a records.md position cannot start from.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Final

from stoptable.core.rng import Rng
from stoptable.games.stopit.cards import is_stop_kind, kind_of, standard_deck
from stoptable.games.stopit.ruleset import Ruleset
from stoptable.games.stopit.setup import Layout
from stoptable.games.stopit.state import StopItState

DECK: Final = tuple(standard_deck())
STANDARD_KINDS: Final = {card: kind_of(card) for card in DECK}


def determinize(
    view: dict[str, Any], seat: int, rng: Rng, ruleset: Ruleset | None = None
) -> StopItState:
    """A random state that ``view`` (of ``seat``) cannot tell from the real one.

    ``ruleset``: the game's (a view names only the preset); default the preset itself.
    ValueError for another seat's view, a phase that cannot be sampled, or a view whose
    counts do not fit the deck.
    """
    if view["seat"] != seat:
        raise ValueError(f"the view is seat {view['seat']}'s, not seat {seat}'s")
    phase = view["phase"]
    if phase not in ("running", "waiting_go"):
        raise ValueError(f"a {phase!r} game cannot be sampled")
    seats = int(view["seats"])
    hand: list[str] = list(view["hand"])
    held: list[str | None] = list(view["held_cards"])
    tops: list[str | None] = list(view["tops"])
    seen = set(hand) | {c for c in held if c} | {c for c in tops if c}
    seen |= set(view["removed"])
    pool: dict[str, list[str]] = defaultdict(list)
    for card in DECK:
        if card not in seen:
            pool[kind_of(card)].append(card)
    for cards in pool.values():
        rng.shuffle(cards)
    hands: list[list[str]] = []
    for other, kinds in enumerate(view["hand_kinds"]):
        if other == seat:
            hands.append(hand)
            continue
        blocks = [k for k in kinds if not is_stop_kind(k)]
        rng.shuffle(blocks)
        blocks += [k for k in kinds if is_stop_kind(k)]
        cards = []
        for kind in blocks:
            count = kinds[kind]
            if len(pool[kind]) < count:
                raise ValueError(f"seat {other} holds {count} {kind}, fewer are unseen")
            cards += pool[kind][:count]
            del pool[kind][:count]
        hands.append(cards)
    rest = [c for cards in pool.values() for c in cards]
    rest.sort()
    rng.shuffle(rest)
    stacks: list[list[str]] = []
    for top, size in zip(tops, view["stack_sizes"], strict=True):
        under = size - (top is not None)
        if under > len(rest):
            raise ValueError("the stacks are higher than the unseen cards")
        stacks.append([*rest[:under], *([top] if top is not None else [])][::-1])
        del rest[:under]
    rules = ruleset if ruleset is not None else Ruleset.from_options(str(view["ruleset"]), None)
    # The records.md §5.2 position these make, without its checks: every id comes from
    # the standard deck once (search bots sample thousands of these a game).
    layout = Layout(
        kinds=STANDARD_KINDS,
        stacks=[s[::-1] for s in stacks],  # top last, as the state keeps them
        hands=hands,
        held=held,
        supply=int(view["supply"]),
        minus_cards=list(view["minus_cards"]),
        extra_points=list(view["extra_points"]),
        phase=phase,
        go_seat=int(view["go_seat"]) if phase == "waiting_go" else rules.first_go_seat,
        clock=int(view["clock"]),
    )
    seed = rng.below(2**31)
    return StopItState._from_layout(rules, seats, seed, Rng(seed), layout)
