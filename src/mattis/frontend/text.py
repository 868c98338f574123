"""Text from outside (a saved file, another player, the command line) made safe to show.

A terminal obeys control characters: ``\\x1b[2J`` clears the screen, ``\\x07`` rings the
bell and a right-to-left override makes ``exe.txt`` read ``txt.exe``. A name in a saved game
is data, never a command to the terminal, so everything that did not come from our own
catalogue of texts passes through :func:`printable` before it is shown. :func:`clip` keeps
a quoted value from flooding a one-line message (a 5,000-digit "move number").
"""

from __future__ import annotations

BIDI_CONTROLS = frozenset(
    "\u061c"  # Arabic letter mark
    "\u200e\u200f"  # left-to-right and right-to-left marks
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings and overrides
    "\u2066\u2067\u2068\u2069"  # isolates
)
"""Invisible characters that reorder the text around them."""

LINE_BREAKERS = frozenset("\u2028\u2029")
"""Unicode line and paragraph separators: they break a one-line message like a newline."""

DEFAULT_CLIP = 40
"""Characters of a quoted value kept in a message; enough to recognise what was typed."""


def is_unsafe(char: str) -> bool:
    """Whether ``char`` is a control character (C0, DEL, C1), a bidi control or a line
    separator: something a terminal acts on rather than draws."""
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F or char in BIDI_CONTROLS or char in LINE_BREAKERS


def printable(text: str) -> str:
    """``text`` without the characters :func:`is_unsafe` finds; nothing else changes."""
    if text.isprintable():  # the common case, checked in C
        return text
    return "".join(char for char in text if not is_unsafe(char))


def clip(text: str, limit: int = DEFAULT_CLIP) -> str:
    """``text`` cut to ``limit`` characters with ``…`` when longer, so a message quoting it
    stays one readable line."""
    if len(text) <= limit:
        return text
    return text[:limit] + "…"


def shown(text: str, limit: int = DEFAULT_CLIP) -> str:
    """Outside text as a message quotes it: safe (:func:`printable`) and short (:func:`clip`)."""
    return clip(printable(text), limit)
