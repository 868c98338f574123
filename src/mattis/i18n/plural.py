"""The one type a catalogue needs besides plain text: a message whose words follow a number.

Data only, like the catalogues that use it: the English source gives the form for one and the
form for any other count, and each language's ``.po`` file gives as many forms as its plural
rule (its ``Plural-Forms`` header) asks for, so "1 kort" / "3 kort" comes from gettext's plural
forms and no front end writes ``if count == 1``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Plural:
    """English ``one`` (said of 1) and ``other`` (any other count); ``count`` names the
    placeholder that holds the number, so ``t(key, lang, n=3)`` knows which one to count by."""

    one: str
    other: str
    count: str = "count"


Source = str | Plural
"""A message in the source language (English): its text, or its two plural forms."""
