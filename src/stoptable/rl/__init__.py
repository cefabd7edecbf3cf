"""Research environments: PettingZoo and Gymnasium adapters over the stoptable engines.

* ``stoptable.rl.stop_v0``: Stop as a PettingZoo AEC env (``env(ruleset=, seats=, ...)``);
* ``stoptable.rl.stopandgo_v0``: Stop & Go as a PettingZoo AEC env (``env(seats=, map=)``);
* ``stoptable.rl.stopit_v0``: Stop it! as a PettingZoo Parallel env over fixed time ticks
  (``parallel_env(seats=, tick_ms=)``);
* ``stoptable/Stop-v0``, ``stoptable/StopIt-v0``, ``stoptable/StopAndGo-v0``: Gymnasium
  single-agent envs against bots, registered when this package is imported.

This layer sits above ``bots`` and holds no rule: it reaches the games through their
``GameSpec`` and the state protocol, and its encoders read only a seat's view. Spaces,
encoders and rewards are documented in docs/rl.md.
"""

from __future__ import annotations

from stoptable.rl.single import register

register()
