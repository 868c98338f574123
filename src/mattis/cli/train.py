"""``mattis train``: train a policy for the ``learned`` level against our bots (the ``train``
extra: CPU torch and sb3-contrib's maskable PPO).

Presentation only: :mod:`mattis.envs.train` trains; this module checks the options, says how
far a run is on stderr (a line every 10 seconds at a terminal, every minute into a log) and
where the checkpoint went. ``mattis tournament --learned-checkpoint FILE`` then measures it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..bots import BASE_LEVELS, parse_level
from ..extras import missing_modules, needs_extra
from .common import SetOption, fail, for_option, parse_seed, rules_or_exit

MAX_ENVS = 256
"""More games at once only cost memory: each process steps its share one after the other."""
MAX_WORKERS = 16
"""Processes stepping the games: more than the machine's cores only waits."""


def parse_opponents(text: str) -> list[str]:
    """``"easy, Normal"`` as ``["easy", "normal"]``: the levels the games rotate through."""
    try:
        return [parse_level(item) for item in text.split(",")]
    except ValueError as error:
        fail(for_option("--opponents", error))


def parse_minutes(text: str) -> list[float]:
    """``"5, 15,30"`` as ``[5.0, 15.0, 30.0]``: the minutes at which a run keeps a snapshot."""
    try:
        values = [float(item) for item in text.split(",")]
    except ValueError:
        fail(f"--snapshot-minutes: give minutes separated by commas, such as 5,15,30; got {text!r}")
    if not all(value > 0 for value in values):
        fail(f"--snapshot-minutes: every minute must be above 0; got {text!r}")
    return values


def train_command(
    *,
    out: Annotated[Path, typer.Option(
        "--out", "-o", metavar="FILE",
        help="Where to write the checkpoint (.npz, read by numpy alone): play it with "
             "'mattis tournament --learned-checkpoint FILE'.")],
    opponents: Annotated[str, typer.Option(
        "--opponents", metavar="LEVELS",
        help=f"Bot levels to train against, comma-separated ({', '.join(BASE_LEVELS)}, learned); "
             "with several, the games take them in turn (easy,normal trains against both).")] = "easy",
    steps: Annotated[int, typer.Option(
        "--steps", "-n", min=1,
        help="The learner's decisions to train for, summed over the games played at once (each "
             "step is one decision in every game; about 2,000 a second on one core). The run "
             "stops at the first whole PPO rollout (256 decisions per game) at or past this.")] = 100_000,
    seed: Annotated[int, typer.Option(
        "--seed", parser=parse_seed, metavar="<int>", help="Seed of the deals and the network's start.")] = 1,
    rules: Annotated[str, typer.Option(
        "--rules", "-r", help="Preset to train on: pagat, kortregler or app.")] = "pagat",
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players at each table.")] = 3,
    sets: SetOption = None,
    envs: Annotated[int, typer.Option(
        "--envs", min=1, max=MAX_ENVS,
        help="Games stepped at once as one batch (the learner sits at every seat in turn).")] = 8,
    workers: Annotated[int, typer.Option(
        "--workers", min=1, max=MAX_WORKERS,
        help="Processes stepping the games (2 uses both cores of a two-core machine); the same "
             "games and weights for a seed.")] = 1,
    shaping: Annotated[float, typer.Option(
        "--shaping", min=0.0, max=1.0,
        help="Weight of the phase-2 reward for shedding cards (0: only the game's end pays).")] = 0.3,
    float32: Annotated[bool, typer.Option(
        "--float32", help="Keep the weights in float32 (twice the size; float16 plays the same moves "
                          "almost always).")] = False,
    start: Annotated[Path | None, typer.Option(
        "--start", metavar="FILE",
        help="Begin from this checkpoint's policy (a curriculum: train on against other opponents); "
             "its layers set the network's size.", show_default=False)] = None,
    learning_rate: Annotated[float, typer.Option(
        "--learning-rate", min=1e-7, max=1.0,
        help="PPO's learning rate at the start; it falls linearly to a tenth of it by the end.")] = 3e-4,
    save_every: Annotated[int | None, typer.Option(
        "--save-every", min=1, metavar="STEPS",
        help="Also write the checkpoint after every this many steps, so a stopped run leaves one.",
        show_default=False)] = None,
    minutes: Annotated[float | None, typer.Option(
        "--minutes", min=0.01, metavar="MINUTES",
        help="Also stop after this many minutes of training (CPU time of the run, so other work "
             "on the machine does not shorten it; wall-clock time with --workers above 1), "
             "whichever of --steps and this comes first.", show_default=False)] = None,
    snapshot_minutes: Annotated[str | None, typer.Option(
        "--snapshot-minutes", metavar="LIST",
        help="Also write the policy as it stands after these minutes of training, comma-separated "
             "(5,15,30 writes FILE-5min.npz, FILE-15min.npz, FILE-30min.npz): a learning curve "
             "from one run.", show_default=False)] = None,
) -> None:
    """Train a policy for the learned bot against our bots and write its checkpoint."""
    for extra in ("rl", "train"):
        if missing_modules(extra):
            fail(needs_extra("mattis train", "train"))
    resolved = rules_or_exit(rules, sets)
    try:
        resolved.check_players(players)
    except ValueError as error:
        fail(for_option("--players", error))
    levels = parse_opponents(opponents)
    if out.is_dir():
        fail(f"--out: {out} is a folder; give a file name such as {out / 'learned.npz'}")
    if not out.parent.is_dir():
        fail(f"--out: the folder {out.parent} does not exist")

    snapshots = parse_minutes(snapshot_minutes) if snapshot_minutes else []
    from ..bots.learned import CheckpointError, load_checkpoint
    from ..envs.train import Progress, train

    begin = None
    if start is not None:
        try:
            begin = load_checkpoint(start)
        except CheckpointError as error:
            fail(for_option("--start", error))

    interval = 10.0 if sys.stderr.isatty() else 60.0

    def report(progress: Progress) -> None:
        rate = progress.steps / progress.seconds if progress.seconds > 0 else 0.0
        left = (progress.total - progress.steps) / rate / 60 if rate > 0 else 0.0
        mattis = "" if progress.mattis_rate is None else (
            f"; the learner was Mattis in {progress.mattis_rate:.1%} of its last {progress.window} games")
        sys.stderr.write(f"train: {progress.steps:,}/{progress.total:,} learner decisions "
                         f"({progress.steps / progress.total:.0%}), {rate:,.0f} a second, "
                         f"~{left:.0f} min left{mattis}\n")
        sys.stderr.flush()

    try:
        result = train(out, levels, steps=steps, seed=seed, rules=resolved, players=players, envs=envs,
                       workers=workers, shaping=shaping, dtype="float32" if float32 else "float16",
                       report=report, report_every=interval, save_every=save_every, start=begin,
                       learning_rate=learning_rate, minutes=minutes, snapshot_minutes=snapshots)
    except OSError as error:
        fail(f"--out: cannot write {out}: {error.strerror or error}")
    size = out.stat().st_size
    rounded = "" if result.run_steps == steps else f" (stopped at --minutes {minutes:g})" if (
        result.run_steps < steps) else (
        f" ({steps:,} asked, rounded up to whole PPO rollouts of {result.rollout:,}: {envs} games "
        f"× {result.rollout // envs:,} steps)")
    sys.stdout.write(f"wrote {out} ({size / 1024:.0f} kB, {result.policy.parameters:,} numbers) after "
                     f"{result.run_steps:,} steps of the learner{rounded} and {result.games:,} games in "
                     f"{result.seconds / 60:.1f} min\n")
    sys.stdout.write(f"games: {envs} in one batch, {workers} worker process{'es' if workers > 1 else ''}; "
                     f"they kept {result.game_speedup:.2f} cores busy, a speed-up of "
                     f"{result.game_speedup:.2f}x "
                     f"over stepping them in one process "
                     f"({result.run_steps / result.seconds:,.0f} learner decisions a second in all)\n")
    from ..envs.train import snapshot_path
    for at in sorted(snapshots):
        path = snapshot_path(out, at)
        if path.exists():
            sys.stdout.write(f"snapshot after {at:g} min: {path}\n")
        else:
            sys.stdout.write(f"no snapshot after {at:g} min: the run ended before\n")
