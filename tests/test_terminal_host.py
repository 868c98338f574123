"""The terminal as the third host of the table layer (issue 23, item 4): its games are played
by a ``TableSession`` run by a ``TableMaster``, with the ``terminal`` profile, and a seed
plays as it always has: the same deals (``--seed``, ``--seed + 1`` …, the loser dealing next,
C2) and bots drawing from their seat's own generator (``seat_rng``), as in tournaments.
"""

from __future__ import annotations

import random

import pytest

from mattis import Game, Rules
from mattis.bots import CardTracker, decide, make_agent, seat_rng
from mattis.cli.play import TERMINAL
from mattis.frontend import ConsecutiveSeeds, Match, SeatStreams, make_participants
from mattis.table import TableConfig, TableMaster, TableSession, table_profile
from mattis.terminal import TerminalHost, TerminalTable, terminal_config
from mattis.terminal.host import Moved, Rejected


def table(seed: int, levels: list[str], preset: str = "pagat", games: int | None = None,
          lang: str = "en") -> TerminalTable:
    players = len(levels) + 1
    match = Match(Rules.preset(preset), players, ConsecutiveSeeds(seed), games)
    return TerminalTable(match, make_participants(players, 0, levels), "nb" if lang == "nb" else "en")


def replayed_with_seat_generators(game: Game, levels: list[str], seed: int, human_moves: list[str]) -> Game:
    """The game the old terminal loop played from ``seed``: every bot asked with its seat's
    own generator (``seat_rng(seed, seat)``, carried on from move to move), forced moves not
    asked, and the person's moves as given."""
    replay = Game.from_record({**game.record(), "actions": [], "result": None})
    agents = {seat: make_agent(level) for seat, level in enumerate(levels, start=1)}
    rngs = {seat: seat_rng(seed, seat) for seat in agents}
    trackers = {seat: CardTracker(replay.players, replay.rules) for seat in agents}
    people = iter(human_moves)
    while not replay.is_over:
        seat = replay.to_move
        assert seat is not None
        legal = replay.legal_actions()
        if seat == 0:
            replay.apply(next(people), seat=0)
        elif len(legal) == 1:
            replay.apply(legal[0], seat=seat)
        else:
            replay.apply(decide(agents[seat], replay, rngs[seat], tracker=trackers[seat]).action, seat=seat)
    return replay


@pytest.mark.parametrize(("seed", "preset", "levels"), [
    (3, "pagat", ["normal", "easy"]), (7, "kortregler", ["easy", "normal", "random"]),
    (11, "pagat", ["random", "normal", "normal", "easy"])])
def test_a_seed_deals_the_same_games_and_the_bots_draw_from_their_seats_generators(
        seed: int, preset: str, levels: list[str]) -> None:
    terminal = table(seed, levels, preset, games=2)
    for number in (1, 2):
        dealer = terminal.match.dealer
        game = terminal.deal()
        assert terminal.number == number
        assert game == Game.new(Rules.preset(preset), len(levels) + 1, seed=seed + number - 1, dealer=dealer)
        mine: list[str] = []
        while not terminal.over:
            terminal.run_bots()
            if terminal.human_to_move:
                choice = terminal.choices()[-1]
                assert terminal.handle(str(terminal.choices().index(choice) + 1)) == Moved(choice)
                mine.append(str(choice))
        expected = replayed_with_seat_generators(game, levels, seed + number - 1, mine)
        assert [str(a) for a in game.actions] == [str(a) for a in expected.actions]
    assert terminal.match.played == 2 and terminal.match.finished  # the table counted both games
    assert sum(terminal.match.scores) >= 2


def test_the_terminal_is_a_host_of_the_table_layer() -> None:
    terminal = table(5, ["normal", "normal"])
    assert isinstance(terminal.session, TableSession) and isinstance(terminal.master, TableMaster)
    assert isinstance(terminal.host, TerminalHost)
    assert terminal.config == table_profile("terminal")
    assert terminal.config.absence_timeout is None and terminal.config.invite_prefix is None
    assert isinstance(terminal.session.move_seeds, SeatStreams) and terminal.session.secret is None
    terminal.deal()
    terminal.run_bots()
    assert terminal.master.connections == [terminal.connection]
    assert terminal.session.seats[0].connections == 1  # the person is at the keyboard
    assert terminal.host.sent == []  # states are not kept: the terminal draws the view itself
    assert terminal.master.absence_clocks == {}


def test_each_bot_move_comes_with_its_reason_and_the_log_with_its_seats() -> None:
    terminal = table(2, ["easy", "normal", "normal"], "kortregler")
    terminal.deal()
    reasons: set[str] = set()
    seats: set[int | None] = set()
    while not terminal.over:
        if terminal.human_to_move:
            terminal.handle("1")
        else:
            before = terminal.game.num_actions
            decision = terminal.step_bot()
            assert terminal.game.actions[before] == decision.action
            reasons.add(decision.reason)
        seats |= {line.seat for line in terminal.news()}
    assert "forced" in reasons and len(reasons) > 2
    assert {0, 1, 2, 3} <= seats
    with pytest.raises(ValueError, match="no bot is to move"):
        terminal.step_bot()


def test_a_refused_move_is_the_engines_reason_and_changes_nothing() -> None:
    terminal = table(1, ["random", "random"], lang="nb")
    terminal.deal()
    terminal.run_bots()
    before = terminal.game.copy()
    missing = next(code for code in ("2c", "2d", "2h", "2s", "3c", "3d") if code not in terminal.game.hand(0))
    reply = terminal.handle(missing)
    assert isinstance(reply, Rejected) and reply.message.startswith("Ikke lov:")
    assert terminal.game == before


def test_hints_come_from_the_table_every_time_they_are_asked() -> None:
    """The terminal's profile sets no wait between hints (one person asks when they like)."""
    terminal = TerminalTable(Match(Rules.preset("pagat"), 3, ConsecutiveSeeds(8)),
                             make_participants(3, 0, ["random", "random"]), "en",
                             config=terminal_config(hint_seconds=0.01))
    terminal.deal()
    asked = 0
    while not terminal.over and asked < 6:
        terminal.run_bots()
        if terminal.human_to_move:
            hint = terminal.hint()
            assert not isinstance(hint, Rejected), hint
            assert hint.action in terminal.game.legal_actions() and hint.reason
            asked += 1
            terminal.handle(str(hint.number))
    assert asked >= 3


def test_seat_streams_go_on_from_move_to_move_and_start_again_each_game() -> None:
    streams = SeatStreams(ConsecutiveSeeds(40))
    first = streams.move_seed("bot", 1, 2, 0)
    assert streams.move_seed("bot", 1, 2, 9) is first
    assert streams.move_seed("hint", 1, 0, 3) is streams.move_seed("hint", 1, 0, 7)
    assert first.random() == seat_rng(40, 2).random()
    assert streams.move_seed("bot", 2, 2, 0).random() == seat_rng(41, 2).random()
    assert isinstance(streams.move_seed("bot", 2, 1, 0), random.Random)


def test_mattis_play_starts_from_the_terminal_profile() -> None:
    assert table_profile("terminal") == TERMINAL
    config = terminal_config(pace=0.0, hint_seconds=2.0)
    assert (config.bot_delay, config.hint_seconds) == (0.0, 2.0)
    assert isinstance(config, TableConfig) and config.absence_timeout is None
    assert terminal_config() == table_profile("terminal")


def test_a_search_that_fails_costs_the_game_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hard bot whose search breaks plays like a careful person, as at every host; the
    terminal keeps the failure, and a hint that fails says why in one line."""
    import mattis.terminal.host as host_module

    def broken(job: object) -> object:
        raise RuntimeError(type(job).__name__)

    monkeypatch.setattr(host_module, "run_job", broken)
    terminal = table(6, ["hard", "hard"])
    terminal.deal()
    hinted = False
    while not terminal.over:
        terminal.run_bots()
        if terminal.human_to_move:
            if not hinted:
                hint = terminal.hint()
                assert isinstance(hint, Rejected) and hint.message and "\n" not in hint.message
                hinted = True
            terminal.handle("1")
    failed = [str(error) for error in terminal.host.failures]
    assert "HintJob" in failed and failed.count("BotJob") >= 3
    assert terminal.match.played == 1  # the game was played to its end all the same
