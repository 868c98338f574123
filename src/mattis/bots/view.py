"""What a bot knows: a typed, card-mask form of one seat's view, and nothing else.

:class:`PlayerView` is built from the JSON dict of ``Game.view(seat)`` alone, so an agent
holding one cannot reach the game. It also tracks cards the way an attentive player does
from the public history: cards each player is known to hold (picked up, taken back, the
revealed trump card, won piles that joined the hand), and the cards still unseen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.actions import Action
from ..core.cards import FULL_DECK_MASK, SUIT_MASKS, SUITS, mask_of, parse_card
from ..core.rules import Rules


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge at one moment. Card sets are 52-bit masks."""

    seat: int
    players: int
    rules: Rules
    phase: str
    to_move: int | None
    leader: int
    hand: int
    hand_sizes: tuple[int, ...]
    won_sizes: tuple[int, ...]
    stock_size: int
    removed_count: int
    trump_suit: int
    """-1 while unknown."""
    trump_card: int
    """-1 while its face is not public."""
    trump_holder: int
    last_drawer: int
    trick: tuple[tuple[int, int], ...]
    """Phase 1: the current trick's cards ``(seat, card)`` in play order."""
    table: tuple[tuple[int, Action], ...]
    """Phase 2: the plays on the table, oldest first."""
    tie: tuple[int, ...]
    due: tuple[int, ...]
    current_round: tuple[tuple[int, int], ...]
    trick_size: int
    out: tuple[bool, ...]
    history: tuple[tuple[str, int, int], ...]
    known_hands: tuple[int, ...]
    """Cards each seat is known to hold (the seat's own entry is its whole hand)."""
    known_won: tuple[int, ...]
    """Phase 1: the cards in each won pile (all were played face up)."""
    gone: int
    """Cards seen leaving the game (cleared phase-2 tricks)."""
    played_by: tuple[int, ...]
    """Cards each seat has been seen to play or chance in this game."""
    excluded: tuple[int, ...]
    """Cards each seat's unknown hand cards cannot be, as shown by its play: a forced
    pick-up (P2.4) shows it held nothing that beats; trumping under ``follow_suit`` (P2.5)
    shows a void. Phase-2 hands only lose unknown cards, so this stays true."""
    raw: dict[str, Any]

    @staticmethod
    def from_dict(view: dict[str, Any]) -> PlayerView:
        """Build from ``Game.view(seat)`` (or its JSON round trip)."""
        players = int(view["players"])
        seat = int(view["seat"])
        rules = Rules.from_dict(view["rules"])
        history = tuple(
            (str(event["event"]), int(event["seat"]), mask_of(parse_card(c) for c in event["cards"]))
            for event in view["history"]
        )
        trump_suit = SUITS.index(view["trump"]) if view["trump"] else -1
        known_hands, known_won, gone, played_by, excluded = _track(players, history, rules, trump_suit)
        hand = mask_of(parse_card(c) for c in view["hand"])
        known_hands[seat] = hand
        in_phase1 = view["phase"] == "collect"
        trick = tuple((int(s), parse_card(cards[0])) for s, cards in view["table"]) if in_phase1 else ()
        table = () if in_phase1 else tuple((int(s), _play_of(cards)) for s, cards in view["table"])
        return PlayerView(
            seat=seat,
            players=players,
            rules=rules,
            phase=str(view["phase"]),
            to_move=view["to_move"],
            leader=int(view["leader"]),
            hand=hand,
            hand_sizes=tuple(view["hand_sizes"]),
            won_sizes=tuple(view["won_sizes"]),
            stock_size=int(view["stock_size"]),
            removed_count=int(view["removed_count"]),
            trump_suit=trump_suit,
            trump_card=parse_card(view["trump_card"]) if view["trump_card"] else -1,
            trump_holder=-1 if view["trump_holder"] is None else int(view["trump_holder"]),
            last_drawer=-1 if view["last_drawer"] is None else int(view["last_drawer"]),
            trick=trick,
            table=table,
            tie=tuple(view["tie"]),
            due=tuple(view["due"]),
            current_round=tuple((int(s), parse_card(c)) for s, c in view["current_round"]),
            trick_size=int(view["trick_size"] or 0),
            out=tuple(s in view["out"] for s in range(players)),
            history=history,
            known_hands=tuple(known_hands),
            known_won=tuple(known_won),
            gone=gone,
            played_by=tuple(played_by),
            excluded=tuple(excluded),
            raw=view,
        )

    @property
    def in_play(self) -> int:
        """Cards face up right now (phase-1 trick or phase-2 table)."""
        mask = 0
        for _, card in self.trick:
            mask |= 1 << card
        for _, play in self.table:
            mask |= play.mask
        return mask

    @property
    def unseen(self) -> int:
        """Cards whose place this seat cannot know: other hands' hidden parts, the stock,
        the reserved trump card and removed cards."""
        known = self.in_play | self.gone
        for mask in self.known_hands:
            known |= mask
        for mask in self.known_won:
            known |= mask
        if self.trump_card >= 0 and self.phase == "collect":
            known |= 1 << self.trump_card  # face-up bottom card still in the stock
        return FULL_DECK_MASK & ~known

    @property
    def seen(self) -> int:
        """Cards this seat has seen: everything but :attr:`unseen`."""
        return FULL_DECK_MASK & ~self.unseen


def _play_of(cards: list[str]) -> Action:
    if len(cards) == 1:
        return Action.parse(cards[0])
    return Action.parse(f"{cards[0]}-{cards[-1]}")


def _track(
    players: int, history: tuple[tuple[str, int, int], ...], rules: Rules, trump_suit: int
) -> tuple[list[int], list[int], int, list[int], list[int]]:
    """Follow the public events as a player with a perfect memory would."""
    known_hands = [0] * players
    known_won = [0] * players
    played_by = [0] * players
    excluded = [0] * players
    trick_owner: dict[int, int] = {}
    table: list[int] = []  # phase-2 plays on the table, as masks, oldest first
    gone = 0
    phase1 = True
    for kind, seat, mask in history:
        if kind in ("play", "chance"):
            known_hands[seat] &= ~mask
            played_by[seat] |= mask
            if phase1:
                for card in _cards(mask):
                    trick_owner[card] = seat
            else:
                if table and rules.follow_suit:
                    excluded[seat] |= _void_shown(table[-1], mask, trump_suit)
                table.append(mask)
        elif kind == "won":
            known_won[seat] |= mask
            trick_owner.clear()
        elif kind == "back":  # P1.8: each card goes back to whoever played it
            for card in _cards(mask):
                owner = trick_owner.get(card)
                if owner is not None:
                    known_hands[owner] |= 1 << card
            trick_owner.clear()
        elif kind == "reveal":
            if seat >= 0:
                known_hands[seat] |= mask
            if mask:
                trump_suit = (mask.bit_length() - 1) // 13
        elif kind == "shed":  # P1.9: won piles join the hands
            phase1 = False
            table = []
            for s in range(players):
                known_hands[s] |= known_won[s]
                known_won[s] = 0
        elif kind == "draw_trump":
            known_hands[seat] |= mask
        elif kind == "pickup":
            if table and not rules.voluntary_pickup:
                excluded[seat] |= _beaters(table[-1], trump_suit, rules.follow_suit, excluded[seat])
            if table:
                del table[0]
            known_hands[seat] |= mask
        elif kind == "clear":
            gone |= mask
            table = []
    return known_hands, known_won, gone, played_by, excluded


def _suit_above(target: int) -> int:
    """Cards of ``target``'s suit above its highest card."""
    high = target.bit_length() - 1
    return SUIT_MASKS[high // 13] & ~((2 << high) - 1)


def _void_shown(target: int, play: int, trump_suit: int) -> int:
    """Under ``follow_suit``, trumping a non-trump play shows a void in its suit."""
    target_suit = (target.bit_length() - 1) // 13
    play_suit = (play.bit_length() - 1) // 13
    if trump_suit >= 0 and play_suit == trump_suit and target_suit != trump_suit:
        return SUIT_MASKS[target_suit]
    return 0


def _beaters(target: int, trump_suit: int, follow_suit: bool, excluded: int) -> int:
    """Cards a player forced to pick up cannot have held: anything that beats ``target``."""
    cannot = _suit_above(target)
    target_suit = (target.bit_length() - 1) // 13
    if trump_suit >= 0 and target_suit != trump_suit:
        void_in_suit = excluded & SUIT_MASKS[target_suit] == SUIT_MASKS[target_suit]
        if not follow_suit or void_in_suit:
            cannot |= SUIT_MASKS[trump_suit]
    return cannot


def _cards(mask: int) -> list[int]:
    result = []
    while mask:
        low = mask & -mask
        result.append(low.bit_length() - 1)
        mask ^= low
    return result
