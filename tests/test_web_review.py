"""A finished game's review in the browser's API (issue 26, item 3): ``POST
/api/tables/{ID}/games/{N}/review`` on the server, the offline app's ``review`` call, and the
:class:`~mattis.table.review.ReviewDesk` both share (one review per seat at a time, kept once
asked). Small budgets, so each game's review takes a fraction of a second."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mattis import Game
from mattis.bots import make_agent
from mattis.bots.review import review_record
from mattis.bots.runner import play_game
from mattis.table import Refusal, table_profile
from mattis.table.review import ReviewDesk, ReviewKey, prepare_review, review_answer

from .review_helpers import hidden_twin
from .test_offline_tables import QUICK, SEATS, Dictionary, Page, play_out
from .web_helpers import create_table, play_to_my_turn, socket_url, web_client, with_tables

BUDGET = 2


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server whose tables review with a tiny budget, and a table whose first game is over."""
    with web_client(tmp_path_factory.mktemp("review") / "web.sqlite3",
                    with_tables(review_iterations=BUDGET)) as client:
        table = create_table(client, players=3)
        with client.websocket_connect(socket_url(table)) as socket:
            while True:
                state = play_to_my_turn(socket)
                if state["view"]["phase"] == "over":
                    break
                socket.send_text(json.dumps({"type": "act", "action": state["legal"][-1]}))
        yield client, table


def ask(client: TestClient, table: dict[str, Any], game: int = 1, token: str | None = None,
        lang: str = "en") -> Any:
    return client.post(f"/api/tables/{table['table']}/games/{game}/review?lang={lang}",
                       json={"token": table["token"] if token is None else token})


def until_done(client: TestClient, table: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """Ask until the review is there (each answer before it says how far it has come)."""
    deadline = time.monotonic() + 120
    while True:
        response = ask(client, table, lang=lang)
        data: dict[str, Any] = response.json()
        if response.status_code == 200:
            assert data["status"] == "done"
            return data
        assert response.status_code == 202, response.text
        assert data["status"] == "running" and 0 <= data["done"] <= data["total"] and data["device"] is False
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_the_review_of_your_seat_is_the_engines_review_with_words_and_positions(finished: Any) -> None:
    client, table = finished
    answer = until_done(client, table)
    record = client.get(f"/api/tables/{table['table']}/record?game=1").json()
    assert answer["report"]["review"] == review_record(record, table["seat"], iterations=BUDGET).to_dict()
    assert answer["seat"] == table["seat"] and answer["game"] == 1 and answer["device"] is False
    review, words = answer["report"]["review"], answer["report"]["words"]
    actions = [decision["action"] for decision in review["decisions"]]
    assert [position["action"] for position in answer["positions"]] == actions
    first = answer["positions"][0]
    assert first["hand"] and set(first["hand"]) == set(review["decisions"][0]["knew"]["hand"])
    assert [choice["action"] for choice in answer["choices"]] == actions
    for choice, decision in zip(answer["choices"], review["decisions"], strict=True):
        assert set(choice["labels"]) == set(decision["options"])
        assert (choice["sentence"] is None) == (decision["best"] == decision["played"])
    assert len(words["turning_points"]) == len(review["turning_points"])
    for point in words["turning_points"]:
        assert point["sentence"].startswith(f"Move {point['move']} ")


def test_asking_again_reuses_the_review_in_any_language(finished: Any) -> None:
    client, table = finished
    english = until_done(client, table)
    runs = len(client.app.state.lobby.reviews.runs)
    bokmal = ask(client, table, lang="nb")
    assert bokmal.status_code == 200 and len(client.app.state.lobby.reviews.runs) == runs
    assert bokmal.json()["report"]["review"] == english["report"]["review"]
    assert bokmal.json()["report"]["words"]["method"] != english["report"]["words"]["method"]


def test_only_a_seat_token_of_the_table_reviews_and_only_a_finished_game(finished: Any) -> None:
    client, table = finished
    assert ask(client, table, token="not-a-token").json()["code"] == "bad_token"
    assert ask(client, table, token="").status_code == 403
    assert ask(client, table, game=7).json()["code"] == "not_found"
    other = create_table(client, players=3)
    assert ask(client, {**other, "token": table["token"]}).status_code == 403  # another table's token
    assert ask(client, other).json()["code"] == "game_not_over"
    bad = client.post(f"/api/tables/{table['table']}/games/x1/review", json={"token": table["token"]})
    assert bad.status_code == 400


# ---------------------------------------------------------------------------- the desk itself


def test_the_desk_runs_one_review_per_seat_and_keeps_it(tmp_path: Path) -> None:
    """A second game's review waits for the first (``review_busy``); a review asked twice is
    worked out once; a failed job is answered once and tried afresh when asked again."""
    game = Game.new("pagat", 3, seed=3)
    play_game(game, [make_agent("normal")] * 3, seed=3)
    record = game.record()
    jobs: list[str] = []
    failing = {"on": True}

    async def run(cost: float, function: Any, *args: Any) -> Any:
        jobs.append(function.__name__)
        await asyncio.sleep(0)
        if failing["on"] and function.__name__ == "judge_choice":
            raise RuntimeError("a worker died")
        return function(*args)

    async def load() -> dict[str, Any]:
        return record

    async def scenario() -> None:
        desk = ReviewDesk()
        key = ReviewKey("t", 1, 0, 1, 0)
        errors: list[BaseException] = []
        first = await desk.ask(key, load, run, report=errors.append)
        with pytest.raises(Refusal, match="review_busy"):
            await desk.ask(ReviewKey("t", 2, 0, 1, 0), load, run)
        await first.task  # type: ignore[misc]
        assert errors and first.failed is not None
        with pytest.raises(Refusal, match="server_error"):
            await desk.ask(key, load, run)
        failing["on"] = False
        again = await desk.ask(key, load, run)
        assert again is not first
        await again.task  # type: ignore[misc]
        assert again.review == review_record(record, 0, iterations=1)
        assert again.done == again.total > 0
        count = len(jobs)
        assert await desk.ask(key, load, run) is again and len(jobs) == count

    asyncio.run(scenario())
    assert jobs.count("prepare_review") == 2
    positions = prepare_review(record, 0).positions
    assert all(position["phase"] in ("collect", "shed") for position in positions)


# ---------------------------------------------------------------------------- on the device


def test_the_device_reviews_a_game_in_its_worker_with_its_own_smaller_budget() -> None:
    """The offline app's ``review`` call answers as the server does (202 with progress, then
    the review), from the device's record, at the device profile's budget, and says so."""
    assert table_profile("device").review_iterations < table_profile("server").review_iterations

    async def scenario() -> None:
        page = Page(Dictionary(), dataclasses.replace(QUICK, review_iterations=BUDGET))
        body = {"rules": "pagat", "players": 3, "seats": SEATS, "seed": 8}
        created = await page.call("createTable", body=body)
        table, token = created["data"]["table"], created["data"]["token"]
        refused = await page.call("review", tableId=table, game=1, token=token)
        assert refused["status"] == 409 and refused["data"]["code"] == "game_not_over"
        await page.open("c1", table, token)
        await play_out(page, "c1")
        wrong = await page.call("review", tableId=table, game=1, token="wrong")
        assert wrong["data"]["code"] == "bad_token"
        while True:
            answer = await page.call("review", tableId=table, game=1, token=token)
            assert answer["ok"], answer
            if answer["status"] == 200:
                break
            assert answer["status"] == 202
            assert answer["data"]["status"] == "running" and answer["data"]["device"] is True
            await asyncio.sleep(0.01)
        data = answer["data"]
        record = json.loads((await page.call("record", tableId=table, game=1))["data"])
        assert data["device"] is True and data["seat"] == 0
        assert data["report"]["review"] == review_record(record, 0, iterations=BUDGET).to_dict()
        await page.tables.close()

    asyncio.run(scenario())


def test_what_the_page_is_sent_is_the_same_for_games_the_seat_cannot_tell_apart() -> None:
    """The guarantee (``tests/test_review.py``) holds for the whole answer a page gets: the
    review, its words, each choice in words and the positions shown, for two records with the
    same public history and the same cards for the seat but other hidden cards elsewhere."""
    game = Game.new("pagat", 4, seed=21)
    play_game(game, [make_agent("normal")] * 4, seed=21)
    record = game.record()
    twin = hidden_twin(record, 0)
    assert twin is not None and twin["deck"] != record["deck"]

    async def in_line(cost: float, function: Any, *args: Any) -> Any:
        return function(*args)

    async def answer(of: dict[str, Any]) -> dict[str, Any]:
        async def load() -> dict[str, Any]:
            return of

        run = await ReviewDesk().ask(ReviewKey("t", 1, 0, 2, 0), load, in_line)
        await run.task  # type: ignore[misc]
        return review_answer(run, "nb", device=False)

    first, second = asyncio.run(answer(record)), asyncio.run(answer(twin))
    assert first["status"] == "done" and json.dumps(second) == json.dumps(first)
