"""axe-core for the browser tests: pinned from npm by ``tests/axe/package-lock.json`` (as the
offline app pins Pyodide) and installed with ``npm ci`` the first time a test needs it, so a
fresh clone passes with the README's test command. Nothing of it is committed."""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

TOOLS = Path(__file__).parent / "axe"
AXE = TOOLS / "node_modules" / "axe-core" / "axe.min.js"
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
"""The rule tags of WCAG 2.2 at level AA (axe-core's names)."""


def pinned_version() -> str:
    lock = json.loads((TOOLS / "package-lock.json").read_text(encoding="utf-8"))
    version: str = lock["packages"]["node_modules/axe-core"]["version"]
    return version


@cache
def axe_source() -> str:
    """axe-core's script, installed from the lockfile when missing (once, whichever test
    worker comes first: the others wait on the lock)."""
    with open(TOOLS / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not installed():
            npm = shutil.which("npm")
            if npm is None:
                pytest.fail("the browser tests need npm to fetch axe-core: apt-get install -y npm")
            command = [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"]
            done = subprocess.run(command, cwd=TOOLS, capture_output=True, text=True, timeout=600)
            if done.returncode != 0 or not installed():
                pytest.fail(f"npm ci in {TOOLS} failed: {done.stderr.strip()[-500:]}")
    return AXE.read_text(encoding="utf-8")


def installed() -> bool:
    package = TOOLS / "node_modules" / "axe-core" / "package.json"
    if not AXE.is_file() or not package.is_file():
        return False
    return bool(json.loads(package.read_text(encoding="utf-8")).get("version") == pinned_version())


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """What axe-core finds on the page as it is now, at WCAG 2.2 AA: each violation's rule id,
    impact, help and the elements (their selectors) it concerns."""
    if not page.evaluate("() => Boolean(window.axe)"):
        # evaluated through the DevTools protocol, which the pages' Content-Security-Policy
        # (no inline scripts) does not stop, unlike a <script> tag
        page.evaluate(axe_source() + "\n;true")
    found: list[dict[str, Any]] = page.evaluate(
        """async (tags) => {
          const only = { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] };
          const result = await window.axe.run(document, only);
          const node = (n) =>
            `${n.target.join(' ')} :: ${n.failureSummary.replace(/\\s+/g, ' ').slice(0, 200)}`;
          return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                                                 nodes: v.nodes.map(node) }));
        }""",
        WCAG_22_AA,
    )
    return found
