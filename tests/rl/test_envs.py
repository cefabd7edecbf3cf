"""What the environments promise beyond the upstream API: out-of-turn offers in Stop,
the seeded arrival order of a Stop it! tick, option pass-through, GM-9 and G-22."""

from __future__ import annotations

import copy
import json
import pickle
from dataclasses import fields
from typing import Any

import numpy as np
import pytest
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from stoptable.core.driver import Decline
from stoptable.core.errors import IllegalAction, OptionError
from stoptable.games.stop.state import new_game
from stoptable.games.stopandgo.check import load_map
from stoptable.games.stopandgo.playable import UnplayableMap
from stoptable.rl import stop_codec, stop_v0, stopandgo_v0, stopit_v0
from stoptable.rl.common import agent_name
from tests.games.stopandgo.support import MAPS


def test_S61_an_interjection_offer_makes_the_offered_seat_the_agent() -> None:
    """A seat holding a twin of the top card is asked out of turn, with a decline index;
    taking the offer puts its card on top (S-18, S-61)."""
    env = stop_v0.raw_env("abacus-en", 4, target_score=200)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(5000):
        seat = env.seat_to_act
        assert seat is not None
        if stop_codec.DECLINE in env.legal_indices() and seat != env.state.turn_seat():
            interjections = [i for i in env.legal_indices() if stop_codec.KEYS[i][0] == "interject"]
            if interjections:
                break
        env.step(int(rng.choice(env.legal_indices())))
    else:
        pytest.fail("no out-of-turn interjection offer in 5000 steps")
    assert env.agent_selection == agent_name(seat)
    assert isinstance(env._chosen[stop_codec.DECLINE], Decline)
    card = stop_codec.KEYS[interjections[0]][1]
    env.step(interjections[0])
    assert env.state.view(None)["top"] == card


def test_stop_round_and_match_rewards() -> None:
    """Round rewards are zero-sum; the match reward ranks the seats (docs/rl.md)."""
    env = stop_v0.raw_env("abacus-en", 3, target_score=200)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    round_sums = []
    while env.seat_to_act is not None:
        env.step(int(rng.choice(env.legal_indices())))
        if any(env.rewards.values()) and env.seat_to_act is not None:
            round_sums.append(sum(env.rewards.values()))
        for agent, r in env.rewards.items():
            totals[agent] += r
    assert round_sums and all(abs(s) < 1e-9 for s in round_sums)
    outcome = env.state.result()
    assert outcome is not None
    best = min(outcome.ranks)
    winner = agent_name(outcome.ranks.index(best))
    assert totals[winner] == max(totals.values())


def test_options_pass_through_and_bad_ones_are_refused() -> None:
    env = stop_v0.raw_env("abacus-en", 2, target_score=77)
    env.reset(seed=0)
    assert env.state.view(0)["target_score"] == 77
    with pytest.raises(OptionError):
        stop_v0.raw_env("abacus-en", 2, no_such_option=1)


def test_G22_must_stay_on() -> None:
    with pytest.raises(ValueError, match="G-22"):
        stopandgo_v0.raw_env(2, stall_turns=0)


def test_GM9_an_unplayable_map_is_refused() -> None:
    """The fixture map with destination 1 closed off fails GM-9: the env refuses it."""
    data = json.loads((MAPS / "base.json").read_text(encoding="utf-8"))
    data["signs"] = [
        {"type": "closed", "from": "A", "to": "an"},
        {"type": "closed", "from": "n", "to": "an"},
    ]
    with pytest.raises(UnplayableMap, match="GM-9"):
        stopandgo_v0.raw_env(2, map=load_map(data))
    stopandgo_v0.raw_env(2, map=MAPS / "base.json").reset(seed=0)  # the fixture itself plays


def test_I30_the_arrival_order_inside_a_tick_is_seeded() -> None:
    """Two seats grab the same card in one tick: one gets it, the other is stale; the
    winner depends only on the seed."""
    winners = []
    for seed in range(8):
        env = stopit_v0.parallel_env(seats=2, tick_ms=100)
        obs, _ = env.reset(seed=seed)
        obs, *_ = env.step({"player_0": env.layout.go, "player_1": 0})
        grab = env.layout.grab
        assert all(obs[a]["action_mask"][grab] for a in env.agents)
        obs, _, _, _, infos = env.step({"player_0": grab, "player_1": grab})
        lost = [a for a in env.agents if infos[a].get("rejected") == "stale"]
        assert len(lost) == 1
        winners.append(lost[0])
        again = stopit_v0.parallel_env(seats=2, tick_ms=100)
        again.reset(seed=seed)
        again.step({"player_0": again.layout.go, "player_1": 0})
        _, _, _, _, infos2 = again.step({"player_0": grab, "player_1": grab})
        assert infos2 == infos
    assert len(set(winners)) == 2


def test_stopit_unoffered_index_is_rejected_without_penalty() -> None:
    env = stopit_v0.parallel_env(seats=2, tick_ms=100)
    env.reset(seed=0)
    _, rewards, _, _, infos = env.step({"player_0": env.layout.insert + 5, "player_1": 0})
    assert infos["player_0"]["rejected"] == "not_offered"
    assert rewards == {"player_0": 0.0, "player_1": 0.0}
    assert env.state.view(None)["phase"] == "waiting_go"


@pytest.mark.parametrize("module", [stop_v0, stopandgo_v0])
def test_ansi_render(module: object) -> None:
    env = module.env(render_mode="ansi")  # type: ignore[attr-defined]
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "to act: player_" in text
    par = stopit_v0.parallel_env(seats=2, render_mode="ansi")
    par.reset(seed=0)
    assert "phase: waiting_go" in str(par.render())


def test_stop_encoder_planes_sit_where_docs_say() -> None:
    env = stop_v0.raw_env("abacus-ja", 3)
    env.reset(seed=4)
    view = env.state.view(1)
    vec = stop_codec.encode(view, ("abacus-en", "abacus-ja"))
    off = stop_codec.OFFSETS
    assert vec.shape == (stop_codec.OBS_SIZE,)
    assert vec[off["hand"] : off["hand"] + 53].sum() * 8 == pytest.approx(len(view["hand"]))
    assert vec[off["top"] + stop_codec.CODE_INDEX[view["top"]]] == 1.0
    assert vec[off["seated"] : off["seated"] + 10].tolist() == [1.0] * 3 + [0.0] * 7
    assert vec[off["ruleset"] + 1] == 1.0
    assert vec.min() >= 0.0 and vec.max() <= 1.0


def test_stop_encoder_round_template_follows_what_it_was_made_from() -> None:
    """StateEncoder keeps each seat's round planes (totals, dealer, round, seated, ruleset)
    until the rules, the round, the dealer or the totals change: change each alone, and
    also totals edited in place and another game's rules, and the vector must follow."""
    rulesets = ("abacus-en", "abacus-ja")
    st = new_game("abacus-ja", 3, 2, {"target_score": 150})
    encoder = stop_codec.StateEncoder(rulesets)

    def check() -> None:
        for seat in range(3):
            assert np.array_equal(
                encoder.encode(st, seat), stop_codec.encode(st.view(seat), rulesets)
            )

    check()
    st.totals = [40, 0, 110]
    check()
    st.totals[1] = 75  # in place: compared by value
    check()
    st.dealer = (st.dealer + 1) % 3
    check()
    st.round += 1
    check()
    st.rules = st.rules.with_options({"target_score": 500})
    check()
    other = new_game("abacus-en", 3, 2, {"target_score": 500})  # same round, dealer, totals
    other.totals, other.dealer, other.round = st.totals[:], st.dealer, st.round
    st = other
    check()


def test_stop_action_table_blocks_are_those_of_the_docs() -> None:
    keys = stop_codec.KEYS
    assert len(keys) == 1116
    assert keys[0] == ("play", ("R0",), 0, None, None)
    assert keys[384] == ("play", ("FC", "R0"), 0, None, None)
    assert keys[768] == ("interject", "R0", 0)
    assert keys[928] == ("cancel", "R0", 0)
    assert keys[944] == ("accept", 0, None)
    assert keys[1108] == ("draw", 0)
    assert keys[1112:] == (("pass",), ("call_achtung",), ("call_stop",), ("decline",))


def test_gymnasium_stopandgo_on_another_map_against_heuristic_bots() -> None:
    import gymnasium as gym

    import stoptable.rl  # noqa: F401

    env = gym.make("stoptable/StopAndGo-v0", seats=3, map=MAPS / "base.json", destination_count=2)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(2000):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert terminated and -1.0 <= reward <= 1.0


def _loop(env: Any, seed: int) -> list[Any]:
    """What the standard AEC loop sees for random masked actions, to the end of a game."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen: list[Any] = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        seen.append((agent, obs["observation"].tolist(), reward, terminated, truncated, info))
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == []
    return seen


@pytest.mark.parametrize("module", [stop_v0, stopandgo_v0])
def test_the_fast_order_enforcing_wrapper_is_the_upstream_one(module: Any) -> None:
    """``env()``'s wrapper (direct ``last``/``step``) refuses the same calls before reset
    and runs the standard loop exactly as PettingZoo's OrderEnforcingWrapper does."""
    options = {"target_score": 40} if module is stop_v0 else {"destination_count": 2}
    fast = module.env(**options)
    assert isinstance(fast, OrderEnforcingWrapper)
    for name in ("agent_selection", "agents", "rewards"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(fast, name)
    with pytest.raises(AttributeError, match="before reset"):
        fast.last()
    upstream = OrderEnforcingWrapper(module.raw_env(**options))
    assert _loop(fast, 3) == _loop(upstream, 3)


def test_the_fast_agent_iterator_checks_as_the_upstream_one() -> None:
    """``agent_iter`` (a generator here) stops after ``max_iter`` agents, and asking for
    the next agent without a step in between fails the upstream assertion."""
    env = stop_v0.env(target_score=40)
    env.reset(seed=2)
    agents = env.agent_iter(max_iter=3)
    seen = []
    for agent in agents:
        seen.append(agent)
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(seen) == 3
    first, *_ = env.last()  # the decision's own mask (inline), then masks made anew
    again, *_ = env.last()
    assert np.array_equal(first["action_mask"], again["action_mask"])
    assert first["action_mask"] is not again["action_mask"]
    assert np.array_equal(first["observation"], again["observation"])
    env.reset(seed=2)
    agents = iter(env.agent_iter())
    assert next(agents) == env.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(agents)


def test_stop_step_takes_any_integer_index_as_before() -> None:
    """``step`` looks an offered index up directly, and anything else through ``int()``
    as before: Python and numpy integers, integral floats and 0-d arrays play the same game;
    an index not offered (or None) is refused."""
    played = []
    for kind in (int, np.int64, float, np.array):
        env = stop_v0.raw_env("abacus-en", 2)
        env.reset(seed=4)
        for _ in range(30):
            index = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[-1])
            env.step(kind(index))
        played.append(env.observe(env.agent_selection)["observation"].tobytes())
        offered = set(env.legal_indices())
        refused = next(i for i in range(stop_codec.N_ACTIONS) if i not in offered)
        for bad in (refused, np.int64(refused), None):
            with pytest.raises(IllegalAction):
                env.step(bad)
    assert len(set(played)) == 1


def test_stop_mask_indices_are_found_by_identity_and_by_value() -> None:
    """ActionCodec.mask looks shared actions up by identity; a list of equal new objects
    gets the same indices (by value); each observe hands out a mask of its own."""
    env = stop_v0.raw_env("abacus-en", 3)
    env.reset(seed=1)
    legal = list(env.legal)
    mask, chosen = env.codec.mask(legal)
    again = env.codec.mask(list(legal))
    assert np.array_equal(again[0], mask) and again[1] == chosen
    rebuilt = [type(a)(**{f.name: getattr(a, f.name) for f in fields(a)}) for a in legal]
    assert all(r is not a and r == a for r, a in zip(rebuilt, legal, strict=True))
    mask2, chosen2 = env.codec.mask(rebuilt)
    assert np.array_equal(mask2, mask) and chosen2 == chosen
    assert all(chosen2[i] is not chosen[i] for i in chosen)
    observed = env.observe(env.agent_selection)["action_mask"]
    assert np.array_equal(observed, mask)
    observed[:] = 0  # what a caller does with its mask changes no later observation
    again = env.observe(env.agent_selection)["action_mask"]
    assert np.array_equal(again, mask) and again is not observed
    assert again.dtype == observed.dtype == np.int8
    assert np.array_equal(env.observe(env.agent_selection)["action_mask"], mask)


def test_a_copied_wrapper_steps_its_own_env() -> None:
    """``last``/``step`` of the fast wrapper are bound to its env: a deep copy (or an
    unpickled one) gets its own, so stepping the copy leaves the original as it was. In
    the compiled build too (``make test-compiled``): there the env's bound ``submit`` of
    the native driver was copied as itself and stepped the original game."""
    env = stop_v0.env(target_score=40)
    env.reset(seed=4)
    before = env.last()[0]["observation"].copy()
    twin = copy.deepcopy(env)
    obs = twin.last()[0]
    twin.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert twin.unwrapped.steps == 1 and env.unwrapped.steps == 0
    assert np.array_equal(env.last()[0]["observation"], before)
    again = pickle.loads(pickle.dumps(env))
    assert np.array_equal(again.last()[0]["observation"], before)


def test_a_copied_stopandgo_env_plays_its_own_game() -> None:
    """The Stop & Go env deep-copies and pickles in both builds (architecture.md, rule
    21): the copy shares the map, which never changes, and plays its own game, so stepping
    it leaves the original as it was; an unpickled env observes what the original does."""
    env = stopandgo_v0.env(seats=2)
    env.reset(seed=3)
    for _ in range(9):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    before = env.last()[0]["observation"].copy()
    state = env.unwrapped.state
    twin = copy.deepcopy(env)
    assert twin.unwrapped.state is not state and twin.unwrapped.state == state
    assert twin.unwrapped.state.game_map is state.game_map
    for _ in range(6):
        twin.step(int(np.flatnonzero(twin.last()[0]["action_mask"])[0]))
    assert twin.unwrapped.state != state
    assert np.array_equal(env.last()[0]["observation"], before)
    again = pickle.loads(pickle.dumps(env))
    assert again.unwrapped.state == state
    assert np.array_equal(again.last()[0]["observation"], before)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    again.step(int(np.flatnonzero(again.last()[0]["action_mask"])[0]))
    assert again.unwrapped.state == env.unwrapped.state


def test_a_copied_codec_keeps_no_identity_of_another_object() -> None:
    """``ActionCodec.indexed`` finds an action's index by its ``id`` only while it holds
    the action itself alive (``_kept``), so that no later object can take that id. A copy
    or an unpickled codec (another process: a Ray worker, a saved env) holds copies, not
    the objects those ids named: it must start its identity cache afresh, else an action
    made at a freed address reads another action's index (a wrong mask). Both still index
    every legal action as the original does."""
    env = stop_v0.env(target_score=40)
    env.reset(seed=4)
    for _ in range(12):
        obs = env.last()[0]
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    codec = env.unwrapped.codec
    assert codec._by_id, "the original should have looked actions up by identity"
    legal = list(env.unwrapped.legal)
    want = codec.indexed(legal)
    for twin in (copy.deepcopy(codec), pickle.loads(pickle.dumps(codec))):
        assert set(twin._by_id) <= {id(action) for action in twin._kept}
        assert list(twin.indexed(legal)) == list(want)


def test_stop_encoder_follows_every_change_of_the_hand() -> None:
    """StateEncoder's hand plane against the view's encoding after every kind of change of
    a hand between two encodes of the same encoder (draws, a play from the front, middle or
    end, a swap, duplicates, two gone, a new list, an emptied hand, another game's hand):
    an encoder that kept planes between calls (tried: a kept hand plane updated by the
    cards drawn or played since) must give the same vectors."""
    rulesets = ("abacus-en", "abacus-ja")
    st = new_game("abacus-en", 2, 7, {"target_score": 150})
    encoder = stop_codec.StateEncoder(rulesets)

    def check() -> None:
        for seat in range(2):
            want = stop_codec.encode(st.view(seat), rulesets)
            assert np.array_equal(encoder.encode(st, seat), want)
            assert np.array_equal(encoder.encode(st, seat), want)  # unchanged since

    hand, other = st.hands[0], st.hands[1]
    check()
    hand.append(st.draw.pop())  # a draw
    check()
    hand.extend([st.draw.pop(), st.draw.pop(), hand[0]])  # several, a duplicate among them
    check()
    del hand[2]  # one played from the middle
    check()
    del hand[-1]  # the last
    check()
    hand.remove(hand[0])  # the first
    check()
    hand[0], hand[1] = hand[1], hand[0]  # same cards, another order
    check()
    hand[1] = other[0]  # one swapped for another card
    check()
    del hand[0], hand[0]  # two gone at once
    check()
    hand[-1] = other[1]  # one fewer, but not by one card taken out
    del hand[0]
    check()
    st.hands[0] = other[:]  # a new list (a Card Exchange)
    check()
    st.hands[0].clear()
    check()
    again = new_game("abacus-en", 2, 8, {"target_score": 150})  # same round template
    again.totals, again.dealer, again.round = st.totals[:], st.dealer, st.round
    st = again
    check()
