"""The rule options and presets in words (the English source): each option's name,
one-line description and values, and each preset's summary. An option's words are keyed by its
text key (``RuleOption.text`` in :mod:`mattis.core.rules`, so far always its field name, the name
``--set field=value`` uses): ``option.name.<key>``, ``option.description.<key>``,
``option.value.<key>.<value>`` for an enum, ``option.off.<key>`` (for 0) and the plural
``option.count.<key>`` for a number; a preset's summary is ``preset.summary.<name>``. What an
option accepts and its rule number live in the rules core.

Data only; :mod:`mattis.i18n` looks them up (:func:`~mattis.i18n.option_name` and the
rest), so a rule is called the same thing in the terminal, the web and ``mattis rules``.
"""

from __future__ import annotations

from .plural import Plural, Source

OPTION_MESSAGES: dict[str, Source] = {
    "option.name.min_players": "Fewest players",
    "option.name.max_players": "Most players",
    "option.name.removed_two_player": "Cards removed with two players",
    "option.name.trick": "Phase-1 trick",
    "option.name.chance": "Chancing (sjansing)",
    "option.name.draw": "Drawing",
    "option.name.tie": "Tie (krig)",
    "option.name.trump": "Trump",
    "option.name.phase1_end": "End of phase 1",
    "option.name.nothing_left": "Nothing left after phase 1",
    "option.name.nothing_left_counts": "What counts as nothing left",
    "option.name.min_sequence": "Shortest sequence (serie)",
    "option.name.voluntary_pickup": "Voluntary pick-up",
    "option.name.follow_suit": "Must follow suit",
    "option.description.min_players": "Smallest number of players",
    "option.description.max_players": "Largest number of players",
    "option.description.removed_two_player": "Cards put away unseen before a two-player deal",
    "option.description.trick": "Who plays to each trick",
    "option.description.chance": "Whether you may play the top card of the stock straight out",
    "option.description.draw": "When players draw from the stock",
    "option.description.tie": "What happens when the highest rank is tied",
    "option.description.trump": "How the trump card is chosen",
    "option.description.phase1_end": "When collecting ends",
    "option.description.nothing_left": "What happens to a player with no cards after phase 1",
    "option.description.nothing_left_counts": "Which cards count when looking for empty players",
    "option.description.min_sequence": "Fewest cards in a phase-2 sequence",
    "option.description.voluntary_pickup": "Whether you may pick up even when you could beat",
    "option.description.follow_suit": "Whether holding the led suit forbids trumping it",
    "option.value.trick.all": "everyone plays",
    "option.value.trick.pair": "leader against left neighbour",
    "option.value.draw.after_play": "draw after each card from hand",
    "option.value.draw.after_trick": "everyone draws up to 3 after the trick",
    "option.value.tie.replay": "tied players play one more card",
    "option.value.tie.two_cards": "war with two new cards each",
    "option.value.tie.any_match": "war on any matching rank",
    "option.value.trump.hidden_last": "last card of the stock, hidden",
    "option.value.trump.bottom_up": "bottom card, turned face up",
    "option.value.phase1_end.no_card": "when someone has nothing to play",
    "option.value.phase1_end.one_left": "when fewer than two can play",
    "option.value.phase1_end.stock_empty": "when the stock is empty",
    "option.value.nothing_left.lose": "loses at once",
    "option.value.nothing_left.must_pick_up": "must pick up",
    "option.value.nothing_left_counts.all_cards": "all cards (Blåmattis)",
    "option.value.nothing_left_counts.won_pile": "won pile only (Blodmattis)",
    "preset.summary.pagat": (
        "All play each trick, tied players replay, Blåmattis loses at once, sequences of 2+"
    ),
    "preset.summary.kortregler": (
        "2–6 players, tricks between leader and left neighbour, two-card war, forced beating"
    ),
    "preset.summary.app": "Trump turned up at the deal, war on any matching rank, Blodmattis, follow suit",
    "option.off.min_sequence": "off (no sequences)",
    "option.count.min_sequence": Plural("at least {count} card", "at least {count} cards"),
    "option.off.removed_two_player": "none",
    "option.count.removed_two_player": Plural("{count} card", "{count} cards"),
}
