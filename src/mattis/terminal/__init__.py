"""Mattis in a terminal: play against bots (:class:`TerminalPlay`) and watch saved games
(:class:`TerminalReplay`), drawn with rich. The game logic lives in :mod:`mattis.frontend`."""

from .game import EXIT_INTERRUPTED, EXIT_OK, EXIT_SAVE_FAILED, Ending, ReadLine, TerminalPlay
from .replay import TerminalReplay

__all__ = ["EXIT_INTERRUPTED", "EXIT_OK", "EXIT_SAVE_FAILED", "Ending", "ReadLine", "TerminalPlay",
           "TerminalReplay"]
