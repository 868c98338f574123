"""Every text Mattis shows, in every language it speaks: Norwegian bokmål, nynorsk and English.

The command line, the terminal game, the web pages and the offline app show the same option
names, option values and labels; keeping them here means a rule is called the same thing
everywhere and a translation is fixed once.

Where the texts live:

* the **source** is English, in this package as data, one catalogue per area (:mod:`.base`,
  :mod:`.play`, :mod:`.cli`, :mod:`.envs`, :mod:`.web`, :mod:`.web_start`, :mod:`.web_table`,
  :mod:`.web_learn`, :mod:`.web_review`, :mod:`.app`, and the rule options in :mod:`.options`):
  ``{key: text}``, or a :class:`~.plural.Plural` for a text that follows a number;
* the **translations** are gettext catalogues, ``mattis/locale/<lang>/LC_MESSAGES/mattis.po``
  (``en`` too, as a copy of the source), one message per key with the key as its context
  (``msgctxt``) and the English text as its ``msgid``, so a translator's tool shows both;
* the build compiles them to ``.mo`` files with Babel, and this module reads those with the
  standard library's :mod:`gettext`: nothing but Python is needed at run time.

``docs/translating.md`` shows the whole path, and ``dev/i18n.py`` runs it. The package imports
nothing else from Mattis: it sits at the bottom with the rules core, so any layer may read it
and showing a text never loads a front end. The rules core never imports it.

Messages are looked up by key with :func:`t`; option names and values by the option's text
key (``Rules.option(field).text``, its field name in :class:`mattis.Rules`)::

    t("sim.games_per_second", "nb")          # "Spill per sekund"
    t("web.ui.table.cards", "nn", n=3)       # "3 kort"
    option_name("trick", "en")               # "Phase-1 trick"
    option_value("trick", "all", "nb")       # "alle spiller"
"""

from __future__ import annotations

import functools
import gettext
import os
from collections.abc import Mapping
from enum import Enum
from pathlib import Path
from typing import Literal, TypeGuard, get_args

from . import app, base, cli, envs, options, play, web, web_learn, web_review, web_start, web_table
from .plural import Plural, Source

Lang = Literal["nb", "nn", "en"]
"""A language Mattis speaks: Norwegian bokmål, Norwegian nynorsk or English. Adding a language is
its ``.po`` file under ``mattis/locale/`` and its code here (``docs/translating.md``)."""

LANGS: tuple[Lang, ...] = get_args(Lang)
DEFAULT_LANG: Lang = "en"
SOURCE_LANG: Lang = "en"
"""The language the catalogues in this package are written in (every ``msgid``)."""

LANG_ALIASES: Mapping[str, Lang] = {"no": "nb"}
"""Locale and browser codes that name one of :data:`LANGS` another way: ``no`` (Norwegian, the
macrolanguage) is read as bokmål, as the operating systems and browsers that send it mean."""

DOMAIN = "mattis"
"""The gettext domain: the catalogues' file name, ``mattis.po`` / ``mattis.mo``."""
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogues are: ``<lang>/LC_MESSAGES/mattis.mo`` for each language."""


def is_lang(value: object) -> TypeGuard[Lang]:
    """Whether ``value`` is one of :data:`LANGS` (narrows the type for mypy)."""
    return value in LANGS


def parse_lang(text: str) -> Lang:
    """A language code of :data:`LANGS` (any case) as a :data:`Lang`; anything else raises
    ``ValueError``."""
    key = text.strip().lower() if isinstance(text, str) else text
    if is_lang(key):
        return key
    raise ValueError(f"lang: expected one of {', '.join(LANGS)}, got {text!r}")


def match_lang(tag: str) -> Lang | None:
    """The language a locale name or language tag asks for, if Mattis speaks it:
    ``nn_NO.UTF-8`` → ``nn``, ``nb-NO`` and ``no`` → ``nb``, ``en-GB`` → ``en``, ``de`` → ``None``."""
    primary = tag.strip().lower().replace("-", "_").split("_")[0].split(".")[0].split("@")[0]
    primary = LANG_ALIASES.get(primary, primary)
    return primary if is_lang(primary) else None


def detect_lang(environ: Mapping[str, str] | None = None) -> Lang:
    """The language the locale asks for (``nb``, ``nn`` or ``en``), else :data:`DEFAULT_LANG`.

    Follows POSIX precedence: the first non-empty of ``LC_ALL``, ``LC_MESSAGES`` and
    ``LANG`` decides, so ``LC_ALL=C`` overrides a Norwegian ``LANG``.
    """
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "").strip()
        if value:
            return match_lang(value) or DEFAULT_LANG
    return DEFAULT_LANG


# ---------------------------------------------------------------------------- messages

Catalogue = Mapping[str, Source]
"""Source texts by key: ``{key: English text}``, or a :class:`Plural` for a counted text."""


def catalogues() -> dict[str, Catalogue]:
    """Every catalogue of source texts, by the module that keeps it (all of them in this
    package, as data, so no front end has to be imported for its texts to exist)."""
    return {
        base.__name__: base.BASE_MESSAGES,
        play.__name__: play.PLAY_MESSAGES,
        cli.__name__: cli.CLI_MESSAGES,
        envs.__name__: envs.ENV_MESSAGES,
        web.__name__: web.WEB_MESSAGES,
        web_start.__name__: web_start.START_MESSAGES,
        web_table.__name__: web_table.WEB_TABLE_MESSAGES,
        web_learn.__name__: web_learn.LEARN_MESSAGES,
        web_review.__name__: web_review.REVIEW_MESSAGES,
        app.__name__: app.APP_MESSAGES,
        options.__name__: options.OPTION_MESSAGES,
    }


def duplicate_keys(sources: Mapping[str, Catalogue]) -> dict[str, list[str]]:
    """Keys found in more than one catalogue, with the catalogues that define them."""
    owners: dict[str, list[str]] = {}
    for source, catalogue in sources.items():
        for key in catalogue:
            owners.setdefault(key, []).append(source)
    return {key: names for key, names in owners.items() if len(names) > 1}


@functools.cache
def _table() -> dict[str, Source]:
    """All catalogues in one table, built on the first lookup. A key in two catalogues is a
    bug (one of the texts would silently win), so it stops the program at once."""
    sources = catalogues()
    duplicates = duplicate_keys(sources)
    if duplicates:
        key, names = next(iter(duplicates.items()))
        raise ValueError(f"message key {key!r} is defined in {' and '.join(names)}")
    table: dict[str, Source] = {}
    for catalogue in sources.values():
        table.update(catalogue)
    return table


class MissingCatalogue(RuntimeError):
    """A language's compiled catalogue (``.mo``) is not installed: a build step was skipped."""


@functools.cache
def translation(lang: Lang) -> gettext.GNUTranslations:
    """The compiled catalogue of ``lang``, read once by :mod:`gettext`."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with open(path, "rb") as handle:
            return gettext.GNUTranslations(handle)
    except FileNotFoundError:
        raise MissingCatalogue(
            f"{path} is missing: the build compiles it (pip install .), and in a source checkout "
            "'python dev/i18n.py compile' does") from None


def t(key: str, lang: Lang, **fmt: object) -> str:
    """The message ``key`` in ``lang``, formatted with ``fmt`` (``str.format`` syntax). A
    plural message picks its form by the number in its count placeholder (``count=3``).

    An unknown key raises ``KeyError``: a missing text is a bug to catch in tests, not
    something to paper over at run time.
    """
    template = message_template(key, lang, _count(key, fmt))
    return template.format(**fmt) if fmt else template


def _count(key: str, fmt: Mapping[str, object]) -> int:
    source = _table()[key]
    if not isinstance(source, Plural):
        return 1
    number = fmt.get(source.count)
    if not isinstance(number, int | str):
        raise TypeError(f"{key}: a plural message needs its count, {source.count}=<number>")
    return int(number)


def message_template(key: str, lang: Lang, count: int = 1) -> str:
    """The unformatted text of ``key`` in ``lang`` (for a plural message, the form for ``count``)."""
    source = _table()[key]
    catalogue = translation(lang)
    if isinstance(source, Plural):
        return catalogue.npgettext(key, source.one, source.other, count)
    return catalogue.pgettext(key, source)


def message_keys() -> tuple[str, ...]:
    """Every message key, in source order."""
    return tuple(_table())


def is_plural(key: str) -> bool:
    """Whether ``key`` is a counted message (its form follows a number)."""
    return isinstance(_table()[key], Plural)


def plural_rule(lang: Lang) -> str:
    """The gettext plural expression of ``lang`` (``(n != 1)``), from its catalogue's header,
    for the pages to pick plural forms with."""
    header = translation(lang).info().get("plural-forms", "nplurals=2; plural=(n != 1);")
    return header.split("plural=", 1)[1].strip().rstrip(";").strip()


def plural_forms(key: str, lang: Lang) -> list[str]:
    """Every form of the plural message ``key`` in ``lang``, in the order its plural rule numbers
    them (two for nb, nn and en: one, other)."""
    rule = gettext.c2py(plural_rule(lang))
    first: dict[int, int] = {}
    for number in range(1000):
        first.setdefault(rule(number), number)
    return [message_template(key, lang, first[index]) for index in sorted(first)]


def language_name(lang: Lang) -> str:
    """The language's name in itself ("Nynorsk"), for a language switch."""
    return t("language.name", lang)


# ---------------------------------------------------------------------------- numbers


def format_number(value: float, lang: Lang, decimals: int = 0) -> str:
    """A number the way readers of ``lang`` write it: ``12,345.6`` in English and
    ``12 345,6`` in Norwegian (no-break space between thousands, decimal comma)."""
    text = f"{value:,.{decimals}f}"
    group, mark = t("format.thousands_separator", lang), t("format.decimal_mark", lang)
    return text.replace(",", "\0").replace(".", mark).replace("\0", group)


def format_decimal(value: float, lang: Lang) -> str:
    """A short number as people read it, with no fixed decimals: ``0.5`` (``0,5`` in Norwegian)."""
    return f"{value:g}".replace(".", t("format.decimal_mark", lang))


def format_percent(rate: float, lang: Lang, decimals: int = 1) -> str:
    """A fraction as a percentage: ``33.7%`` in English, ``33,7 %`` in Norwegian."""
    return percent_text(format_number(rate * 100, lang, decimals), lang)


def percent_text(number: str, lang: Lang) -> str:
    """An already written number with the percent sign as ``lang`` sets it (``12 %``)."""
    return t("format.percent", lang, number=number)


# ---------------------------------------------------------------------------- rule options


def option_name(field: str, lang: Lang) -> str:
    """The short name of the rule option ``field``, e.g. ``"Stikk i fase 1"``."""
    return _option_text(f"option.name.{field}", field, lang)


def option_description(field: str, lang: Lang) -> str:
    """A one-line explanation of the rule option ``field``."""
    return _option_text(f"option.description.{field}", field, lang)


def _option_text(key: str, field: str, lang: Lang) -> str:
    if key not in _table():
        raise ValueError(f"unknown option {field!r}")
    return t(key, lang)


def option_value(field: str, value: object, lang: Lang) -> str:
    """The value of option ``field`` in words, e.g. ``("trick", "all") -> "alle spiller"``.

    ``value`` may be the typed value (enum, bool, int) or its text form.
    """
    if f"option.name.{field}" not in _table():
        raise ValueError(f"unknown option {field!r}")
    if isinstance(value, bool):
        return t("yes" if value else "no", lang)
    text = value.value if isinstance(value, Enum) else str(value).strip().lower()
    if option_values(field):
        key = f"option.value.{field}.{text}"
        if key not in _table():
            raise ValueError(f"{field}: unknown value {value!r}")
        return t(key, lang)
    if text in ("true", "false"):
        return t("yes" if text == "true" else "no", lang)
    if f"option.count.{field}" in _table() and text.isdigit():
        if text == "0":
            return t(f"option.off.{field}", lang)
        return t(f"option.count.{field}", lang, count=int(text))
    return text


def option_values(field: str) -> tuple[str, ...]:
    """The text values of an enum option that have words (empty for other options)."""
    prefix = f"option.value.{field}."
    return tuple(key[len(prefix):] for key in _table() if key.startswith(prefix))


def preset_summary(preset: str, lang: Lang) -> str:
    """What sets a preset apart, in one line."""
    key = f"preset.summary.{preset}"
    if key not in _table():
        raise ValueError(f"unknown preset {preset!r}")
    return t(key, lang)


def lost_on_empty_name(nothing_left_counts: object) -> str:
    """*Blåmattis* when all cards count, *Blodmattis* when only the won pile does (P1.10).

    Both are proper names and the same in every language.
    """
    text = nothing_left_counts.value if isinstance(nothing_left_counts, Enum) else str(nothing_left_counts)
    return "Blodmattis" if text == "won_pile" else "Blåmattis"


__all__ = [
    "DEFAULT_LANG",
    "DOMAIN",
    "LANGS",
    "LANG_ALIASES",
    "LOCALE_DIR",
    "SOURCE_LANG",
    "Catalogue",
    "Lang",
    "MissingCatalogue",
    "Plural",
    "Source",
    "catalogues",
    "detect_lang",
    "duplicate_keys",
    "format_decimal",
    "format_number",
    "format_percent",
    "is_lang",
    "is_plural",
    "language_name",
    "lost_on_empty_name",
    "match_lang",
    "message_keys",
    "message_template",
    "option_description",
    "option_name",
    "option_value",
    "option_values",
    "parse_lang",
    "percent_text",
    "plural_forms",
    "plural_rule",
    "preset_summary",
    "t",
    "translation",
]
