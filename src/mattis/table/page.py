"""What the table page is told beyond the view, so that the page draws and does not think.

The page shows a hand in the order players hold it, offers the plays each card starts, lights
up the cards of a war and the card that took a trick, and names the preset a table's rules
are closest to. Each of these follows from the rules, so it is worked out here, in Python,
once, and sent to the page with the state message and the table's summary (``docs/web.md``);
the page only looks the answers up. :data:`TABLE_PAGE`, the table page's address, lives here
too: the server's routes, the invite links, the offline app and the pages all read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.actions import Action
from ..core.cards import CARD_CODES, parse_card, rank_of
from ..core.game import Game
from ..core.phase import Phase
from ..core.rules import PRESETS, RULE_OPTIONS, Rules, TieMode
from ..frontend.cards import sort_actions, sort_hand

TABLE_PAGE = "/t/"
"""The table page's path: a table's page is ``TABLE_PAGE + table id``; ``TABLE_PAGE`` alone is
the page the offline app keeps for every table."""


def add_page_facts(message: dict[str, Any], game: Game | None, legal: Sequence[Action]) -> dict[str, Any]:
    """Add to a ``state`` message what the page would otherwise work out from the rules:
    ``sorted_hand``, ``card_actions`` and ``tied`` (and ``result.sorted_hands`` once the game
    is over). ``legal`` is what the message's seat may play now. Returns ``message``."""
    view = message["view"]
    if game is None or view is None:
        message.update(sorted_hand=[], card_actions={}, tied=[])
        return message
    trump = view["trump"]
    message["sorted_hand"] = codes(sort_hand(view["hand"], view["phase"], trump))
    message["card_actions"] = card_actions(sort_actions(legal, game.phase, game.trump))
    message["tied"] = tied_cards(view["trick"], view["current_round"], view["tie"],
                                 two_cards=game.rules.tie is TieMode.TWO_CARDS)
    result = message.get("result")
    if result is not None:  # public once the game is over, grouped by suit as in phase 2
        result["sorted_hands"] = [codes(sort_hand(hand, Phase.SHED, trump)) for hand in result["hands"]]
    return message


def codes(cards: Sequence[int]) -> list[str]:
    return [CARD_CODES[card] for card in cards]


def card_actions(legal: Sequence[Action]) -> dict[str, list[str]]:
    """Each card that some legal play includes, with those plays in ``legal``'s order: a card
    alone, and every sequence (P2.2) it is part of. A card not listed may not be played now."""
    plays: dict[str, list[str]] = {}
    for action in legal:
        for card in action.cards:
            plays.setdefault(CARD_CODES[card], []).append(str(action))
    return plays


def tied_cards(trick: Sequence[Sequence[Any]], current_round: Sequence[Sequence[Any]],
               tie: Sequence[int], *, two_cards: bool) -> list[str]:
    """Phase 1 in a war (P1.5): the cards that tied, in play order. Each seat in the war tied
    with its best card of the last round that ended level: its latest card before the round
    now being played, or under ``two_cards`` the better of its latest two (a first round is
    one card each, a war round two). ``trick`` and ``current_round`` are the view's
    ``[seat, code]`` lists."""
    if not tie:
        return []
    now = {code for _, code in current_round}
    tied: set[str] = set()
    for seat in tie:
        earlier = [code for who, code in trick if who == seat and code not in now]
        recent = earlier[-2:] if two_cards else earlier[-1:]
        if recent:
            top = max(rank_of(parse_card(code)) for code in recent)
            tied.update(code for code in recent if rank_of(parse_card(code)) == top)
    return [code for _, code in trick if code in tied]


def rules_facts(rules: Rules) -> dict[str, Any]:
    """For the invite page: ``base_preset``, the preset these rules equal or are closest to
    (the fewest options changed; the first in :data:`PRESETS` order on a tie), and
    ``house_rules``, the options a player chooses (``/api/options``) whose value differs from
    it, in that order."""
    base = min(PRESETS, key=lambda name: len(rules.differences(PRESETS[name])))
    differ = rules.differences(PRESETS[base])
    chosen = [name for name, option in RULE_OPTIONS.items() if option.in_play and name in differ]
    return {"base_preset": base, "house_rules": chosen}
