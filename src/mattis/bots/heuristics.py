"""Card sense shared by the rule-based bots and the search bot's rollouts.

Every function here works from the legal actions plus a few public facts (trump suit,
cards on the table), so the same judgement serves a bot reading its view and a rollout
running on a sampled game.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.actions import CHANCE, PICKUP, Action
from ..core.cards import SUIT_MASKS, rank_of
from ..core.events import EventKind

ACE = 12
PICKUP_MAX_RANK = 1
"""Pick up a single card this low (2 or 3) rather than spend a trump …"""
PICKUP_MIN_TRUMP = 6
"""… when the cheapest trump that would beat it is an 8 or higher."""


def plays_of(legal: Sequence[Action]) -> list[Action]:
    """The card plays among ``legal`` (no chance, no pick-up)."""
    return [action for action in legal if action is not CHANCE and action is not PICKUP]


def play_cost(play: Action, trump_suit: int | None) -> float:
    """How much a phase-2 play spends: high cards and trumps are worth keeping for beating
    later; every card shed is progress. Lower is cheaper."""
    value = 0.0
    for card in play.cards:
        rank = rank_of(card)
        value += rank + (14 if card // 13 == trump_suit else 0)
    return value / len(play.cards) - 1.5 * (len(play.cards) - 1)


def cheapest_play(plays: Sequence[Action], trump_suit: int | None) -> Action:
    """The play that spends least (see :func:`play_cost`); ties go to the lower card."""
    return min(plays, key=lambda play: (play_cost(play, trump_suit), play.low))


def lead_choice(plays: Sequence[Action], trump_suit: int | None, boss: int = 0) -> Action:
    """What to lead on an empty table: low and long, not trump, keeping boss cards
    (cards no one can beat in suit) for beating later."""
    def key(play: Action) -> tuple[float, int]:
        cost = play_cost(play, trump_suit)
        if play.mask & boss:
            cost += 6
        return (cost, play.low)

    return min(plays, key=key)


def should_pick_up(
    legal: Sequence[Action], target: Action, oldest: Action, *, trump_suit: int | None, hand: int
) -> bool:
    """Whether picking up beats spending a trump: only trumps beat ``target`` and the oldest
    play (what we would take) is cheap, or our trumps are too few to waste."""
    if PICKUP not in legal:
        return False
    plays = plays_of(legal)
    if not plays:
        return True
    if any(play.suit != trump_suit for play in plays):
        return False
    if target.suit == trump_suit:
        return False  # beating a trump with a higher trump is the only way to stay in
    lowest_trump = min(rank_of(play.low) for play in plays)
    oldest_cheap = len(oldest.cards) == 1 and rank_of(oldest.low) <= PICKUP_MAX_RANK
    return oldest_cheap and lowest_trump >= PICKUP_MIN_TRUMP


def phase1_choice(
    hand: int,
    legal: Sequence[Action],
    *,
    best_rank: int,
    last_to_play: bool,
    may_chance: bool,
) -> tuple[Action, str, str]:
    """A decent phase-1 play: win cheaply, keep high cards, sacrifice low ones, chance when
    the hand is weak. ``best_rank`` is the highest rank to beat in this round (-1 if none).
    Returns the action, a reason key and a short explanation."""
    cards = [action for action in legal if action is not CHANCE]
    if not cards:
        return CHANCE, "chance_forced", "nothing in hand: chance the stock"
    by_rank = sorted(cards, key=lambda action: (rank_of(action.low), action.low))
    lowest = by_rank[0]
    highest_rank = rank_of(by_rank[-1].low)
    winners = [action for action in by_rank if rank_of(action.low) > best_rank]
    if best_rank < 0:  # leading: sacrifice a low card, or chance with a weak hand
        if may_chance and highest_rank < 7:
            return CHANCE, "chance_weak", "weak hand: chance the stock"
        return lowest, "lead_low", f"lead low with {lowest}, keeping high cards"
    if winners and (last_to_play or rank_of(winners[0].low) >= 10):
        cheapest = winners[0]
        return (cheapest, "win_cheap",
                f"cheapest card that beats {RANK_WORDS[best_rank]}: {cheapest}")
    if not winners and may_chance and highest_rank < 8 and best_rank >= 9:
        return CHANCE, "chance_weak", "cannot win with this hand: chance the stock"
    return lowest, "sacrifice_low", f"cannot win cheaply: give up the lowest card {lowest}"


RANK_WORDS = tuple(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])


def is_looping(history: Sequence[tuple[EventKind, int | None, int]], window: int = 12,
               span: int = 120) -> bool:
    """Whether the last ``window`` phase-2 plays and pick-ups already happened, in the same
    order, within the last ``span`` events: deterministic play can cycle for ever (forced
    pick-ups hand the same cards round the table), and people would vary their play."""
    moves = [event for event in history[-span:]
             if event[0] is EventKind.PLAY or event[0] is EventKind.PICKUP]
    if len(moves) < 2 * window:
        return False
    tail = moves[-window:]
    return any(moves[start:start + window] == tail for start in range(len(moves) - 2 * window + 1))


def describe_target(play: Action) -> str:
    """A short text for a play on the table, e.g. ``9♥`` or ``6♥-8♥``."""
    symbols = "♣♦♥♠"
    def one(card: int) -> str:
        return f"{RANK_WORDS[rank_of(card)]}{symbols[card // 13]}"
    if len(play.cards) == 1:
        return one(play.low)
    return f"{one(play.low)}-{one(play.high)}"


def boss_cards(hand: int, unseen_or_opponent: int) -> int:
    """Cards in ``hand`` that no card in ``unseen_or_opponent`` beats within their suit."""
    boss = 0
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        if not mine:
            continue
        theirs = unseen_or_opponent & SUIT_MASKS[suit]
        top_theirs = theirs.bit_length() - 1 if theirs else -1
        remaining = mine
        while remaining:
            top = remaining.bit_length() - 1
            if top > top_theirs:
                boss |= 1 << top
                remaining ^= 1 << top
            else:
                break
    return boss
