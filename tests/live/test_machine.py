"""The live table machine without I/O: no database, no socket, a clock that is a number.

Rules of live play checked here: I-30 (a request is checked against the state at its
arrival time, whatever else fell due), S-62 (turn actions held during a grace, released in
arrival order, never offered as legal), protocol.md §4 (turn clocks, absences, stand-ins),
§5 (commit before ack before publish), §6 (a seat's state shows only its view), bots on
their schedule (turn-based after their think time, continuous-time on I-53's), a search
bot asked away from the loop, and the Stop it! simulator and the server's machine making
the same game.
"""

from __future__ import annotations

from typing import Any

from stoptable import games
from stoptable.bots.base import make_bot
from stoptable.core.protocol import JSON
from stoptable.core.records import RecordWriter
from stoptable.games.stopit.ruleset import sim_ruleset
from stoptable.games.stopit.state import StopItState
from stoptable.live.clock import TurnClock
from stoptable.live.effects import (
    Ack,
    AskBot,
    CatchUp,
    Commit,
    Effect,
    Greet,
    Publish,
    Refuse,
    SetPhase,
    WakeAt,
)
from stoptable.live.inputs import Act, BotReply, Connect, Leave, Resume, Start, Tick
from stoptable.live.machine import TableMachine, line_of
from stoptable.live.virtual import VirtualTable, play_virtual
from tests.server import toygame


def kinds(effects: list[Effect]) -> list[str]:
    return [type(e).__name__ for e in effects]


def toy(**kw: Any) -> TableMachine:
    """Two people at the dice race, in play, seat 0 to move with a 6 rolled."""
    spec = toygame.SPEC
    state = spec.new_state(spec.ruleset("race", {}), 2, 1)
    step = state.next_step()
    assert step is not None
    state.run_step(step, 6)
    return TableMachine(spec, state, playing=True, people=[0, 1], **kw)


def acks(effects: list[Effect]) -> dict[int, Effect]:
    return {e.ticket: e for e in effects if isinstance(e, Ack | Refuse)}


def test_I30_a_request_that_arrived_before_the_window_closed_finds_it_open() -> None:
    m = toy()
    first = m.feed(Act(0, {"type": "advance"}, 1000, ticket=1))
    assert isinstance(acks(first)[1], Ack)
    # the window (100 ms after the advance) is open until 1100; a bump stamped 1050 is
    # taken at its own time even when the table's clock is long past (the runner feeds it
    # before any later tick)
    out = m.feed(Act(1, {"type": "bump"}, 1050, ticket=2))
    assert isinstance(acks(out)[2], Ack)
    assert m.feed(Tick(5000))  # and the rest runs afterwards


def test_I30_a_request_that_arrived_after_the_window_closed_is_refused() -> None:
    m = toy()
    m.feed(Act(0, {"type": "advance"}, 1000, ticket=1))
    out = m.feed(Act(1, {"type": "bump"}, 1150, ticket=2))
    refusal = acks(out)[2]
    assert isinstance(refusal, Refuse) and refusal.reason == "nothing_pending"
    # the window closed at 1100, before the bump: its step was stored first
    commits = [e for e in out if isinstance(e, Commit)]
    assert commits and all(t <= 1150 for c in commits for _, t in c.lines)


def test_protocol_5_every_change_is_committed_before_its_ack_and_its_publish() -> None:
    m = toy()
    m.feed(Connect("c0", 0, 0))
    out = m.feed(Act(0, {"type": "advance"}, 10, ticket=7))
    assert kinds(out)[:3] == ["Commit", "Ack", "Publish"]
    commit, ack, publish = out[:3]
    assert isinstance(commit, Commit) and isinstance(ack, Ack) and isinstance(publish, Publish)
    assert commit.first == 1 and ack.seq == len(commit.lines)  # the action's own line
    assert publish.before == 0 and publish.seq == m.seq


def test_S62_turn_actions_are_held_during_the_grace_and_not_offered() -> None:
    m = toy()
    m.feed(Act(0, {"type": "stay"}, 100, ticket=1))  # grace of 50 ms: until 150
    assert m.grace_until == 150
    assert m.legal(1) == []  # stay/advance are held, so not legal now (S-62)
    out = m.feed(Act(1, {"type": "stay"}, 120, ticket=2))
    assert 2 not in acks(out)  # queued, acknowledged only once processed
    assert [h.seat for h in m.held] == [1]
    out = m.feed(Tick(149))
    assert 2 not in acks(out)
    out = m.feed(Tick(150))
    assert isinstance(acks(out)[2], Ack)
    assert m.held == []


def test_malformed_and_early_actions_change_nothing() -> None:
    m = toy()
    before = (m.seq, m.state.to_json())
    out = m.feed(Act(0, {"type": "fly"}, 10, ticket=1))
    assert isinstance(acks(out)[1], Refuse) and acks(out)[1].reason == "malformed"  # type: ignore[union-attr]
    assert (m.seq, m.state.to_json()) == before
    waiting = toy()
    waiting.playing = False
    out = waiting.feed(Act(0, {"type": "stay"}, 10, ticket=2))
    assert acks(out)[2].reason == "not_started"  # type: ignore[union-attr]


def test_start_sets_the_phase_and_publishes() -> None:
    m = toy()
    m.playing = False
    out = m.feed(Start(0))
    assert isinstance(out[0], SetPhase) and out[0].phase == "playing"
    assert isinstance(out[-1], Publish)


def test_protocol_6_a_connection_sees_only_its_seat_and_publishes_follow_who_watches() -> None:
    m = toy()
    greet = m.feed(Connect("a", 0, 0))
    assert isinstance(greet[0], Greet)
    view = greet[0].state["view"]
    assert isinstance(view, dict)
    assert view["seat"] == 0 and view["secret"] == m.state.secret[0]
    m.feed(Connect("w", None, 0))
    out = m.feed(Act(0, {"type": "stay"}, 10, ticket=1))
    publish = next(e for e in out if isinstance(e, Publish))
    assert set(publish.states) == {0, None}
    spectator = publish.states[None]
    assert spectator["legal"] == [] and spectator["view"]["secret"] is None  # type: ignore[index]
    m.feed(Leave("w", None, 20))
    out = m.feed(Tick(5000))
    assert all(set(e.states) == {0} for e in out if isinstance(e, Publish))


def test_resume_answers_with_the_state_now() -> None:
    m = toy()
    m.feed(Act(0, {"type": "stay"}, 10, ticket=1))
    out = m.feed(Resume("a", 1, 0, 20))
    assert isinstance(out[0], CatchUp) and out[0].after == 0 and out[0].seq == m.seq


def stop_table(**kw: Any) -> TableMachine:
    spec = games.spec("stop")
    state = spec.new("abacus-en", 2, 3)
    return TableMachine(spec, state, **kw)


def test_protocol_4_an_empty_bank_makes_the_seat_absent_and_the_standin_plays() -> None:
    clock = TurnClock(turn_s=0.2, bank_s=0.1, seats=2)
    m = stop_table(
        playing=True,
        people=[0, 1],
        clock=clock,
        bot_delay_ms=0,
        standin=lambda seat: make_bot("stop", "heuristic", seat, seat),
    )
    to_move = m.state.to_move()
    assert to_move is not None
    out = m.feed(Tick(299))
    assert to_move not in m.absent
    out = m.feed(Tick(300))  # 200 ms of turn and 100 of bank
    assert to_move in m.absent
    mine = [line for e in out if isinstance(e, Commit) for line, _ in e.lines]
    assert any(line.get("seat") == to_move for line in mine), "the stand-in moved"
    # any action from the seat's person makes it present again
    m.feed(Act(to_move, {"type": "call_stop"}, 400, ticket=1))
    assert to_move not in m.absent


def test_protocol_4_a_seat_whose_connections_are_gone_is_absent_after_its_turn_time() -> None:
    clock = TurnClock(turn_s=0.2, bank_s=60, seats=2)
    m = stop_table(playing=True, people=[0, 1], clock=clock)
    m.feed(Connect("b", 1, 0))
    out = m.feed(Leave("b", 1, 100))
    # the runner's timer is set for then: seat 0's 60 s bank would wake the table too late
    assert [e.t for e in out if isinstance(e, WakeAt)] == [300]
    m.feed(Tick(299))
    assert 1 not in m.absent
    m.feed(Tick(300))
    assert 1 in m.absent


def test_protocol_9_clock_and_absences_come_back_from_the_last_commit() -> None:
    """A restart rebuilds the machine from the live state stored with its last commit: the
    banks as that change left them, absent seats with their stand-ins, and the running
    seat's clock carrying on from the last line (the downtime is charged to nobody)."""

    def table(state: Any = None, **kw: Any) -> TableMachine:
        spec = games.spec("stop")
        return TableMachine(
            spec,
            spec.new("abacus-en", 2, 3) if state is None else state,
            playing=True,
            people=[0, 1],
            bot_delay_ms=0,
            standin=lambda seat: make_bot("stop", "heuristic", seat, seat),
            **kw,
        )

    m = table(clock=TurnClock(turn_s=0.2, bank_s=1, seats=2))
    mover = m.state.to_move()
    assert mover is not None
    line = line_of(m.legal(mover)[0])
    out = m.feed(Act(mover, line, 500, ticket=1))  # 300 ms over its turn time
    live = [e for e in out if isinstance(e, Commit)][-1].live
    # as the change found the clock: the mover's bank is charged when the next seat starts
    assert live == {
        "clock": {"banks_ms": [1000, 1000], "running": mover, "since": 0},
        "absent": [],
    }
    running = m.clock.running if m.clock is not None else None
    assert running is not None and running != mover
    expected = m.clock.to_json(600, set()) if m.clock is not None else {}
    # "restart" 5 s later with the same state: 100 ms into the running seat's turn again
    clock = TurnClock(turn_s=0.2, bank_s=1, seats=2)
    back = table(m.state, clock=clock, live=live, seq=m.seq, last_t=500)
    back.reopen(5000)
    assert back.clock is not None and back.clock.to_json(5100, set()) == expected
    assert expected["banks_ms"] == [700, 1000] if mover == 0 else [1000, 700]
    assert back.clock.gone_since == {0: 5000, 1: 5000}  # nobody is connected yet

    absent = table(
        clock=TurnClock(turn_s=0.2, bank_s=1, seats=2),
        live={"clock": live["clock"], "absent": [1]},
    )
    assert absent.absent == {1} and absent.player(1) is not None  # its stand-in plays
    garbled = table(clock=TurnClock(turn_s=0.2, bank_s=1, seats=2), live={"clock": {"x": 1}})
    assert garbled.clock is not None and garbled.clock.banks_ms == [1000, 1000]


def test_turn_based_bots_act_after_their_think_time() -> None:
    m = stop_table(
        playing=True,
        bots={0: make_bot("stop", "heuristic", 0, 1), 1: make_bot("stop", "heuristic", 1, 2)},
        bot_delay_ms=300,
    )
    assert not [e for e in m.feed(Tick(299)) if isinstance(e, Commit)]
    assert [e for e in m.feed(Tick(300)) if isinstance(e, Commit)]


class Searcher:
    """A turn-based bot that says it thinks long (like ISMCTS)."""

    thinks_long = True

    def __init__(self, seat: int) -> None:
        self.inner = make_bot("stop", "heuristic", seat, seat)

    def act(self, view: dict[str, JSON], legal: list[Any]) -> Any:
        return self.inner.act(view, legal)


def test_a_search_bot_is_asked_away_from_the_loop_and_the_table_waits() -> None:
    m = stop_table(playing=True, bots={0: Searcher(0), 1: Searcher(1)}, bot_delay_ms=0)
    out = m.feed(Tick(0))
    ask = out[-1]
    assert isinstance(ask, AskBot) and m.waiting == ask.question
    assert m.feed(Tick(10_000)) == []  # nothing else happens while it thinks
    seq = m.seq
    out = m.feed(BotReply(ask.seat, ask.question, ask.think(), 50))
    assert m.seq > seq and isinstance(out[0], Commit)


def stopit_bots(seed: int) -> dict[int, Any]:
    return {k: make_bot("stopit", "heuristic", k, seed * 16 + k) for k in range(3)}


def test_I50_the_simulator_and_the_server_machine_make_the_same_game() -> None:
    """One machine: on a virtual clock (the simulator) and fed ticks at every wake-up as a
    server would, the same seed and bots give the same record, line for line."""
    seed = 11
    spec = games.spec("stopit")
    writer = RecordWriter({"game": "stopit"})
    VirtualTable(
        spec, StopItState.new_game(sim_ruleset(), 3, seed), stopit_bots(seed), writer=writer
    ).run()
    simulated = writer.text().splitlines()[1:]

    state = StopItState.new_game(sim_ruleset(), 3, seed)
    m = TableMachine(spec, state, playing=True, bots=stopit_bots(seed), last_t=state.clock)
    served: list[dict[str, JSON]] = []
    t = 0
    for _ in range(100_000):
        out = m.feed(Tick(t))
        served += [line for e in out if isinstance(e, Commit) for line, _ in e.lines]
        if m.over:
            break
        wake = [e.t for e in out if isinstance(e, WakeAt)]
        t = max(t, wake[-1]) if wake else t
    assert m.over
    import orjson

    assert [orjson.dumps(line).decode() for line in served] == simulated[: len(served)]
    assert len(simulated) - len(served) <= 1  # the simulator's closing clock line


def test_I53_a_persons_request_goes_after_the_bot_requests_that_arrived_before_it() -> None:
    spec = games.spec("stopit")
    state = StopItState.new_game(sim_ruleset(), 2, 5)
    m = TableMachine(spec, state, playing=True, bots={1: make_bot("stopit", "heuristic", 1, 3)})
    m.feed(Tick(0))  # the bot looks at the table at 0 + its perceive delay
    reaction = m.reaction
    assert reaction is not None and reaction.queue
    due = reaction.queue[0][0]
    assert due > 0  # I-53: a public change is noticed after a perceive delay
    m.feed(Act(0, {"type": "go"}, due + 5000, ticket=1))
    assert all(item[0] > due + 5000 for item in reaction.queue)  # all that was due went first


def test_S62_stop_plays_to_its_end_on_a_virtual_clock_and_its_record_replays() -> None:
    """Stop in real time (S-62: graces, cancel windows, round pauses) between bots on the
    machine, with no server: the lines it commits are a record that replays to the same
    end."""
    spec = games.spec("stop")
    header = spec.header(spec.ruleset("abacus-en", {"target_score": 60}), 3, 8).to_json()
    lines: list[dict[str, JSON]] = []
    m = TableMachine(
        spec,
        spec.rebuild(header, []),
        playing=True,
        bots={k: make_bot("stop", "heuristic", k, k) for k in range(3)},
        round_pause_ms=2000,
        announce=False,
        on_line=lambda line, t: lines.append(line),
    )
    end = play_virtual(m)
    assert m.over and end > 0
    replayed = spec.rebuild(header, lines)
    assert replayed.result() == m.state.result()
    assert replayed.view(None) == m.state.view(None)
