"""Speed of the learning environments, side by side with OpenSpiel's C++ hearts (issue 17).

Random play, pagat with 3 players, in one run: the engine alone; PettingZoo ``env()`` with the
observation and the action mask read at every step; Gymnasium ``MattisEnv`` against
``random`` bots; OpenSpiel ``python_mattis`` with ``observation_tensor`` at every step (and
without, to show what the tensor costs); OpenSpiel's C++ ``hearts`` with
``information_state_tensor`` at every step. Each figure is the median of ``--runs`` runs of
``--seconds`` each; the rows take turns, run after run. Time is this process's CPU time
(``time.process_time``), and the turns make a busy or slow moment of a shared machine hit
every row alike instead of whichever row it meets.

Then the cost of one step (the action and the mover's observation, through the
:class:`~mattis.envs.encoding.SeatEncoder` every environment uses) near action 5 and near
action 3,000 of one long phase-2 game (players pick up whenever they may, more often than
not), beside the old way, :func:`~mattis.envs.encoding.encode_view` of the whole view.

    python benchmarks/env_speed.py                 # about two minutes
    python benchmarks/env_speed.py --json out.json
    PYTHONPATH=old/src python benchmarks/env_speed.py --rows-only   # an older checkout's rows

Run it on both builds to compare them: ``MATTIS_COMPILE=1 pip install ".[rl]"`` gives a compiled
install, and ``MATTIS_PURE=1`` makes that install run pure Python; the figures say which ran.

Then batching (issue 30 item 5): the single ``MattisEnv`` row beside ``MattisVectorEnv`` with 8
and 64 games, each on one core (process CPU time, rows taking turns), and 64 games stepped in one
process (``MattisVectorEnv``) beside two worker processes (``AsyncMattisVectorEnv(workers=2)``), on
wall-clock time (the point is the second core), with the machine's load average before and
after. A batch's step counts one step per game; the random legal actions are drawn for the
whole batch at once. One more row gives the ceiling of any batch on one core: the 64 games'
moves, the bots' replies and the learner's seat view, with no encoding at all.

    python benchmarks/env_speed.py --vector-only --runs 5 --seconds 2   # the batching figures

Issue 30's targets are 64 games at least 2 times one game on one core, and the two workers at
least 1.6 times one process. Measured 2026-12-06 on an idle machine
(``benchmarks/2026-12-06/env-speed-vector-*.json``): 64 games 1.08 times one game in pure Python
and 0.95 times compiled; two workers 1.77 times one process in pure Python and 1.49 times
compiled. With polling instead of sleeping between steps (later that day, on a busy host,
``env-speed-vector-compiled-polling.json``): 1.46 times compiled, the games keeping 1.57 cores
busy. The ceiling row, the games' moves and seat views with no encoding at all, ran at 1.72
and 1.67 times one game: each game's moves, bots and seat view cost what they cost, so no
encoding can bring a batch to 2 times.

A *step* is one player action (chance moves are played but not counted; in Gymnasium one
``env.step``, the learner's action, with the bots' replies inside it). Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

import mattis.envs.openspiel  # noqa: F401 - registers python_mattis
from mattis import PICKUP, Game
from mattis.envs.gymnasium import MattisEnv
from mattis.envs.pettingzoo import env as pettingzoo_env
from mattis.envs.vector import AsyncMattisVectorEnv, MattisVectorEnv

RULES, PLAYERS = "pagat", 3
LONG_GAME = ("pagat", 5, 1)
"""A deal whose pick-up-happy play is still in phase 2 after 3,000 actions."""


def per_second(work: Callable[[float], int], seconds: float) -> float:
    """Steps per CPU second of ``work(seconds)``, which plays until that much time passed."""
    started = time.process_time()
    steps = work(seconds)
    return steps / (time.process_time() - started)


def engine(seconds: float) -> int:
    rng, steps, seed = random.Random(1), 0, 0
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        game = Game.new(RULES, PLAYERS, seed=seed)
        seed += 1
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            steps += 1
    return steps


def pettingzoo(seconds: float) -> int:
    rng, steps, seed = random.Random(1), 0, 0
    environment = pettingzoo_env(rules=RULES, players=PLAYERS)
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        environment.reset(seed=seed)
        seed += 1
        for _ in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
            else:
                environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                steps += 1
    return steps


def gymnasium(seconds: float) -> int:
    rng, steps, seed = random.Random(1), 0, 0
    environment = MattisEnv(rules=RULES, players=PLAYERS, opponents="random")
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        _, info = environment.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, terminated, truncated, info = environment.step(action)
            done = terminated or truncated
            steps += 1
    return steps


def openspiel(name: str, tensor: str | None) -> Callable[[float], int]:
    game = pyspiel.load_game(name)

    def work(seconds: float) -> int:
        rng, steps = random.Random(1), 0
        deadline = time.process_time() + seconds
        while time.process_time() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                if tensor is not None:
                    getattr(state, tensor)()
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        return steps

    return work


ROWS: tuple[tuple[str, Callable[[float], int]], ...] = (
    ("engine only (Game.legal_actions + apply)", engine),
    ("PettingZoo env(), observation + mask every step", pettingzoo),
    ("Gymnasium MattisEnv vs random, observation + mask every step", gymnasium),
    ("OpenSpiel python_mattis, observation_tensor every step",
     openspiel("python_mattis", "observation_tensor")),
    ("OpenSpiel python_mattis, no tensor", openspiel("python_mattis", None)),
    ("OpenSpiel C++ hearts, information_state_tensor every step",
     openspiel("hearts", "information_state_tensor")),
)


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly drawn legal action of every game of a batch (0 where a game has none), all
    at once. It reads only the legal moves, about a hundred of the batch's 23,000 mask cells,
    so the player's own time (a fifth of an async step when it drew a number for every cell)
    stays out of the environment's figures."""
    games, width = masks.shape
    legal = np.flatnonzero(masks.view(np.bool_))  # game by game, each game's moves in order
    counts = np.bincount(legal // width, minlength=games)
    has_moves = counts > 0
    picks = (np.cumsum(counts) - counts + (rng.random(games) * counts).astype(np.intp))[has_moves]
    actions = np.zeros(games, dtype=np.intp)
    actions[has_moves] = legal[picks] % width
    return actions


def batch_work(batch: MattisVectorEnv, clock: Callable[[], float]) -> Callable[[float], int]:
    """Steps (one per game) of random play in ``batch`` until ``seconds`` of ``clock`` passed;
    the batch goes on from where the previous run left it."""
    rng = np.random.default_rng(1)
    state = {"masks": batch.reset(seed=0)[1]["action_mask"]}

    def work(seconds: float) -> int:
        steps, deadline = 0, clock() + seconds
        while clock() < deadline:
            *_, info = batch.step(random_legal(state["masks"], rng))
            state["masks"] = info["action_mask"]
            steps += batch.num_envs
        return steps

    return work


def games_only_work(num_envs: int) -> Callable[[float], int]:
    """What a batch of ``num_envs`` games costs before any encoding: each game's random legal
    move, the ``random`` bots' replies and the learner's seat view (the one source every
    observation is read from), with no observation, mask or batch arrays. No batch can step
    faster than this on one core, whatever its encoding costs."""
    from mattis.envs.gymnasium import MattisEnv

    games = [MattisEnv(rules=RULES, players=PLAYERS, opponents="random") for _ in range(num_envs)]
    for seed, game in enumerate(games):
        game._deal(seed)
    rng = random.Random(1)

    def work(seconds: float) -> int:
        steps, deadline = 0, time.process_time() + seconds
        while time.process_time() < deadline:
            for game in games:
                legal = game._legal_indices()
                if not legal:  # ended: deal the next
                    game._deal(None)
                    continue
                game._advance(rng.choice(legal))
                state = game._require_game()
                state.seat_view(game.seat, since=state.num_events)
                steps += 1
        return steps

    return work


def per_wall_second(work: Callable[[float], int], seconds: float) -> float:
    """Steps per wall-clock second of ``work(seconds)``: what two cores buy shows here only."""
    started = time.perf_counter()
    steps = work(seconds)
    return steps / (time.perf_counter() - started)


def batching(runs: int, seconds: float) -> dict[str, object]:
    """The batching figures (module docstring): medians of ``runs`` runs, and their ratios."""
    import os

    options: dict[str, Any] = {"rules": RULES, "players": PLAYERS, "opponents": "random", "copy": False}
    one_core = {
        "MattisEnv, one game": gymnasium,
        "MattisVectorEnv(8)": batch_work(MattisVectorEnv(8, **options), time.process_time),
        "MattisVectorEnv(64)": batch_work(MattisVectorEnv(64, **options), time.process_time),
        "64 games, moves and seat views only": games_only_work(64),
    }
    sync = MattisVectorEnv(64, **options)
    workers = AsyncMattisVectorEnv(64, workers=2, **options)
    two_cores = {
        "MattisVectorEnv(64), one process": batch_work(sync, time.perf_counter),
        "AsyncMattisVectorEnv(64, workers=2)": batch_work(workers, time.perf_counter),
    }
    load_before = os.getloadavg()
    per_run: dict[str, list[float]] = {name: [] for name in (*one_core, *two_cores)}
    try:
        for _ in range(runs):
            for name, work in one_core.items():
                per_run[name].append(per_second(work, seconds))
            for name, work in two_cores.items():
                per_run[name].append(per_wall_second(work, seconds))
    finally:
        workers.close()
    load_after = os.getloadavg()
    medians = {name: statistics.median(values) for name, values in per_run.items()}
    print(f"\nbatching: random play against random bots, {RULES} with {PLAYERS} players; steps per second "
          f"(one per game), median of {runs} runs of {seconds:g} s; {os.cpu_count()} cores, load average "
          f"{load_before[0]:.1f} before and {load_after[0]:.1f} after")
    for name in per_run:
        clock = "CPU" if name in one_core else "wall"
        shown = ", ".join(f"{value:,.0f}" for value in per_run[name])
        print(f"{name:40} {clock:>5} {medians[name]:9,.0f}   {shown}")
    single = medians["MattisEnv, one game"]
    ratios = {
        "64 games / one game, one core": medians["MattisVectorEnv(64)"] / single,
        "8 games / one game, one core": medians["MattisVectorEnv(8)"] / single,
        "ceiling: moves and views only / one game": medians["64 games, moves and seat views only"] / single,
        "async / sync, 64 games": medians["AsyncMattisVectorEnv(64, workers=2)"]
        / medians["MattisVectorEnv(64), one process"],
        "cores the workers kept busy": workers.game_seconds / workers.wait_seconds,
    }
    for name, ratio in ratios.items():
        print(f"{name:40} {ratio:15.2f}x")
    return {"steps_per_second": {name: {"median": medians[name], "runs": values}
                                 for name, values in per_run.items()},
            "ratios": ratios, "load_average_before": load_before, "load_average_after": load_after}


def long_game_actions(actions: int) -> list[str]:
    """The actions of :data:`LONG_GAME` played pick-up-happy, ``actions`` of them."""
    preset, players, seed = LONG_GAME
    game = Game.new(preset, players, seed=seed)
    rng = random.Random(seed)
    while game.num_actions < actions:
        if game.is_over:
            raise RuntimeError(f"the long game ended after {game.num_actions} actions")
        legal = game.legal_actions()
        game.apply(PICKUP if PICKUP in legal and rng.random() < 0.6 else rng.choice(legal))
    return [str(action) for action in game.actions]


def step_costs(actions: list[str], windows: list[range]) -> dict[str, dict[int, float]]:
    """Median CPU microseconds of one step (apply, then the mover's observation) in each
    window of action numbers: incrementally (SeatEncoder) and from the whole view."""
    from mattis.envs.encoding import SeatEncoder, encode_view  # here, so --rows-only runs on older code

    preset, players, seed = LONG_GAME
    costs: dict[str, dict[int, float]] = {"incremental": {}, "whole view": {}}
    for way in costs:
        game = Game.new(preset, players, seed=seed)
        encoders = [SeatEncoder(seat, players, game.rules) for seat in range(players)]
        samples: dict[int, list[float]] = {window.start: [] for window in windows}
        for number, action in enumerate(actions):
            window = next((w.start for w in windows if number in w), None)
            started = time.process_time()
            game.apply(action)
            seat = game.to_move or 0
            encoder = encoders[seat]
            if way == "incremental" or window is None:
                encoder.update(game.seat_view(seat, since=encoder.count)).copy()
            else:
                encode_view(game.view(seat))
            if window is not None:
                samples[window].append(time.process_time() - started)
        costs[way] = {start: statistics.median(values) * 1e6 for start, values in samples.items()}
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per row (the median is shown)")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per run")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--rows-only", action="store_true", help="skip the cost of one step and batching")
    parser.add_argument("--vector-only", action="store_true", help="only the batching figures")
    args = parser.parse_args()

    try:  # here, so --rows-only runs on older code, which was always pure
        from mattis.build import build
        kind = build()
    except ImportError:
        kind = "pure"
    results: dict[str, object] = {"build": kind, "rules": RULES, "players": PLAYERS, "runs": args.runs,
                                  "seconds_per_run": args.seconds, "clock": "process CPU time"}
    rows: dict[str, dict[str, float | list[float]]] = {}
    medians: dict[str, float] = {}
    if args.vector_only:
        results["batching"] = batching(args.runs, args.seconds)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as file:
                json.dump(results, file, indent=2)
        return
    per_run: dict[str, list[float]] = {name: [] for name, _ in ROWS}
    for _ in range(args.runs):  # the rows take turns, so a slower moment of the machine hits them all
        for name, work in ROWS:
            per_run[name].append(per_second(work, args.seconds))
    print(f"random play, {RULES} with {PLAYERS} players, the {results['build']} build; steps per CPU second, "
          f"median of {args.runs} runs")
    print(f"{'':64} {'steps/s':>9}   runs")
    for name, _ in ROWS:
        medians[name] = statistics.median(per_run[name])
        rows[name] = {"median": medians[name], "runs": per_run[name]}
        shown = ", ".join(f"{value:,.0f}" for value in per_run[name])
        print(f"{name:64} {medians[name]:9,.0f}   {shown}", flush=True)
    results["steps_per_second"] = rows
    engine, pettingzoo, spiel, hearts = (medians[ROWS[index][0]] for index in (0, 1, 3, 5))
    print(f"\nPettingZoo env(): {pettingzoo / 1000:.1f}k steps/s (target 30k), {pettingzoo / engine:.1%} of "
          f"the engine's speed; python_mattis with tensors: {spiel / hearts:.2f}x hearts (target 2x)")

    if not args.rows_only:
        windows = [range(1, 41), range(2_981, 3_021)]
        costs = step_costs(long_game_actions(windows[-1].stop), windows)
        results["step_microseconds"] = {way: {str(k): v for k, v in by.items()} for way, by in costs.items()}
        preset, players, seed = LONG_GAME
        print(f"\none step (the action and the mover's observation), {preset} with {players} players, "
              f"seed {seed}, picking up whenever allowed 60% of the time; median CPU microseconds")
        print(f"{'':24}" + "".join(f"{f'actions {w.start}-{w.stop - 1}':>20}" for w in windows))
        for way, by_window in costs.items():
            print(f"{way:24}" + "".join(f"{by_window[w.start]:20.1f}" for w in windows))
        results["batching"] = batching(args.runs, args.seconds)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(results, file, indent=2)


if __name__ == "__main__":
    main()
