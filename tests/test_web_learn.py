"""Learn Mattis on the server and in the offline app (issue 26, item 4): the page, its lessons
as JSON, the start page's offer and the rules page's link, and the files the offline app
keeps and the static export writes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from mattis.core.rules import PRESET_NAMES
from mattis.frontend.tutorial import lesson
from mattis.i18n import LANGS, Lang
from mattis.web import pwa
from mattis.web.app import options_payload, texts_payload
from mattis.web.pages import PAGE_SCRIPT
from mattis.web.rules_page import rules_page

from .web_helpers import web_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with web_client(tmp_path_factory.mktemp("learn") / "learn.sqlite3") as opened:
        yield opened


def test_the_page_is_served_with_its_script(client: TestClient) -> None:
    page = client.get("/learn")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/learn.js">' in page.text
    assert PAGE_SCRIPT in page.text  # part of the installable app
    assert client.get("/static/learn.js").status_code == 200
    assert client.get("/static/learn.css").status_code == 200


@pytest.mark.parametrize("lang", LANGS)
def test_each_lesson_is_served_as_json(client: TestClient, lang: Lang) -> None:
    for preset in PRESET_NAMES:
        answer = client.get(f"/api/learn/{preset}.{lang}.json")
        assert answer.status_code == 200
        data = answer.json()
        assert data == lesson(preset, lang)
        assert data["steps"][0]["n"] == 1 and data["steps"][0]["expect"]


def test_an_unknown_lesson_is_refused_in_the_error_envelope(client: TestClient) -> None:
    for path in ("/api/learn/whist.en.json", "/api/learn/pagat.de.json", "/api/learn/pagat.no.json"):
        answer = client.get(path)
        assert answer.status_code == 400, path
        assert answer.json()["type"] == "error" and answer.json()["code"] == "bad_request"


def test_the_start_page_offers_it_and_the_rules_page_links_to_it(client: TestClient) -> None:
    start = client.get("/").text
    assert 'id="learn-offer"' in start and 'href="/learn"' in start
    for lang in LANGS:
        assert f'href="/learn?lang={lang}"' in client.get(f"/rules?lang={lang}").text
    texts = client.get("/api/texts?lang=nn").json()
    assert texts["learn.title"] == "Lær Mattis"
    assert texts["learn.offer_link"]


def test_the_offline_app_keeps_the_page_and_every_lesson(tmp_path: Path) -> None:
    files = pwa.app_files(rules_page, options_payload, texts_payload)
    kept = {item.url: item for item in files}
    assert pwa.LEARN_PAGE == "/learn" and "/learn" in kept
    assert "/static/learn.js" in kept and "/static/learn.css" in kept
    for lang in LANGS:
        for preset in PRESET_NAMES:
            assert f"/api/learn/{preset}.{lang}.json" in kept
    exported = pwa.app_files(rules_page, options_payload, texts_payload, exported=True)
    pwa.export(tmp_path, exported)
    assert (tmp_path / "learn" / "index.html").read_text(encoding="utf-8").count("/static/learn.js") == 1
    assert (tmp_path / "api" / "learn" / "kortregler.nb.json").is_file()
    worker = pwa.service_worker(files)
    assert '"/learn"' in worker and '"/api/learn/app.en.json"' in worker
