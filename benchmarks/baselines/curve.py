"""What N minutes of ``mattis train`` buy (issue 30, item 3): the learning curve.

For each opponent level and training seed, one ``mattis train`` run against two bots of
that level, stopped after the longest of the minutes (CPU time of the run), keeping a
snapshot of the policy after each of the shorter ones. Each snapshot then plays a fair
tournament against two bots of the level it trained against (every deal in all six
seatings); an equal player is Mattis in a third of the games.

    python benchmarks/baselines/curve.py train --opponent easy --seeds 1,2,3 --minutes 5,15,30
    python benchmarks/baselines/curve.py evaluate --games 300
    python benchmarks/baselines/curve.py report

``train`` and ``evaluate`` skip what is already in ``curve/``, so a stopped run goes on;
the snapshots are not committed (``.gitignore``), the results are (``curve/results.json``).
A snapshot after 5 minutes is the policy as it stood in a longer run after 5 minutes,
not a run meant to be 5 minutes long: the learning rate had not yet fallen. The learning rate
falls over the whole run, so the 15th minute of a 60-minute run is not the end of a
15-minute run: snapshots and results carry the run's length (``run_minutes``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from mattis import Rules
from mattis.bots.learned import load_checkpoint
from mattis.tools.tournament import run_tournament

HERE = Path(__file__).resolve().parent / "curve"
STEPS_A_MINUTE = 150_000
"""More learner decisions than a minute of one core makes, so ``--minutes`` ends the run."""


def checkpoint(opponent: str, seed: int, run_minutes: float) -> Path:
    return HERE / f"{opponent}-seed{seed}-of{run_minutes:g}.npz"


def snapshot(opponent: str, seed: int, minutes: float, run_minutes: float) -> Path:
    """The policy after ``minutes`` of a run of ``run_minutes``: the same minute of a longer
    run is another policy (its learning rate falls more slowly), so the name says both. The
    name is the one ``mattis train --snapshot-minutes`` writes (``evaluate`` reads it back)."""
    from mattis.envs.train import snapshot_path  # the train extra, which train() needs anyway

    return snapshot_path(checkpoint(opponent, seed, run_minutes), minutes)


def train(opponent: str, seeds: list[int], minutes: list[float]) -> None:
    HERE.mkdir(exist_ok=True)
    longest = max(minutes)
    for seed in seeds:
        if all(snapshot(opponent, seed, at, longest).exists() for at in minutes):
            continue
        command = [sys.executable, "-m", "mattis", "train", "--opponents", opponent, "--seed", str(seed),
                   "--steps", str(int(STEPS_A_MINUTE * longest)), "--minutes", str(longest),
                   "--snapshot-minutes", ",".join(f"{at:g}" for at in minutes),
                   "--out", str(checkpoint(opponent, seed, longest))]
        sys.stderr.write(" ".join(command[1:]) + "\n")
        subprocess.run(command, check=True)


def evaluate(games: int, seed: int) -> None:
    results_path = HERE / "results.json"
    results: list[dict[str, Any]] = json.loads(results_path.read_text()) if results_path.exists() else []
    done = {(row["opponent"], row["seed"], row["minutes"], row["run_minutes"]) for row in results}
    for path in sorted(HERE.glob("*-seed*-of*-*min.npz")):
        opponent, seed_text, run_text, minutes_text = path.stem.split("-")
        key = (opponent, int(seed_text.removeprefix("seed")), float(minutes_text.removesuffix("min")),
               float(run_text.removeprefix("of")))
        if key in done:
            continue
        started = time.process_time()
        result = run_tournament(Rules.preset("pagat"), 3, [f"learned:{path}", opponent, opponent], games,
                                seed=seed)
        learner = result.standings[0]
        row = {"opponent": key[0], "seed": key[1], "minutes": key[2], "run_minutes": key[3],
               "steps": int(load_checkpoint(path).meta["steps"]), "games": learner.finished_games,
               "mattis": learner.mattis, "rate": learner.mattis_rate,
               "ci95": [learner.mattis_low, learner.mattis_high], "tournament_seed": seed,
               "cpu_seconds": time.process_time() - started}
        sys.stderr.write(f"{path.name}: Mattis {row['rate']:.1%} in {row['games']} games\n")
        results.append(row)
        results.sort(key=lambda item: (item["opponent"], item["run_minutes"], item["minutes"], item["seed"]))
        results_path.write_text(json.dumps(results, indent=1) + "\n")


def report() -> None:
    results = json.loads((HERE / "results.json").read_text())
    print("| trained against | minutes | of a run of | seed | learner decisions "
          "| Mattis against two of them | 95% interval |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for row in results:
        print(f"| `{row['opponent']}` | {row['minutes']:g} | {row['run_minutes']:g} | {row['seed']} | "
              f"{row['steps']:,} | {row['rate']:.1%} ({row['mattis']}/{row['games']}) | "
              f"{row['ci95'][0]:.1%}–{row['ci95'][1]:.1%} |")
    print()
    print("| trained against | minutes | of a run of | seeds | mean Mattis rate (range over seeds) |")
    print("|---|---:|---:|---:|---|")
    groups: dict[tuple[str, float, float], list[float]] = {}
    for row in results:
        groups.setdefault((row["opponent"], row["run_minutes"], row["minutes"]), []).append(row["rate"])
    for (opponent, run_minutes, minutes), rates in sorted(groups.items()):
        print(f"| `{opponent}` | {minutes:g} | {run_minutes:g} | {len(rates)} | "
              f"{sum(rates) / len(rates):.1%} ({min(rates):.1%}–{max(rates):.1%}) |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    training = commands.add_parser("train", help="train and keep the snapshots")
    training.add_argument("--opponent", default="easy")
    training.add_argument("--seeds", default="1,2,3")
    training.add_argument("--minutes", default="5,15,30,60")
    evaluating = commands.add_parser("evaluate", help="play every snapshot not yet measured")
    evaluating.add_argument("--games", type=int, default=300)
    evaluating.add_argument("--seed", type=int, default=1)
    commands.add_parser("report", help="print the results as markdown")
    arguments = parser.parse_args()
    if arguments.command == "train":
        train(arguments.opponent, [int(seed) for seed in arguments.seeds.split(",")],
              [float(at) for at in arguments.minutes.split(",")])
    elif arguments.command == "evaluate":
        evaluate(arguments.games, arguments.seed)
    else:
        report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
