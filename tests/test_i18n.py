"""The message catalogues (issue 28): every text in gettext ``.po`` files, complete in every
language, compiled by the build, read with the standard library, the same in Python and in the
pages; and the tools a translator and the lead use (``dev/i18n.py``, ``dev/catalogue_to_po.py``).

The first test is the safety net: it fails, naming each message, when a translation is missing,
fuzzy or has other placeholders than the English.
"""

from __future__ import annotations

import gettext
import importlib.util
import io
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from mattis.i18n import (
    LANGS,
    LOCALE_DIR,
    detect_lang,
    format_number,
    format_percent,
    is_plural,
    message_keys,
    option_value,
    plural_forms,
    plural_rule,
    t,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "build_support"))

import catalogues  # noqa: E402  (build_support, put on the path above)


def load_script(name: str) -> ModuleType:
    """A script of ``dev/`` as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "dev" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------- the safety net


def test_every_message_is_translated_in_every_language_with_the_same_placeholders() -> None:
    found = catalogues.problems()
    assert not found, "\n".join(["messages that need a translation (python dev/i18n.py check):", *found])


def test_each_language_is_its_catalogue_and_one_name() -> None:
    """Adding a language is its .po file plus its code in ``Lang``: the two lists agree."""
    assert set(catalogues.languages()) == set(LANGS)
    assert {t("language.name", lang) for lang in LANGS} == {"Bokmål", "Nynorsk", "English"}


@pytest.fixture
def locale_copy(tmp_path: Path) -> Path:
    target = tmp_path / "locale"
    shutil.copytree(catalogues.LOCALE_DIR, target, ignore=shutil.ignore_patterns("*.mo"))
    return target


def _edit(path: Path, lang: str, changes: dict[str, Any], fuzzy: tuple[str, ...] = ()) -> None:
    catalog = catalogues.read_catalog(path, lang)
    for message in catalog:
        if message.context in changes:
            message.string = changes[message.context]
        if message.context in fuzzy:
            message.flags.add("fuzzy")
    catalogues._write_po(path, catalog)


def test_a_missing_translation_a_fuzzy_one_and_a_changed_placeholder_are_named(locale_copy: Path) -> None:
    _edit(catalogues.po_path("nn", locale_copy), "nn",
          {"web.err.bad_token": "", "play.ev.play": "{kven} la {cards}",
           "web.ui.table.cards": ("{n} kort", "kort")}, fuzzy=("web.ui.quick_start",))
    found = catalogues.problems(locale_copy)
    assert "nn: web.err.bad_token: no translation" in found
    assert any(line.startswith("nn: play.ev.play: placeholders ['cards', 'kven'] differ") for line in found)
    assert any(line.startswith("nn: web.ui.table.cards: placeholders") for line in found)
    assert any(line.startswith("nn: web.ui.quick_start: marked fuzzy") for line in found)
    assert not any(line.startswith(("nb:", "en:")) for line in found)


def test_a_plural_may_leave_the_count_out_of_one_form_but_not_out_of_all(locale_copy: Path) -> None:
    path = catalogues.po_path("nb", locale_copy)
    _edit(path, "nb", {"web.advice.clears": ("Ett spill til, så ryddes bordet.", "{count} spill til.")})
    assert catalogues.problems(locale_copy) == []
    _edit(path, "nb", {"web.advice.clears": ("Ett spill til.", "Flere spill til.")})
    assert catalogues.problems(locale_copy) == [
        "nb: web.advice.clears: placeholders ['count'] are in no form"]


def test_the_english_catalogue_is_the_source(locale_copy: Path) -> None:
    _edit(catalogues.po_path("en", locale_copy), "en", {"play.you": "Thou"})
    assert any(line.startswith("en: play.you: differs from the source text") for line in
               catalogues.problems(locale_copy))


# ---------------------------------------------------------------------------- the files


def test_the_compiled_catalogues_are_the_po_files_compiled() -> None:
    """What ``mattis.i18n`` reads is Babel's compilation of the .po files (a stale .mo in a source
    checkout: python dev/i18n.py compile)."""
    for lang in LANGS:
        catalog = catalogues.read_catalog(catalogues.po_path(lang), lang)
        compiled = io.BytesIO()
        write_mo(compiled, catalog, use_fuzzy=False)
        installed = LOCALE_DIR / lang / "LC_MESSAGES" / "mattis.mo"
        assert installed.read_bytes() == compiled.getvalue(), f"{installed} is stale"


def test_the_template_holds_every_source_text() -> None:
    with open(catalogues.TEMPLATE, "rb") as handle:
        saved = read_po(handle)
    fresh = catalogues.template()
    assert [(m.context, m.id) for m in saved if m.id] == [(m.context, m.id) for m in fresh if m.id]
    extracted = {str(m.context) for m in fresh if m.id}
    assert extracted - set(message_keys()) == set(), "a module missing from mattis.i18n.catalogues()"
    assert set(message_keys()) - extracted == set(), "texts the extraction does not find"


def test_babel_is_a_build_requirement_pinned_like_the_test_tools() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    build = [item for item in project["build-system"]["requires"] if item.startswith("babel")]
    tests = [item for item in project["project"]["optional-dependencies"]["test"] if item.startswith("babel")]
    assert build == tests == ["babel==2.18.0"]
    assert not any(item.startswith("babel") for item in project["project"]["dependencies"])


def test_the_package_reads_its_texts_without_babel() -> None:
    code = ("import sys; sys.modules['babel'] = None; from mattis.i18n import t; "
            "print(t('web.ui.table.cards', 'nn', n=3)); assert 'babel' not in [m.split('.')[0] for m in "
            "sys.modules if sys.modules[m] is not None]")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "3 kort"


# ---------------------------------------------------------------------------- plurals and numbers


@pytest.mark.parametrize(("lang", "one", "three"), [
    ("nb", "1 ledig plass", "3 ledige plasser"),
    ("nn", "1 ledig plass", "3 ledige plassar"),
    ("en", "1 free seat", "3 free seats"),
])
def test_plural_forms_follow_the_count(lang: str, one: str, three: str) -> None:
    assert t("web.ui.table.free_seats", lang, n=1) == one  # type: ignore[arg-type]
    assert t("web.ui.table.free_seats", lang, n=3) == three  # type: ignore[arg-type]
    assert plural_forms("web.ui.table.free_seats", lang) == [  # type: ignore[arg-type]
        one.replace("1", "{n}"), three.replace("3", "{n}")]


def test_a_plural_message_needs_its_count() -> None:
    with pytest.raises(TypeError, match="count"):
        t("play.status.stock", "en")
    assert is_plural("play.status.stock") and not is_plural("play.you")


def test_numbers_are_written_as_each_language_writes_them() -> None:
    assert format_number(12345.6, "en", 1) == "12,345.6"
    for lang in ("nb", "nn"):
        assert format_number(12345.6, lang, 1) == "12\u00a0345,6"
        assert format_percent(0.337, lang) == "33,7\u00a0%"
    assert format_percent(0.337, "en") == "33.7%"
    assert option_value("removed_two_player", 1, "nn") == "1 kort"
    assert option_value("removed_two_player", 1, "en") == "1 card"
    assert option_value("min_sequence", 3, "en") == "at least 3 cards"


def test_nynorsk_is_picked_by_its_locale() -> None:
    assert detect_lang({"LANG": "nn_NO.UTF-8"}) == "nn"
    assert detect_lang({"LC_MESSAGES": "nn_NO@nynorsk", "LANG": "en_GB"}) == "nn"
    assert detect_lang({"LANG": "no_NO"}) == "nb"


RULES = ["(n != 1)", "(n > 1)", "0",
         "(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)",
         "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : 2)",
         "(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5)",
         "(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3)",
         "!(n == 1)"]
"""English and Norwegian, French, Japanese, Polish, Russian, Arabic, Slovenian, and a negation."""


def test_the_pages_pick_plural_forms_by_the_same_rule_as_gettext() -> None:
    """static/i18n.js reads a gettext plural rule with its own small parser (the pages may not
    eval): for every rule here and every count to 200 it answers as Python's gettext does."""
    node = shutil.which("node")
    assert node, "the browser tests' Node.js (npm) is needed to run the page script"
    script = (ROOT / "src" / "mattis" / "web" / "static" / "i18n.js").as_uri()
    counts = "Array.from({length: 201}, (_, n) => m.pluralIndex(rule, n))"
    code = (f"import({json.dumps(script)}).then((m) => console.log(JSON.stringify("
            f"{json.dumps(RULES)}.map((rule) => {counts}))))")
    done = subprocess.run([node, "--input-type=module", "-e", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    expected = [[gettext.c2py(rule)(n) for n in range(201)] for rule in RULES]
    assert json.loads(done.stdout) == expected
    assert all(plural_rule(lang) == "(n != 1)" for lang in LANGS)


# ---------------------------------------------------------------------------- the migration


OLD_CATALOGUE = '''"""Texts written the old way."""

from __future__ import annotations

NEW_MESSAGES: dict[str, tuple[str, str]] = {
    # a comment stays
    "new.short": ("Kort tekst", "Short text"),
    "new.long": (
        "En lang tekst som går over flere linjer i kilden og derfor må brytes på nytt etter flyttingen",
        "A long text that runs over several lines in the source and so must be wrapped again after the move",
    ),
}
'''

OLD_OPTIONS = '''
OPTION_NAMES: dict[str, tuple[str, str]] = {
    "lead_trump": ("Trumf ut", "Lead a trump"),
}

NUMBER_VALUES: dict[str, dict[str, tuple[str, str]]] = {
    "lead_limit": {"off": ("av", "off"), "one": ("1 gang", "1 time"),
                   "some": ("{count} ganger", "{count} times")},
}
"""The old words for numbers."""
'''


def test_the_migration_moves_old_tuples_into_the_catalogues(tmp_path: Path) -> None:
    """What the lead runs after merging work that added (bokmål, English) tuples: the English
    stays as the source, the bokmål goes to nb.po, nynorsk is left to fill, and the check names it."""
    source, locale = tmp_path / "i18n", tmp_path / "locale"
    shutil.copytree(catalogues.SOURCE_DIR, source, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(catalogues.LOCALE_DIR, locale, ignore=shutil.ignore_patterns("*.mo"))
    (source / "new.py").write_text(OLD_CATALOGUE, encoding="utf-8")
    options = source / "options.py"
    options.write_text(options.read_text(encoding="utf-8") + OLD_OPTIONS, encoding="utf-8")
    assert {key for key, _ in catalogues.legacy_entries(source)} == {
        "new.short", "new.long", "lead_trump", "lead_limit.off", "lead_limit.one", "lead_limit.some"}

    moved = load_script("catalogue_to_po").migrate(locale, source)

    assert {entry.key for entry in moved} == {"new.short", "new.long", "option.name.lead_trump",
                                              "option.off.lead_limit", "option.count.lead_limit"}
    assert catalogues.legacy_entries(source) == []
    rewritten = (source / "new.py").read_text(encoding="utf-8")
    assert '"new.short": "Short text",' in rewritten and "# a comment stays" in rewritten
    assert "dict[str, Source]" in rewritten and "from .plural import Source" in rewritten
    compile(rewritten, "new.py", "exec")
    assert max(len(line) for line in rewritten.splitlines()) <= 110
    options_text = options.read_text(encoding="utf-8")
    assert "OPTION_NAMES" not in options_text and "NUMBER_VALUES" not in options_text
    assert '"option.count.lead_limit": Plural("1 time", "{count} times"),' in options_text
    nb = {m.context: m.string for m in catalogues.read_catalog(catalogues.po_path("nb", locale), "nb")}
    assert nb["new.short"] == "Kort tekst" and nb["option.count.lead_limit"] == ("1 gang", "{count} ganger")
    assert (locale / "nb" / "LC_MESSAGES" / "mattis.mo").is_file()
    problems = catalogues.problems(locale, source)
    assert sorted(line for line in problems if line.startswith("nn:")) == sorted(
        f"nn: {key}: no translation" for key in ("new.short", "new.long", "option.name.lead_trump",
                                                 "option.off.lead_limit", "option.count.lead_limit"))
    assert [line for line in problems if not line.startswith("nn:")] == []
