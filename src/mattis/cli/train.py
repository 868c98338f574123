"""``mattis train``: train a policy for the ``learned`` level against our bots (the ``train``
extra: CPU torch and sb3-contrib's maskable PPO), or, with ``--level master``, the
policy-and-value network of the ``master`` search from games of the ``hard`` search.

Presentation only: :mod:`mattis.envs.train` trains the first, :mod:`mattis.envs.guided_data`
and :mod:`mattis.envs.guided_train` the second; this module checks the options, says how far a
run is on stderr (a line every 10 seconds at a terminal, every minute into a log) and where the
network went. ``mattis tournament --learned-checkpoint FILE`` then measures a learned policy.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ..bots import BASE_LEVELS, parse_level
from ..core.rules import Rules
from ..extras import missing_modules, needs_extra
from ..i18n import Lang, format_decimal, format_number, format_percent, t
from .common import (
    LangOption,
    SetOption,
    fail,
    for_option,
    language,
    parse_seed,
    progress_bar,
    rules_or_exit,
)

MAX_ENVS = 256
"""More games at once only cost memory: each process steps its share one after the other."""
MAX_WORKERS = 16
"""Processes stepping the games: more than the machine's cores only waits."""
TRAIN_LEVELS = ("learned", "master")
"""What ``--level`` trains: the PPO policy of ``learned`` or the network of the ``master`` search."""
LEARNED_DEFAULTS: dict[str, object] = {
    "--opponents": "easy", "--steps": 100_000, "--envs": 8, "--shaping": 0.3, "--start": None,
    "--save-every": None, "--minutes": None, "--snapshot-minutes": None}
"""The options only ``--level learned`` reads, with their defaults (``master`` refuses others)."""
MASTER_DEFAULTS: dict[str, object] = {
    "--games": 1_000, "--search-iterations": 300, "--data": None, "--epochs": 10, "--tables": None,
    "--summary": None}
"""The options only ``--level master`` reads, with their defaults."""


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
             "its layers set the network's size. Only a checkpoint mattis train wrote, not a master "
             "network file.", show_default=False)] = None,
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
    level: Annotated[str, typer.Option(
        "--level",
        help="What to train: learned (a PPO policy against our bots) or master (the policy-and-value "
             "network of the master search, from games of the hard search against itself).")] = "learned",
    games: Annotated[int, typer.Option(
        "--games", min=1, help="--level master: the search games to learn from (games already in "
                                 "--data are kept, the missing ones played).")] = 1_000,
    search_iterations: Annotated[int, typer.Option(
        "--search-iterations", min=1, metavar="K",
        help="--level master: simulations of the hard search at each decision of those games.")] = 300,
    data: Annotated[Path | None, typer.Option(
        "--data", metavar="DIR",
        help="--level master: the folder of the games, one file per game as it ends, so a stopped run "
             "goes on where it stopped; default FILE's name with -data.", show_default=False)] = None,
    epochs: Annotated[int, typer.Option(
        "--epochs", min=1, help="--level master: passes over the training positions; the one best on "
                                "the held-out games is kept.")] = 10,
    tables: Annotated[str | None, typer.Option(
        "--tables", metavar="SIZES",
        help="--level master: table sizes the games take in turn, comma-separated (3,3,4: two games "
             "of three players, then one of four); default --players.", show_default=False)] = None,
    hidden: Annotated[str | None, typer.Option(
        "--hidden", metavar="SIZES",
        help="--level master: the trunk's layers, comma-separated (default 256,128); the file must "
             "stay under 2 MB in float16.", show_default=False)] = None,
    summary: Annotated[Path | None, typer.Option(
        "--summary", metavar="FILE",
        help="--level master: also write the run's figures (games, positions, CPU hours, held-out "
             "metrics per epoch) to this JSON file.", show_default=False)] = None,
    lang: LangOption = None,
) -> None:
    """Train a policy for the learned bot against our bots, or the master bot's network from search
    games, and write it."""
    if level not in TRAIN_LEVELS:
        fail(t("train.level", language(lang), level=level))
    given = {"--opponents": opponents, "--steps": steps, "--envs": envs, "--shaping": shaping,
             "--start": start, "--save-every": save_every, "--minutes": minutes,
             "--snapshot-minutes": snapshot_minutes, "--games": games,
             "--search-iterations": search_iterations, "--data": data, "--epochs": epochs,
             "--tables": tables, "--summary": summary, "--hidden": hidden}
    others = LEARNED_DEFAULTS if level == "master" else MASTER_DEFAULTS
    for option, default in others.items():
        if given[option] != default:
            fail(t("train.only_for", language(lang), option=option,
                   level="learned" if level == "master" else "master"))
    if level == "master":
        train_master(out=out, games=games, iterations=search_iterations, data=data, epochs=epochs,
                     tables=tables, hidden=hidden, summary=summary, seed=seed, rules=rules, players=players,
                     sets=sets, workers=workers, float32=float32, learning_rate=learning_rate,
                     lang=language(lang))
        return
    resolved = checked_setup(rules, sets, players)
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
        if begin.activation != "tanh":  # a master network's policy path is ReLU; PPO trains tanh layers
            fail(f"--start: {start} is a {begin.activation} policy (a master network file is one); "
                 f"training goes on only from a tanh checkpoint that mattis train wrote")

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


def parse_sizes(option: str, text: str, lang: Lang) -> tuple[int, ...]:
    """``"3,3,4"`` as ``(3, 3, 4)``: whole numbers above 0."""
    try:
        sizes = tuple(int(item) for item in text.split(","))
    except ValueError:
        fail(t("train.sizes", lang, option=option, text=repr(text)))
    if not all(size > 0 for size in sizes):
        fail(t("train.sizes", lang, option=option, text=repr(text)))
    return sizes


def parse_tables(text: str, rules: Rules, lang: Lang) -> tuple[int, ...]:
    """``"3,3,4"`` as ``(3, 3, 4)``, each size one the rules allow."""
    sizes = parse_sizes("--tables", text, lang)
    for size in sizes:
        try:
            rules.check_players(size)
        except ValueError as error:
            fail(for_option("--tables", error))
    return sizes


def checked_setup(rules: str, sets: list[str] | None, players: int) -> Rules:
    """What both modes check first: the extras are installed, the rules read, the player count
    allowed; each failure ends the command with one line."""
    for extra in ("rl", "train"):
        if missing_modules(extra):
            fail(needs_extra("mattis train", "train"))
    resolved = rules_or_exit(rules, sets)
    try:
        resolved.check_players(players)
    except ValueError as error:
        fail(for_option("--players", error))
    return resolved


def train_master(*, out: Path, games: int, iterations: int, data: Path | None, epochs: int,
                 tables: str | None, hidden: str | None, summary: Path | None, seed: int, rules: str,
                 players: int, sets: list[str] | None, workers: int, float32: bool, learning_rate: float,
                 lang: Lang) -> None:
    """``--level master``: play the missing search games into ``data``, then train on them."""
    resolved = checked_setup(rules, sets, players)
    from ..envs.guided_data import DataError, DataSettings, generate
    from ..envs.guided_train import DEFAULT_HIDDEN, MAX_FILE_BYTES, EpochReport, train_network

    sizes = parse_tables(tables, resolved, lang) if tables else (players,)
    layers = parse_sizes("--hidden", hidden, lang) if hidden else DEFAULT_HIDDEN
    if out.is_dir():
        fail(f"--out: {out} is a folder; give a file name such as {out / 'master.npz'}")
    if not out.parent.is_dir():
        fail(f"--out: the folder {out.parent} does not exist")
    folder = data if data is not None else out.with_name(out.stem + "-data")

    settings = DataSettings.of(resolved, sizes, iterations, seed)
    try:
        with progress_bar(t("train.master.playing", lang), total=games) as update:
            played = generate(folder, settings, games, workers=workers, progress=update)
    except (DataError, OSError) as error:
        fail(for_option("--data", error))
    sys.stderr.write(t("train.master.played", lang, played=format_number(played.played, lang),
                       kept=format_number(played.skipped, lang), folder=folder,
                       positions=format_number(played.positions, lang),
                       hours=format_decimal(round(played.cpu_seconds / 3600, 3), lang)) + "\n")

    def report(epoch: EpochReport) -> None:
        sys.stderr.write(t("train.master.epoch", lang, epoch=epoch.epoch, epochs=epoch.epochs,
                           agreement=format_percent(epoch.metrics.agreement, lang),
                           brier=format_decimal(round(epoch.metrics.brier, 4), lang),
                           base=format_decimal(round(epoch.metrics.base_brier, 4), lang),
                           minutes=format_number(epoch.seconds / 60, lang, 1)) + "\n")
        sys.stderr.flush()

    try:
        result = train_network(folder, games, out, epochs=epochs, hidden=layers, seed=seed,
                               learning_rate=learning_rate,
                               dtype="float32" if float32 else "float16", report=report,
                               meta={"rules": rules, "tables": ",".join(map(str, sizes)),
                                     "search_iterations": str(iterations)})
    except DataError as error:
        fail(for_option("--data", error))
    except OSError as error:
        fail(f"--out: cannot write {out}: {error.strerror or error}")
    figures = result.data
    metrics = result.metrics
    kilobytes = format_number(result.file_bytes / 1024, lang)
    lines = [
        t("train.master.wrote", lang, out=out, size=kilobytes,
          numbers=format_number(result.network.parameters, lang), games=format_number(figures.games, lang),
          positions=format_number(figures.train_positions + figures.holdout_positions, lang),
          epoch=result.best_epoch, epochs=epochs),
        t("train.master.holdout", lang, positions=format_number(figures.holdout_positions, lang),
          agreement=format_percent(metrics.agreement, lang),
          policy=format_decimal(round(metrics.policy_loss, 3), lang),
          brier=format_decimal(round(metrics.brier, 4), lang),
          base=format_decimal(round(metrics.base_brier, 4), lang),
          logloss=format_decimal(round(metrics.value_loss, 4), lang)),
        t("train.master.cost", lang, generation=format_decimal(round(figures.cpu_seconds / 3600, 2), lang),
          training=format_decimal(round(result.cpu_seconds / 3600, 2), lang)),
    ]
    if result.file_bytes > MAX_FILE_BYTES:
        lines.append(t("train.master.too_big", lang, out=out, size=kilobytes))
    sys.stdout.write("\n".join(lines) + "\n")
    if summary is not None:
        record: dict[str, Any] = {
            "out": str(out), "bytes": result.file_bytes, "parameters": result.network.parameters,
            "settings": settings.to_json(), "games": figures.games,
            "train_positions": figures.train_positions, "holdout_positions": figures.holdout_positions,
            "capped_games": figures.capped, "generation_cpu_hours": round(figures.cpu_seconds / 3600, 4),
            "training_cpu_hours": round(result.cpu_seconds / 3600, 4), "epochs": epochs,
            "best_epoch": result.best_epoch, "learning_rate": learning_rate, "hidden": list(layers),
            "holdout": metrics.to_json(), "history": [epoch.to_json() for epoch in result.history]}
        summary.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
