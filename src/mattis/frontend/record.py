"""Saved games: the core's record plus who played, written so it can always be read back.

A saved file *is* a game record (``Game.from_record`` replays it directly) with one extra
``"play"`` entry: the players' names and levels, the person's seat, the language and, in a
match, the game number and score. A game's first save creates a file of its own (never
another game's, never anything that is not a saved game); later saves replace it atomically
(a temporary file, then a rename), so a game interrupted at any moment leaves the last
complete save behind. Reading is as careful: any file gives a game or one line saying why not.
"""

from __future__ import annotations

import datetime as _dt
import errno
import json
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from string import ascii_lowercase
from typing import Any

from .. import __version__
from ..bots.entrants import is_seat_level
from ..core.game import Game
from ..core.record import RECORD_FORMAT
from ..core.rules import Rules
from ..i18n import Lang
from .seats import Participant, participants_from_dicts, seat_numbers
from .text import clip, printable, shown

PLAY_FORMAT = "mattis-play/1"

DATA_DIR_VARIABLE = "MATTIS_DATA_DIR"
"""An environment variable naming the folder for saved games instead of the user's data
folder (tests and portable installs set it)."""


def saves_folder() -> Path:
    """Where ``mattis play`` saves games by default: ``$MATTIS_DATA_DIR/games``, or the
    ``games`` folder in the user's data folder (``~/.local/share/mattis`` on Linux,
    ``~/Library/Application Support/mattis`` on macOS, ``%LOCALAPPDATA%\\mattis`` on Windows)."""
    chosen = os.environ.get(DATA_DIR_VARIABLE, "").strip()
    if chosen:
        return Path(chosen) / "games"
    import platformdirs  # here, not at the top: the offline app imports this module without it

    base = Path(platformdirs.user_data_dir("mattis", appauthor=False))
    return base / "games"


def play_record(
    game: Game,
    participants: list[Participant],
    lang: Lang,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``game.record()`` plus a ``"play"`` entry describing the table."""
    record = game.record()
    humans = [p.seat for p in participants if p.human]
    record["play"] = {
        "format": PLAY_FORMAT,
        "mattis": __version__,
        "saved": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "lang": lang,
        "human_seat": humans[0] if humans else None,
        "participants": [p.to_dict() for p in participants],
        "finished": game.is_over,
        **(extra or {}),
    }
    return record


def default_save_path(now: _dt.datetime | None = None, directory: Path | None = None) -> Path:
    """``./mattis-YYYYMMDD-HHMMSS.json``, with ``-b``, ``-c`` … when a game saved in the same
    second is there already. Only a first guess: two programs can pick the same name at
    once, so :class:`SaveFile` claims the file exclusively when the game starts."""
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    folder = directory or Path(".")
    path = folder / f"mattis-{stamp}.json"
    for letter in ascii_lowercase[1:]:
        if not path.exists() and not path.with_name(f"{path.stem}-1.json").exists():
            break
        path = folder / f"mattis-{stamp}-{letter}.json"
    return path


def match_save_path(base: Path, number: int, games: int) -> Path:
    """One file per game: the base path for a single game, ``name-2.json`` … in a match."""
    if games <= 1:
        return base
    return base.with_name(f"{base.stem}-{number}{base.suffix or '.json'}")


def os_error_text(error: OSError) -> str:
    """What went wrong, without the errno number and the repeated path of ``str(error)``."""
    return error.strerror or str(error)


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def check_save_folder(path: Path) -> None:
    """Refuse a file whose folder is missing or not writable, before a game is played."""
    parent = _folder(path)
    if not parent.is_dir():
        raise ValueError(f"--save: the folder {printable(str(parent))} does not exist")
    if not os.access(parent, os.W_OK):
        raise ValueError(f"--save: cannot write in {printable(str(parent))}")


class SavedGameExists(ValueError):
    """The save path holds a saved game and replacing it was not allowed."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"--save: {printable(str(path))} holds a saved game; add --overwrite to replace it")
        self.path = path


def check_save_path(path: Path, overwrite: bool = False) -> None:
    """Refuse, before a game is played into it, a path that cannot hold a saved game or
    that holds something a save must not clobber.

    Only a regular file can be replaced, so a device (``/dev/null``), a pipe or a folder is
    refused outright; an existing saved game is replaced only with ``overwrite`` (else
    :class:`SavedGameExists`), and any other existing file never (it is somebody's data).
    """
    shown_path = printable(str(path))
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as error:  # a name too long, a loop of links, a file used as a folder
        raise ValueError(f"--save: cannot use {clip(shown_path, 60)}: {os_error_text(error)}") from None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise ValueError(f"--save: {shown_path} is a directory; give a file name")
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"--save: {shown_path} exists and is not a regular file; give a file name")
        if not holds_game(path):
            raise ValueError(f"--save: {shown_path} exists and is not a saved Mattis game; "
                             f"choose another name")
        if not overwrite:
            raise SavedGameExists(path)
    check_save_folder(path)


def holds_game(path: Path) -> bool:
    """Whether ``path`` is a regular file holding a Mattis game record (replayable or not)."""
    try:
        record = json.loads(_read_capped(path))
    except (OSError, ValueError, RecursionError, _TooLarge):
        return False
    return isinstance(record, dict) and record.get("format") == RECORD_FORMAT


def _record_text(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def _write_all(handle: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(handle, view)
        view = view[written:]
    os.fsync(handle)


def save_record(record: dict[str, Any], path: Path) -> None:
    """Replace the file ``path`` with ``record`` as JSON, atomically: a temporary file in the
    same folder, then a rename. A crash at any moment leaves the old save or the new one.

    The temporary name is short (``.mattis-XXXXXXXX.tmp``) so a long file name still fits,
    and a destination that is not a regular file (a device, a folder) is refused: renaming
    over it would replace the device itself.
    """
    try:
        info: os.stat_result | None = path.stat()
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EEXIST, "not a regular file", str(path))
    handle, temporary = tempfile.mkstemp(prefix=".mattis-", suffix=".tmp", dir=_folder(path))
    try:
        if info is not None:
            os.fchmod(handle, stat.S_IMODE(info.st_mode))  # keep the mode the file was created with
        _write_all(handle, _record_text(record))
        os.close(handle)
        handle = -1
        os.replace(temporary, path)
    except BaseException:
        if handle >= 0:
            os.close(handle)
        Path(temporary).unlink(missing_ok=True)
        raise


def create_record(record: dict[str, Any], path: Path) -> Path:
    """Write ``record`` to a new file that nobody else has: ``path`` if it does not exist,
    else ``name-b.json``, ``name-c.json`` … (created with ``O_EXCL``, so two programs
    starting in the same second never share one). Returns the path written."""
    data = _record_text(record)
    for candidate in _claim_candidates(path):
        try:
            handle = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        try:
            _write_all(handle, data)
        except BaseException:
            os.close(handle)
            candidate.unlink(missing_ok=True)
            raise
        os.close(handle)
        return candidate
    raise FileExistsError(errno.EEXIST, "every name up to -z is taken", str(path))


def _claim_candidates(path: Path) -> list[Path]:
    suffix = path.suffix or ".json"
    return [path, *(path.with_name(f"{path.stem}-{letter}{suffix}") for letter in ascii_lowercase[1:])]


@dataclass
class SaveFile:
    """Where one game is saved as it goes.

    The first save claims a file of its own (:func:`create_record`, or replaces ``wanted``
    when the person allowed ``overwrite``); every later save replaces that same file
    atomically (:func:`save_record`). Saving raises ``OSError``: the caller decides how to
    tell the person.
    """

    wanted: Path
    overwrite: bool = False
    path: Path | None = None
    """The file this game owns, once the first save has claimed it."""

    @property
    def shown_path(self) -> Path:
        """The path to tell the person: the claimed file, or the wanted one before that."""
        return self.path or self.wanted

    def write(self, record: dict[str, Any]) -> Path:
        """Save ``record``; returns the path written."""
        if self.path is not None:
            save_record(record, self.path)
        elif self.overwrite:
            save_record(record, self.wanted)
            self.path = self.wanted
        else:
            self.path = create_record(record, self.wanted)
        return self.path


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A saved game, checked by replaying it."""

    record: dict[str, Any]
    game: Game
    """The game replayed to its last action."""
    participants: list[Participant]
    human_seat: int | None
    notice: tuple[str, dict[str, object]] | None = None
    """Why the names could not be read back (a message key and its values), if so."""


class RecordError(ValueError):
    """A file that is not a readable, replayable Mattis record; the message is one line."""


MAX_RECORD_BYTES = 32 * 1024 * 1024
"""The largest file read as a saved game: a record of the longest capped game is a few MB."""


class _TooLarge(Exception):
    """A file over :data:`MAX_RECORD_BYTES`."""


class _NotRegular(OSError):
    """A device, a pipe or a socket where a file was expected."""


def _read_capped(path: Path) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_RECORD_BYTES`.

    Checks the kind of file before opening it (opening a pipe waits for a writer forever)
    and reads at most one byte past the cap, so ``/dev/zero`` behind a link or a file that
    grows while read cannot fill the memory.
    """
    info = path.stat()
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
    if not stat.S_ISREG(info.st_mode):
        raise _NotRegular
    with path.open("rb") as stream:
        data = stream.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise _TooLarge
    return data


def _json_problem(error: json.JSONDecodeError) -> str:
    """``Unterminated string at line 15``: the decoder's own words end in "starting at" or
    "at", made for its longer format, so they are trimmed before the line is added."""
    message = re.sub(r"(?: starting)? at$", "", error.msg)
    return f"{message} at line {error.lineno}"


def _json_value(value: object) -> str:
    """A value from a file quoted as the file has it: ``"3"`` is text, ``3`` a number."""
    return shown(json.dumps(value, ensure_ascii=False))


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shape_problem(record: dict[str, Any]) -> str | None:
    """What is wrong with the types of a record's fields, in the file's own terms, before
    the rules core reads them (it would report ``"3"`` as ``3``, or fail inside ``int``)."""
    for field in ("players", "dealer"):
        if field in record and not _is_whole(record[field]):
            return f"{field}: expected a whole number, got {_json_value(record[field])}"
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        return f"actions: expected a list of moves, got {_json_value(actions)}"
    rules = record.get("rules", {})
    if not isinstance(rules, dict):
        return f"rules: expected an object of rule options, got {_json_value(rules)}"
    known = set(Rules.option_names())
    for option, value in rules.items():
        if option not in known:
            continue  # the rules core names unknown options itself
        numeric = all(choice.isdigit() for choice in Rules.option_choices(option))
        text_number = isinstance(value, str) and value.strip().isascii() and value.strip().isdigit()
        if numeric and not (_is_whole(value) or text_number):
            return f"rules: {option}: expected a whole number, got {_json_value(value)}"
    return None


def load_record(path: Path) -> LoadedGame:
    """Read and replay a saved game. Raises :class:`RecordError` saying what is wrong, in
    one line, for whatever the file holds."""
    name = printable(str(path))
    not_a_record = f"{name}: not a Mattis game record"
    try:
        data = _read_capped(path)
    except FileNotFoundError:
        raise RecordError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{name}: is a directory, not a saved game") from None
    except _NotRegular:
        raise RecordError(f"{name}: not a regular file (a device or a pipe), not a saved game") from None
    except _TooLarge:
        limit = MAX_RECORD_BYTES // 2**20
        raise RecordError(f"{name}: too large for a saved game (over {limit} MiB)") from None
    except OSError as error:
        raise RecordError(f"{name}: cannot read it ({os_error_text(error)})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{name}: not text (a saved game is UTF-8 JSON)") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{name}: not JSON ({_json_problem(error)})") from None
    except RecursionError:
        raise RecordError(f"{not_a_record} (nested too deeply)") from None
    except ValueError as error:  # a number with thousands of digits
        raise RecordError(f"{not_a_record} ({' '.join(str(error).split())})") from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"{not_a_record} (expected format {RECORD_FORMAT!r})")
    problem = _shape_problem(record)
    if problem is not None:
        raise RecordError(f"{name}: {problem}")
    try:
        game = Game.from_record(record)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError,
            OverflowError) as error:
        message = shown(" ".join(str(error).split()), 200)
        raise RecordError(f"{name}: {message}") from None
    stored = record.get("result")
    if isinstance(stored, dict) and game.is_over and (
            stored.get("losers") != game.losers or stored.get("out_order") != game.out_order):
        raise RecordError(f"{name}: the stored result does not match the replayed game")
    meta = record.get("play")
    participants: list[Participant] | None = None
    human: int | None = None
    notice: tuple[str, dict[str, object]] | None = None
    if isinstance(meta, dict):
        participants = participants_from_dicts(meta.get("participants"), game.players)
        seat = meta.get("human_seat")
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < game.players:
            human = seat
        if participants is None:
            notice = participants_problem(meta.get("participants"), game.players)
    if participants is None:
        participants = seat_numbers(game.players)
        human = None
    return LoadedGame(record, game, participants, human, notice)


def participants_problem(items: object, players: int) -> tuple[str, dict[str, object]]:
    """Why a record's players cannot be named, as a message key and its values."""
    if isinstance(items, list) and len(items) == players:
        for seat, item in enumerate(items):
            level = item.get("level") if isinstance(item, dict) else None
            if level is not None and not is_seat_level(level):
                return "play.replay_bad_level", {"seat": seat, "level": _json_value(level)}
    return "play.replay_no_names", {}


@dataclass(frozen=True, slots=True)
class SavedGameInfo:
    """One saved game in the list of recent games."""

    path: Path
    saved: _dt.datetime
    """When it was last saved (the file's time)."""
    loaded: LoadedGame | None
    """The replayed game, or ``None`` when the file is not a readable record."""
    problem: str | None = None


def recent_games(folder: Path, limit: int = 10) -> list[SavedGameInfo]:
    """The newest saved games in ``folder`` (``*.json``, newest first), each replayed; files
    that are not readable records are listed with their problem rather than skipped."""
    try:
        files = [path for path in folder.glob("*.json") if path.is_file()]
    except OSError:
        return []
    dated = []
    for path in files:
        try:
            dated.append((path.stat().st_mtime, path))
        except OSError:
            continue
    dated.sort(key=lambda item: (item[0], item[1].name), reverse=True)
    found: list[SavedGameInfo] = []
    for mtime, path in dated[:limit]:
        saved = _dt.datetime.fromtimestamp(mtime)
        try:
            found.append(SavedGameInfo(path, saved, load_record(path)))
        except RecordError as error:
            found.append(SavedGameInfo(path, saved, None, str(error)))
    return found
