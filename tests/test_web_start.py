"""The start page's server side, the rules page, the invite's QR code, compression and
``mattis serve --lan`` (issue 15, items 5, 6, 7 and 10), without a browser or a network.

The pages in a real Chromium are in ``test_web_start_browser.py``.
"""

from __future__ import annotations

import gzip
import io
import ipaddress
import json
import re
import socket
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
import zxingcpp
from starlette.testclient import TestClient
from typer.testing import CliRunner

from mattis import PRESET_NAMES
from mattis.cli import serve as serve_module
from mattis.cli.app import app as cli_app
from mattis.frontend.rules_text import full_rules
from mattis.i18n import LANGS, Lang, message_keys, t
from mattis.web import create_app
from mattis.web.pages import page_html
from mattis.web.qr import qr_svg, qr_terminal
from mattis.web.rules_page import HOW_TO_PLAY, back_target, chapters, rules_page

from .web_helpers import FAST, create_table, next_state, socket_url, thread_pool, web_client

STATIC = Path(__file__).parents[1] / "src" / "mattis" / "web" / "static"


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with web_client(tmp_path / "web.sqlite3") as test_client:
        yield test_client


# ---------------------------------------------------------------------------- QR codes


def decode_matrix(rows: list[list[int]]) -> list[str]:
    """What a QR decoder reads from a grid of modules (1 dark), drawn 8 pixels a module."""
    image = np.where(np.array(rows, dtype=np.uint8) == 1, 0, 255).astype(np.uint8)
    image = np.pad(image, 8, constant_values=255).repeat(8, axis=0).repeat(8, axis=1)
    return [found.text for found in zxingcpp.read_barcodes(image)]


HALF_BLOCKS = {" ": (1, 1), "\u2580": (0, 1), "\u2584": (1, 0), "\u2588": (0, 0)}
"""segno's compact terminal code: each character two modules, top and bottom (1 dark). Light
modules are drawn as blocks, for terminals with a dark background."""


def terminal_modules(text: str) -> list[list[int]]:
    """The grid of modules printed by :func:`qr_terminal`, half blocks or ANSI colours."""
    rows: list[list[int]] = []
    for line in text.splitlines():
        if "\x1b[" in line:  # ANSI: "\x1b[7m" + two spaces a module: light; "\x1b[49m": dark
            row: list[int] = []
            for colour, spaces in re.findall(r"\x1b\[(7|49)m((?:  )+)\x1b\[0m", line):
                row += [0 if colour == "7" else 1] * (len(spaces) // 2)
            rows.append(row)
        elif line and set(line) <= set(HALF_BLOCKS):
            pairs = [HALF_BLOCKS[char] for char in line]
            rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    return rows


@pytest.mark.parametrize("blocks", [True, False])
def test_the_terminal_qr_code_decodes_to_the_address(blocks: bool) -> None:
    url = "http://192.168.1.23:8000/"
    text = qr_terminal(url, blocks=blocks)
    assert ("\x1b[" in text) is not blocks
    assert decode_matrix(terminal_modules(text)) == [url]


def test_the_invite_qr_code_is_an_svg_of_the_invite_link(client: TestClient) -> None:
    table = create_table(client, seats=[{"kind": "human", "name": "Kari"}, {"kind": "open"},
                                        {"kind": "bot", "level": "easy"}])
    response = client.get(f"/api/tables/{table['table']}/qr.svg")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/svg+xml"
    assert "max-age" in response.headers["cache-control"]
    assert response.text.startswith("<svg") and table["invite"] in response.text  # its title
    assert response.content == qr_svg(table["invite"], title=table["invite"])


def test_an_unknown_table_has_no_qr_code(client: TestClient) -> None:
    response = client.get("/api/tables/no-such-table/qr.svg")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_invites_made_on_the_host_point_at_its_network_address(tmp_path: Path) -> None:
    """With ``--lan``, a table created at ``localhost`` must invite phones to the address they
    can reach; a request that came over the network keeps its own address."""
    lan = "http://192.168.1.23:8000/"
    application = create_app(f"sqlite:///{tmp_path / 'lan.db'}", FAST, executor_factory=thread_pool,
                             public_url=lan)
    with TestClient(application, base_url="http://localhost:8000") as local:
        table = create_table(local)
        assert table["invite"] == f"http://192.168.1.23:8000/t/{table['table']}"
        code = local.get(f"/api/tables/{table['table']}/qr.svg").content
        assert code == qr_svg(table["invite"], title=table["invite"])
    with TestClient(application, base_url="http://192.168.1.40:8000") as remote:
        assert create_table(remote)["invite"].startswith("http://192.168.1.40:8000/t/")
    with TestClient(application, base_url="http://127.0.0.1:8000") as loopback:
        assert create_table(loopback)["invite"].startswith(lan.rstrip("/"))


# ---------------------------------------------------------------------------- compression


@pytest.mark.parametrize("path", ["/", "/rules?lang=nb", "/static/app.js", "/static/style.css",
                                  "/static/theme.js", "/static/cards.js", "/static/table.js",
                                  "/api/texts?lang=en", "QR"])
def test_responses_arrive_gzip_compressed_when_asked(client: TestClient, path: str) -> None:
    if path == "QR":
        table = create_table(client)
        path = f"/api/tables/{table['table']}/qr.svg"
    plain = client.get(path, headers={"accept-encoding": "identity"})
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    with client.stream("GET", path, headers={"accept-encoding": "gzip"}) as response:
        assert response.headers["content-encoding"] == "gzip"
        assert "accept-encoding" in response.headers["vary"].lower()
        raw = b"".join(response.iter_raw())
    assert gzip.decompress(raw) == plain.content
    assert len(raw) < len(plain.content)
    assert response.headers["content-type"] == plain.headers["content-type"]
    assert response.headers["content-security-policy"] == plain.headers["content-security-policy"]


def test_the_socket_still_works_behind_the_compression(client: TestClient) -> None:
    table = create_table(client, seed=3)
    with client.websocket_connect(socket_url(table), headers={"accept-encoding": "gzip"}) as socket_:
        state = next_state(socket_)
        assert state["seat"] == 0 and len(state["view"]["hand"]) == 3
        socket_.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        assert next_state(socket_)["view"]["history"]


# ---------------------------------------------------------------------------- page texts


def page_text_keys() -> set[str]:
    """The text keys the start page uses: its ``data-text`` labels and ``texts.x`` in app.js."""
    html = page_html("index")
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    keys = set(re.findall(r'data-text="([a-z_.]+)"', html))
    keys |= set(re.findall(r"\btexts\.([a-z_]+)", script))
    keys |= {f"{kind}.{name}" for kind in ("preset_title", "preset_text") for name in PRESET_NAMES}
    return keys


@pytest.mark.parametrize("lang", LANGS)
def test_every_label_of_the_start_page_is_served_in_every_language(client: TestClient, lang: str) -> None:
    texts = client.get(f"/api/texts?lang={lang}").json()
    missing = sorted(key for key in page_text_keys() if not texts.get(key))
    assert not missing, missing
    expected = {"nb": ("Spill nå", "Spill mot datamaskinen", "Spill med venner"),
                "nn": ("Spel no", "Spel mot datamaskina", "Spel med vener"),
                "en": ("Play now", "Play against the computer", "Play with friends")}[lang]
    assert (texts["quick_start"], texts["computer_title"], texts["friends_title"]) == expected


def test_the_presets_are_offered_in_words_with_their_names_second() -> None:
    """Item 5: a preset's title and text never use its code name or an option's field name."""
    code_words = re.compile(rf"\b({'|'.join(PRESET_NAMES)})\b|\w_\w|`|=")
    for lang in LANGS:
        for name in PRESET_NAMES:
            words = t(f"web.ui.preset_title.{name}", lang) + " " + t(f"web.ui.preset_text.{name}", lang)
            assert not code_words.search(words), (lang, name, words)
    assert t("web.ui.preset_name", "en", name="pagat") == "rule set “pagat”"


# ---------------------------------------------------------------------------- the rules page


def section(page: str, start_id: str, end_id: str | None) -> str:
    start = page.index(f'id="{start_id}"')
    return page[start:page.index(f'id="{end_id}"')] if end_id else page[start:]


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_page_opens_with_how_to_play_in_plain_words(client: TestClient, lang: Lang) -> None:
    """Item 7: how to play first, illustrated, then the other ways to play, both without code
    names or rule numbers; the full rules with their numbers only after them."""
    page = client.get(f"/rules?lang={lang}").text
    how_to = section(page, "rules-title", "variants-title")
    variants = section(page, "variants-title", "full-title")
    full = section(page, "full-title", None)
    assert page.index(t("web.rules.howto_title", lang)) < page.index(t("web.rules.variants_title", lang))
    for part in (how_to, variants):
        assert not re.search(r"\b(P[12]\.\d+|C\d)\b", part), "rule numbers belong to the full rules"
        assert "<code>" not in part and "`" not in part
        for code in (*PRESET_NAMES, "replay", "two_cards", "any_match", "min_sequence", "follow_suit"):
            assert not re.search(rf"\b{code}\b", part), code
    assert re.search(r"\bP1\.5\b", full) and re.search(r"\bP2\.9\b", full)
    examples = re.findall(r'<figure class="example" data-example="(\w+)"', how_to)
    assert {"trick", "war", "beat", "pickup", "sequence"} <= set(examples)
    for example in ("trick", "war", "beat", "pickup", "sequence"):
        figure = how_to[how_to.index(f'data-example="{example}"'):]
        figure = figure[:figure.index("</figure>")]
        assert len(re.findall(r'data-show-card="[2-9TJQKA][cdhs]"', figure)) >= 2, example
        assert "<figcaption>" in figure
    assert 'data-mark="win"' in how_to and 'data-mark="beats"' in how_to and 'data-mark="picked"' in how_to
    assert '<script src="/static/theme.js"></script>' in page and 'data-action="theme"' in page


def test_every_chapter_of_the_full_rules_is_on_the_page_collapsed() -> None:
    for lang in LANGS:
        page = rules_page(lang)
        text = page[page.index('id="full-title"'):]
        found = re.findall(r'<details class="chapter"><summary>', text)
        titles = [title for title, _ in chapters(full_rules(lang)) if title]
        assert len(found) == len(titles) + 2  # the introduction and the options side by side
        assert '<details class="chapter" open' not in text


def test_the_examples_are_the_rules_worked_examples() -> None:
    """The war example is P1.5's (Kari and Siri tie on kings, Siri's jack takes all five) and
    the pick-up example P2.4's (Siri picks up Kari's 4♣ below Ola's 8♣–9♣)."""
    steps = {step.key: step for step in HOW_TO_PLAY}
    first, war = steps["war"].rows
    assert [play.cards for play in first] == [("Ks",), ("8h",), ("Kc",)]
    assert sum(len(play.cards) for row in steps["war"].rows for play in row) == 5
    assert [(play.who, play.mark) for play in war] == [("Kari", ""), ("Siri", "win")]
    (pickup,) = steps["pickup"].rows
    assert pickup[0].cards == ("4c",) and pickup[0].mark == "picked" and steps["pickup"].picked_by == "Siri"


def test_the_way_back_leads_to_the_table_or_home_and_never_elsewhere(client: TestClient) -> None:
    assert back_target("/t/abc_DEF-123") == "/t/abc_DEF-123"
    for bad in ("https://example.org/", "//example.org", "/t/../admin", "/t/a b", "javascript:x", None):
        assert back_target(bad) == "/"
    page = client.get("/rules?lang=en&back=/t/abc").text
    assert 'data-back href="/t/abc"' in page and "/rules?lang=nb&amp;back=/t/abc" in page
    assert 'data-back href="/"' in client.get("/rules?lang=en&back=//evil.example").text


def test_rules_page_keys_have_texts() -> None:
    keys = set(message_keys())
    for step in HOW_TO_PLAY:
        assert {f"web.rules.step.{step.key}", f"web.rules.step.{step.key}_title"} <= keys
        if step.rows:
            assert f"web.rules.example.{step.key}" in keys
    for name in PRESET_NAMES:
        assert f"web.rules.variant.{name}" in keys


# ---------------------------------------------------------------------------- serve --lan


class FakeProbe:
    """A UDP socket that "connects" without any network and reports a chosen address."""

    def __init__(self, address: str | None) -> None:
        self.address = address
        self.connected_to: object = None

    def __enter__(self) -> FakeProbe:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def connect(self, target: object) -> None:
        if self.address is None:
            raise OSError("Network is unreachable")
        self.connected_to = target

    def getsockname(self) -> tuple[str, int]:
        assert self.address is not None
        return (self.address, 40000)


def lan_address_with(probe: str | None, resolved: str | None, name: str = "kari-laptop") -> str:
    def resolve(host: str) -> str:
        assert host == name
        if resolved is None:
            raise socket.gaierror("no such host")
        return resolved

    fake = FakeProbe(probe)
    found = serve_module.lan_address(open_socket=lambda: cast(socket.socket, fake), hostname=lambda: name,
                                     resolve=resolve)
    if probe is not None:
        assert fake.connected_to == serve_module.ROUTE_PROBE
    return found


def test_the_lan_address_is_the_route_to_the_local_network_else_the_name() -> None:
    assert lan_address_with("192.168.1.23", "10.0.0.9") == "192.168.1.23"
    assert lan_address_with(None, "10.0.0.9") == "10.0.0.9"  # no route: what the name resolves to
    assert lan_address_with("127.0.0.1", "192.168.0.7") == "192.168.0.7"  # never loopback
    assert lan_address_with("0.0.0.0", "127.0.1.1") == "kari-laptop"  # Debian's 127.0.1.1 too
    assert lan_address_with(None, None) == "kari-laptop"
    assert lan_address_with(None, None, name="") == "localhost"
    assert ipaddress.ip_address(serve_module.ROUTE_PROBE[0]).is_private


class TextOut(io.StringIO):
    def __init__(self, encoding: str, tty: bool) -> None:
        super().__init__()
        self._encoding, self._tty = encoding, tty

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    def isatty(self) -> bool:
        return self._tty


def test_the_lan_banner_draws_a_code_the_terminal_can_show() -> None:
    url = "http://192.168.1.23:8000/"
    unicode_banner = serve_module.lan_banner(url, TextOut("utf-8", tty=False))
    assert url in unicode_banner and "\u2588" in unicode_banner
    assert decode_matrix(terminal_modules(unicode_banner)) == [url]
    ascii_terminal = serve_module.lan_banner(url, TextOut("ascii", tty=True))
    assert "\x1b[7m" in ascii_terminal and decode_matrix(terminal_modules(ascii_terminal)) == [url]
    ascii_file = serve_module.lan_banner(url, TextOut("ascii", tty=False))
    assert ascii_file.strip().endswith(url) and "\x1b" not in ascii_file
    assert serve_module.url_host("fe80::1") == "[fe80::1]"


def test_serve_lan_listens_everywhere_and_prints_the_address_with_a_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    started: list[tuple[dict[str, Any], list[Any]]] = []

    class Config:  # uvicorn's would set up logging for the whole test process
        def __init__(self, app: Any, **options: Any) -> None:
            self.options = {"app": app, **options}

    class Server:
        def __init__(self, config: Config) -> None:
            self.config = config

        def run(self, sockets: list[socket.socket]) -> None:
            started.append((self.config.options, [listener.getsockname() for listener in sockets]))
            for listener in sockets:
                listener.close()

    monkeypatch.setattr(uvicorn, "Config", Config)
    monkeypatch.setattr(uvicorn, "Server", Server)
    monkeypatch.setattr(serve_module, "lan_address", lambda: "192.168.1.23")
    db = f"sqlite:///{tmp_path / 'l.db'}"
    result = CliRunner().invoke(cli_app, ["serve", "--lan", "--port", "0", "--db", db])
    assert result.exit_code == 0, result.output
    (options, bound), = started
    host, port = bound[0]
    assert host == "0.0.0.0" and options["host"] == "0.0.0.0"
    url = f"http://192.168.1.23:{port}/"
    assert result.stdout.splitlines()[0].startswith(f"Mattis is served at {url}")
    assert decode_matrix(terminal_modules(result.stdout)) == [url]
    with TestClient(options["app"], base_url=f"http://localhost:{port}") as local:
        assert create_table(local)["invite"].startswith(f"http://192.168.1.23:{port}/t/")


def test_serve_lan_with_another_host_is_one_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--lan", "--host", "127.0.0.1", "--port", "0",
                                          "--db", f"sqlite:///{tmp_path / 'l.db'}"])
    assert result.exit_code == 2
    expected = "error: --lan listens on every interface (0.0.0.0); leave out --host 127.0.0.1"
    assert result.stderr.strip() == expected


def test_one_card_put_away_is_one_card_not_one_cards() -> None:
    from mattis.i18n import option_value

    assert [option_value("removed_two_player", n, "en") for n in (0, 1, 10)] == ["none", "1 card", "10 cards"]
    assert option_value("removed_two_player", 1, "nb") == "1 kort"
