"""One ``TableConfig`` with named profiles (issue 23.2), and every refusal's status from
``STATUS`` (issue 23.3): what each host tells players is what its tables play, and the code
list of ``docs/web.md`` is ``STATUS``, both ways.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mattis.core.errors import Reason
from mattis.i18n import LANGS, Lang, message_keys
from mattis.table import STATUS, TableConfig, TableSession, table_profile
from mattis.table.errors import CONFLICT
from mattis.web import create_app
from mattis.web.app import format_seconds, options_payload, texts_payload
from mattis.web.rules_page import rules_page

from .test_offline_tables import Dictionary, Page
from .web_helpers import FAST

ROOT = Path(__file__).resolve().parent.parent
WEB_DOC = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
WEB_WORDS = " ".join(WEB_DOC.split())
"""docs/web.md with its lines joined, to find a sentence however it is wrapped."""
BOTS_FIRST = [{"kind": "bot", "level": "hard"}, {"kind": "human"}, {"kind": "bot", "level": "expert"}]
"""Seat 0 leads the first game (the dealer is the last seat, P1.1): a bot's turn at once."""


def described_seconds(options: dict[str, Any], level: str) -> str:
    """The thinking time a level's description tells players."""
    description = next(item["description"] for item in options["levels"] if item["level"] == level)
    found = re.search(r"(\d+(?:[.,]\d+)?) s", description)
    assert found, description
    return found.group(1)


def played_seconds(session: TableSession) -> dict[str, float]:
    """The thinking time the table gives its bots, seat 0's and (after it) seat 2's."""
    played: dict[str, float] = {}
    for level in ("hard", "expert"):
        session.seats[0].level = level
        turn = session.bot_move_due()
        assert turn is not None and turn.job is not None and turn.level == level
        played[level] = turn.job.seconds
    return played


def test_the_profiles_are_the_tables_of_each_host() -> None:
    server, device = table_profile("server"), table_profile("device")
    assert device.invite_prefix is None and device.absence_timeout is None  # nobody to invite or wait for
    assert server.invite_prefix == "/t/" and server.absence_timeout == 60.0
    assert (device.expert_seconds, server.expert_seconds) == (2.0, 2.5)
    for config in (server, device):
        assert config.move_seconds("normal") == config.bot_delay
        assert config.move_seconds("hard") == config.bot_delay + config.hard_seconds
        assert config.move_seconds("expert") == config.bot_delay + config.expert_seconds
        assert config.idle_pause == 120.0


@pytest.mark.parametrize("lang", LANGS)
def test_the_server_tells_players_the_thinking_time_its_bots_get(tmp_path: Path, lang: Lang) -> None:
    """The level descriptions of ``/api/options`` and the time of the searches the server's
    workers are given, with the table options changed as ``mattis serve`` changes them."""
    played: dict[str, float] = {}

    class Workers(ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            played[args[0].level] = args[0].seconds
            return super().submit(fn, *args, **kwargs)

    table = dataclasses.replace(FAST.table, hard_seconds=0.15, expert_seconds=0.25)
    app = create_app(f"sqlite:///{tmp_path / 'told.sqlite3'}", dataclasses.replace(FAST, table=table),
                     executor_factory=lambda: Workers(1))
    with TestClient(app) as client:
        options = client.get(f"/api/options?lang={lang}").json()
        seats = [{"kind": "bot", "level": "hard"}, {"kind": "bot", "level": "expert"}, {"kind": "human"}]
        created = client.post("/api/tables", json={"players": 3, "seats": seats})
        assert created.status_code == 201
        table = created.json()
        # against robots only, the game waits for its person: she sits down
        with client.websocket_connect(f"/ws/tables/{table['table']}?token={table['token']}"):
            deadline = time.monotonic() + 30
            while len(played) < 2:  # seat 0 leads, then seat 1: both search at once
                assert time.monotonic() < deadline, played
                time.sleep(0.05)
    assert played == {"hard": 0.15, "expert": 0.25}
    for level in ("hard", "expert"):
        assert described_seconds(options, level) == format_seconds(played[level], lang)


def test_the_offline_app_tells_players_the_thinking_time_its_bots_get() -> None:
    """The static export and the service worker keep the ``device`` profile's times, which
    the worker's tables play (they once said 2.5 s for ``expert`` while it played 2)."""
    from mattis.web import pwa

    files = pwa.app_files(rules_page, options_payload, texts_payload, exported=True)
    kept = {item.url: item for item in files}

    async def device_table() -> dict[str, float]:
        page = Page(Dictionary(), table_profile("device"))
        created = await page.call("createTable", body={"players": 3, "seats": BOTS_FIRST})
        table = page.tables.tables[created["data"]["table"]]
        await table.stop()
        return played_seconds(table.session)

    played = asyncio.run(device_table())
    assert played == {"hard": 1.0, "expert": 2.0}
    for lang in LANGS:
        options = json.loads(kept[f"/api/options?lang={lang}"].data)
        for level in ("hard", "expert"):
            assert described_seconds(options, level) == format_seconds(played[level], lang)
    device = table_profile("device")
    told = f"bots play after a pause of {device.bot_delay:g} s; `hard` thinks up to {device.hard_seconds:g} s"
    assert told in WEB_WORDS
    assert f"`expert` up to {device.expert_seconds:g} s" in WEB_WORDS
    paces = " ".join(f"{device.move_seconds(level):g} s," for level in ("normal", "hard"))
    assert f"({paces} {device.move_seconds('expert'):g} s by level)" in WEB_WORDS


def test_mattis_serve_starts_from_the_server_profile_and_says_so() -> None:
    from mattis.cli.serve import serve_command

    server = table_profile("server")
    defaults = {name: item.default for name, item in inspect.signature(serve_command).parameters.items()}
    assert [defaults[name] for name in ("bot_delay", "absence", "hard_seconds", "expert_seconds",
                                        "master_seconds")] == \
        [server.bot_delay, server.absence_timeout, server.hard_seconds, server.expert_seconds,
         server.master_seconds]
    documented = dict(re.findall(r"^\| `(--[a-z-]+)` \| `([\d.]+)` \|", WEB_DOC, re.MULTILINE))
    assert float(documented["--bot-delay"]) == server.bot_delay
    assert float(documented["--absence"]) == server.absence_timeout
    assert float(documented["--hard-seconds"]) == server.hard_seconds
    assert float(documented["--expert-seconds"]) == server.expert_seconds
    assert float(documented["--master-seconds"]) == server.master_seconds
    assert server.move_seconds("master") == server.move_seconds("hard")
    paces = [server.move_seconds(level) for level in ("normal", "hard", "expert")]
    told = ("({:g} s for `easy` and `normal` and for a stand-in, {:g} s for `hard` and `master`, "
            "{:g} s for `expert`)")
    assert told.format(*paces) in WEB_WORDS


def test_the_server_keeps_only_its_own_settings_and_the_tables_profile() -> None:
    from mattis.web import Settings

    names = {item.name for item in dataclasses.fields(Settings)}
    assert not names & {item.name for item in dataclasses.fields(TableConfig)}
    assert Settings().table == table_profile("server")


# ---------------------------------------------------------------------------- refusal codes


def documented_codes() -> dict[str, int]:
    """The code table of docs/web.md: ``{code: status}`` (the engine's reasons as one row)."""
    rows = re.findall(r"^\| `([a-z_]+)` \| (\d{3}) \|", WEB_DOC, re.MULTILINE)
    assert rows, "docs/web.md has no code table"
    return {code: int(status) for code, status in rows}


def raised_codes() -> set[str]:
    """Every code the package refuses with (``Refusal("code"``)."""
    found: set[str] = set()
    for path in (ROOT / "src" / "mattis").rglob("*.py"):
        found |= set(re.findall(r"""Refusal\(\s*["']([a-z_]+)["']""", path.read_text(encoding="utf-8")))
    return found


def test_every_status_is_documented_and_every_documented_status_is_the_tables() -> None:
    documented = documented_codes()
    for code, status in STATUS.items():
        assert documented.get(code) == status, f"{code}: STATUS {status}, docs/web.md {documented.get(code)}"
    for code, status in documented.items():
        assert STATUS.get(code, CONFLICT) == status, f"{code}: docs/web.md says {status}"
    assert "| the engine's reason (`malformed`, `must_beat`, …) | 409 |" in WEB_DOC
    assert not {reason.value for reason in Reason} & set(STATUS)  # every engine reason is 409


def test_every_code_the_package_raises_is_documented_and_has_words() -> None:
    raised, documented = raised_codes(), documented_codes()
    assert raised - set(documented) == set(), "undocumented codes"
    assert {"bad_token", "busy", "moved", "damaged", "open_elsewhere"} <= raised
    keys = set(message_keys())
    assert {code for code in documented if f"web.err.{code}" not in keys} == set()


def test_no_refusal_sets_its_own_status() -> None:
    sources = [path.read_text(encoding="utf-8") for path in (ROOT / "src" / "mattis").rglob("*.py")]
    assert not any("ApiError" in source for source in sources)
    assert not any(re.search(r"Refusal\([^)]*status", source) for source in sources)
