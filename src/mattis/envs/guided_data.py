"""Search data for the ``master`` network: games of the ``hard`` search against itself.

Every seat is played by :class:`~mattis.bots.ismcts.IsmctsAgent` with a fixed iteration budget.
At each decision with more than one legal move the deciding seat's view (the same
:class:`~mattis.bots.view.PlayerView` the search got, so no hidden card) is encoded
(:func:`~mattis.bots.encoding.encode_view`) with the search's root visits of every legal move
(the policy target). When the game ends each position gets the value target: for every seat
counted from the decider (0 the decider, as the encoding counts them), 1 if it ended as Mattis,
0 if not, and a mask that is 0 for seats not at the table (and for every seat of a game stopped
at the action cap, which has no loser).

A game's positions go to one shard, ``game-000042.npz`` in the data folder, written when the
game ends: a long run can stop at any time and :func:`generate` plays only the games whose
shard is missing. Each game's deal and every seat's generator come from the run's seed and the
game's number alone, so the same seed gives the same shards, bit for bit, whatever the number
of worker processes and however often the run was resumed. Numpy only: no torch here.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from ..extras import MissingExtra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # numpy is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error

from ..bots.encoding import MAX_SEATS, OBSERVATION_SIZE, encode_view
from ..bots.ismcts import IsmctsAgent
from ..bots.protocol import Decision, Limit
from ..bots.runner import derived_rng, play_game
from ..bots.view import PlayerView
from ..core.actions import Action
from ..core.game import Game
from ..core.rules import Rules
from ..pool import worker_pool

DEFAULT_ITERATIONS: Final = 300
"""The search's simulations per decision: the ``hard`` level's strength at a fraction of its
second (it stops early at about this many when the choice is clear)."""
SETTINGS_FILE: Final = "settings.json"
"""The data folder's record of the settings its shards were made with; a resumed run must match."""
SHARD_PREFIX: Final = "game-"


class DataError(ValueError):
    """A data folder that cannot be used: made with other settings, or a shard unreadable."""


@dataclass(frozen=True, slots=True)
class DataSettings:
    """What decides a run's games: two runs with equal settings make the same shards."""

    rules: str
    """The rules as JSON text (:meth:`Rules.to_dict`): a preset with any house rules."""
    players: tuple[int, ...]
    """Table sizes the games take in turn (game ``i`` has ``players[i % len(players)]``)."""
    iterations: int
    seed: int
    exploration: float = 0.7
    rollout_noise: float = 0.1

    @classmethod
    def of(cls, rules: Rules, players: Sequence[int], iterations: int = DEFAULT_ITERATIONS,
           seed: int = 1) -> DataSettings:
        """Settings for ``rules`` (an object, kept as its JSON text)."""
        return cls(json.dumps(rules.to_dict(), sort_keys=True), tuple(players), iterations, seed)

    @property
    def resolved_rules(self) -> Rules:
        """The rules as an object."""
        return Rules.from_dict(json.loads(self.rules))

    def to_json(self) -> dict[str, Any]:
        """For the data folder's :data:`SETTINGS_FILE`."""
        return {**asdict(self), "rules": json.loads(self.rules), "players": list(self.players)}


@dataclass(frozen=True, slots=True)
class GameData:
    """One game's positions, as stored in its shard."""

    observations: npt.NDArray[np.float32]
    """One encoded view per row (OBSERVATION_SIZE columns)."""
    legal: npt.NDArray[np.int16]
    """Each row's legal action indices, padded with -1 to the widest row of the game."""
    visits: npt.NDArray[np.float32]
    """The search's root visits of each legal move (0 in the padding)."""
    losers: npt.NDArray[np.float32]
    """Per row and relative seat: 1 if that seat ended as Mattis."""
    present: npt.NDArray[np.float32]
    """Per row and relative seat: 1 if the seat is at the table and the game has an end."""
    seats: npt.NDArray[np.int8]
    """The absolute seat that decided each row."""
    players: int
    game_seed: int
    capped: bool
    cpu_seconds: float

    @property
    def positions(self) -> int:
        """How many positions (rows) the game gave."""
        return int(self.observations.shape[0])


def game_seed(seed: int, game: int) -> int:
    """The deal of game number ``game`` of a run seeded ``seed`` (one-way, as seats' generators)."""
    return derived_rng(seed, f"master-data/game{game}").getrandbits(63)


class _RecordingSearch:
    """The search as an agent (for :func:`~mattis.bots.runner.play_game`) that keeps, for each
    decision, the deciding seat's observation, its legal moves and the search's visits of
    each: the training targets. It plays the move ``hard`` plays, the most visited (the
    lowest index on a tie)."""

    name = "search-recorder"

    def __init__(self, search: IsmctsAgent) -> None:
        self.search = search
        self.observations: list[npt.NDArray[np.float32]] = []
        self.legal_rows: list[list[int]] = []
        self.visit_rows: list[tuple[int, ...]] = []
        self.seats: list[int] = []

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random,
               limit: Limit | None = None) -> Decision:
        found = self.search.root_visits(view, legal, rng, limit)
        self.observations.append(encode_view(view))
        self.legal_rows.append([action.index for action in legal])
        self.visit_rows.append(found.visits)
        self.seats.append(view.public.seat)
        best = max(range(len(legal)), key=lambda k: (found.visits[k], -legal[k].index))
        return Decision(legal[best], "the most visited move", reason="search", iterations=found.iterations)


def play_search_game(settings: DataSettings, game: int) -> GameData:
    """Play game number ``game`` of a run with the search at every seat and record it."""
    started = time.process_time()
    rules = settings.resolved_rules
    players = settings.players[game % len(settings.players)]
    seed = game_seed(settings.seed, game)
    state = Game.new(rules, players, seed=seed)
    recorder = _RecordingSearch(IsmctsAgent(Limit(iterations=settings.iterations),
                                            exploration=settings.exploration,
                                            rollout_noise=settings.rollout_noise, early_stop=False))
    capped = play_game(state, [recorder] * players, seed).capped
    observations, legal_rows, visit_rows, seats = (recorder.observations, recorder.legal_rows,
                                                   recorder.visit_rows, recorder.seats)
    width = max((len(row) for row in legal_rows), default=1)
    count = len(seats)
    legal_array = np.full((count, width), -1, dtype=np.int16)
    visit_array = np.zeros((count, width), dtype=np.float32)
    for row, (indices, visits) in enumerate(zip(legal_rows, visit_rows, strict=True)):
        legal_array[row, :len(indices)] = indices
        visit_array[row, :len(visits)] = visits
    losers = np.zeros((count, MAX_SEATS), dtype=np.float32)
    present = np.zeros((count, MAX_SEATS), dtype=np.float32)
    if not capped:
        lost = set(state.losers)
        for row, seat in enumerate(seats):
            for offset in range(players):
                present[row, offset] = 1.0
                losers[row, offset] = 1.0 if (seat + offset) % players in lost else 0.0
    stacked = (np.stack(observations) if observations
               else np.zeros((0, OBSERVATION_SIZE), dtype=np.float32))
    return GameData(stacked, legal_array, visit_array, losers, present,
                    np.asarray(seats, dtype=np.int8), players, seed, capped,
                    time.process_time() - started)


def shard_path(folder: Path, game: int) -> Path:
    """Where game number ``game`` is stored."""
    return folder / f"{SHARD_PREFIX}{game:06d}.npz"


def write_shard(path: Path, data: GameData) -> None:
    """Store one game; written beside and renamed, so a stopped run leaves no half shard."""
    partial = path.with_suffix(".partial")
    with partial.open("wb") as handle:
        np.savez_compressed(handle, observations=data.observations, legal=data.legal,
                            visits=data.visits, losers=data.losers, present=data.present,
                            seats=data.seats, players=np.int64(data.players),
                            game_seed=np.int64(data.game_seed), capped=np.bool_(data.capped),
                            cpu_seconds=np.float64(data.cpu_seconds))
    os.replace(partial, path)


def read_shard(path: Path) -> GameData:
    """One stored game; :class:`DataError` if the file is not one."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            return GameData(stored["observations"], stored["legal"], stored["visits"],
                            stored["losers"], stored["present"], stored["seats"],
                            int(stored["players"]), int(stored["game_seed"]),
                            bool(stored["capped"]), float(stored["cpu_seconds"]))
    except (OSError, ValueError, KeyError, EOFError) as error:
        raise DataError(f"cannot read the shard {path}: {error}") from None


def prepare_folder(folder: Path, settings: DataSettings) -> None:
    """Create the data folder with its settings, or check that an existing one has the same."""
    folder.mkdir(parents=True, exist_ok=True)
    record = folder / SETTINGS_FILE
    wanted = settings.to_json()
    if record.exists():
        found = json.loads(record.read_text(encoding="utf-8"))
        if found != wanted:
            changed = sorted(key for key in wanted if found.get(key) != wanted[key])
            raise DataError(f"{folder} holds games made with other settings ({', '.join(changed)} "
                            f"differ); give another folder or the same settings")
        return
    record.write_text(json.dumps(wanted, indent=2) + "\n", encoding="utf-8")


def stored_games(folder: Path) -> list[int]:
    """The game numbers whose shard is in ``folder``, in order."""
    numbers = []
    for path in folder.glob(f"{SHARD_PREFIX}*.npz"):
        digits = path.stem[len(SHARD_PREFIX):]
        if digits.isdigit():
            numbers.append(int(digits))
    return sorted(numbers)


def _play_and_store(task: tuple[DataSettings, int, str]) -> tuple[int, int, float]:
    """A worker's task: play one game, store its shard; its positions and CPU seconds."""
    settings, game, folder = task
    data = play_search_game(settings, game)
    write_shard(shard_path(Path(folder), game), data)
    return game, data.positions, data.cpu_seconds


def _run_tasks(tasks: Sequence[tuple[DataSettings, int, str]],
               workers: int) -> Iterator[tuple[int, int, float]]:
    """The games in this process (one worker) or a pool, yielded as each finishes."""
    if workers == 1 or len(tasks) <= 1:
        for task in tasks:
            yield _play_and_store(task)
        return
    with worker_pool(min(workers, len(tasks))) as pool:
        futures: list[Future[tuple[int, int, float]]] = [pool.submit(_play_and_store, task)
                                                         for task in tasks]
        try:
            for future in as_completed(futures):
                yield future.result()
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


@dataclass(frozen=True, slots=True)
class GenerationResult:
    """What a call of :func:`generate` played (the folder may hold more from earlier calls)."""

    played: int
    positions: int
    cpu_seconds: float
    wall_seconds: float
    skipped: int
    """Games whose shard was already there (a resumed run)."""


def generate(folder: str | Path, settings: DataSettings, games: int, *, workers: int = 1,
             progress: Callable[[int, int], None] | None = None) -> GenerationResult:
    """Make sure games ``0 … games-1`` of ``settings`` are in ``folder``, playing the missing
    ones in ``workers`` processes; ``progress(done, total)`` after each game."""
    target = Path(folder)
    prepare_folder(target, settings)
    present = set(stored_games(target))
    missing = [game for game in range(games) if game not in present]
    tasks = [(settings, game, str(target)) for game in missing]
    started = time.perf_counter()
    positions = 0
    cpu = 0.0
    done = games - len(missing)
    if progress is not None:
        progress(done, games)
    for _, count, seconds in _run_tasks(tasks, workers):
        positions += count
        cpu += seconds
        done += 1
        if progress is not None:
            progress(done, games)
    return GenerationResult(len(missing), positions, cpu, time.perf_counter() - started,
                            games - len(missing))


__all__ = ["DEFAULT_ITERATIONS", "DataError", "DataSettings", "GameData", "GenerationResult",
           "game_seed", "generate", "play_search_game", "read_shard", "shard_path", "stored_games",
           "write_shard"]
