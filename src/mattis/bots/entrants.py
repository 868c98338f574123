"""Entrants: the one way a text names an agent, for every tool and front end.

An entrant is

- a bot level (``easy``, ``hard``, ``expert``, ``master`` …), a searching one with a budget
  of its own after a colon: ``hard:4000`` (iterations a move) or ``master:0.5s`` (seconds a
  move);
- ``learned:PATH.npz``: the ``learned`` network with a checkpoint of its own (made by
  ``mattis train``), so two checkpoints at one table are two entrants;
- ``module:callable``: a researcher's agent, imported by name (from the current directory or
  anything on ``sys.path``). ``callable`` (a dotted attribute path) may be

  * an :class:`~mattis.bots.Agent` (an object with ``name`` and ``choose``), used as it is;
  * a ``policy(view, legal) -> action``: two positional parameters, the seat's
    :class:`~mattis.bots.PlayerView` and the legal actions, answering one of them or its
    action index (as the Gymnasium environment's opponents do);
  * a zero-argument factory (a class or function) returning either of the above, called
    once per game, so an agent that keeps state between moves starts each game fresh.

:func:`parse_entrant` checks the spelling and gives the canonical name (levels in lower
case, paths and module names as given); :func:`check_entrant` loads what a name points to
once, so a missing file, a module that does not import or a callable of the wrong shape
ends a command before the first game; :func:`make_entrant_agent` makes a fresh agent for a
game. The tools add names of their own (``openspiel-ismcts``) through ``named``. Every
failure is an :class:`EntrantError`, whose ``key`` and ``values`` give the message in the
command line's catalogue (``cli.entrant.…``).
"""

from __future__ import annotations

import importlib
import inspect
import os
import random
import re
import sys
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.actions import ALL_ACTIONS, NUM_ACTIONS, Action
from ..extras import MissingExtra, install_command, installed, needs_extra
from .protocol import Agent, Decision, Limit
from .view import PlayerView

LEARNED_PREFIX = "learned:"
"""What starts a checkpoint entrant: ``learned:runs/mine.npz``."""
MAX_BUDGET_SECONDS = 3600.0
"""No move needs more thought than an hour; a larger figure is a typo."""
_BUDGET = re.compile(r"(?:(?P<iterations>[0-9]{1,9})|(?P<seconds>[0-9]{1,5}(?:\.[0-9]{1,6})?)s)", re.ASCII)
"""A budget after the colon: an iteration (simulation) count, or seconds ending in ``s``."""
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
"""A module name or an attribute path: identifiers joined by dots."""
SHOWN = 60
"""Most characters of a given name quoted back in a message ..."""
SHOWN_PATH = 240
"""... and of a file's path, which may be long and is no use cut."""


class EntrantError(ValueError):
    """A name that names no playable agent. ``str()`` is the English line (``"bots: …"``);
    ``key`` and ``values`` the same message in the command line's catalogue, so every
    command can say it in the person's language."""

    def __init__(self, message: str, key: str, **values: str) -> None:
        super().__init__(f"bots: {message}")
        self.key = key
        self.values = values


def shown(text: str, limit: int = SHOWN) -> str:
    """A given name, quoted, printable and short: it may come from a file or a pasted line."""
    printable = "".join(char for char in text if char.isprintable())[:limit]
    return repr(printable) if printable else "(empty)"


@dataclass(frozen=True, slots=True)
class EntrantSpec:
    """What a canonical entrant name asks for."""

    kind: str
    """A level, a name a tool added (``openspiel-ismcts``), ``learned`` (also with a
    :attr:`path`) or ``module`` (with a :attr:`target`)."""
    iterations: int | None = None
    seconds: float | None = None
    path: str | None = None
    """``learned:PATH``'s checkpoint file."""
    target: str | None = None
    """``module:callable``, as given."""

    @property
    def limit(self) -> Limit | None:
        """The entrant's own search budget, if it has one."""
        if self.iterations is None and self.seconds is None:
            return None
        return Limit(seconds=self.seconds, iterations=self.iterations)


def entrant_spec(name: str, named: Collection[str] = ()) -> EntrantSpec:
    """The parts of a name that :func:`parse_entrant` gave (a level or one of ``named`` with
    an optional budget, ``learned:PATH`` or ``module:callable``)."""
    from . import LEARNED, LEVELS  # the package's levels (this module is imported by it)

    kind, colon, rest = name.partition(":")
    if kind == LEARNED and colon:
        return EntrantSpec(LEARNED, path=rest)
    if kind not in LEVELS and kind not in named:
        return EntrantSpec("module", target=name)
    if not rest:
        return EntrantSpec(kind)
    if rest.endswith("s"):
        return EntrantSpec(kind, seconds=float(rest[:-1]))
    return EntrantSpec(kind, iterations=int(rest))


def parse_entrant(text: str, *, named: Collection[str] = (), searching: Collection[str] = ()) -> str:
    """The canonical name of an entrant typed as ``text`` (see the module docstring):
    a level or one of ``named`` in lower case with an optional budget (for the searching
    levels and ``searching``), ``learned:PATH`` or ``module:callable`` as given. Only the
    spelling is checked here; :func:`check_entrant` loads what the name points to.
    Otherwise :class:`EntrantError`."""
    from . import LEARNED, LEVELS, SEARCHING_LEVELS

    given = text.strip()
    head, colon, rest = given.partition(":")
    kind = head.strip().lower()
    known = (*LEVELS, *named)
    if kind == LEARNED and colon:
        path = rest.strip()
        if not path:
            raise EntrantError("learned: needs a checkpoint file after the colon (learned:FILE.npz)",
                               "cli.entrant.no_file", path="")
        return f"{LEARNED}:{path}"
    if kind not in known:
        module, attribute = head.strip(), rest.strip()
        if colon and _DOTTED.fullmatch(module) and _DOTTED.fullmatch(attribute):
            return f"{module}:{attribute}"
        choices = ", ".join(known)
        unknown = shown(head.strip() if colon else given)
        raise EntrantError(f"unknown level {unknown}; choose one of {choices}, "
                           "learned:FILE.npz or module:callable", "cli.entrant.unknown",
                           name=shown(given), levels=choices)
    if not colon:
        return kind
    budget = rest.strip()
    searches = (*SEARCHING_LEVELS, *searching)
    if kind not in searches:
        raise EntrantError(f"{kind} takes no budget (only {' and '.join(searches)} search), "
                           f"got {shown(budget)}",
                           "cli.entrant.no_budget", name=kind, budget=shown(budget),
                           searching=" / ".join(searches))
    match = _BUDGET.fullmatch(budget)
    if match is None:
        raise EntrantError(f"the budget after '{kind}:' must be a whole number of iterations or seconds "
                           f"ending in s (e.g. {kind}:4000 or {kind}:0.5s), got {shown(budget)}",
                           "cli.entrant.budget", name=kind, budget=shown(budget))
    if match["iterations"] is not None:
        iterations = int(match["iterations"])
        if iterations < 1:
            raise EntrantError(f"{kind} needs at least 1 iteration, got {iterations}",
                               "cli.entrant.budget", name=kind, budget=shown(budget))
        return f"{kind}:{iterations}"
    seconds = float(match["seconds"])
    if not 0 < seconds <= MAX_BUDGET_SECONDS:
        raise EntrantError(f"{kind} needs more than 0 and at most {MAX_BUDGET_SECONDS:g} seconds a move, "
                           f"got {shown(budget)}", "cli.entrant.budget", name=kind, budget=shown(budget))
    return f"{kind}:{seconds:g}s"


# ---------------------------------------------------------------------------- checkpoints at a table

_CHECKPOINT_LEVEL = re.compile(r"learned:[^\s:/\\]{1,40}")
"""A checkpoint's level at a table: ``learned:`` and a short name, never a path."""


def checkpoint_level(path: str) -> str:
    """The level under which a table seats the checkpoint at ``path``: ``learned:`` and the
    file's name without ``.npz`` (``learned:mine`` for ``runs/mine.npz``), readable for people
    and naming no folder of the machine it runs on."""
    name = "".join(char for char in Path(path).stem if char.isprintable() and not char.isspace())[:40]
    return f"{LEARNED_PREFIX}{name.replace(':', '-') or 'checkpoint'}"


def is_checkpoint_level(level: object) -> bool:
    """Whether ``level`` is a checkpoint's table level (:func:`checkpoint_level`)."""
    return isinstance(level, str) and _CHECKPOINT_LEVEL.fullmatch(level) is not None


def is_seat_level(level: object) -> bool:
    """Whether a saved seat's ``level`` is one a table can have seated: a bot level or a
    checkpoint's (:func:`checkpoint_level`)."""
    from . import LEVELS

    return isinstance(level, str) and (level in LEVELS or is_checkpoint_level(level))


def checkpoint_levels(paths: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """``(level, path)`` for each checkpoint a host may seat; :class:`EntrantError` if one
    cannot be played, ``ValueError`` if two would share a name."""
    levels: dict[str, str] = {}
    for path in paths:
        check_entrant(f"{LEARNED_PREFIX}{path}")
        level = checkpoint_level(path)
        if levels.get(level, path) != path:
            raise ValueError(f"two checkpoints named {level.removeprefix(LEARNED_PREFIX)!r}: "
                             f"{levels[level]!r} and {path!r}; rename one")
        levels[level] = path
    return tuple(levels.items())


# ---------------------------------------------------------------------------- loading


def check_entrant(name: str, named: Collection[str] = ()) -> None:
    """Load what the canonical ``name`` points to (a checkpoint, a module's callable) and
    make one agent of it, so that a bad one fails here, once, with an :class:`EntrantError`
    rather than in the middle of a tournament. Levels and ``named`` need no loading."""
    spec = entrant_spec(name, named)
    if spec.path is not None:
        checkpoint_policy(spec.path)
    elif spec.target is not None:
        _agent_of(spec.target, load_target(spec.target))
    elif spec.kind in ("learned", "master") and not installed("numpy"):
        raise EntrantError(needs_extra(f"the {spec.kind} bot", "rl"), "cli.entrant.extra", name=spec.kind,
                           command=install_command("rl"))


def make_entrant_agent(name: str, limit: Limit | None = None, *,
                       learned_checkpoint: str | None = None) -> Agent:
    """A fresh agent for the canonical entrant ``name`` (not a tool's own ``named`` kinds):
    a level (its own budget before ``limit``), a checkpoint, or a module's agent.
    ``learned_checkpoint`` is the file plain ``learned`` plays (``None``: the shipped one)."""
    from . import LEARNED, MASTER, make_agent

    spec = entrant_spec(name)
    if spec.target is not None:
        return _agent_of(spec.target, load_target(spec.target))
    if spec.path is not None or (spec.kind == LEARNED and learned_checkpoint is not None):
        from .learned import LearnedAgent  # numpy: checkpoint_policy has said so if it is missing

        return LearnedAgent(checkpoint_policy(spec.path or learned_checkpoint or ""))
    if spec.kind == LEARNED and not installed("numpy"):
        raise EntrantError(needs_extra("the learned bot", "rl"), "cli.entrant.extra", name=LEARNED,
                           command=install_command("rl"))
    if spec.kind in ("expert", MASTER):  # a tournament-wide budget is hard's; these keep their own
        return make_agent(spec.kind, spec.limit)
    return make_agent(spec.kind, spec.limit or limit)


@lru_cache(maxsize=16)
def checkpoint_policy(path: str) -> Any:
    """The :class:`~mattis.bots.learned.Policy` of a checkpoint file, read once per process
    (a tournament seats a fresh agent every game). :class:`EntrantError` if the file is
    missing or no playable checkpoint, or numpy is not installed."""
    where = shown(path, SHOWN_PATH)
    if not Path(path).is_file():
        raise EntrantError(f"no checkpoint file {where}", "cli.entrant.no_file", path=where)
    try:
        from .learned import CheckpointError, load_checkpoint
    except MissingExtra as error:
        raise EntrantError(str(error), "cli.entrant.extra", name=f"learned:{path}",
                           command=install_command("rl")) from None
    try:
        return load_checkpoint(path)
    except CheckpointError as error:
        raise EntrantError(f"{where} is not a playable checkpoint: {error}", "cli.entrant.checkpoint",
                           path=where, reason=str(error)) from None


def load_target(target: str) -> object:
    """The object ``module:attribute`` names, importing the module (from the current
    directory too, as ``python -m`` would). :class:`EntrantError` if it does not import
    (whatever the module raises) or has no such attribute."""
    module_name, _, attribute = target.partition(":")
    try:
        module = _import(module_name)
    except Exception as error:  # a researcher's module may raise anything while importing
        reason = f"{type(error).__name__}: {error}"
        raise EntrantError(f"cannot import {module_name} for {shown(target)}: {reason}", "cli.entrant.import",
                           module=module_name, name=shown(target), reason=reason) from None
    found: object = module
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise EntrantError(f"{module_name} has no {attribute}", "cli.entrant.attribute",
                               module=module_name, attribute=attribute) from None
    return found


def _import(module_name: str) -> object:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        here = os.getcwd()
        top = module_name.split(".")[0]
        if error.name != top or here in sys.path or "" in sys.path:
            raise
        sys.path.append(here)  # the researcher's own file, next to where the command runs
        return importlib.import_module(module_name)


def _agent_of(target: str, found: object, *, made: bool = False) -> Agent:
    """An agent from what ``module:callable`` names (see the module docstring)."""
    name = target.rpartition(":")[2]
    if not isinstance(found, type) and callable(getattr(found, "choose", None)):
        return found  # type: ignore[return-value]  # an Agent: anything with choose()
    if callable(found):
        required = _positional_parameters(found)
        if required == 0 and not made:
            return _agent_of(target, found(), made=True)
        if required == 2 and not isinstance(found, type):
            return PolicyAgent(name, found)
    raise EntrantError(f"{shown(target)} is neither an agent (an object with choose()), a "
                       "policy(view, legal) nor a factory with no arguments that makes one",
                       "cli.entrant.shape", name=shown(target))


def _positional_parameters(function: Callable[..., object]) -> int | None:
    """How many positional arguments ``function`` must be given (``None``: cannot tell)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for parameter in signature.parameters.values()
               if parameter.kind in kinds and parameter.default is inspect.Parameter.empty)


class PolicyAgent:
    """A ``policy(view, legal) -> action`` as an agent: it answers one of the legal actions
    or its index; anything else is the policy's bug, and says so."""

    def __init__(self, name: str, policy: Callable[[PlayerView, Sequence[Action]], object]) -> None:
        self.name = name
        self.policy = policy

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random,
               limit: Limit | None = None) -> Decision:
        chosen = self.policy(view, legal)
        if isinstance(chosen, int) and not isinstance(chosen, bool) and 0 <= chosen < NUM_ACTIONS:
            chosen = ALL_ACTIONS[chosen]
        if not isinstance(chosen, Action) or chosen not in legal:
            raise ValueError(f"policy {self.name} answered {chosen!r}, not a legal move")
        return Decision(chosen, f"{self.name} chose {chosen}", "policy")


__all__ = ["LEARNED_PREFIX", "EntrantError", "EntrantSpec", "PolicyAgent", "check_entrant",
           "checkpoint_level", "checkpoint_levels", "checkpoint_policy", "entrant_spec",
           "is_checkpoint_level", "is_seat_level", "load_target", "make_entrant_agent", "parse_entrant"]
