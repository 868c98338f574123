"""The site's pages, each its own body inside one shell.

Every page needs the same head (viewport, theme before the first paint, the shared style
sheet, the icon) and most need the same bar. They are written once, in ``pages/shell.html``
and ``pages/bar.html``; a page's own file in ``pages/`` holds only what is its own. The
module preloads of a page are read from its script's imports, so the list never drifts from
the code. The server and the offline app's build both take their pages from :func:`page_html`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template

PAGES_DIR = Path(__file__).parent / "pages"
STATIC = Path(__file__).parent / "static"

PAGE_SCRIPT = '<script type="module" src="/static/pwa.js"></script>'
"""The one line a page needs to be part of the offline app (its manifest and service worker)."""

GENERATED_MODULES = frozenset({"site.js"})
"""Modules the server writes rather than a file holds (:func:`mattis.web.pwa.site_script`):
preloaded like the others, but not read for imports."""

_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?\bfrom\s*["'](\.{1,2}/[^"']+)["']""", re.M)
_BARE_IMPORT = re.compile(r"""^\s*import\s*["'](\.{1,2}/[^"']+)["']""", re.M)


@dataclass(frozen=True, slots=True)
class Page:
    """What one page has of its own."""

    script: str
    """Its module under ``/static/`` (``table.js``)."""
    stylesheets: tuple[str, ...] = ()
    """Its style sheets under ``/static/``, after the shared ``style.css``."""
    offline: bool = False
    """Part of the offline app: it has :data:`PAGE_SCRIPT`."""
    bar: str | None = "link"
    """The shared bar: ``"home"`` on the start page (the title is not a link to itself),
    ``"link"`` elsewhere, None when the page draws its own (the table's has more buttons)."""
    body_class: str = ""


PAGES: dict[str, Page] = {
    "index": Page("app.js", ("learn.css",), offline=True, bar="home"),
    "table": Page("table.js", ("table.css", "table/review.css"), offline=True, bar=None,
                  body_class="table-body"),
    "learn": Page("learn.js", ("learn.css",), offline=True, body_class="learn-body"),
    "group": Page("group.js", ("group.css",)),
    "replay": Page("replay.js", ("group.css",)),
}
"""Every page, by the name of its file in ``pages/``."""


def module_imports(script: str) -> list[str]:
    """Every module ``script`` (a path under ``/static/``) loads at once, depth first, each
    once, the script itself left out: the page preloads them so the browser fetches them
    side by side instead of one import at a time."""
    seen: list[str] = []

    def visit(module: str) -> None:
        if module in GENERATED_MODULES:
            return
        source = (STATIC / module).read_text(encoding="utf-8")
        for found in _IMPORT.findall(source) + _BARE_IMPORT.findall(source):
            target = (Path(module).parent / found).as_posix()
            target = _normalise(target)
            if target not in seen:
                seen.append(target)
                visit(target)

    visit(script)
    return [module for module in seen if module != script]


def _normalise(path: str) -> str:
    """``table/../i18n.js`` → ``i18n.js``: a relative import seen from the static folder."""
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


@cache
def page_html(name: str) -> str:
    """The whole page ``name`` (a key of :data:`PAGES`)."""
    page = PAGES[name]
    head = []
    if page.offline:
        head.append(PAGE_SCRIPT)
    head.append('<link rel="stylesheet" href="/static/style.css">')
    head += [f'<link rel="stylesheet" href="/static/{sheet}">' for sheet in page.stylesheets]
    head.append('<link rel="icon" href="/static/icon.svg" type="image/svg+xml">')
    head += [f'<link rel="modulepreload" href="/static/{module}">' for module in module_imports(page.script)]
    bar = ""
    if page.bar is not None:
        title = ('<h1 data-text="title">Mattis</h1>' if page.bar == "home"
                 else '<h1><a href="/" data-text="title">Mattis</a></h1>')
        bar = _template("bar.html").substitute(title=title)
    return _template("shell.html").substitute(
        head="".join(f"  {line}\n" for line in head),
        body_attributes=f' class="{page.body_class}"' if page.body_class else "",
        bar=bar,
        body=(PAGES_DIR / f"{name}.html").read_text(encoding="utf-8"),
        script=page.script,
    )


def _template(file: str) -> Template:
    return Template((PAGES_DIR / file).read_text(encoding="utf-8"))
