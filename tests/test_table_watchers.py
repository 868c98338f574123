"""Spectators at a shared table, without a server (``mattis.table.watchers`` through the
master, with the list host of ``test_table_session``): the seatless view, reactions and
nothing else, the count every seat is told, at most 32, the players' switch to stop it, and
the leak run: no hand and no hidden card over whole games of every preset.
``docs/web.md`` ("Spectators") documents what is tested here."""

from __future__ import annotations

import asyncio
import bisect
import functools
import json
import random
from typing import Any

import pytest

from mattis import PRESET_NAMES, Game
from mattis.table import Connection, MessageCursor, TableSession
from mattis.table.protocol import CLOSE_REFUSED, CLOSE_TRY_LATER
from mattis.table.watchers import MAX_WATCHERS, Watchers

from .test_table_session import Clock, ListHost, bots_move, new_table, run
from .test_web_leak import codes_in, labels_in, seen_by


def spectate(host: ListHost, session: TableSession, token: str | None = None) -> Connection[None]:
    """A spectator's connection with the table's watch secret (or ``token``), connected."""
    connection = host.master.admit_spectator(session.watchers.token if token is None else token, "en", None)
    host.master.connect(connection)
    return connection


def say(host: ListHost, connection: Connection[None], message: dict[str, Any]) -> str | None:
    return asyncio.run(host.master.receive(connection, json.dumps(message)))


def inbox(host: ListHost, connection: Connection[None]) -> list[dict[str, Any]]:
    return host.inbox.get(id(connection), [])


def test_a_spectator_sees_the_public_view_and_every_seat_the_count() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 4})
    player = host.open(session, 0)
    for _ in range(2):  # a few moves, so there is a story to tell
        bots_move(host, session)
        legal = session.state_message(player.cursor)["legal"]
        run(host, session, functools.partial(session.act, 0, legal[0]))
    watcher = spectate(host, session)
    state = inbox(host, watcher)[0]
    assert state["type"] == "state" and state["seat"] is None and state["view"]["seat"] is None
    assert state["view"]["hand"] == [] and state["legal"] == [] and state["sorted_hand"] == []
    assert state["card_actions"] == {} and state["undo"] is False
    assert state["view"]["hand_sizes"] == session.state_message(player.cursor)["view"]["hand_sizes"]
    assert state["table"]["watchers"] == 1
    assert state["table"]["watch"] is None  # a spectator is not given the link
    assert not any(seat["you"] for seat in state["table"]["seats"])
    assert state["log"] and "advice" in state  # the story and what the player to move faces, from outside
    assert inbox(host, player)[-1] == {"type": "watchers", "count": 1, "allowed": True}
    mine = session.state_message(player.cursor)["table"]
    assert mine["watchers"] == 1 and mine["watch"] == f"/t/T1?watch={session.watchers.token}"
    host.master.disconnect(watcher)
    assert inbox(host, player)[-1] == {"type": "watchers", "count": 0, "allowed": True}
    assert session.watchers.count == 0


def test_a_spectator_cannot_act_but_may_react_as_often_as_a_seat() -> None:
    clock = Clock()
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 5}, clock)
    player = host.open(session, 0)
    bots_move(host, session)
    watcher = spectate(host, session)
    legal = session.state_message(player.cursor)["legal"]
    asked = [{"type": "act", "action": legal[0]}, {"type": "hint"}, {"type": "again"}, {"type": "undo"},
             {"type": "bot", "seat": 1}, {"type": "watching", "allowed": False}]
    for message in asked:
        assert say(host, watcher, message) is None
        refusal = inbox(host, watcher)[-1]
        assert refusal["type"] == "error" and refusal["code"] == "spectator", message
    assert session.game is not None and session.game.num_actions == 0 and session.game.to_move == 0
    assert session.state_message(player.cursor)["legal"] == legal  # nothing was played
    assert say(host, watcher, {"type": "react", "reaction": "wow"}) == "react"
    assert inbox(host, player)[-1] == {"type": "reaction", "seat": None, "reaction": "wow"}
    assert say(host, watcher, {"type": "react", "reaction": "phew"}) is None
    assert inbox(host, watcher)[-1]["code"] == "rate_limited"
    other = spectate(host, session)  # each spectator has its own limit, as each seat has
    assert say(host, other, {"type": "react", "reaction": "phew"}) == "react"
    clock.now += session.config.reaction_interval
    assert say(host, watcher, {"type": "react", "reaction": "thumbs_up"}) == "react"
    assert say(host, watcher, {"type": "react", "reaction": "free text"}) is None
    assert inbox(host, watcher)[-1]["code"] == "bad_message"
    assert say(host, watcher, {"type": "state"}) == "state"  # reading is fine
    assert inbox(host, watcher)[-1]["view"]["hand"] == []


def test_a_wrong_watch_token_or_a_seat_token_is_no_watch_link() -> None:
    host = ListHost()
    session, _, token = new_table(host, {"players": 3, "seed": 6})
    for wrong in ("", token, session.watchers.token[:-1], session.watchers.token + "x"):
        with pytest.raises(Exception) as refused:
            host.master.admit_spectator(wrong, "en", None)
        assert getattr(refused.value, "code", None) == "bad_token"
    assert session.seat_of(session.watchers.token) is None  # nor is the watch secret a seat
    assert len(session.watchers.token) >= 32  # 192 random bits, base64


def test_at_most_32_spectators_and_the_next_is_told_to_try_later() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 7})
    player = host.open(session, 0)
    watchers = [spectate(host, session) for _ in range(MAX_WATCHERS)]
    assert session.watchers.count == MAX_WATCHERS == 32
    with pytest.raises(Exception) as refused:
        host.master.admit_spectator(session.watchers.token, "en", None)
    assert getattr(refused.value, "code", None) == "too_many_watchers"
    late = Connection(None, session.cursor(None, "en"), plays=False)  # admitted before the room filled
    host.master.connect(late)
    assert inbox(host, late) == [inbox(host, late)[0], {"closed": CLOSE_TRY_LATER}]
    assert inbox(host, late)[0]["code"] == "too_many_watchers" and late not in host.master.connections
    host.master.disconnect(watchers[0])
    spectate(host, session)
    assert inbox(host, player)[-1]["count"] == MAX_WATCHERS


def test_players_can_turn_watching_off_and_on_and_the_setting_is_stored() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 9})
    player = host.open(session, 0)
    watchers = [spectate(host, session) for _ in range(2)]
    assert say(host, player, {"type": "watching", "allowed": False}) == "watching"
    for watcher in watchers:
        assert inbox(host, watcher)[-2]["code"] == "watching_off"
        assert inbox(host, watcher)[-1] == {"closed": CLOSE_REFUSED}
        host.master.disconnect(watcher)  # the host's socket closes afterwards: counted once
    assert session.watchers.count == 0 and not any(c.spectator for c in host.master.connections)
    assert inbox(host, player)[-1] == {"type": "watchers", "count": 0, "allowed": False}
    assert session.state_message(player.cursor)["table"]["watching"] is False
    with pytest.raises(Exception) as refused:
        spectate(host, session)
    assert getattr(refused.value, "code", None) == "watching_off"
    stored = host.store_rows.stored("T1")
    assert stored is not None and stored.match["watching"] is False
    restored, _ = TableSession.restore(stored)
    assert restored.watchers.allowed is False and restored.watchers.token == session.watchers.token
    assert say(host, player, {"type": "watching", "allowed": "yes"}) is None
    assert inbox(host, player)[-1]["code"] == "bad_message"
    assert say(host, player, {"type": "watching", "allowed": True}) == "watching"
    spectate(host, session)
    assert session.watchers.count == 1
    stored = host.store_rows.stored("T1")
    assert stored is not None and stored.match["watching"] is True


def test_turning_watching_off_is_undone_when_it_cannot_be_stored() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 10})
    player = host.open(session, 0)
    watcher = spectate(host, session)
    host.failing = True
    assert say(host, player, {"type": "watching", "allowed": False}) is None
    assert inbox(host, player)[-1]["code"] == "storage"
    assert session.watchers.allowed is True and watcher in host.master.connections


def test_a_table_stored_before_spectators_gets_a_watch_secret_once() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 11})
    run(host, session, lambda: session.set_watching(True))  # no change: nothing stored
    stored = host.store_rows.stored("T1")
    assert stored is not None
    old = {key: value for key, value in stored.match.items() if key not in ("watch", "watching")}
    older = type(stored)(table_id=stored.table_id, rules=stored.rules, players=stored.players,
                         seats=stored.seats, match=old, game=stored.game)
    restored, outcome = TableSession.restore(older)
    assert restored.watchers.allowed is True and len(restored.watchers.token) >= 32
    assert restored.watchers.token != session.watchers.token
    assert any(getattr(row, "match", {}).get("watch") == restored.watchers.token for row in outcome.rows)
    assert Watchers.from_stored({"watch": restored.watchers.token})[1] is False


# ---------------------------------------------------------------------- the leak run


def hands_in(value: object) -> list[object]:
    """Every value of a key ``hand`` anywhere in a JSON value."""
    found: list[object] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "hand":
                found.append(item)
            found += hands_in(item)
    elif isinstance(value, list):
        for item in value:
            found += hands_in(item)
    return found


def watched_game(preset: str, players: int, seed: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """One whole game: seat 0 plays random legal moves through the protocol (asking for a
    hint now and then), random robots the rest, and a spectator watches from the deal, as
    the server's sockets would carry it (each message through JSON); the spectator's
    messages and the game's record."""
    host = ListHost()
    seats = [{"kind": "human", "name": "Tester"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    session, _, _ = new_table(host, {"rules": preset, "players": players, "seats": seats, "seed": seed})
    player = host.open(session, 0)
    spectator = host.master.admit_spectator(session.watchers.token, "nb", None)
    host.master.connect(spectator)
    rng = random.Random(seed)

    async def ask(message: dict[str, Any]) -> None:
        await host.master.receive(player, json.dumps(message))
        await host.master.settled()

    while True:
        bots_move(host, session)
        state = session.state_message(MessageCursor(0, "en"))
        if state["view"]["phase"] == "over":
            break
        if rng.random() < 0.05:
            asyncio.run(ask({"type": "hint"}))
        asyncio.run(ask({"type": "act", "action": rng.choice(state["legal"])}))
        if rng.random() < 0.05:
            say(host, spectator, {"type": "react", "reaction": "wow"})
    assert any(message["type"] == "hint" for message in inbox(host, player)) or preset != "pagat"
    return [json.loads(json.dumps(message)) for message in inbox(host, spectator)], session.record()


@pytest.mark.parametrize(("preset", "players", "seeds"),
                         [(name, 3, (1, 2)) for name in PRESET_NAMES]
                         + [("kortregler", 2, (1,)), ("app", 5, (1,))])
def test_a_spectator_is_never_shown_a_hand_or_a_hidden_card(preset: str, players: int,
                                                             seeds: tuple[int, ...]) -> None:
    """The leak run (as ``test_web_leak``'s for a seat): every message a spectator gets over
    whole games of every preset has no hand (the key ``hand`` absent or empty), no legal move
    and no hint, and names no card before the public view has shown it to everyone (once the
    game is over every hand left is public, issue 15)."""
    for seed in seeds:
        watched, record = watched_game(preset, players, seed)
        replay = Game.from_record({**record, "actions": []})
        known: set[str] = set()
        by_events: dict[int, set[str]] = {}
        for action in [None, *record["actions"]]:
            if action is not None:
                replay.apply(action)
            known |= seen_by(replay.public_view(since=max(by_events, default=0)))  # new events only
            if replay.is_over:
                known |= {code for seat in range(replay.players) for code in replay.hand(seat)}
            by_events[replay.num_events] = set(known)
        events = states = 0
        counts = sorted(by_events)
        for message in watched:
            assert all(hand in ([], None) for hand in hands_in(message)), message
            kind = message["type"]  # (its own reactions may come too soon)
            assert kind in ("state", "watchers", "reaction") or message.get("code") == "rate_limited"
            text = json.dumps(message, ensure_ascii=False)
            assert '"deck"' not in text and '"seed"' not in text and '"start"' not in text
            if message["type"] == "state":
                states += 1
                assert message["seat"] is None and message["view"]["seat"] is None
                assert message["legal"] == [] and message["sorted_hand"] == []
                assert message["card_actions"] == {} and "hint" not in message
                assert not any(seat["you"] for seat in message["table"]["seats"])
                events = message["history_start"] + len(message["view"]["history"])
            named = codes_in(message) | labels_in([text])
            leaked = named - by_events[counts[bisect.bisect_right(counts, events) - 1]]
            assert not leaked, f"{sorted(leaked)} shown to a spectator before anyone knew them: {text[:300]}"
        assert states > 10 and watched[-1]["view"]["phase"] == "over" and watched[-1]["result"]["you"]
