"""The table page's texts (keys ``web.ui.table.…`` and ``web.advice.…``), in bokmål and English.

``web.ui.table.…`` reach the page through ``GET /api/texts`` (as ``table.…``): the seats,
the felt, wars, the hand, reactions, the invite page and the result. ``web.advice.…`` are
sentences the server writes for a seat that waits for someone else's move
(:mod:`mattis.table.advice`). A sentence whose subject may be the reader has a ``_you`` twin,
since neither language says "Du"/"You" like a name.

Data only: :func:`mattis.i18n.catalogues` gathers it with the others.
"""

from __future__ import annotations

WEB_TABLE_MESSAGES: dict[str, tuple[str, str]] = {
    # the seats
    "web.ui.table.cards": ("{n} kort", "{n} cards"),
    "web.ui.table.cards_one": ("1 kort", "1 card"),
    "web.ui.table.turn_of": ("{who}s tur", "{who}'s turn"),
    "web.ui.table.turn_of_s": ("{who}' tur", "{who}'s turn"),
    "web.ui.table.to_move": ("har turen", "to move"),
    "web.ui.table.thinking": ("tenker …", "thinking …"),
    "web.ui.table.stand_in": ("en robot spiller til {name} er tilbake", "a bot plays until {name} is back"),
    "web.ui.table.you": ("Du", "You"),
    "web.ui.table.you_mid": ("du", "you"),
    "web.ui.table.you_object": ("deg", "you"),
    "web.ui.table.and": ("og", "and"),
    "web.ui.table.seat_bot": ("robot, {level}", "bot, {level}"),
    # the felt
    "web.ui.table.felt": ("Bordet", "The table"),
    "web.ui.table.played_by": ("{card}, spilt av {who}", "{card}, played by {who}"),
    "web.ui.table.war": ("Krig!", "War!"),
    "web.ui.table.war_between": ("{names} spiller om stikket", "{names} play for the trick"),
    "web.ui.table.in_war": ("i krigen", "in the war"),
    "web.ui.table.took_trick": ("{who} tar stikket", "{who} takes the trick"),
    "web.ui.table.took_trick_you": ("Du tar stikket", "You take the trick"),
    "web.ui.table.cleared": ("Bordet ryddes: {who} spiller ut", "Table cleared: {who} leads"),
    "web.ui.table.cleared_you": ("Bordet ryddes: du spiller ut", "Table cleared: you lead"),
    "web.ui.table.taken_back": (
        "Stikket tas tilbake: hver tar sine kort", "The trick is taken back: each takes their cards"),
    "web.ui.table.winning_card": ("vinner", "wins"),
    "web.ui.table.trick_size": ("{played} av {size} spill", "{played} of {size} plays"),
    # the hand
    "web.ui.table.pickup_forced": ("Du må ta opp", "You must pick up"),
    "web.ui.table.tap_again": ("Trykk en gang til for å spille {card}", "Tap again to play {card}"),
    # reactions (the names are mattis.table.session.REACTIONS)
    "web.ui.table.reactions": ("Reaksjoner", "Reactions"),
    "web.ui.table.reaction.thumbs_up": ("\U0001f44d", "\U0001f44d"),
    "web.ui.table.reaction.phew": ("\U0001f605", "\U0001f605"),
    "web.ui.table.reaction.wow": ("\U0001f62e", "\U0001f62e"),
    "web.ui.table.reaction.well_played": ("Godt spilt!", "Well played!"),
    "web.ui.table.reaction_label.thumbs_up": ("Tommel opp", "Thumbs up"),
    "web.ui.table.reaction_label.phew": ("Puh!", "Phew!"),
    "web.ui.table.reaction_label.wow": ("Oi!", "Wow!"),
    "web.ui.table.reaction_label.well_played": ("Godt spilt!", "Well played!"),
    "web.ui.table.reaction_from": ("{who}: {reaction}", "{who}: {reaction}"),
    # the log drawer and the theme
    "web.ui.table.log_button": ("Logg", "Log"),
    "web.ui.table.close": ("Lukk", "Close"),
    "web.ui.table.theme": ("Lyst eller mørkt", "Light or dark"),
    # the invite page
    "web.ui.table.host_table": ("Bordet til {name}", "{name}'s table"),
    "web.ui.table.host_invites": (
        "{name} inviterer deg til et spill Mattis.", "{name} invites you to a game of Mattis."),
    "web.ui.table.anon_table": ("Et Mattis-bord", "A Mattis table"),
    "web.ui.table.anon_invites": (
        "Du er invitert til et spill Mattis.", "You are invited to a game of Mattis."),
    "web.ui.table.rules_line": ("Regler: {rules}", "Rules: {rules}"),
    "web.ui.table.house_rules_line": ("Husregler: {rules}", "House rules: {rules}"),
    "web.ui.table.players_line": ("{n} spillere", "{n} players"),
    "web.ui.table.free_seats": ("{n} ledige plasser", "{n} free seats"),
    "web.ui.table.free_seats_one": ("1 ledig plass", "1 free seat"),
    "web.ui.table.seeded": (
        "Bordet ble laget med et fast frø: den som laget det, kan regne ut stokkingen.",
        "This table was made with a fixed seed: whoever made it can work out the deals."),
    "web.ui.table.seeded_badge": ("fast frø", "fixed seed"),
    "web.ui.table.share": ("Del lenken", "Share the link"),
    "web.ui.table.share_text": ("Bli med på Mattis ved bordet mitt!", "Join me for a game of Mattis!"),
    "web.ui.table.qr_alt": ("QR-kode til invitasjonslenken", "QR code of the invite link"),
    "web.ui.table.scan": ("Skann koden med mobilen for å bli med.", "Scan the code with a phone to join."),
    # the result
    "web.ui.table.cards_left": ("Kort igjen", "Cards left"),
    "web.ui.table.no_cards": ("ingen kort", "no cards"),
    "web.ui.table.mattis": ("Mattis", "Mattis"),
    "web.ui.table.player": ("Spiller", "Player"),
    "web.ui.table.times_mattis": ("Ganger Mattis", "Times Mattis"),
    # what a waiting seat is told (mattis.table.advice)
    "web.advice.lead1": (
        "{who} spiller ut. Bare valøren teller, og høyeste kort tar stikket.",
        "{who} leads. Only the rank counts, and the highest card takes the trick."),
    "web.advice.lead1_pair": (
        "{who} spiller ut mot {other}. Bare valøren teller, og høyeste kort tar stikket.",
        "{who} leads against {other}. Only the rank counts, and the higher card takes the trick."),
    "web.advice.beat1": (
        "Høyest nå: {card} ({holders}). Nå spiller {who}.",
        "Highest so far: {card} ({holders}). {who} plays next."),
    "web.advice.beat1_tied": (
        "Høyest nå: {card}, likt for {holders}. Nå spiller {who}.",
        "Highest so far: {card}, tied by {holders}. {who} plays next."),
    "web.advice.next": ("Nå spiller {who}.", "{who} plays now."),
    "web.advice.lead2": ("Bordet er tomt: {who} spiller ut.", "The table is empty: {who} leads."),
    "web.advice.beat2": (
        "{who} må slå {target} eller ta opp {oldest}.",
        "{who} must beat {target} or pick up {oldest}."),
    "web.advice.beat2_forced": (
        "{who} må slå {target} om det går, ellers ta opp {oldest}.",
        "{who} must beat {target} if possible, or else pick up {oldest}."),
    "web.advice.clears_one": ("Ett spill til, så ryddes bordet.", "One more play and the table is cleared."),
    "web.advice.clears": (
        "{count} spill til, så ryddes bordet.", "{count} more plays and the table is cleared."),
}
