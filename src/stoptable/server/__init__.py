"""The networked game server (issue 9): HTTP lobby, Socket.IO tables, event-sourced store.

A layer above :mod:`stoptable.bots`: it reaches games only through the registry
(:mod:`stoptable.games`) and the core protocol, so no module here names a game.
``shared/rules/protocol.md`` is the contract; ``docs/protocol.md`` documents the rest.
"""
