"""Words every front end uses: yes and no, the language's own name, how it writes numbers, and
the cards in words. The English source; each language's words are in its catalogue under
``mattis/locale/`` (see :mod:`mattis.i18n`).

Data only, like every catalogue in this package: :func:`mattis.i18n.catalogues` gathers
them, so importing a catalogue changes nothing.
"""

from __future__ import annotations

from .plural import Source

BASE_MESSAGES: dict[str, Source] = {
    # Translators: the name of your language in your language, as the language switch shows it
    # (short: "Bokmål", "Nynorsk", "English")
    "language.name": "English",
    "yes": "yes",
    "no": "no",
    "error": "error",
    "players": "players",
    "house_rules": "house rules",
    # Translators: how your language writes numbers: the decimal mark, the thousands separator
    # (Norwegian: a no-break space) and a percentage (Norwegian: a no-break space before %)
    "format.decimal_mark": ".",
    "format.thousands_separator": ",",
    "format.percent": "{number}%",
    # the cards in words, as a screen reader and the rules page say them
    "card.rank.jack": "jack",
    "card.rank.queen": "queen",
    "card.rank.king": "king",
    "card.rank.ace": "ace",
    "card.suit.clubs": "clubs",
    "card.suit.diamonds": "diamonds",
    "card.suit.hearts": "hearts",
    "card.suit.spades": "spades",
    # Translators: a card in words: "ace of hearts", in Norwegian "hjerter ess"
    "card.name": "{rank} of {suit}",
}
