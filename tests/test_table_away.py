"""Nobody plays for you unseen, and a move against robots can be taken back (issue 24, items
2 and 5), through the table layer every host runs (``mattis.table``), with the host made of
lists of ``test_table_session``.

- At a table whose only person plays robots, the game waits while they are away (their page
  hidden, ``{"type": "away"}``, or closed) and goes on when they come back: no clock, no
  stand-in.
- At a table with other people a robot stands in as before; back, the person alone is told
  what it played (``away_summary``), and the log says the robot played those moves.
- ``{"type": "undo"}`` takes back the person's last move and the robots' replies since, at a
  robots-only table: the game is replayed from its record without them, and the record keeps
  them, marked (``taken_back``), so ``Game.from_record`` gives the same game.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from mattis import Game
from mattis.table import Connection, MessageCursor, Refusal, TableMaster, TableSession, finished_record
from mattis.table.memory import MemoryStore
from mattis.table.rows import StoredGame
from mattis.table.takeback import fold_actions, undo_marker

from .test_table_session import QUICK, Clock, ListHost, bots_move, commit, new_table, play_out, run

TWO_PEOPLE = {"players": 3, "seed": 21, "seats": [
    {"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]}


def say(host: ListHost, connection: Connection[None], message: dict[str, Any]) -> str | None:
    """One socket message of ``connection``, as a host hands it to the master."""
    return asyncio.run(host.master.receive(connection, json.dumps(message)))


def messages(host: ListHost, connection: Connection[None], kind: str) -> list[dict[str, Any]]:
    return [message for message in host.inbox.get(id(connection), []) if message.get("type") == kind]


def first_move(session: TableSession, seat: int = 0) -> str:
    legal = session.state_message(MessageCursor(seat, "en"))["legal"]
    assert legal
    return str(legal[0])


# ---------------------------------------------------------------- away at a robots-only table


def test_a_robots_only_game_waits_while_its_person_is_away_and_goes_on_when_they_are_back() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 5})
    assert session.solo
    page = host.open(session, 0)
    bots_move(host, session)
    run(host, session, lambda: session.act(0, first_move(session)))
    assert session.bot_to_move and host.master.bots_may_move  # the robots reply ...
    assert say(host, page, {"type": "away"}) == "away"  # ... but the tab is hidden now
    assert session.waits_for_person and not host.master.bots_may_move
    assert host.last(page)["table"]["seats"][0]["connected"] is False  # it still gets the state
    moves = session.game.num_actions if session.game else 0
    assert asyncio.run(host.master.play_bot_turn(began=0.0)) is None  # a turn begun before: not played
    assert session.game is not None and session.game.num_actions == moves
    host.master.disconnect(page)  # the tab closes too: still no clock, nobody stands in
    assert host.clock_seats() == [] and not session.set_absent(0).changed
    assert not session.seats[0].stand_in
    back = host.open(session, 0)
    assert not session.waits_for_person and host.master.bots_may_move
    assert say(host, back, {"type": "away"}) == "away" and say(host, back, {"type": "back"}) == "back"
    assert host.master.bots_may_move and messages(host, back, "away_summary") == []
    assert bots_move(host, session) > 0


def test_a_second_tab_keeps_the_person_present_while_one_is_hidden() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 6})
    first, second = host.open(session, 0), host.open(session, 0)
    say(host, first, {"type": "away"})
    say(host, first, {"type": "away"})  # said twice: counted once
    assert not session.waits_for_person and session.seats[0].connections == 1
    host.master.disconnect(first)  # a hidden tab closing does not count the person out again
    assert session.seats[0].connections == 1
    say(host, second, {"type": "away"})
    assert session.waits_for_person


# ---------------------------------------------------------------- a stand-in at a table of people


def test_back_from_a_stand_in_the_person_alone_is_told_what_it_played_and_the_log_says_so() -> None:
    host, clock = ListHost(), Clock()
    session, _, _ = new_table(host, TWO_PEOPLE, clock)
    commit(host, session.join("Ola")[2])
    assert not session.solo
    kari, ola = host.open(session, 0), host.open(session, 1, "nb")
    say(host, ola, {"type": "away"})  # Ola's tab is hidden: his absence clock starts
    assert host.clock_seats()[-1] == 1
    clock.now += QUICK.absence_timeout or 0
    host.clocks[-1][1]()
    assert session.seats[1].stand_in
    played: list[str] = []
    while not played or len(played) < 2:  # Kari plays, the bots and Ola's stand-in answer
        game = session.game
        assert game is not None and not game.is_over
        if game.to_move == 0:
            run(host, session, lambda: session.act(0, first_move(session)))
            continue
        mover = game.to_move
        assert asyncio.run(host.master.play_bot_turn())
        if mover == 1:
            played.append(str(game.actions[-1]))
    assert messages(host, ola, "away_summary") == []  # not while he is away
    say(host, ola, {"type": "back"})
    assert not session.seats[1].stand_in
    [summary] = messages(host, ola, "away_summary")
    assert summary["actions"] == played
    assert summary["text"].startswith("Mens du var borte, spilte en robot ")
    assert summary["text"].endswith(" for deg") and " og " in summary["text"]
    assert messages(host, kari, "away_summary") == []  # what Ola's robot played is told to Ola alone
    say(host, ola, {"type": "state"})
    assert len(messages(host, ola, "away_summary")) == 1  # told once
    ola_log = [entry.text for entry in session.log_of(1, "nb").entries]
    assert sum(line.startswith("En robot ") and line.endswith("for deg") for line in ola_log) == len(played)
    kari_log = [entry.text for entry in session.log_of(0, "en").entries]
    ola_name = session.seats[1].name  # "Ola 2": the bot took "Ola" first
    by_robot = [line for line in kari_log if line.startswith("A robot ") and line.endswith(f"for {ola_name}")]
    assert len(by_robot) == len(played)
    fresh = host.open(session, 1, "en")  # a new tab's log, replayed from the deal, says it too
    replayed = host.last(fresh)["log"]
    assert sum(line.startswith("A robot ") and line.endswith("for you") for line in replayed) == len(played)


def test_the_summary_is_in_the_readers_language() -> None:
    host, clock = ListHost(), Clock()
    session, _, _ = new_table(host, TWO_PEOPLE, clock)
    commit(host, session.join("Ola")[2])
    host.open(session, 0)
    clock.now += QUICK.absence_timeout or 0
    session.set_absent(1)  # Ola never came: a robot stands in
    assert session.seats[1].stand_in
    while session.game is not None and session.game.to_move != 1:
        if session.game.to_move == 0:
            run(host, session, lambda: session.act(0, first_move(session)))
        else:
            assert asyncio.run(host.master.play_bot_turn())
    assert asyncio.run(host.master.play_bot_turn())
    ola = host.open(session, 1, "en")
    [summary] = messages(host, ola, "away_summary")
    assert summary["text"].startswith("While you were away, a robot played ")
    assert summary["text"].endswith(" for you")


# ---------------------------------------------------------------- taking moves back


def test_undo_takes_back_the_persons_last_move_and_the_robots_replies_from_the_record() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 11})
    page = host.open(session, 0)
    bots_move(host, session)
    assert host.last(page)["undo"] is False  # no move of theirs yet
    assert say(host, page, {"type": "undo"}) is None
    assert host.last(page)["code"] == "cannot_undo"
    game = session.game
    assert game is not None
    before = game.copy()
    moves_before = game.num_actions
    mine = first_move(session)
    run(host, session, lambda: session.act(0, mine))
    bots_move(host, session)
    after = session.game.copy() if session.game else None
    replies = (after.num_actions if after else 0) - moves_before - 1
    assert replies > 0 and host.last(page)["undo"] is True
    assert say(host, page, {"type": "undo"}) == "undo"
    assert session.game == before and session.game.to_move == 0  # just before the person's move
    state = host.last(page)
    assert state["history_start"] == 0 and state["takebacks"] == 1  # the page draws afresh
    assert len(state["view"]["history"]) == state["view"]["event_count"] == before.num_events
    assert session.taken_back == [{"at": moves_before, "actions": [
        str(action) for action in after.actions[moves_before:]]}] if after else False
    run(host, session, lambda: session.act(0, mine))  # the same move again: the same replies
    bots_move(host, session)
    assert session.game == after
    stored = host.store_rows.stored("T1")
    assert stored is not None and stored.game is not None
    assert stored.game.actions[moves_before + 1 + replies] == undo_marker(moves_before)
    record = stored.game.record()
    assert Game.from_record(record) == session.game  # the record replays to the game as it stands
    assert record["taken_back"] == session.taken_back
    restored, _ = TableSession.restore(stored, QUICK)  # a restart: the same game, the same undo
    assert restored.game == session.game and restored.taken_back == session.taken_back
    assert restored.undo_point(0) == session.undo_point(0) == moves_before
    finished = play_out(host, session, page)
    assert finished["undo"] is False  # the game is over: nothing to take back
    over = host.store_rows.game("T1", 1)
    record = finished_record(over)
    assert record["taken_back"] == session.taken_back == session.record()["taken_back"]
    assert Game.from_record(record) == session.game
    assert Game.from_record(json.loads(json.dumps(record))).record()["actions"] == record["actions"]


def test_undo_again_goes_back_one_more_move_of_the_person() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 12})
    page = host.open(session, 0)
    positions = []
    for _ in range(3):
        bots_move(host, session)
        assert session.game is not None
        positions.append(session.game.copy())
        run(host, session, lambda: session.act(0, first_move(session)))
    bots_move(host, session)
    for position in reversed(positions):
        assert say(host, page, {"type": "undo"}) == "undo"
        assert session.game == position
    assert say(host, page, {"type": "undo"}) is None and host.last(page)["code"] == "cannot_undo"
    stored = host.store_rows.stored("T1")
    assert stored is not None and stored.game is not None and session.game is not None
    actions, taken_back = fold_actions(stored.game.actions)
    assert len(taken_back) == 3 and actions == [str(a) for a in session.game.actions]


def test_undo_is_only_for_a_robots_only_table_and_a_failed_store_changes_nothing() -> None:
    host, clock = ListHost(), Clock()
    session, _, _ = new_table(host, TWO_PEOPLE, clock)
    commit(host, session.join("Ola")[2])
    kari = host.open(session, 0)
    while session.game is not None and session.game.to_move != 0:
        assert asyncio.run(host.master.play_bot_turn()) or session.game.to_move == 1
        if session.game.to_move == 1:
            run(host, session, lambda: session.act(1, first_move(session, 1)))
    run(host, session, lambda: session.act(0, first_move(session)))
    assert host.last(kari)["undo"] is False
    with pytest.raises(Refusal) as refused:
        session.take_back(0)
    assert refused.value.code == "cannot_undo" and refused.value.status == 409
    assert "robots" in refused.value.message("en")

    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 13})
    page = host.open(session, 0)
    bots_move(host, session)
    run(host, session, lambda: session.act(0, first_move(session)))
    bots_move(host, session)
    game = session.game.copy() if session.game else None
    host.failing = True
    assert say(host, page, {"type": "undo"}) is None and host.last(page)["code"] == "storage"
    assert session.game == game and session.taken_back == [] and session.undo_point(0) is not None
    host.failing = False
    assert say(host, page, {"type": "undo"}) == "undo" and len(session.taken_back) == 1


def test_a_robot_move_chosen_before_a_takeback_is_not_played_after_it() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 14})
    host.open(session, 0)
    bots_move(host, session)
    run(host, session, lambda: session.act(0, first_move(session)))
    turn = session.bot_move_due()
    assert turn is not None and turn.decision is not None
    run(host, session, lambda: session.take_back(0))
    run(host, session, lambda: session.act(0, first_move(session)))  # the same position again
    assert session.bot_act(turn, turn.decision) is None  # but chosen before the takeback


def test_a_master_of_a_restored_table_waits_for_its_person() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 15})
    host.open(session, 0)
    bots_move(host, session)
    run(host, session, lambda: session.act(0, first_move(session)))
    stored = host.store_rows.stored("T1")
    assert stored is not None
    restored, outcome = TableSession.restore(stored, QUICK)
    fresh = ListHost()
    fresh.store_rows, fresh.table = host.store_rows, TableMaster(fresh, restored)
    assert outcome.timers == () and restored.bot_to_move and not fresh.master.bots_may_move
    fresh.open(restored, 0)
    assert fresh.master.bots_may_move


def test_a_restored_table_still_says_which_moves_a_stand_in_played() -> None:
    """What a robot played for a person away is stored with each move: the log of the table
    restored from its rows (a server restart, the app opened again) says so too, and a
    stand-in's move taken back is no longer marked."""
    host, clock = ListHost(), Clock()
    session, _, _ = new_table(host, TWO_PEOPLE, clock)
    commit(host, session.join("Ola")[2])
    host.open(session, 0)
    clock.now += QUICK.absence_timeout or 0
    session.set_absent(1)
    while len(session.stand_in_moves) < 2:
        game = session.game
        assert game is not None and not game.is_over
        if game.to_move == 0:
            run(host, session, lambda: session.act(0, first_move(session)))
        else:
            assert asyncio.run(host.master.play_bot_turn())
    stored = host.store_rows.stored(session.table_id)
    assert stored is not None and stored.game is not None
    restored, _ = TableSession.restore(stored)
    assert restored.stand_in_moves == session.stand_in_moves
    lines = [entry.text for entry in restored.log_of(1, "en").entries]
    assert sum(line.startswith("A robot ") and line.endswith("for you") for line in lines) == 2
    again = MemoryStore.from_data(json.loads(json.dumps(host.store_rows.to_data())))  # saved on a device
    assert again.stored(session.table_id) == stored
    # a takeback of the last stand-in move leaves it out
    last = max(session.stand_in_moves)
    taken = StoredGame(stored.game.number, stored.game.start, (*stored.game.actions, undo_marker(last)),
                       False, stored.game.stand_ins)
    assert taken.stand_in_moves() == session.stand_in_moves - {last}
