"""Backends: the local pool and a Ray cluster play the same games and give the same tables;
results are counted as they finish; a missing Ray or a dead address is one error line.

The Ray tests share one small local Ray instance (2 CPUs) per test process and are marked
``ray`` (``pytest -m ray`` selects them); they run in the default suite."""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from mattis import Rules
from mattis.bots import Limit
from mattis.cli.app import app
from mattis.extras import install_command
from mattis.tools.backends import (
    BackendError,
    LocalBackend,
    RayBackend,
    batches,
    make_backend,
    run_in_order,
)
from mattis.tools.simulate import simulate
from mattis.tools.tournament import TournamentResult, planned_games, run_tournament

from .cli_checks import assert_one_error_line

PAGAT = Rules.preset("pagat")


def square(number: int) -> int:
    return number * number


def tournament_table(result: TournamentResult) -> list[Any]:
    """Everything but wall-clock figures and where it ran."""
    rows = []
    for row in (*result.standings, *result.levels):
        data = row.to_dict()
        decisions = data.pop("decisions")
        rows.append({**data, "decisions": decisions["decisions"], "iterations": decisions["iterations"]})
    games = [(o.index, o.seating, o.capped, o.losers, o.places, o.actions) for o in result.outcomes]
    return [rows, games]


def without_timings(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items()
            if key not in ("seconds", "games_per_second", "actions_per_second")}


# ---------------------------------------------------------------------------- local


def test_results_come_back_in_task_order_whatever_order_they_finish() -> None:
    class Shuffled:
        name = "shuffled"
        workers = 3

        def run(self, function: Any, tasks: Any) -> Iterator[tuple[int, Any]]:
            for position in (2, 0, 3, 1, 4):
                yield position, function(tasks[position])

    seen: list[int] = []
    assert list(run_in_order(Shuffled(), square, [0, 1, 2, 3, 4], seen.append)) == [0, 1, 4, 9, 16]
    assert seen == [4, 0, 9, 1, 16], "finished() sees each result the moment it arrives"


def test_batches_cover_every_game_once_in_order() -> None:
    for total, workers, largest in [(1, 1, 50), (9, 2, 50), (1000, 1, 200), (10_000, 64, 4)]:
        cut = batches(total, workers, largest)
        assert [index for batch in cut for index in batch] == list(range(total))
        assert all(1 <= len(batch) <= largest for batch in cut)


def test_a_pool_gives_the_same_simulation_as_this_process() -> None:
    alone = simulate(PAGAT, 3, 120, seed=4)
    pooled = simulate(PAGAT, 3, 120, seed=4, backend=LocalBackend(2))
    assert without_timings(alone.to_dict()) == without_timings(pooled.to_dict())


def test_the_progress_total_is_known_before_the_first_game() -> None:
    calls: list[tuple[int, int]] = []
    run_tournament(PAGAT, 3, ["normal", "easy", "random"], games=4, seed=1,
                   progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 6) == (0, planned_games(4, 3))
    assert calls[-1] == (6, 6)
    assert all(total == 6 for _, total in calls)
    done: list[int] = []
    simulate(PAGAT, 3, 50, seed=1, progress=done.append)
    assert done[0] == 0 and done[-1] == 50 and done == sorted(done)


def test_backend_names_and_addresses_are_checked() -> None:
    with pytest.raises(ValueError, match="backend: expected one of local, ray"):
        make_backend("slurm")
    with pytest.raises(ValueError, match="only the ray backend"):
        make_backend("local", 1, "auto")
    with pytest.raises(ValueError, match="workers"):
        LocalBackend(0)


def test_without_ray_installed_the_ray_backend_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail
    with pytest.raises(BackendError, match=re.escape(install_command("ray"))):
        RayBackend().connect()
    result = CliRunner().invoke(app, ["simulate", "--backend", "ray", "--games", "5"])
    assert_one_error_line(result, f'needs Ray: {install_command("ray")}')


def test_an_address_where_nothing_listens_is_one_error_line_at_once() -> None:
    result = CliRunner().invoke(app, ["tournament", "--backend", "ray", "--address", "127.0.0.1:1",
                                      "--bots", "normal,easy,random", "--games", "3"])
    assert_one_error_line(result, "no Ray cluster answers at '127.0.0.1:1'")
    result = CliRunner().invoke(app, ["simulate", "--address", "auto", "--games", "5"])
    assert_one_error_line(result, "--address: only the ray backend connects to an address")


# ---------------------------------------------------------------------------- ray


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    """One small local Ray instance for this module's Ray tests (a backend joins it and
    leaves it running)."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    yield
    ray.shutdown()


@pytest.mark.ray
def test_a_tournament_and_a_simulation_give_the_same_table_on_local_and_ray(ray_instance: None) -> None:
    bots = ["normal", "easy", "random"]
    local = run_tournament(PAGAT, 3, bots, games=60, seed=9, workers=2)
    on_ray = run_tournament(PAGAT, 3, bots, games=60, seed=9, backend=RayBackend())
    assert on_ray.backend == "ray" and local.backend == "local"
    assert tournament_table(local) == tournament_table(on_ray)

    searching = ["hard", "normal", "random"]
    limit = Limit(iterations=15)
    local = run_tournament(PAGAT, 3, searching, games=3, seed=2, hard_limit=limit)
    on_ray = run_tournament(PAGAT, 3, searching, games=3, seed=2, hard_limit=limit, backend=RayBackend())
    assert tournament_table(local) == tournament_table(on_ray)

    app_rules = Rules.preset("app")
    alone = simulate(app_rules, 4, 400, seed=3)
    on_ray_stats = simulate(app_rules, 4, 400, seed=3, backend=RayBackend())
    assert without_timings(alone.to_dict()) == without_timings(on_ray_stats.to_dict())


@pytest.mark.ray
def test_ray_counts_games_as_they_finish(ray_instance: None) -> None:
    calls: list[tuple[int, int]] = []
    run_tournament(PAGAT, 3, ["normal", "easy", "random"], games=30, seed=1, backend=RayBackend(),
                   progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 30) and calls[-1] == (30, 30)
    assert len(calls) > 2, "progress moves batch by batch, not once at the end"
    backend = RayBackend()
    finished = sorted(result for _, result in backend.run(square, list(range(6))))
    assert finished == [0, 1, 4, 9, 16, 25]
    assert backend.workers == 2
    backend.close()
    import ray

    assert ray.is_initialized(), "a backend leaves a Ray instance it did not start running"


@pytest.mark.ray
def test_cli_json_is_the_same_on_local_and_ray(ray_instance: None) -> None:
    def json_of(*args: str) -> dict[str, Any]:
        import json

        result = CliRunner().invoke(app, [*args, "--json"])
        assert result.exit_code == 0, result.stderr
        data: dict[str, Any] = json.loads(result.stdout)
        for key in ("seconds", "games_per_second", "actions_per_second", "workers", "backend"):
            data.pop(key, None)
        for row in (*data.get("standings", ()), *data.get("levels", ())):
            row["decisions"] = {key: row["decisions"][key] for key in ("decisions", "iterations")}
        return data

    tournament = ("tournament", "--bots", "normal,random,random", "--games", "12", "--seed", "5")
    assert json_of(*tournament, "--workers", "1") == json_of(*tournament, "--backend", "ray")
    simulation = ("simulate", "--rules", "kortregler", "--players", "4", "--games", "200", "--seed", "2")
    assert json_of(*simulation) == json_of(*simulation, "--backend", "ray")
    text = CliRunner().invoke(app, [*tournament, "--backend", "ray", "--lang", "en"], env={"COLUMNS": "200"})
    assert "Played on a Ray cluster with 2 CPUs" in text.stdout


@pytest.mark.ray
def test_the_lab_gives_the_same_numbers_on_ray(ray_instance: None) -> None:
    from mattis.tools.lab import Variant, run_lab

    variants = [Variant("kortregler", Rules.preset("kortregler"), "kortregler")]
    local = run_lab(variants, games=2, seed=4, players=[2], hard_iterations=5).to_dict()
    on_ray = run_lab(variants, games=2, seed=4, players=[2], hard_iterations=5,
                     backend=RayBackend()).to_dict()
    for data in (local, on_ray):
        for key in ("seconds", "workers", "backend"):
            data.pop(key)
    assert local == on_ray


PARENT_SCRIPT = """
import os, time
from mattis.pool import worker_pool
if __name__ == "__main__":
    pool = worker_pool(2)
    pids = {pool.submit(os.getpid).result() for _ in range(8)}
    print(" ".join(map(str, sorted(pids))), flush=True)
    time.sleep(600)
"""


def test_pool_workers_end_when_their_parent_is_killed(tmp_path: Any) -> None:
    """A server or tournament killed with SIGKILL leaves no worker processes behind."""
    import os
    import signal
    import subprocess
    import time

    script = tmp_path / "parent.py"
    script.write_text(PARENT_SCRIPT)
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert workers and parent.pid not in workers
        for pid in workers:
            os.kill(pid, 0)  # alive while the parent is
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        if parent.stdout:
            parent.stdout.close()

    def alive(pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                return stat.read().split(") ")[-1][0] != "Z"
        except FileNotFoundError:
            return False

    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers), "orphaned workers are still running"
