"""``python -m mattis.cli.strength``: run or continue the strength-curve experiment of
:mod:`mattis.tools.strength` (a research tool, so its texts are English only)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from ..tools.strength import (
    DEFAULT_BUDGETS,
    DEFAULT_MAX_GAMES,
    DEFAULT_SERIES,
    DEFAULT_TARGET,
    Cell,
    Experiment,
    Settings,
    StrengthError,
    markdown_table,
    run,
    series_title,
    write_outputs,
)
from .common import parse_seed
from .tournament import BackendChoice, open_backend


def parse_budgets(text: str) -> tuple[int, ...]:
    """``"125,250,1_000"`` as iteration counts (ASCII digits only, nine at most)."""
    items = [item.strip().replace("_", "") for item in text.split(",") if item.strip()]
    if not items or not all(item.isascii() and item.isdigit() and len(item) <= 9 for item in items):
        raise ValueError(f"--budgets: comma-separated whole numbers, got {text[:60]!r}")
    return tuple(int(item) for item in items)


def strength_command(
    *,
    out: Annotated[Path, typer.Option("--out", help="Folder of the checkpoint, table and plot.")],
    rules: Annotated[str, typer.Option("--rules", help="Preset.")] = "pagat",
    players: Annotated[int, typer.Option("--players", help="Number of players.")] = 3,
    budgets: Annotated[str, typer.Option("--budgets", help="hard's iteration budgets, comma-separated.")]
        = ",".join(map(str, DEFAULT_BUDGETS)),
    series: Annotated[list[str] | None, typer.Option(
        "--opponents", help="The other seats, comma-separated entrants (repeatable; default: "
                            "normal,normal and hard:1000,hard:1000).", show_default=False)] = None,
    seed: Annotated[int, typer.Option("--seed", parser=parse_seed, metavar="<int>")] = 1,
    chunk_deals: Annotated[int, typer.Option("--chunk-deals", help="Deals per chunk (a chunk is saved "
                                             "as soon as it is played).")] = 10,
    target: Annotated[float, typer.Option("--target", help="Stop a cell when its 95% interval reaches "
                                          "no further than this from the rate.")] = DEFAULT_TARGET,
    max_games: Annotated[int, typer.Option("--max-games", help="Stop a cell here anyway.")]
        = DEFAULT_MAX_GAMES,
    hours: Annotated[float | None, typer.Option("--hours", help="Start no chunk after this long; run "
                                                "again to go on.", show_default=False)] = None,
    backend: Annotated[BackendChoice, typer.Option("--backend", case_sensitive=False,
                                                   help="local or ray.")] = BackendChoice.LOCAL,
    address: Annotated[str | None, typer.Option("--address", help="With --backend ray: the cluster "
                                                "('auto' for the one 'ray start' started here).",
                                                show_default=False)] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, max=4096,
                                         help="Local processes, or CPUs of a local Ray instance.")]
        = os.cpu_count() or 1,
) -> None:
    """Play hard at each budget against each set of opponents until every Mattis rate is
    known to --target, saving after every chunk; run again with the same settings to go on."""
    try:
        settings = Settings(rules=rules, players=players, budgets=parse_budgets(budgets),
                            series=tuple(series) if series else DEFAULT_SERIES, seed=seed,
                            chunk_deals=chunk_deals, target=target, max_games=max_games)
    except (ValueError, KeyError) as error:
        typer.echo(f"error: {str(error).strip(chr(39))}", err=True)
        raise typer.Exit(2) from None

    def report(experiment: Experiment, cell: Cell) -> None:
        left = sum(1 for row in experiment.table() if not row.done)
        typer.echo(f"{time.strftime('%H:%M:%S')} {series_title(cell.series)}, hard:{cell.budget}: "
                   f"{cell.games} games, Mattis {cell.rate:.1%} ±{cell.half_width:.1%}"
                   f"{' (done)' if cell.done else ''}; {left} {'cell' if left == 1 else 'cells'} to go",
                   err=True)

    with open_backend(backend, workers, address) as runner:
        try:
            experiment = run(out, settings, runner, hours=hours, report=report)
        except StrengthError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from None
    write_outputs(out, experiment)
    sys.stdout.write(markdown_table(experiment))


def main(argv: Sequence[str] | None = None) -> None:
    app = typer.Typer(add_completion=False)
    app.command()(strength_command)
    app(args=list(argv) if argv is not None else None, prog_name="python -m mattis.cli.strength")


if __name__ == "__main__":
    main()
