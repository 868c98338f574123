"""QR codes of the addresses people open, made by ``segno``: an SVG for the invite page and
text for a terminal (``mattis serve --lan``).

A phone's camera opens a link straight from a QR code, so a friend at the table joins without
typing a table id of 40-odd characters. Both forms use error correction level M (a code
still scans with part of it hidden by a thumb or glare) and the standard quiet zone of four
modules, which scanners need to find the code.
"""

from __future__ import annotations

import io

import segno

QUIET_ZONE = 4
"""Modules of light border around the code (the QR standard's minimum)."""


def _code(text: str) -> segno.QRCode:
    return segno.make(text, error="m", micro=False)


def qr_svg(text: str, title: str = "") -> bytes:
    """``text`` as an SVG QR code, black on white whatever the page's theme (scanners want
    dark modules on a light ground), six pixels a module unless the page scales it."""
    out = io.BytesIO()
    _code(text).save(out, kind="svg", scale=6, border=QUIET_ZONE, dark="#000", light="#fff",
                     xmldecl=False, title=title or None)
    return out.getvalue()


def qr_terminal(text: str, *, blocks: bool) -> str:
    """``text`` as a QR code for a terminal: with Unicode half blocks (``blocks``; two rows of
    modules a line, so it fits a small window) or with ANSI reverse video, for terminals that
    cannot show those characters."""
    out = io.StringIO()
    _code(text).terminal(out=out, border=QUIET_ZONE, compact=blocks)
    return out.getvalue()
