"""The result in plain words (issue 24, item 7): what the game did to the reader, as the
table's state message carries it (``result.you``) and the result shows it (``[data-result-you]``)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from mattis import Game
from mattis.core.game import GameResult
from mattis.frontend.narrate import result_fate_line
from mattis.frontend.seats import Participant
from mattis.i18n import LANGS, Lang


def finished(rules: str, players: int, wanted: Callable[[GameResult], bool]) -> tuple[Game, GameResult]:
    """The first seeded random game of these rules whose result passes ``wanted``, and that result."""
    for seed in range(400):
        game = Game.new(rules, players, seed=seed)
        chooser = random.Random(seed)
        while not game.is_over:
            game.apply(chooser.choice(game.legal_actions()))
        if game.result is not None and wanted(game.result):
            return game, game.result
    raise AssertionError("no such game in 400 deals")


def people(players: int, viewer: int | None) -> list[Participant]:
    names = ["Kari", "Ola", "Siri", "Per", "Liv", "Tor"]
    return [Participant(seat, human=True) if seat == viewer else Participant(seat, names[seat])
            for seat in range(players)]


def test_the_loser_reads_that_they_lost() -> None:
    game, result = finished("pagat", 4, lambda r: not r.lost_on_empty)
    loser = result.losers[0]
    line = {lang: result_fate_line(game, people(4, loser), lang) for lang in LANGS}
    assert line == {"nb": "Du tapte – du er Mattis", "nn": "Du tapte – du er Mattis",
                    "en": "You lost – you are Mattis"}


def test_the_first_out_and_a_later_place_say_so_p2_8() -> None:
    game, result = finished("pagat", 4, lambda r: not r.lost_on_empty and len(r.out_order) == 3)
    first, second = result.out_order[:2]
    assert result_fate_line(game, people(4, first), "nb") == "Du gikk ut først"
    assert result_fate_line(game, people(4, first), "nn") == "Du gjekk ut først"
    assert result_fate_line(game, people(4, first), "en") == "You went out first"
    assert result_fate_line(game, people(4, second), "nb") == "Du kom ut som nr. 2 av 4"
    assert result_fate_line(game, people(4, second), "en") == "You went out as number 2 of 4"


def test_a_reader_without_a_seat_reads_the_third_person() -> None:
    game, result = finished("pagat", 3, lambda r: len(r.losers) == 1 and not r.lost_on_empty)
    name = ["Kari", "Ola", "Siri"][result.losers[0]]
    assert result_fate_line(game, people(3, None), "nb") == f"{name} tapte og er Mattis"
    assert result_fate_line(game, people(3, None), "en") == f"{name} lost and is Mattis"


@pytest.mark.parametrize("lang", LANGS)
def test_a_blodmattis_deal_names_it_for_losers_and_the_others_p1_10(lang: Lang) -> None:
    game, result = finished("app", 6, lambda r: r.lost_on_empty and len(r.losers) < 6)
    loser = result.losers[0]
    assert "Blodmattis" in str(result_fate_line(game, people(6, loser), lang))
    spared = next(seat for seat in range(6) if seat not in result.losers)
    escaped = str(result_fate_line(game, people(6, spared), lang))
    assert "Blodmattis" not in escaped and escaped != result_fate_line(game, people(6, loser), lang)


def test_no_line_before_the_end() -> None:
    assert result_fate_line(Game.new("pagat", 3, seed=1), people(3, 0), "en") is None
