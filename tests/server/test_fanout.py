"""The fan-out's bookkeeping of connections, on a real python-socketio server object."""

from __future__ import annotations

import socketio

from stoptable.server.fanout import NAMESPACE, Fanout


async def test_a_hello_of_a_connection_that_already_left_does_nothing() -> None:
    # the table serves a hello from its inbox, after connect returned: a client that closed
    # at once is gone by then, and its hello must neither raise (which made the table
    # reload itself from the store) nor count it as present
    sio = socketio.AsyncServer(async_mode="asgi")
    fanout = Fanout("t1", sio, resume_limit=100)
    assert await fanout.hello("gone", 0, 3, {"seq": 3}) is False
    assert fanout.conns == {} and fanout.hello_seq == {}
    assert fanout.bye("gone", 0) is False  # its bye, which follows, finds nothing either
    # a connection the server knows joins its seat's room
    sid = await sio.manager.pre_connect("eio1", NAMESPACE)
    await sio.manager.connect(sid, NAMESPACE)
    assert await fanout.hello(sid, 0, 3, {"seq": 3}) is True
    assert fanout.conns == {0: {sid}} and fanout.hello_seq == {sid: 3}
    assert [s for s, _ in sio.manager.get_participants(NAMESPACE, "t1/0")] == [sid]


def test_stored_batches_read_back_as_the_same_events_for_every_seat() -> None:
    """What the store keeps for ``resume`` after a restart (protocol.md §9) is the events
    whole; read back, each seat (and a spectator) is shown exactly what it was shown."""
    import json

    from stoptable.core.protocol import Event
    from stoptable.server.fanout import batch_of, stored_batch

    events = [
        Event("draw", 1, {"count": 1}, {"cards": ["B4"]}),
        Event("round_over", None, {"scores": [3, 0]}),
    ]
    before, seq, stored = json.loads(json.dumps(stored_batch(4, 6, events)))
    back = batch_of(before, seq, stored)
    assert back[:2] == (4, 6) and back[2] == events
    for seat in (None, 0, 1):
        assert [e.for_seat(seat) for e in back[2]] == [e.for_seat(seat) for e in events]
    sio = socketio.AsyncServer(async_mode="asgi")
    fanout = Fanout("t1", sio, resume_limit=100)
    fanout.remember([back, (6, 6, [])])
    assert list(fanout.history) == [back, (6, 6, [])]


async def test_a_change_shows_each_seat_its_own_events_and_state() -> None:
    """The events message is encoded once for the seats no event is private to, and once
    for each seat an event shows private parts to: each seat still gets what
    ``Event.for_seat`` shows it, then its state."""
    import json

    from stoptable.core.protocol import Event

    sio = socketio.AsyncServer(async_mode="asgi")
    sent: dict[str, list[str]] = {}

    async def record(eio_sid: str, pkt: object) -> None:
        sent.setdefault(eio_sid, []).append(pkt.encode())  # type: ignore[attr-defined]

    sio.eio.send_packet = record  # type: ignore[method-assign]
    fanout = Fanout("t1", sio, resume_limit=100)
    for eio_sid, seat in (("e0", 0), ("e1", 1), ("espec", None)):
        sid = await sio.manager.pre_connect(eio_sid, NAMESPACE)
        await sio.manager.connect(sid, NAMESPACE)
        assert await fanout.hello(sid, seat, 3, {"seq": 3})
    sent.clear()
    events = [
        Event("draw", 1, {"count": 1}, {"cards": ["B4"]}),
        Event("round_over", None, {"scores": [3, 0]}),
    ]
    states = {s: {"seq": 5, "seat": s} for s in (0, 1, None)}
    await fanout.broadcast(4, 5, events, states, lambda s: {"seq": 5, "seat": s})
    for eio_sid, seat in (("e0", 0), ("e1", 1), ("espec", None)):
        got = [json.loads(text[len("42/table,") :]) for text in sent[eio_sid]]
        shown = [e.for_seat(seat) for e in events]
        assert got == [["events", {"seq": 5, "events": shown}], ["state", states[seat]]]
    assert "B4" in sent["e1"][0] and "B4" not in sent["e0"][0] + sent["espec"][0]
