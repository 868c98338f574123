"""Exact game theory on Mini Mattis (:mod:`mattis.core.mini`): CFR+ from OpenSpiel, NashConv
over its iterations, and the exploitability of each of our bot levels.

Needs the ``rl`` extra (OpenSpiel). A level's policy is built state by state from the level
itself: for every information state of mini, the agent sees the seat's view (as it would at
a table) and its choice becomes that state's action; ``random`` is the uniform policy, and a
searching level (``hard:N``) searches with a generator seeded from the information state, so
its policy is a fixed function of what the seat knows. ``exploitability.nash_conv`` then says
how much a best-responding opponent gains against it.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..extras import MissingExtra

try:
    import pyspiel
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import cfr, exploitability
except ImportError as error:  # the rl extra is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error

from ..bots import make_agent, parse_level
from ..bots.protocol import Limit
from ..bots.runner import seat_view
from ..core.mini import MINI_NAME
from .openspiel import MINI_MAX_ACTIONS, MattisState

DEFAULT_LEVELS = ("random", "easy", "normal", "hard:20")
"""The levels measured by default; ``learned`` is not among them: its network was trained on
the full deck at three seats, not on mini."""


@dataclass(frozen=True, slots=True)
class SolveReport:
    """NashConv of CFR+'s average policy after each iteration, and each level's NashConv."""

    max_actions: int
    info_states: int
    curve: tuple[tuple[int, float], ...]
    levels: tuple[tuple[str, float], ...]
    seconds: float
    cpu_seconds: float
    level_seconds: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "rules": MINI_NAME, "players": 2, "max_actions": self.max_actions, "solver": "cfr+",
            "info_states": self.info_states,
            "nash_conv": [{"iteration": i, "nash_conv": value} for i, value in self.curve],
            "levels": [{"level": name, "nash_conv": value} for name, value in self.levels],
            "seconds": round(self.seconds, 2), "cpu_seconds": round(self.cpu_seconds, 2),
        }


def mini_game(max_actions: int = MINI_MAX_ACTIONS, deals: int | None = None) -> pyspiel.Game:
    """OpenSpiel's mini game with the given action cap (and only its first ``deals`` deals)."""
    some = f",deals={deals}" if deals is not None else ""
    return pyspiel.load_game(f"python_mattis(rules={MINI_NAME},max_actions={max_actions}{some})")


def parse_levels(text: str) -> list[str]:
    """``"random,hard:50"`` as ``["random", "hard:50"]``; ``hard:N`` keeps its iterations."""
    levels = []
    for item in text.split(","):
        name, _, budget = item.strip().lower().partition(":")
        key = parse_level(name)
        if budget:
            if key != "hard" or not budget.isdigit() or int(budget) < 1:
                raise ValueError(f"levels: only hard takes iterations (hard:50), got {item.strip()!r}")
            levels.append(f"hard:{int(budget)}")
        else:
            levels.append(key)
    return levels


def level_policy(game: pyspiel.Game, level: str, states: policy_lib.TabularPolicy | None = None
                 ) -> policy_lib.TabularPolicy:
    """``level``'s policy on every information state of ``game`` (see the module docstring)."""
    table = states or policy_lib.TabularPolicy(game)
    table = table.__copy__(copy_action_probability_array=True)
    name, _, budget = level.partition(":")
    if name == "random":
        return table  # TabularPolicy starts uniform over the legal actions
    limit = Limit(iterations=int(budget)) if budget else None
    agent = make_agent(name, limit)
    for key, index in table.state_lookup.items():
        state: MattisState = table.states[index]
        game_now = state.mattis_game
        assert game_now is not None and game_now.to_move is not None
        legal = game_now.legal_actions()
        rng = random.Random(zlib.crc32(key.encode()))
        action = agent.choose(seat_view(game_now, game_now.to_move), legal, rng, limit).action
        row = table.action_probability_array[index]
        row[:] = 0.0
        row[action.index] = 1.0
    return table


def solve_mini(
    iterations: int,
    *,
    levels: Sequence[str] = DEFAULT_LEVELS,
    max_actions: int = MINI_MAX_ACTIONS,
    progress: Callable[[int, int], None] | None = None,
    deals: int | None = None,
) -> SolveReport:
    """Run CFR+ for ``iterations`` and measure NashConv after each, then each level's."""
    started, cpu = time.perf_counter(), time.process_time()
    game = mini_game(max_actions, deals)
    solver = cfr.CFRPlusSolver(game)
    total = iterations + len(levels)
    curve = []
    for done in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        curve.append((done, float(exploitability.nash_conv(game, solver.average_policy()))))
        if progress:
            progress(done, total)
    states = policy_lib.TabularPolicy(game)
    measured = []
    for done, level in enumerate(levels, start=iterations + 1):
        measured.append((level, float(exploitability.nash_conv(game, level_policy(game, level, states)))))
        if progress:
            progress(done, total)
    return SolveReport(max_actions, len(states.state_lookup), tuple(curve), tuple(measured),
                       time.perf_counter() - started, time.process_time() - cpu)
