"""The variant lab: a tiny run writes valid JSON and a self-contained HTML page with its
plots embedded; its numbers do not depend on the worker count; bad input is one line
before any game is played."""

from __future__ import annotations

import base64
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from mattis import Rules
from mattis.cli.app import app
from mattis.cli.lab import parse_variants
from mattis.extras import install_command
from mattis.i18n import Lang, format_number
from mattis.tools.backends import LocalBackend
from mattis.tools.lab import (
    RUNS,
    LabResult,
    PairedDifference,
    Variant,
    lab_configurations,
    paired_difference_interval,
    planned_lab_games,
    play_lab_game,
    run_lab,
)
from mattis.tools.lab_report import empty_figure, length_figure, render_html, seat_figure, skill_figure
from mattis.tools.tournament import wilson_interval

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
                          f'needs matplotlib: {install_command("lab")}')


def test_lab_messages_exist_in_both_languages(tmp_path: Path) -> None:
    result = lab("--rules", "pagat", *TINY, "--out", str(tmp_path), "--lang", "nb")
    assert result.exit_code == 0, result.stderr
    assert "Variantlaboratoriet" in result.stdout and "Tilfeldig er Mattis" in result.stdout


# ---------------------------------------------------------------- the overview, honest at a glance

APP = Variant("app", Rules.preset("app"), "app")


def newcombe_interval(first: list[float], second: list[float]) -> tuple[float, float]:
    """The difference of two proportions from two independent Wilson intervals (Newcombe's
    method): what the lab would report if it ignored that its runs share their deals."""
    p1, p2 = sum(first) / len(first), sum(second) / len(second)
    l1, u1 = wilson_interval(int(sum(first)), len(first))
    l2, u2 = wilson_interval(int(sum(second)), len(second))
    return (p1 - p2 - ((p1 - l1) ** 2 + (u2 - p2) ** 2) ** 0.5,
            p1 - p2 + ((u1 - p1) ** 2 + (p2 - l2) ** 2) ** 0.5)


def correlated_pairs(seed: int, games: int, agree: float) -> list[tuple[float, float]]:
    """Pairs of Mattis outcomes that share a deal: with chance ``agree`` the second copies the first."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(games):
        first = float(rng.random() < 0.35)
        second = first if rng.random() < agree else float(rng.random() < 0.15)
        pairs.append((first, second))
    return pairs


@pytest.mark.parametrize("seed", range(6))
def test_avoided_s_paired_interval_is_no_wider_than_two_independent_ones_and_holds_the_difference(
        seed: int) -> None:
    pairs = correlated_pairs(seed, games=60 + 40 * seed, agree=0.6)
    paired = PairedDifference.of(pairs)
    unpaired = newcombe_interval([a for a, _ in pairs], [b for _, b in pairs])
    assert paired.high - paired.low <= unpaired[1] - unpaired[0]
    assert paired.low <= paired.difference <= paired.high
    assert paired.difference == pytest.approx(sum(a - b for a, b in pairs) / len(pairs))


def test_the_paired_interval_is_agresti_and_min_s_for_mattis_outcomes() -> None:
    pairs = [(1.0, 0.0)] * 14 + [(0.0, 1.0)] * 3 + [(1.0, 1.0)] * 5 + [(0.0, 0.0)] * 28
    n, z = len(pairs) + 2, 1.959963984540054
    random_only, hard_only = (14 + 0.5) / n, (3 + 0.5) / n
    centre = random_only - hard_only
    half = z * ((random_only + hard_only - centre**2) / n) ** 0.5
    interval = paired_difference_interval([a - b for a, b in pairs])
    assert interval == pytest.approx((centre - half, centre + half))
    assert paired_difference_interval([]) == (-1.0, 1.0)


def test_a_difference_that_never_varies_still_gets_an_interval() -> None:
    """hard never Mattis against a fixed 1/3: an honest interval, not a point."""
    low, high = paired_difference_interval([1 / 3] * 50)
    assert low < 1 / 3 < high and high - low > 0.01


@pytest.fixture(scope="module")
def small_lab() -> LabResult:
    return run_lab([PAGAT, APP], games=6, seed=2, players=[3, 6], hard_iterations=1)  # shapes, not strength


def test_random_s_rate_is_fixed_by_construction_only_when_every_deal_made_one_mattis(
        small_lab: LabResult) -> None:
    """P2.9: a finished deal makes one Mattis; P1.10: several only when several are left with nothing."""
    seen = set()
    for configuration in small_lab.configurations:
        skill, run = configuration.skill, configuration.run("random")
        seen.add(skill.random_by_construction)
        assert skill.random_by_construction == (run.shared_loss_games == 0)
        if skill.random_by_construction:
            assert skill.random_overall.low == skill.random_overall.rate == skill.random_overall.high
            assert skill.random_overall.rate == pytest.approx(1 / configuration.players)
        else:
            assert skill.random_overall.low < skill.random_overall.rate < skill.random_overall.high
        data = configuration.to_dict()["skill"]
        assert data["random_by_construction"] is skill.random_by_construction
        low, high = data["avoided_ci95"]
        assert low <= data["avoided"] <= high and data["avoided_paired"]["pairs"] == run.finished_games
        assert [seat["pairs"] for seat in data["avoided_by_seat"]] == [
            sum(1 for index in range(6) if index % configuration.players == seat)
            for seat in range(configuration.players)]
    assert seen == {True, False}, "app at 6 players shares losses (Blodmattis); pagat at 3 does not"


def test_the_html_report_shows_no_interval_on_a_fixed_rate_and_states_the_caution(
        small_lab: LabResult) -> None:
    page = render_html(small_lab)
    assert "data-caution" in page and "about one in twenty" in page and "as a hypothesis" in page
    assert "data-fixed-rate" in page and "Fixed by construction" in page
    overview = page.split("<h2>Overview", 1)[1].split("</table>", 1)[0]
    for configuration, row in zip(small_lab.configurations, overview.split("<tr>")[2:], strict=True):
        random_cell = row.split("<td>")[7]
        assert ("<small>" not in random_cell) is configuration.skill.random_by_construction
        assert "paired 95%" in overview and row.split("<td>")[9].count("<small>") == 1


def test_plot_legends_lie_outside_the_bars(small_lab: LabResult) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    configurations = small_lab.configurations
    figures = [seat_figure(configurations[0]), skill_figure(configurations), length_figure(configurations),
               empty_figure(configurations)]
    for figure in figures:
        renderer = FigureCanvasAgg(figure).get_renderer()  # type: ignore[no-untyped-call]
        figure.draw(renderer)
        axes = figure.axes[0]
        legend = axes.get_legend().get_window_extent(renderer)
        assert not legend.overlaps(axes.get_window_extent(renderer)), axes.get_title()


@pytest.mark.parametrize("lang", ["en", "nb"])
def test_the_terminal_overview_fits_80_columns_uncut_with_the_caution(lang: Lang, tmp_path: Path) -> None:
    rules = ("--rules", "pagat,app", "--set", "min_sequence=3,follow_suit=true", "--players", "3,4")
    cheap = [*TINY[2:4], "--hard-iterations", "1", *TINY[6:]]  # the table's shape, not hard's strength
    result = CliRunner().invoke(app, ["lab", *rules, *cheap, "--out", str(tmp_path), "--lang", lang],
                                env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "…" not in result.stdout and max(len(line.rstrip()) for line in lines) <= 80
    table = result.stdout.split({"en": "Random and hard:", "nb": "Tilfeldig og hard:"}[lang])[0]
    header_words = {
        "en": ["Random", "Mattis", "hard", "Avoided", "(points)", "Seat", "spread", "Blå/Blod", "Loops"],
        "nb": ["Tilfeldig", "Mattis", "hard", "Unngått", "(poeng)", "Spredning", "Blå/Blod", "Løkker"]}
    assert all(word in table.split() for word in header_words[lang])
    data = json.loads((tmp_path / "lab.json").read_text(encoding="utf-8"))
    for configuration in data["configurations"]:
        for part in configuration["label"].replace(",", ", ").split():
            assert part.strip(",") in table, "labels wrap, never cut"
        avoided = format_number(abs(100 * configuration["skill"]["avoided"]), lang, 1)
        assert avoided in table
    caution = {"en": "about one in twenty", "nb": "omtrent ett av tjue"}[lang]
    assert caution in " ".join(result.stdout.split())
