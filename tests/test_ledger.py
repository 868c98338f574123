"""The ledger's arithmetic (``mattis.table.ledger``, issue 25 item 4): counts, runs, the
rate's interval, seasons and every award's rule (``docs/ledger.md``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from mattis.table.ledger import (
    AWARDS,
    CSV_HEADER,
    HISTORY_SHOWN,
    INTERVAL_FROM,
    LedgerGame,
    LedgerSeat,
    SeasonTally,
    csv_rows,
    game_from_stored,
    ledger,
    ledger_changes,
    level_stats,
    parse_season,
    season_ledger,
    season_of,
    wilson,
)

DAY = 86_400.0
START = datetime(2026, 1, 1, tzinfo=UTC).timestamp()
NAMES = {"m": "Mormor", "o": "Ola", "k": "Kari"}


def game(number: int, losers: tuple[int, ...], out_order: tuple[int, ...] = (),
         players: tuple[str, ...] = ("m", "o", "k"), empty: bool = False,
         finished: float | None = None) -> LedgerGame:
    seats = tuple(LedgerSeat(player, "human") for player in players)
    return LedgerGame("T", number, START + number * DAY if finished is None else finished, seats, losers,
                      out_order, empty)


def award(body: dict[str, object], name: str) -> dict[str, object] | None:
    given = body["awards"]
    assert isinstance(given, list)
    return next((item for item in given if item["award"] == name), None)


def test_counts_rate_runs_and_last_mattis() -> None:
    # Mormor loses games 1, 2 and 6; Ola games 3, 7 and 8; Kari games 4 and 5
    losers = [0, 0, 1, 2, 2, 0, 1, 1]
    games = [game(i + 1, (loser,), ((loser + 1) % 3, (loser + 2) % 3)) for i, loser in enumerate(losers)]
    body = ledger(games, NAMES, "2026")
    rows = {row["player"]: row for row in body["players"]}
    assert body["games"] == 8 and body["season"] == "2026"
    assert rows["m"]["mattis"] == 3 and rows["m"]["rate"] == 0.375
    assert rows["m"]["best_run"] == 3 and rows["m"]["current_run"] == 2
    assert rows["k"]["best_run"] == 3 and rows["k"]["current_run"] == 3
    assert rows["o"]["current_run"] == 0 and rows["o"]["best_run"] == 3
    assert rows["m"]["last_mattis"] == "2026-01-07"
    assert [row["player"] for row in body["players"]] == ["m", "o", "k"]  # most Mattis first
    assert body["history"][0]["game"] == 8  # newest first


def test_the_interval_comes_at_ten_games_and_holds_the_rate() -> None:
    games = [game(i + 1, (i % 3,)) for i in range(INTERVAL_FROM - 1)]
    assert all(row["rate_interval"] is None for row in ledger(games, NAMES, "all")["players"])
    games.append(game(INTERVAL_FROM, (0,)))
    for row in ledger(games, NAMES, "all")["players"]:
        low, high = row["rate_interval"]
        assert 0 <= low < row["rate"] < high <= 1


def test_wilson_matches_a_known_value_and_stays_in_bounds() -> None:
    low, high = wilson(3, 12)
    assert low == pytest.approx(0.0889, abs=1e-3) and high == pytest.approx(0.5323, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_seasons_are_calendar_years_in_utc() -> None:
    assert season_of(datetime(2026, 12, 31, 23, 59, tzinfo=UTC).timestamp()) == "2026"
    assert season_of(datetime(2027, 1, 1, 0, 0, 1, tzinfo=UTC).timestamp()) == "2027"
    assert parse_season(None, START) == "2026" and parse_season("all", START) == "all"
    assert parse_season("2025", START) == "2025"
    for bad in ("25", "20x6", "²⁰²⁶", "0999", "ALL"):
        with pytest.raises(ValueError):
            parse_season(bad, START)


def test_arets_mattis_needs_five_games_and_a_tie_goes_to_who_got_there_first() -> None:
    few = ledger([game(1, (0,)), game(2, (0,))], NAMES, "all")
    assert award(few, "arets_mattis") is None
    games = [game(1, (1,)), game(2, (0,)), game(3, (1,)), game(4, (0,)), game(5, (2,))]
    expected = {"award": "arets_mattis", "player": "o", "value": 2}
    assert award(ledger(games, NAMES, "all"), "arets_mattis") == expected


def test_mattis_fri_blodig_nemesis_comeback_and_stamgjest() -> None:
    games = [
        game(1, (0,), (2, 1)),  # Ola was last in with Mormor
        game(2, (0,), (2, 1)),
        game(3, (2,), (0, 1), empty=True),
        game(4, (1,), (0, 2)),
        game(5, (2,), (0, 1), empty=True),
        game(6, (1,), (2, 0)),
        game(7, (1,), ()),  # lost with nothing left before anyone went out: no one was beside
        game(8, (2,), (0, 1), players=("m", "o", "k")),
    ]
    body = ledger(games, NAMES, "all")
    assert award(body, "mattis_fri") == {"award": "mattis_fri", "player": "m", "value": 6}
    assert award(body, "blodig") == {"award": "blodig", "player": "k", "value": 2}
    assert award(body, "nemesis") == {"award": "nemesis", "player": "o", "value": 5}
    assert award(body, "comeback") == {"award": "comeback", "player": "m", "value": 6}
    assert award(body, "stamgjest") is not None
    rows = {row["player"]: row for row in body["players"]}
    assert rows["m"]["nemesis"] == "o" and rows["k"]["empty_losses"] == 2
    assert len(AWARDS) >= 5


def test_bots_and_guests_are_seats_not_players_and_forgotten_players_are_former() -> None:
    seats = (LedgerSeat("m", "human"), LedgerSeat(None, "bot", "Robin", "easy"), LedgerSeat("gone", "human"))
    body = ledger([LedgerGame("T", 1, START, seats, (1,), (0, 2))], {"m": "Mormor"}, "all", "a former player")
    assert {row["player"] for row in body["players"]} == {"m", "gone"}
    entry = body["history"][0]
    assert entry["players"] == ["m", "gone"] and entry["mattis"] == []
    assert [seat["name"] for seat in entry["seats"]] == ["Mormor", "Robin", "a former player"]
    rows = csv_rows([LedgerGame("T", 1, START, seats, (1,), (0, 2))], {"m": "Mormor"})
    assert [row[4] for row in rows] == ["human", "bot", "human"] and rows[1][8] == "1"
    assert rows[0][10] == "1" and rows[2][10] == "2" and rows[1][10] == ""


def test_a_long_season_draws_a_short_curve() -> None:
    games = [game(i + 1, (i % 3,)) for i in range(300)]
    for row in ledger(games, NAMES, "all")["players"]:
        assert len(row["trend"]) == 40 and row["trend"][-1] == row["rate"]
    # Mormor is Mattis in games 1, 2, 4, 8, 16, ...: each point is her rate after that many games
    uneven = [game(i + 1, (0,) if (i + 1) & i == 0 else (1,)) for i in range(300)]
    trend = next(row["trend"] for row in ledger(uneven, NAMES, "all")["players"] if row["player"] == "m")
    ends = [int((point + 1) * 300 / 40) for point in range(40)]
    assert trend == [round(sum((g + 1) & g == 0 for g in range(end)) / end, 4) for end in ends]
    short = ledger(uneven[:6], NAMES, "all")["players"]
    assert next(row["trend"] for row in short if row["player"] == "m") == [1.0, 1.0, 0.6667, 0.75, 0.6, 0.5]


def test_a_season_tally_kept_game_by_game_gives_the_same_ledger() -> None:
    """What the web store keeps per group and season: added one game at a time, stored and
    read back in between, it answers what counting all the games at once answers, and
    refuses a game that ended before the last one it counted."""
    games = [game(i + 1, ((i * 7) % 3,) if i % 5 else (0, 1), ((i + 1) % 3,), empty=i % 5 == 0)
             for i in range(60)]
    counted = SeasonTally()
    for played in games:
        counted = SeasonTally.from_stored(counted.stored())
        assert counted.add(played)
    shown = games[-HISTORY_SHOWN:]
    assert season_ledger(counted, shown, NAMES, season="2026") == ledger(games, NAMES, "2026")
    assert not counted.add(game(99, (0,), finished=START))
    assert counted.games == 60
    with pytest.raises(ValueError):
        SeasonTally.from_stored('{"games": 1}')


def test_what_a_game_changed_runs_and_awards() -> None:
    games = [game(1, (1,)), game(2, (1,)), game(3, (0,), (2, 1))]
    changes = ledger_changes(games, NAMES, "T", 3)
    assert changes is not None and changes["season"] == "2026"
    rows = {row["player"]: row for row in changes["players"]}
    assert rows["m"] == {"player": "m", "name": "Mormor", "mattis": 1, "was_mattis": True, "run": 0,
                         "run_change": -2}
    assert rows["o"]["run_change"] == 1 and rows["k"]["run"] == 3
    # Kari's run of 3 takes Mattis-fri from Mormor, who held it with 2
    taken = {"award": "mattis_fri", "player": "k", "value": 3, "name": "Kari", "before": "m"}
    assert taken in changes["awards"]
    assert ledger_changes(games, NAMES, "T", 9) is None


def test_level_stats_count_each_level_of_a_game() -> None:
    results = [(["normal", "normal"], True), (["hard", "normal"], False), (["hard"], False)]
    figures = level_stats(results)
    assert figures["games"] == 3 and figures["mattis"] == 1 and figures["rate"] == pytest.approx(0.3333)
    by_level = {row["level"]: row for row in figures["levels"]}
    assert by_level["normal"]["games"] == 2 and by_level["normal"]["mattis"] == 1
    assert by_level["hard"] == {"level": "hard", "games": 2, "mattis": 0, "rate": 0.0, "rate_interval": None}
    many = level_stats([(["easy"], index % 4 == 0) for index in range(12)])
    assert many["rate_interval"] is not None and many["levels"][0]["rate_interval"] == many["rate_interval"]


def test_finishing_ranks_put_the_first_out_first_and_the_mattis_last() -> None:
    from mattis.table.rating import finishing_ranks

    assert finishing_ranks(3, (2, 0), (1,)) == [2, 3, 1]
    assert finishing_ranks(4, (3,), (0, 1)) == [3, 3, 2, 1]  # two Mattis share the last place
    assert finishing_ranks(3, (), (0,)) == [2, 1, 1]  # lost on an empty hand before anyone went out


def test_a_coached_seat_is_marked_in_the_history_and_the_export_and_read_back_from_its_stored_seats() -> None:
    stored = [{"player": "m", "kind": "human", "name": "", "level": None, "coached": True},
              {"player": None, "kind": "bot", "name": "Robin", "level": "easy"},
              {"player": "k", "kind": "human", "name": "", "level": None}]
    coached = game_from_stored("T", 1, START, players="m ~b k", losers="1", out_order="0 2",
                               lost_on_empty=False, seats=stored)
    assert coached.coached == (0,)
    plain = game_from_stored("T", 2, START + 60, players="m ~b k", losers="1", out_order="0 2",
                             lost_on_empty=False, seats=None)  # not shown: its seats are not read
    assert plain.coached == ()
    newest, older = ledger([coached, plain], NAMES, "all")["history"]
    assert older["coached"] == ["m"] and [seat["coached"] for seat in older["seats"]] == [True, False, False]
    assert newest["coached"] == [] and not any(seat["coached"] for seat in newest["seats"])
    keys = {"table", "game", "finished", "players", "mattis", "lost_on_empty", "seats"}
    assert keys < set(older)  # the keys the ledger had stay as they were
    assert CSV_HEADER[-1] == "coached"
    assert [row[-1] for row in csv_rows([coached, plain], NAMES)] == ["1", "0", "0", "0", "0", "0"]
