"""Shared pieces of the offline app's browser tests and its benchmark (issue 16).

Most tests drive a table from the page through ``transport.js`` itself (``page.evaluate``):
the same calls the pages make, the same messages the table page reads, whichever transport is
behind them, with no clicking; one test plays the table page itself on the device by its
``data-*`` hooks.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Playwright, sync_playwright
from playwright.sync_api import Error as PlaywrightError

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextmanager
def chromium() -> Iterator[tuple[Playwright, Browser]]:
    """Debian's Chromium through Playwright (its own browser download does not work here)."""
    if not Path(CHROMIUM).exists():
        raise AssertionError(f"{CHROMIUM} is missing: apt-get install -y chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield playwright, browser
        finally:
            browser.close()


def wait_until(page: Page, expression: str, timeout: float = 60.0) -> Any:
    """Poll ``expression`` in the page until it is truthy (the pages' content security
    policy forbids the ``eval`` that Playwright's own ``wait_for_function`` needs)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = page.evaluate(expression)
        except PlaywrightError as error:  # the page is navigating: ask the next one
            if "context was destroyed" not in str(error):
                raise
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        time.sleep(0.1)


def install(page: Page, url: str) -> None:
    """Open the app and wait until its service worker controls the page (everything kept)."""
    page.goto(url)
    wait_until(page, "navigator.serviceWorker.controller !== null")
    page.wait_for_timeout(1000)  # the exported app's first activation opens the page once more
    page.wait_for_load_state()
    wait_until(page, "navigator.serviceWorker.controller !== null")


FAST_BOTS = """() => {
  localStorage.setItem('mattis.app.bot_delay', '0');
  localStorage.setItem('mattis.app.hard_seconds', '0.05');
  localStorage.setItem('mattis.app.master_seconds', '0.05');
  localStorage.setItem('mattis.app.hint_seconds', '0.05');
}"""
"""Test hooks of the worker: bots without a pause, a short search (read when it starts)."""

CREATE = """async ({ body, lang, where }) => {
  const transport = await import('/static/transport.js');
  const created = await transport.createTable(body, lang, { where });
  if (created.ok) {
    localStorage.setItem(`mattis.seat.${created.data.table}`,
      JSON.stringify({ seat: created.data.seat, token: created.data.token }));
  }
  return created;
}"""
"""Create a table the way the start page does (``where``: ``auto``, ``local`` or ``server``)."""

PLAY = """async ({ tableId, lang, moves, hint, pace }) => {
  // Open the saved seat and play the first legal move at each turn: until the game is over,
  // or until `moves` moves are played and the state after the last one has come back.
  // `pace` (ms) spaces the moves as a person would, under the server's message rate limit.
  let lastSent = 0;
  const transport = await import('/static/transport.js');
  const seat = JSON.parse(localStorage.getItem(`mattis.seat.${tableId}`));
  return await new Promise((resolve, reject) => {
    let played = 0, first = null, hinted = null, waitingForHint = hint;
    const timer = setTimeout(() => reject(new Error('no end in time')), 240000);
    const link = transport.openSeat({ tableId, token: seat.token, lang }, {
      onMessage(message) {
        if (message.type === 'hint') {
          hinted = message; waitingForHint = false; link.send({ type: 'state' }); return;
        }
        if (message.type === 'error') { clearTimeout(timer); reject(new Error(message.code)); return; }
        if (message.type !== 'state') return;
        if (first === null) first = message;
        const over = message.view && message.view.phase === 'over';
        if (over || (moves !== null && played >= moves)) {
          clearTimeout(timer); link.close();
          resolve({ first, last: message, played, hinted });
          return;
        }
        if (!message.legal.length) return;
        if (waitingForHint) { link.send({ type: 'hint' }); waitingForHint = false; return; }
        played += 1;
        const wait = Math.max(0, lastSent + (pace || 0) - Date.now());
        lastSent = Date.now() + wait;
        setTimeout(() => link.send({ type: 'act', action: message.legal[0] }), wait);
      },
      onRejected() { clearTimeout(timer); reject(new Error('bad_token')); },
    });
  });
}"""
"""Play at a table through ``openSeat``; answers the first and last state, moves played and
the hint (when asked for one first)."""

RECORD = """async ({ tableId, game }) => {
  const transport = await import('/static/transport.js');
  const response = await fetch(transport.recordUrl(tableId, game));
  const fetched = await transport.fetchRecord(tableId, game, 'en');
  return { status: response.status, served: await response.text(), fetched };
}"""
"""A finished game's record, as text (a JavaScript number cannot hold its 64-bit seed):
downloaded from ``recordUrl`` (the service worker, for a table on the device) and asked for
through ``fetchRecord``."""

ENGINE_READY = """async () => {
  const transport = await import('/static/transport.js');
  return await transport.engineReady();
}"""

BENCH_WORKER = """async () => {
  // A worker of the app's own, kept on the page for the calls of ASK_WORKER.
  const worker = new Worker('/static/app/worker.js', { type: 'module' });
  const replies = new Map();
  let asked = 0;
  self.benchWorker = {
    ask(message) {
      asked += 1;
      const id = asked;
      return new Promise((resolve, reject) => {
        replies.set(id, { resolve, reject });
        worker.postMessage(JSON.stringify({ op: 'call', id, lang: 'en', ...message }));
      });
    },
  };
  return await new Promise((resolve, reject) => {
    worker.onerror = (event) => reject(new Error(event.message));
    worker.onmessage = (event) => {
      const answer = JSON.parse(event.data);
      if (answer.failed) reject(new Error(answer.failed));
      if (answer.ready) resolve(answer);
      const waiting = replies.get(answer.reply);
      if (waiting) { replies.delete(answer.reply); waiting.resolve(answer); }
    };
  });
}"""
"""Start a worker of the offline app on the page (``self.benchWorker``) for :data:`ASK_WORKER`."""

ASK_WORKER = """async (message) => await self.benchWorker.ask(message)"""
"""One call to the worker :data:`BENCH_WORKER` started (``{op: 'call'}``, :mod:`mattis.offline.host`)."""


def pagat_decisions(count: int, seed: int = 1) -> list[tuple[dict[str, Any], list[str]]]:
    """``count`` real decisions of 3-player pagat games among ``normal`` bots, spread over
    each game: the view of the player to move and its legal moves (text), only where there
    is more than one."""
    from mattis import Game
    from mattis.bots import make_agent
    from mattis.bots.view import PlayerView

    rng = random.Random(seed)
    agent = make_agent("normal")
    found: list[tuple[dict[str, Any], list[str]]] = []
    while len(found) < count:
        game = Game.new("pagat", players=3, seed=rng.randrange(2**32))
        choices = []
        while not game.is_over and game.to_move is not None:
            legal = game.legal_actions()
            view = game.view(game.to_move)
            if len(legal) > 1:
                choices.append((view, [str(action) for action in legal]))
            game.apply(agent.choose(PlayerView.from_dict(view), legal, rng).action)
        found.extend(choices[::max(1, len(choices) // 10)][:10])  # about ten of each game
    return found[:count]
