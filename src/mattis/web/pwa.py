"""The installable offline app: its build, its files, the manifest, the service worker, the export.

The app is the same pages, plus a Web Worker that runs our package on Pyodide
(``static/app/worker.js``, :mod:`mattis.offline`). Three kinds of files make it:

* committed ones: the pages and scripts in ``static/``, and in ``runtime/`` the npm lockfile
  that pins Pyodide (``package.json``, ``package-lock.json``) and the service worker's source;
* built ones (:func:`build`, run by ``mattis app build``): Pyodide's runtime, fetched by ``npm
  ci`` from the lockfile and copied to ``static/app/pyodide/`` with a gzip copy of each file,
  and the icons, drawn by :mod:`.icons`. Never committed (``.gitignore``) and never put in a
  wheel (``pyproject.toml``);
* made when asked (:func:`app_files`): our package as a zip of only the units the worker
  imports (:data:`APP_UNITS`), the answers the pages ask the server for (rules page,
  options, texts, the tutorial's lessons), so the service worker can keep them, and ``/static/site.js``
  (:func:`site_script`), the facts the pages take from Python.

:func:`app_files` lists every file the service worker keeps, by the address the pages ask
for, with its SHA-256, which the worker checks before it keeps the file; their digests and
the worker's own source make the app's version, written into the service worker, so any
change to any of them makes browsers install the new version. :func:`export` writes them all as
static files.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bots.compact import DEVICE_NETWORK, read_shape
from ..core.rules import PRESET_NAMES
from ..extras import installed
from ..frontend.tutorial import lesson
from ..i18n import DEFAULT_LANG, LANG_ALIASES, LANGS, LOCALE_DIR, Lang
from ..table import TableConfig, table_profile
from ..table.page import TABLE_PAGE
from .icons import ICONS, THEME_COLOUR, draw_icons
from .pages import page_html

PACKAGE = Path(__file__).resolve().parent.parent
"""The ``mattis`` package folder, whose units go into the zip."""
WEB = Path(__file__).resolve().parent
STATIC = WEB / "static"
APP = STATIC / "app"
RUNTIME_DIR = APP / "pyodide"
ICON_DIR = APP / "icons"
BUILD_INFO = APP / "build.json"
NETWORK_FILE = APP / DEVICE_NETWORK
"""The ``master`` bot's network in the app (:func:`export_network`), fetched when it first moves."""
NETWORK_INFO = APP / "network.json"
"""What the worker reads at its start to know the app has a network: its file, size and digest."""
LOCKFILE_DIR = WEB / "runtime"
SERVICE_WORKER_SOURCE = LOCKFILE_DIR / "sw.js"

PYODIDE_VERSION = "314.0.7"
"""The Pyodide the lockfile pins (checked against what npm installed)."""
RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What the worker loads of Pyodide: the loader, the interpreter and the standard library
(no packages: the lock file only lists them, nothing fetches one)."""

APP_UNITS = ("build", "extras", "core", "i18n", "bots", "frontend", "table", "offline")
"""The units of ``mattis`` that the worker imports (with ``mattis/__init__.py``): the table and
everything below it, nothing that needs a library from outside the standard library (``build``
is a module, ``mattis/build.py``, which ``mattis/__init__.py`` runs first, and so is ``extras``,
which ``bots`` asks whether numpy is there for the ``learned`` level; the others are
folders)."""


SERVICE_WORKER_MARK = "/*BUILD*/"

SITE_SCRIPT = "/static/site.js"

LEARN_PAGE = "/learn"
"""The tutorial's page; its lessons are ``/api/learn/{preset}.{lang}.json``, the same address
online and offline (no query, so the service worker keeps each as a file of its own)."""
"""The module that hands the pages what Python knows of the site (:func:`site_script`)."""


class BuildError(Exception):
    """The app could not be built (no npm, an npm failure, an unexpected Pyodide)."""


# -------------------------------------------------------------------- the build


def lock_digest() -> str:
    """The lockfile's digest: a build is current while it matches."""
    return hashlib.sha256((LOCKFILE_DIR / "package-lock.json").read_bytes()).hexdigest()


def is_built() -> bool:
    """Whether the runtime and icons are there, built from the current lockfile."""
    try:
        info = json.loads(BUILD_INFO.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    files = [RUNTIME_DIR / name for name in RUNTIME_FILES] + [ICON_DIR / name for name in ICONS]
    return info.get("lock") == lock_digest() and all(path.is_file() for path in files)


def build(force: bool = False, say: Callable[[str], object] = print) -> bool:
    """Fetch Pyodide with ``npm ci`` (pinned by the lockfile, integrity checked by npm), copy
    what the worker loads, gzip it, draw the icons, and write the ``master`` bot's network
    (:func:`export_network`). Does nothing when the build is current (``False``), unless
    ``force``."""
    built = False
    with _build_lock():
        if force or not is_built():  # another process may have built it while this one waited
            _build(say)
            built = True
        exported = export_network(say)
    return built or exported


def shipped_network_file() -> Path | None:
    """The network the ``master`` bot plays (``mattis/data/master.npz``), if the package has one."""
    path = PACKAGE / "data" / "master.npz"
    return path if path.is_file() else None


def export_network(say: Callable[[str], object] = print) -> bool:
    """Write the shipped network for the offline app, where numpy is not: its weights in the
    compact format (:data:`NETWORK_FILE`, :mod:`mattis.bots.compact`) and a few bytes saying
    so (:data:`NETWORK_INFO`, which the worker reads at its start; the weights only when a
    ``master`` bot moves). Without a shipped network (or numpy to read it) the app has none,
    and offers no ``master``: ``network.json`` then says ``{"file": null}`` (so the worker's
    start asks for nothing that is missing). Returns whether a file changed."""
    source = shipped_network_file()
    data: bytes | None = None
    info: dict[str, Any] = {"file": None}
    if source is not None and not installed("numpy"):
        say("numpy is not installed: the offline app is built without the master bot's network")
    elif source is not None:
        from ..bots.network import compact_bytes, load_network  # numpy: only for the build

        data = compact_bytes(load_network(source))
        shape = read_shape(data)
        info = {"file": NETWORK_FILE.name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                "widths": list(shape.widths), "float_bytes": shape.itemsize}
    text = (json.dumps(info, separators=(",", ":")) + "\n").encode()
    current = NETWORK_INFO.is_file() and NETWORK_INFO.read_bytes() == text and (
        NETWORK_FILE.is_file() and NETWORK_FILE.read_bytes() == data if data else not NETWORK_FILE.exists())
    if current:
        return False
    if data is None:
        NETWORK_FILE.unlink(missing_ok=True)
    for path, content in ((NETWORK_FILE, data), (NETWORK_INFO, text)):
        if content is not None:
            partial = path.with_name(f".{path.name}.partial")  # whole or not at all: pages may read it
            partial.write_bytes(content)
            partial.replace(path)
    if data is not None:
        say(f"wrote the master bot's network for the app ({len(data):,} bytes, {NETWORK_FILE.name})")
    return True


def has_network() -> bool:
    """Whether the app was built with the ``master`` bot's network (:func:`export_network`)."""
    try:
        return bool(json.loads(NETWORK_INFO.read_text(encoding="utf-8")).get("file"))
    except (OSError, ValueError, AttributeError):
        return False


@contextlib.contextmanager
def _build_lock() -> Iterator[None]:
    """One build at a time on this machine (test workers may all find the build missing)."""
    APP.mkdir(parents=True, exist_ok=True)
    with open(APP / ".build.lock", "w", encoding="utf-8") as handle:
        try:
            import fcntl
        except ImportError:  # Windows: builds there are run by hand, one at a time
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _build(say: Callable[[str], object]) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("mattis app build needs npm (Node.js) to fetch Pyodide: apt-get install -y npm")
    with tempfile.TemporaryDirectory(prefix="mattis-npm-") as work:
        for name in ("package.json", "package-lock.json"):
            shutil.copy(LOCKFILE_DIR / name, Path(work) / name)
        say(f"fetching Pyodide {PYODIDE_VERSION} (npm ci) ...")
        done = subprocess.run(
            [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=work,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines()
            raise BuildError(f"npm ci failed: {lines[-1] if lines else done.returncode}")
        source = Path(work) / "node_modules" / "pyodide"
        version = json.loads((source / "package.json").read_text(encoding="utf-8")).get("version")
        if version != PYODIDE_VERSION:
            raise BuildError(f"npm installed Pyodide {version}, expected {PYODIDE_VERSION}")
        if RUNTIME_DIR.exists():
            shutil.rmtree(RUNTIME_DIR)
        RUNTIME_DIR.mkdir(parents=True)
        for name in RUNTIME_FILES:
            data = (source / name).read_bytes()
            (RUNTIME_DIR / name).write_bytes(data)
            (RUNTIME_DIR / f"{name}.gz").write_bytes(gzip.compress(data, 9, mtime=0))
    say("drawing the icons ...")
    ICON_DIR.mkdir(parents=True, exist_ok=True)
    for name, data in draw_icons().items():
        (ICON_DIR / name).write_bytes(data)
    BUILD_INFO.write_text(
        json.dumps({"pyodide": PYODIDE_VERSION, "lock": lock_digest()}) + "\n", encoding="utf-8"
    )
    say(f"the offline app is built in {APP}")


def package_zip() -> bytes:
    """Our package as the worker imports it: ``mattis/__init__.py``, the sources of
    :data:`APP_UNITS` and the compiled message catalogues, in a zip that is the same bytes for
    the same sources. Only ``.py`` files of code: the app runs pure Python, also when it is made
    from a compiled install."""
    paths = [PACKAGE / "__init__.py"]
    for unit in APP_UNITS:
        module = PACKAGE / f"{unit}.py"
        paths += [module] if module.is_file() else sorted((PACKAGE / unit).rglob("*.py"))
    paths += sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.mo"))  # the texts, as mattis.i18n reads them
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in paths:
            info = zipfile.ZipInfo("mattis/" + path.relative_to(PACKAGE).as_posix(), (1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


# -------------------------------------------------------------------- what the app is made of


def site_script() -> str:
    """``/static/site.js``: what the pages must know that Python decides, as an ES module, so
    it is written in one place: where the table page lives (``TABLE_PAGE``, from
    :mod:`mattis.table.page`). There is no such file; the server writes it, and the offline
    app and the export keep it like the others."""
    return ("// Written by mattis.web.pwa.site_script: what the pages take from Python. No file holds it.\n"
            "/** The table page: a table's page is TABLE_PAGE and its id (mattis.table.page). */\n"
            f"export const TABLE_PAGE = {json.dumps(TABLE_PAGE)};\n")


def manifest() -> dict[str, Any]:
    """The web app manifest: what a phone needs to install the app."""
    icons = [
        {
            "src": f"/static/app/icons/{name}",
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "maskable" if name.startswith("maskable") else "any",
        }
        for name, (size, _) in ICONS.items()
    ]
    return {
        "name": "Mattis",
        "short_name": "Mattis",
        "id": "/",
        "description": "The Norwegian card game Mattis, against bots or friends; plays offline.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": THEME_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }


@dataclass(frozen=True)
class AppFile:
    """One file the service worker keeps: where the pages ask for it (``url``, the cache
    key), where to fetch it from on this host (``source``) and its bytes."""

    url: str
    source: str
    data: bytes
    content_type: str


Answers = Callable[[str], bytes]
"""The bytes a server route gives for an address (the rules page, options, texts)."""


def app_files(
    rules_page: Callable[[Lang], str],
    options: Callable[[Lang, TableConfig, bool], dict[str, Any]],
    texts: Callable[[Lang], dict[str, Any]],
    exported: bool = False,
) -> list[AppFile]:
    """Every file of the app, as the service worker keeps it (its ``/api/options`` answers
    from the ``device`` profile, which the offline app plays). ``exported``: for the static
    export, where an address with a query (``/api/texts?lang=nb``) is a file of its own."""
    files: list[AppFile] = []
    html = "text/html; charset=utf-8"
    files.append(
        AppFile(
            "/", "/", page_html("index").encode(), html
        )
    )
    files.append(
        AppFile(
            TABLE_PAGE,
            TABLE_PAGE,
            page_html("table").encode(),
            html,
        )
    )
    files.append(
        AppFile(
            LEARN_PAGE,
            LEARN_PAGE,
            page_html("learn").encode(),
            html,
        )
    )
    for lang in LANGS:
        for preset in PRESET_NAMES:  # the lessons: computed by the engine now, read as data offline
            url = f"/api/learn/{preset}.{lang}.json"
            files.append(AppFile(url, url, _json(lesson(preset, lang)), "application/json"))
        files.append(
            AppFile(
                f"/rules?lang={lang}",
                f"/rules.{lang}.html" if exported else f"/rules?lang={lang}",
                rules_page(lang).encode(),
                html,
            )
        )
        files.append(
            AppFile(
                f"/api/options?lang={lang}",
                f"/api/options.{lang}.json" if exported else f"/api/options?lang={lang}&host=device",
                _json(options(lang, table_profile("device"), True)),  # what the device plays
                "application/json",
            )
        )
        files.append(
            AppFile(
                f"/api/texts?lang={lang}",
                f"/api/texts.{lang}.json" if exported else f"/api/texts?lang={lang}",
                _json(texts(lang)),
                "application/json",
            )
        )
    files.append(
        AppFile(
            "/manifest.webmanifest", "/manifest.webmanifest", _json(manifest()), "application/manifest+json"
        )
    )
    for path in sorted(STATIC.rglob("*")):
        if not path.is_file() or path.suffix == ".gz" or path == BUILD_INFO or path.name.startswith("."):
            continue
        url = "/static/" + path.relative_to(STATIC).as_posix()
        files.append(AppFile(url, url, path.read_bytes(), _content_type(path.name)))
    files.append(
        AppFile("/static/app/mattis.zip", "/static/app/mattis.zip", package_zip(), "application/zip")
    )
    files.append(AppFile(SITE_SCRIPT, SITE_SCRIPT, site_script().encode(), "text/javascript"))
    return files


def version(files: list[AppFile], worker: str = "") -> str:
    """The app's version: a digest of every file it is made of and of the service worker's
    source (``worker``), so a new worker never writes into the cache of the one before."""
    digest = hashlib.sha256(hashlib.sha256(worker.encode()).digest())
    for item in sorted(files, key=lambda item: item.url):
        digest.update(item.url.encode() + b"\0" + hashlib.sha256(item.data).digest())
    return digest.hexdigest()[:16]


def service_worker(files: list[AppFile], exported: bool = False) -> str:
    """The service worker's script: its source with the version, the files to keep (each with
    its SHA-256, which the worker checks every file against before it keeps it), the table
    page's path (the page it serves for every table) and the languages of the answers kept."""
    source = SERVICE_WORKER_SOURCE.read_text(encoding="utf-8")
    before, mark, rest = source.partition(SERVICE_WORKER_MARK)
    _, mark_again, after = rest.partition(SERVICE_WORKER_MARK)
    if not mark or not mark_again:
        raise BuildError(
            f"{SERVICE_WORKER_SOURCE.name}: no {SERVICE_WORKER_MARK} ... {SERVICE_WORKER_MARK} part"
        )
    build_info = {
        "version": version(files, source),
        "exported": exported,
        "languages": {"codes": list(LANGS), "aliases": dict(LANG_ALIASES), "default": DEFAULT_LANG},
        "files": [[item.url, item.source, hashlib.sha256(item.data).hexdigest()] for item in files],
        "table_page": TABLE_PAGE,
    }
    return before + json.dumps(build_info, separators=(",", ":")) + after


def export(out: Path, files: list[AppFile]) -> int:
    """Write the whole app into ``out`` as static files for any static host (served at the
    host's root, since the pages ask for ``/static/…``); returns how many files."""
    written = 0

    def write(relative: str, data: bytes) -> None:
        nonlocal written
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written += 1

    by_url = {item.url: item for item in files}
    for item in files:
        if item.url == "/":
            write("index.html", item.data)
        elif item.url == LEARN_PAGE:
            write(LEARN_PAGE.strip("/") + "/index.html", item.data)
        elif item.url == TABLE_PAGE:
            write(TABLE_PAGE.strip("/") + "/index.html", item.data)
            write("404.html", item.data)  # hosts that answer unknown addresses with it open /t/ID
        else:
            write(item.source.lstrip("/"), item.data)
    for kind in ("options", "texts"):  # a first visit, before the service worker answers
        write(f"api/{kind}", by_url[f"/api/{kind}?lang=en"].data)
    write("rules/index.html", by_url["/rules?lang=en"].data)
    write("sw.js", service_worker(files, exported=True).encode())
    return written


def _json(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
}


def _content_type(name: str) -> str:
    return CONTENT_TYPES.get(Path(name).suffix, "application/octet-stream")
