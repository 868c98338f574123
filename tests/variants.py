"""The rule sets every conformance and bot test runs over: the three presets and the
documented house-rule alternatives (rules section 4), with every allowed player count; and the
games over them that the rules, record and view tests share."""

from __future__ import annotations

import functools
import json
import random

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


DECK = [
    "Qs", "3d", "7c", "Kh", "2s", "9d", "Jc", "4h", "Ad", "6s", "Tc", "8h", "5d", "Js", "2c", "9h",
    "Kd", "3s", "7h", "Qc", "4d", "As", "8c", "6h", "Td", "5s", "Jh", "2d", "9s", "Kc", "3h", "7d",
    "Qh", "4c", "Ah", "8d", "6c", "Th", "5h", "Jd", "2h", "9c", "Ks", "3c", "7s", "Qd", "4s", "Ac",
    "8s", "6d", "Ts", "5c",
]


def quoted(code: str) -> str:
    """A card code as it appears inside JSON text."""
    return json.dumps(code)


def play_randomly(game: Game, rng: random.Random, steps: int | None = None) -> None:
    """``steps`` random legal moves (all of them to the end when ``None``), from ``rng``."""
    count = 0
    while not game.is_over and (steps is None or count < steps):
        game.apply(rng.choice(game.legal_actions()))
        count += 1


def some_games() -> list[Game]:
    """A few games of each preset at different points, a finished one and a puzzle among them."""
    games = []
    for preset, players, seed, steps in [("pagat", 3, 1, 30), ("kortregler", 2, 2, 70), ("app", 5, 3, None),
                                         ("pagat", 4, 4, 80)]:
        game = Game.new(preset, players=players, seed=seed)
        play_randomly(game, random.Random(seed), steps)
        games.append(game)
    puzzle = Game.from_hands("app", hands=[["4c", "5c", "Ad"], ["8c", "9c", "Kd"], ["2d", "6h"]],
                             trump="s", leader=0)
    puzzle.apply("4c")
    games.append(puzzle)
    return games


@functools.cache
def random_states(every: int = 7, seeds: int = 2) -> tuple[Game, ...]:
    """Copies of random games of every rule variant and player count, made once per process
    for every module that reads them (no test changes them)."""
    states = []
    for name, players in CONFIGS:
        for seed in range(seeds):
            game = Game.new(VARIANTS[name], players, seed=seed)
            rng = random.Random(seed)
            while not game.is_over and game.num_actions < 400:
                if game.num_actions % every == 0:
                    states.append(game.copy())
                game.apply(rng.choice(game.legal_actions()))
            states.append(game.copy())
    return tuple(states)
