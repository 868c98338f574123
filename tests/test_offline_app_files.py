"""What the offline app is made of (issue 16): manifest, icons, the service worker's version,
the pages' one line, the build's refusals, and what ``mattis serve`` serves for it."""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from mattis.web import pwa
from mattis.web.icons import FELT, ICONS, picture, render
from mattis.web.pages import PAGE_SCRIPT, PAGES, PAGES_DIR, module_imports, page_html

from .web_helpers import web_client


def pixels(png: bytes) -> tuple[int, list[bytes]]:
    """The size and the RGB rows of a PNG that :func:`render` wrote."""
    width, height = struct.unpack(">II", png[16:24])
    assert width == height
    raw = zlib.decompress(png[png.index(b"IDAT") + 4: png.index(b"IEND") - 8])
    stride = 1 + 3 * width
    return width, [raw[row * stride + 1:(row + 1) * stride] for row in range(height)]


def test_the_manifest_has_what_an_install_needs() -> None:
    manifest = pwa.manifest()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert (
        manifest["name"]
        and manifest["short_name"]
        and manifest["theme_color"] == manifest["background_color"]
    )
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    assert {icon["src"].rsplit("/", 1)[1] for icon in manifest["icons"]} == set(ICONS)


def test_the_maskable_icon_keeps_the_picture_inside_the_safe_circle() -> None:
    """A phone may cut a maskable icon to any shape within its middle 80 % circle."""
    size, rows = pixels(render(96, picture(ICONS["maskable-512.png"][1]), samples=1))
    outside = [
        rows[y][3 * x : 3 * x + 3]
        for y in range(size)
        for x in range(size)
        if ((x + 0.5) / size - 0.5) ** 2 + ((y + 0.5) / size - 0.5) ** 2 > 0.4**2
    ]
    assert outside and all(pixel == bytes(FELT) for pixel in outside)
    plain_size, plain = pixels(render(96, picture(1.0), samples=1))
    assert plain_size == 96 and any(row[3 * 80 : 3 * 81] != bytes(FELT) for row in plain)  # reaches further


@pytest.mark.parametrize("name", sorted(PAGES))
def test_each_page_is_its_own_body_in_the_one_shell(name: str) -> None:
    html = page_html(name)
    head, body = html.split("</head>")
    assert html.startswith("<!doctype html>") and html.count("<head>") == 1 and html.count("<body") == 1
    assert head.count('href="/static/style.css"') == 1 and head.count("/static/theme.js") == 1
    assert head.count(PAGE_SCRIPT) == (1 if PAGES[name].offline else 0)  # only the app's pages are the app's
    assert body.count('<header class="bar">') == 1 and body.count(f'src="/static/{PAGES[name].script}"') == 1
    own = (PAGES_DIR / f"{name}.html").read_text(encoding="utf-8")
    assert "<head>" not in own and "<!doctype" not in own.lower() and "theme.js" not in own


def test_a_page_preloads_every_module_its_script_imports() -> None:
    preloads = re.findall(r'<link rel="modulepreload" href="/static/([^"]+)">', page_html("table"))
    assert len(preloads) == len(set(preloads))
    for module in ["table/connection.js", "table/hand.js", "i18n.js", "site.js", "cards.js"]:
        assert module in preloads  # table.js's own imports, and theirs in turn
    assert "table.js" not in preloads and module_imports("table.js") == preloads


def test_the_version_changes_with_any_file_and_the_service_worker_carries_it() -> None:
    files = [
        pwa.AppFile("/", "/", b"page", "text/html"),
        pwa.AppFile("/static/a.js", "/static/a.js", b"1", "x"),
    ]
    changed = [files[0], pwa.AppFile("/static/a.js", "/static/a.js", b"2", "x")]
    assert pwa.version(files) != pwa.version(changed) and pwa.version(files) == pwa.version(
        list(reversed(files))
    )
    assert pwa.version(files, "worker 1") != pwa.version(files, "worker 2")
    script = pwa.service_worker(files, exported=True)
    build = json.loads(script.split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    source = pwa.SERVICE_WORKER_SOURCE.read_text(encoding="utf-8")
    assert build["version"] == pwa.version(files, source) and build["exported"] is True
    assert build["files"] == [["/", "/", hashlib.sha256(b"page").hexdigest()],
                              ["/static/a.js", "/static/a.js", hashlib.sha256(b"1").hexdigest()]]


def test_the_package_zip_is_the_same_bytes_for_the_same_sources() -> None:
    assert pwa.package_zip() == pwa.package_zip()


def test_building_without_npm_says_so_in_one_line(tmp_path: Path) -> None:
    environ = {**os.environ, "PATH": str(tmp_path)}  # nothing to run there, npm included
    done = subprocess.run(
        [sys.executable, "-m", "mattis", "app", "build", "--force"],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: mattis app build needs npm (Node.js) to fetch Pyodide: apt-get install -y npm"
    ]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    pwa.build(say=lambda line: None)
    with web_client(tmp_path_factory.mktemp("files") / "files.sqlite3") as opened:
        yield opened


def test_the_server_serves_the_app(client: TestClient) -> None:
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.headers["content-type"].startswith("text/javascript")
    build = json.loads(worker.text.split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    for url, source, digest in build["files"]:  # the bytes the worker will check, as served
        answer = client.get(source)
        assert answer.status_code == 200, (url, source)
        assert hashlib.sha256(answer.content).hexdigest() == digest, (url, source)
    assert client.get("/manifest.webmanifest").headers["content-type"].startswith("application/manifest+json")
    packed = client.get("/static/app/pyodide/pyodide.asm.wasm", headers={"accept-encoding": "gzip"})
    assert (
        packed.headers["content-encoding"] == "gzip" and packed.headers["content-type"] == "application/wasm"
    )
    assert client.get("/static/app/pyodide/numpy.whl").status_code == 404
    page = client.get("/")
    assert PAGE_SCRIPT in page.text
    assert "'wasm-unsafe-eval'" in page.headers["content-security-policy"]
    device = client.get("/api/options?lang=en&host=device").json()
    hard = next(level for level in device["levels"] if level["level"] == "hard")
    assert "up to 1 s a move" in hard["description"]
