"""The service worker keeps only the files its version names (issue 29, item 5), in a real
headless Chromium: a file altered on the way during an install (a proxy on plain HTTP) fails
that install and the version before goes on serving; a file an earlier version kept wrongly
is checked again before a new version carries it on, and fetched anew.

The app is the static export (``mattis app export``) on a small file server of this test's
own, which can append bytes to one file's answers, as a proxy would.
"""

from __future__ import annotations

import hashlib
import http.server
import json
import shutil
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from mattis.web import pwa

from .app_helpers import chromium, install, wait_until

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""

MARK = "const BUILD = "
TAMPERED = "/static/table.js"
PLANTED = b"\n;self.planted = true;\n"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``mattis app export``, run as a person would (the build is made when missing)."""
    pwa.build(say=lambda line: None)
    out = tmp_path_factory.mktemp("export") / "site"
    done = subprocess.run([sys.executable, "-m", "mattis", "app", "export", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as (_, launched):
        yield launched


class Proxy:
    """What the file server appends to which file's answers, and the files it was asked for."""

    def __init__(self) -> None:
        self.appended: dict[str, bytes] = {}
        self.asked: Counter[str] = Counter()


class Handler(http.server.SimpleHTTPRequestHandler):
    proxy: Proxy

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        self.proxy.asked[path] += 1
        extra = self.proxy.appended.get(path)
        if extra is None:
            super().do_GET()
            return
        body = Path(self.translate_path(path)).read_bytes() + extra
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def file_server(folder: Path) -> Iterator[tuple[str, Proxy]]:
    proxy = Proxy()
    handler = type("Served", (Handler,), {"proxy": proxy})
    served = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(folder)))
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{served.server_address[1]}", proxy
    finally:
        served.shutdown()
        served.server_close()


def build_of(site: Path) -> dict[str, Any]:
    text = (site / "sw.js").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text.split(MARK, 1)[1].split(";\n", 1)[0])
    return data


def deploy(site: Path, version: str, changed: dict[str, bytes] | None = None) -> None:
    """The next version of the app on the site: ``changed`` files (by URL) with their new
    bytes and digests, and the new version in ``sw.js``."""
    build = build_of(site)
    for url, data in (changed or {}).items():
        (site / url.lstrip("/")).write_bytes(data)
        for entry in build["files"]:
            if entry[0] == url:
                entry[2] = hashlib.sha256(data).hexdigest()
    build["version"] = version
    before, _, rest = (site / "sw.js").read_text(encoding="utf-8").partition(MARK)
    after = rest.partition(";\n")[2]
    (site / "sw.js").write_text(before + MARK + json.dumps(build) + ";\n" + after, encoding="utf-8")


VERSION = """() => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => resolve(event.data);
  navigator.serviceWorker.controller.postMessage({ type: 'version' }, [channel.port2]);
})"""

UPDATE = """async () => {
  // Look for a new version and wait for its install to end: 'installed' (it waits for the
  // person to update) or 'redundant' (it failed).
  const registration = await navigator.serviceWorker.getRegistration();
  const found = new Promise((resolve) => registration.addEventListener(
    'updatefound', () => resolve(registration.installing), { once: true }));
  await registration.update();
  const worker = registration.installing || registration.waiting || await found;
  return await new Promise((resolve) => {
    const settled = () => { if (worker.state !== 'installing') resolve(worker.state); };
    worker.addEventListener('statechange', settled);
    settled();
  });
}"""

SERVED = "(url) => fetch(url).then((response) => response.text())"
CACHES = "() => caches.keys()"


def update_now(page: Page) -> None:
    """The person presses "update": the waiting version takes over and the page reloads."""
    wait_until(page, "document.querySelector('[data-pwa=\"update-now\"]') !== null")
    with page.expect_navigation():
        page.click('[data-pwa="update-now"]')
    wait_until(page, "navigator.serviceWorker.controller !== null")


def test_a_file_altered_during_an_install_fails_it_and_the_version_before_stays(
        browser: Browser, exported: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(exported, site)
    context = browser.new_context()
    with file_server(site) as (url, proxy):
        page = context.new_page()
        install(page, f"{url}/?lang=en")
        first = page.evaluate(VERSION)
        clean = page.evaluate(SERVED, TAMPERED)
        assert clean.encode() == (site / TAMPERED.lstrip("/")).read_bytes()

        changed = (site / TAMPERED.lstrip("/")).read_bytes() + b"\n// the next version\n"
        deploy(site, "a" * 16, {TAMPERED: changed})
        proxy.appended[TAMPERED] = PLANTED  # a proxy adds code while the new version installs
        asked = proxy.asked[TAMPERED]
        assert page.evaluate(UPDATE) == "redundant"
        assert proxy.asked[TAMPERED] > asked  # fetched, and refused
        assert page.evaluate(VERSION) == first
        assert page.evaluate(SERVED, TAMPERED) == clean  # the version before serves its own
        assert f"mattis-{'a' * 16}" not in page.evaluate(CACHES)  # nothing of the failed one kept
        page.goto(f"{url}/t/")  # the table page runs table.js: the clean one
        wait_until(page, "navigator.serviceWorker.controller !== null")
        assert page.evaluate(VERSION) == first and page.evaluate("self.planted === undefined")
        page.goto(f"{url}/?lang=en")

        del proxy.appended[TAMPERED]  # the network is clean again: the same version installs
        assert page.evaluate(UPDATE) == "installed"
        update_now(page)
        assert page.evaluate(VERSION) == "a" * 16
        assert page.evaluate(SERVED, TAMPERED).encode() == changed
        assert page.evaluate(CACHES) == [f"mattis-{'a' * 16}"]
    context.close()


POISON = """async ({ cache, url, digest }) => {
  // What a version before the check may have kept: other bytes under the file's right digest.
  const headers = { 'content-type': 'text/javascript', 'x-mattis-digest': digest };
  await (await caches.open(cache)).put(url, new Response('self.planted = true;', { headers }));
}"""


def test_a_file_carried_into_a_new_version_is_checked_again(
        browser: Browser, exported: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(exported, site)
    carried = "/static/transport.js"
    context = browser.new_context()
    with file_server(site) as (url, proxy):
        page = context.new_page()
        install(page, f"{url}/?lang=en")
        first = page.evaluate(VERSION)
        digest = next(entry[2] for entry in build_of(site)["files"] if entry[0] == carried)
        page.evaluate(POISON, {"cache": f"mattis-{first}", "url": carried, "digest": digest})
        assert page.evaluate(SERVED, carried) == "self.planted = true;"  # the old version's harm

        deploy(site, "b" * 16)  # a new version in which the file has not changed
        asked = proxy.asked[carried]
        unchanged = "/static/app/mattis.zip"
        asked_unchanged = proxy.asked[unchanged]
        assert page.evaluate(UPDATE) == "installed"
        assert proxy.asked[carried] == asked + 1  # not carried on: fetched anew
        assert proxy.asked[unchanged] == asked_unchanged  # a file that passes is carried
        update_now(page)
        assert page.evaluate(VERSION) == "b" * 16
        assert page.evaluate(SERVED, carried).encode() == (site / carried.lstrip("/")).read_bytes()
    context.close()
