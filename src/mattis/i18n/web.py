"""The web front end's texts (keys ``web.…``), in bokmål and English.

``web.err.…`` are the refusals the server sends (``{"type": "error", "code", "message"}``);
``web.ui.…`` are the labels the pages show, served to them by ``GET /api/texts`` so every
word a player reads comes from :mod:`mattis.i18n`, like in the terminal.

Data only: :func:`mattis.i18n.catalogues` gathers it with the others.
"""

from __future__ import annotations

WEB_MESSAGES: dict[str, tuple[str, str]] = {
    # refusals (codes are the part after web.err.)
    "web.err.bad_json": ("Meldingen var ikke gyldig JSON.", "The message was not valid JSON."),
    "web.err.bad_message": (
        "Ukjent eller ufullstendig melding: {detail}.", "Unknown or incomplete message: {detail}."),
    "web.err.too_large": (
        "Meldingen var for stor (mer enn {limit} tegn).",
        "The message was too large (more than {limit} characters)."),
    "web.err.rate_limited": (
        "For mange meldinger; vent litt.", "Too many messages; slow down."),
    "web.err.bad_token": (
        "Ukjent bord eller feil nøkkel for plassen.", "Unknown table or wrong seat token."),
    "web.err.not_started": (
        "Spillet har ikke begynt: det venter på spillere.",
        "The game has not started: it is waiting for players."),
    "web.err.game_over": ("Spillet er over.", "The game is over."),
    "web.err.game_not_over": (
        "Spillet er ikke over ennå, og opptaket viser kortstokken.",
        "The game is not over yet, and the record shows the deck."),
    "web.err.not_your_turn": ("Det er ikke din tur.", "It is not your turn."),
    "web.err.storage": (
        "Tjeneren fikk ikke lagret endringen, så ingenting ble endret. Prøv igjen om litt.",
        "The server could not save the change, so nothing was changed. Try again in a moment."),
    "web.err.moved": (
        "Bordet flytter til en annen tjener akkurat nå. Prøv igjen om et øyeblikk.",
        "The table is moving to another server just now. Try again in a moment."),
    "web.err.damaged": (
        "Dette bordet er skadet i databasen og kan ikke spilles; de andre bordene spiller videre.",
        "This table is damaged in the database and cannot be played; the other tables play on."),
    "web.err.bad_text": (
        "Meldingen inneholdt tekst som ikke er gyldig Unicode.",
        "The message contained text that is not valid Unicode."),
    "web.err.slow_body": (
        "Forespørselen kom ikke fram innen {seconds} sekunder.",
        "The request did not arrive within {seconds} seconds."),
    "web.err.too_many_sockets": (
        "For mange åpne forbindelser; lukk en fane eller vent litt.",
        "Too many open connections; close a tab or wait a little."),
    "web.err.hint_cooldown": (
        "Vent {seconds} sekunder før neste tips.", "Wait {seconds} seconds before the next hint."),
    "web.err.not_found": ("Fant ikke bordet.", "No such table."),
    "web.err.table_full": ("Bordet er fullt.", "The table is full."),
    "web.err.bad_request": ("Ugyldig forespørsel: {detail}.", "Bad request: {detail}."),
    "web.err.server_error": (
        "Noe gikk galt på tjeneren; ingenting ble endret.",
        "Something went wrong on the server; nothing was changed."),
    "web.err.hint_busy": ("Et tips er allerede på vei.", "A hint is already on its way."),
    "web.err.too_many_tables": (
        "Du har allerede {limit} bord som venter på spillere. Start ett av dem først, eller prøv "
        "igjen senere.",
        "You already have {limit} tables waiting for players. Start one of them first, or try "
        "again later."),
    "web.err.too_many_bot_tables": (
        "Du har allerede {limit} bord i spill med roboter som tenker seg om før hvert trekk. "
        "Spill ferdig ett av dem, eller velg en raskere robot.",
        "You already have {limit} tables in play with bots that think before every move. "
        "Finish one of them, or choose a quicker bot."),
    "web.err.busy": (
        "Tjeneren har så mange bord i gang at den ikke tar flere akkurat nå. Prøv igjen om litt.",
        "The server has so many tables going that it takes no more just now. Try again in a moment."),
    # the pages
    "web.ui.title": ("Mattis", "Mattis"),
    "web.ui.tagline": (
        "Det norske kortspillet. Spill mot roboter eller med venner.",
        "The Norwegian card game. Play against bots or with friends."),
    "web.ui.language": ("Språk", "Language"),
    "web.ui.new_table": ("Nytt bord", "New table"),
    "web.ui.preset": ("Regelsett", "Rules"),
    "web.ui.house_rules": ("Husregler", "House rules"),
    "web.ui.players": ("Antall spillere", "Number of players"),
    "web.ui.seats": ("Plasser", "Seats"),
    "web.ui.seat_you": ("Deg", "You"),
    "web.ui.seat_n": ("Plass {n}", "Seat {n}"),
    "web.ui.kind_bot": ("Robot", "Bot"),
    "web.ui.kind_open": ("Ledig (for en venn)", "Open (for a friend)"),
    "web.ui.level": ("Nivå", "Level"),
    "web.ui.your_name": ("Navnet ditt", "Your name"),
    "web.ui.create": ("Lag bordet", "Create the table"),
    "web.ui.rules_link": ("Reglene", "The rules"),
    "web.ui.invite": ("Invitasjonslenke", "Invite link"),
    "web.ui.invite_help": (
        "Send lenken til vennene dine: den gir dem en ledig plass.",
        "Send the link to your friends: it gives them a free seat."),
    "web.ui.copy": ("Kopier", "Copy"),
    "web.ui.copied": ("Kopiert", "Copied"),
    "web.ui.waiting": ("Venter på spillere …", "Waiting for players …"),
    "web.ui.join_title": ("Bli med ved bordet", "Join the table"),
    "web.ui.join": ("Sett deg", "Take a seat"),
    "web.ui.full": ("Bordet er fullt.", "The table is full."),
    "web.ui.your_turn": ("Din tur", "Your turn"),
    "web.ui.stock": ("Bunken", "Stock"),
    "web.ui.trump": ("Trumf", "Trump"),
    "web.ui.trump_unknown": ("ukjent", "unknown"),
    "web.ui.trick": ("Stikket", "The trick"),
    "web.ui.table": ("Bordet", "The table"),
    "web.ui.empty": ("tomt", "empty"),
    "web.ui.hand": ("Hånden din", "Your hand"),
    "web.ui.won": ("{n} vunnet", "{n} won"),
    "web.ui.dealer": ("giver", "dealer"),
    "web.ui.out": ("ute ({n}.)", "out ({n})"),
    "web.ui.away": ("borte", "away"),
    "web.ui.chance": ("Sjanse", "Chance"),
    "web.ui.pickup": ("Ta opp", "Pick up"),
    "web.ui.hint": ("Tips", "Hint"),
    "web.ui.thinking": ("Tenker …", "Thinking …"),
    "web.ui.log": ("Hva som skjedde", "What happened"),
    "web.ui.play_sequence": ("Spill {cards}", "Play {cards}"),
    "web.ui.select_help": (
        "Velg et kort; kan det starte en serie, velger du lengden her.",
        "Pick a card; if it can start a sequence, choose the length here."),
    "web.ui.result": ("Resultat", "Result"),
    "web.ui.again": ("Spill igjen", "Play again"),
    "web.ui.score": ("Stilling (ganger Mattis)", "Score (times Mattis)"),
    "web.ui.game_n": ("Spill {n}", "Game {n}"),
    "web.ui.record": ("Last ned opptaket", "Download the record"),
    "web.ui.home": ("Nytt bord", "New table"),
    "web.ui.connecting": ("Kobler til …", "Connecting …"),
    "web.ui.disconnected": ("Forbindelsen brøt; kobler til igjen …", "Connection lost; reconnecting …"),
    "web.ui.bot": ("robot", "bot"),
    "web.ui.trump_mark": ("trumf", "trump"),
    "web.ui.legal": ("kan spilles", "playable"),
    "web.ui.rules_title": ("Regler i korthet", "The rules in brief"),
    "web.ui.fill_bot": ("Sett inn en robot", "Seat a bot"),
    "web.ui.holds_trump": ("har trumfkortet", "holds the trump card"),
}
