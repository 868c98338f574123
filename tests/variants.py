"""The rule sets every conformance and bot test runs over: the three presets and the
documented house-rule alternatives (rules section 4), with every allowed player count."""

from __future__ import annotations

from mattis import Game, Rules

VARIANTS: dict[str, Rules] = {
    "pagat": Rules.preset("pagat"),
    "kortregler": Rules.preset("kortregler"),
    "app": Rules.preset("app"),
    "pagat+nothing_left=must_pick_up": Rules.preset("pagat").with_options(nothing_left="must_pick_up"),
    "pagat+min_sequence=3": Rules.preset("pagat").with_options(min_sequence=3),
    "kortregler+min_sequence=2": Rules.preset("kortregler").with_options(min_sequence=2),
    "app+phase1_end=stock_empty": Rules.preset("app").with_options(phase1_end="stock_empty"),
}
CONFIGS: list[tuple[str, int]] = [
    (name, players)
    for name, rules in VARIANTS.items()
    for players in range(rules.min_players, rules.max_players + 1)
]


def events(game: Game) -> list[tuple[str, int | None, int]]:
    """The public history as ``(kind, seat, card mask)`` triples, for compact assertions
    (``kind`` is an :class:`~mattis.EventKind`, which equals its string)."""
    return [(event.kind, event.seat, event.mask) for event in game.history]
