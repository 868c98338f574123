"""The shared table without a server: a :class:`TableSession` driven through whole matches by
a host made of lists (people, bots, open seats, absences, refusals, undo, restarts, secrets).

Rule numbers: C2 (the loser deals the next game), C3 (the deal); the rest is table behaviour
documented in ``docs/web.md`` and ``docs/architecture.md``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import itertools
import json
import math
import random
import selectors
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from mattis import Game, next_dealer
from mattis.frontend.match import MatchSecret
from mattis.table import (
    BotTurn,
    Connection,
    DecisionParts,
    HintJob,
    Job,
    MemoryStore,
    MessageCursor,
    Outcome,
    Refusal,
    Row,
    TableConfig,
    TableMaster,
    TableSession,
    Timer,
    run_job,
)

ABSENCE = 30.0
QUICK = TableConfig(bot_delay=0.0, absence_timeout=ABSENCE, hard_seconds=0.02, hint_seconds=0.02,
                    hint_cooldown=2.0)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Stopped:
    """A clock the test runs by hand (:attr:`ListHost.clocks`); cancelling it does nothing."""

    def cancel(self) -> None:
        pass


class ListHost:
    """A host made of lists: rows go to a :class:`MemoryStore`, messages to each connection's
    inbox, jobs run in line, clocks are kept to be run by hand. One table at a time: its
    master is :attr:`table` (:func:`new_table` makes it)."""

    def __init__(self) -> None:
        self.store_rows = MemoryStore()
        self.inbox: dict[int, list[dict[str, Any]]] = {}
        self.clocks: list[tuple[float, Callable[[], None]]] = []
        self.jobs: list[Job] = []
        self.admitted: list[str] = []
        self.failing = False
        self.table: TableMaster[None] | None = None
        self.reported: list[BaseException] = []

    async def store(self, rows: Sequence[Row]) -> None:
        if self.failing:
            raise OSError("disk full")
        self.store_rows.write(rows)

    def send(self, connection: Connection[None], message: dict[str, Any]) -> None:
        self.inbox.setdefault(id(connection), []).append(message)

    def hang_up(self, connection: Connection[None], code: int) -> None:
        self.inbox.setdefault(id(connection), []).append({"closed": code})

    async def think(self, job: Job, asker: Connection[None] | None = None) -> DecisionParts:
        self.jobs.append(job)
        return run_job(job)

    def admit_searching_bots(self, table_id: str) -> None:
        self.admitted.append(table_id)

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        self.clocks.append((seconds, callback))
        return Stopped()

    def report(self, table_id: str, error: BaseException) -> None:
        self.reported.append(error)

    @property
    def master(self) -> TableMaster[None]:
        assert self.table is not None
        return self.table

    def open(self, session: TableSession, seat: int, lang: str = "en") -> Connection[None]:
        connection = Connection(None, session.cursor(seat, "nb" if lang == "nb" else "en"))
        self.master.connect(connection)
        return connection

    def last(self, connection: Connection[None]) -> dict[str, Any]:
        return self.inbox[id(connection)][-1]

    def clock_seats(self) -> list[int]:
        """The seats whose absence clocks were started, in order."""
        return [callback.args[0] for _, callback in self.clocks if isinstance(callback, functools.partial)]


def run(host: ListHost, session: TableSession, change: Callable[[], Outcome]) -> Outcome:
    return asyncio.run(host.master.transact(change))


def commit(host: ListHost, outcome: Outcome) -> None:
    asyncio.run(host.master.commit(outcome))


def bots_move(host: ListHost, session: TableSession) -> int:
    """Let bots (and stand-ins) move until a person must; how many moves they made."""
    moves = 0
    while session.bot_to_move:
        assert asyncio.run(host.master.play_bot_turn())
        moves += 1
    return moves


def new_table(host: ListHost, request: dict[str, Any],
              clock: Clock | None = None) -> tuple[TableSession, int, str]:
    session, seat, token, outcome = TableSession.create("T1", request, QUICK, clock or Clock())
    host.table = TableMaster(host, session)
    commit(host, outcome)
    return session, seat, token


def play_out(host: ListHost, session: TableSession, connection: Connection[None]) -> dict[str, Any]:
    """Bots move, the person plays the first legal move, until the game is over."""
    while True:
        bots_move(host, session)
        state = session.state_message(MessageCursor(connection.seat, "en"))
        if state["view"]["phase"] == "over":
            return state
        run(host, session, functools.partial(session.act, connection.seat, state["legal"][0]))


def test_a_person_and_two_bots_play_a_match_and_the_loser_deals_next_c2() -> None:
    host = ListHost()
    session, seat, token = new_table(host, {"rules": "pagat", "players": 3, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "normal"},
        {"kind": "bot", "level": "easy"}]})
    assert session.seat_of(token) == seat == 0 and session.seat_of("wrong") is None
    connection = host.open(session, 0)
    first = play_out(host, session, connection)
    game = session.game
    assert game is not None and game.is_over
    assert first["result"]["losers"] == game.losers and first["result"]["headline"]
    assert first["table"]["scores"] == [int(s in game.losers) for s in range(3)]
    run(host, session, lambda: session.play_again(0))
    second = session.game
    assert second is not None and session.game_number == 2
    assert second.dealer == next_dealer(game.dealer, game.losers, 3)  # C2
    final = play_out(host, session, connection)
    assert sum(final["table"]["scores"]) == len(game.losers) + len(second.losers)
    stored = host.store_rows.stored("T1")
    assert stored is not None and stored.game is not None and stored.game.over
    assert Game.from_record(stored.game.record()) == second
    assert stored.match["results"] == [game.losers, second.losers]


def test_state_messages_carry_only_what_is_new_to_each_connection() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 3})
    connection = host.open(session, 0, "nb")
    assert host.last(connection)["legal"]  # seat 0, left of the dealer, leads (P1.1)
    for _ in range(4):
        run(host, session, lambda: session.act(0, session.state_message(MessageCursor(0, "en"))["legal"][0]))
        bots_move(host, session)
    messages = host.inbox[id(connection)]
    assert len(messages) > 4
    for before, after in itertools.pairwise(messages):
        assert after["history_start"] == before["view"]["event_count"]
        assert after["log_start"] == before["log_start"] + len(before["log"])
        assert len(after["view"]["history"]) == after["view"]["event_count"] - after["history_start"]
    assert "Du" in " ".join(line for m in messages for line in m["log"])  # the seat's chair, in bokmål
    late = host.open(session, 0, "en")  # a second tab, in English: everything at once
    whole = host.last(late)
    assert whole["history_start"] == 0 and whole["log_start"] == 0
    assert len(whole["view"]["history"]) == whole["view"]["event_count"]
    assert "You" in " ".join(whole["log"])


def test_refusals_are_domain_errors_with_stable_codes() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seats": [
        {"kind": "human"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]})
    with pytest.raises(Refusal) as waiting:
        session.act(0, "7h")
    assert waiting.value.code == "not_started"
    with pytest.raises(Refusal) as not_open:
        session.fill_with_bot(2, "easy")
    assert not_open.value.code == "bad_message"
    seat, _, outcome = session.join("Ola\u0000 Nordmann")
    commit(host, outcome)
    assert seat == 1 and session.seats[1].name == "Ola Nordmann" and session.status == "playing"
    with pytest.raises(Refusal) as full:
        session.join("Per")
    assert full.value.code == "table_full" and full.value.message("nb") == "Bordet er fullt."
    game = session.game
    assert game is not None
    assert game.to_move == 0  # left of the dealer (seat 2) leads (P1.1)
    with pytest.raises(Refusal) as turn:
        session.act(1, str(game.legal_actions()[0]))
    assert turn.value.code == "not_your_turn"
    with pytest.raises(Refusal) as illegal:
        session.act(0, "pickup")
    assert illegal.value.code == "pickup_in_phase1" and "pick" in illegal.value.message("en").lower()
    assert game.num_actions == 0


@pytest.mark.parametrize("request_body, fragment", [
    ({"rules": "bridge"}, "rules"),
    ({"players": 9}, "players"),
    ({"set": {"min_sequence": 5}}, "min_sequence"),
    ({"seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]}, "creator"),
    ({"seed": -1}, "seed"), ({"seed": 2**64}, "seed"), ({"seed": 1.5}, "seed"), ({"seed": True}, "seed"),
])
def test_a_bad_table_request_is_refused_naming_the_field(request_body: dict[str, Any], fragment: str) -> None:
    with pytest.raises(Refusal) as refused:
        TableSession.create("T", request_body, QUICK)
    assert refused.value.code == "bad_request" and fragment in refused.value.message("en")


def test_a_change_that_cannot_be_stored_is_undone_and_refused() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 13})
    connection = host.open(session, 0)
    bots_move(host, session)
    state = session.state_message(connection.cursor)
    host.failing = True
    with pytest.raises(Refusal) as refused:
        run(host, session, lambda: session.act(0, state["legal"][0]))
    assert refused.value.code == "storage"
    again = session.state_message(MessageCursor(0, "en"))
    assert again["legal"] == state["legal"] and again["view"]["hand"] == state["view"]["hand"]
    host.failing = False
    run(host, session, lambda: session.act(0, state["legal"][0]))
    assert session.game is not None and str(session.game.actions[-1]) == state["legal"][0]


def test_an_absent_person_gets_a_stand_in_and_takes_the_seat_back() -> None:
    host, clock = ListHost(), Clock()
    session, _, _ = new_table(host, {"players": 3, "seed": 21, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]}, clock)
    _, _, outcome = session.join("Ola")
    commit(host, outcome)
    assert sorted(host.clock_seats()) == [0, 1]  # nobody has connected yet: both clocks run
    assert {seconds for seconds, _ in host.clocks} == {ABSENCE}
    kari = host.open(session, 0)
    asyncio.run(host.master.commit(session.set_absent(1)))
    assert not session.seats[1].stand_in  # not away long enough
    clock.now += ABSENCE
    host.clocks[0][1]()  # Kari's clock runs out: she is connected
    assert not session.seats[0].stand_in
    host.clocks[1][1]()  # Ola's: a bot stands in, and everyone sees it
    assert session.seats[1].stand_in and host.last(kari)["table"]["seats"][1]["stand_in"]
    bots_move(host, session)  # Ola's stand-in plays until it is Kari's turn
    game = session.game
    assert game is not None and (game.is_over or game.to_move == 0)
    ola = host.open(session, 1)
    assert not session.seats[1].stand_in and host.last(ola)["table"]["seats"][1]["connected"]
    host.master.disconnect(ola)
    assert host.clock_seats()[-1] == 1 and not host.last(kari)["table"]["seats"][1]["connected"]


def test_only_a_seats_first_connection_changes_what_others_see() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot"}]})
    commit(host, session.join("Ola")[2])
    first = host.open(session, 0)
    sent = len(host.inbox[id(first)])
    for _ in range(5):
        assert not session.connect(0).changed  # a second tab of the same seat
    assert len(host.inbox[id(first)]) == sent
    for _ in range(5):
        assert not session.disconnect(0).changed
    assert session.disconnect(0).changed and session.disconnect(0).timers == (0,)


def test_an_open_seat_can_be_given_to_a_bot_and_the_game_starts() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot"}]})
    with pytest.raises(Refusal):
        session.fill_with_bot(1, "godlike")
    run(host, session, lambda: session.fill_with_bot(1, "easy"))
    assert session.seats[1].kind == "bot" and session.seats[1].name not in ("", "Kari")
    assert session.status == "playing"


def test_hard_bots_and_hints_are_jobs_for_the_host() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 6, "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "hard"}, {"kind": "bot", "level": "hard"}]})
    connection = host.open(session, 0)
    final = play_out(host, session, connection)
    assert final["result"] and any(job.level == "hard" for job in host.jobs if not isinstance(job, HintJob))
    run(host, session, lambda: session.play_again(0))
    bots_move(host, session)
    job = session.request_hint(0)
    assert isinstance(job, HintJob)
    with pytest.raises(Refusal) as busy:
        session.request_hint(0)
    assert busy.value.code == "hint_busy"
    decision = session.hint_done(0, job, run_job(job))
    message = session.hint_message(decision, "nb")
    assert message["type"] == "hint" and message["action"] in job.legal and message["explanation"]
    assert session.request_hint(0) is decision  # asked again at the same point: the same hint, free


def test_a_restored_table_plays_on_from_its_last_action() -> None:
    host = ListHost()
    session, _, token = new_table(host, {"players": 3, "seed": 8})
    connection = host.open(session, 0)
    bots_move(host, session)
    state = session.state_message(connection.cursor)
    run(host, session, lambda: session.act(0, state["legal"][0]))
    bots_move(host, session)
    stored = host.store_rows.stored("T1")
    assert stored is not None
    restored, outcome = TableSession.restore(stored, QUICK)
    assert restored.game == session.game and restored.seat_of(token) == 0
    assert outcome.timers == ()  # its one person plays robots: nobody stands in, the game waits
    assert restored.match.scores == session.match.scores and restored.secret == session.secret
    fresh = ListHost()
    fresh.store_rows = host.store_rows  # the restarted host writes on where the first stopped
    fresh.table = TableMaster(fresh, restored)
    later = play_out(fresh, restored, fresh.open(restored, 0))
    assert later["result"]
    again = fresh.store_rows.stored("T1")
    assert again is not None and again.game is not None and again.game.over
    assert Game.from_record(again.game.record()) == restored.game


def test_a_damaged_stored_table_raises_for_the_host_to_set_aside() -> None:
    host = ListHost()
    new_table(host, {"players": 3, "seed": 9})
    stored = host.store_rows.stored("T1")
    assert stored is not None and stored.game is not None
    damaged = stored.game.__class__(stored.game.number, stored.game.start, ("zz",), False)
    with pytest.raises(ValueError):
        TableSession.restore(dataclasses.replace(stored, game=damaged), QUICK)
    with pytest.raises(ValueError):
        TableSession.restore(dataclasses.replace(stored, seats=[{"kind": "alien"}] * 3, game=None), QUICK)


def test_no_record_gives_away_a_later_deal_of_a_seeded_match() -> None:
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 5})
    connection = host.open(session, 0)
    play_out(host, session, connection)
    run(host, session, lambda: session.play_again(0))
    first = host.store_rows.game("T1", 1)
    second = host.store_rows.game("T1", 2)
    assert first is not None and second is not None
    seed_one, seed_two = first.start["seed"], second.start["seed"]
    assert seed_one != 5 and seed_two not in (seed_one + 1, seed_one - 1, 5, 6)
    assert seed_two == MatchSecret.from_seed(5).game_seed(2)  # the creator, who knows the seed, can replay
    assert session.summary()["seeded"] and host.last(connection)["table"]["seeded"]
    everything = json.dumps(host.inbox) + json.dumps(session.summary())
    assert session.secret is not None and session.secret.hex not in everything


def test_unseeded_tables_keep_their_secret_and_bots_do_not_follow_the_table_id() -> None:
    host = ListHost()
    one, _, _ = new_table(host, {"players": 3})
    other, _, _, _ = TableSession.create("T1", {"players": 3}, QUICK)
    assert one.secret is not None and other.secret is not None  # a shared table always has one
    assert one.secret != other.secret and len(one.secret.hex) == 64 and not one.seeded
    assert one.match.game_seed(1) != other.match.game_seed(1)
    connection = host.open(one, 0)
    bots_move(host, one)
    job = one.request_hint(0)
    assert isinstance(job, HintJob)
    assert job.rng_seed == one.secret.move_seed("hint", 1, 0, job.moves)
    assert job.rng_seed != other.secret.move_seed("hint", 1, 0, job.moves)  # same id, other secret
    assert one.secret.hex not in json.dumps(host.last(connection)) + json.dumps(one.summary())


def test_a_seat_may_ask_for_a_few_hints_in_a_row_then_waits() -> None:
    host, clock = ListHost(), Clock()
    session, _, _ = new_table(host, {"players": 3, "seed": 4}, clock)
    for _ in range(QUICK.hint_burst):
        bots_move(host, session)
        job = session.request_hint(0)
        assert isinstance(job, HintJob)
        session.hint_done(0, job, run_job(job))
        run(host, session, functools.partial(session.act, 0, job.legal[0]))
    bots_move(host, session)
    with pytest.raises(Refusal) as soon:
        session.request_hint(0)
    assert soon.value.code == "hint_cooldown" and float(str(soon.value.params["seconds"])) > 0
    clock.now += QUICK.hint_cooldown
    assert isinstance(session.request_hint(0), HintJob)


# ------------------------------------------------------------------ bots' pace and rest


class _TimersWithoutWaiting(selectors.DefaultSelector):
    """A selector that never waits for the next timer: the time jumps to it instead."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        ready = super().select(0)
        if ready or timeout is None:  # nothing scheduled: wait for real (a thread's answer)
            return ready or super().select(timeout)
        self.now += timeout
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop on a clock of its own that stands still while code runs and jumps to the
    next timer when nothing is ready: a pause costs no real time, and what a table schedules
    is seen exactly, whatever the machine's load."""

    def __init__(self) -> None:
        self._timers = _TimersWithoutWaiting()
        super().__init__(self._timers)

    def time(self) -> float:
        return self._timers.now


def test_a_virtual_time_loop_jumps_over_pauses_and_keeps_their_order() -> None:
    async def pauses() -> list[tuple[str, float]]:
        loop, seen = asyncio.get_running_loop(), []

        async def after(name: str, seconds: float) -> None:
            await asyncio.sleep(seconds)
            seen.append((name, loop.time()))

        await asyncio.gather(after("b", 3600.0), after("a", 0.25))
        return seen

    started = time.perf_counter()
    with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
        assert runner.run(pauses()) == [("a", 0.25), ("b", 3600.0)]
    assert time.perf_counter() - started < 60  # an hour's pause took no hour


class PacedHost(ListHost):
    """A host on a :class:`VirtualTimeLoop` that notes when each state reaches the person,
    plays the person's first legal move as soon as it is their turn, and lets each search
    take a different share of its thinking time, as a real one does."""

    def __init__(self) -> None:
        super().__init__()
        self.last_sent: float | None = None
        self.bot_moved: bool | None = None
        """Set between a bot's move and its state: whether the move was forced."""
        self.applied = 0.0
        """When the bot's move was played: the time compared is the turn's, up to there."""
        self.delays: list[tuple[bool, float]] = []
        """(forced, seconds from the state before a bot's move to the move being played)."""
        self.searches: list[float] = []
        """How long each search took."""
        self.over = asyncio.Event()
        self.enough = 16
        """Forced and chosen moves to time (or the game's end)."""
        self.rng = random.Random(7)

    async def think(self, job: Job, asker: Connection[None] | None = None) -> DecisionParts:
        assert job.seconds is not None
        searching = self.rng.uniform(0.0, job.seconds)  # searches end early or use it all
        self.searches.append(searching)
        await asyncio.sleep(searching)
        return await super().think(job, asker)

    def counts(self) -> tuple[int, int]:
        forced = sum(was_forced for was_forced, _ in self.delays)
        return forced, len(self.delays) - forced

    def send(self, connection: Connection[None], message: dict[str, Any]) -> None:
        now = asyncio.get_running_loop().time()
        if message["type"] != "state" or message["view"] is None:
            return
        if self.bot_moved is not None and self.last_sent is not None:
            self.delays.append((self.bot_moved, self.applied - self.last_sent))
        self.bot_moved, self.last_sent = None, now
        if message["view"]["phase"] == "over" or min(self.counts()) >= self.enough:
            self.over.set()
        elif message["legal"]:
            move = json.dumps({"type": "act", "action": message["legal"][0]})
            asyncio.get_running_loop().create_task(self.master.receive(connection, move))


def test_a_bots_move_takes_as_long_forced_or_chosen() -> None:
    """Issue 29.7: a searching bot with one legal move (a forced pick-up) skips its search,
    yet its move is shown after the same time as a chosen one, so the time tells nothing of
    its hand: every move of a ``hard`` bot, forced or chosen, is played exactly
    ``move_seconds("hard")`` after its turn began, however long its search took. On a
    virtual clock what the table schedules is seen exactly; what a real machine adds (a
    search's overrun, the event loop's wake-ups) is measured by ``benchmarks/bot_pace.py``."""
    config = dataclasses.replace(QUICK, bot_delay=0.4, hard_seconds=0.005)
    pause = config.move_seconds("hard")
    host = PacedHost()

    async def play(seed: int) -> None:
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "normal"}] * 3  # four: many forced pick-ups
        session, _, _, outcome = TableSession.create(f"T{seed}", {"players": 4, "seed": seed, "seats": seats},
                                                     config)
        host.table = TableMaster(host, session)
        host.over.clear()
        host.last_sent, host.bot_moved = None, None
        await host.master.commit(outcome)
        game = session.game
        assert game is not None
        while game.phase == "collect":  # at once to phase 2, where pick-ups are forced
            if not await host.master.play_bot_turn():
                await host.master.transact(lambda: session.act(0, str(game.legal_actions()[0])))
        for seat in session.seats[1:]:
            seat.level = "hard"
        real_bot_act = session.bot_act

        def bot_act(turn: BotTurn, answer: Any) -> Outcome | None:
            host.bot_moved = turn.job is None  # the test may know a hand; players may not
            host.applied = asyncio.get_running_loop().time()
            return real_bot_act(turn, answer)

        session.bot_act = bot_act  # type: ignore[method-assign]
        host.master.start()
        host.open(session, 0)
        await asyncio.wait_for(host.over.wait(), 3600)
        await host.master.stop()

    with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
        seed = 0
        while min(host.counts()) < host.enough and seed < 4:
            runner.run(play(seed))
            seed += 1
    forced = [seconds for was_forced, seconds in host.delays if was_forced]
    chosen = [seconds for was_forced, seconds in host.delays if not was_forced]
    assert len(forced) >= 16 and len(chosen) >= 16, (len(forced), len(chosen))
    assert min(host.searches) < 0.2 * config.hard_seconds < 0.8 * config.hard_seconds < max(host.searches)
    assert all(math.isclose(seconds, pause, abs_tol=1e-9) for seconds in forced + chosen), (forced, chosen)


def test_a_table_nobody_is_at_stops_thinking_until_someone_returns() -> None:
    """Issue 29.3: after ``idle_pause`` seconds with no person connected, bots and stand-ins
    stop moving and no search is queued; the game goes on when a person connects."""
    host, clock = ListHost(), Clock()
    config = dataclasses.replace(QUICK, idle_pause=120.0)
    session, _, _, outcome = TableSession.create("T1", {"players": 3, "seed": 2, "seats": [
        {"kind": "bot", "level": "hard"}, {"kind": "human", "name": "Kari"},
        {"kind": "open"}]}, config, clock)
    host.table = TableMaster(host, session)
    master = host.master

    async def scenario() -> None:
        await master.commit(outcome)
        await master.commit(session.join("Ola")[2])  # a table of people: stand-ins, no waiting for one
        session.seats[2].stand_in = True  # Ola never came either: a bot plays for him
        assert session.bot_to_move and session.unattended_since == clock.now  # seat 0 leads; Kari never came
        clock.now += 120.0
        assert master.resting  # no search is queued, and the server may unload it
        master.start()
        await asyncio.sleep(0.2)
        assert session.game is not None and session.game.num_actions == 0 and host.jobs == []
        kari = host.open(session, 1)  # she comes back: the bot plays, then it is her turn
        while not host.last(kari)["legal"]:
            await asyncio.sleep(0.01)
        assert host.jobs and session.game.num_actions >= 1 and not master.resting
        master.disconnect(kari)
        clock.now += 119.0  # away, but not long: a stand-in would play for her (she has one now)
        session.seats[1].stand_in = True
        master.changed.set()
        while session.game.num_actions < 3:  # the stand-in and the bots play on
            await asyncio.sleep(0.01)
        clock.now += 1.0  # two minutes with nobody: the table rests, stand-in and bots alike
        moves, jobs = session.game.num_actions, len(host.jobs)
        await asyncio.sleep(0.3)
        assert session.game.num_actions <= moves + 1 and len(host.jobs) <= jobs + 1  # a move under way ends
        moves, jobs = session.game.num_actions, len(host.jobs)
        await asyncio.sleep(0.3)
        assert (session.game.num_actions, len(host.jobs)) == (moves, jobs) and master.resting
        back = host.open(session, 1)  # she is back: her turn is hers, the bots' moves come again
        assert host.last(back)["type"] == "away_summary"  # and she is told what her stand-in played
        while session.game.num_actions <= moves + 1 and not session.game.is_over:
            if session.game.to_move == 1:  # her turn (at once, or after a bot's move): she plays
                move = str(session.game.legal_actions()[0])
                await master.receive(back, json.dumps({"type": "act", "action": move}))
            await asyncio.sleep(0.01)
        await master.stop()

    asyncio.run(scenario())


def test_a_connection_is_not_a_seat() -> None:
    """The master keeps connections, not seats: one that does not play its seat (a coach,
    say) sees the seat's state but is not the person being there, and may not move."""
    host = ListHost()
    session, _, _ = new_table(host, {"players": 3, "seed": 3})
    player = host.open(session, 0)
    sent = len(host.inbox[id(player)])
    onlooker = Connection(None, session.cursor(0, "en"), plays=False)
    host.master.connect(onlooker)
    assert host.last(onlooker)["view"]["hand"] == host.last(player)["view"]["hand"]
    assert len(host.inbox[id(player)]) == sent and host.master.connections_of(0) == 1
    host.master.disconnect(player)  # the person left: the onlooker does not keep them present
    assert not session.seats[0].connections and session.waits_for_person  # robots only: the game waits
    move = json.dumps({"type": "act", "action": host.last(onlooker)["legal"][0]})
    asyncio.run(host.master.receive(onlooker, move))
    assert host.last(onlooker)["code"] == "bad_message" and session.game is not None
    assert session.game.num_actions == 0
    host.master.disconnect(onlooker)
    assert host.master.connections == []
