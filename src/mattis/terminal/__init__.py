"""Mattis in a terminal: play against bots (:class:`TerminalPlay`) and watch saved games
(:class:`TerminalReplay`), drawn with rich. The games are played on the table layer
(:mod:`mattis.table`), with the terminal as its host (:mod:`.host`)."""

from .game import EXIT_INTERRUPTED, EXIT_OK, EXIT_SAVE_FAILED, Ending, ReadLine, TerminalPlay
from .host import Hint, TerminalHost, TerminalTable, terminal_config
from .replay import TerminalReplay

__all__ = ["EXIT_INTERRUPTED", "EXIT_OK", "EXIT_SAVE_FAILED", "Ending", "Hint", "ReadLine", "TerminalHost",
           "TerminalPlay", "TerminalReplay", "TerminalTable", "terminal_config"]
