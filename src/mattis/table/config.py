"""How a table behaves, in one place: :class:`TableConfig` and its named profiles.

Every host reads its table settings from a profile here and nowhere else: the web server
(``mattis serve``'s defaults and ``/api/options`` start from ``server``), the offline app
(``device``, and the static export's ``/api/options`` answers), the terminal (``terminal``:
``mattis play``'s ``--pace`` and ``--hint-seconds`` start from it). So what a host tells
players (a bot's thinking time, the pause before its move) is what its bots play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..bots import EXPERT_SECONDS, LEARNED, MASTER, MASTER_SECONDS, Agent, available_levels, make_agent
from ..bots.entrants import LEARNED_PREFIX, is_checkpoint_level, make_entrant_agent
from ..bots.review import DEVICE_ITERATIONS, REVIEW_ITERATIONS
from .page import TABLE_PAGE

Profile = Literal["server", "device", "terminal"]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableConfig:
    """How a table behaves; the profiles suit people, the tests shorten the waits."""

    bot_delay: float = 0.8
    """Seconds from a bot's turn to its move, on top of its thinking time, so people can
    follow the play."""
    absence_timeout: float | None = 60.0
    """Seconds a person may be away before a bot plays their seat; ``None``: nobody stands
    in (on a device the only person is the one holding it)."""
    idle_pause: float = 120.0
    """Seconds with no person connected after which the table stops thinking (no bot or
    stand-in moves, no search is queued) until someone connects again."""
    hard_seconds: float = 1.0
    """Thinking time of a ``hard`` bot per move."""
    expert_seconds: float = EXPERT_SECONDS
    """Longest thinking time of an ``expert`` bot per move (it stops sooner at its
    iteration budget, :data:`mattis.bots.EXPERT_LIMIT`)."""
    master_seconds: float = MASTER_SECONDS
    """Longest thinking time of a ``master`` bot per move (it stops sooner once its choice
    is settled)."""
    hint_seconds: float = 0.5
    """Thinking time of the hint."""
    hint_cooldown: float = 2.0
    """Seconds between a seat's hints, on average (asking again at the same point of the
    game gets the same hint again at once, and costs nothing) ..."""
    hint_burst: int = 3
    """... and how many may come one right after the other (a person who asks at each turn
    of a quick round is not refused)."""
    invite_prefix: str | None = TABLE_PAGE
    """Where a friend opens the table (the prefix of its id); ``None`` where there is no
    invite (the offline app)."""
    reaction_interval: float = 3.0
    """Seconds after a reaction before the same seat may send the next one."""
    review_iterations: int = REVIEW_ITERATIONS
    """The budget of a finished game's review (:mod:`.review`): sampled deals per choice.
    The device's is smaller, and its page says so."""
    checkpoints: tuple[tuple[str, str], ...] = ()
    """Trained checkpoints this host may seat, as ``(level, path)``:
    ``("learned:mine", "/runs/mine.npz")`` (:func:`mattis.bots.entrants.checkpoint_levels`).
    Only the host's own command line fills it (``mattis play --bots learned:PATH``, ``mattis
    serve --allow-checkpoint PATH``): a request names the level, never a file."""
    host_levels: tuple[str, ...] = ()
    """Levels this host plays by its own means where this process could not: the offline
    app's ``master``, whose network runs in the worker's JavaScript (Pyodide has no numpy).
    The host runs their moves itself (:meth:`mattis.offline.DeviceHost.think`)."""

    def levels(self) -> tuple[str, ...]:
        """The bot levels a table here may seat: those that can play in this process, the
        host's own (:attr:`host_levels`), and the allowed checkpoints where the ``learned``
        level can play."""
        levels = available_levels()
        levels = (*levels, *(level for level in self.host_levels if level not in levels))
        if LEARNED not in levels:
            return levels
        return (*levels, *(level for level, _ in self.checkpoints))

    def make_agent(self, level: str) -> Agent:
        """A bot of ``level``: a level's agent, or an allowed checkpoint's network. A
        checkpoint level that is no longer allowed (a server restarted without it) plays as
        ``normal``, so a stored table goes on."""
        path = dict(self.checkpoints).get(level)
        if path is not None:
            return make_entrant_agent(f"{LEARNED_PREFIX}{path}")
        if is_checkpoint_level(level):
            return make_agent("normal")
        return make_agent(level)

    def thinking_seconds(self, level: str) -> float:
        """The thinking time of a bot of ``level`` per move (0 for the rule-based levels,
        which decide in a millisecond)."""
        if level == "hard":
            return self.hard_seconds
        if level == "expert":
            return self.expert_seconds
        if level == MASTER:
            return self.master_seconds
        return 0.0

    def move_seconds(self, level: str) -> float:
        """Seconds from a bot's turn to its move: the same for every move of ``level``,
        forced or chosen, so how long a bot takes shows nothing of its hand (a search that
        runs over only delays it)."""
        return self.bot_delay + self.thinking_seconds(level)


DEVICE_EXPERT_SECONDS = 2.0
"""Longest thinking time of an ``expert`` bot on a phone: Pyodide searches about five times
slower than a computer's Python, so the expert stops at this time, well before its iteration
budget; it keeps its informed rollouts and still thinks twice as long as ``hard``."""

DEVICE_MASTER_SECONDS = 2.0
"""Longest thinking time of a ``master`` bot on a phone: Pyodide searches about five times
slower than a computer's Python, so it thinks twice ``hard``'s second, as the expert does."""

TERMINAL_PACE = 0.5
"""Seconds between two bot moves at a terminal: time to read one line of the log (the
terminal holds a completed trick longer, and Enter skips the waiting)."""

TABLE_PROFILES: dict[Profile, TableConfig] = {
    "server": TableConfig(),
    "device": TableConfig(absence_timeout=None, expert_seconds=DEVICE_EXPERT_SECONDS,
                          master_seconds=DEVICE_MASTER_SECONDS, invite_prefix=None,
                          review_iterations=DEVICE_ITERATIONS),
    "terminal": TableConfig(bot_delay=TERMINAL_PACE, absence_timeout=None, hint_cooldown=0.0,
                            invite_prefix=None),
}
"""The tables of the web server, of the offline app on a device (a search a second for
``hard``, which finds most of its strength in its first few hundred iterations; no invite;
nobody to stand in for), and of the terminal (one person at the keyboard: nobody to stand
in for, no invite, a hint whenever asked; its bots move a pace apart, after any thinking)."""


def table_profile(name: Profile) -> TableConfig:
    """The settings of a named profile (``server``, ``device`` or ``terminal``)."""
    return TABLE_PROFILES[name]
