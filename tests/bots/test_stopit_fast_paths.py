"""The compiled build's written-out loops against the C-call code the pure build runs: the
same answers. Each split is taken on a module's ``COMPILED``; here both branches run in
the pure build (the flag patched), and the compiled build runs its own through the
pinned games (tests/test_compiled.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from stoptable.bots import stopit as bots
from stoptable.core.protocol import Step, StepKind, new_step
from stoptable.games.stopit import cards, views
from stoptable.games.stopit.cards import KINDS, standard_deck
from stoptable.games.stopit.evaluation import Evaluation, evaluate
from stoptable.games.stopit.state import StopItState


def _hands(count: int) -> list[tuple[list[str], str]]:
    """Random hands (sorted or not, stop cards anywhere) and a card to place."""
    rng = random.Random(7)
    deck = standard_deck()
    out = []
    for _ in range(count):
        cards_ = rng.sample(deck, rng.randrange(0, 20) + 1)
        card = cards_.pop()
        if rng.random() < 0.5:
            cards_.sort(key=lambda c: (c[0] == "S", c.partition("#")[0]))
        out.append((cards_, card))
    return out


def test_sorted_position_written_out_equals_the_joined_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hands = _hands(400)
    monkeypatch.setattr(bots, "COMPILED", False)
    joined = [bots.sorted_position(hand, card) for hand, card in hands]
    monkeypatch.setattr(bots, "COMPILED", True)
    looped = [bots.sorted_position(hand, card) for hand, card in hands]
    assert looped == joined
    assert len(set(joined)) > 10  # the hands put cards in many places


def test_sorting_move_by_code_points_equals_the_one_by_kinds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hands = [hand for hand, _ in _hands(600)]
    monkeypatch.setattr(bots, "COMPILED", False)
    by_kinds = [bots.sorting_move(hand) for hand in hands]
    monkeypatch.setattr(bots, "COMPILED", True)
    assert [bots.sorting_move(hand) for hand in hands] == by_kinds
    assert 50 < sum(move is None for move in by_kinds) < len(hands) - 50


def test_canonical_counts_written_out_equals_the_sorted_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(3)
    samples = [{k: rng.randrange(0, 3) for k in rng.sample(KINDS, 6)} for _ in range(200)]
    monkeypatch.setattr(cards, "COMPILED", False)
    sorted_ = [cards.canonical_counts(s) for s in samples]
    monkeypatch.setattr(cards, "COMPILED", True)
    looped = [cards.canonical_counts(s) for s in samples]
    assert looped == sorted_
    assert [list(a) for a in looped] == [list(b) for b in sorted_]  # the key order too


def test_tops_written_out_equal_the_mapped_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    state = StopItState.new_game("stopit-standard", 4, seed=5)
    state.stacks[1].clear()  # an empty stack: the mapped one's IndexError path
    for flag in (False, True):
        monkeypatch.setattr(views, "COMPILED", flag)
        state._tops = None
        assert views.tops_part(state) == [s[-1] if s else None for s in state.stacks]


def test_the_timers_step_and_the_evaluation_are_ordinary_equal_values() -> None:
    step = new_step(StepKind.TIMER, "sort_grace", 1500, None)
    assert type(step) is Step and step == Step(StepKind.TIMER, "sort_grace", 1500, None)
    result = evaluate(
        "STOP-red#1",
        1,
        [["red#1"], ["blue#1"]],
        [{"red": 1}, {"blue": 1}],
        {"red#1": "red", "blue#1": "blue", "STOP-red#1": "STOP-red"},
        True,
        True,
    )
    assert type(result) is Evaluation
    assert result == Evaluation("STOP-red#1", 1, "red", (1, 0), (1,), (), (), (1,))


def test_deck_shuffle_written_out_equals_rng_shuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    from stoptable.core.rng import Rng

    monkeypatch.setattr(cards, "COMPILED", True)
    for seed in range(200):
        library, looped = standard_deck(), standard_deck()
        library_rng, looped_rng = Rng(seed), Rng(seed)
        library_rng.shuffle(library)
        cards.shuffle_deck(looped_rng, looped)
        assert looped == library
        assert looped_rng == library_rng  # the same draws taken, no more
    assert library != standard_deck()


def test_reaction_samples_through_the_generators_dict_equal_the_library(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from stoptable.core.rng import Rng

    components: list[bots.Component] = ["perceive", "reach", "sort", "shout", "go"]
    monkeypatch.setattr(bots, "COMPILED", True)
    native = bots.ReactionTimes(Rng(11))
    assert native._spare is not None
    monkeypatch.setattr(bots, "COMPILED", False)
    plain = bots.ReactionTimes(Rng(11))  # the attribute (compiled, the flag is not read)
    library = bots.ReactionTimes(Rng(11))
    library._random = None  # random.gauss itself
    for k in range(600):
        component = components[k % 5]
        expected = library.sample(component, k % 13)
        assert native.sample(component, k % 13) == expected
        assert plain.sample(component, k % 13) == expected
    assert native.rng == library.rng and plain.rng == library.rng  # gauss_next included


def test_a_bot_decides_the_same_from_a_view_without_count_rows() -> None:
    """A view made elsewhere (JSON) has a plain list for hand_kinds: the heuristic bot makes
    its count rows itself and decides as from the state's own."""
    import contextlib
    import json

    from stoptable.core.errors import IllegalAction

    seen: list[tuple[int, dict[str, object], int]] = []
    # bots look at a game in turn; the twins of each are shown JSON copies of the views
    state = StopItState.new_game("stopit-standard", 4, seed=1)
    twins = [bots.HeuristicBot(s, 100 + s) for s in range(4)]
    plain = [bots.HeuristicBot(s, 100 + s) for s in range(4)]
    now = 0
    for step in range(400):
        seat = step % 4
        view = state.view(seat)
        assert getattr(view["hand_kinds"], "rows", None) is not None
        copied = json.loads(json.dumps(view))
        assert getattr(copied["hand_kinds"], "rows", None) is None
        answer = twins[seat].observe(view, now)
        assert plain[seat].observe(copied, now) == answer
        seen.append((seat, copied, now))
        if answer is not None:
            request = answer[0]
            now = request.t
            if state.lost_race(request):
                continue
            with contextlib.suppress(IllegalAction):  # a race this naive loop lost
                state.apply(request)
        else:
            now += 50
        if state.phase == "game_over":
            break
    assert len(seen) > 100


def test_the_sort_check_by_ids_equals_the_one_by_kinds() -> None:
    from stoptable.games.stopit.cards import parse_card
    from stoptable.games.stopit.evaluation import hand_sorted, is_sorted

    kinds = {card: parse_card(card) for card in standard_deck()}
    hands = [hand for hand, _ in _hands(600)]
    hands += [["blue#1", "brown#1", "blue#2"], ["red#1", "STOP-red#1", "SUPER#1", "red#2"]]
    by_ids = [hand_sorted(hand) for hand in hands]
    assert by_ids == [is_sorted(hand, kinds) for hand in hands]
    assert 50 < sum(by_ids) < len(hands) - 50  # sorted and unsorted hands both met


def test_a_new_kind_counted_by_the_loop_equals_the_reordered_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from stoptable.games.stopit import engine

    for flag in (False, True):
        monkeypatch.setattr(engine, "COMPILED", flag)
        rng = random.Random(9)  # the same hands both times
        seen = []
        for _ in range(300):  # random hands: every kind at every place
            state = StopItState.new_game("stopit-standard", 2, seed=rng.randrange(1000))
            deck = [c for stack in state.stacks for c in stack]
            for card in rng.sample(deck, rng.randrange(1, 12)):
                engine._add(state, 0, card, 0)
            seen.append([list(state.counts[0].items()), state.rows[0]])
        if not flag:
            reference = seen
    assert seen == reference
    orders = [[kind for kind, _ in items] for items, _ in reference]
    assert all(order == sorted(order, key=KINDS.index) for order in orders)  # canonical


def test_an_evaluation_decides_alike_in_both_branches(monkeypatch: pytest.MonkeyPatch) -> None:
    from stoptable.games.stopit import evaluation
    from stoptable.games.stopit.cards import parse_card

    kinds = {card: parse_card(card) for card in standard_deck()}
    rng = random.Random(4)
    cases = []
    for _ in range(300):
        seats = rng.randrange(2, 7)
        hands = [hand for hand, _ in _hands(seats)]
        rng.shuffle(hands)
        counts = [dict(Counter(kinds[c] for c in hand)) for hand in hands]
        card = rng.choice(["STOP-red#1", "STOP-blue#2", "SUPER#1", "STOP-brown#1"])
        fumbled = tuple(sorted(rng.sample(range(seats), rng.randrange(0, 2))))
        cases.append((card, rng.randrange(seats), hands, counts, rng.random() < 0.8, fumbled))
    results = {}
    # interpreted, the native maker's stores would raise: the constructor stands in for it
    monkeypatch.setattr(evaluation, "compiled_evaluation", evaluation.Evaluation)
    for flag in (False, True):
        monkeypatch.setattr(evaluation, "COMPILED", flag)
        results[flag] = [
            evaluate(card, caller, hands, counts, kinds, check, True, fumbled)
            for card, caller, hands, counts, check, fumbled in cases
        ]
    assert results[True] == results[False]
    assert sum(1 for r in results[False] if r.unsorted) > 20


def test_round_half_even_equals_round() -> None:
    rng = random.Random(8)
    values = [rng.uniform(0, 5000) for _ in range(3000)] + [
        rng.randrange(0, 4000) / 2 for _ in range(500)
    ]
    values += [0.0, 0.5, 1.5, 2.5, 0.49999999999999994, 2**52 + 0.5, 1e15 + 0.5]
    assert [bots.round_half_even(x) for x in values] == [round(x) for x in values]


def test_the_bots_compiled_branches_play_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every split of the bots' module at once (row_index, the native constructors, the
    written-out loops, the samples through the generator's dict): whole seeded games."""
    from stoptable.sim.stopit_tournament import play_game

    games = {}
    for flag in (False, True):
        monkeypatch.setattr(bots, "COMPILED", flag)
        games[flag] = [
            play_game(names, seed, record=True)
            for seed, names in ((3, ["heuristic"] * 4), (4, ["heuristic", "random"] * 2))
        ]
    assert [g.record for g in games[True]] == [g.record for g in games[False]]
    assert all(g.evaluations > 3 for g in games[False])


def test_row_index_equals_the_lookup() -> None:
    for card in standard_deck():
        assert bots.row_index(card) == bots._ROW_INDEX_OF_ID[card]
