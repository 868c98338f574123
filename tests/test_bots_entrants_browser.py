"""A researcher's checkpoint at a table with people (issue 30, item 2), in Chromium: ``mattis
serve --allow-checkpoint`` offers it on the start page, and the table page names it by its
file's name (``maskinlært: alpha``), in the person's language."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import Browser, expect

from mattis.bots.encoding import OBSERVATION_SIZE
from mattis.bots.entrants import checkpoint_levels
from mattis.bots.learned import save_checkpoint
from mattis.core.actions import NUM_ACTIONS

from .browser_helpers import post, screenshot_folder
from .web_helpers import served_in_thread, with_tables

pytestmark = pytest.mark.browser


def test_the_table_page_names_an_allowed_checkpoint(browser: Browser, tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    alpha = save_checkpoint(tmp_path / "alpha.npz", [rng.normal(size=(OBSERVATION_SIZE, 4)),
                                                     rng.normal(size=(4, NUM_ACTIONS))],
                            [rng.normal(size=4), rng.normal(size=NUM_ACTIONS)], "relu")
    settings = with_tables(checkpoints=checkpoint_levels([str(alpha)]))
    with served_in_thread(tmp_path / "web.sqlite3", settings) as base_url:
        table = post(base_url, "/api/tables", {"rules": "pagat", "players": 3, "seats": [
            {"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "learned:alpha"},
            {"kind": "bot", "level": "easy"}]})
        page = browser.new_page()
        start = browser.new_page()
        try:
            start.goto(f"{base_url}/?lang=nb")
            expect(start.locator("option", has_text="maskinlært: alpha").first).to_be_attached(timeout=20_000)
            key = f"mattis.seat.{table['table']}"
            value = json.dumps({"seat": table["seat"], "token": table["token"]})
            page.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(value)})")
            page.goto(f"{base_url}/t/{table['table']}?lang=nb&pause=0")
            expect(page.locator("#hand [data-card]").first).to_be_visible(timeout=20_000)
            expect(page.get_by_text("maskinlært: alpha").first).to_be_visible()
            assert "learned:alpha" not in page.locator("body").inner_text()
            page.screenshot(path=str(screenshot_folder(tmp_path) / "checkpoint-seat.png"))
        finally:
            page.close()
            start.close()
