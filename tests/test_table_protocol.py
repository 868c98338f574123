"""A connection's socket messages, read and dispatched once for every host
(``mattis.table.protocol``, through ``TableMaster.receive``).

The web server's WebSocket and the offline app's worker hand a connection's text to the same
master, so the codes of ``docs/web.md`` and the meaning of each message are the same on
both; the offline host gets reactions this way too.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from mattis.i18n import Lang
from mattis.table import Connection, MessageCursor, Refusal
from mattis.table.protocol import MAX_SEAT_MESSAGE, dispatch, read_seat_message

from .test_offline_tables import SEATS, Dictionary, Page, run


class Recorder:
    """SeatRequests that write down what they were asked, for which connection."""

    def __init__(self) -> None:
        self.asked: list[tuple[Any, ...]] = []
        self.of: list[Connection[Any]] = []

    async def act(self, connection: Connection[Any], action: str) -> None:
        self.asked.append(("act", action))
        self.of.append(connection)

    async def hint(self, connection: Connection[Any]) -> None:
        self.asked.append(("hint",))
        self.of.append(connection)

    async def play_again(self, connection: Connection[Any]) -> None:
        self.asked.append(("again",))
        self.of.append(connection)

    async def fill_with_bot(self, connection: Connection[Any], seat: object, level: object) -> None:
        self.asked.append(("bot", seat, level))
        self.of.append(connection)

    def switch_language(self, connection: Connection[Any], lang: Lang) -> None:
        self.asked.append(("lang", lang))
        self.of.append(connection)

    def resend(self, connection: Connection[Any]) -> None:
        self.asked.append(("state",))
        self.of.append(connection)

    def react(self, connection: Connection[Any], reaction: object) -> None:
        self.asked.append(("react", reaction))
        self.of.append(connection)

    def away(self, connection: Connection[Any]) -> None:
        self.asked.append(("away",))
        self.of.append(connection)

    def back(self, connection: Connection[Any]) -> None:
        self.asked.append(("back",))
        self.of.append(connection)

    async def undo(self, connection: Connection[Any]) -> None:
        self.asked.append(("undo",))
        self.of.append(connection)

    async def coach_link(self, connection: Connection[Any]) -> None:
        self.asked.append(("coach_link",))
        self.of.append(connection)

    async def coach_revoke(self, connection: Connection[Any]) -> None:
        self.asked.append(("coach_revoke",))
        self.of.append(connection)

    def suggest(self, connection: Connection[Any], action: str) -> None:
        self.asked.append(("suggest", action))
    async def set_watching(self, connection: Connection[Any], allowed: object) -> None:
        self.asked.append(("watching", allowed))
        self.of.append(connection)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (b"{}", "bad_message"),
        ("x" * (MAX_SEAT_MESSAGE + 1), "too_large"),
        ("{not json", "bad_json"),
        ('{"type": "act", "action": "\\ud800"}', "bad_text"),
        ("[1, 2]", "bad_message"),
        ('{"type": 7}', "bad_message"),
    ],
)
def test_a_message_the_protocol_does_not_allow_is_refused_with_its_code(text: object, code: str) -> None:
    with pytest.raises(Refusal) as refused:
        read_seat_message(text)
    assert refused.value.code == code and 400 <= refused.value.status < 500


def test_each_message_type_asks_the_host_for_its_one_thing() -> None:
    recorder = Recorder()
    connection = Connection("c1", MessageCursor(2, "en"))
    texts = [
        {"type": "act", "action": "7h"}, {"type": "hint"}, {"type": "again"},
        {"type": "bot", "seat": 2, "level": "easy"}, {"type": "bot", "seat": 1},
        {"type": "lang", "lang": "nb"}, {"type": "lang", "lang": "nn"}, {"type": "state"},
        {"type": "react", "reaction": "wow"}, {"type": "away"}, {"type": "back"}, {"type": "undo"},
        {"type": "coach_link"}, {"type": "coach_revoke"}, {"type": "suggest", "action": "6h-8h"},
        {"type": "watching", "allowed": False},
    ]
    for message in texts:
        asyncio.run(dispatch(recorder, connection, read_seat_message(json.dumps(message))))
    assert recorder.asked == [
        ("act", "7h"), ("hint",), ("again",), ("bot", 2, "easy"), ("bot", 1, "normal"),
        ("lang", "nb"), ("lang", "nn"), ("state",), ("react", "wow"), ("away",), ("back",), ("undo",),
        ("coach_link",), ("coach_revoke",), ("suggest", "6h-8h"),
        ("watching", False),
    ]
    assert all(asker is connection for asker in recorder.of)
    for bad in ({"type": "act"}, {"type": "act", "action": "x" * 17}, {"type": "lang", "lang": "de"},
                {"type": "dance"}, {"type": "suggest"}, {"type": "suggest", "action": ["7h"]}):
        with pytest.raises(Refusal) as refused:
            asyncio.run(dispatch(recorder, connection, bad))
        assert refused.value.code == "bad_message"
        if bad.get("type") == "lang":
            assert refused.value.message("en").endswith("lang must be one of nb, nn, en.")
    assert len(recorder.asked) == len(texts)  # a refused message asked nothing


def test_the_offline_table_passes_reactions_to_every_open_seat() -> None:
    async def scenario() -> None:
        page = Page(Dictionary())
        created = await page.call("createTable", body={"rules": "pagat", "players": 3, "seats": SEATS})
        table, token = created["data"]["table"], created["data"]["token"]
        await page.open("c1", table, token)
        await page.open("c2", table, token)
        await page.send("c1", {"type": "react", "reaction": "thumbs_up"})
        for conn in ("c1", "c2"):
            assert {"type": "reaction", "seat": 0, "reaction": "thumbs_up"} in page.messages(conn)
        await page.send("c1", {"type": "react", "reaction": "free text"})
        assert page.messages("c1")[-1]["code"] == "bad_message"
        await page.tables.close()

    run(scenario)
