"""A coach at a player's shoulder, with consent (issue 26, item 2), through the table layer
every host runs (``mattis.table.coaching``, the master and the session), with the host made
of lists of ``test_table_session``.

- A seated person asks for a coach link (``coach_link``) and gets it back alone; whoever opens
  it sees that seat's view and legal moves, and nothing of any other seat, over a whole game.
- The coach suggests a move (``suggest``): refused as the move itself would be, else shown to
  that seat's connections only, until the game moves on. The coach cannot play, deal, take
  back, ask for a hint, react, or make the person present.
- ``coach_revoke`` (or a new link) closes the coach's connections and the old link is refused.
- A coached game says so in its record (``coached``) and in its ledger row.
"""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any

import pytest

from mattis import Game, Rules
from mattis.table import (
    Connection,
    MessageCursor,
    Refusal,
    TableConfig,
    TableMaster,
    TableSession,
    finished_record,
)
from mattis.table.coaching import MAX_COACH_CONNECTIONS, coach_marker, split_coach_marks
from mattis.table.protocol import CLOSE_REFUSED
from mattis.table.rows import LedgerRow, Row

from .test_table_session import QUICK, Clock, ListHost, bots_move, commit, run

TWO_PEOPLE = {"players": 3, "seed": 31, "seats": [
    {"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]}


class WatchfulHost(ListHost):
    """A :class:`ListHost` that checks, as each state is sent to a coach, that it is exactly
    the coached seat's view and legal moves at that moment (nothing of another seat), and
    keeps every row stored."""

    def __init__(self) -> None:
        super().__init__()
        self.coach_states = 0
        self.rows: list[Row] = []

    async def store(self, rows: Any) -> None:
        await super().store(rows)
        self.rows.extend(rows)

    def send(self, connection: Connection[None], message: dict[str, Any]) -> None:
        if connection.coach and message.get("type") == "state":
            session = self.master.session
            game = session.game
            assert message["seat"] == connection.seat
            assert game is not None
            assert message["view"] == game.view(connection.seat, since=message["history_start"])
            assert message["view"]["hand"] == game.hand(connection.seat)
            legal = game.legal_actions() if game.to_move == connection.seat else []
            assert sorted(message["legal"]) == sorted(str(action) for action in legal)
            self.coach_states += 1
        super().send(connection, message)


def say(host: ListHost, connection: Connection[None], message: dict[str, Any]) -> str | None:
    return asyncio.run(host.master.receive(connection, json.dumps(message)))


def inbox(host: ListHost, connection: Connection[None], kind: str | None = None) -> list[dict[str, Any]]:
    return [message for message in host.inbox.get(id(connection), [])
            if kind is None or message.get("type") == kind]


def two_people(host: ListHost, request: dict[str, Any] = TWO_PEOPLE, clock: Clock | None = None,
               config: TableConfig = QUICK, **create: Any) -> TableSession:
    session, _, _, outcome = TableSession.create("T1", request, config, clock or Clock(), **create)
    host.table = TableMaster(host, session)
    commit(host, outcome)
    commit(host, session.join("Ola", create.get("player") and "ola-id")[2])
    return session


def coach_for(host: ListHost, person: Connection[None]) -> tuple[str, Connection[None]]:
    """Ask for a coach link from ``person``'s connection and open it: the link's secret and
    the coach's connection."""
    assert say(host, person, {"type": "coach_link"}) == "coach_link"
    url = inbox(host, person, "coach_link")[-1]["url"]
    assert url.startswith("/t/T1?coach=")
    token = url.split("coach=", 1)[1]
    coach = host.master.admit_coach(token, "en", None)
    host.master.connect(coach)
    return token, coach


def to_turn_of(host: ListHost, session: TableSession, seat: int, others: dict[int, Connection[None]]) -> None:
    """Play (the people first legal moves, the bots theirs) until ``seat`` is to move."""
    while session.game is not None and session.game.to_move != seat and not session.game.is_over:
        mover = session.game.to_move
        assert mover is not None
        if mover in others:
            action = str(session.state_message(MessageCursor(mover, "en"))["legal"][0])
            run(host, session, functools.partial(session.act, mover, action))
        else:
            bots_move(host, session)


def test_the_coach_sees_that_seat_alone_over_a_whole_game_and_everyone_sees_it_is_coached() -> None:
    host = WatchfulHost()
    session = two_people(host)
    kari, ola = host.open(session, 0), host.open(session, 1)
    token, coach = coach_for(host, kari)
    assert len(token) >= 32  # 24 random bytes: 192 bits
    assert inbox(host, ola, "coach_link") == []  # the link goes to the connection that asked, alone
    assert session.seats[0].connections == 1  # the coach made no one present
    joined = len(inbox(host, kari, "state"))
    for connection in (kari, ola, coach):
        seats = host.last(connection)["table"]["seats"]
        assert [seat["coached"] for seat in seats] == [True, False, False]
    assert host.last(kari)["coach"] == {"link": True, "suggestion": None}
    while session.game is not None and not session.game.is_over:
        to_turn_of(host, session, -1, {0: kari, 1: ola})
    assert host.coach_states > 20  # a state for every move, each checked as it was sent
    assert "result" in host.last(coach) and host.last(coach)["seat"] == 0
    # from the moment it came, the coach was sent exactly what the player was, and no more
    assert inbox(host, coach, "state") == inbox(host, kari, "state")[joined - 1:]
    assert [kind for kind in {message["type"] for message in inbox(host, coach)}] == ["state"]


def test_a_suggestion_is_checked_like_a_move_reaches_that_seat_alone_and_clears_when_play_goes_on() -> None:
    host = ListHost()
    session = two_people(host)
    kari, ola = host.open(session, 0), host.open(session, 1)
    _, coach = coach_for(host, kari)
    to_turn_of(host, session, 1, {0: kari, 1: ola})
    assert say(host, coach, {"type": "suggest", "action": "7h"}) is None
    assert inbox(host, coach, "error")[-1]["code"] == "not_your_turn"
    to_turn_of(host, session, 0, {0: kari, 1: ola})
    game = session.game
    assert game is not None
    legal = [str(action) for action in game.legal_actions()]
    not_held = next(code for code in game.hand(1) if code not in legal)
    for bad, code in ((not_held, "not_in_hand"), ("pass", "malformed"), ("x" * 17, "bad_message"),
                      (7, "bad_message")):
        say(host, coach, {"type": "suggest", "action": bad})
        assert inbox(host, coach, "error")[-1]["code"] == code, bad
    say(host, kari, {"type": "suggest", "action": legal[0]})  # a player does not suggest to herself
    assert inbox(host, kari, "error")[-1]["code"] == "bad_message"
    ola_before = len(inbox(host, ola))
    assert say(host, coach, {"type": "suggest", "action": legal[-1]}) == "suggest"
    suggestion = host.last(kari)["coach"]["suggestion"]
    assert suggestion["action"] == legal[-1] and suggestion["text"].startswith("Your coach suggests ")
    assert host.last(coach)["coach"]["suggestion"] == suggestion  # the coach sees what the player sees
    assert len(inbox(host, ola)) == ola_before  # nothing at all reaches another seat
    assert all(message.get("coach", {}).get("suggestion") is None for message in inbox(host, ola))
    nb = host.open(session, 0, "nb")  # a tab opened now shows it too, in its language
    assert host.last(nb)["coach"]["suggestion"]["text"].startswith("Treneren foreslår ")
    assert session.game is not None and session.game.num_actions == game.num_actions  # nothing was played
    run(host, session, lambda: session.act(0, legal[0]))  # the player ignores it
    assert host.last(kari)["coach"]["suggestion"] is None
    assert host.last(coach)["coach"]["suggestion"] is None


def test_the_coach_cannot_play_deal_take_back_hint_react_or_make_the_person_present() -> None:
    host, clock = ListHost(), Clock()
    session = two_people(host, clock=clock)
    kari, ola = host.open(session, 0), host.open(session, 1)
    token, coach = coach_for(host, kari)
    to_turn_of(host, session, 0, {0: kari, 1: ola})
    game = session.game
    assert game is not None
    moves = game.num_actions
    legal = host.last(coach)["legal"]
    assert legal  # the coach sees the legal moves ...
    for message in ({"type": "act", "action": legal[0]}, {"type": "hint"}, {"type": "again"},
                    {"type": "undo"}, {"type": "react", "reaction": "wow"}, {"type": "bot", "seat": 2},
                    {"type": "coach_link"}, {"type": "coach_revoke"}):
        assert say(host, coach, message) is None
        assert inbox(host, coach, "error")[-1]["code"] == "bad_message", message
    assert game.num_actions == moves and inbox(host, coach, "hint") == []  # ... and plays none
    host.master.disconnect(kari)  # Kari goes; her coach stays
    say(host, coach, {"type": "back"})
    assert session.seats[0].connections == 0 and session.seats[0].coaches == 1
    assert host.last(ola)["table"]["seats"][0]["connected"] is False
    clock.now += QUICK.absence_timeout or 0
    assert session.set_absent(0).changed and session.seats[0].stand_in  # a stand-in plays for her
    second = host.master.admit_coach(token, "en", None)
    host.master.connect(second)
    assert session.seats[0].stand_in  # a coach coming does not stop it


def test_revoking_closes_the_coach_at_once_and_the_old_link_is_refused_as_is_a_replaced_one() -> None:
    host = ListHost()
    session = two_people(host)
    kari, ola = host.open(session, 0), host.open(session, 1)
    first, coach = coach_for(host, kari)
    tab = host.master.admit_coach(first, "nb", None)
    host.master.connect(tab)
    second, new_coach = coach_for(host, kari)  # a new link replaces the old one
    for old in (coach, tab):
        assert inbox(host, old)[-2]["code"] == "coach_ended"
        assert inbox(host, old)[-1] == {"closed": CLOSE_REFUSED}
        assert old not in host.master.connections
    with pytest.raises(Refusal) as refused:
        host.master.admit_coach(first, "en", None)
    assert refused.value.code == "bad_token"
    assert host.last(ola)["table"]["seats"][0]["coached"] is True  # the new coach is here
    assert say(host, kari, {"type": "coach_revoke"}) == "coach_revoke"
    assert inbox(host, new_coach)[-1] == {"closed": CLOSE_REFUSED}
    assert "ended the coaching" in inbox(host, new_coach, "error")[-1]["message"]
    assert session.seats[0].coaches == 0 and session.seats[0].coach_hash is None
    assert host.last(ola)["table"]["seats"][0]["coached"] is False
    assert host.last(kari)["coach"] == {"link": False, "suggestion": None}
    with pytest.raises(Refusal) as refused:
        host.master.admit_coach(second, "en", None)
    assert refused.value.code == "bad_token"
    stored = host.store_rows.stored("T1")
    assert stored is not None and "coach" not in stored.seats[0]  # the ended link is gone from the store


def test_a_seat_has_at_most_a_few_coach_connections_and_the_device_has_no_coach() -> None:
    host = ListHost()
    session = two_people(host)
    kari = host.open(session, 0)
    token, _ = coach_for(host, kari)
    for _ in range(MAX_COACH_CONNECTIONS - 1):
        host.master.connect(host.master.admit_coach(token, "en", None))
    with pytest.raises(Refusal) as refused:
        host.master.admit_coach(token, "en", None)
    assert refused.value.code == "too_many_sockets"
    device = ListHost()
    alone, _, _, outcome = TableSession.create("D1", {"players": 3}, TableConfig(invite_prefix=None), Clock())
    device.table = TableMaster(device, alone)
    commit(device, outcome)
    person = device.open(alone, 0)
    say(device, person, {"type": "coach_link"})
    assert inbox(device, person, "error")[-1]["code"] == "no_coach"


def test_a_coached_game_says_so_in_its_record_its_ledger_row_and_after_a_restart() -> None:
    host = WatchfulHost()
    session = two_people(host, player="kari-id", group="G1")
    kari, ola = host.open(session, 0), host.open(session, 1)
    _, coach = coach_for(host, kari)
    stored = host.store_rows.stored("T1")
    assert stored is not None and stored.game is not None and coach_marker(0) not in stored.game.actions
    to_turn_of(host, session, 0, {0: kari, 1: ola})
    run(host, session, lambda: session.act(0, host.last(kari)["legal"][0]))
    to_turn_of(host, session, 0, {0: kari, 1: ola})
    stored = host.store_rows.stored("T1")
    assert stored is not None and stored.game is not None
    assert stored.game.actions.count(coach_marker(0)) == 1  # marked once, with the first move
    assert stored.game.record()["coached"] == [0]
    restored, _ = TableSession.restore(stored, QUICK, Clock())
    assert restored.coached == {0} and restored.record()["coached"] == [0]
    assert restored.seats[0].coach_hash == session.seats[0].coach_hash  # the link outlives a restart
    host.master.disconnect(coach)
    while session.game is not None and not session.game.is_over:
        to_turn_of(host, session, -1, {0: kari, 1: ola})
    record = finished_record(host.store_rows.game("T1", 1))
    assert record["coached"] == [0] and session.record()["coached"] == [0]
    plain = {key: kept for key, kept in record.items() if key != "coached"}
    assert Game.from_record(record).record() == plain
    [ledger] = [row for row in host.rows if isinstance(row, LedgerRow)]
    assert ledger.coached == (0,) and ledger.group == "G1"
    run(host, session, lambda: session.play_again(0))  # the next game, with no coach
    to_turn_of(host, session, 0, {0: kari, 1: ola})
    run(host, session, lambda: session.act(0, host.last(kari)["legal"][0]))
    game_two = host.store_rows.game("T1", 2)
    assert game_two is not None and "coached" not in game_two.record() and session.coached == set()


def test_records_with_and_without_coached_load_and_a_bad_one_is_refused() -> None:
    game = Game.new(Rules.preset("pagat"), 3, seed=4)
    game.apply(game.legal_actions()[0])
    plain = game.record()
    assert Game.from_record(plain).record() == plain  # an older record: no coached
    assert Game.from_record({**plain, "coached": [0, 2]}).record() == plain
    for bad in ([3], [0, 0], "0", [True], [-1]):
        with pytest.raises(ValueError, match="coached"):
            Game.from_record({**plain, "coached": bad})
    assert split_coach_marks(["7h", "coach:1", "Kd", "coach:1", "coach:0"]) == (["7h", "Kd"], [0, 1])
    with pytest.raises(ValueError):
        split_coach_marks(["coach:x"])
