"""Mattis as a pure-Python OpenSpiel game, ``python_mattis``, and an agent that searches it.

Importing this module registers the game::

    import pyspiel
    import mattis.envs.openspiel
    game = pyspiel.load_game("python_mattis(players=4,rules=app,min_sequence=3)")

Parameters: ``players`` (default 3), ``rules`` (a preset, default ``pagat``), ``max_actions``
(default 2,000) and every :class:`mattis.Rules` option. OpenSpiel fills every parameter
with its default, so an option's default means "the preset's value": text options default
to ``""``, number options to ``-1``, and yes/no options are numbers too, ``0`` or ``1``
(``follow_suit=1``), because OpenSpiel would read ``true`` as a typed boolean.

Chance: the shuffle is explicit. The first 52 moves of every game are chance nodes that
choose the deck order card by card, top first, each remaining card equally likely; the game
then deals from that order (``Game.new(..., deck=...)``), and every later draw takes the
next card of it, as at a real table. So the draws are decided by those chance nodes up
front, not by chance nodes of their own at the moment of drawing: a player's information
is unaffected (nobody sees the order), and it keeps the rules engine untouched.

Player actions are :attr:`mattis.Action.index` (366 distinct); chance outcomes are card
numbers 0-51. Rewards come at the end (:func:`~mattis.envs.encoding.terminal_rewards`), and
a game still running after ``max_actions`` player actions ends with all returns 0.

Observations are built from the seat's view only: the tensor is the vector of
:func:`~mattis.envs.encoding.encode_view` (the information-state tensor is the same vector,
which already sums up the public history), kept up to date per seat by a
:class:`~mattis.envs.encoding.SeatEncoder` fed only the events since that seat's last
tensor, so a tensor costs the same all game long; the observation string is the view
without its history, and the information-state string adds every public event so far (all
actions are public; a seat's private draws are not listed, so this is not strictly perfect
recall). With ``rules=mini`` (:mod:`mattis.core.mini`, two seats, seven cards) one chance move
picks the whole deal, the cap defaults to :data:`MINI_MAX_ACTIONS`, ``deals=N`` keeps the first
N deals, and the information-state string is perfect recall (:func:`perfect_recall_text`), so
CFR runs on it (``mattis solve``).

``resample_from_infostate`` draws a full position consistent with what the seat knows
(:func:`mattis.bots.sampling.sample_position`), so OpenSpiel's Python ISMCTS can search.
A resampled state continues from the sampled position, carrying the public events before
it; it clones, pickles and serializes like any state (OpenSpiel stores a Python state's
attributes), but its action history starts at the resample. OpenSpiel's C++ search bots
(``pyspiel.ISMCTSBot``, ``pyspiel.MCTSBot``) cannot run games written in Python: use
:class:`OpenSpielIsmctsAgent` or ``open_spiel.python.algorithms.ismcts.ISMCTSBot``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from ..extras import MissingExtra

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError as error:  # the rl extra is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error

from ..bots.ismcts import rollout_action
from ..bots.protocol import Decision, Limit
from ..bots.sampling import sample_position
from ..bots.view import PlayerView
from ..core.actions import ALL_ACTIONS, NUM_ACTIONS, Action
from ..core.cards import CARD_CODES, NUM_CARDS
from ..core.events import RawEvent, raw_to_json
from ..core.game import Game
from ..core.mini import MINI_NAME, MINI_PLAYERS, MINI_RULES, deal_count, new_mini_game
from ..core.observation import SeatView
from ..core.position import Position
from ..core.rules import Rules
from . import DEFAULT_MAX_ACTIONS, check_max_actions, check_players
from .encoding import LAYOUT, OBSERVATION_SIZE, Observation, SeatEncoder, terminal_rewards

GAME_NAME = "python_mattis"
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_PRESET_DEFAULT = ""
_NUMBER_DEFAULT = -1
MINI_MAX_ACTIONS = 6
"""Mini's default action cap (a capped game is a draw): chosen by measuring so that the game
tree stays small enough for CFR in minutes (``benchmarks/mini/README.md``)."""


def _option_defaults() -> dict[str, str | int]:
    """One parameter per Rules option, defaulting to "the preset's value"."""
    defaults: dict[str, str | int] = {}
    for field in fields(Rules):
        value = getattr(Rules(), field.name)
        defaults[field.name] = _PRESET_DEFAULT if isinstance(value, StrEnum) else _NUMBER_DEFAULT
    return defaults


_PARAMETERS: dict[str, str | int] = {
    "players": 3,
    "rules": "pagat",
    "max_actions": DEFAULT_MAX_ACTIONS,
    "deals": _NUMBER_DEFAULT,
    **_option_defaults(),
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Mattis",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


@dataclass(frozen=True, slots=True)
class _Config:
    """What every state of one game shares; immutable, so copies share it."""

    rules: Rules
    players: int
    max_actions: int
    mini: bool = False
    deals: int = 0
    """Mini Mattis (:mod:`mattis.core.mini`): one chance node picks the whole deal, and the
    information-state string is perfect recall."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self


def rules_from_parameters(params: dict[str, Any]) -> Rules:
    """The Rules that OpenSpiel parameters describe; a bad option raises ``ValueError``."""
    name = str(params.get("rules", "pagat"))
    rules = MINI_RULES if name.strip().lower() == MINI_NAME else Rules.preset(name)
    changes: dict[str, object] = {}
    for name, default in _option_defaults().items():
        value = params.get(name, default)
        if value == default:
            continue
        if isinstance(getattr(rules, name), bool):
            if value not in (0, 1):
                raise ValueError(f"{name}: give 0 or 1 (no or yes), got {value!r}")
            value = "true" if value else "false"
        changes[name] = value
    return rules.with_options(**changes) if changes else rules


def _mini_deals(mini: bool, deals: object) -> int:
    """How many of mini's deals the chance root offers: all by default; fewer (the first
    ``deals``) make a smaller game with the same rules, for quick tests of solvers."""
    if deals == _NUMBER_DEFAULT:
        return deal_count() if mini else 0
    if not mini:
        raise ValueError(f"deals: only rules=mini takes it, got {deals!r}")
    if not isinstance(deals, int) or isinstance(deals, bool) or not 1 <= deals <= deal_count():
        raise ValueError(f"deals: must be from 1 to {deal_count()}, got {deals!r}")
    return deals


class MattisGame(pyspiel.Game):
    """The OpenSpiel game object; its parameters are the rules, players and action cap."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_PARAMETERS, **(params or {})}
        rules = rules_from_parameters(merged)
        mini = str(merged["rules"]).strip().lower() == MINI_NAME
        if mini:  # two seats and a short cap unless asked otherwise
            if merged["players"] == _PARAMETERS["players"]:
                merged["players"] = MINI_PLAYERS
            if merged["max_actions"] == _PARAMETERS["max_actions"]:
                merged["max_actions"] = MINI_MAX_ACTIONS
        players = check_players(rules, merged["players"])
        max_actions = check_max_actions(merged["max_actions"])
        deals = _mini_deals(mini, merged["deals"])
        self.config = _Config(rules, players, max_actions, mini, deals)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=deals if mini else NUM_CARDS,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=(1 if mini else NUM_CARDS) + max_actions,
        )
        super().__init__(_GAME_TYPE, info, merged)

    def new_initial_state(self) -> MattisState:
        """A state before the shuffle: the next 52 moves are chance choosing the deck."""
        return MattisState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> MattisObserver:
        """The observer: information state with perfect recall, else the observation."""
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return MattisObserver(perfect_recall)


class _GameBox:
    """Holds the rules engine's game inside a state. OpenSpiel clones states with
    ``copy.deepcopy`` and pickles them: this copies with the cheap :meth:`Game.copy` and
    pickles as the game record (or, after a resample, the position and the actions since)."""

    __slots__ = ("game", "start")

    def __init__(self, game: Game, start: Position | None = None) -> None:
        self.game = game
        self.start = start

    def __deepcopy__(self, memo: dict[int, Any]) -> _GameBox:
        return _GameBox(self.game.copy(), self.start)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if self.start is None:
            return (_box_from_record, (self.game.record(),))
        return (_box_from_position, (self.start, [str(a) for a in self.game.actions]))


def _box_from_record(record: dict[str, Any]) -> _GameBox:
    return _GameBox(Game.from_record(record))


def _box_from_position(start: Position, actions: list[str]) -> _GameBox:
    game = Game.from_position(start)
    for action in actions:
        game.apply(action)
    return _GameBox(game, start)


@dataclass(frozen=True, slots=True)
class PublicHistory:
    """The public events before a resample, as ``(kind, seat, mask)`` events and as one
    line of text; immutable, so state copies share it."""

    events: tuple[RawEvent, ...] = ()
    text: str = ""

    def __deepcopy__(self, memo: dict[int, Any]) -> PublicHistory:
        return self

    def extended(self, events: Sequence[RawEvent]) -> PublicHistory:
        """This history followed by ``events``."""
        return PublicHistory((*self.events, *events),
                             public_history_text(self.text, [raw_to_json(raw) for raw in events]))


_NO_HISTORY = PublicHistory()


class _SeatEncoders:
    """The :class:`SeatEncoder` of each seat whose tensor a state was asked for, made on
    first use. A copy of a state starts with none: search clones states far more often
    than it reads their tensors, and a new encoder catches up with the whole history once."""

    __slots__ = ("by_seat",)

    def __init__(self) -> None:
        self.by_seat: dict[int, SeatEncoder] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _SeatEncoders:
        return _SeatEncoders()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_SeatEncoders, ())


class MattisState(pyspiel.State):
    """One state: 52 chance moves choose the deck, then the game runs on the rules engine."""

    def __init__(self, game: MattisGame) -> None:
        super().__init__(game)
        self.config: _Config = game.config
        self.deck: tuple[int, ...] = ()
        self.box: _GameBox | None = None
        self.history_before = _NO_HISTORY
        """Public events before a resample (none for a state dealt by chance)."""
        self.actions_before = 0
        """Player actions before a resample, for the action cap."""
        self.encoders: _SeatEncoders | None = None
        """Made when a tensor is first asked for: OpenSpiel makes a new initial state to
        learn the tensor's shape every time it is asked for one."""

    # -- OpenSpiel API

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` while the deck is chosen, ``TERMINAL`` at the end.
        (OpenSpiel asks several times a step, so this reads the game as little as it can.)"""
        if self.box is None:
            return _CHANCE
        game = self.box.game
        to_move = game.to_move
        if to_move is None or self.actions_before + game.num_actions >= self.config.max_actions:
            return _TERMINAL
        return to_move

    def _legal_actions(self, player: int) -> list[int]:
        if self.current_player() < 0:
            return []
        assert self.box is not None
        return sorted([action.index for action in self.box.game.legal_actions()])

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's ``legal_actions``, answered here for Python callers with the same
        result: OpenSpiel's own path goes through C++ and back into :meth:`_legal_actions`,
        which costs more than the engine's move generation. (C++ callers still take it.) Only
        the player to move is answered here; chance nodes, the end and other seats are left to
        OpenSpiel, which has its own rules for them."""
        current = self.current_player()
        if current < 0 or (player is not None and player != current):
            base: list[int] = super().legal_actions() if player is None else super().legal_actions(player)
            return base
        assert self.box is not None
        return sorted([action.index for action in self.box.game.legal_actions()])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card not yet placed in the deck, equally likely (mini: every deal)."""
        if self.config.mini:
            count = self.config.deals
            return [(deal, 1.0 / count) for deal in range(count)]
        placed = set(self.deck)
        remaining = [card for card in range(NUM_CARDS) if card not in placed]
        return [(card, 1.0 / len(remaining)) for card in remaining]

    def _apply_action(self, action: int) -> None:
        if self.box is None and self.config.mini:
            game = new_mini_game(int(action))
            self.box = _GameBox(game, game.position())
            return
        if self.box is None:
            self.deck = (*self.deck, int(action))
            if len(self.deck) == NUM_CARDS:
                self.box = _GameBox(Game.new(self.config.rules, self.config.players, deck=list(self.deck)))
            return
        self.box.game.apply(ALL_ACTIONS[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE and self.config.mini:
            return f"mini deal {action}"
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARD_CODES[action]}"
        return str(ALL_ACTIONS[action])

    def is_terminal(self) -> bool:
        """Whether the game is over or capped."""
        return self.current_player() == _TERMINAL

    def returns(self) -> list[float]:
        """−1 for Mattis, the others share +1; all 0 before the end or when capped."""
        if self.box is None or not self.box.game.is_over:
            return [0.0] * self.config.players
        result = self.box.game.result
        return list(terminal_rewards(result.losers if result else (), self.config.players))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MattisState:
        """A state ``player_id`` cannot tell from this one: the hidden cards placed anew,
        consistently with everything the seat has seen. ``probability_sampler()`` gives the
        randomness (a float in [0, 1), as OpenSpiel's samplers do)."""
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        return self.resampled(player_id, rng)

    def resampled(self, player_id: int, rng: random.Random) -> MattisState:
        """:meth:`resample_from_infostate` with a seeded generator (what our agent uses)."""
        state: MattisState = self.get_game().new_initial_state()
        if self.box is None:  # still shuffling: nobody has seen a card
            for _ in range(len(self.deck)):
                outcomes = [card for card, _ in state.chance_outcomes()]
                state.apply_action(outcomes[rng.randrange(len(outcomes))])
            return state
        public = self.box.game.seat_view(player_id)
        known = PlayerView.of(self._with_history_before(public))
        state.adopt(
            Game.from_position(sample_position(known, rng)),
            history_before=self.history_before.extended(public.events),
            actions_before=self.actions_before + self.box.game.num_actions,
        )
        return state

    def seat_view(self, player: int) -> dict[str, Any]:
        """``Game.view(player)`` with the public events from before a resample put back in
        front of its history: everything the seat knows, and nothing else."""
        assert self.box is not None
        return self._with_history_before(self.box.game.seat_view(player)).to_dict()

    def _with_history_before(self, public: SeatView) -> SeatView:
        """``public`` (a view with the whole history of the game in the box) with the events
        from before a resample in front."""
        before = self.history_before.events
        if not before:
            return public
        return public._replace(events=(*before, *public.events), event_count=len(before) + public.event_count)

    def observation_vector(self, player: int) -> Observation:
        """``player``'s observation now (the encoder's own vector: copy it to keep it)."""
        return self._encoder(player).vector

    def _encoder(self, player: int) -> SeatEncoder:
        """``player``'s encoder, brought up to date (made, from the whole history, if new)."""
        assert self.box is not None
        if self.encoders is None:
            self.encoders = _SeatEncoders()
        encoder = self.encoders.by_seat.get(player)
        if encoder is None:
            encoder = self.encoders.by_seat[player] = SeatEncoder(
                player, self.config.players, self.config.rules, before=self.history_before.events)
        encoder.update(self.box.game.seat_view(player, since=encoder.count))
        return encoder

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """OpenSpiel's ``observation_tensor``, answered here for Python callers: for a game
        written in Python, OpenSpiel's own path makes a new initial state to learn the
        tensor's size and copies the tensor piece by piece at every call, which costs more
        than the encoding. The values are the observer's (which C++ callers still use)."""
        if player is None:
            player = self.current_player()
        if not 0 <= player < self.config.players:
            raise pyspiel.SpielError(f"player: must be from 0 to {self.config.players - 1}, got {player}")
        if self.box is None:
            return [0.0] * OBSERVATION_SIZE
        return self._encoder(player).values[:]

    information_state_tensor = observation_tensor
    """The information-state tensor is the same vector (it sums up the public history)."""

    def adopt(self, game: Game, history_before: PublicHistory, actions_before: int) -> None:
        """Continue from ``game`` (a determinization) after the given public history."""
        self.deck = ()
        self.box = _GameBox(game, game.position())
        self.history_before = history_before
        self.actions_before = actions_before
        self.encoders = None

    def __str__(self) -> str:
        if self.box is None:
            return "deck so far: " + " ".join(CARD_CODES[card] for card in self.deck)
        game = self.box.game
        actions = " ".join(str(action) for action in game.actions)
        return f"{game!r}\nactions: {actions}"

    # -- helpers

    @property
    def mattis_game(self) -> Game | None:
        """The rules engine's game (``None`` while the deck is being chosen). Hidden cards
        included: for tests and analysis, never for a player."""
        return self.box.game if self.box is not None else None


def public_history_text(before: str, history: Sequence[dict[str, Any]]) -> str:
    """The public events as one line (``play 1 7h; won 1 7h 9h 2c; …``), after ``before``."""
    events = "; ".join(f"{event['event']} {event['seat']} {' '.join(event['cards'])}".rstrip()
                       for event in history)
    return f"{before}; {events}" if before and events else before or events


class MattisObserver:
    """Builds a seat's tensor and strings from the seat's view only (OpenSpiel's
    PyObserver interface: ``tensor``, ``dict``, ``set_from``, ``string_from``; C++ callers
    come this way, Python callers of the tensors through :class:`MattisState`)."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        start = 0
        for slot in LAYOUT:
            self.dict[slot.name] = self.tensor[start:start + slot.size]
            start += slot.size

    def set_from(self, state: MattisState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s encoded view (zeros during the shuffle)."""
        if state.mattis_game is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = state.observation_vector(player)

    def string_from(self, state: MattisState, player: int) -> str:
        """The view as canonical JSON, without history; with perfect recall, plus the public
        events so far."""
        game = state.mattis_game
        if game is None:
            return f"seat {player}; shuffling: {len(state.deck)} of {NUM_CARDS} cards placed"
        if self.perfect_recall and state.config.mini:
            return perfect_recall_text(state, player)
        view = game.view(player)
        history = view.pop("history")
        del view["history_start"], view["event_count"]  # they count from the resample
        text = json.dumps(view, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            text += "\n" + public_history_text(state.history_before.text, history)
        return text


def perfect_recall_text(state: MattisState, player: int) -> str:
    """Everything ``player`` has seen, in order: its dealt hand, then after each action the
    action, the events the seat saw and the seat's hand and known trump card. Two histories
    give one string exactly when the seat saw the same things (perfect recall). It replays the
    game from its start, so it costs the game's length: meant for mini's short games."""
    assert state.box is not None and state.box.start is not None
    replay = Game.from_position(state.box.start, check=False)
    parts = [f"seat {player}", _seen(replay, player, 0)]
    for action in state.box.game.actions:
        count = replay.num_events
        replay.apply(action)
        parts.append(f"{action}>{_seen(replay, player, count)}")
    return "; ".join(parts)


def _seen(game: Game, player: int, since: int) -> str:
    """The seat's new events since ``since``, its hand and its known trump card, as text."""
    view = game.seat_view(player, since=since)
    events = ",".join(f"{event[0].value} {event[1]} {event[2]:x}" for event in view.events)
    return f"[{events}] hand {view.hand:x} trump {view.trump_card}"


pyspiel.register_game(_GAME_TYPE, MattisGame)


DEFAULT_SIMULATIONS = 200
"""The OpenSpiel ISMCTS agent's default budget, in simulations per decision."""
ROLLOUT_KINDS = ("heuristic", "random")
"""How the agent values a new leaf: one playout by the engine's cheap rollout policy, or
OpenSpiel's ``RandomRolloutEvaluator``."""


class HeuristicRolloutEvaluator(mcts.Evaluator):
    """Values a state by one playout with the rollout policy of our ``hard`` bot
    (:func:`mattis.bots.ismcts.rollout_action`: cheapest plays in phase 2, random in phase
    1), run on a copy of the state's game. The state searched is always a determinization,
    so this sees nothing the searcher could not. Faster than stepping OpenSpiel states and
    better informed than random moves."""

    def __init__(self, rng: random.Random, noise: float = 0.1) -> None:
        self.rng = rng
        self.noise = noise

    def evaluate(self, state: MattisState) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The returns of one playout from ``state`` (0 for all if it hits the action cap)."""
        game = state.mattis_game
        players = state.config.players
        if game is None:
            return np.zeros(players)
        playout = game.copy()
        cap = state.config.max_actions - state.actions_before
        while not playout.is_over and playout.num_actions < cap:
            legal = playout.legal_actions()
            playout.apply_unchecked(rollout_action(playout, legal, self.rng, self.noise))
        result = playout.result
        return np.array(terminal_rewards(result.losers if result else (), players))

    def prior(self, state: MattisState) -> list[tuple[int, float]]:
        """Every legal action (or chance outcome) equally likely."""
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


class OpenSpielIsmctsAgent:
    """Our Agent protocol around OpenSpiel's Python ISMCTS (``ISMCTSBot``).

    It never sees the real game: from the seat's :class:`PlayerView` it draws one position
    consistent with the view (:func:`~mattis.bots.sampling.sample_position`), wraps it in an
    OpenSpiel state carrying the view's public history, and lets ISMCTS resample the hidden
    cards from that state for every simulation (so each search sees many deals). Leaves are
    valued by one playout of :class:`HeuristicRolloutEvaluator` (``rollouts="random"``: by
    OpenSpiel's random rollout instead). The budget is a number of simulations: ``limit.iterations``
    if given, else :data:`DEFAULT_SIMULATIONS` (a time limit is not supported, so results
    stay reproducible for a seed).
    """

    def __init__(
        self, simulations: int = DEFAULT_SIMULATIONS, uct_c: float = 2.0, rollouts: str = "heuristic"
    ) -> None:
        if simulations < 1:
            raise ValueError(f"simulations: must be at least 1, got {simulations}")
        if rollouts not in ROLLOUT_KINDS:
            raise ValueError(f"rollouts: expected one of {', '.join(ROLLOUT_KINDS)}, got {rollouts!r}")
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.name = f"openspiel-ismcts({simulations})"

    def choose(
        self,
        view: PlayerView,
        legal: Sequence[Action],
        rng: random.Random,
        limit: Limit | None = None,
    ) -> Decision:
        """Search from ``view`` and return the most visited action."""
        if len(legal) == 1:
            return Decision(legal[0], "the only legal move", reason="forced")
        simulations = limit.iterations if limit and limit.iterations else self.simulations
        game = load_game(view.public.rules, view.public.players)
        root: MattisState = game.new_initial_state()
        root.adopt(
            Game.from_position(sample_position(view, rng)),
            history_before=_NO_HISTORY.extended(view.memory.log[:view.memory.count]),
            actions_before=0,
        )
        numpy_rng = np.random.RandomState(rng.getrandbits(32))
        evaluator = (HeuristicRolloutEvaluator(rng) if self.rollouts == "heuristic"
                     else mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=numpy_rng))
        bot = ismcts.ISMCTSBot(
            game,
            evaluator=evaluator,
            uct_c=self.uct_c,
            max_simulations=simulations,
            random_state=numpy_rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        bot.set_resampler(lambda state, player: state.resampled(player, rng))
        policy = bot.get_policy(root)
        best = max(policy, key=lambda pair: (pair[1], -pair[0]))[0]
        action = ALL_ACTIONS[int(best)]
        if action not in legal:
            raise RuntimeError(f"OpenSpiel ISMCTS chose {action}, which is not legal here")
        return Decision(
            action,
            f"OpenSpiel ISMCTS: {simulations} simulations chose {action}",
            reason="openspiel_search",
            detail=(("simulations", str(simulations)), ("action", str(action))),
            iterations=simulations,
        )


def load_game(rules: Rules, players: int, max_actions: int = DEFAULT_MAX_ACTIONS) -> MattisGame:
    """The OpenSpiel game for ``rules`` (house rules included) and ``players``."""
    params: dict[str, Any] = {"players": players, "max_actions": max_actions,
                              "rules": rules.preset_name or "pagat"}
    if rules.preset_name is None:  # house rules: every option spelled out
        for name, value in rules.to_dict().items():
            params[name] = int(value) if isinstance(value, bool) else value
    game: MattisGame = pyspiel.load_game(GAME_NAME, params)
    return game
