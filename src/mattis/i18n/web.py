"""The web front end's texts (keys ``web.…``) (the English source).

``web.err.…`` are the refusals the server sends (``{"type": "error", "code", "message"}``);
``web.ui.…`` are the labels the pages show, served to them by ``GET /api/texts`` so every
word a player reads comes from :mod:`mattis.i18n`, like in the terminal.

Data only: :func:`mattis.i18n.catalogues` gathers it with the others.
"""

from __future__ import annotations

from .plural import Source

WEB_MESSAGES: dict[str, Source] = {
    # refusals (codes are the part after web.err.)
    "web.err.bad_json": "The message was not valid JSON.",
    "web.err.bad_message": "Unknown or incomplete message: {detail}.",
    "web.err.too_large": "The message was too large (more than {limit} characters).",
    "web.err.rate_limited": "Too many messages; slow down.",
    "web.err.bad_token": "Unknown table or wrong seat token.",
    "web.err.bad_key": "This device's player key is missing or no longer valid.",
    "web.err.not_creator": "Only the group's creator may make a new code.",
    "web.err.group_full": "The group has as many members as it may ({limit}).",
    "web.err.too_many_groups": "You are in as many groups as you may be ({limit}).",
    "web.err.not_started": "The game has not started: it is waiting for players.",
    "web.err.game_over": "The game is over.",
    "web.err.game_not_over": "The game is not over yet, and the record shows the deck.",
    "web.err.not_your_turn": "It is not your turn.",
    "web.err.storage": "The server could not save the change, so nothing was changed. Try again in a moment.",
    "web.err.moved": "The table is moving to another server just now. Try again in a moment.",
    "web.err.damaged": (
        "This table is damaged in the database and cannot be played; the other tables play on."
    ),
    "web.err.bad_text": "The message contained text that is not valid Unicode.",
    "web.err.too_many_connections": (
        "Too many connections from one address (more than {limit}); wait a little."
    ),
    "web.err.headers_too_large": "The request's headers were too large or too many.",
    "web.err.slow_body": "The request did not arrive within {seconds} seconds.",
    "web.err.too_many_sockets": "Too many open connections; close a tab or wait a little.",
    "web.err.hint_cooldown": "Wait {seconds} seconds before the next hint.",
    "web.err.not_found": "Not found: no such table, game, player or group.",
    # the ledger of a group (docs/ledger.md): a forgotten player, and each award's name and rule
    "web.ledger.former": "a former player",
    "web.award.arets_mattis.name": "Mattis of the Year",
    "web.award.arets_mattis.rule": "Most Mattis this season, among those with at least {games} games.",
    "web.award.mattis_fri.name": "Mattis-free",
    "web.award.mattis_fri.rule": "The longest run of games in a row without being Mattis.",
    "web.award.blodig.name": "Bloody",
    "web.award.blodig.rule": "Most losses with nothing left (Blåmattis or Blodmattis).",
    "web.award.nemesis.name": "Nemesis",
    "web.award.nemesis.rule": "Most often the last one still in when someone else became Mattis.",
    "web.award.comeback.name": "Comeback",
    "web.award.comeback.rule": "The longest run without Mattis right after {streak} or more Mattis in a row.",
    "web.award.stamgjest.name": "Regular",
    "web.award.stamgjest.rule": "The most games played.",
    "web.err.table_full": "The table is full.",
    "web.err.bad_request": "Bad request: {detail}.",
    "web.err.server_error": "Something went wrong on the server; nothing was changed.",
    "web.err.hint_busy": "A hint is already on its way.",
    "web.err.malformed": "Not allowed: that is not a move.",
    "web.err.too_many_tables": (
        "You already have {limit} tables waiting for players. Start one of them first, or try again "
        "later."
    ),
    "web.err.too_many_bot_tables": (
        "You already have {limit} tables in play with bots that think before every move. Finish one of "
        "them, or choose a quicker bot."
    ),
    "web.err.busy": (
        "The server has so many tables going that it takes no more just now. Try again in a moment."
    ),
    # the pages
    "web.ui.title": "Mattis",
    "web.ui.device_qr": "QR code that moves your player to another device",
    "web.ui.tagline": "The Norwegian card game. Play against bots or with friends.",
    "web.ui.language": "Language",
    "web.ui.new_table": "New table",
    "web.ui.preset": "Rules",
    "web.ui.house_rules": "House rules",
    "web.ui.players": "Number of players",
    "web.ui.seats": "Seats",
    "web.ui.seat_you": "You",
    "web.ui.seat_n": "Seat {n}",
    "web.ui.kind_bot": "Bot",
    "web.ui.kind_open": "Open (for a friend)",
    "web.ui.level": "Level",
    "web.ui.your_name": "Your name",
    "web.ui.create": "Create the table",
    "web.ui.rules_link": "The rules",
    "web.ui.invite": "Invite link",
    "web.ui.invite_help": "Send the link to your friends: it gives them a free seat.",
    "web.ui.copy": "Copy",
    "web.ui.copied": "Copied",
    "web.ui.waiting": "Waiting for players …",
    "web.ui.join_title": "Join the table",
    "web.ui.join": "Take a seat",
    "web.ui.full": "The table is full.",
    "web.ui.your_turn": "Your turn",
    "web.ui.stock": "Stock",
    "web.ui.trump": "Trump",
    "web.ui.trump_unknown": "unknown",
    "web.ui.trick": "The trick",
    "web.ui.table": "The table",
    "web.ui.empty": "empty",
    "web.ui.hand": "Your hand",
    "web.ui.won": "{n} won",
    "web.ui.dealer": "dealer",
    "web.ui.out": "out ({n})",
    "web.ui.away": "away",
    "web.ui.chance": "Chance",
    "web.ui.pickup": "Pick up",
    "web.ui.hint": "Hint",
    "web.ui.thinking": "Thinking …",
    "web.ui.log": "What happened",
    "web.ui.play_sequence": "Play {cards}",
    "web.ui.select_help": "Pick a card; if it can start a sequence, choose the length here.",
    "web.ui.result": "Result",
    "web.ui.again": "Play again",
    "web.ui.score": "Score (times Mattis)",
    "web.ui.game_n": "Game {n}",
    "web.ui.record": "Download the record",
    "web.ui.home": "New table",
    "web.ui.connecting": "Connecting …",
    "web.ui.disconnected": "Connection lost; reconnecting …",
    "web.ui.bot": "bot",
    "web.ui.trump_mark": "trump",
    "web.ui.legal": "playable",
    "web.ui.rules_title": "The rules in brief",
    "web.ui.fill_bot": "Seat a bot",
    "web.ui.holds_trump": "holds the trump card",
}
