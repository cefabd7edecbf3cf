"""A table's connections and what they are sent (protocol.md §3).

One :class:`Fanout` per table, used only by that table's task, so every message of a
table leaves in the order the table made its changes. Connections of the same seat share
a Socket.IO room (``table/seat``, ``table/-`` for spectators): a change computes one
view per seat that somebody watches, not one per tab. The last batches of events stay in
memory for ``resume``; each is also stored with its change (:func:`stored_batch`), so that
a table loaded after a restart starts with them again (:meth:`Fanout.remember`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Final

import socketio
from engineio import packet as eio_packet
from socketio import packet as sio_packet

from stoptable.core.protocol import JSON, Event
from stoptable.server.lean import Wire

NAMESPACE: Final = "/table"
HISTORY: Final = 512
"""Change batches kept in memory for ``resume``."""

StateOf = Callable[[int | None], dict[str, JSON]]
"""seat -> its ``state`` message now."""


Batch = tuple[int, int, list[Event]]
"""(seq before, seq after, events) of one change."""


def room(table_id: str, seat: int | None) -> str:
    return f"{table_id}/{'-' if seat is None else seat}"


def stored_batch(before: int, seq: int, events: Sequence[Event]) -> list[JSON]:
    """A change's events as the store keeps them for ``resume`` after a restart: whole
    (private parts included: the store is the server's own), shown per seat when sent."""
    return [
        before,
        seq,
        [
            {
                "kind": e.kind,
                "seat": e.seat,
                "public": dict(e.public),
                "private": None if e.private is None else dict(e.private),
            }
            for e in events
        ],
    ]


def batch_of(before: int, seq: int, events: list[dict[str, JSON]]) -> Batch:
    """A batch of :func:`stored_batch` read back."""
    out: list[Event] = []
    for e in events:
        public, private, seat = e.get("public"), e.get("private"), e.get("seat")
        out.append(
            Event(
                str(e.get("kind")),
                seat if isinstance(seat, int) else None,
                public if isinstance(public, dict) else {},
                private if isinstance(private, dict) else None,
            )
        )
    return (before, seq, out)


class Fanout:
    def __init__(
        self, table_id: str, sio: socketio.AsyncServer, resume_limit: int, shared: bool = False
    ) -> None:
        self.table_id = table_id
        self.shared = shared
        """Several processes (protocol.md §9): a room's connections may be on any of them,
        so every message goes through the Socket.IO manager (Redis), not straight to the
        local connections."""
        self.sio = sio
        self.resume_limit = resume_limit
        self.conns: dict[int | None, set[str]] = {}
        self.hello_seq: dict[str, int] = {}
        """Connection -> the seq of the state it got on connecting."""
        self.history: deque[Batch] = deque(maxlen=HISTORY)
        """(seq before, seq after, events) of the latest changes: those published here,
        after those a restart read back from the store (:meth:`remember`)."""

    def remember(self, batches: Sequence[Batch]) -> None:
        """Batches published before this process loaded the table (read from the store),
        so that a client that reconnects after a restart and resumes gets its missed
        events, not only a state (protocol.md §9)."""
        self.history.extendleft(reversed(batches))

    async def broadcast(
        self,
        before: int,
        seq: int,
        events: Sequence[Event],
        states: Mapping[int | None, dict[str, JSON]],
        state: StateOf,
    ) -> None:
        """A change from seq ``before`` to ``seq``: its events (if any), then the seat's
        state as it was at the change (``states``; ``state(seat)`` for a seat that joined
        its room after the change was made)."""
        if events:
            self.history.append((before, seq, list(events)))
        # A seat no event has private parts for sees the events as a spectator does: that
        # message is made and encoded once for all of them.
        private = {e.seat for e in events if e.private is not None}
        public: eio_packet.Packet | None = None
        for seat, sids in list(self.conns.items()):
            if not sids:
                continue
            message = states.get(seat)
            current = state(seat) if message is None else message
            target = room(self.table_id, seat)
            if self.shared:
                if events:
                    payload = {"seq": seq, "events": [e.for_seat(seat) for e in events]}
                    await self.sio.emit("events", payload, room=target, namespace=NAMESPACE)
                await self.sio.emit("state", current, room=target, namespace=NAMESPACE)
                continue
            packets: list[eio_packet.Packet] = []
            if events and seat in private:
                payload = {"seq": seq, "events": [e.for_seat(seat) for e in events]}
                packets.append(self._packet("events", payload))
            elif events:
                if public is None:
                    payload = {"seq": seq, "events": [e.for_seat(None) for e in events]}
                    public = self._packet("events", payload)
                packets.append(public)
            packets.append(self._packet("state", current))
            await self._to_room(target, packets)

    def _packet(self, event: str, data: JSON) -> eio_packet.Packet:
        """One Socket.IO event, encoded once for every connection of a room."""
        pkt = self.sio.packet_class(sio_packet.EVENT, namespace=NAMESPACE, data=[event, data])
        return eio_packet.Packet(eio_packet.MESSAGE, pkt.encode())

    async def _to_room(self, target: str, packets: list[eio_packet.Packet]) -> None:
        """Queue ``packets`` on every connection in ``target``, in order.

        What ``sio.emit(room=...)`` does, without its task per connection and the wait on
        them all (a fifth of a broadcast's cost): an Engine.IO send only puts the packet on
        the connection's queue, so awaiting it in turn keeps the order and never blocks.
        A lean connection (:mod:`.lean`) gets them all in one write.
        """
        eio = self.sio.eio
        texts: list[str] | None = None
        for _sid, eio_sid in self.sio.manager.get_participants(NAMESPACE, target):
            socket = eio.sockets.get(eio_sid)
            wire = getattr(socket, "queue", None)
            if isinstance(wire, Wire):
                if texts is None:
                    texts = [pkt.encode() for pkt in packets]
                await wire.send(socket, texts)
                continue
            for pkt in packets:
                await eio.send_packet(eio_sid, pkt)

    async def hello(self, sid: str, seat: int | None, seq: int, state: dict[str, JSON]) -> bool:
        """A new connection: it joins its seat's room and gets its first state.

        False, and nothing done, when the connection already left: its hello waits in the
        table's inbox behind other work, and a client may close in between (its bye follows).
        """
        try:
            await self.sio.enter_room(sid, room(self.table_id, seat), namespace=NAMESPACE)
        except (KeyError, ValueError):  # python-socketio's words for "no such connection"
            return False
        self.conns.setdefault(seat, set()).add(sid)
        self.hello_seq[sid] = seq
        await self.sio.emit("state", state, to=sid, namespace=NAMESPACE)
        return True

    def bye(self, sid: str, seat: int | None) -> bool:
        """A connection went; True if its seat has none left."""
        self.hello_seq.pop(sid, None)
        sids = self.conns.get(seat)
        if sids is None:
            return False
        sids.discard(sid)
        return not sids

    async def resume(
        self, sid: str, seat: int | None, after: int, seq: int, state: dict[str, JSON]
    ) -> None:
        """The events after ``after`` that this connection missed (those up to the state
        it got on connecting; it got the later ones live), then a state. Only the state
        when they are no longer all in memory or too many."""
        upto = self.hello_seq.get(sid, seq)
        batches = [b for b in self.history if after < b[1] <= upto]
        complete = bool(batches) and batches[0][0] <= after
        count = sum(len(b[2]) for b in batches)
        if after < upto and complete and count <= self.resume_limit:
            for _, batch_seq, events in batches:
                payload = {"seq": batch_seq, "events": [e.for_seat(seat) for e in events]}
                await self.sio.emit("events", payload, to=sid, namespace=NAMESPACE)
        await self.sio.emit("state", state, to=sid, namespace=NAMESPACE)
