"""The start page's and the rules page's texts (the English source).

``web.ui.…`` keys reach the pages through ``GET /api/texts`` (without the prefix, like the
other page labels in :mod:`.web`); ``web.rules.…`` keys are read by the server when it writes
the rules page, so they never travel to the start page. Both speak to a family at a table:
plain words first, the presets' names and rule numbers only where someone looks for them.

Data only: :func:`mattis.i18n.catalogues` gathers it with the others.
"""

from __future__ import annotations

from .plural import Plural, Source

START_MESSAGES: dict[str, Source] = {
    # ------------------------------------------------------------------ the start page
    "web.ui.start_tagline": "The Norwegian card game for the whole family.",
    "web.ui.how_to_play": "How to play",
    "web.ui.theme": "Dark theme",
    "web.ui.name_optional": "Your name (you may leave it empty)",
    "web.ui.computer_title": "Play against the computer",
    "web.ui.computer_players": Plural("You and one computer player ({levels})",
                                      "You and {n} computer players ({levels})", count="n"),
    "web.ui.quick_rules": "Rules: {rules}",
    "web.ui.quick_start": "Play now",
    "web.ui.quick_change": "Choose the rules and players yourself",
    "web.ui.dealing": "Dealing …",
    "web.ui.friends_title": "Play with friends",
    "web.ui.friends_text": (
        "Make a table with free seats. Send the link, or let your friends scan the code with their "
        "phones. The computer can take any seat nobody takes."
    ),
    "web.ui.friends_count": "How many of you, counting you?",
    "web.ui.friends_start": "Make a table for friends",
    "web.ui.continue_last": "Back to your last table",
    "web.ui.setup_title": "Choose everything yourself",
    "web.ui.rules_choice": "Which rules?",
    "web.ui.preset_name": "rule set “{name}”",
    "web.ui.player_count": "How many players?",
    "web.ui.seat_computer": "Computer: {level}",
    "web.ui.seat_friend": "Free seat for a friend",
    "web.ui.house_rules_help": "Do you play a little differently at home? Change it here.",
    "web.ui.house_rules_changed": "{n} changed",
    "web.ui.house_rules_reset": "Back to the rules as they are",
    "web.ui.house_rules_details": "Names and rule numbers",
    "web.ui.details_option": "Rule",
    "web.ui.details_field": "Name in the program",
    "web.ui.details_rule": "Rule number",
    "web.ui.details_value": "Chosen",
    # The presets in words: a title a family recognises and one sentence on how it plays.
    "web.ui.preset_title.pagat": "The usual way",
    "web.ui.preset_text.pagat": (
        "Everyone plays a card to each trick, and equal cards play again. 3–6 players."
    ),
    "web.ui.preset_title.kortregler": "Duels, also for two",
    "web.ui.preset_text.kortregler": (
        "Each trick is a duel between two neighbours, and a tie is a war with two cards each. You must "
        "beat when you can. 2–6 players."
    ),
    "web.ui.preset_title.app": "Trump from the start",
    "web.ui.preset_text.app": (
        "The trump is turned up at the deal, any two equal cards start a war, and you must follow suit. "
        "3–6 players."
    ),
    # ------------------------------------------------------------------ the rules page
    "web.rules.title": "The rules of Mattis",
    "web.rules.back": "Back to the game",
    "web.rules.play_now": "Play now",
    "web.rules.lead": (
        "Mattis is played with an ordinary pack of cards, by 2 to 6 players. Nobody wins: the one left "
        "holding cards at the end is Mattis."
    ),
    "web.rules.howto_title": "How to play",
    "web.rules.howto_note": "This is how most people play. Other ways to play follow further down.",
    "web.rules.step.deal_title": "The deal",
    "web.rules.step.deal": (
        "Everyone gets three cards. The rest is a face-down pile, the stock. Its last card decides the "
        "trump suit, but nobody sees it until the second half."
    ),
    "web.rules.example.deal": "Three cards in your hand, and the stock.",
    "web.rules.step.trick_title": "First half: collect cards",
    "web.rules.step.trick": (
        "Everyone plays a card. The highest card takes the trick, and suits do not matter yet. Cards you "
        "win go onto your own pile. After each card you draw a new one, so you keep three. If you like, "
        "you may chance it: turn the top card of the stock and play it as it is."
    ),
    "web.rules.example.trick": "Ola has the highest card, the king, and takes all three.",
    "web.rules.step.war_title": "A tie: war!",
    "web.rules.step.war": (
        "If the highest cards are equal, only the tied players play again, one more card each. Whoever "
        "wins the war takes everything."
    ),
    "web.rules.example.war": (
        "Kari and Siri both played a king. In the war Siri's jack beats Kari's four, and Siri takes all "
        "five cards."
    ),
    "web.rules.war_round": "The war",
    "web.rules.step.beat_title": "Second half: get rid of them",
    "web.rules.step.beat": (
        "When someone has nothing left to play, the first half is over. Your pile becomes your new hand, "
        "and the trump is shown. Now you want to get rid of your cards: you beat the newest card on the "
        "table with a higher card of its suit, or with a trump."
    ),
    "web.rules.example.beat": (
        "Spades are trump. Ola beats Kari's 7♥ with the 10♥. The 2♠ would have beaten it too, since any "
        "trump beats the other suits."
    ),
    "web.rules.or": "or",
    "web.rules.step.pickup_title": "Pick up",
    "web.rules.step.pickup": (
        "If you cannot beat, or would rather not, you pick up the oldest card on the table. The next "
        "player beats or picks up what is left."
    ),
    "web.rules.example.pickup": (
        "Siri would rather not beat the 8♣–9♣, so she picks up the oldest card, Kari's 4♣."
    ),
    "web.rules.picks_up": "{who} picks up",
    "web.rules.step.sequence_title": "Sequences",
    "web.rules.step.sequence": (
        "Cards that follow each other in one suit may be played together, such as 6♥ 7♥ 8♥. To beat a "
        "sequence in its suit, your lowest card must be above its highest."
    ),
    "web.rules.example.sequence": (
        "Kari gets rid of three cards at once. Ola beats the sequence with the 9♥, which is above the "
        "8♥."
    ),
    "web.rules.step.end_title": "Mattis",
    "web.rules.step.end": (
        "When the table holds as many cards or sequences as there are players still in, the round is "
        "complete: they leave the game, and whoever played last starts the next round. Whoever gets rid "
        "of all their cards is out. The last one with cards left is Mattis."
    ),
    "web.rules.trump": "Trump: {suit}",
    "web.rules.beats": "beats",
    "web.rules.variants_title": "Other ways to play",
    "web.rules.variants_intro": (
        "Families play Mattis in slightly different ways. You choose on the start page."
    ),
    "web.rules.variant.pagat": (
        "As described above. A player left with no cards at all after the first half loses at once "
        "(Blåmattis)."
    ),
    "web.rules.variant.kortregler": (
        "Each trick is played between the leader and the neighbour on the left. A tie is a war with two "
        "new cards each. A player with no cards must pick up. No sequences, and you must beat when you "
        "can. Two can play too: then ten cards are put away before the deal."
    ),
    "web.rules.variant.app": (
        "The trump is turned up at the deal, so everyone knows it from the start. No chancing, everyone "
        "draws after each trick, and two equal cards start a war even when another card is higher. A "
        "player who won no trick at all loses at once (Blodmattis). If you hold the suit, you must "
        "follow it instead of trumping."
    ),
    "web.rules.house_rules": (
        "House rules: each of these things can be changed on its own, under “House rules” on the start "
        "page."
    ),
    "web.rules.full_title": "The full rules, with rule numbers",
    "web.rules.full_intro": (
        "For looking things up and settling arguments: every rule has a number, such as P1.5."
    ),
    "web.rules.intro_section": "About the rules",
    "web.rules.overview_title": "Every option side by side",
}
