"""Learn Mattis: the tutorial's scripted deals, checked move by move by the engine.

Each preset has its own lesson: two scenes, each an ordinary engine game. The first is a
real deal whose stock is cut short (the cards left out lie out of the game, as the two-player
game's removed cards do, C4), so phase 1 ends within a few tricks; the second is a small
phase-2 position (``Game.from_hands``, Decision 19 of the rules). A scene is a list of moves:
the robots' moves (seats 1 and 2) and the player's steps (seat 0), each step with the one
sentence it shows (a message key) and the move it waits for. Since every move, the robots'
too, is applied by the engine, the lesson cannot teach a rule the engine does not play:
``tests/test_frontend_tutorial.py`` walks every lesson and checks that each step shows what
its sentence says (a war really happens, a pick-up really is legal …).

:func:`lesson` turns a lesson into plain data for a page: for each step the player's view
(the seat view, nothing more), the sentence, the expected move and, for every move the page
offers there, the answer: ``ok``, the engine's own refusal in words
(:func:`~mattis.frontend.explain.explain_illegal`), or, for a legal move that is not this
step's lesson, a kind "allowed, but". The web server serves it as JSON and the offline app
keeps the same JSON, so the browser never needs the engine to follow a lesson.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from ..core.actions import CHANCE, PICKUP, Action
from ..core.cards import CARD_CODES, parse_card, rank_of, suit_of
from ..core.game import Game
from ..core.phase import Phase
from ..core.rules import PRESET_NAMES, Rules
from ..i18n import Lang, t
from .cards import action_label, card_label, sort_hand, suit_word
from .explain import explain_illegal
from .seats import BOT_NAMES

YOU: Final = 0
"""The learner's seat; the robots sit at 1 and 2."""


@dataclass(frozen=True, slots=True)
class Step:
    """One thing to learn: the sentence shown (``say``, a message key), the move the page
    waits for (``expect``, an action's text) and what the move shows (``teaches``: a topic,
    which the tests check against the game)."""

    say: str
    expect: str
    teaches: str


Move = Step | str
"""A scene's entry: the learner's step, or a robot's move (its text)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """A real deal (C3) of ``deck`` (top first, 52 cards) with the stock cut to its first
    ``stock`` cards plus its last one (the trump card); the rest leave the game unseen."""

    deck: str
    stock: int


@dataclass(frozen=True, slots=True)
class Hands:
    """A phase-2 position: the hands, the trump suit and who leads (``Game.from_hands``)."""

    hands: tuple[str, str, str]
    trump: str
    leader: int = 0


@dataclass(frozen=True, slots=True)
class Scene:
    """An engine game and the moves played in it, in order."""

    start: Deal | Hands
    moves: tuple[Move, ...]


def _deck(*hands_and_stock: str) -> str:
    """A full deck, top first, that deals ``hands`` (seat 0, 1, 2, three cards each, dealt
    one at a time from seat 0 as dealer 2 deals, C3), then the stock cards given, then every
    other card (which the cut stock leaves out), then the trump card given last."""
    *hands, stock, trump = hands_and_stock
    cards = [code.split() for code in hands]
    order = [cards[seat][index] for index in range(3) for seat in range(3)]
    order += stock.split()
    rest = [code for code in CARD_CODES if code not in order and code != trump]
    return " ".join([*order, *rest, trump])


def _seq(text: str) -> tuple[Move, ...]:
    return tuple(text.split())


# ---------------------------------------------------------------------------- the lessons

LESSONS: Final[dict[str, tuple[Scene, ...]]] = {  # every preset of PRESET_NAMES (a test checks it)
    "pagat": (
        Scene(
            Deal(_deck("Ah Ks 4d", "8s Kh 3h", "6c 5d 2s", "Qd 9c 7c Jd 5h 2c 8d 6s Tc Ac 3c", "Th"),
                 stock=11),
            (
                Step("learn.step.play", "Ah", "trick"),
                *_seq("8s 6c"),
                Step("learn.step.draw.after_play", "Ks", "draw"),
                *_seq("Kh 5d"),
                Step("learn.step.war.replay", "Qd", "war"),
                "3h",
                Step("learn.step.chance", "chance", "chance"),
                *_seq("9c 2c"),
                Step("learn.step.trump.hidden_last", "4d", "trump_aside"),
                *_seq("5h 7c 3c"),
                Step("learn.step.no_stock", "8d", "no_draw"),
                *_seq("Ac 6s 2s"),
                Step("learn.step.phase1_end.no_card", "Jd", "phase1_end"),
            ),
        ),
        Scene(
            Hands(("Qc 5s 6s 5h", "8c 9s 7s Kd", "Tc 3h 4h 8s"), trump="h", leader=1),
            (
                *_seq("8c Tc"),
                Step("learn.step.beat", "Qc", "beat"),
                Step("learn.step.sequence", "5s-6s", "sequence"),
                *_seq("9s 3h 4h"),
                Step("learn.step.pickup.voluntary", "pickup", "pickup"),
                *_seq("7s 8s"),
                Step("learn.step.out", "4h-5h", "out"),
            ),
        ),
    ),
    "kortregler": (
        Scene(
            Deal(_deck("Ah Kc Qd", "7s Kh 3h", "4s 5c 6d", "2c 9h 8d Js Tc 5h 4d Jh", "Th"), stock=8),
            (
                Step("learn.step.play.pair", "Ah", "trick"),
                "7s",
                Step("learn.step.draw.after_play", "Kc", "draw"),
                "Kh",
                Step("learn.step.war.two_cards", "Qd", "war"),
                "3h",
                Step("learn.step.war.second_card", "2c", "war_second"),
                "9h",
                Step("learn.step.trump.hidden_last", "4d", "trump_aside"),
                *_seq("5h Js 6d Jh 5c 4s"),
                Step("learn.step.phase1_end.one_left", "Tc", "phase1_end"),
            ),
        ),
        Scene(
            Hands(("Qc 5s 2h", "8c 9s 7s Kd", "Tc 3h 4h 8s"), trump="h", leader=1),
            (
                *_seq("8c Tc"),
                Step("learn.step.beat", "Qc", "beat"),
                Step("learn.step.sequence.off", "5s", "no_sequence"),
                *_seq("9s 3h 4h"),
                Step("learn.step.pickup.must_beat", "pickup", "pickup"),
                *_seq("7s 8s"),
                Step("learn.step.beat.trump", "2h", "beat_trump"),
                Step("learn.step.out.last_card", "4h", "out"),
            ),
        ),
    ),
    "app": (
        Scene(
            Deal(_deck("Ah Ks 4d", "8s Kh 3h", "6c 5d 2s", "Qd 9c 7c Jd 5h 2c Tc 8d", "Th"), stock=8),
            (
                Step("learn.step.trump.bottom_up", "Ah", "trick"),
                *_seq("8s 6c"),
                Step("learn.step.draw.after_trick", "Ks", "draw"),
                *_seq("Kh 5d"),
                Step("learn.step.war.any_match", "Qd", "war"),
                "3h",
                Step("learn.step.last_card.bottom_up", "Jd", "trump_drawn"),
                *_seq("9c 7c"),
                Step("learn.step.no_stock", "4d", "no_draw"),
                *_seq("2c 8d 2s"),
                Step("learn.step.phase1_end.no_card", "5h", "phase1_end"),
                "Tc",
            ),
        ),
        Scene(
            Hands(("Qc 5s 6s 5h", "8c 9s 7d Kd", "Tc 3h 4h 8d"), trump="h", leader=1),
            (
                *_seq("8c Tc"),
                Step("learn.step.beat.follow_suit", "Qc", "beat"),
                Step("learn.step.sequence", "5s-6s", "sequence"),
                *_seq("9s 3h 4h"),
                Step("learn.step.pickup.voluntary", "pickup", "pickup"),
                *_seq("7d 8d"),
                Step("learn.step.out", "4h-5h", "out"),
            ),
        ),
    ),
}


# ---------------------------------------------------------------------------- running them


def start_game(scene: Scene, preset: str) -> Game:
    """The engine game a scene starts from."""
    rules = Rules.preset(preset)
    if isinstance(scene.start, Hands):
        return Game.from_hands(rules, [hand.split() for hand in scene.start.hands],
                               trump=scene.start.trump, leader=scene.start.leader)
    dealt = Game.new(rules, 3, deck=scene.start.deck.split(), dealer=2)
    position = dealt.position()
    keep = position.stock[: scene.start.stock] + position.stock[-1:]
    left_out = 0
    for card in position.stock:
        if card not in keep:
            left_out |= 1 << card
    return Game.from_position(dataclasses.replace(position, stock=keep, removed=position.removed | left_out))


@dataclass(frozen=True, slots=True)
class Moment:
    """A step reached: its number (from 1, over the whole lesson), the step, the game just
    before the learner's move and the robots' moves since the last step."""

    number: int
    step: Step
    game: Game
    robots: tuple[tuple[int, str], ...]


def walk(preset: str) -> Iterator[Moment]:
    """Every step of ``preset``'s lesson with the game before it, playing the robots' moves
    and the expected moves with the engine (which raises if the script breaks a rule)."""
    number = 0
    for scene in LESSONS[preset]:
        game = start_game(scene, preset)
        robots: list[tuple[int, str]] = []
        for move in scene.moves:
            if isinstance(move, Step):
                if game.to_move != YOU:
                    raise ValueError(f"{preset} step {number + 1}: seat {game.to_move} is to move, not you")
                number += 1
                yield Moment(number, move, game.copy(), tuple(robots))
                game.apply(move.expect, YOU)
                robots = []
            else:
                seat = game.to_move
                if seat is None or seat == YOU:
                    raise ValueError(f"{preset}: robot move {move} when seat {seat} is to move")
                game.apply(move, seat)
                robots.append((seat, move))


# ---------------------------------------------------------------------------- for a page

ROBOT_NAMES: Final = BOT_NAMES[:2]
"""The robots' names (seats 1 and 2), as the tables name their first two bots."""


def offered_moves(game: Game) -> list[str]:
    """The moves a lesson's page offers at this point, whether legal or not: every card in
    the hand, every run of two or more cards of one suit in it (phase 2), ``chance`` in phase 1
    and ``pickup`` in phase 2. A page answers each from :func:`answer`, so a wrong one meets
    the engine's own refusal."""
    hand = sorted(parse_card(code) for code in game.hand(YOU))
    moves = [str(Action.single(card)) for card in hand]
    if game.phase == Phase.COLLECT:
        return [*moves, str(CHANCE)]
    for start, low in enumerate(hand):
        high_index = start
        while (high_index + 1 < len(hand) and suit_of(hand[high_index + 1]) == suit_of(low)
               and rank_of(hand[high_index + 1]) == rank_of(hand[high_index]) + 1):
            high_index += 1
            moves.append(str(Action.sequence(low, hand[high_index])))
    return [*moves, str(PICKUP)]


def answer(game: Game, step: Step, move: str, lang: Lang) -> tuple[bool, str]:
    """What the lesson says to ``move`` at ``step``: ``(True, "")`` for the expected move;
    otherwise ``False`` and why, in ``lang``: the engine's refusal in words, or, for a legal
    move that is not this step's lesson, that it is allowed but the step asks for another."""
    if move == step.expect:
        return True, ""
    refusal = game.check(move, YOU)
    if refusal is not None:
        return False, t("learn.wrong.refused", lang, why=explain_illegal(refusal, lang),
                        expect=_label(step.expect, lang))
    return False, t("learn.wrong.legal", lang, move=_label(move, lang), expect=_label(step.expect, lang))


def _label(move: str, lang: Lang) -> str:
    return action_label(Action.parse(move), lang)


def _newest(game: Game) -> str:
    """The play a step talks about: the newest play on the phase-2 table, or the highest
    card of the phase-1 trick."""
    view = game.view(YOU)
    if view["table"] and game.phase == Phase.SHED:
        return _label("-".join(view["table"][-1][1][:: max(1, len(view["table"][-1][1]) - 1)]), "en")
    cards = [card for _, card in game.current_round]
    return card_label(max(cards, key=lambda code: rank_of(parse_card(code)))) if cards else ""


def _trump_word(game: Game, lang: Lang) -> str:
    trump = game.trump
    return suit_word("cdhs".index(trump), lang) if trump else ""


def view_of(game: Game) -> dict[str, Any]:
    """What the page draws: the learner's seat view (never more), sorted for the hand."""
    view = game.view(YOU)
    phase = str(game.phase)
    return {
        "phase": phase,
        "to_move": view["to_move"],
        "hand": [CARD_CODES[card] for card in sort_hand(view["hand"], phase if phase != "over" else "shed",
                                                         view["trump"])],
        "hand_sizes": view["hand_sizes"],
        "won_sizes": view["won_sizes"],
        "stock": view["stock_size"],
        "trump": view["trump"],
        "trump_card": view["trump_card"],
        "trump_holder": view["trump_holder"],
        "tie": view["tie"],
        "table": view["table"],  # phase 1: the trick's cards, a war's included; phase 2: the plays
        "out_order": view["out_order"],
        "losers": view["losers"],
    }


def _robot_lines(robots: tuple[tuple[int, str], ...], lang: Lang) -> list[dict[str, Any]]:
    return [{"seat": seat, "move": move, "label": _label(move, lang)} for seat, move in robots]


def _names(lang: Lang) -> list[str]:
    return [t("learn.you", lang), *ROBOT_NAMES]


@functools.cache
def lesson(preset: str, lang: Lang) -> dict[str, Any]:
    """``preset``'s lesson as plain data for a page (``GET /api/learn/{preset}.{lang}.json``,
    and the same file in the offline app): every step's view, sentence, expected move and the
    answer to every move offered there, and each scene's end (the view after its last move
    and one sentence). Raises ``KeyError`` for a preset without a lesson."""
    if preset not in PRESET_NAMES:
        raise KeyError(preset)
    scenes = LESSONS[preset]
    steps: list[dict[str, Any]] = []
    ends: list[dict[str, Any]] = []
    moments = iter(walk(preset))
    for index, scene in enumerate(scenes):
        game = start_game(scene, preset)
        for _ in (move for move in scene.moves if isinstance(move, Step)):
            moment = next(moments)
            here = moment.game
            params = {"move": _label(moment.step.expect, lang), "target": _newest(here),
                      "trump": _trump_word(here, lang)}
            moves = []
            for move in offered_moves(here):
                ok, why = answer(here, moment.step, move, lang)
                moves.append({"action": move, "label": _label(move, lang), "ok": ok, "why": why})
            steps.append({
                "n": moment.number, "scene": index, "say": t(moment.step.say, lang, **params),
                "expect": moment.step.expect, "teaches": moment.step.teaches, "view": view_of(here),
                "robots": _robot_lines(moment.robots, lang), "moves": moves,
            })
        game, after = _scene_end(scene, preset)
        ends.append({"view": view_of(game), "robots": _robot_lines(after, lang),
                     "say": _outro(game, index == len(scenes) - 1, lang)})
    suits = {letter: suit_word(index, lang) for index, letter in enumerate("cdhs")}
    return {"preset": preset, "lang": lang, "names": _names(lang), "suits": suits, "steps": steps,
            "scenes": ends}


def _scene_end(scene: Scene, preset: str) -> tuple[Game, tuple[tuple[int, str], ...]]:
    """The game after a scene's last move, and the robots' moves after its last step."""
    game = start_game(scene, preset)
    after: list[tuple[int, str]] = []
    for move in scene.moves:
        seat = game.to_move
        game.apply(move.expect if isinstance(move, Step) else move, seat)
        after = [] if isinstance(move, Step) else [*after, (seat if seat is not None else -1, move)]
    return game, tuple(after)


def _outro(game: Game, last: bool, lang: Lang) -> str:
    if not last:
        return t("learn.outro.phase2", lang, trump=_trump_word(game, lang))
    names = _names(lang)
    return t("learn.outro.mattis", lang, loser=", ".join(names[seat] for seat in game.losers))
