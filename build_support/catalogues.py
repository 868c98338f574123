"""Mattis's message catalogues: extract, update, compile and check them, with Babel.

The English source texts are data in ``src/mattis/i18n/*.py`` (``{key: text}``, or
``Plural(one, other)`` for a counted text); every language, English included, has a gettext
catalogue ``src/mattis/locale/<lang>/LC_MESSAGES/mattis.po`` whose messages carry the key as
``msgctxt`` and the English text as ``msgid``. This module is the tooling around them:

* :func:`extract_messages`, a Babel extractor that reads the source catalogues (Babel's API
  takes it as a method; ``pybabel extract -F babel.cfg`` finds it on ``PYTHONPATH=build_support``);
* :func:`template` and :func:`update`: the ``.pot`` template, and every ``.po`` brought in step
  with it by key, a changed English text leaving its translations marked fuzzy for review;
* :func:`compile_catalogues`: ``.po`` to ``.mo``, which the build runs (``setup.py``), so a
  plain install reads them with the standard library's :mod:`gettext` and needs no Babel;
* :func:`problems`: every missing or fuzzy translation and every placeholder that differs,
  named by language and key (the tests and ``dev/i18n.py check`` report them);
* :func:`legacy_entries`: ``(bokmål, English)`` tuples still left in the Python catalogues,
  which ``dev/catalogue_to_po.py`` moves into the catalogues.

Standard library and Babel only: it runs in the build's environment, which has no Mattis.
"""

from __future__ import annotations

import ast
import datetime
import io
import string
import tokenize
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIR = ROOT / "src" / "mattis" / "i18n"
LOCALE_DIR = ROOT / "src" / "mattis" / "locale"
TEMPLATE = LOCALE_DIR / "mattis.pot"
DOMAIN = "mattis"
SOURCE_LANG = "en"
COMMENT_TAG = "Translators:"
PLURAL_CALL = "Plural"
FIXED_DATE = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)
"""The template's date: a fixed one, so extracting again changes nothing that did not change
(and merging two branches' catalogues does not conflict on a timestamp)."""
HEADER = """\
# Mattis's texts: {what}.
# Edit with Poedit or any .po editor; docs/translating.md shows the whole path.
# This file is distributed under the same license as the Mattis project.
#"""


# ---------------------------------------------------------------------------- the source


@dataclass(frozen=True)
class SourceText:
    """One message of the source catalogues: its key, its English text (two texts for a plural)
    and the translator comments above it."""

    key: str
    text: str | tuple[str, str]
    comments: tuple[str, ...]
    path: Path
    line: int


def _comments_above(source: str) -> dict[int, list[str]]:
    """The ``# Translators:`` comment block that ends on the line above each line number."""
    comments: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string.lstrip("#").strip()
    blocks: dict[int, list[str]] = {}
    for line in comments:
        if comments[line].startswith(COMMENT_TAG) and line - 1 not in comments:
            block, follow = [], line
            while follow in comments:
                block.append(comments[follow])
                follow += 1
            blocks[follow] = block
    return blocks


def _plural_texts(node: ast.expr) -> tuple[str, str] | None:
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == PLURAL_CALL
            and len(node.args) >= 2 and all(isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                                            for arg in node.args[:2])):
        one, other = node.args[0], node.args[1]
        assert isinstance(one, ast.Constant) and isinstance(other, ast.Constant)
        return str(one.value), str(other.value)
    return None


CATALOGUE_SUFFIX = "_MESSAGES"
"""A source catalogue is a module-level dictionary whose name ends so (``PLAY_MESSAGES``)."""
LEGACY_OPTION_DICTS = ("OPTION_NAMES", "OPTION_DESCRIPTIONS", "OPTION_VALUES", "NUMBER_VALUES",
                       "PRESET_SUMMARIES")
"""The rule options' dictionaries of (bokmål, English) tuples before the catalogues were gettext's."""


def _catalogue_dicts(tree: ast.Module, legacy: bool = False) -> Iterator[tuple[str, ast.Dict]]:
    """The module's top-level ``…_MESSAGES = {...}`` dictionaries (with ``legacy``, the rule
    options' old dictionaries too)."""
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else (
            node.target if isinstance(node, ast.AnnAssign) else None)
        if isinstance(target, ast.Name) and isinstance(node, ast.Assign | ast.AnnAssign) \
                and isinstance(node.value, ast.Dict) and (target.id.endswith(CATALOGUE_SUFFIX)
                                                          or (legacy and target.id in LEGACY_OPTION_DICTS)):
            yield target.id, node.value


def read_sources(source: str, path: Path) -> Iterator[SourceText]:
    """The source texts of one catalogue module, in order: every entry of a top-level
    dictionary whose key is a string and whose value is a string or a ``Plural(...)``."""
    tree = ast.parse(source)
    comments = _comments_above(source)
    for _, mapping in _catalogue_dicts(tree):
        for key_node, value in zip(mapping.keys, mapping.values, strict=True):
            if not (isinstance(key_node, ast.Constant) and isinstance(key_node.value, str)):
                continue
            text: str | tuple[str, str] | None = None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                text = value.value
            else:
                text = _plural_texts(value)
            if text is not None:
                line = key_node.lineno
                yield SourceText(key_node.value, text, tuple(comments.get(line, ())), path, line)


def extract_messages(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
                     options: Mapping[str, Any]) -> Iterator[tuple[int, str, tuple[str, ...], list[str]]]:
    """A Babel extraction method for the source catalogues: each entry as ``pgettext(key,
    text)`` or ``npgettext(key, one, other)``, with its translator comments."""
    source = fileobj.read().decode("utf-8")
    for item in read_sources(source, Path(getattr(fileobj, "name", "?"))):
        if isinstance(item.text, tuple):
            yield item.line, "npgettext", (item.key, *item.text), list(item.comments)
        else:
            yield item.line, "pgettext", (item.key, item.text), list(item.comments)


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a ``str.format`` template."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None and name != ""}


def _flags(text: str | tuple[str, ...]) -> tuple[str, ...]:
    texts = text if isinstance(text, tuple) else (text,)
    return ("python-brace-format",) if any(placeholders(item) for item in texts) else ()


def template(source_dir: Path = SOURCE_DIR) -> Catalog:
    """Every source text as a gettext template (what ``pybabel extract`` makes)."""
    catalog = Catalog(domain=DOMAIN, project="Mattis", version="1",
                      msgid_bugs_address="the Mattis issue tracker",
                      header_comment=HEADER.format(what="the template"),
                      creation_date=FIXED_DATE, revision_date=FIXED_DATE, fuzzy=False)
    method_map: Any = [("*.py", extract_messages)]  # Babel takes a callable, though typed for names
    seen: dict[str, str] = {}
    for filename, _, message, comments, context in extract_from_dir(
            str(source_dir), method_map, comment_tags=(COMMENT_TAG,), strip_comment_tags=False):
        assert context is not None
        if context in seen:
            raise ValueError(f"message key {context!r} is defined in {seen[context]} and {filename}")
        seen[context] = filename
        path = f"src/mattis/i18n/{filename}"
        location: Any = (path, None)  # no line numbers: they would change with every edit
        catalog.add(message, locations=[location], flags=_flags(message),
                    auto_comments=[comment for comment in comments if comment], context=context)
    return catalog


def write_template(catalog: Catalog | None = None) -> Path:
    """Write the template, ``locale/mattis.pot``."""
    _write_po(TEMPLATE, template() if catalog is None else catalog)
    return TEMPLATE


# ---------------------------------------------------------------------------- the catalogues


def languages(locale_dir: Path = LOCALE_DIR) -> list[str]:
    """Every language that has a catalogue, by its folder under ``locale/``."""
    return sorted(path.parent.parent.name for path in locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def po_path(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path, lang: str | None = None) -> Catalog:
    with open(path, "rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN, abort_invalid=True)


def _write_po(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, include_previous=True, include_lineno=False)
    path.write_bytes(buffer.getvalue())


def new_catalog(lang: str) -> Catalog:
    """An empty catalogue for ``lang``, its plural rule from Babel's locale data."""
    return Catalog(locale=lang, domain=DOMAIN, project="Mattis", version="1", fuzzy=False,
                   header_comment=HEADER.format(what=lang), creation_date=FIXED_DATE,
                   revision_date=FIXED_DATE, msgid_bugs_address="the Mattis issue tracker",
                   last_translator="Mattis developers", language_team=f"Mattis ({lang})")


def _forms(string_: object, count: int) -> tuple[str, ...]:
    texts = list(string_) if isinstance(string_, list | tuple) else [str(string_ or "")]
    texts = [str(text) for text in texts][:count]
    return tuple(texts + [texts[-1] if texts and texts[-1] else ""] * (count - len(texts)))


def update_catalog(old: Catalog, source: Catalog, lang: str) -> Catalog:
    """``old`` brought in step with the template ``source``, message by message matched on the
    key (``msgctxt``): a translation stays; one whose English changed stays marked fuzzy, with
    the old English as its previous ``msgid``, for a translator to review; a new message comes
    empty; a message gone from the source goes. The source language's catalogue is the source."""
    new = Catalog(locale=lang, domain=DOMAIN, project=old.project, version=old.version, fuzzy=False,
                  msgid_bugs_address=old.msgid_bugs_address, header_comment=old.header_comment,
                  creation_date=old.creation_date,
                  revision_date=old.revision_date, last_translator=old.last_translator,
                  language_team=old.language_team)
    previous = {message.context: message for message in old if message.id}
    for message in source:
        if not message.id:
            continue
        plural = isinstance(message.id, list | tuple)
        count = new.num_plurals if plural else 1
        before = previous.get(message.context)
        flags = set(message.flags)
        previous_id: Any = ()
        if lang == SOURCE_LANG:
            text: Any = tuple(message.id) if plural else message.id
        elif before is None or not before.string or not any(_forms(before.string, count)):
            text = ("",) * count if plural else ""
        else:
            forms = _forms(before.string, count)
            text = forms if plural else forms[0]
            if before.id != message.id or before.fuzzy:
                flags.add("fuzzy")
                previous_id = before.previous_id if before.id == message.id else before.id
        new.add(message.id, text, locations=message.locations, flags=flags,
                auto_comments=message.auto_comments,
                user_comments=before.user_comments if before else (),
                previous_id=previous_id, context=message.context)
    return new


def update(locale_dir: Path = LOCALE_DIR, source_dir: Path = SOURCE_DIR) -> list[Path]:
    """Extract the template and bring every language's ``.po`` in step with it."""
    source = template(source_dir)
    if locale_dir == LOCALE_DIR:
        write_template(source)
    written = []
    for lang in languages(locale_dir):
        path = po_path(lang, locale_dir)
        _write_po(path, update_catalog(read_catalog(path, lang), source, lang))
        written.append(path)
    return written


def add_language(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    """A new, empty catalogue for ``lang`` with every message of the template."""
    path = po_path(lang, locale_dir)
    if path.exists():
        raise FileExistsError(f"{path} exists already")
    _write_po(path, update_catalog(new_catalog(lang), template(), lang))
    return path


def compile_catalogues(locale_dir: Path = LOCALE_DIR, out_dir: Path | None = None) -> list[Path]:
    """Every ``<lang>/LC_MESSAGES/mattis.po`` as a ``.mo`` beside it (or under ``out_dir``, in the
    same layout). Fuzzy messages are left out: until reviewed, English shows in their place."""
    written = []
    for lang in languages(locale_dir):
        catalog = read_catalog(po_path(lang, locale_dir), lang)
        target = po_path(lang, out_dir or locale_dir).with_suffix(".mo")
        target.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        if not target.exists() or target.read_bytes() != buffer.getvalue():
            target.write_bytes(buffer.getvalue())
        written.append(target)
    return written


# ---------------------------------------------------------------------------- checks


def _texts(value: object) -> tuple[str, ...]:
    return tuple(str(item) for item in value) if isinstance(value, list | tuple) else (str(value or ""),)


def _format_error(text: str) -> str | None:
    try:
        text.format(**{name: 1 for name in placeholders(text)})
    except (ValueError, IndexError, KeyError, AttributeError) as error:
        return str(error)
    return None


def problems(locale_dir: Path = LOCALE_DIR, source_dir: Path = SOURCE_DIR) -> list[str]:
    """Every message that is not ready, one line each naming the language and the key: missing,
    empty, fuzzy (needs review), out of step with the source, a plural with the wrong number of
    forms, or placeholders other than the English ones. Empty when every language is complete."""
    source = template(source_dir)
    found = [f"{key}: still a (bokmål, English) tuple in {path.name}: run python dev/catalogue_to_po.py"
             for key, path in legacy_entries(source_dir)]
    for lang in languages(locale_dir):
        catalog = read_catalog(po_path(lang, locale_dir), lang)
        messages = {message.context: message for message in catalog if message.id}
        for wanted in source:
            if not wanted.id:
                continue
            key = str(wanted.context)
            message = messages.pop(key, None)
            english = _texts(wanted.id)
            if message is None:
                found.append(f"{lang}: {key}: missing from the catalogue: run python dev/i18n.py update")
                continue
            forms = _texts(message.string)
            if message.id != wanted.id:
                found.append(f"{lang}: {key}: translates an older English text: "
                             "run python dev/i18n.py update")
            elif message.fuzzy:
                found.append(f"{lang}: {key}: marked fuzzy: the English changed, review the translation")
            elif not all(forms):
                found.append(f"{lang}: {key}: no translation")
            elif len(english) > 1 and len(forms) != catalog.num_plurals:
                found.append(f"{lang}: {key}: {len(forms)} plural forms, "
                             f"the language has {catalog.num_plurals}")
            elif lang == SOURCE_LANG and forms != english:
                found.append(f"{lang}: {key}: differs from the source text: change the source in "
                             "src/mattis/i18n, then run python dev/i18n.py update")
            else:
                found += _placeholder_problems(lang, key, english, forms)
        found += [f"{lang}: {key}: not in the source: run python dev/i18n.py update" for key in messages]
    return found


def _placeholder_problems(lang: str, key: str, english: tuple[str, ...], forms: tuple[str, ...]) -> list[str]:
    wanted = set().union(*(placeholders(text) for text in english))
    found: list[str] = []
    for text in forms:
        error = _format_error(text)
        if error:
            found.append(f"{lang}: {key}: not a valid template ({error}): {text!r}")
    used = [placeholders(text) for text in forms]
    if len(english) == 1:
        if used[0] != wanted:
            found.append(f"{lang}: {key}: placeholders {sorted(used[0])} differ from the English "
                         f"{sorted(wanted)}")
        return found
    # a plural: what every English form says, every form says; the count may be left out of a
    # form (as in "one more play"), but not out of all of them
    common = set.intersection(*(placeholders(text) for text in english))
    for text, names in zip(forms, used, strict=True):
        if not common <= names <= wanted:
            found.append(f"{lang}: {key}: placeholders {sorted(names)} in {text!r} differ from the "
                         f"English {sorted(wanted)}")
    if not wanted <= set().union(*used):
        found.append(f"{lang}: {key}: placeholders {sorted(wanted - set().union(*used))} are in no form")
    return found


# ---------------------------------------------------------------------------- the old catalogues


def legacy_entries(source_dir: Path = SOURCE_DIR) -> list[tuple[str, Path]]:
    """Keys still written the old way, as a ``(bokmål, English)`` tuple in a Python catalogue."""
    found = []
    for path in sorted(source_dir.glob("*.py")):
        for _, mapping in _catalogue_dicts(ast.parse(path.read_text(encoding="utf-8")), legacy=True):
            found += [(key, path) for key, _ in _pairs(mapping)]
    return found


def _pairs(mapping: ast.Dict, prefix: str = "") -> Iterable[tuple[str, ast.Tuple]]:
    """``(key, tuple node)`` for each ``(str, str)`` tuple in a (possibly nested) dictionary."""
    for key_node, value in zip(mapping.keys, mapping.values, strict=True):
        if not (isinstance(key_node, ast.Constant) and isinstance(key_node.value, str)):
            continue
        key = prefix + key_node.value
        if isinstance(value, ast.Tuple) and len(value.elts) == 2 and all(
                isinstance(item, ast.Constant) and isinstance(item.value, str) for item in value.elts):
            yield key, value
        elif isinstance(value, ast.Dict):
            yield from _pairs(value, key + ".")
