"""``mattis stats`` (issue 25, item 6): your own record from the saved games in the data
folder, over all and against each bot level, in words and as JSON."""

from __future__ import annotations

import json
import random
from typing import Any

from typer.testing import CliRunner

from mattis import Game
from mattis.cli.app import app
from mattis.frontend.record import play_record, save_record, saves_folder
from mattis.frontend.seats import Participant


def saved_game(seed: int, levels: tuple[str, str], finish: bool = True) -> Game:
    """A game of the person at seat 0 against two bots, played with random moves, saved as
    ``mattis play`` saves it."""
    game = Game.new("pagat", 3, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and (finish or game.num_actions < 3):
        game.apply(rng.choice(game.legal_actions()))
    people = [Participant(0, human=True), Participant(1, "Kari", levels[0]), Participant(2, "Ola", levels[1])]
    folder = saves_folder()
    folder.mkdir(parents=True, exist_ok=True)
    save_record(play_record(game, people, "en"), folder / f"game-{seed}.json")
    return game


def run(*args: str) -> Any:
    return CliRunner().invoke(app, ["stats", *args], env={"COLUMNS": "120"})


def test_stats_count_the_saved_games_against_each_level() -> None:
    games = [saved_game(seed, levels) for seed, levels in
             ((1, ("easy", "normal")), (2, ("normal", "normal")), (3, ("hard", "easy")))]
    saved_game(4, ("hard", "hard"), finish=False)  # not over: not counted
    (saves_folder() / "broken.json").write_text("{not json")
    answer = run("--json")
    assert answer.exit_code == 0, answer.output
    figures = json.loads(answer.output)
    lost = [0 in game.losers for game in games]
    assert figures["games"] == 3 and figures["mattis"] == sum(lost) and figures["unreadable"] == 1
    by_level = {row["level"]: row for row in figures["levels"]}
    assert by_level["normal"]["games"] == 2 and by_level["normal"]["mattis"] == lost[0] + lost[1]
    assert by_level["easy"]["games"] == 2 and by_level["hard"]["games"] == 1
    assert figures["rate_interval"] is None  # fewer than 10 games
    words = run("--lang", "nb")
    assert words.exit_code == 0 and "Alle spill" in words.output and "Mot" in words.output


def test_stats_without_saved_games_say_how_to_get_some() -> None:
    answer = run("--lang", "en")
    assert answer.exit_code == 0 and "mattis play" in answer.output
    assert json.loads(run("--json").output)["games"] == 0
