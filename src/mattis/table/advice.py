"""What happens next, for everyone at the table who is not to move.

The player to move is told what they can do (:func:`mattis.frontend.table.turn_advice`, from
their own hand). Everyone else sees the same moment from outside: who plays, what they must
beat or may pick up, how long a war goes on, when the table clears. Only public facts go in
(rules section 5): whether the player to move *can* beat is their secret, so the sentence
names the choice, not the answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import parse_card, rank_of
from ..core.game import Game
from ..core.phase import Phase
from ..core.rules import TieMode, TrickMode
from ..frontend.cards import card_label, cards_label
from ..frontend.seats import Participant, join_names, seat_name
from ..i18n import Lang, t

_TIE_KEYS = {TieMode.REPLAY: "play.advice.tie_replay", TieMode.TWO_CARDS: "play.advice.tie_two",
             TieMode.ANY_MATCH: "play.advice.tie_battle"}


def watch_advice(game: Game, people: Sequence[Participant], lang: Lang) -> str:
    """One or two sentences on what the player to move faces, for a seat that waits."""
    mover = game.to_move
    if mover is None:
        return ""
    who = seat_name(people[mover], lang)  # never "you": the reader waits for someone else
    if game.phase == Phase.COLLECT:
        return _collect_advice(game, people, who, lang)
    plays = game.table
    if not plays:
        return t("web.advice.lead2", lang, who=who)
    target, oldest = cards_label(plays[-1][1]), cards_label(plays[0][1])
    key = "web.advice.beat2" if game.rules.voluntary_pickup else "web.advice.beat2_forced"
    left = game.trick_size - len(plays)
    clears = t("web.advice.clears", lang, count=left)
    return f"{t(key, lang, who=who, target=target, oldest=oldest)} {clears}"


def _collect_advice(game: Game, people: Sequence[Participant], who: str, lang: Lang) -> str:
    rules = game.rules
    tie = game.tie
    if tie:
        names = join_names([seat_name(people[s], lang, initial=False) for s in tie], lang)
        war = t(_TIE_KEYS[rules.tie], lang, names=names, count=len(game.table))
        return f"{war} {t('web.advice.next', lang, who=who)}"
    played = game.current_round
    if not played:
        due = game.due
        if rules.trick is TrickMode.PAIR and len(due) > 1:  # P1.2 pair: a duel
            other = seat_name(people[due[1]], lang, initial=False)
            return t("web.advice.lead1_pair", lang, who=who, other=other)
        return t("web.advice.lead1", lang, who=who)
    cards = [(seat, parse_card(code)) for seat, code in played]
    top = max(rank_of(card) for _, card in cards)
    best = max(card for _, card in cards if rank_of(card) == top)
    holders = [seat for seat, card in cards if rank_of(card) == top]
    names = join_names([seat_name(people[s], lang, initial=False) for s in holders], lang)
    key = "web.advice.beat1" if len(holders) == 1 else "web.advice.beat1_tied"
    return t(key, lang, card=card_label(best), holders=names, who=who)
