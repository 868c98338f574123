"""The installable offline app in a real headless Chromium (issue 16, item 7).

Installability (the manifest through the DevTools protocol, the service worker activated),
whole games against every bot level with the network off, a game continued after the page was
closed, records the engine replays, an update of the service worker in the middle of a game,
the same deals and bot moves as on the server, and the static export on a plain file server.
The build (Pyodide from npm, the icons) is made when missing, so a fresh machine passes.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect
from playwright.sync_api import Error as PlaywrightError

from mattis import Game
from mattis.web import pwa

from .app_helpers import (
    ARGS,
    CHROMIUM,
    CREATE,
    ENGINE_READY,
    FAST_BOTS,
    PLAY,
    RECORD,
    chromium,
    install,
    wait_until,
)
from .axe_helpers import axe_violations
from .browser_helpers import watch_console
from .web_helpers import free_port, server

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""

SEATS = [
    {"kind": "human", "name": "Kari"},
    {"kind": "bot", "level": "hard"},
    {"kind": "bot", "level": "normal"},
]


@pytest.fixture(scope="module")
def built() -> None:
    pwa.build(say=lambda line: None)  # once per machine: does nothing when current


@pytest.fixture(scope="module")
def base_url(built: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    db = f"sqlite:///{tmp_path_factory.mktemp('app') / 'app.sqlite3'}"
    with server(port, db, "--bot-delay", "0", "--absence", "600"):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def launched() -> Iterator[tuple[Playwright, Browser]]:
    with chromium() as both:
        yield both


@pytest.fixture(scope="module")
def browser(launched: tuple[Playwright, Browser]) -> Browser:
    return launched[1]


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    opened = browser.new_context()
    yield opened
    opened.close()


def installed(context: BrowserContext, base_url: str) -> Page:
    page = context.new_page()
    install(page, f"{base_url}/?lang=en")
    page.evaluate(FAST_BOTS)
    return page


def create(page: Page, body: dict[str, Any], lang: str = "en", where: str = "auto") -> dict[str, Any]:
    created: dict[str, Any] = page.evaluate(CREATE, {"body": body, "lang": lang, "where": where})
    assert created["ok"], created
    return created


def play(
    page: Page, table_id: str, moves: int | None = None, lang: str = "en", hint: bool = False,
    pace: int = 0,
) -> dict[str, Any]:
    """Play through the page's transport; ``pace`` (ms between moves) keeps a server's seat
    under its message rate limit (10 a second)."""
    result: dict[str, Any] = page.evaluate(
        PLAY, {"tableId": table_id, "lang": lang, "moves": moves, "hint": hint, "pace": pace}
    )
    return result


def test_chromium_counts_the_app_as_installable(
    launched: tuple[Playwright, Browser], base_url: str, tmp_path: Path
) -> None:
    """In a browser profile of its own (an incognito one may not install anything)."""
    context = launched[0].chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS
    )
    page = installed(context, base_url)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest") and manifest["errors"] == []
    data = json.loads(manifest["data"])
    assert data["display"] == "standalone" and data["start_url"] == "/" and data["short_name"] == "Mattis"
    assert {icon["sizes"] for icon in data["icons"]} == {"192x192", "512x512"}
    assert any(icon["purpose"] == "maskable" for icon in data["icons"])
    state = page.evaluate("navigator.serviceWorker.getRegistration().then(r => [r.scope, r.active.state])")
    assert state == [f"{base_url}/", "activated"]
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors
    for icon in data["icons"]:
        size = int(icon["sizes"].split("x")[0])
        png = page.evaluate(
            "async (url) => Array.from(new Uint8Array(await (await fetch(url)).arrayBuffer()))", icon["src"]
        )
        assert bytes(png[:8]) == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(bytes(png[16:20]), "big") == size
    context.close()


def test_offline_after_one_visit_whole_games_against_every_level(
    context: BrowserContext, base_url: str
) -> None:
    """Load once, go offline, reload: the app opens, the hard bot's budget is the phone's,
    and whole games against easy, normal and hard end with a result, in every language."""
    page = installed(context, base_url)
    context.set_offline(True)
    page.reload()
    assert page.title() == "Mattis"
    options = page.evaluate("fetch('/api/options?lang=nb').then(r => r.json())")
    hard = next(level for level in options["levels"] if level["level"] == "hard")
    assert "1 s" in hard["description"]
    texts = page.evaluate("fetch('/api/texts?lang=en').then(r => r.json())")
    assert texts["offline"].startswith("No server")
    assert "Regler" in page.evaluate("fetch('/rules?lang=nb').then(r => r.text())")
    nynorsk = page.evaluate("fetch('/api/texts?lang=nn').then(r => r.json())")
    assert nynorsk["again"] == "Spel igjen" and nynorsk["_lang"] == "nn"
    assert nynorsk["table.cards"] == ["{n} kort", "{n} kort"] and nynorsk["_plural"] == "(n != 1)"
    assert "Reglar for Mattis" in page.evaluate("fetch('/rules?lang=nn').then(r => r.text())")
    for body, lang in [
        ({"rules": "pagat", "players": 3, "seats": SEATS}, "en"),
        (
            {
                "rules": "kortregler",
                "players": 3,
                "set": {"voluntary_pickup": True},
                "seats": [SEATS[0], {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
            },
            "nb",
        ),
        ({"rules": "pagat", "players": 3, "seats": SEATS}, "nn"),
    ]:
        created = create(page, body, lang)
        assert created["local"] and created["offline"] and created["data"]["table"].startswith("local-")
        game = play(page, created["data"]["table"], lang=lang, hint=True)
        last = game["last"]
        assert last["view"]["phase"] == "over" and last["result"]["headline"]
        assert game["hinted"]["action"] and game["hinted"]["explanation"]
        assert game["first"]["log"] or game["first"]["advice"]
        if lang == "nn":  # the worker's Python reads the nynorsk catalogue from the package zip
            assert "Berre valøren tel" in game["first"]["advice"]
    assert "Mattis" in last["result"]["headline"] or "mattis" in last["result"]["headline"].lower()


def test_offline_a_whole_game_against_two_master_bots_with_the_network_in_javascript(
    context: BrowserContext, base_url: str
) -> None:
    """Issue 27, "On the device": the app offers ``master`` offline, its bots play a whole game
    through the worker's JavaScript network (``network.bin`` fetched by the worker, so a silent
    fallback would fail here), each thinking the test hook's 0.05 s, not the device's 2 s."""
    assert pwa.has_network(), "the app build must carry the shipped master network (mattis/data/master.npz)"
    fetched: list[str] = []
    context.on("request", lambda request: fetched.append(request.url))
    page = installed(context, base_url)
    context.set_offline(True)
    page.reload()
    options = page.evaluate("fetch('/api/options?lang=en').then(r => r.json())")
    assert "master" in [level["level"] for level in options["levels"]]
    master = {"kind": "bot", "level": "master"}
    created = create(page, {"rules": "pagat", "players": 3, "seats": [SEATS[0], master, master]})
    assert created["local"] and created["offline"]
    network = [url for url in fetched if url.endswith("/static/app/network.bin")]  # the install cached it
    game = play(page, created["data"]["table"])
    last = game["last"]
    assert last["view"]["phase"] == "over" and last["result"]["headline"]
    assert game["played"] > 5
    assert len([url for url in fetched if url.endswith("/static/app/network.bin")]) > len(network)
    record = page.evaluate(RECORD, {"tableId": created["data"]["table"], "game": 1})
    replayed = Game.from_record(json.loads(record["served"]))  # the engine agrees with the device's game
    assert replayed.is_over and list(replayed.losers) == last["view"]["losers"]


def test_closing_the_page_mid_game_then_reopening_continues_and_the_record_replays(
    context: BrowserContext, base_url: str
) -> None:
    page = installed(context, base_url)
    context.set_offline(True)
    created = create(
        page, {"rules": "app", "players": 4, "seed": 11, "seats": [*SEATS, {"kind": "bot", "level": "easy"}]}
    )
    table_id = created["data"]["table"]
    before = play(page, table_id, moves=3)["last"]
    page.close()  # bots may have been thinking: what was saved is what counts
    reopened = context.new_page()
    reopened.goto(f"{base_url}/t/{table_id}?lang=en")
    reopened.evaluate(FAST_BOTS)
    saved = reopened.evaluate(SAVED_ACTIONS, table_id)
    after = play(reopened, table_id)
    assert after["first"]["view"]["event_count"] >= before["view"]["event_count"]
    assert after["last"]["view"]["phase"] == "over"
    record = reopened.evaluate(RECORD, {"tableId": table_id, "game": 1})
    assert record["status"] == 200 and record["fetched"]["ok"]
    assert record["served"] == record["fetched"]["text"]
    game = Game.from_record(json.loads(record["served"]))
    assert game.is_over and list(game.losers) == after["last"]["view"]["losers"]
    assert len(saved) >= 3 and [str(action) for action in game.actions[: len(saved)]] == saved
    at_close = Game.from_record({**json.loads(record["served"]), "actions": saved, "result": None})
    assert after["first"]["view"]["hand"] == at_close.hand(0)  # continued exactly where it was
    listed = reopened.evaluate("import('/static/transport.js').then(t => t.localTables('en'))")
    assert table_id in [item["table"] for item in listed["data"]]


def test_the_table_page_plays_a_table_on_the_device_with_the_network_off(
    context: BrowserContext, base_url: str
) -> None:
    """Every module of the table page (``static/table/``, ``page.js``, the server-written
    ``site.js``) and the worker's ``database.js`` come from the service worker's cache: with
    the network off the page deals, shows the hand in the order the state gives (phase 1: by
    rank) and plays by its hooks."""
    page = installed(context, base_url)
    context.set_offline(True)
    created = create(page, {"rules": "pagat", "players": 3, "seed": 5, "seats": SEATS}, where="local")
    table_id = created["data"]["table"]
    problems = watch_console(page)
    page.goto(f"{base_url}/t/{table_id}?lang=en&pause=0")
    expect(page.locator("#hand [data-card]").first).to_be_visible(timeout=60_000)
    expect(page.locator("#device-badge")).to_be_visible()
    wait_until(page, "document.getElementById('game').dataset.toMove === '0'")
    hand = page.locator("#hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    ranks = "23456789TJQKA"
    assert [ranks.index(code[0]) for code in hand] == sorted(ranks.index(code[0]) for code in hand)
    played = page.locator('#hand [data-playable="true"]').first.get_attribute("data-card")
    page.click(f'#hand [data-card="{played}"]')
    wait_until(page, f"!document.querySelector('#hand [data-card=\"{played}\"]')")
    expect(page.locator("#log li").first).to_be_visible()
    assert not problems, problems


SAVED_ACTIONS = """(tableId) => new Promise((resolve, reject) => {
  const opening = indexedDB.open('mattis');
  opening.onsuccess = () => {
    const reading = opening.result.transaction('tables').objectStore('tables').get(tableId);
    reading.onsuccess = () => {
      opening.result.close();
      resolve(JSON.parse(reading.result).games[tableId][0].actions);
    };
    reading.onerror = () => reject(reading.error);
  };
  opening.onerror = () => reject(opening.error);
})"""
"""The actions of a device table's first game as saved in IndexedDB."""


def test_the_same_seed_gives_the_same_game_in_the_browser_as_on_the_server(
    context: BrowserContext, base_url: str
) -> None:
    """Pyodide's Python and the server's: same deal, same bot moves, same record."""
    page = installed(context, base_url)
    body = {
        "rules": "kortregler",
        "players": 3,
        "seed": 123,
        "seats": [SEATS[0], {"kind": "bot", "level": "normal"}, {"kind": "bot", "level": "easy"}],
    }
    records = []
    for where in ("server", "local"):
        created = create(page, body, where=where)
        assert created.get("local", False) == (where == "local")
        play(page, created["data"]["table"], pace=120 if where == "server" else 0)
        records.append(
            json.loads(page.evaluate(RECORD, {"tableId": created["data"]["table"], "game": 1})["served"])
        )
    assert records[0] == records[1]
    assert Game.from_record(records[1]).is_over


@pytest.fixture(scope="module")
def exported(built: None, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``mattis app export``, run as a person would."""
    out = tmp_path_factory.mktemp("export") / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mattis", "app", "export", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return out


@contextmanager
def file_server(folder: Path) -> Iterator[str]:
    """A plain static file server (``python -m http.server``) for ``folder``."""
    port = free_port()
    files = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(url + "/sw.js", timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the file server did not start"
                time.sleep(0.1)
        yield url
    finally:
        files.kill()
        files.wait(timeout=10)


def test_the_static_export_plays_a_game_from_a_plain_file_server(browser: Browser, exported: Path) -> None:
    assert (exported / "sw.js").is_file() and (exported / "static/app/pyodide/pyodide.asm.wasm").is_file()
    assert json.loads((exported / "api" / "texts.nb.json").read_text(encoding="utf-8"))["title"] == "Mattis"
    context = browser.new_context()
    with file_server(exported) as url:
        page = context.new_page()
        install(page, f"{url}/?lang=nb")
        page.evaluate(FAST_BOTS)
        created = create(page, {"rules": "pagat", "players": 3, "seats": SEATS}, lang="nb")
        assert created["local"]  # no server behind a file server: the game is on the device
        game = play(page, created["data"]["table"], lang="nb")
        assert game["last"]["view"]["phase"] == "over"
        context.set_offline(True)
        page.reload()
        assert page.title() == "Mattis"
        texts = page.evaluate("fetch('/api/texts?lang=nb').then(r => r.json())")
        assert texts["hand"] != json.loads((exported / "api" / "texts.en.json").read_text())["hand"]
        record = page.evaluate(RECORD, {"tableId": created["data"]["table"], "game": 1})
        assert Game.from_record(json.loads(record["fetched"]["text"])).is_over
    context.close()


VERSION = """() => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => resolve(event.data);
  navigator.serviceWorker.controller.postMessage({ type: 'version' }, [channel.port2]);
})"""


def test_a_service_worker_update_during_a_game_keeps_the_game(
    browser: Browser, exported: Path, tmp_path: Path
) -> None:
    """A new version is deployed while a game is on: the page says so, the person updates,
    the page reloads on the new version and the game goes on where it was."""
    site = tmp_path / "site"
    shutil.copytree(exported, site)
    context = browser.new_context()
    with file_server(site) as url:
        page = context.new_page()
        install(page, f"{url}/?lang=en")
        page.evaluate(FAST_BOTS)
        created = create(page, {"rules": "pagat", "players": 3, "seats": SEATS})
        table_id = created["data"]["table"]
        play(page, table_id, moves=2)
        old = page.evaluate(VERSION)
        worker = site / "sw.js"  # the next deployment: a new version of the app
        worker.write_text(worker.read_text(encoding="utf-8").replace(old, "0" * 16), encoding="utf-8")
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        wait_until(page, "document.querySelector('[data-pwa=\"update\"]') !== null")
        assert page.evaluate(VERSION) == old  # nothing swapped under the game until asked
        with page.expect_navigation():
            page.click('[data-pwa="update-now"]')
        wait_until(page, "navigator.serviceWorker.controller !== null")
        assert page.evaluate(VERSION) == "0" * 16
        page.evaluate(FAST_BOTS)
        saved = page.evaluate(SAVED_ACTIONS, table_id)
        after = play(page, table_id)
        assert after["last"]["view"]["phase"] == "over"
        record = json.loads(page.evaluate(RECORD, {"tableId": table_id, "game": 1})["served"])
        assert len(saved) >= 2 and record["actions"][: len(saved)] == saved  # the game went on
    context.close()


SNAPSHOT_SAVED = """new Promise((resolve) => {
  const opening = indexedDB.open('mattis');
  opening.onsuccess = () => {
    const db = opening.result;
    if (!db.objectStoreNames.contains('snapshots')) { db.close(); resolve(false); return; }
    const counting = db.transaction('snapshots').objectStore('snapshots').count();
    counting.onsuccess = () => { db.close(); resolve(counting.result > 0); };
  };
  opening.onerror = () => resolve(false);
})"""


def test_the_engine_loads_only_the_standard_library(context: BrowserContext, base_url: str) -> None:
    page = installed(context, base_url)
    ready = page.evaluate(ENGINE_READY)
    assert ready["seconds"] > 0 and set(ready["phases"]) == {"python", "package"}
    wait_until(page, SNAPSHOT_SAVED)  # written after the first start, while the person looks
    page.reload()  # the second start comes from the snapshot the first one made
    again = page.evaluate(ENGINE_READY)
    assert (ready["from"], again["from"]) in {("start", "snapshot"), ("snapshot", "snapshot")}
    asked = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert not [url for url in asked if url.endswith(".whl") or "numpy" in url]


def test_a_second_tab_is_told_the_table_is_open_elsewhere(context: BrowserContext, base_url: str) -> None:
    """Each tab has its own worker; two saving one table would save over each other's moves."""
    page = installed(context, base_url)
    table_id = create(page, {"rules": "pagat", "players": 3, "seats": SEATS}, where="local")["data"]["table"]
    play(page, table_id, moves=1)  # this tab's worker holds the table now
    other = context.new_page()
    other.goto(f"{base_url}/?lang=en")
    with pytest.raises(PlaywrightError, match="open_elsewhere"):
        play(other, table_id, moves=1)
    page.close()  # the first tab is closed: the table is free once its worker has ended
    deadline = time.monotonic() + 60
    while True:  # the browser ends a closed tab's worker, and frees its lock, a moment later
        try:
            assert play(other, table_id, moves=1)["played"] == 1
            break
        except PlaywrightError as error:
            assert "open_elsewhere" in str(error) and time.monotonic() < deadline, error
            other.wait_for_timeout(500)


TAMPER_SCORE = """(tableId) => new Promise((resolve, reject) => {
  // A save tampered with by hand: its score is a number Python cannot count with (1e999).
  const opening = indexedDB.open('mattis');
  opening.onsuccess = () => {
    const store = opening.result.transaction('tables', 'readwrite').objectStore('tables');
    const reading = store.get(tableId);
    reading.onsuccess = () => {
      const text = reading.result.replace(/"scores":\\[0,/, '"scores":[1e999,');
      const writing = store.put(text, tableId);
      writing.onsuccess = () => { opening.result.close(); resolve(text !== reading.result); };
      writing.onerror = () => reject(writing.error);
    };
  };
  opening.onerror = () => reject(opening.error);
})"""


def test_a_damaged_save_is_set_aside_and_the_other_tables_play_on(
    context: BrowserContext, base_url: str
) -> None:
    """Issue 29.6 in the browser: the table page says the table is damaged (it used to hang
    at "Connecting …"), its Web Lock is let go (no ``open_elsewhere`` in another tab), and
    the other table is listed and plays."""
    page = installed(context, base_url)
    context.set_offline(True)
    body = {"rules": "pagat", "players": 3, "seats": [SEATS[0], SEATS[2], SEATS[2]]}
    good = create(page, {**body, "seed": 1}, where="local")["data"]["table"]
    bad = create(page, {**body, "seed": 2}, where="local")["data"]["table"]
    page.close()  # its worker ends, and lets both tables go
    first = context.new_page()
    first.goto(f"{base_url}/?lang=en")
    assert first.evaluate(TAMPER_SCORE, bad)
    info = first.evaluate("(id) => import('/static/transport.js').then(t => t.tableInfo(id, 'en'))", bad)
    assert info["status"] == 410 and info["data"]["code"] == "damaged"
    listed = first.evaluate("import('/static/transport.js').then(t => t.localTables('en'))")
    assert listed["ok"] and [item["table"] for item in listed["data"]] == [good]
    first.goto(f"{base_url}/t/{bad}?lang=en")
    wait_until(first, "document.getElementById('status').textContent.includes('damaged')")
    assert first.evaluate(f"localStorage.getItem('mattis.seat.{bad}')")  # the seat is not forgotten
    other = context.new_page()  # another tab's worker tries it too: damaged, not open elsewhere
    other.goto(f"{base_url}/?lang=en")
    with pytest.raises(PlaywrightError, match="damaged"):
        play(other, bad, moves=1)
    assert play(other, good, moves=2)["played"] == 2


@pytest.mark.parametrize(("viewport", "scheme"), [({"width": 390, "height": 844}, "dark"),
                                                  ({"width": 1280, "height": 800}, "light")])
def test_my_statistics_on_the_start_page_count_a_game_finished_on_the_device(
    browser: Browser, base_url: str, viewport: Any, scheme: str, tmp_path: Path
) -> None:
    """Finish a seeded game on the device with the network off; the start page's "Mi
    statistikk" shows it (games, Mattis, rate, per bot level), counted by the worker's Python."""
    context = browser.new_context(viewport=viewport, color_scheme=scheme)  # type: ignore[arg-type]
    page = installed(context, base_url)
    context.set_offline(True)
    empty = page.evaluate("import('/static/transport.js').then(t => t.myStats('nn'))")
    assert empty["ok"] and empty["data"]["games"] == 0
    seats = [{"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "easy"},
             {"kind": "bot", "level": "normal"}]
    created = create(page, {"rules": "pagat", "players": 3, "seed": 7, "seats": seats}, "nn", "local")
    last = play(page, created["data"]["table"], lang="nn")["last"]
    assert last["view"]["phase"] == "over"
    mattis = int(0 in last["view"]["losers"])
    page.goto(f"{base_url}/?lang=nn")
    summary = page.locator("[data-my-stats] summary")
    expect(summary).to_have_text("Mi statistikk")
    summary.click()
    overall = page.locator('[data-my-stats-row="all"]')
    expect(overall).to_be_visible(timeout=60_000)
    cells = overall.locator("th, td").all_inner_texts()
    assert cells[:3] == ["Alle spel", "1", str(mattis)]
    assert cells[4] == "frå 10 spel"  # the interval shows from 10 games
    levels = page.locator("[data-my-stats-row]")
    assert [levels.nth(index).get_attribute("data-my-stats-row") for index in range(levels.count())] == [
        "all", "easy", "normal"]
    assert page.locator('[data-my-stats-row="easy"] td').first.inner_text() == "1"
    rating = page.locator("[data-my-stats-rating]")  # the OpenSkill rating, rated by the worker's Python
    expect(rating).to_contain_text("1 spel med rating")
    figures = page.evaluate("import('/static/transport.js').then(t => t.myStats('nn'))")["data"]["rating"]
    assert figures["games"] == 1 and figures["sigma"] < 8.34  # one game made it surer
    assert rating.inner_text().startswith("OpenSkill-rating: ")
    page.screenshot(path=str(tmp_path / f"my-stats-{viewport['width']}-{scheme}.png"), full_page=True)
    assert axe_violations(page) == []
    context.close()
