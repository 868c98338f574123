"""The rule options and presets in words, in bokmål and English: each option's name,
one-line description and values, and each preset's summary. An option's words are kept under
its text key (``RuleOption.text`` in :mod:`mattis.core.rules`, so far always its field name,
the name ``--set field=value`` uses); what it accepts and its rule number live there too.

Data only; :mod:`mattis.i18n` looks them up (:func:`~mattis.i18n.option_name` and the
rest), so a rule is called the same thing in the terminal, the web and ``mattis rules``.
"""

from __future__ import annotations

OPTION_NAMES: dict[str, tuple[str, str]] = {
    "min_players": ("Færrest spillere", "Fewest players"),
    "max_players": ("Flest spillere", "Most players"),
    "removed_two_player": ("Kort lagt bort med to spillere", "Cards removed with two players"),
    "trick": ("Stikk i fase 1", "Phase-1 trick"),
    "chance": ("Sjansing", "Chancing (sjansing)"),
    "draw": ("Trekking", "Drawing"),
    "tie": ("Likt (krig)", "Tie (krig)"),
    "trump": ("Trumf", "Trump"),
    "phase1_end": ("Slutt på fase 1", "End of phase 1"),
    "nothing_left": ("Tom etter fase 1", "Nothing left after phase 1"),
    "nothing_left_counts": ("Hva som teller som tom", "What counts as nothing left"),
    "min_sequence": ("Korteste serie", "Shortest sequence (serie)"),
    "voluntary_pickup": ("Frivillig å ta opp", "Voluntary pick-up"),
    "follow_suit": ("Plikt til å følge sort", "Must follow suit"),
}

OPTION_DESCRIPTIONS: dict[str, tuple[str, str]] = {
    "min_players": ("Minste antall spillere", "Smallest number of players"),
    "max_players": ("Største antall spillere", "Largest number of players"),
    "removed_two_player": (
        "Kort som legges bort usett før utdeling når dere er to",
        "Cards put away unseen before a two-player deal",
    ),
    "trick": ("Hvem som spiller til hvert stikk", "Who plays to each trick"),
    "chance": (
        "Om du kan spille øverste kort i trekkbunken rett ut",
        "Whether you may play the top card of the stock straight out",
    ),
    "draw": ("Når dere trekker fra trekkbunken", "When players draw from the stock"),
    "tie": ("Hva som skjer når høyeste valør er lik", "What happens when the highest rank is tied"),
    "trump": ("Hvordan trumfkortet velges", "How the trump card is chosen"),
    "phase1_end": ("Når innsamlingen slutter", "When collecting ends"),
    "nothing_left": (
        "Hva som skjer med en spiller uten kort etter fase 1",
        "What happens to a player with no cards after phase 1",
    ),
    "nothing_left_counts": (
        "Hvilke kort som teller når dere ser etter tomme spillere",
        "Which cards count when looking for empty players",
    ),
    "min_sequence": ("Færrest kort i en serie i fase 2", "Fewest cards in a phase-2 sequence"),
    "voluntary_pickup": (
        "Om du kan ta opp selv om du kunne slått",
        "Whether you may pick up even when you could beat",
    ),
    "follow_suit": (
        "Om du må slå i sorten i stedet for å trumfe når du har sorten",
        "Whether holding the led suit forbids trumping it",
    ),
}

OPTION_VALUES: dict[str, dict[str, tuple[str, str]]] = {
    "trick": {
        "all": ("alle spiller", "everyone plays"),
        "pair": ("utspiller mot nabo til venstre", "leader against left neighbour"),
    },
    "draw": {
        "after_play": ("trekk etter hvert kort fra hånden", "draw after each card from hand"),
        "after_trick": ("alle trekker opp til 3 etter stikket", "everyone draws up to 3 after the trick"),
    },
    "tie": {
        "replay": ("de like spiller ett kort til", "tied players play one more card"),
        "two_cards": ("krig med to nye kort hver", "war with two new cards each"),
        "any_match": ("krig på alle like valører", "war on any matching rank"),
    },
    "trump": {
        "hidden_last": ("siste kort i trekkbunken, skjult", "last card of the stock, hidden"),
        "bottom_up": ("nederste kort, snudd opp", "bottom card, turned face up"),
    },
    "phase1_end": {
        "no_card": ("når noen ikke har noe å spille", "when someone has nothing to play"),
        "one_left": ("når færre enn to kan spille", "when fewer than two can play"),
        "stock_empty": ("når trekkbunken er tom", "when the stock is empty"),
    },
    "nothing_left": {
        "lose": ("taper med en gang", "loses at once"),
        "must_pick_up": ("må ta opp", "must pick up"),
    },
    "nothing_left_counts": {
        "all_cards": ("alle kort (Blåmattis)", "all cards (Blåmattis)"),
        "won_pile": ("bare stikkbunken (Blodmattis)", "won pile only (Blodmattis)"),
    },
}

PRESET_SUMMARIES: dict[str, tuple[str, str]] = {
    "pagat": (
        "Alle spiller til hvert stikk, de like spiller om igjen, Blåmattis taper straks, "
        "serier på 2 eller flere",
        "All play each trick, tied players replay, Blåmattis loses at once, sequences of 2+",
    ),
    "kortregler": (
        "2–6 spillere, stikk mellom utspiller og nabo, krig med to kort, "
        "du må slå når du kan",
        "2–6 players, tricks between leader and left neighbour, two-card war, forced beating",
    ),
    "app": (
        "Trumf snudd opp ved utdeling, krig på alle like valører, Blodmattis, følg sort",
        "Trump turned up at the deal, war on any matching rank, Blodmattis, follow suit",
    ),
}


NUMBER_VALUES: dict[str, dict[str, tuple[str, str]]] = {
    "min_sequence": {
        "off": ("av (ingen serier)", "off (no sequences)"),
        "some": ("minst {count} kort", "at least {count} cards"),
    },
    "removed_two_player": {
        "off": ("ingen", "none"),
        "one": ("1 kort", "1 card"),
        "some": ("{count} kort", "{count} cards"),
    },
}
"""The words for the number options: ``off`` for 0, ``one`` (where given) for 1, ``some`` for
any other count."""
