"""What every ``mattis`` command shares: options, bad-input handling, rules and consoles.

Bad input ends a command with exit code 2 and one ``error: ...`` line on stderr — never a
traceback — so the command is pleasant by hand and predictable in scripts. Messages name
the option and quote what was given, made safe and short (:func:`quote`, :func:`one_line`):
a terminal escape or a 5,000-digit number in an argument must not reach the screen raw.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from time import monotonic
from typing import Annotated, Any, ClassVar, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from typer.core import TyperArgument, TyperCommand, TyperOption

from ..bots import LEVELS, missing_extra
from ..bots import parse_level as bots_parse_level
from ..bots.entrants import EntrantError, checkpoint_level, checkpoint_levels, entrant_spec, parse_entrant
from ..core import Rules
from ..frontend.text import clip, printable, shown
from ..i18n import LANGS, Lang, detect_lang, message_keys, parse_lang, t

USAGE_ERROR = 2
"""Exit code for bad input, the same code click uses for usage errors."""

MAX_SEED = 2**64 - 1
"""Largest seed: 64 bits are plenty of distinct games, and the seed stays a short number in
saved records and messages (Python refuses to print integers of more than 4,300 digits)."""

LONG_WORD = 100
"""A word longer than this in an error message is clipped (a pasted 4,300-digit value)."""


class UsageFailure(Exception):
    """Bad input found by a command; :func:`fail` turns it into one stderr line."""


def _lang_value(text: str) -> str:
    try:
        return parse_lang(text)
    except ValueError:
        raise typer.BadParameter(f"expected one of {', '.join(LANGS)}, got {text!r}") from None


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        parser=_lang_value,
        metavar="[" + "|".join(LANGS) + "]",
        help=(f"Output language: {', '.join(LANGS)} (nb Norwegian bokmål, nn Norwegian nynorsk, "
              "en English). Default: from LC_ALL, LC_MESSAGES or LANG."),
        show_default=False,
    ),
]
"""``--lang``: one of :data:`~mattis.i18n.LANGS`, so a new language is offered as soon as it is named."""
SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "-s",
        metavar="FIELD=VALUE",
        help="Change one rule option (repeatable), e.g. --set min_sequence=3. See 'mattis rules'.",
        show_default=False,
    ),
]
ActionCapOption = Annotated[int, typer.Option(
    "--action-cap", min=1,
    help="Stop a game after this many actions; such games are counted as capped.")]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON object on stdout instead of tables.")
]


def lang_in(args: Sequence[str]) -> Lang | None:
    """The language a ``--lang`` among ``args`` names, if one does: read before click parses
    them, because ``--help`` acts as soon as it is parsed."""
    for index, arg in enumerate(args):
        value = arg.partition("=")[2] if arg.startswith("--lang=") else None
        if arg == "--lang" and index + 1 < len(args):
            value = args[index + 1]
        if value is not None:
            try:
                return parse_lang(value)
            except ValueError:
                return None
    return None


def help_text(key: str, lang: Lang) -> str:
    """A help text from the catalogues (``{langs}`` is the list of languages)."""
    return t(key, lang, langs=", ".join(LANGS))


class TranslatedHelp(TyperCommand):
    """A command whose ``--help`` speaks the user's language (``--lang``, else the locale's,
    as its output does). The texts are messages: ``<prefix>.about`` for the command and
    ``<prefix>.<parameter>`` for each parameter that has one (``help`` for ``--help``); the
    command's own ``help=`` texts are their English source (:func:`help_text` with ``"en"``),
    so typer and the catalogue never disagree. Make one with :func:`translated_help`.
    typer's own headings ("Usage", "Options") stay as typer writes them."""

    prefix: ClassVar[str] = ""

    # click's Context and HelpFormatter come vendored inside typer, under a private name: Any here
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta["mattis.help_lang"] = lang_in(args)
        result: list[str] = super().parse_args(ctx, args)
        return result

    def format_help(self, ctx: Any, formatter: Any) -> None:
        lang = ctx.meta.get("mattis.help_lang") or detect_lang()
        keys = set(message_keys())
        english = self.help
        translated = [param for param in self.get_params(ctx)  # with --help itself (``help``)
                      if f"{self.prefix}.{param.name}" in keys
                      and isinstance(param, TyperOption | TyperArgument)]
        before = [param.help for param in translated]
        self.help = help_text(f"{self.prefix}.about", lang)
        for param in translated:
            param.help = help_text(f"{self.prefix}.{param.name}", lang)
        try:
            super().format_help(ctx, formatter)
        finally:  # the command object outlives this help (tests run many in one process)
            self.help = english
            for param, text in zip(translated, before, strict=True):
                param.help = text


def translated_help(prefix: str) -> type[TyperCommand]:
    """The :class:`TranslatedHelp` command class of the messages ``<prefix>.…``:
    ``app.command("review", cls=translated_help("review.help"))``."""
    attributes: dict[str, Any] = {"prefix": prefix}
    return type(f"TranslatedHelp[{prefix}]", (TranslatedHelp,), attributes)


def language(choice: str | None) -> Lang:
    """The ``--lang`` choice, or the locale's language when none was given."""
    if choice is None:
        return detect_lang()
    return parse_lang(choice)


def one_line(message: str) -> str:
    """``message`` as one safe line: no control characters, whitespace runs as one space,
    and any enormous word clipped."""
    flat = " ".join(printable(message).split())
    return re.sub(rf"\S{{{LONG_WORD + 1},}}", lambda match: clip(match.group(), LONG_WORD // 2), flat)


def quote(text: str) -> str:
    """A given value as messages quote it: ``'nope'``, safe and at most 40 characters."""
    return repr(shown(text))


def fail(message: str) -> NoReturn:
    """End the command with one ``error:`` line on stderr and exit code 2."""
    sys.stderr.write(f"error: {one_line(message)}\n")
    raise typer.Exit(USAGE_ERROR)


def for_option(option: str, error: Exception) -> str:
    """A library message ``"players: …"`` or ``"bot: …"`` told as the option the person
    typed: ``"--players: …"``. Messages without such a prefix get the option in front."""
    text = str(error)
    field, sep, rest = text.partition(": ")
    if sep and " " not in field:
        return f"{option}: {rest}"
    return f"{option}: {text}"


def console(stderr: bool = False) -> Console:
    """A rich console for one command's output (created per command, so test runners that
    swap ``sys.stdout`` see it)."""
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


ProgressUpdate = Callable[[int, int | None], None]
"""Reports progress: ``update(done, total)`` (``total`` ``None`` keeps the one known)."""


PROGRESS_LOG_SECONDS = 60.0
"""How often a run whose stderr is a file or a pipe (``nohup``, a cluster job) writes a
progress line: often enough to see it is alive, rarely enough to keep the log short."""


@contextmanager
def progress_bar(description: str, total: int | None = None,
                 time_remaining: bool = True, percent: bool = False) -> Iterator[ProgressUpdate]:
    """Progress on stderr, with one task; yields its update function. On a terminal, a
    transient bar (with a percentage instead of done/total when ``percent``: for units
    people do not count); otherwise (stderr redirected to a log) a plain line at most every
    :data:`PROGRESS_LOG_SECONDS`, so an hours-long background run shows how far it is."""
    if not sys.stderr.isatty():
        yield _progress_lines(description, total, time_remaining)
        return
    count = TaskProgressColumn() if percent else MofNCompleteColumn()
    columns: list[ProgressColumn] = [TextColumn("{task.description}"), BarColumn(), count]
    if time_remaining:
        columns.append(TimeRemainingColumn())
    with Progress(*columns, console=console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)

        def update(done: int, new_total: int | None = None) -> None:
            if new_total is None:
                bar.update(task, completed=done)
            else:
                bar.update(task, completed=done, total=new_total)

        yield update


def _progress_lines(description: str, total: int | None, time_remaining: bool) -> ProgressUpdate:
    """An update function writing ``Tournament 45/300 (15%), ~38 min left`` lines."""
    started = monotonic()
    last = started
    known = total

    def update(done: int, new_total: int | None = None) -> None:
        nonlocal last, known
        if new_total is not None:
            known = new_total
        now = monotonic()
        if now - last < PROGRESS_LOG_SECONDS or done <= 0:
            return
        last = now
        line = f"{description} {done:,}"
        if known:
            line += f"/{known:,} ({done / known:.0%})"
            if time_remaining and done < known:
                left = (now - started) / done * (known - done)
                line += f", ~{left / 60:.0f} min" if left >= 60 else f", ~{left:.0f} s"
        sys.stderr.write(line + "\n")
        sys.stderr.flush()

    return update


# ---------------------------------------------------------------------------- values


def parse_seed(given: str | int) -> int:
    """A ``--seed`` value: a whole number from 0 to :data:`MAX_SEED`, read without
    converting thousands of digits (typer calls this with the text given, or the default)."""
    value = str(given).strip()
    if value.isascii() and value.isdigit() and len(value) <= len(str(MAX_SEED)):
        number = int(value)
        if number <= MAX_SEED:
            return number
    digits = f" ({len(value):,} characters)" if len(value) > LONG_WORD // 2 else ""
    raise typer.BadParameter(f"seeds are whole numbers from 0 to 2**64-1 ({MAX_SEED}), "
                             f"got {quote(value)}{digits}")


def parse_sets(items: Sequence[str] | None) -> dict[str, str]:
    """``["min_sequence=3", ...]`` as ``{"min_sequence": "3"}``; a later repeat wins."""
    changes: dict[str, str] = {}
    for item in items or ():
        field, sep, value = item.partition("=")
        if not sep or not field.strip():
            raise UsageFailure(f"--set: expected field=value, got {quote(item)}")
        changes[field.strip()] = value.strip()
    return changes


def _check_option_text(field: str, value: str) -> None:
    """Refuse a number option whose text is not ASCII digits (``²`` passes ``str.isdigit``
    and then fails ``int``), in the words the rules use for a bad number."""
    choices = Rules.option_choices(field)
    numeric = all(choice.isdigit() for choice in choices)
    if numeric and not (value.isascii() and value.lstrip("-").isdigit() and len(value) <= LONG_WORD):
        raise UsageFailure(f"{field}: expected a whole number ({', '.join(choices)}), got {quote(value)}")


def resolve_rules(preset: str, sets: Sequence[str] | None) -> Rules:
    """The preset with ``--set`` changes applied; ``ValueError`` or :class:`UsageFailure`
    names what is wrong."""
    rules = Rules.preset(preset)
    changes = parse_sets(sets)
    if not changes:
        return rules
    known = set(Rules.option_names())
    for field, value in changes.items():
        if field not in known:
            options = ", ".join(Rules.option_names())
            raise UsageFailure(f"--set: unknown option {quote(field)}; options are: {options}")
        _check_option_text(field, value)
    return rules.with_options(**changes)


def rules_or_exit(preset: str, sets: Sequence[str] | None) -> Rules:
    """:func:`resolve_rules`, ending the command with one error line on bad input."""
    try:
        return resolve_rules(preset, sets)
    except (ValueError, UsageFailure) as error:
        fail(str(error))


def check_players(rules: Rules, players: int) -> None:
    """:meth:`Rules.check_players`: ``"players: pagat allows 3-6 players, got 7"``."""
    rules.check_players(players)


def entrant_failure(option: str, error: Exception, lang: Lang) -> str:
    """An entrant's error (:class:`~mattis.bots.entrants.EntrantError`) told as the option,
    in the person's language: ``"--bots: no checkpoint file 'mine.npz'"``; another error
    as :func:`for_option` tells it."""
    if isinstance(error, EntrantError):
        return f"{option}: {t(error.key, lang, **error.values)}"
    return for_option(option, error)


def parse_level(text: str) -> str:
    """:func:`mattis.bots.parse_level`: a level, or ``"bot: unknown level 'x'; …"``."""
    return bots_parse_level(text)


def parse_table_bots(text: str, lang: Lang = "en") -> tuple[list[str], tuple[tuple[str, str], ...]]:
    """``"normal, learned:runs/mine.npz"`` as the levels of a table's bots (a checkpoint under
    its table level, ``learned:mine``) and the checkpoints the table may seat, as ``(level,
    path)``, each file read once. A name a table cannot seat (a budget, a module) or a
    checkpoint that cannot play raises :class:`UsageFailure` naming ``--bots``, in ``lang``."""
    levels: list[str] = []
    paths: list[str] = []
    try:
        for item in text.split(","):
            try:
                name = parse_entrant(item)
            except EntrantError as error:
                if error.key != "cli.entrant.unknown":
                    raise
                error.key = "cli.entrant.unknown_table"  # a table seats no module:callable
                raise
            path = entrant_spec(name).path
            if path is not None:
                paths.append(path)
                levels.append(checkpoint_level(path))
            elif name in LEVELS:
                levels.append(name)
            else:
                raise EntrantError(f"a table seats a level or learned:FILE.npz, not {quote(name)}",
                                   "cli.entrant.table_only", name=quote(name))
        checkpoints = checkpoint_levels(paths)
    except ValueError as error:
        raise UsageFailure(entrant_failure("--bots", error, lang)) from None
    missing = missing_extra(levels)
    if missing is not None:
        raise UsageFailure(f"--bots: {missing}")
    return levels, checkpoints


def parse_levels(text: str) -> list[str]:
    """``"normal, Hard"`` as ``["normal", "hard"]``; an unknown level raises
    :class:`UsageFailure` naming ``--bots`` (so does ``learned`` where numpy is missing)."""
    try:
        levels = [parse_level(item) for item in text.split(",")]
    except ValueError as error:
        raise UsageFailure(for_option("--bots", error)) from None
    missing = missing_extra(levels)
    if missing is not None:
        raise UsageFailure(f"--bots: {missing}")
    return levels
