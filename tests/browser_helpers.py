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
    """``mattis serve`` on a fresh database in ``folder``, with quick bots and patient
    absences; its base URL."""
    port = free_port()
    with server(port, f"sqlite:///{folder / 'site.sqlite3'}", "--bot-delay", "0.05", "--absence", "600"):
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


# ------------------------------------------------------------------ axe-core

AXE_PINS = Path(__file__).resolve().parent / "axe"
"""``package.json`` and ``package-lock.json`` pinning axe-core (by version and integrity hash),
as ``src/mattis/web/runtime/`` pins Pyodide."""
AXE_HOME = Path(__file__).resolve().parent.parent / "build" / "axe"
"""Where ``npm ci`` installs it (``build/`` is never committed)."""
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
"""WCAG 2.2 AA: the rules axe tags with these levels."""


def axe_script() -> str:
    """axe-core's browser script, installed from the lockfile with ``npm ci`` when it is
    missing or its lockfile changed (npm checks the integrity hash), one process at a time."""
    import fcntl
    import hashlib
    import shutil
    import subprocess

    AXE_HOME.mkdir(parents=True, exist_ok=True)
    lock_text = (AXE_PINS / "package-lock.json").read_bytes()
    stamp = AXE_HOME / "lock.sha256"
    script = AXE_HOME / "node_modules" / "axe-core" / "axe.min.js"
    with open(AXE_HOME / ".install.lock", "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        digest = hashlib.sha256(lock_text).hexdigest()
        if not script.exists() or not stamp.exists() or stamp.read_text() != digest:
            npm = shutil.which("npm")
            if npm is None:
                pytest.fail("npm is missing: apt-get install -y npm (the README's test command does)")
            for name in ("package.json", "package-lock.json"):
                shutil.copyfile(AXE_PINS / name, AXE_HOME / name)
            subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=AXE_HOME,
                           check=True, capture_output=True, timeout=600)
            stamp.write_text(digest)
    return script.read_text()


def axe_violations(page: Page, exclude: list[str] | None = None) -> list[str]:
    """Run axe-core on the page at WCAG 2.2 AA (``label-content-name-mismatch`` included):
    each violation as "rule: target" lines, empty when there are none."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_script() + "\n;0")  # through DevTools: the pages' CSP bars inline scripts
    found: list[dict[str, Any]] = page.evaluate(
        """async ([tags, exclude]) => {
          const result = await axe.run({ include: [document], exclude: exclude.map((s) => [s]) },
            { runOnly: { type: "tag", values: tags },
              rules: { "label-content-name-mismatch": { enabled: true } },
              resultTypes: ["violations"] });
          return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) }));
        }""", [AXE_TAGS, exclude or []])
    return [f"{violation['id']}: {target}" for violation in found for target in violation["nodes"]]


# ------------------------------------------------------------------ steadiness and sizes

WATCH_SHIFTS = """(() => {
  window.shifts = { quiet: 0, all: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.shifts.all += entry.value;
      if (!entry.hadRecentInput) window.shifts.quiet += entry.value;
    }
  }).observe({ type: "layout-shift", buffered: true });
})()"""
"""An init script: the page's layout shift from its start in ``window.shifts``: ``quiet``,
the cumulative layout shift (entries without recent input), and ``all`` entries."""

SIZES = """() => {
  const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const shown = (el) => el.getClientRects().length
    && el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const classes = (el) => (typeof el.className === "string" ? el.className : "");
  const name = (el) => `${el.tagName.toLowerCase()}#${el.id}.${classes(el)} `
    + `"${(el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 30)}"`;
  const texts = [];
  const controls = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (!shown(el) || el.closest("svg, .visually-hidden")) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (ownText(el) && size > 0) texts.push([size, name(el)]);  // 0: words for screen readers only
    if (!el.matches("button, a[href], select, input:not([type=hidden]), summary, [role=button]")) continue;
    const inSentence = el.matches("a") && el.closest("p, li, td, figcaption")
      && !el.matches(".button, [data-action], .back-link, .rules-link");
    if (inSentence) continue;  // a link in running text is exempt from target sizes
    // a checkbox's target is its label, which wraps it
    const choice = el.matches("input[type=checkbox], input[type=radio]") && el.closest("label");
    const box = (choice || el).getBoundingClientRect();
    const side = Math.round(Math.min(box.width, box.height) * 10) / 10;
    if (side) controls.push([side, name(el)]);
  }
  texts.sort((a, b) => a[0] - b[0]);
  controls.sort((a, b) => a[0] - b[0]);
  return { text: texts[0] ?? [99, ""], control: controls[0] ?? [99, ""] };
}"""
"""A script for ``page.evaluate``: the smallest text shown now (CSS px, and where) and the
smallest control (the shorter side of its target)."""
