"""The tutorial's texts, "Learn Mattis" (the English source).

``learn.…`` keys are the lesson's sentences, written into the lesson's JSON by
:func:`mattis.frontend.tutorial.lesson` (``{move}`` is the move the step waits for,
``{target}`` the play it is about, ``{trump}`` the trump suit's word); ``web.ui.learn.…`` are
the page's labels, served by ``GET /api/texts``; ``web.rules.learn…`` the rules page's link.
One short sentence a step: a beginner reads it at the table, with a phone in hand.

Data only: :func:`mattis.i18n.catalogues` gathers it with the others.
"""

from __future__ import annotations

from .plural import Source

LEARN_MESSAGES: dict[str, Source] = {
    # ------------------------------------------------------------------ the steps
    "learn.you": "You",
    "learn.step.play": "Play a card: the highest card takes the trick. Play {move}.",
    "learn.step.play.pair": (
        "In these rules each trick is a duel with the player on your left. Play {move}: the higher card wins."
    ),
    "learn.step.draw.after_play": "You drew a card, so you hold three again. Play {move}.",
    "learn.step.draw.after_trick": (
        "After each trick everyone draws back up to three cards, the winner first. Play {move}."
    ),
    "learn.step.war.replay": (
        "A tie at the top is a war: only the tied players play again, and the winner takes it all. "
        "Play {move}."
    ),
    "learn.step.war.two_cards": (
        "A tie is a war: you each play two more cards, and your better one counts. Play {move}."
    ),
    "learn.step.war.second_card": "Now your second war card: play {move}. Your better card still counts.",
    "learn.step.war.any_match": (
        "Two cards of the same rank start a war: you each play a battle card from your hand. Play {move}."
    ),
    "learn.step.chance": (
        "In these rules you may chance: play the stock's top card without looking. Try it: press “{move}”."
    ),
    "learn.step.trump.hidden_last": (
        "Only the trump card is left in the stock. Play {move}: you draw it and lay it aside unseen."
    ),
    "learn.step.trump.bottom_up": (
        "In these rules the stock's last card lies face up, so {trump} are trump from the start. "
        "Play {move}: the highest card takes the trick."
    ),
    "learn.step.last_card.bottom_up": (
        "The face-up trump card is the stock's last card. Win this trick, draw it, and you lead phase 2. "
        "Play {move}."
    ),
    "learn.step.no_stock": "The stock is empty, so nobody draws any more. Play {move}.",
    "learn.step.phase1_end.no_card": "Play {move}. When someone has no card to play, phase 1 is over.",
    "learn.step.phase1_end.one_left": (
        "Play {move}. When fewer than two players have cards left, phase 1 is over."
    ),
    "learn.step.beat": (
        "Now get rid of your cards. Beat the newest play, {target}, with a higher card of its suit or a "
        "trump: play {move}."
    ),
    "learn.step.beat.follow_suit": (
        "Now get rid of your cards. In these rules you must follow suit when you can: beat {target} with "
        "{move}."
    ),
    "learn.step.beat.trump": "A trump beats every other suit. Beat {target} with {move}.",
    "learn.step.sequence": (
        "The table is empty, so you lead. Cards in a row in one suit are a sequence: play {move} as one play."
    ),
    "learn.step.sequence.off": "These rules have no sequences: every play is one card. Lead {move}.",
    "learn.step.pickup.voluntary": (
        "You need not beat: you may take the oldest play on the table into your hand. Press “{move}”."
    ),
    "learn.step.pickup.must_beat": (
        "In these rules you must beat if you can. You cannot beat {target}, so press “{move}”."
    ),
    "learn.step.out": "Play your last cards, {move}, and you are out.",
    "learn.step.out.last_card": "Lead your last card, {move}, and you are out.",
    "learn.outro.phase2": (
        "Phase 1 is over: your won cards are your hand now, and {trump} are trump. "
        "To keep the lesson short, phase 2 goes on with a smaller deal."
    ),
    "learn.outro.mattis": "{loser} is the last one holding cards, so {loser} is Mattis. You got away!",
    "learn.wrong.refused": "Not that one: {why}. Try {expect}.",
    "learn.wrong.legal": "{move} is allowed, but this step shows something else: try {expect}.",
    # ------------------------------------------------------------------ the page
    "web.ui.learn.title": "Learn Mattis",
    "web.ui.learn.intro": "Play along with two robots, one step at a time. It takes about five minutes.",
    "web.ui.learn.rules": "Rules: {rules}",
    "web.ui.learn.step": "Step {n} of {total}",
    "web.ui.learn.hand": "Your hand",
    "web.ui.learn.moves": "Your move",
    "web.ui.learn.on_table": "On the table",
    "web.ui.learn.nothing_on_table": "Nothing on the table",
    "web.ui.learn.stock": "Stock: {n}",
    "web.ui.learn.trump": "Trump: {suit}",
    "web.ui.learn.trump_unknown": "Trump: not known yet",
    "web.ui.learn.won": "{n} won",
    "web.ui.learn.holding": "{n} in hand",
    "web.ui.learn.out": "out",
    "web.ui.learn.played": "{name}: {move}",
    "web.ui.learn.robots_played": "Since your last move",
    "web.ui.learn.right": "Right!",
    "web.ui.learn.continue": "Continue",
    "web.ui.learn.again": "Start the lesson again",
    "web.ui.learn.done_title": "You know the game!",
    "web.ui.learn.done_text": "Ready for a real game? The computer players will play gently.",
    "web.ui.learn.play_easy": "Play a game against easy computer players",
    "web.ui.learn.back": "Back to the start page",
    "web.ui.learn.offer": "New to Mattis? Learn it in five minutes, playing.",
    "web.ui.learn.offer_link": "Learn Mattis",
    "web.ui.learn.offer_close": "No, thanks",
    "web.rules.learn": "Learn by playing: a five-minute lesson",
}
"""The tutorial's texts."""
