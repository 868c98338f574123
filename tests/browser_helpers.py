"""Shared pieces of the browser tests: Debian's Chromium, small HTTP calls to a running
server, and a console watch that knows which files of issue 15 have not landed yet."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from playwright.sync_api import ConsoleMessage, Page, ViewportSize

from mattis.web.app import STATIC

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE: ViewportSize = {"width": 390, "height": 844}


def post(base_url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{base_url}{path}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def get(base_url: str, path: str) -> Any:
    with urllib.request.urlopen(f"{base_url}{path}", timeout=10) as response:
        return json.loads(response.read())


def pending_contract_files(base_url: str) -> set[str]:
    """The files another part of issue 15 delivers (the theme script, the QR route) while
    they have not landed yet: their 404s are expected, every other console error is not."""
    pending = set()
    if not (STATIC / "theme.js").exists():
        pending.add("/static/theme.js")
    table = post(base_url, "/api/tables", {"players": 3})
    try:
        urllib.request.urlopen(f"{base_url}/api/tables/{table['table']}/qr.svg", timeout=10).close()
    except urllib.error.HTTPError:
        pending.add("/qr.svg")
    return pending


def watch_console(page: Page, expected: set[str]) -> list[str]:
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
