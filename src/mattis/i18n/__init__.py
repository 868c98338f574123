"""Norwegian (bokmål) and English text shared by every front end.

The command line, the terminal game and the web UI all show the same option names,
option values and labels; keeping them here means a rule is called the same thing
everywhere and a translation is fixed once. Every text lives in this package as data, one
catalogue per area (:mod:`.base`, :mod:`.play`, :mod:`.cli`, :mod:`.envs`, :mod:`.web`,
:mod:`.web_start`, :mod:`.web_table`, :mod:`.app`, and the rule options in :mod:`.options`),
and the package imports nothing else from Mattis: it sits at the bottom with the rules core,
so any layer may read it and showing a text never loads a front end. The rules core never
imports it.

Messages are looked up by key with :func:`t`; option names and values by the option's text
key (``Rules.option(field).text``, its field name in :class:`mattis.Rules`)::

    t("sim.games_per_second", "nb")          # "Spill per sekund"
    option_name("trick", "en")               # "Phase-1 trick"
    option_value("trick", "all", "nb")       # "alle spiller"
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from enum import Enum
from typing import Literal, TypeGuard

from . import app, base, cli, envs, options, play, web, web_start, web_table

Lang = Literal["nb", "en"]
"""A supported language: Norwegian bokmål or English."""

LANGS: tuple[Lang, ...] = ("nb", "en")
DEFAULT_LANG: Lang = "en"
_NORWEGIAN_PREFIXES = ("nb", "no", "nn")


def is_lang(value: object) -> TypeGuard[Lang]:
    """Whether ``value`` is one of :data:`LANGS` (narrows the type for mypy)."""
    return value in LANGS


def parse_lang(text: str) -> Lang:
    """``"nb"``/``"en"`` (any case) as a :data:`Lang`; anything else raises ``ValueError``."""
    key = text.strip().lower() if isinstance(text, str) else text
    if is_lang(key):
        return key
    raise ValueError(f"lang: expected one of {', '.join(LANGS)}, got {text!r}")


def detect_lang(environ: Mapping[str, str] | None = None) -> Lang:
    """The language the locale asks for: ``"nb"`` for Norwegian (nb, no, nn), else ``"en"``.

    Follows POSIX precedence: the first non-empty of ``LC_ALL``, ``LC_MESSAGES`` and
    ``LANG`` decides, so ``LC_ALL=C`` overrides a Norwegian ``LANG``.
    """
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "").strip().lower()
        if value:
            return "nb" if value.startswith(_NORWEGIAN_PREFIXES) else "en"
    return DEFAULT_LANG


# ---------------------------------------------------------------------------- messages

Catalogue = Mapping[str, tuple[str, str]]
"""Texts by key: ``{key: (bokmål, English)}``."""


def catalogues() -> dict[str, Catalogue]:
    """Every catalogue of texts, by the module that keeps it (all of them in this package,
    as data, so no front end has to be imported for its texts to exist)."""
    return {
        base.__name__: base.BASE_MESSAGES,
        play.__name__: play.PLAY_MESSAGES,
        cli.__name__: cli.CLI_MESSAGES,
        envs.__name__: envs.ENV_MESSAGES,
        web.__name__: web.WEB_MESSAGES,
        web_start.__name__: web_start.START_MESSAGES,
        web_table.__name__: web_table.WEB_TABLE_MESSAGES,
        app.__name__: app.APP_MESSAGES,
    }


def duplicate_keys(sources: Mapping[str, Catalogue]) -> dict[str, list[str]]:
    """Keys found in more than one catalogue, with the catalogues that define them."""
    owners: dict[str, list[str]] = {}
    for source, catalogue in sources.items():
        for key in catalogue:
            owners.setdefault(key, []).append(source)
    return {key: names for key, names in owners.items() if len(names) > 1}


@functools.cache
def _table() -> dict[str, tuple[str, str]]:
    """All catalogues in one table, built on the first lookup. A key in two catalogues is a
    bug (one of the texts would silently win), so it stops the program at once."""
    sources = catalogues()
    duplicates = duplicate_keys(sources)
    if duplicates:
        key, names = next(iter(duplicates.items()))
        raise ValueError(f"message key {key!r} is defined in {' and '.join(names)}")
    table: dict[str, tuple[str, str]] = {}
    for catalogue in sources.values():
        table.update(catalogue)
    return table


def t(key: str, lang: Lang, **fmt: object) -> str:
    """The message ``key`` in ``lang``, formatted with ``fmt`` (``str.format`` syntax).

    An unknown key raises ``KeyError``: a missing text is a bug to catch in tests, not
    something to paper over at run time.
    """
    nb, en = _table()[key]
    template = nb if lang == "nb" else en
    return template.format(**fmt) if fmt else template


def format_number(value: float, lang: Lang, decimals: int = 0) -> str:
    """A number the way readers of ``lang`` write it: ``12,345.6`` in English and
    ``12 345,6`` in Norwegian (no-break space between thousands, decimal comma)."""
    text = f"{value:,.{decimals}f}"
    if lang == "nb":
        text = text.replace(",", "\u00a0").replace(".", ",")
    return text


def format_percent(rate: float, lang: Lang, decimals: int = 1) -> str:
    """A fraction as a percentage: ``33.7%`` in English, ``33,7 %`` in Norwegian."""
    number = format_number(rate * 100, lang, decimals)
    return f"{number}\u00a0%" if lang == "nb" else f"{number}%"


def message_keys() -> tuple[str, ...]:
    """Every message key (for tests that check both languages are present)."""
    return tuple(_table())


def message_template(key: str, lang: Lang) -> str:
    """The unformatted text of ``key`` (for tests comparing the two languages' placeholders)."""
    return _pick(_table()[key], lang)


# ---------------------------------------------------------------------------- rule options


def _pick(pair: tuple[str, str], lang: Lang) -> str:
    return pair[0] if lang == "nb" else pair[1]


def option_name(field: str, lang: Lang) -> str:
    """The short name of the rule option ``field``, e.g. ``"Stikk i fase 1"``."""
    try:
        return _pick(options.OPTION_NAMES[field], lang)
    except KeyError:
        raise ValueError(f"unknown option {field!r}") from None


def option_description(field: str, lang: Lang) -> str:
    """A one-line explanation of the rule option ``field``."""
    try:
        return _pick(options.OPTION_DESCRIPTIONS[field], lang)
    except KeyError:
        raise ValueError(f"unknown option {field!r}") from None


def option_value(field: str, value: object, lang: Lang) -> str:
    """The value of option ``field`` in words, e.g. ``("trick", "all") -> "alle spiller"``.

    ``value`` may be the typed value (enum, bool, int) or its text form.
    """
    if field not in options.OPTION_NAMES:
        raise ValueError(f"unknown option {field!r}")
    if isinstance(value, bool):
        return t("yes" if value else "no", lang)
    text = value.value if isinstance(value, Enum) else str(value).strip().lower()
    if field in options.OPTION_VALUES:
        try:
            return _pick(options.OPTION_VALUES[field][text], lang)
        except KeyError:
            raise ValueError(f"{field}: unknown value {value!r}") from None
    if text in ("true", "false"):
        return t("yes" if text == "true" else "no", lang)
    if field in options.NUMBER_VALUES:
        words = options.NUMBER_VALUES[field]
        if text == "0":
            return _pick(words["off"], lang)
        if text == "1" and "one" in words:
            return _pick(words["one"], lang)
        return _pick(words["some"], lang).format(count=text)
    return text


def option_values(field: str) -> tuple[str, ...]:
    """The text values of an enum option that have translations (empty for other options)."""
    return tuple(options.OPTION_VALUES.get(field, {}))


def preset_summary(preset: str, lang: Lang) -> str:
    """What sets a preset apart, in one line."""
    try:
        return _pick(options.PRESET_SUMMARIES[preset], lang)
    except KeyError:
        raise ValueError(f"unknown preset {preset!r}") from None


def lost_on_empty_name(nothing_left_counts: object) -> str:
    """*Blåmattis* when all cards count, *Blodmattis* when only the won pile does (P1.10).

    Both are proper names and the same in every language.
    """
    text = nothing_left_counts.value if isinstance(nothing_left_counts, Enum) else str(nothing_left_counts)
    return "Blodmattis" if text == "won_pile" else "Blåmattis"


__all__ = [
    "DEFAULT_LANG",
    "LANGS",
    "Catalogue",
    "Lang",
    "catalogues",
    "detect_lang",
    "duplicate_keys",
    "format_number",
    "format_percent",
    "is_lang",
    "lost_on_empty_name",
    "message_keys",
    "message_template",
    "option_description",
    "option_name",
    "option_value",
    "option_values",
    "parse_lang",
    "preset_summary",
    "t",
]
