"""The variant lab: a tiny run writes valid JSON and a self-contained HTML page with its
plots embedded; its numbers do not depend on the worker count; bad input is one line
before any game is played."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from mattis import Rules
from mattis.cli.app import app
from mattis.cli.lab import parse_variants
from mattis.tools.backends import LocalBackend
from mattis.tools.lab import RUNS, Variant, lab_configurations, planned_lab_games, play_lab_game, run_lab

from .cli_checks import assert_one_error_line

PAGAT = Variant("pagat", Rules.preset("pagat"), "pagat")
TINY = ("--players", "3", "--games", "2", "--hard-iterations", "5", "--workers", "1", "--seed", "3")


def lab(*args: str) -> Result:
    return CliRunner().invoke(app, ["lab", *args], env={"COLUMNS": "200"})


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in ("seconds", "workers")}


def test_a_tiny_lab_writes_json_and_a_self_contained_html_report(tmp_path: Path) -> None:
    result = lab("--rules", "pagat", "--set", "min_sequence=3", *TINY, "--out", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.stderr
    assert "Report:" in result.stdout and "Random is Mattis" in result.stdout
    data = json.loads((tmp_path / "lab.json").read_text(encoding="utf-8"))
    assert data["format"] == "mattis-lab/1" and data["games_per_run"] == 2
    labels = [(c["label"], c["players"]) for c in data["configurations"]]
    assert labels == [("pagat", 3), ("pagat + min_sequence=3", 3)]
    for configuration in data["configurations"]:
        assert list(configuration["runs"]) == list(RUNS)
        for run in configuration["runs"].values():
            assert run["finished_games"] + run["capped_games"] == run["games"] == 2
            assert len(run["mattis_by_seat"]) == 3
            for seat in run["mattis_by_seat"]:
                low, high = seat["ci95"]
                assert low <= seat["rate"] <= high
        finished = configuration["runs"]["random"]["finished_games"]
        assert configuration["skill"]["random"]["games"] == 3 * finished
    page = (tmp_path / "lab.html").read_text(encoding="utf-8")
    images = re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", page)
    assert len(images) == 3 + 2, "overview plots (skill, lengths, Blåmattis) and one per configuration"
    assert all(base64.b64decode(image).startswith(b"\x89PNG") for image in images)
    assert "http:" not in page and "https:" not in page and "href" not in page, "nothing links outside"
    assert "pagat + min_sequence=3, 3 players" in page


def test_the_numbers_do_not_depend_on_the_worker_count() -> None:
    one = run_lab([PAGAT], games=2, seed=5, players=[3], hard_iterations=5)
    two = run_lab([PAGAT], games=2, seed=5, players=[3], hard_iterations=5, backend=LocalBackend(2))
    assert without_timing(one.to_dict()) == without_timing(two.to_dict())


def test_every_run_plays_the_same_deals_and_the_skill_seat_rotates() -> None:
    random_game = play_lab_game(PAGAT, 3, "random", seed=1, index=4, hard_iterations=5)
    skill_game = play_lab_game(PAGAT, 3, "skill", seed=1, index=4, hard_iterations=5)
    assert (random_game.hard_seat, skill_game.hard_seat) == (-1, 1)
    again = play_lab_game(PAGAT, 3, "random", seed=1, index=4)
    assert again == random_game, "a lab game replays exactly"
    with pytest.raises(ValueError, match="run: expected one of"):
        play_lab_game(PAGAT, 3, "clever", seed=1, index=0)


def test_the_total_is_known_before_the_first_game() -> None:
    calls: list[tuple[int, int]] = []
    run_lab([PAGAT], games=1, seed=1, players=[3, 4], hard_iterations=5,
            progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 8) == (0, planned_lab_games(2, 1)) and calls[-1] == (8, 8)


def test_player_counts_default_to_every_count_a_variant_allows() -> None:
    app_rules = Variant("app", Rules.preset("app"), "app")
    counts = [players for _, players in lab_configurations([PAGAT, app_rules])]
    assert counts == [*range(3, 7), *range(app_rules.rules.min_players, app_rules.rules.max_players + 1)]
    with pytest.raises(ValueError, match="players: pagat allows 3-6 players"):
        lab_configurations([PAGAT], [2])


def test_house_rule_variants_are_named_by_what_they_change() -> None:
    variants = parse_variants(["pagat,kortregler"], ["min_sequence=3,follow_suit=true", "min_sequence=2"])
    assert [variant.label for variant in variants] == [
        "pagat", "pagat + min_sequence=3, follow_suit=True",  # pagat's own min_sequence=2 is no variant
        "kortregler", "kortregler + min_sequence=3, follow_suit=True", "kortregler + min_sequence=2"]
    assert variants[1].house_rules == {"min_sequence": 3, "follow_suit": True}


BAD_INPUT = [
    (["--rules", "nope"], "--rules: unknown preset 'nope'"),
    (["--set", "bogus=1"], "--set: unknown option 'bogus'"),
    (["--set", "min_sequence=9"], "--set: must be 0 (off), 2 or 3"),
    (["--rules", "pagat", "--players", "2"], "--players: pagat allows 3-6 players, got 2"),
    (["--players", "three"], "--players: expected player counts such as 3,4"),
    (["--games", "0"], "--games"),
    (["--hard-iterations", "0"], "--hard-iterations"),
    (["--backend", "slurm"], "--backend"),
    (["--address", "auto"], "--address: only the ray backend"),
]


@pytest.mark.parametrize(("args", "fragment"), BAD_INPUT, ids=[" ".join(a) for a, _ in BAD_INPUT])
def test_bad_input_exits_2_with_one_error_line(args: list[str], fragment: str, tmp_path: Path) -> None:
    assert_one_error_line(lab(*args, "--out", str(tmp_path / "report")), fragment)
    assert not (tmp_path / "report").exists(), "nothing is written"


def test_an_earlier_report_or_a_file_in_the_way_is_kept(tmp_path: Path) -> None:
    (tmp_path / "lab.json").write_text("{}", encoding="utf-8")
    assert_one_error_line(lab("--rules", "pagat", *TINY, "--out", str(tmp_path)),
                          "exists; choose another --out")
    assert (tmp_path / "lab.json").read_text(encoding="utf-8") == "{}"
    blocker = tmp_path / "a-file"
    blocker.write_text("mine", encoding="utf-8")
    assert_one_error_line(lab("--rules", "pagat", *TINY, "--out", str(blocker)), "is not a folder")
    assert blocker.read_text(encoding="utf-8") == "mine"


def test_without_matplotlib_the_lab_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    import mattis.cli.lab

    monkeypatch.setattr(mattis.cli.lab, "matplotlib_available", lambda: False)
    assert_one_error_line(lab("--rules", "pagat", *TINY, "--out", str(tmp_path)),
                          'needs matplotlib: pip install "mattis[lab]"')


def test_lab_messages_exist_in_both_languages(tmp_path: Path) -> None:
    result = lab("--rules", "pagat", *TINY, "--out", str(tmp_path), "--lang", "nb")
    assert result.exit_code == 0, result.stderr
    assert "Variantlaboratoriet" in result.stdout and "Tilfeldig er Mattis" in result.stdout
