"""The live table as a machine without I/O (``docs/architecture.md``, "The live table").

Inputs (:mod:`.inputs`: actions with their arrival times, connections, resumes, bots'
answers, ticks) go in; typed effects (:mod:`.effects`: commit, ack, refuse, publish,
wake at, ask a bot) come out. :class:`.machine.TableMachine` is the one machine of every
live table: the server runs it on the wall clock (``server/table.py``), the simulator on a
virtual one (:mod:`.virtual`). Below ``server``, ``sim`` and ``tui``; above ``bots`` and
``games``.
"""
