"""The rule-based levels: ``random``, ``easy`` and ``normal``.

They play the way people do: in phase 1 win tricks cheaply, keep high cards, sacrifice low
ones and chance with a weak hand; in phase 2 lead low and long, beat with the cheapest
winning play, save trumps and pick up when that costs less than a trump. ``normal`` also
tracks which cards have been seen, to keep cards nobody can beat for later.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.actions import CHANCE, PICKUP, Action
from ..core.cards import rank_of
from ..core.observation import SeatView
from ..core.phase import Phase
from .heuristics import (
    RANK_WORDS,
    boss_cards,
    cheapest_play,
    describe_target,
    is_looping,
    lead_choice,
    phase1_choice,
    plays_of,
    should_pick_up,
)
from .protocol import Decision, Limit
from .view import PlayerView


class RandomAgent:
    """Uniform over the legal actions: the baseline every other level must beat."""

    name = "random"

    def choose(
        self, view: PlayerView, legal: Sequence[Action], rng: random.Random, limit: Limit | None = None
    ) -> Decision:
        action = rng.choice(list(legal))
        return Decision(action, "random choice", "random")


class RuleBasedAgent:
    """``easy`` or ``normal``: the same judgement, with ``easy`` simpler and sometimes careless."""

    def __init__(self, level: str = "normal") -> None:
        if level not in ("easy", "normal"):
            raise ValueError(f"level: expected easy or normal, got {level!r}")
        self.name = level
        self.careless = 0.15 if level == "easy" else 0.0

    def choose(
        self, view: PlayerView, legal: Sequence[Action], rng: random.Random, limit: Limit | None = None
    ) -> Decision:
        if len(legal) == 1:
            return Decision(legal[0], "the only legal move", "forced")
        if view.public.phase == Phase.SHED and is_looping(view.memory.recent):
            return Decision(rng.choice(list(legal)), "the same plays keep coming round: vary",
                            "break_loop")
        if self.careless and rng.random() < self.careless:
            return Decision(rng.choice(list(legal)), "a hasty move", "careless")
        if view.public.phase == Phase.COLLECT:
            return self._phase1(view.public, legal)
        return self._phase2(view, legal)

    def _phase1(self, view: SeatView, legal: Sequence[Action]) -> Decision:
        me = view.seat
        rivals = view.tie if view.tie else tuple(s for s in range(view.players) if s != me)
        others_best = max((rank_of(c) for s, c in view.current_round if s != me and s in rivals),
                          default=-1)
        mine_best = max((rank_of(c) for s, c in view.current_round if s == me), default=-1)
        last = len(view.due) == 1
        if self.name == "easy":
            cards = sorted((a for a in legal if a is not CHANCE), key=lambda a: rank_of(a.low))
            if not cards:
                return Decision(CHANCE, "nothing in hand: chance the stock", "chance_forced")
            winners = [a for a in cards if rank_of(a.low) > others_best]
            if last and winners and mine_best <= others_best:
                return Decision(winners[0], f"cheapest card that beats {RANK_WORDS[others_best]}",
                                "win_cheap", (("rank", RANK_WORDS[others_best]),))
            return Decision(cards[0], f"play the lowest card {cards[0]}", "sacrifice_low")
        if mine_best > others_best >= 0:
            cards = sorted((a for a in legal if a is not CHANCE), key=lambda a: rank_of(a.low))
            if cards:
                return Decision(cards[0], "already winning this round: give the lowest card",
                                "sacrifice_low")
        action, reason, text = phase1_choice(view.hand, legal, best_rank=others_best, last_to_play=last,
                                             may_chance=CHANCE in legal)
        detail = (("rank", RANK_WORDS[others_best]),) if reason == "win_cheap" and others_best >= 0 else ()
        return Decision(action, text, reason, detail)

    def _phase2(self, view: PlayerView, legal: Sequence[Action]) -> Decision:
        public = view.public
        trump = public.trump_suit
        plays = plays_of(legal)
        if not public.plays:
            if self.name == "easy":
                single = min((p for p in plays if len(p.cards) == 1),
                             key=lambda p: (p.suit == trump, rank_of(p.low)))
                return Decision(single, f"lead the low card {single}", "lead_low")
            hidden = view.unseen
            for seat, known in enumerate(view.known_hands):
                if seat != public.seat:
                    hidden |= known
            boss = boss_cards(public.hand, hidden)
            play = lead_choice(plays, trump, boss)
            kind = "a sequence" if play.is_sequence else "a low card"
            return Decision(play, f"lead {kind}: {play}, saving high cards and trumps", "lead_low")
        target = public.plays[-1][1]
        oldest = public.plays[0][1]
        target_text = describe_target(target)
        if not plays:
            return Decision(PICKUP, f"nothing beats {target_text}: pick up", "must_pick_up",
                            (("target", target_text),))
        if self.name == "easy":
            play = min(plays, key=lambda p: (p.suit == trump, rank_of(p.low), -len(p.cards)))
            return Decision(play, f"cheapest card that beats {target_text}", "cheapest_beat",
                            (("target", target_text),))
        if should_pick_up(legal, target, oldest, trump_suit=trump, hand=public.hand):
            return Decision(PICKUP, f"only a trump beats {target_text}: picking up "
                            f"{describe_target(oldest)} is cheaper", "pickup_cheaper",
                            (("target", target_text), ("oldest", describe_target(oldest))))
        play = cheapest_play(plays, trump)
        if play.suit == trump and target.suit != trump:
            text = f"no {describe_target(target)[-1]} to beat it: lowest trump {play}"
        else:
            text = f"cheapest play that beats {target_text}: {play}"
        return Decision(play, text, "cheapest_beat", (("target", target_text),))
