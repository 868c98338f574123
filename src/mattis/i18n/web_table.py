"""The table page's texts (keys ``web.ui.table.…`` and ``web.advice.…``) (the English source).

``web.ui.table.…`` reach the page through ``GET /api/texts`` (as ``table.…``): the seats,
the felt, wars, the hand, reactions, the invite page and the result. ``web.advice.…`` are
sentences the server writes for a seat that waits for someone else's move
(:mod:`mattis.table.advice`). A sentence whose subject may be the reader has a ``_you`` twin,
since neither language says "Du"/"You" like a name.

Data only: :func:`mattis.i18n.catalogues` gathers it with the others.
"""

from __future__ import annotations

from .plural import Plural, Source

WEB_TABLE_MESSAGES: dict[str, Source] = {
    # the seats
    "web.ui.table.cards": Plural("{n} card", "{n} cards", count="n"),
    "web.ui.table.turn_of": "{who}'s turn",
    "web.ui.table.turn_of_s": "{who}'s turn",
    "web.ui.table.to_move": "to move",
    "web.ui.table.thinking": "thinking …",
    "web.ui.table.stand_in": "a bot plays until {name} is back",
    "web.ui.table.you": "You",
    "web.ui.table.you_mid": "you",
    "web.ui.table.you_object": "you",
    "web.ui.table.and": "and",
    "web.ui.table.seat_bot": "bot, {level}",
    # the felt
    "web.ui.table.felt": "The table",
    "web.ui.table.played_by": "{card}, played by {who}",
    "web.ui.table.war": "War!",
    "web.ui.table.war_between": "{names} play for the trick",
    "web.ui.table.in_war": "in the war",
    "web.ui.table.took_trick": "{who} takes the trick",
    "web.ui.table.took_trick_you": "You take the trick",
    "web.ui.table.cleared": "Table cleared: {who} leads",
    "web.ui.table.cleared_you": "Table cleared: you lead",
    "web.ui.table.taken_back": "The trick is taken back: each takes their cards",
    "web.ui.table.winning_card": "wins",
    "web.ui.table.trick_size": "{played} of {size} plays",
    # the hand
    "web.ui.table.pickup_forced": "You must pick up",
    "web.ui.table.tap_again": "Tap again to play {card}",
    # reactions (the names are mattis.table.session.REACTIONS)
    "web.ui.table.reactions": "Reactions",
    "web.ui.table.reaction.thumbs_up": "👍",
    "web.ui.table.reaction.phew": "😅",
    "web.ui.table.reaction.wow": "😮",
    "web.ui.table.reaction.well_played": "Well played!",
    "web.ui.table.reaction_label.thumbs_up": "Thumbs up",
    "web.ui.table.reaction_label.phew": "Phew!",
    "web.ui.table.reaction_label.wow": "Wow!",
    "web.ui.table.reaction_label.well_played": "Well played!",
    "web.ui.table.reaction_from": "{who}: {reaction}",
    # the log drawer and the theme
    "web.ui.table.log_button": "Log",
    "web.ui.table.close": "Close",
    "web.ui.table.theme": "Light or dark",
    # the invite page
    "web.ui.table.host_table": "{name}'s table",
    "web.ui.table.host_invites": "{name} invites you to a game of Mattis.",
    "web.ui.table.anon_table": "A Mattis table",
    "web.ui.table.anon_invites": "You are invited to a game of Mattis.",
    "web.ui.table.rules_line": "Rules: {rules}",
    "web.ui.table.house_rules_line": "House rules: {rules}",
    "web.ui.table.players_line": "{n} players",
    "web.ui.table.free_seats": Plural("{n} free seat", "{n} free seats", count="n"),
    "web.ui.table.seeded": "This table was made with a fixed seed: whoever made it can work out the deals.",
    "web.ui.table.seeded_badge": "fixed seed",
    "web.ui.table.share": "Share the link",
    "web.ui.table.share_text": "Join me for a game of Mattis!",
    "web.ui.table.qr_alt": "QR code of the invite link",
    # spectators (mattis.table.watchers): the watch link, the count, the spectator's page
    "web.ui.table.watching": "Watching",
    "web.ui.table.watchers": Plural("{n} watching", "{n} watching", count="n"),
    "web.ui.table.spectator": "Someone watching",
    "web.ui.table.watch_share": "Share a link to watch",
    "web.ui.table.watch_help": "Whoever has this link can follow the game, but sees nobody's hand.",
    "web.ui.table.watch_link": "Link to watch",
    "web.ui.table.watch_text": "Watch our game of Mattis!",
    "web.ui.table.setting.watching": "Let others watch",
    "web.ui.table.scan": "Scan the code with a phone to join.",
    # the mute button in the header: pressed means no sounds and no vibration
    "web.ui.table.mute": "Mute sounds",
    # a table nobody can join
    "web.ui.table.full_title": "This table is full",
    "web.ui.table.full_text": "Every seat is taken, so nobody can join. You can start a table of your own "
    "and invite your friends.",
    "web.ui.table.over_title": "This game is over",
    "web.ui.table.over_text": "Nobody can join a game that is over. You can start a table of your own and "
    "invite your friends.",
    "web.ui.table.own_table": "Start your own table",
    # the result
    "web.ui.table.cards_left": "Cards left",
    "web.ui.table.no_cards": "no cards",
    "web.ui.table.mattis": "Mattis",
    "web.ui.table.player": "Player",
    "web.ui.table.times_mattis": "Times Mattis",
    "web.ui.table.outcome": "Outcome",
    # the settings of this device (issue 24)
    "web.ui.table.settings": "Settings",
    "web.ui.table.setting.large_cards": "Large cards",
    "web.ui.table.setting.four_colour": "Four-colour deck (♦ blue, ♣ green)",
    "web.ui.table.setting.confirm_card": "Tap a card twice to play it",
    "web.ui.table.setting.language": "Language",
    # a coach, with consent (mattis.table.coaching)
    "web.ui.table.coach.title": "A coach",
    "web.ui.table.coach.get": "Get a coach",
    "web.ui.table.coach.help": (
        "Whoever opens this link sees your cards and can suggest moves. Only you play."
    ),
    "web.ui.table.coach.link": "Coach link",
    "web.ui.table.coach.new": "New link",
    "web.ui.table.coach.end": "End coaching",
    "web.ui.table.coach.ended": "Coaching has ended: the link no longer works.",
    "web.ui.table.coach.qr_alt": "QR code of the coach link",
    "web.ui.table.coach.banner": "You are coaching {name}",
    "web.ui.table.coach.tap": "Tap a card to suggest it. Only {name} plays.",
    "web.ui.table.coach.gone": (
        "This coach link no longer works: the player ended the coaching or made a new link."
    ),
    "web.ui.table.coach.badge": "has a coach",
    # what a waiting seat is told (mattis.table.advice)
    "web.advice.lead1": "{who} leads. Only the rank counts, and the highest card takes the trick.",
    "web.advice.lead1_pair": (
        "{who} leads against {other}. Only the rank counts, and the higher card takes the trick."
    ),
    "web.advice.beat1": "Highest so far: {card} ({holders}). {who} plays next.",
    "web.advice.beat1_tied": "Highest so far: {card}, tied by {holders}. {who} plays next.",
    "web.advice.next": "{who} plays now.",
    "web.advice.lead2": "The table is empty: {who} leads.",
    "web.advice.beat2": "{who} must beat {target} or pick up {oldest}.",
    "web.advice.beat2_forced": "{who} must beat {target} if possible, or else pick up {oldest}.",
    "web.advice.clears": Plural("One more play and the table is cleared.",
                                "{count} more plays and the table is cleared."),
}
