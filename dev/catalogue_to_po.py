"""Move texts written the old way, ``"key": ("bokmål", "English")`` in the Python catalogues of
``src/mattis/i18n/``, into the gettext catalogues; run it again after merging work that added some.

For each such entry it

* leaves the English in the Python catalogue as the source text (``"key": "English"``);
* writes the bokmål into ``locale/nb/LC_MESSAGES/mattis.po`` as its translation;
* brings every catalogue in step with the source (``en`` copies it; a new key comes empty in
  ``nn`` and any other language, and a key whose English or bokmål changed keeps its old
  translation marked fuzzy, for a translator to review);
* compiles the catalogues.

The rule options' old dictionaries in ``i18n/options.py`` (``OPTION_NAMES``,
``OPTION_DESCRIPTIONS``, ``OPTION_VALUES``, ``NUMBER_VALUES``, ``PRESET_SUMMARIES``) become keys of
``OPTION_MESSAGES`` (``option.name.<field>`` and so on; a number's ``one``/``some`` words a
:class:`~mattis.i18n.plural.Plural`). Then ``python dev/i18n.py check`` (and the test
``tests/test_i18n.py``) lists what still needs a translation: fill it in with Poedit or
any ``.po`` editor, run ``python dev/i18n.py compile``, and check again.

Usage: ``python dev/catalogue_to_po.py [--dry-run]``
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "build_support"))

import catalogues
from babel.messages.catalog import Catalog

LEGACY_OPTION_DICTS = {
    "OPTION_NAMES": "option.name.",
    "OPTION_DESCRIPTIONS": "option.description.",
    "OPTION_VALUES": "option.value.",
    "PRESET_SUMMARIES": "preset.summary.",
    "NUMBER_VALUES": "",
}
OPTIONS_MODULE = "options.py"
OPTIONS_DICT = "OPTION_MESSAGES"
FIRST_LANGUAGES = ("nb", "nn", "en")
"""The catalogues made when there are none yet."""
LINE_LENGTH = 110


@dataclass
class Entry:
    """One text to move: its key, the bokmål (forms, for a plural) and the English source."""

    key: str
    nb: tuple[str, ...]
    en: tuple[str, ...]

    @property
    def plural(self) -> bool:
        return len(self.en) > 1


def literal(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def source_code(entry: Entry, indent: int) -> str:
    """The entry as it is written in a source catalogue, ``"key": "English",`` (wrapped to the
    line length), from column ``indent`` on."""
    pad = " " * indent
    if entry.plural:
        one, other = (literal(text) for text in entry.en)
        line = f'{pad}{literal(entry.key)}: Plural({one}, {other}),'
        if len(line) <= LINE_LENGTH:
            return line
        return f"{pad}{literal(entry.key)}: Plural(\n{pad}    {one},\n{pad}    {other}),"
    line = f"{pad}{literal(entry.key)}: {literal(entry.en[0])},"
    if len(line) <= LINE_LENGTH:
        return line
    parts = wrap(entry.en[0], LINE_LENGTH - indent - 8)
    body = "\n".join(f"{pad}    {literal(part)}" for part in parts)
    return f"{pad}{literal(entry.key)}: (\n{body}\n{pad}),"


def wrap(text: str, width: int) -> list[str]:
    """``text`` cut after spaces into pieces no longer than ``width`` (where it can be)."""
    parts: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and len(literal(candidate + " ")) > width:
            parts.append(current + " ")
            current = word
        else:
            current = candidate
    parts.append(current)
    return parts


def _strings(node: ast.Tuple) -> tuple[str, str]:
    nb, en = (item.value for item in node.elts if isinstance(item, ast.Constant))
    return str(nb), str(en)


class Module:
    """One source catalogue being rewritten: its lines and the edits to make, bottom up."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.text = path.read_text(encoding="utf-8")
        self.lines = self.text.splitlines(keepends=True)
        self.edits: list[tuple[int, int, int, int, str]] = []  # line, col, end line, end col, new

    def replace(self, node: ast.AST, new: str, whole_lines: bool = False) -> None:
        line, end_line = node.lineno, node.end_lineno or node.lineno  # type: ignore[attr-defined]
        if whole_lines:
            self.edits.append((line, 0, end_line + 1, 0, new))
        else:
            self.edits.append((line, node.col_offset, end_line, node.end_col_offset or 0,  # type: ignore[attr-defined]
                               new))

    def result(self) -> str:
        encoded = self.text.encode("utf-8")
        line_starts = [0]
        for item in self.lines:
            line_starts.append(line_starts[-1] + len(item.encode("utf-8")))
        for line, col, end_line, end_col, new in sorted(self.edits, reverse=True):
            start = line_starts[line - 1] + col
            end = line_starts[end_line - 1] + end_col
            encoded = encoded[:start] + new.encode("utf-8") + encoded[end:]
        return encoded.decode("utf-8")


def legacy_options(name: str, mapping: ast.Dict) -> list[Entry]:
    """The entries of one of the old rule-option dictionaries, under their new keys."""
    prefix = LEGACY_OPTION_DICTS[name]
    if name != "NUMBER_VALUES":
        return [Entry(prefix + key, (nb,), (en,)) for key, node in catalogues._pairs(mapping)
                for nb, en in [_strings(node)]]
    found = []
    for field_node, words in zip(mapping.keys, mapping.values, strict=True):
        if not (isinstance(field_node, ast.Constant) and isinstance(words, ast.Dict)):
            continue
        field = str(field_node.value)
        pairs = {key: _strings(node) for key, node in catalogues._pairs(words)}
        if "off" in pairs:
            found.append(Entry(f"option.off.{field}", (pairs["off"][0],), (pairs["off"][1],)))
        if "some" in pairs:
            one = pairs.get("one", pairs["some"])
            some = pairs["some"]
            found.append(Entry(f"option.count.{field}", (one[0], some[0]), (one[1], some[1])))
    return found


def rewrite_sources(source_dir: Path) -> list[Entry]:
    """Turn every old entry into a source text in place; returns the entries moved."""
    moved: list[Entry] = []
    option_entries: list[Entry] = []
    options_path = source_dir / OPTIONS_MODULE
    for path in sorted(source_dir.glob("*.py")):
        module = Module(path)
        tree = ast.parse(module.text)
        for index, node in enumerate(tree.body):
            if not isinstance(node, ast.Assign | ast.AnnAssign) or not isinstance(node.value, ast.Dict):
                continue
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            name = target.id if isinstance(target, ast.Name) else ""
            if not name.endswith(catalogues.CATALOGUE_SUFFIX) and name not in LEGACY_OPTION_DICTS:
                continue
            if name in LEGACY_OPTION_DICTS:
                option_entries += legacy_options(name, node.value)
                module.replace(node, "", whole_lines=True)
                following = tree.body[index + 1] if index + 1 < len(tree.body) else None
                if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant):
                    module.replace(following, "", whole_lines=True)
                continue
            for key_node, value in zip(node.value.keys, node.value.values, strict=True):
                if not (isinstance(key_node, ast.Constant) and isinstance(key_node.value, str)
                        and isinstance(value, ast.Tuple)):
                    continue
                pairs = list(catalogues._pairs(ast.Dict(keys=[key_node], values=[value])))
                if not pairs:
                    continue
                nb, en = _strings(pairs[0][1])
                entry = Entry(key_node.value, (nb,), (en,))
                moved.append(entry)
                start = ast.Tuple(lineno=key_node.lineno, col_offset=key_node.col_offset,
                                  end_lineno=value.end_lineno, end_col_offset=value.end_col_offset, elts=[])
                code = source_code(entry, key_node.col_offset).lstrip(" ").removesuffix(",")
                module.replace(start, code)
        new = module.result().replace("dict[str, tuple[str, str]]", "dict[str, Source]")
        if new != module.text:
            new = _with_import(new)
            path.write_text(new, encoding="utf-8")
    if option_entries:
        _add_options(options_path, option_entries)
        moved += option_entries
    return moved


def _with_import(text: str) -> str:
    """The module with ``Plural`` and ``Source`` imported, if it uses them and does not yet."""
    needed = [name for name in ("Plural", "Source") if name in text.replace("from .plural import", "")]
    if not needed or "from .plural import" in text:
        return text
    anchor = "from __future__ import annotations\n"
    return text.replace(anchor, f"{anchor}\nfrom .plural import {', '.join(needed)}\n", 1)


def _add_options(path: Path, entries: list[Entry]) -> None:
    text = path.read_text(encoding="utf-8") if path.exists() else (
        '"""The rule options and presets in words (English source; translations in locale/)."""\n\n'
        "from __future__ import annotations\n")
    tree = ast.parse(text)
    code = "\n".join(source_code(entry, 4) for entry in entries) + "\n"
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Dict):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and target.id == OPTIONS_DICT:
                lines = text.splitlines(keepends=True)
                closing = (node.value.end_lineno or 1) - 1
                lines.insert(closing, code)
                text = "".join(lines)
                break
    else:
        text = text.rstrip("\n") + f"\n\n{OPTIONS_DICT}: dict[str, Source] = {{\n{code}}}\n"
    text = _with_import(text.replace("\n\n\n\n", "\n\n\n"))
    path.write_text(text, encoding="utf-8")


def _by_key(catalog: Catalog) -> dict[str, tuple[object, object, bool]]:
    return {str(m.context): (m.id, m.string, m.fuzzy) for m in catalog if m.id}


def migrate(locale_dir: Path = catalogues.LOCALE_DIR,
            source_dir: Path = catalogues.SOURCE_DIR) -> list[Entry]:
    """Move every old entry; returns what was moved."""
    if not catalogues.languages(locale_dir):
        for lang in FIRST_LANGUAGES:
            catalogues._write_po(catalogues.po_path(lang, locale_dir), catalogues.new_catalog(lang))
    before = {lang: _by_key(catalogues.read_catalog(catalogues.po_path(lang, locale_dir), lang))
              for lang in catalogues.languages(locale_dir)}
    moved = rewrite_sources(source_dir)
    catalogues.update(locale_dir, source_dir)
    bokmål_changed = {entry.key for entry in moved
                      if entry.key in before.get("nb", {}) and tuple(_forms(before["nb"][entry.key][1]))
                      != entry.nb}
    for lang in catalogues.languages(locale_dir):
        path = catalogues.po_path(lang, locale_dir)
        catalog = catalogues.read_catalog(path, lang)
        for entry in moved:
            message = catalog.get(entry.en if entry.plural else entry.en[0], context=entry.key)
            if message is None:
                continue
            if lang == "nb":
                message.string = _sized(entry.nb, catalog.num_plurals) if entry.plural else entry.nb[0]
                message.flags.discard("fuzzy")
                message.previous_id = []
            elif (lang != catalogues.SOURCE_LANG and entry.key in bokmål_changed
                  and any(_forms(message.string))):
                message.flags.add("fuzzy")
        catalogues._write_po(path, catalog)
    catalogues.compile_catalogues(locale_dir)
    return moved


def _forms(value: object) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list | tuple) else [str(value or "")]


def _sized(forms: tuple[str, ...], count: int) -> tuple[str, ...]:
    return tuple(forms[:count]) + (forms[-1],) * (count - len(forms))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="list what would move, change nothing")
    arguments = parser.parse_args()
    if arguments.dry_run:
        for key, path in catalogues.legacy_entries():
            print(f"{path.name}: {key}")
        return 0
    moved = migrate()
    print(f"moved {len(moved)} texts into the catalogues")
    left = catalogues.problems()
    if left:
        print(f"{len(left)} messages need a translation or a review (python dev/i18n.py check lists them)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
