"""Stop as a PettingZoo AEC environment: ``stoptable.rl.stop_v0``.

>>> from stoptable.rl import stop_v0
>>> env = stop_v0.env(ruleset="abacus-ja", seats=3, target_score=100)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, obs["action_mask"].shape
((406,), (1116,))

Agents are ``player_0`` .. ``player_{seats-1}``. The S-61 offer driver picks
``agent_selection``: a seat holding a card identical to the top card is offered the
interjection (out of turn, before the seat on turn), a seat holding the matching 0 is
offered the Card Exchange cancel, and a ja seat with an open call window is asked for its
standalone call; each such offer's mask includes the *decline* index. Actions and
observations: :mod:`stoptable.rl.stop_codec` and docs/rl.md.

Rewards (``reward=``): ``"round"`` gives each seat ``(mean round score - own round
score) / 100`` when a round is scored (minus points, so fewer is better; zero-sum);
``"match"`` gives :func:`~stoptable.rl.common.ranked_reward` when the match ends (1 for
first, -1 for last); ``"round+match"`` (default) gives both.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, ClassVar, Final

import numpy as np

from stoptable.core.protocol import JSON
from stoptable.games import spec
from stoptable.games.stop.cards import DECK_CARDS
from stoptable.games.stop.svg import table_svg
from stoptable.rl import stop_codec
from stoptable.rl.common import split_options
from stoptable.rl.turn_env import TURN_KEYS, OrderEnforcing, TurnEnv, end_rewards, turn_options

ENV_KEYS: Final = ("render_mode", "reward", "shaping", *TURN_KEYS)
REWARDS: Final = ("round+match", "round", "match")
SHAPINGS: Final = (None, "hand")


class StopAdapter:
    """Stop for :class:`~stoptable.rl.turn_env.TurnEnv`."""

    n_actions = stop_codec.N_ACTIONS
    obs_size = stop_codec.OBS_SIZE
    idle_index = stop_codec.DECLINE

    def __init__(
        self,
        ruleset: str,
        seats: int,
        options: Mapping[str, JSON],
        reward: str,
        shaping: str | None = None,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if shaping not in SHAPINGS:
            raise ValueError(f"shaping must be one of {SHAPINGS}, not {shaping!r}")
        self.shaping = shaping
        self.spec = spec("stop")
        self.ruleset = ruleset
        self.options = dict(options)
        rules = self.spec.ruleset(ruleset, self.options)  # OptionError now, not at reset
        self.spec.check_seats(seats, rules)
        if rules.stall_actions <= 0:
            raise ValueError("the environments need S-64 on (stall_actions > 0) so rounds end")
        self.seats = seats
        self.reward = reward
        self.rules = rules
        self.nine = rules.six_nine_value == "nine"
        self.rulesets = self.spec.rulesets
        self.encoder = stop_codec.StateEncoder(self.rulesets)
        self.observation = self.encoder.encode
        """``encode(state.view(seat))``, computed from the fields of the state that the view
        shows, without building it (:class:`stop_codec.StateEncoder`); the encoder's method
        itself, since the env observes at every step and a wrapping method is a call more."""
        self.observation_into = self.encoder.encode_into
        """``observation`` written into a float32 row's memoryview."""
        self.observation_into_but_hand = self.encoder.encode_into_but_hand
        """``observation_into`` but the hand plane, which the batched env writes for all its
        games at once (:meth:`write_hand_planes`); returns the hand."""

    write_hand_planes = staticmethod(stop_codec.write_hand_planes)

    def new_game(self, seed: int) -> tuple[Any, Any]:
        state = self.spec.new(self.ruleset, self.seats, seed, self.options)
        assert self.spec.driver is not None
        return state, self.spec.driver(state, deal_rounds=False)

    def codec(self) -> stop_codec.ActionCodec:
        """The codec of this seat count, one per process: its index caches are keyed by
        the move generator's shared action objects, which every game of a shape shares,
        so N envs (a vector env's games) warm one cache instead of N."""
        return shared_codec(self.seats)

    def encode(self, view: Mapping[str, JSON]) -> np.ndarray:
        return stop_codec.encode(view, self.rulesets)

    def stopped(self, state: Any, driver: Any) -> tuple[list[float], bool]:
        """A round was scored: its rewards, and whether the match goes on (then the next
        round is dealt)."""
        scores = state.view(None)["round_scores"]
        rewards = [0.0] * self.seats
        if scores is not None and self.reward != "match":
            mean = sum(scores) / len(scores)
            rewards = [(mean - s) / 100 for s in scores]
        if state.result() is not None:
            return rewards, False
        driver.next_round()
        return rewards, True

    def final_rewards(self, state: Any) -> list[float]:
        return end_rewards(state) if self.reward != "round" else [0.0] * self.seats

    def worst_return(self) -> float:
        """The scoring bound (S-53 to S-56). While the match goes on every total is below
        ``target``, so the round rewards a seat has had sum to at most ``(n-1)/n x target /
        100`` (they are ``(mean total - own total) / 100``); when it ends, the seat's total is
        below ``target + H`` (H: the whole deck, the most one round can score), so they sum
        to at least ``-(n-1)/n x (target + H) / 100``. From any point on, what is still to
        come is therefore at least ``-(n-1)/n x (2 target + H) / 100``, and the match reward
        adds at most 1 more (S-64's stall scores the same way). ``shaping="hand"`` only adds:
        what it still pays from any point is the hand held then, and each later deal, / 100
        (potentials telescope to 0 at each round's end)."""
        n = self.seats
        deck = sum(card.value(self.nine) for card in DECK_CARDS)
        bound = (
            0.0
            if self.reward == "match"
            else (n - 1) / n * (2 * self.rules.target_score + deck) / 100
        )
        if self.reward != "round":
            bound += 1.0
        return bound

    def describe(self, index: int, seat: int) -> str:
        """The index table's action for ``seat`` in notation (``decline`` for the decline,
        a Card Exchange swap aimed at a seat this table lacks said so)."""
        if index == stop_codec.DECLINE:
            return "decline"
        line = stop_codec.line_of(index, seat, self.seats)
        if line is None:
            _, cards, _, mode, rel = stop_codec.KEYS[index]
            return f"play {' '.join(cards)} {mode} +{rel} (no such seat at {self.seats} seats)"
        return str(self.spec.action_from_json(line, seat).notation())

    def svg(self, state: Any, seat: int | None) -> str:
        """The seat's view with the browser's card art (``games.stop.svg.table_svg``)."""
        return table_svg(state.view(seat))

    def potentials(self, state: Any) -> list[float] | None:
        """``shaping="hand"``: minus each seat's hand in minus points / 100 (what it would
        score if the round ended now), else None."""
        if self.shaping is None:
            return None
        nine = self.nine
        return [-sum(card.value(nine) for card in hand) / 100 for hand in state.hands]


@functools.cache
def shared_codec(seats: int) -> stop_codec.ActionCodec:
    """The one Stop :class:`stop_codec.ActionCodec` of ``seats`` seats in this process."""
    return stop_codec.ActionCodec(spec("stop"), seats)


class StopEnv(TurnEnv):
    """Stop's AEC environment (a :class:`TurnEnv` named ``stop_v0``)."""

    metadata: ClassVar[dict[str, Any]] = {**TurnEnv.metadata, "name": "stop_v0"}


def raw_env(ruleset: str = "abacus-en", seats: int = 2, **options: Any) -> StopEnv:
    """The unwrapped AEC env. ``options``: ``render_mode`` ("ansi" or "rgb_array"),
    ``reward`` (see the module doc), ``max_steps`` (truncation); every other key is a Stop
    ruleset option (stop.md §11, e.g. ``target_score=100``) passed to the engine."""
    env_opts, engine = split_options(options, ENV_KEYS)
    adapter = StopAdapter(
        ruleset, seats, engine, env_opts.get("reward", "round+match"), env_opts.get("shaping")
    )
    return StopEnv(adapter, **turn_options(env_opts))


def env(ruleset: str = "abacus-en", seats: int = 2, **options: Any) -> Any:
    """:func:`raw_env` in PettingZoo's order-enforcing wrapper (its subclass
    :class:`~stoptable.rl.turn_env.OrderEnforcing`, same checks, direct ``last``/``step``).
    ``step`` itself refuses any index the mask does not offer, out of bounds included, so
    no bounds wrapper is needed."""
    wrapped: Any = raw_env(ruleset, seats, **options)
    return OrderEnforcing(wrapped)
