"""``ppo``: a Stop bot whose policy was trained with these environments, run in numpy.

The policy is the actor of a MaskablePPO model (sb3-contrib) that ``scripts/train_ppo.py``
trained on ``stoptable/Stop-v0`` against the heuristic bot; its weights ship beside this
module (``stop_ppo.npz``, float16) and torch is needed only to train them again. The bot
sees what a learner sees: the seat's view encoded by :func:`stop_codec.encode` (or, the
same vector, :class:`stop_codec.StateEncoder` from the fields of the state the view
shows) and the mask of the legal list, then plays the offered index of the highest
logit (the argmax of the masked policy: deterministic, so the seed is unused; ties go
to the lowest index).

It is registered for ``make_bot("stop", "ppo", ...)`` through the ``stoptable.bots``
entry point of the project (``bots.base`` loads the plug-ins of a game), so the bots
layer imports nothing of ``stoptable.rl``; without the [rl] extra the bot is not offered.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from stoptable.bots.base import register_bot
from stoptable.core.protocol import JSON
from stoptable.games import spec
from stoptable.rl import stop_codec
from stoptable.rl.stop_v0 import shared_codec

WEIGHTS: Final = Path(__file__).with_name("stop_ppo.npz")
LAYERS: Final = ("policy_0", "policy_1", "action")
"""The actor's linear layers in order (``{name}_w`` ``(in, out)`` and ``{name}_b``); the
hidden layers are followed by tanh, SB3's default activation."""


class Policy:
    """The actor MLP of a MaskablePPO ``MultiInputPolicy``: its input is SB3's
    ``CombinedExtractor`` of the Dict observation, the keys in sorted order (the mask as
    floats, then the observation)."""

    def __init__(self, path: Path = WEIGHTS) -> None:
        with np.load(path) as data:
            self.layers = [
                (data[f"{n}_w"].astype(np.float32), data[f"{n}_b"].astype(np.float32))
                for n in LAYERS
            ]
            self.info = {k: str(data[k]) for k in data.files if k.startswith("meta_")}

    def logits(self, mask: np.ndarray, observation: np.ndarray) -> np.ndarray:
        """The unmasked logits of one or a batch of inputs."""
        h = np.concatenate([mask.astype(np.float32), observation], axis=-1)
        *hidden, (w, b) = self.layers
        for hw, hb in hidden:
            h = np.tanh(h @ hw + hb)
        out: np.ndarray = h @ w + b
        return out


@functools.cache
def policy() -> Policy:
    """The shipped policy, loaded once per process."""
    return Policy()


class PpoBot:
    """Plays the shipped policy's best offered index (see the module doc)."""

    name = "ppo"

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.policy = policy()
        self.rulesets = spec("stop").rulesets
        self.encoder = stop_codec.StateEncoder(self.rulesets)

    def act(self, view: dict[str, JSON], legal: Sequence[Any]) -> Any:
        obs = stop_codec.encode(view, self.rulesets)
        return self._choose(obs, legal, int(view["seats"]))

    def act_state(self, state: Any, legal: Sequence[Any]) -> Any:
        """The choice :meth:`act` makes on ``state.view(self.seat)``, the observation
        computed from the state's fields that the view shows (the same vector)."""
        return self._choose(self.encoder.encode(state, self.seat), legal, state.seats)

    def _choose(self, obs: np.ndarray, legal: Sequence[Any], seats: int) -> Any:
        if len(legal) == 1:
            return legal[0]
        chosen = shared_codec(seats).indexed(list(legal))
        offered = np.fromiter(chosen, dtype=np.int64, count=len(chosen))
        mask = np.zeros(stop_codec.N_ACTIONS, dtype=np.float32)
        mask[offered] = 1.0
        logits = self.policy.logits(mask, obs)[offered]
        best = offered[logits == logits.max()].min()
        return chosen[int(best)]


register_bot("stop", "ppo", PpoBot)
