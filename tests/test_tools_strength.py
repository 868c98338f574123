"""The strength-curve experiment (issue 9, item 5): cells played in chunks until their
intervals are narrow enough, a checkpoint that survives interruption without losing or
repeating games, and the table and plot it writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mattis.cli.strength import main, parse_budgets, strength_command
from mattis.tools.backends import LocalBackend
from mattis.tools.strength import (
    CHECKPOINT,
    PLOT_PNG,
    TABLE_JSON,
    TABLE_MD,
    Experiment,
    Settings,
    StrengthError,
    load_or_start,
    run,
)

TINY = Settings(budgets=(2, 6), series=("normal,normal", "hard:3,random"), chunk_deals=1, target=0.35,
                max_games=6)
LOCAL = LocalBackend(1)


def facts(experiment: Experiment) -> dict[str, object]:
    """The checkpoint without thinking times (which differ from run to run)."""
    data = experiment.to_dict()
    for cell in data["cells"]:
        for chunk in cell["chunks"]:
            chunk.pop("seconds")
    return data


def test_a_run_plays_every_cell_until_its_interval_or_cap_and_writes_table_and_plot(tmp_path: Path) -> None:
    experiment = run(tmp_path, TINY, LOCAL)
    table = experiment.table()
    assert [(cell.series, cell.budget) for cell in table] == TINY.cells()
    for cell in table:
        assert cell.done
        assert cell.half_width <= TINY.target or cell.games >= TINY.max_games
        assert cell.games % TINY.chunk_games == 0 and cell.games > 0
        assert cell.low <= cell.rate <= cell.high
        assert cell.iterations <= cell.budget * cell.decisions, "hard never searches past its budget"
    data = json.loads((tmp_path / TABLE_JSON).read_text())
    assert [row["mattis"] for row in data["cells"]] == [cell.mattis for cell in table]
    markdown = (tmp_path / TABLE_MD).read_text()
    assert markdown.count("\n| against") == len(table)
    assert "| against 2 × normal | 6 |" in markdown
    assert (tmp_path / PLOT_PNG).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_interrupted_run_goes_on_without_losing_or_repeating_games(tmp_path: Path) -> None:
    straight = run(tmp_path / "straight", TINY, LOCAL)

    class Stop(Exception):
        pass

    played = []

    def stop_after_three(experiment: Experiment, cell: object) -> None:
        played.append(cell)
        if len(played) == 3:
            raise Stop

    with pytest.raises(Stop):
        run(tmp_path / "broken", TINY, LOCAL, report=stop_after_three)
    saved = load_or_start(tmp_path / "broken", TINY)
    assert sum(len(chunks) for chunks in saved.chunks.values()) == 3, "every finished chunk was saved"
    resumed = run(tmp_path / "broken", TINY, LOCAL)
    assert facts(resumed) == facts(straight)


def test_no_time_left_plays_nothing(tmp_path: Path) -> None:
    experiment = run(tmp_path, TINY, LOCAL, hours=0)
    assert experiment.chunks == {}
    assert not (tmp_path / CHECKPOINT).exists()


def test_every_budget_meets_the_same_deals() -> None:
    assert TINY.chunk_seed(0) != TINY.chunk_seed(1)
    assert Settings(budgets=(9,), seed=1).chunk_seed(4) == TINY.chunk_seed(4), \
        "chunk seeds depend on the experiment seed and the chunk only"
    assert Settings(seed=2).chunk_seed(0) != TINY.chunk_seed(0)


def test_a_checkpoint_of_other_settings_or_damaged_is_refused_and_kept(tmp_path: Path) -> None:
    run(tmp_path, TINY, LOCAL, hours=None)
    before = (tmp_path / CHECKPOINT).read_bytes()
    other = Settings(budgets=(2, 6), series=TINY.series, chunk_deals=2, target=TINY.target,
                     max_games=TINY.max_games)
    with pytest.raises(StrengthError, match="other settings"):
        run(tmp_path, other, LOCAL)
    assert (tmp_path / CHECKPOINT).read_bytes() == before
    for damage in (b"{", b"[]", b'{"format": "mattis-strength/1"}', b"[" * 100_000,
                   before.replace(b'"chunk": 0', b'"chunk": 7')):
        (tmp_path / CHECKPOINT).write_bytes(damage)
        with pytest.raises(StrengthError, match="cannot continue from this checkpoint"):
            run(tmp_path, TINY, LOCAL)
        assert (tmp_path / CHECKPOINT).read_bytes() == damage, "nothing is overwritten"


@pytest.mark.parametrize(("settings", "fragment"), [
    ({"budgets": ()}, "budgets"),
    ({"budgets": (0, 5)}, "budgets"),
    ({"series": ("normal",)}, "must name 2 opponents"),
    ({"series": ("normal,clever",)}, "unknown level 'clever'"),
    ({"players": 2}, "pagat allows 3-6 players"),
    ({"target": 0.0}, "target"),
    ({"chunk_deals": 0}, "chunk_deals"),
])
def test_bad_settings_name_the_field(settings: dict[str, object], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        Settings(**settings)  # type: ignore[arg-type]


def test_the_command_runs_continues_and_refuses_bad_input(tmp_path: Path) -> None:
    args = ["--out", str(tmp_path), "--budgets", "2", "--opponents", "normal,normal", "--chunk-deals", "1",
            "--target", "0.45", "--workers", "1"]
    with pytest.raises(SystemExit) as finished:
        main(args)
    assert finished.value.code == 0
    assert "| against 2 × normal | 2 |" in (tmp_path / TABLE_MD).read_text()
    import typer

    app = typer.Typer()
    app.command()(strength_command)
    for bad, fragment in ((["--budgets", "²"], "--budgets: comma-separated whole numbers"),
                          (["--opponents", "normal"], "must name 2 opponents"),
                          (["--chunk-deals", "5"], "other settings")):
        result = CliRunner().invoke(app, [*args, *bad])
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], lines


def test_budgets_parse_ascii_digits_only() -> None:
    assert parse_budgets("125, 1_000,8000") == (125, 1000, 8000)
    for bad in ("", "1.5", "٣", "9" * 20, "a,b"):
        with pytest.raises(ValueError, match="--budgets"):
            parse_budgets(bad)


def test_points_not_yet_played_show_dashes_not_figures(tmp_path: Path) -> None:
    from mattis.tools.strength import markdown_table

    table = markdown_table(Experiment(TINY))
    assert "| against 2 × normal | 2 | 0 | – | – | – | – | – | – | no |" in table
    assert "100.0" not in table and "0.0%" not in table


def test_a_finished_run_is_extended_by_a_larger_cap_or_more_budgets_keeping_its_games(
        tmp_path: Path) -> None:
    """Issue 17 item 5: a finished run is not refused when asked for more; the chunks played
    stay, and only new games are played (the same deals, so the cells stay comparable)."""
    finished = run(tmp_path, TINY, LOCAL, hours=None)
    assert finished.next_cell() is None
    played = {key: list(chunks) for key, chunks in finished.chunks.items()}
    larger = Settings(budgets=(2, 6, 12), series=("normal,normal",), chunk_deals=1, target=0.2,
                      max_games=9)
    extended = run(tmp_path, larger, LOCAL, hours=0.0)  # load and save only: no chunk starts
    assert extended.settings.budgets == (2, 6, 12)
    assert extended.settings.series == TINY.series  # no cell played so far is dropped
    assert (extended.settings.target, extended.settings.max_games) == (0.2, 9)
    assert extended.next_cell() is not None
    for key, chunks in played.items():
        assert extended.chunks[key] == chunks
    more = run(tmp_path, larger, LOCAL, hours=None)
    assert more.next_cell() is None
    assert sum(cell.games for cell in more.table()) > sum(cell.games for cell in finished.table())
    for key, chunks in played.items():
        assert more.chunks[key][: len(chunks)] == chunks
