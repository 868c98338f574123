"""Saved games: the core's record plus who played, written so it can always be read back.

A saved file *is* a game record (``Game.from_record`` replays it directly) with one extra
``"play"`` entry: the players' names and levels, the person's seat, the language and, in a
match, the game number and score. Files are written atomically (a temporary file, then a
rename), so a game interrupted at any moment leaves the last complete save behind.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.game import RECORD_FORMAT, Game
from ..i18n import Lang
from .seats import Participant, participants_from_dicts, seat_numbers

PLAY_FORMAT = "mattis-play/1"


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
    """``./mattis-YYYYMMDD-HHMMSS.json``, with ``-b``, ``-c`` … added rather than overwrite
    a game saved in the same second."""
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    folder = directory or Path(".")
    path = folder / f"mattis-{stamp}.json"
    for letter in "bcdefghijklmnopqrstuvwxyz":
        if not path.exists() and not path.with_name(f"{path.stem}-1.json").exists():
            break
        path = folder / f"mattis-{stamp}-{letter}.json"
    return path


def match_save_path(base: Path, number: int, games: int) -> Path:
    """One file per game: the base path for a single game, ``name-2.json`` … in a match."""
    if games <= 1:
        return base
    return base.with_name(f"{base.stem}-{number}{base.suffix or '.json'}")


def check_save_path(path: Path) -> None:
    """Refuse a path that cannot be written, before a game is played into it."""
    if path.is_dir():
        raise ValueError(f"--save: {path} is a directory; give a file name")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ValueError(f"--save: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise ValueError(f"--save: cannot write in {parent}")


def save_record(record: dict[str, Any], path: Path) -> None:
    """Write ``record`` as JSON, atomically (see the module docstring)."""
    text = json.dumps(record, ensure_ascii=False, indent=1)
    parent = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text + "\n")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A saved game, checked by replaying it."""

    record: dict[str, Any]
    game: Game
    """The game replayed to its last action."""
    participants: list[Participant]
    human_seat: int | None


class RecordError(ValueError):
    """A file that is not a readable, replayable Mattis record; the message is one line."""


def load_record(path: Path) -> LoadedGame:
    """Read and replay a saved game. Raises :class:`RecordError` saying what is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{path}: is a directory, not a saved game") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"{path}: cannot read it ({error})") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}: not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"{path}: not a Mattis game record (expected format {RECORD_FORMAT!r})")
    try:
        game = Game.from_record(record)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as error:
        message = " ".join(str(error).split())
        raise RecordError(f"{path}: {message}") from None
    stored = record.get("result")
    if isinstance(stored, dict) and game.is_over and (
            stored.get("losers") != game.losers or stored.get("out_order") != game.out_order):
        raise RecordError(f"{path}: the stored result does not match the replayed game")
    meta = record.get("play")
    participants: list[Participant] | None = None
    human: int | None = None
    if isinstance(meta, dict):
        participants = participants_from_dicts(meta.get("participants"), game.players)
        seat = meta.get("human_seat")
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < game.players:
            human = seat
    if participants is None:
        participants = seat_numbers(game.players)
        human = None
    return LoadedGame(record, game, participants, human)
