"""Shared pieces of the browser tests: a served site, Debian's Chromium, a screenshot folder,
small HTTP calls to a running server, and a console watch."""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, ViewportSize, sync_playwright

from .web_helpers import free_port, server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE: ViewportSize = {"width": 390, "height": 844}


@contextmanager
def served_site(folder: Path) -> Iterator[str]:
    """``mattis serve`` on a fresh database in ``folder``, with quick bots, patient absences
    and a review budget small enough for a page test; its base URL. The offline app is built
    first (once per machine; nothing to do when current), as a person's site has it: else
    every page's service worker is a 404."""
    from mattis.web import pwa

    pwa.build(say=lambda line: None)
    port = free_port()
    with server(port, f"sqlite:///{folder / 'site.sqlite3'}", "--bot-delay", "0.05", "--absence", "600",
                "--review-iterations", "6"):
        yield f"http://127.0.0.1:{port}"


@contextmanager
def launched_chromium() -> Iterator[Browser]:
    """Debian's Chromium under Playwright (its own browser download does not work here)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


def screenshot_folder(tmp_path: Path) -> Path:
    """``$MATTIS_SCREENSHOTS`` when set (to look at the pages), else the test's own folder."""
    folder = Path(os.environ.get("MATTIS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def post(base_url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{base_url}{path}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def get(base_url: str, path: str) -> Any:
    with urllib.request.urlopen(f"{base_url}{path}", timeout=10) as response:
        return json.loads(response.read())


def page_script(name: str) -> str:
    """A script for ``page.evaluate`` kept in ``tests/page_scripts/`` (one function each)."""
    return (Path(__file__).parent / "page_scripts" / name).read_text(encoding="utf-8")


def watch_console(page: Page, expected: frozenset[str] = frozenset()) -> list[str]:
    """Every console error and page error of `page` from now on, but those naming one of
    `expected` (parts of a URL or message)."""
    problems: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        where = message.location.get("url", "") if message.location else ""
        if any(part in where or part in message.text for part in expected):
            return
        problems.append(f"{message.text} ({where})")

    page.on("console", console)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return problems


OVERFLOW = """(asked) => {
  const options = asked || {};
  const problems = [];
  const ownText = (el) => [...el.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim());
  const width = document.documentElement.clientWidth;
  const page = document.documentElement.scrollWidth;
  if (page > width) problems.push(`the page is ${page} px wide`);
  const measure = document.createElement("canvas").getContext("2d");
  for (const el of document.body.querySelectorAll("*")) {
    if (!el.getClientRects().length) continue;
    const hidden = el.closest("svg, .visually-hidden");
    if (options.textOnly && (hidden || (!ownText(el) && el.tagName !== "SELECT"))) continue;
    const box = el.getBoundingClientRect();
    if (options.textOnly && (box.left >= width || box.right <= 0)) continue;  // a closed drawer, off screen
    const name = `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${el.className}`;
    if (box.right > width + 0.5 || box.left < -0.5) problems.push(`${name} sticks out: ${box.right}`);
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name} cut: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    if (el.tagName === "SELECT") {  // a select shows only what fits: measure its chosen text
      const style = getComputedStyle(el);
      measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = measure.measureText(el.selectedOptions[0]?.textContent ?? "").width;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
      if (text > room) problems.push(`${name} option cut: ${text} > ${room}`);
    }
  }
  return problems;
}"""
"""A script for ``page.evaluate``: what overflows the page or its box (text cut off, the page
wider than the screen), as a list of problems; empty when everything fits. With
``{"textOnly": True}`` only visible elements with text of their own count (a table's hand and
felt scroll and overlap cards by design, and a closed drawer waits off screen)."""
