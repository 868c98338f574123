"""What the card table page is sent beyond the view (issue 15), checked on a
:class:`TableSession` without a server: the last completed trick, advice for every seat,
every hand in the result, whose table it is, and quick reactions.

Rule numbers: P1.1 (a won trick goes to the winner's pile), P1.8 (an unfinished trick is
taken back), P2.4 (a pick-up), P2.6 (a complete phase-2 trick is cleared), P1.9 (won piles
join the hands), P1.5 (wars), P1.3 (only rank counts in phase 1, so a hand is held by rank),
P2.5 (trumps, held last in phase 2), P2.2 (sequences).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from mattis import PRESET_NAMES, Game, Rules
from mattis.core.events import EventKind
from mattis.table import MessageCursor, Refusal, TableConfig, TableSession
from mattis.table.page import add_page_facts, rules_facts
from mattis.table.session import REACTIONS
from mattis.table.tricks import TrickWatcher

from .test_bots import stacked
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
            watcher = TrickWatcher(session.rules)
            watcher.feed(game.raw_events_since(0)[: backs[0] + 1])
            assert watcher.last is not None and watcher.last["reason"] == "taken_back"
            assert watcher.last["winner"] is None and watcher.last["number"] == backs[0]
            assert trick is not None
            found += 1
    assert found, "no game of 40 ended phase 1 in the middle of a trick"


def test_a_pickup_takes_the_oldest_play_out_of_the_trick_being_built_p2_4() -> None:
    watcher = TrickWatcher(Rules())
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


# ---------------------------------------------------------------- what the page no longer works out
# (issue 23, item 5: the page draws and does not think). Hand-built positions pin the rules;
# whole games check that every message agrees with its own view and legal moves.


def page_facts(game: Game, seat: int) -> dict[str, Any]:
    """The page's part of a state message for ``seat`` of a bare game."""
    legal = game.legal_actions() if game.to_move == seat else []
    return add_page_facts({"view": game.view(seat)}, game, legal)


def dealt(rules: str | Rules, hands: dict[int, Sequence[str]], *moves: str) -> Game:
    """Three players, the dealer last, so seat 0 leads (C3); then ``moves``."""
    game = Game.new(rules, 3, deck=stacked(3, hands))
    for move in moves:
        game.apply(move)
    return game


def watched(game: Game) -> dict[str, Any] | None:
    watcher = TrickWatcher(game.rules)
    watcher.feed(game.raw_events_since(0))
    return watcher.last


def test_the_hand_is_sent_in_the_order_players_hold_it_p1_3_p2_5() -> None:
    collecting = dealt("pagat", {0: ["Ks", "2c", "Kh"]})
    assert page_facts(collecting, 0)["sorted_hand"] == ["2c", "Kh", "Ks"]  # phase 1: rank alone counts
    hand = ["As", "2c", "Kh", "5d", "3s", "Jh"]
    spades = Game.from_hands("pagat", [hand, ["4c", "6c"]], trump="s", leader=1)
    assert page_facts(spades, 0)["sorted_hand"] == ["2c", "Jh", "Kh", "5d", "3s", "As"]  # trumps last
    hearts = Game.from_hands("pagat", [hand, ["4c", "6c"]], trump="h", leader=1)
    assert page_facts(hearts, 0)["sorted_hand"] == ["2c", "3s", "As", "5d", "Jh", "Kh"]


def test_each_card_lists_the_plays_it_starts_and_a_sequence_is_under_each_of_its_cards_p2_2() -> None:
    leading = Game.from_hands("pagat", [["6h", "7h", "8h", "2c"], ["4c", "5c"]], trump="s", leader=0)
    plays = page_facts(leading, 0)["card_actions"]
    assert plays == {"2c": ["2c"], "6h": ["6h", "6h-7h", "6h-8h"], "7h": ["6h-7h", "6h-8h", "7h", "7h-8h"],
                     "8h": ["6h-8h", "7h-8h", "8h"]}
    assert page_facts(leading, 1)["card_actions"] == {}  # not this seat's turn
    beating = Game.from_hands("pagat", [["6h", "7h", "9c", "2c"], ["5c", "Ad"]], trump="s", leader=1)
    beating.apply("5c")
    assert page_facts(beating, 0)["card_actions"] == {"9c": ["9c"]}  # 2c and the hearts may not be played


def test_the_cards_that_tied_light_up_in_a_war_p1_5() -> None:
    war = dealt("pagat", {0: ["9h", "2c", "3c"], 1: ["9c", "Td", "Ks"], 2: ["4d", "5d", "6d"]},
                "9h", "9c", "4d")
    assert war.tie == [0, 1]
    assert [page_facts(war, seat)["tied"] for seat in range(3)] == [["9h", "9c"]] * 3  # public
    war.apply("2c")  # the war's next round: the cards that tied stay lit
    assert page_facts(war, 1)["tied"] == ["9h", "9c"]
    quiet = dealt("pagat", {0: ["9h", "2c", "3c"], 1: ["Tc", "Td", "Ks"]}, "9h", "Tc")
    assert page_facts(quiet, 2)["tied"] == []


def test_under_two_cards_a_war_is_tied_by_each_players_best_of_two_p1_5() -> None:
    rules = Rules.preset("pagat").with_options(tie="two_cards")
    war = dealt(rules, {0: ["9h", "Kd", "2h"], 1: ["9c", "Kc", "3s"], 2: ["4d", "5d", "6d"]},
                "9h", "9c", "4d")
    assert page_facts(war, 0)["tied"] == ["9h", "9c"]
    war.apply("Kd")
    war.apply("Kc")
    war.apply("2h")
    war.apply("3s")
    assert war.tie == [0, 1]  # both kings: the war goes on
    assert page_facts(war, 2)["tied"] == ["Kd", "Kc"]


def test_under_any_match_the_repeated_rank_is_the_war_not_the_highest_card_p1_5() -> None:
    war = dealt("app", {0: ["Kh", "2c", "3c"], 1: ["5c", "Td", "Ks"], 2: ["5d", "6d", "7d"]},
                "Kh", "5c", "5d")
    assert war.tie == [1, 2]
    assert page_facts(war, 0)["tied"] == ["5c", "5d"]


def test_the_card_that_took_a_trick_is_marked_p1_1_p1_5_p2_6() -> None:
    single = dealt("pagat", {0: ["5h", "2c", "3c"], 1: ["Kc", "Td", "Ks"], 2: ["4d", "5d", "6d"]},
                   "5h", "Kc", "4d")
    trick = watched(single)
    assert trick is not None and trick["winner"] == 1 and trick["winning"] == ["Kc"]
    replay = dealt("pagat", {0: ["9h", "Kd", "2c"], 1: ["9c", "3s", "Td"], 2: ["4d", "5d", "6d"]},
                   "9h", "9c", "4d", "Kd", "3s")
    trick = watched(replay)
    assert trick is not None and trick["winner"] == 0 and trick["winning"] == ["Kd"]
    two = dealt(Rules.preset("pagat").with_options(tie="two_cards"),
                {0: ["9h", "Kd", "2h"], 1: ["9c", "3s", "Qc"], 2: ["4d", "5d", "6d"]},
                "9h", "9c", "4d", "Kd", "3s", "2h", "Qc")
    trick = watched(two)
    assert trick is not None and trick["winner"] == 0
    assert trick["winning"] == ["Kd"]  # the better of its last two, not the last card (2h)
    cleared = Game.from_hands("pagat", [["6h", "2c", "3c"], ["9h", "Th", "4c"]], trump="s", leader=0)
    for move in ("6h", "9h-Th"):
        cleared.apply(move)
    trick = watched(cleared)
    assert trick is not None and trick["reason"] == "cleared"
    assert trick["winner"] == 1 and trick["winning"] == ["9h", "Th"]  # the play that completed it


def test_the_invite_page_is_told_the_preset_the_rules_are_closest_to_and_the_house_rules() -> None:
    for name in PRESET_NAMES:
        assert rules_facts(Rules.preset(name)) == {"base_preset": name, "house_rules": []}
    three = Rules.preset("pagat").with_options(min_sequence=3)
    assert rules_facts(three) == {"base_preset": "pagat", "house_rules": ["min_sequence"]}
    kortregler = Rules.preset("kortregler").with_options(tie="replay", chance=False)
    assert rules_facts(kortregler) == {"base_preset": "kortregler", "house_rules": ["chance", "tie"]}
    session = random_table("pagat", 3, 1, {"min_sequence": 3})
    summary = session.summary()
    assert summary["base_preset"] == "pagat" and summary["house_rules"] == ["min_sequence"]
    assert summary["preset"] is None


def run_of(action: str) -> list[str]:
    """The cards an action plays, from its text alone: one card, or a run low-high of one suit."""
    low, _, high = action.partition("-")
    if not high:
        return [low]
    ranks = "23456789TJQKA"
    return [rank + low[1] for rank in ranks[ranks.index(low[0]):ranks.index(high[0]) + 1]]


@pytest.mark.parametrize(("preset", "players", "changes"), CASES)
def test_every_message_agrees_with_its_own_view_and_legal_moves(
        preset: str, players: int, changes: dict[str, Any]) -> None:
    wars = 0
    for seed in (1, 2):
        session = random_table(preset, players, seed, changes)
        mine, theirs = play_recording(session, seed)
        for message in mine + theirs:
            view = message["view"]
            assert sorted(message["sorted_hand"]) == sorted(view["hand"])
            plays = [action for action in message["legal"] if action not in ("chance", "pickup")]
            listed = message["card_actions"]
            assert sorted({a for actions in listed.values() for a in actions}) == sorted(plays)
            for action in plays:
                assert [code for code in message["sorted_hand"] if action in listed.get(code, [])] == \
                    [code for code in message["sorted_hand"] if code in run_of(action)]
            for actions in listed.values():
                assert actions == [action for action in plays if action in actions]  # legal's order
            tied = message["tied"]
            assert bool(tied) == bool(view["tie"])
            if tied:
                wars += 1
                by = {code: seat for seat, code in view["trick"]}
                assert {by[code] for code in tied} == set(view["tie"])
                assert len({code[0] for code in tied}) == 1  # one rank
                if session.rules.tie != "two_cards":
                    assert len(tied) == len(view["tie"])
            trick = message["last_trick"]
            if trick is not None:
                if trick["reason"] == "won":
                    assert len(trick["winning"]) == 1
                    assert [trick["winner"], trick["winning"]] in [[s, c] for s, c in trick["cards"]]
                elif trick["reason"] == "cleared":
                    assert trick["winning"] == trick["cards"][-1][1]
                else:
                    assert trick["winning"] == []
        result = mine[-1]["result"]
        assert [sorted(hand) for hand in result["sorted_hands"]] == [sorted(hand) for hand in result["hands"]]
    if preset == "pagat" and players == 3 and not changes:
        assert wars, "no war in these games: the check of tied cards checks nothing"


def test_a_waiting_table_sends_the_page_facts_empty() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "open"}]})
    message = session.state_message(MessageCursor(0, "en"))
    assert message["view"] is None
    assert (message["sorted_hand"], message["card_actions"], message["tied"]) == ([], {}, [])
