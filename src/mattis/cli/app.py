"""The ``mattis`` command: builds the typer app and registers each command's module.

Each command lives in its own module (:mod:`.rules`, :mod:`.simulate`, :mod:`.bench`,
:mod:`.play`, :mod:`.replay`, :mod:`.review`, :mod:`.tournament`) as a plain function, and what they share
is in :mod:`.common`; this module only puts them together, so nothing imports it but the
console script. Every usage error, typer's own included, is reported as one ``error:``
line with exit code 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from .. import __version__
from . import (
    bench,
    lab,
    offline,
    play,
    replay,
    review,
    rules,
    serve,
    simulate,
    solve,
    stats,
    tournament,
    train,
)
from .common import one_line, translated_help


class _OneLineErrorsGroup(TyperGroup):
    """Reports every usage error, typer's own included, as one ``error:`` line.

    typer's default draws a multi-line rich panel; scripts and people both read a single
    line more easily, and the tests can hold every error path to the same shape. typer's
    public :class:`typer.TyperException` is the base of every error it reports.
    """

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            result = super().main(args=args, prog_name=prog_name or "mattis", complete_var=complete_var,
                                  standalone_mode=False, windows_expand_args=windows_expand_args, **extra)
        except typer.TyperException as error:
            sys.stderr.write(f"error: {one_line(error.format_message())}{_help_hint(error)}\n")
            result = error.exit_code
        except typer.Abort:
            sys.stderr.write("error: aborted\n")
            result = 1
        if not standalone_mode:
            return result
        sys.exit(result if isinstance(result, int) else 0)


def _help_hint(error: Exception) -> str:
    """`` (see 'mattis play --help')`` for an error raised while parsing a command's
    arguments (typer attaches the context it was parsing as ``ctx``)."""
    command_path = getattr(getattr(error, "ctx", None), "command_path", None)
    return f" (see '{command_path} --help')" if isinstance(command_path, str) else ""


def _show_version(value: bool) -> None:
    """``mattis --version``: print the version and stop."""
    if value:
        sys.stdout.write(f"mattis {__version__}\n")
        raise typer.Exit()


def _show_help_without_a_command(
    context: typer.Context,
    version: Annotated[bool, typer.Option(
        "--version", "-V", callback=_show_version, is_eager=True,
        help="Show the version and exit.")] = False,
) -> None:
    """Bare ``mattis`` shows the help: asking what there is to do is not an error."""
    if context.invoked_subcommand is None:
        text = context.get_help()  # typer's rich help prints itself and returns ""
        if text:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")


app = typer.Typer(
    name="mattis",
    cls=_OneLineErrorsGroup,
    help="Mattis, the Norwegian card game: play against bots in the terminal or in the browser with "
    "friends (serve, also as an installable app that plays offline: app), watch saved games again "
    "and review them, "
    "read the rules, and measure the bots (simulate, bench, tournament).",
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.callback()(_show_help_without_a_command)
app.command("play")(play.play_command)
app.command("serve")(serve.serve_command)
app.command("replay")(replay.replay_command)
app.command("stats")(stats.stats_command)
app.command("review", cls=translated_help("review.help"))(review.review_command)
app.command("rules")(rules.rules_command)
app.command("simulate")(simulate.simulate_command)
app.command("bench")(bench.bench_command)
app.command("tournament")(tournament.tournament_command)
app.command("lab")(lab.lab_command)
app.command("train")(train.train_command)
app.command("solve", cls=translated_help("solve.help"))(solve.solve_command)
app.add_typer(offline.commands, name="app")


def main() -> None:
    """Run the ``mattis`` command (the console script's entry point). A console that cannot
    print every character (``PYTHONIOENCODING=ascii``) shows ``?`` for the rest rather than
    stopping with an error; cards switch to letters such as ``7h`` by themselves."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    app()


if __name__ == "__main__":
    main()
