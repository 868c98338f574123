"""What the card table page is sent beyond the view (issue 15), checked on a
:class:`TableSession` without a server: the last completed trick, advice for every seat,
every hand in the result, whose table it is, and quick reactions.

Rule numbers: P1.1 (a won trick goes to the winner's pile), P1.8 (an unfinished trick is
taken back), P2.4 (a pick-up), P2.6 (a complete phase-2 trick is cleared), P1.9 (won piles
join the hands), P1.5 (wars).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from mattis import PRESET_NAMES
from mattis.core.events import EventKind
from mattis.table import MessageCursor, Refusal, TableConfig, TableSession
from mattis.table.session import REACTIONS
from mattis.table.tricks import TrickWatcher

from .test_table_session import QUICK, Clock, ListHost, new_table, run

COMPLETING = {EventKind.WON: "won", EventKind.CLEAR: "cleared", EventKind.BACK: "taken_back"}


def random_table(preset: str, players: int, seed: int, changes: dict[str, Any] | None = None,
                 config: TableConfig = QUICK) -> TableSession:
    seats = [{"kind": "human", "name": "Kari"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    session, _, _, _ = TableSession.create("T", {"rules": preset, "players": players, "seats": seats,
                                                 "seed": seed, "set": changes or {}}, config)
    return session


def step(session: TableSession, rng: random.Random) -> None:
    """One move by whoever is to move: a bot's own choice, or a random legal move."""
    game = session.game
    assert game is not None and game.to_move is not None
    turn = session.bot_move_due()
    if turn is None:
        session.act(game.to_move, str(rng.choice(game.legal_actions())))
    else:
        assert session.bot_act(turn, turn.action or session.fallback_move(turn)) is not None


def play_recording(session: TableSession, seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A whole game, each seat's state read after every move; returns seat 0's and the last
    seat's messages."""
    rng = random.Random(seed)
    first, last = MessageCursor(0, "en"), MessageCursor(session.players - 1, "nb")
    mine, theirs = [session.state_message(first)], [session.state_message(last)]
    game = session.game
    assert game is not None
    while not game.is_over:
        step(session, rng)
        mine.append(session.state_message(first))
        theirs.append(session.state_message(last))
    return mine, theirs


CASES: list[tuple[str, int, dict[str, Any]]] = [(name, 3, {}) for name in PRESET_NAMES] + [
    ("kortregler", 2, {}), ("app", 5, {}), ("pagat", 4, {"nothing_left": "must_pick_up"}),
    ("pagat", 6, {}), ("kortregler", 3, {"min_sequence": 2})]


@pytest.mark.parametrize(("preset", "players", "changes"), CASES)
def test_every_completed_trick_reaches_every_seat_once_with_all_its_cards_p1_1_p2_6(
        preset: str, players: int, changes: dict[str, Any]) -> None:
    for seed in (1, 2, 3):
        session = random_table(preset, players, seed, changes)
        mine, theirs = play_recording(session, seed)
        game = session.game
        assert game is not None
        history = game.history
        expected = {number: event for number, event in enumerate(history) if event.kind in COMPLETING}
        shown = [m["last_trick"] for m in mine]
        assert shown[0] is None  # nothing has been completed at the deal
        assert [m["last_trick"] for m in theirs] == shown  # public: the same for every seat
        numbers = [trick["number"] for trick in shown if trick is not None]
        distinct = list(dict.fromkeys(numbers))
        assert distinct == sorted(expected), "each completed trick arrives once, in order"
        for number in distinct:
            trick = next(t for t in shown if t is not None and t["number"] == number)
            event = expected[number]
            cards = [code for _, codes in trick["cards"] for code in codes]
            assert len(cards) == len(set(cards)) == len(event.cards), (preset, seed, trick)
            assert set(cards) == set(event.cards)
            assert trick["reason"] == COMPLETING[event.kind]
            assert trick["winner"] == event.seat
            played_by = {(e.seat, code) for e in history[:number]
                         if e.kind in (EventKind.PLAY, EventKind.CHANCE) for code in e.cards}
            assert all((seat, code) in played_by for seat, codes in trick["cards"] for code in codes)


def test_the_won_piles_are_exactly_the_won_tricks_p1_1() -> None:
    session = random_table("pagat", 3, 5)
    rng = random.Random(5)
    reader = MessageCursor(0, "en")
    won: Counter[int] = Counter()
    numbers: set[int] = set()
    game = session.game
    assert game is not None
    while game.phase == "collect":
        step(session, rng)
        message = session.state_message(reader)
        trick = message["last_trick"]
        if trick is not None and trick["number"] not in numbers:
            numbers.add(trick["number"])
            if trick["reason"] == "won":
                won[trick["winner"]] += sum(len(codes) for _, codes in trick["cards"])
        if game.phase == "collect":
            assert [won[s] for s in range(3)] == message["view"]["won_sizes"]
    assert numbers


def test_a_trick_taken_back_at_the_end_of_phase_1_is_shown_too_p1_8() -> None:
    found = 0
    for seed in range(40):
        session = random_table("pagat", 4, seed)
        game = session.game
        assert game is not None
        rng = random.Random(seed)
        while not game.is_over:
            step(session, rng)
        backs = [number for number, event in enumerate(game.history) if event.kind is EventKind.BACK]
        if backs:
            trick = session.last_trick()
            watcher = TrickWatcher()
            watcher.feed(game.raw_events_since(0)[: backs[0] + 1])
            assert watcher.last is not None and watcher.last["reason"] == "taken_back"
            assert watcher.last["winner"] is None and watcher.last["number"] == backs[0]
            assert trick is not None
            found += 1
    assert found, "no game of 40 ended phase 1 in the middle of a trick"


def test_a_pickup_takes_the_oldest_play_out_of_the_trick_being_built_p2_4() -> None:
    watcher = TrickWatcher()
    play, pickup, clear, shed = EventKind.PLAY, EventKind.PICKUP, EventKind.CLEAR, EventKind.SHED
    watcher.feed([(shed, 0, 0), (play, 0, 1 << 0), (play, 1, 1 << 5), (pickup, 2, 1 << 0),
                  (play, 2, 1 << 6), (play, 0, 1 << 7), (clear, 0, (1 << 5) | (1 << 6) | (1 << 7))])
    assert watcher.last is not None
    assert [seat for seat, _ in watcher.last["cards"]] == [1, 2, 0]
    assert watcher.last["reason"] == "cleared" and watcher.last["winner"] == 0
    assert watcher.last["number"] == 6 and watcher.seen == 7


def test_an_undone_move_takes_its_trick_back_out_of_the_messages() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 3, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "open"}]})
    session.join("Ola")
    session.join("Per")  # three people: every move goes through act, so each can be undone
    rng = random.Random(1)
    undone = 0
    for _ in range(60):
        game = session.game
        assert game is not None and game.to_move is not None
        before = json.dumps(session.state_message(MessageCursor(0, "en"))["last_trick"])
        outcome = session.act(game.to_move, str(rng.choice(game.legal_actions())))
        after = session.state_message(MessageCursor(0, "en"))["last_trick"]
        if after is not None and json.dumps(after) != before:
            session.undo(outcome)  # the move could not be stored: its trick was never completed
            assert json.dumps(session.state_message(MessageCursor(0, "en"))["last_trick"]) == before
            undone += 1
            game = session.game
            assert game is not None and game.to_move is not None
            session.act(game.to_move, str(game.legal_actions()[0]))
    assert undone >= 3


def test_every_seat_is_told_what_happens_next_not_only_the_one_to_move() -> None:
    wars = 0
    for preset, players in (("pagat", 3), ("kortregler", 2), ("app", 4)):
        session = random_table(preset, players, 11)
        game = session.game
        assert game is not None
        rng = random.Random(11)
        readers = [MessageCursor(seat, "en") for seat in range(players)]
        while not game.is_over:
            for reader in readers:
                message = session.state_message(reader)
                if game.to_move is not None:
                    assert message["advice"], (preset, reader.seat, message["view"]["phase"])
                    if reader.seat != game.to_move:
                        mover = session.seats[game.to_move].name
                        assert mover in message["advice"] or "Seat" in message["advice"]
                        assert not message["legal"]
                    if game.tie:
                        assert message["advice"].startswith("War!")  # P1.5: a war is announced
                        wars += 1
            step(session, rng)
        assert "advice" not in session.state_message(readers[0])
    assert wars, "no war in these games: the test checks nothing about wars"


def test_the_mover_keeps_the_advice_about_their_own_hand() -> None:
    session = random_table("pagat", 3, 4)
    message = session.state_message(MessageCursor(0, "en"))
    assert message["legal"] and message["advice"].startswith("You lead")
    other = session.state_message(MessageCursor(1, "en"))
    assert other["advice"].startswith("Kari leads")


def test_the_result_shows_every_hand_the_order_out_and_who_is_mattis() -> None:
    for preset, players, seed in (("pagat", 3, 2), ("app", 5, 3), ("kortregler", 2, 4)):
        session = random_table(preset, players, seed)
        mine, _ = play_recording(session, seed)
        game = session.game
        assert game is not None and game.result is not None
        result = mine[-1]["result"]
        assert result["hands"] == [game.hand(seat) for seat in range(players)]
        assert result["losers"] == list(game.result.losers)
        assert result["order"] == list(game.result.out_order)
        assert result["lost_on_empty"] == game.result.lost_on_empty
        if not game.result.lost_on_empty:
            assert all(not result["hands"][seat] for seat in result["order"])
            assert all(result["hands"][seat] for seat in result["losers"])
        assert all("result" not in message for message in mine[:-1])


def test_the_invite_page_learns_whose_table_it_is_and_how_many_seats_are_free() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 4, "seats": [
        {"kind": "bot"}, {"kind": "human", "name": "Siri"}, {"kind": "open"}, {"kind": "open"}]})
    summary = session.summary()
    assert summary["host"] == {"seat": 1, "name": "Siri"} and summary["open_seats"] == 2
    run(host, session, lambda: session.join("Ola")[2])
    summary = session.summary()
    assert summary["host"]["name"] == "Siri" and summary["open_seats"] == 1
    stored = host.store_rows.stored("T1")
    assert stored is not None
    restored, _ = TableSession.restore(stored, QUICK)
    assert restored.summary()["host"] == {"seat": 1, "name": "Siri"}
    assert session.state_message(MessageCursor(1, "en"))["table"]["host"] == 1


def test_a_newcomer_with_a_bots_name_gets_a_number_and_the_bot_keeps_its_name() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "bot", "name": "Siri"}, {"kind": "open"}]})
    seat, _, _ = session.join("siri")
    assert session.seats[1].name == "Siri" and session.seats[seat].name == "siri 2"


def test_reactions_are_a_fixed_few_and_one_per_seat_every_few_seconds() -> None:
    clock = Clock()
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3}, clock)
    assert session.state_message(MessageCursor(0, "en"))["table"]["reactions"] == list(REACTIONS)
    assert session.react(0, "thumbs_up") == {"type": "reaction", "seat": 0, "reaction": "thumbs_up"}
    with pytest.raises(Refusal) as refused:
        session.react(0, "wow")
    assert refused.value.code == "rate_limited"
    assert session.react(1, "well_played")["seat"] == 1  # another seat has its own clock
    for bad in ("Hei alle sammen", "", None, 7, ["wow"]):
        with pytest.raises(Refusal) as refused:
            session.react(2, bad)
        assert refused.value.code == "bad_message"
    clock.now += QUICK.reaction_interval
    assert session.react(0, "wow")["reaction"] == "wow"
