"""Single-observer information-set MCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

The bot sees only its view. Each iteration samples one *determinization* - a full state
that the view cannot tell from the real one, made by the game package's sampler - and
walks one shared tree down it: a node's children are actions (of whichever seat acts
there), and only the children legal in this determinization compete, by UCB1 with
*availability* counts in place of the parent's visits. The first untried action of the
walk is added, the rest of the game (or of a horizon) is played by a fast rollout
policy, and every node on the path is credited with the reward of the seat that acted
into it.

What is game-specific - sampling, walking the sampled state from decision to decision,
the rollout and the rewards - is a :class:`Search` (``bots/ismcts_games.py`` has one per
game); this module is the game-agnostic tree.

Budget: ``iterations`` per decision, or ``ms`` of process time per decision (whichever
ends first when both are given; ``ms`` makes results depend on the machine, so seeded
experiments use iterations).
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from stoptable.core.rng import Rng

EXPLORATION: Final = 0.7
"""UCB1's exploration constant for rewards in [-1, 1]."""
SURE: Final = 2.0
"""Standard errors by which an action must beat the rollout policy's choice to replace it."""
MIN_PAIRS: Final = 8
"""Paired rollouts an action needs before it may replace the policy's choice: with fewer,
the standard error is itself too rough (two equal differences have none at all)."""


class Walk(Protocol):
    """One determinized game being walked by one iteration."""

    def decision(self) -> tuple[int, Sequence[Any]] | None:
        """The next seat to decide and its legal actions; None at a leaf (end or horizon)."""
        ...

    def apply(self, action: Any) -> None:
        """Apply one of the legal actions of :meth:`decision`."""
        ...

    def rollout(self) -> list[float]:
        """Play on with the fast policy to the horizon; each seat's reward in [-1, 1]."""
        ...


class Search(Protocol):
    """The game glue of the search: what it samples and how it walks a sample."""

    def walk(self, view: Any, seat: int, legal: Sequence[Any], rng: Rng) -> Walk | None:
        """A new determinization of ``view``, standing at ``seat``'s decision among
        ``legal`` (None if the sample could not be brought there: the iteration is skipped).
        Everything random in it and in its rollout comes from ``rng``, so that two walks
        from equal generators are the same game until their actions differ."""
        ...

    def key(self, action: Any) -> Hashable:
        """What identifies an action across determinizations (two equal keys: same move)."""
        ...

    def default(self, view: Any, seat: int, legal: Sequence[Any], rng: Rng) -> Any:
        """The rollout policy's own choice at the root (kept unless clearly beaten)."""
        ...


@dataclass(slots=True)
class Node:
    """A tree node: the action that led here, who took it, and its statistics."""

    seat: int = -1
    visits: int = 0
    available: int = 0
    total: float = 0.0
    children: dict[Hashable, Node] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Budget:
    """Iterations and/or milliseconds of process time per decision."""

    iterations: int | None = 200
    ms: float | None = None
    depth: int = 1
    """Tree levels of the bot's own decisions: 1 searches the root only and lets the
    rollout policy play everything after it; deeper trees pay off only with budgets far
    above what a bot can spend per move (their first visits try moves at random)."""

    def __post_init__(self) -> None:
        if self.iterations is None and self.ms is None:
            raise ValueError("an ISMCTS budget needs iterations or ms")
        if (self.iterations is not None and self.iterations < 1) or (
            self.ms is not None and self.ms <= 0
        ):
            raise ValueError(f"invalid ISMCTS budget {self!r}")


def _select(node: Node, walk_keys: list[Hashable], rng: Rng) -> Hashable:
    """UCB1 over the children in ``walk_keys`` (all tried), with availability counts."""
    best_key: Hashable = walk_keys[0]
    best = -math.inf
    for key in walk_keys:
        child = node.children[key]
        child.available += 1
        score = child.total / child.visits + EXPLORATION * math.sqrt(
            math.log(child.available) / child.visits
        )
        score += rng.random() * 1e-9
        if score > best:
            best, best_key = score, key
    return best_key


def search(
    search_glue: Search,
    view: Any,
    seat: int,
    legal: Sequence[Any],
    budget: Budget,
    rng: Rng,
    race: bool = False,
) -> tuple[Any, Node]:
    """The chosen action of ``legal``, and the root (for tests and reports).

    Every iteration draws one determinization seed and walks *every* root action down
    that same determinization, with the same rollout seeds (common random numbers): the
    actions of a decision differ by far less than one rollout's luck, and only paired
    differences see them. Below the root the walk is ordinary SO-ISMCTS.

    The rollout policy's own choice is kept unless another action beats it by more than
    :data:`SURE` standard errors of the paired differences, over at least
    :data:`MIN_PAIRS` pairs: with a few hundred rollouts the search should improve on its
    policy where it is sure, and not trade it for noise.

    ``race``: spend the budget in two stages. The first half walks every action and names
    the one that did best against the policy's choice; the second walks only those two,
    and only the second stage's pairs decide. Picking the best of several noisy means and
    testing it on the same rollouts favours whichever was luckiest (the winner's curse);
    fresh rollouts test it fairly, and on two actions instead of all of them.
    """
    key = search_glue.key
    by_key: dict[Hashable, Any] = {}
    for action in legal:
        by_key.setdefault(key(action), action)
    root = Node(seat=-1)
    if len(by_key) == 1:
        return legal[0], root
    keys = list(by_key)
    default = key(search_glue.default(view, seat, legal, rng))
    if default not in by_key:
        default = keys[0]
    deadline = None if budget.ms is None else time.process_time() + budget.ms / 1000
    walks = budget.iterations
    run = _Runner(search_glue, view, seat, legal, by_key, root, rng, budget.depth)
    if not race or len(keys) == 2:
        limit = None if walks is None else max(2, walks // len(keys))
        rewards = run(keys, limit, deadline)
        return by_key[_sure_best(rewards, default, keys)], root
    half = None if deadline is None else time.process_time() + (budget.ms or 0) / 2000
    limit = None if walks is None else max(2, walks // (2 * len(keys)))
    first = run(keys, limit, half)
    rival, lead = default, 0.0
    for k in keys:
        if k != default and first[k] and first[default]:
            n = min(len(first[k]), len(first[default]))
            mean = sum(a - b for a, b in zip(first[k], first[default], strict=False)) / n
            if mean > lead:
                rival, lead = k, mean
    if rival == default:
        return by_key[default], root
    pair = [default, rival]
    limit = None if walks is None else max(2, (walks - run.walks) // 2)
    second = run(pair, limit, deadline)
    return by_key[_sure_best(second, default, pair)], root


class _Runner:
    """Iterations of :func:`search` on some of the root's actions (common random numbers:
    one determinization seed per iteration, walked by each of the actions)."""

    def __init__(
        self,
        glue: Search,
        view: Any,
        seat: int,
        legal: Sequence[Any],
        by_key: dict[Hashable, Any],
        root: Node,
        rng: Rng,
        depth: int,
    ) -> None:
        self.glue, self.view, self.seat, self.legal = glue, view, seat, legal
        self.by_key, self.root, self.rng, self.depth = by_key, root, rng, depth
        self.walks = 0
        """Walks made so far (one per action per iteration)."""

    def __call__(
        self, keys: list[Hashable], limit: int | None, deadline: float | None
    ) -> dict[Hashable, list[float]]:
        """Each action's rewards over ``limit`` iterations (or until ``deadline``)."""
        glue, view, seat, legal, rng = self.glue, self.view, self.seat, self.legal, self.rng
        rewards: dict[Hashable, list[float]] = {k: [] for k in keys}
        done = 0
        while (limit is None or done < limit) and (
            deadline is None or time.process_time() < deadline or done < 2
        ):
            done += 1
            seed = rng.below(2**62)
            walks = [glue.walk(view, seat, legal, Rng(seed)) for _ in keys]
            if any(w is None for w in walks):
                continue
            for k, walk in zip(keys, walks, strict=True):
                assert walk is not None
                child = self.root.children.get(k)
                if child is None:
                    child = self.root.children[k] = Node(seat=seat)
                child.available += 1
                walk.apply(self.by_key[k])
                rewards[k].append(_iterate(walk, child, seat, glue.key, rng, self.depth))
                self.walks += 1
        return rewards


def _sure_best(
    rewards: dict[Hashable, list[float]], default: Hashable, keys: list[Hashable]
) -> Hashable:
    """The action that beats ``default`` by the most standard errors over :data:`SURE`
    (paired differences, at least :data:`MIN_PAIRS`), else ``default``."""
    base = rewards[default]
    if not base:
        return keys[0]
    best, best_low = default, 0.0
    for k in keys:
        if k == default or not rewards[k]:
            continue
        diffs = [a - b for a, b in zip(rewards[k], base, strict=True)]
        n = len(diffs)
        if n < MIN_PAIRS:
            continue
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / n)
        low = mean - SURE * spread
        if low > best_low:
            best, best_low = k, low
    return best


def _iterate(walk: Walk, top: Node, seat: int, key: Any, rng: Rng, depth: int) -> float:
    """Walk on from ``top`` (the root action just applied): select, expand one node, roll
    out, back up (at most ``depth`` levels in all). The reward of ``seat``."""
    path: list[Node] = [top]
    node = top
    while len(path) < depth:
        step = walk.decision()
        if step is None:
            break
        decider, legal = step
        actions: dict[Hashable, Any] = {}
        for action in legal:
            actions.setdefault(key(action), action)
        children = node.children
        untried = [k for k in actions if k not in children]
        if untried:
            chosen = untried[rng.below(len(untried))]
            for k in actions:
                if k in children:
                    children[k].available += 1
            node = children[chosen] = Node(seat=decider, available=1)
            walk.apply(actions[chosen])
            path.append(node)
            break
        chosen = _select(node, list(actions), rng)
        node = children[chosen]
        walk.apply(actions[chosen])
        path.append(node)
    rewards = walk.rollout()
    for visited in path:
        visited.visits += 1
        visited.total += rewards[visited.seat]
    return rewards[seat]


def parse_budget(text: str | None) -> Budget:
    """A budget from the text after ``ismcts:`` in a bot name: ``500`` (iterations) or
    ``50ms`` (process time per decision); None: the default.

    >>> parse_budget("50ms")
    Budget(iterations=None, ms=50.0)
    >>> parse_budget("500").iterations
    500
    """
    if text is None or text == "":
        return Budget()
    try:
        if text.endswith("ms"):
            return Budget(iterations=None, ms=float(text[:-2]))
        return Budget(iterations=int(text))
    except ValueError:
        raise ValueError(f"not an ISMCTS budget: {text!r} (say 500 or 50ms)") from None
