"""The pages' code (issue 23, item 5): the table page draws and does not think, its state lives
in one store, each shared fact of the pages is written in one place, and the offline app keeps
every module a page or a worker imports.

These read the sources; the browser tests (``test_web_table_page.py``, ``test_offline_app_browser.py``)
show the same pages working.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

import pytest

from mattis.table.page import TABLE_PAGE
from mattis.web import pwa
from mattis.web.pages import PAGES_DIR

STATIC = pwa.STATIC
SERVICE_WORKER = pwa.SERVICE_WORKER_SOURCE
PAGE_SCRIPTS = sorted(path for path in STATIC.rglob("*.js") if "pyodide" not in path.parts)
"""Our scripts: the pages', the workers' (Pyodide's own are left out)."""
TABLE_PAGE_SCRIPTS = [STATIC / "table.js", *sorted((STATIC / "table").glob("*.js"))]


def source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def code(path: Path) -> str:
    """A script without its comments, so words about a thing are not taken for the thing."""
    text = re.sub(r"/\*.*?\*/", "", source(path), flags=re.S)
    return re.sub(r"(?m)^\s*//.*$|\s//\s.*$", "", text)


def url_of(path: Path) -> str:
    return "/static/" + path.relative_to(STATIC).as_posix()


def where(pattern: str, paths: list[Path]) -> list[str]:
    return [path.relative_to(STATIC.parent).as_posix() for path in paths if re.search(pattern, code(path))]


def test_no_rule_logic_remains_in_the_pages() -> None:
    """Hand order, the cards of a sequence, ties and trick winners come with the state."""
    for name in ("sortHand", "tiedCards", "winningCards", "actionCards", "nearestPreset"):
        assert not where(rf"\b{name}\b", PAGE_SCRIPTS), name
    assert where(r"\bparseCard\(", PAGE_SCRIPTS) == ["static/cards.js"]  # drawing a card's face only
    assert not where(r"\.rank\b", [path for path in PAGE_SCRIPTS if path.name != "cards.js"])
    for key in ("sorted_hand", "card_actions", "tied", "winning", "sorted_hands"):
        assert where(rf"\.{key}\b", TABLE_PAGE_SCRIPTS), f"the page does not read {key}"
    assert where(r"\.base_preset\b", TABLE_PAGE_SCRIPTS) and where(r"\.house_rules\b", TABLE_PAGE_SCRIPTS)


def test_the_table_page_keeps_its_state_in_one_store() -> None:
    """No module of the table page has a variable of its own: what changes is in the store."""
    for path in TABLE_PAGE_SCRIPTS:
        assert not re.search(r"(?m)^(let|var)\s", code(path)), path.name
        assert not re.search(r"(?m)^const\s+\w+\s*=\s*new\s+(Map|Set)\b", code(path)), path.name
    assert where(r"\bexport const store = createStore\(", TABLE_PAGE_SCRIPTS) == ["static/table/store.js"]


@pytest.mark.parametrize(("what", "pattern", "home"), [
    ("the element finder", r"(?m)^(export )?(const \$ =|function \$\()", "static/page.js"),
    ("the words of a page", r"\bfunction fillTexts\b", "static/page.js"),
    ("the seat-token key", r"mattis\.seat\.", "static/page.js"),
    ("the name kept", r"mattis\.name", "static/page.js"),
    ("the IndexedDB schema", r"indexedDB\.open|createObjectStore", "static/app/database.js"),
    ("the table page's path", r"[\"'`]/t/", None),
])
def test_each_shared_fact_of_the_pages_is_written_once(what: str, pattern: str, home: str | None) -> None:
    scripts = [*PAGE_SCRIPTS, SERVICE_WORKER, *PAGES_DIR.glob("*.html")]
    found = [path.relative_to(STATIC.parent).as_posix() for path in scripts if re.search(pattern, code(path))]
    assert found == ([home] if home else []), what


def test_the_table_page_path_is_pythons_and_the_pages_get_it_from_there() -> None:
    python = [path for path in pwa.PACKAGE.rglob("*.py") if re.search(r"[\"'`]/t/", source(path))]
    assert python == [pwa.PACKAGE / "table" / "page.py"]
    assert f"export const TABLE_PAGE = {TABLE_PAGE!r}".replace("'", '"') in pwa.site_script()
    build = pwa.service_worker([pwa.AppFile("/", "/", b"page", "text/html")])
    assert f'"table_page":"{TABLE_PAGE}"' in build


IMPORT = re.compile(r"""(?:\bimport\s*(?:[\w{}\s,*$]+\s+from\s+)?|\bimport\(\s*|\bimportScripts\(\s*)"""
                    r"""["']([^"']+)["']""")


def imported(path: Path, url: str) -> list[str]:
    """The addresses a script imports (statically, dynamically or with importScripts)."""
    return [urljoin(url, specifier) for specifier in IMPORT.findall(code(path))]


def test_the_offline_app_keeps_every_module_a_page_or_a_worker_imports() -> None:
    """With no network the service worker is the only source: a module it does not keep
    would stop the page (or the worker) from loading at all."""
    files = pwa.app_files(lambda lang: "rules", lambda lang, seconds, device: {}, lambda lang: {})
    kept = {item.url for item in files}
    reached = {"/static/table.js", "/static/app.js", "/static/pwa.js", "/static/app/worker.js"}
    assert reached <= kept
    seen: set[str] = set()
    while reached - seen:
        url = sorted(reached - seen)[0]
        seen.add(url)
        if url == pwa.SITE_SCRIPT:
            continue  # written by the server: imports nothing
        if url.startswith("/static/app/pyodide/"):  # Pyodide's own loader, kept once built
            assert url.rsplit("/", 1)[1] in pwa.RUNTIME_FILES
            continue
        path = STATIC / url.removeprefix("/static/")
        reached.update(target for target in imported(path, url) if target.startswith("/static/"))
    runtime = {url for url in reached if url.startswith("/static/app/pyodide/")}
    assert reached - runtime <= kept, sorted(reached - runtime - kept)
    shared = {"/static/page.js", pwa.SITE_SCRIPT, "/static/table/store.js", "/static/app/database.js"}
    assert shared <= reached
    for target in imported(SERVICE_WORKER, "/sw.js"):
        assert target in kept, target
