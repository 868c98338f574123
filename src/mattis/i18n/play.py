"""The texts of play (keys ``play.…``) for every front end (the English source).

Data only: :func:`mattis.i18n.catalogues` gathers it with the others. Sentences
that name a player take ``{who}``: a bot's name, or "Du"/"You" for the person at the
keyboard (``"du"``/``"you"`` inside a sentence). English needs "are" after "You" where
Norwegian does not change, so those few sentences have a ``_you`` twin.
"""

from __future__ import annotations

from .plural import Plural, Source

PLAY_MESSAGES: dict[str, Source] = {
    # people
    "play.you": "You",
    "play.you_mid": "you",
    "play.seat_n": "Seat {seat}",
    "play.and": "and",
    "play.level.random": "random",
    "play.level.easy": "easy",
    "play.level.normal": "normal",
    "play.level.hard": "hard",
    "play.level.expert": "expert",
    "play.level.master": "master",
    "play.level.learned": "learned",
    # Translators: a trained checkpoint seated by name (mattis play --bots learned:mine.npz)
    "play.level_checkpoint": "learned: {name}",
    # a move in a list of moves, besides the cards
    "play.action.chance": "chance",
    "play.action.pickup": "pick up",
    # what happened (history events)
    "play.ev.play": "{who} played {cards}",
    "play.ev.chance": "{who} chanced and turned up {card}",
    "play.ev.pickup": "{who} picked up {cards}",
    # the same, made by a robot for a person who was away (the stand-in)
    "play.ev.play_stand_in": "A robot played {cards} for {who}",
    "play.ev.play_stand_in_you": "A robot played {cards} for you",
    "play.ev.chance_stand_in": "A robot chanced for {who} and turned up {card}",
    "play.ev.chance_stand_in_you": "A robot chanced for you and turned up {card}",
    "play.ev.pickup_stand_in": "A robot picked up {cards} for {who}",
    "play.ev.pickup_stand_in_you": "A robot picked up {cards} for you",
    "play.ev.won": Plural("{who} won the trick with {card} ({count} card)",
                          "{who} won the trick with {card} ({count} cards)"),
    "play.ev.aside": "{who} put the stock's last card aside unseen: it is the trump card",
    "play.ev.drop": "{who} had nothing to play and left the war",
    "play.ev.back": "The trick was not finished, and everyone took their cards back ({cards})",
    "play.ev.reveal": "{who} turned over the trump card: {card}, so {suit} are trumps!",
    "play.ev.reveal_unheld": (
        "The trump card was turned over: {card}, so {suit} are trumps. The card leaves the game."
    ),
    "play.ev.trump_known": "Trumps are {suit} ({card})",
    "play.ev.draw_trump": "{who} drew the face-up trump card {card}",
    "play.ev.shed": "Shedding (phase 2) begins.",
    "play.ev.clear": "The trick is complete and leaves the game ({count} cards)",
    "play.ev.out": "{who} went out, number {place}!",
    "play.ev.lose": "{who} is Mattis!",
    "play.ev.lose_you": "{who} are Mattis!",
    "play.ev.lose_blaa": "{who} has no cards after collecting and is {name}!",
    "play.ev.lose_blaa_you": "{who} have no cards after collecting and are {name}!",
    "play.ev.lose_blod": "{who} has an empty won pile after collecting and is {name}!",
    "play.ev.lose_blod_you": "{who} have an empty won pile after collecting and are {name}!",
    # announcements in the move log (frontend.story)
    "play.story.war.starts": "War! In the war: {names}. {how}",
    "play.story.war.goes_on": "Tied again, so the war goes on: {names}. {how}",
    "play.story.war.how.replay": (
        "They play one more card each, and the highest new card takes the whole trick."
    ),
    "play.story.war.how.two_cards": "They play two new cards each, and the better one counts.",
    "play.story.war.how.any_match": (
        "They play a battle card each from the hand, and the highest takes the whole trick."
    ),
    "play.story.war.ahead": "Ahead in the war: {who} with {card}.",
    "play.story.war.level": "Level in the war so far: {who} with {card}.",
    "play.story.lead.won": "Next to lead: {who} (won the last trick).",
    "play.story.lead.passed": (
        "Next to lead: {who} ({winner} won the trick but cannot lead: nothing left to play)."
    ),
    "play.story.lead.trump_card": "First to lead: {who} (holds the trump card).",
    "play.story.lead.last_card": "First to lead: {who} (drew the stock's last card).",
    "play.story.lead.next_in_turn": "First to lead: {who} (was next to lead a trick).",
    "play.story.lead.last_play": "Next to lead: {who} (made the last play).",
    "play.story.lead.after_out": "Next to lead: {who} ({out} made the last play but went out).",
    "play.story.lead.table_empty": "The table is empty: a new trick, led by {who}.",
    "play.story.still_in": "{count} players are still in.",
    "play.story.forced.empty": "{who} had no cards and had to pick up.",
    "play.story.forced.cannot_beat": "{who} could not beat {target} and had to pick up.",
    "play.story.phase_end.no_card": "Collecting is over: a player who had to play had nothing left to play.",
    "play.story.phase_end.one_left": "Collecting is over: fewer than two players have anything left to play.",
    "play.story.phase_end.stock_empty": "Collecting is over: the stock has run out.",
    "play.story.empty_must_pick_up": (
        "{who}: no cards after collecting, but still in – must pick up until holding cards again."
    ),
    # the table
    "play.phase.collect": "Collecting (phase 1)",
    "play.phase.shed": "Shedding (phase 2)",
    "play.phase.over": "The game is over",
    "play.status.stock": Plural("stock: {count} card", "stock: {count} cards"),
    "play.status.trick_size": "the trick is complete after {count} plays ({played} so far)",
    "play.status.trump_card": "trumps: {suit} ({card})",
    "play.status.trump": "trumps: {suit}",
    "play.status.trump_aside": "trumps: hidden (the trump card is put aside)",
    "play.status.trump_hidden": "trumps: hidden until shedding",
    "play.col.player": "Player",
    "play.col.hand": "Hand",
    "play.col.won": "Won",
    "play.col.cards": "Cards",
    "play.col.notes": "Notes",
    "play.col.mattis": "Times Mattis",
    "play.note.dealer": "dealer",
    "play.note.tie": "in the war",
    "play.note.trump_card": "holds the trump card (hidden)",
    "play.note.out": "out, number {place}",
    "play.note.mattis": "Mattis",
    "play.trick": "Trick:",
    "play.trick_empty": "no cards yet",
    "play.table": "Table (oldest first):",
    "play.table_empty": "empty",
    "play.your_hand": "Your hand:",
    "play.hand_of": "Hand of {who}:",
    "play.no_cards": "no cards",
    "play.moves": "Legal moves:",
    # what you can do now
    "play.advice.lead1": "You lead. Only the rank counts, and the highest card takes the trick.",
    "play.advice.lead1_pair": (
        "You lead against {who}. Only the rank counts, and the higher card takes the trick."
    ),
    "play.advice.beat1": "Highest so far: {card} ({who}). Only the rank counts.",
    "play.advice.beat1_tied": "Highest so far: {card}, tied by {who}. Only the rank counts.",
    "play.advice.tie_replay": (
        "War! In the war: {names}. Each plays one more card, and the highest new card takes the whole "
        "trick ({count} cards so far)."
    ),
    "play.advice.tie_two": (
        "War! In the war: {names}. Each plays two new cards, the better one counts, and the highest "
        "takes the whole trick ({count} cards so far)."
    ),
    "play.advice.tie_battle": (
        "War! In the war: {names}. Each plays a battle card from the hand, and the highest takes the "
        "whole trick ({count} cards so far)."
    ),
    "play.advice.lead2": "The table is empty: lead whatever you like.",
    "play.advice.empty_hand": "You have no cards.",
    "play.advice.must_pick_up": "You cannot beat {target}, so you must pick up {oldest}.",
    "play.advice.must_pick_up_follow": (
        "You cannot beat {target} in {suit} and must follow suit (no trumping), so you must pick up "
        "{oldest}."
    ),
    "play.advice.beat_or_pick_up_follow": (
        "Beat {target} with a higher card in {suit} (you hold {suit}, so you may not trump), or pick up "
        "{oldest}."
    ),
    "play.advice.must_beat": "Beat {target} (you must beat when you can).",
    "play.advice.beat_or_pick_up": (
        "Beat {target} with a higher card of its suit or a trump, or pick up {oldest}."
    ),
    # input problems
    "play.err.unknown": (
        "Unknown command or card: '{text}'. Type a card like 7h, a number from the list, or 'help'."
    ),
    "play.err.bad_rank": "'{text}' is not a card: there is no rank '{rank}' (2–10, J, Q, K, A).",
    "play.err.bad_suit": "'{text}' is not a card: there is no suit '{suit}' (c ♣, d ♦, h ♥, s ♠).",
    "play.err.bad_card": "'{text}' is not a card. Type the rank and then the suit, like 7h or 10s.",
    "play.err.bad_sequence": "'{text}' is not a sequence. Type the lowest and the highest card, like 6h-8h.",
    "play.err.sequence_suits": "'{text}': a sequence must be of one suit, like 6h-8h.",
    "play.err.number_range": "There is no move number {number}. Choose a number from 1 to {max}.",
    "play.err.not_a_move": (
        "'{text}' is not a move: type a card like 7h, a number from the list (1-{max}), or 'help'."
    ),
    "play.err.not_a_move_no_list": "'{text}' is not a move: type a card like 7h, or 'help'.",
    "play.err.no_list": "There are no moves to choose now.",
    "play.err.not_your_turn": "It is not your turn.",
    "play.err.illegal": "Not allowed: {reason}.",
    # why a move is not allowed (the English texts are the rules core's own words)
    # why a move is refused: one key per core reason code (mattis.core.errors.Reason)
    "play.why.game_over": "the game is over",
    "play.why.not_your_turn": "it is not your turn",
    "play.why.malformed": "'{text}' is not a move",
    "play.why.not_a_sequence": "'{text}' is not a sequence: write lowest-highest in one suit, like 6h-8h",
    "play.why.pickup_in_phase1": "picking up is only possible in phase 2 (utspilling)",
    "play.why.sequence_in_phase1": "sequences are only played in phase 2 (utspilling)",
    "play.why.chance_off": "chancing (sjansing) is not allowed in these rules",
    "play.why.chance_in_battle": "battle cards in a war must come from the hand: you cannot chance",
    "play.why.chance_last_card": "you cannot chance: the stock's last card is never chanced",
    "play.why.chance_in_phase2": "chancing (sjansing) is only possible in phase 1 (innsamling)",
    # Translators: count is how many cards {cards} names
    "play.why.not_in_hand": Plural("{cards} is not in your hand", "{cards} are not in your hand"),
    "play.why.nothing_to_pick_up": "nothing to pick up: the table is empty",
    "play.why.must_beat": (
        "picking up is not allowed while you can beat {target} (you must beat when you can)"
    ),
    "play.why.sequences_off": "sequences are not allowed in these rules",
    "play.why.sequence_too_short": "a sequence needs at least {length} cards in these rules",
    "play.why.must_pick_up": "you have no cards, so you must pick up",
    "play.why.must_follow_suit": "you must follow suit: you hold {suit}, so you may not trump {target}",
    "play.why.wrong_suit": "{play} does not beat {target}: play higher {suit} or trump, or pick up",
    "play.why.wrong_suit_trump": "{play} does not beat {target}: play higher {suit}, or pick up",
    "play.why.too_low": "{play} does not beat {target}: its lowest card must be higher than {card}",
    # hints
    "play.thinking": "The strong bot is thinking …",
    "play.hint": "Hint: {move} (number {number}) – {reason}.",
    "play.hint_safest": "Safest move: {move} (number {number}) – {reason}.",
    "play.hint.search": "in simulated games it kept you out of Mattis {safe} of the time",
    # why a bot (or the hint) chose its move (keys of mattis.bots.rule_based)
    "play.bot.forced": "the only legal move",
    "play.bot.random": "chosen at random",
    "play.bot.careless": "a hasty move",
    "play.bot.break_loop": "the same plays keep coming round, so it varies",
    "play.bot.chance_forced": "no cards in hand, so it chances the stock",
    "play.bot.chance_weak": "a weak hand: chances the stock instead",
    "play.bot.lead_low": "leads low ({move}), keeping the high cards",
    "play.bot.win_cheap": "the cheapest card that beats {rank}",
    "play.bot.win_cheap_plain": "the cheapest card that wins",
    "play.bot.sacrifice_low": "cannot win cheaply, so it gives up its lowest card",
    "play.bot.must_pick_up": "nothing beats {target}: picks up",
    "play.bot.cheapest_beat": "the cheapest play that beats {target}",
    "play.bot.pickup_cheaper": "only a trump beats {target}, and picking up {oldest} is cheaper",
    "play.bot.network": "the trained network rates {move} best",
    "play.bot_why": "  ({who}: {reason})",
    # help
    "play.help.title": "How to play",
    "play.help.card_cmd": "7h  10h  Th  K♠",
    "play.help.card": "play a card: rank then suit (c ♣ clubs, d ♦ diamonds, h ♥ hearts, s ♠ spades)",
    "play.help.sequence_cmd": "6h-8h",
    "play.help.sequence": "play a sequence, lowest and highest card (shedding only)",
    "play.help.number_cmd": "1  2  3 …",
    "play.help.number": "choose a move from the numbered list",
    "play.help.enter_cmd": "Enter",
    "play.help.enter": (
        "play the only legal move when there is just one; while the bots move: skip ahead to your turn"
    ),
    "play.help.chance_cmd": "chance",
    "play.help.chance": "play the top card of the stock unseen (collecting only)",
    "play.help.pickup_cmd": "pickup",
    "play.help.pickup": "take the oldest play on the table into your hand (shedding only)",
    "play.help.hint_cmd": "hint",
    "play.help.hint": "ask the strong bot what it would do",
    "play.help.rules_cmd": "rules",
    "play.help.rules": "show the rules of this game",
    "play.help.show_cmd": "show",
    "play.help.show": "show the table again",
    "play.help.help_cmd": "help",
    "play.help.help": "show this help",
    "play.help.quit_cmd": "quit",
    "play.help.quit": "stop; the game so far is saved (Ctrl-D does the same)",
    "play.help.game": (
        "Collecting: the highest rank takes the trick, suits do not count. Shedding: beat the newest "
        "play with a higher card of its suit or a trump, or pick up the oldest. The last player left "
        "with cards is Mattis. Norwegian words (sjanse, ta opp, hjelp) work too."
    ),
    "play.rules_title": "Rules: {preset}",
    "play.rules_title_house": "Rules: {preset} with house rules",
    "play.rules_more": (
        "The full rules: 'mattis rules --full --lang en'. The options: 'mattis rules {preset} --lang "
        "en'."
    ),
    # the game and the match
    "play.welcome": "Mattis · {rules} · {players} players",
    "play.house_rules": "house rules",
    "play.house_rules_of": "{preset} with house rules",
    "play.seating": "You sit in seat {seat}. Opponents: {others}.",
    "play.match_intro": (
        "You play {games} games. The loser deals the next game, and we count how often each player is "
        "Mattis."
    ),
    # Translators: percent is a whole number (51), games how many test games it was measured
    # over; name is Blåmattis or Blodmattis. Put the % as your language writes it.
    "play.empty_loss_warning": (
        "Note: with these rules and {players} players, {percent}% of {games} test games ended early "
        "in {name}, before the second half."
    ),
    "play.how_to": (
        "Type a card (like 7h), a number from the list, or 'help'. Type 'quit' whenever you like; the "
        "game is saved."
    ),
    "play.pace_note": "The bots move one at a time; press Enter to skip ahead to your turn.",
    "play.game_one": "New game",
    "play.game_n": "Game {number} of {games}",
    "play.dealer_is": "dealer: {who}",
    "play.saving_to": "The game is saved as you go in {path}",
    "play.prompt": "Your move: ",
    "play.prompt_forced": "Your move (Enter plays {move}, the only legal move): ",
    "play.auto_forced": "You have only one legal move, {move}, so it is played for you.",
    "play.legend_trump": "(underlined = trump)",
    "play.legend_trump_later": "(underlined = trump, which only counts in shedding)",
    "play.others_play_on": "… the others play on (showing only who goes out)",
    # Translators: count is how many players lost (who names them all); the _you twin is for
    # the reader alone
    "play.result": Plural("{who} is Mattis!", "{who} are Mattis!"),
    "play.result_you": "{who} are Mattis!",
    # Translators: count is how many players lost; name is Blåmattis or Blodmattis
    "play.result_empty": Plural("{who} is {name}: empty after collecting!",
                                "{who} are {name}: empty after collecting!"),
    "play.result_empty_you": "{who} are {name}: empty after collecting!",
    "play.out_order": "Went out: {order}",
    # Translators: the result in plain words; name is Mattis, Blåmattis or Blodmattis
    "play.fate_lost_you": "You lost – you are {name}",
    # Translators: said to someone without a seat; count is how many players lost
    "play.fate_lost": Plural("{who} lost and is {name}", "{who} lost and are {name}"),
    "play.fate_first_you": "You went out first",
    # Translators: place is the reader's place among those who went out, players how many played
    "play.fate_place_you": "You went out as number {place} of {players}",
    "play.you_lost": "You were Mattis this time. Better luck next time!",
    "play.you_escaped": "You got away: you are not Mattis!",
    "play.saved": "The game is saved in {path}",
    "play.save_failed": "Could not save the game in {path}: {error}",
    "play.replace_prompt": "{path} holds a saved game. Replace it? [y/N] ",
    "play.not_saved": "The game was NOT saved in {path}: {error}",
    "play.saved_again": "Saving works again: the game is saved in {path}",
    "play.stopped": "The game was stopped.",
    "play.score_after": "The score after {played} of {games} games",
    "play.score_final": "Final score after {games} games",
    "play.loser_deals": "The loser deals the next game: {who}.",
    "play.match_best": "Fewest times Mattis: {who} ({count}).",
    "play.next_game": "Press Enter for the next game (or type 'quit'): ",
    # replays
    "play.replay_title": "Replay · {rules} · {players} players · {actions} moves",
    "play.replay_seats": "Seats: {seats}",
    "play.replay_all": "Every hand is shown.",
    "play.replay_seat": "Seen from the seat of {who}.",
    "play.replay_yours": "Seen from your seat.",
    "play.replay_prompt": "Enter: next move · q: stop ",
    "play.replay_bad_level": (
        "The names in the file cannot be read (unknown bot level {level} at seat {seat}), so seats are "
        "shown by number."
    ),
    "play.replay_no_names": "The names in the file cannot be read, so seats are shown by number.",
    "play.replay_prompt_back": "Enter: next move · b: back · q: stop ",
    "play.replay_back": "Back to before move {number}.",
    "play.replay_at_start": "This is the start of the game.",
    "play.recent_title": "Recent games in {folder}",
    "play.recent_none": "No saved games in {folder} yet. Play one with 'mattis play'.",
    "play.recent_how": "Watch one again: 'mattis replay NUMBER' or 'mattis replay FILE'.",
    "play.recent_col.when": "Saved",
    "play.recent_col.rules": "Rules",
    "play.recent_col.result": "Result",
    "play.recent_col.file": "File",
    "play.recent_unreadable": "cannot be read",
    "play.replay_unfinished": "The game was not finished.",
    # a game reviewed (mattis review, and the browser's review screen)
    "play.review.played": "Move {number} (phase {phase}), played: {play}.",
    "play.review.better_play": "Playing {play} here would have lowered the risk from {risk} to {best_risk}.",
    "play.review.better_chance": "Chancing here would have lowered the risk from {risk} to {best_risk}.",
    "play.review.better_pickup": "Picking up here would have lowered the risk from {risk} to {best_risk}.",
    "play.review.method": (
        "Risk is the estimated chance of ending as Mattis{included}, from what the seat knew at "
        "each choice and nothing more: {iterations} random deals of the cards it could not see, "
        "in which every legal move is played out with everyone playing as the 'normal' bot "
        "would. Seed {seed}."
    ),
    "play.review.included": " ({name} included)",
    "play.review.unfinished": "The game was not finished: the moves up to then are judged.",
    "play.review.no_decisions": "The seat had no choices to make in this game.",
    "play.review.no_turning": "No move cost one percentage point or more: well played!",
    "play.review.forced": Plural(
        "{count} forced move (only one legal choice) is not judged.",
        "{count} forced moves (only one legal choice) are not judged.",
    ),
    "play.review.turning_title": "Turning points: the moves that cost most",
    "play.review.knew": "Known then: the hand {hand}{elsewhere}.",
    "play.review.knew_elsewhere": Plural("; {count} card in other hands known from the play",
                                         "; {count} cards in other hands known from the play"),
    "play.review.unseen": Plural("{unseen} unseen card was dealt at random {iterations} times.",
                                 "The {unseen} unseen cards were dealt at random {iterations} times.",
                                 count="unseen"),
    "play.review.all_known": "Every card's place was known.",
    "play.review.light": (
        "A lighter review: {iterations} deals a choice instead of {full}, so its figures are less sure."
    ),
    "play.review.may_be_chance": "{uncertainty}; the difference may be chance",
    "play.review.uncertainty": Plural("uncertainty ± {points} percentage point",
                                      "uncertainty ± {points} percentage points", count="points"),
}
