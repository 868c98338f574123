"""The app's icons, drawn here as PNG with the standard library alone (no image library).

Two playing cards on the green felt: a card back behind, the ace of hearts in front, the
same picture as ``static/icon.svg``. A *maskable* icon keeps everything inside the middle
80 % circle, since a phone may cut the icon to any shape within it. Each pixel is the
average of a few samples, so the edges are smooth.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable

Colour = tuple[int, int, int]
FELT: Colour = (27, 94, 59)
CARD: Colour = (255, 253, 248)
BACK: Colour = (192, 38, 45)
BACK_EDGE: Colour = (240, 220, 200)
HEART: Colour = (192, 38, 45)
THEME_COLOUR = "#1b5e3b"
"""The felt's colour, also the manifest's theme and background colour."""

Shape = Callable[[float, float], Colour | None]
"""A picture in unit coordinates (0..1 both ways, y down): the colour at a point, or
``None`` where the picture shows what is below."""


def _rounded_box(x0: float, y0: float, x1: float, y1: float, *,
                 radius: float) -> Callable[[float, float], bool]:
    def inside(x: float, y: float) -> bool:
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        dx = max(x0 + radius - x, 0.0, x - (x1 - radius))
        dy = max(y0 + radius - y, 0.0, y - (y1 - radius))
        return dx * dx + dy * dy <= radius * radius

    return inside


def _heart(cx: float, cy: float, size: float) -> Callable[[float, float], bool]:
    """The classic heart curve (x²+y²−1)³ ≤ x²y³, centred at (cx, cy)."""

    def inside(x: float, y: float) -> bool:
        u, v = (x - cx) / size, (cy - y) / size + 0.15
        return (u * u + v * v - 1) ** 3 - u * u * v * v * v <= 0

    return inside


def picture(scale: float) -> Shape:
    """The icon's picture, shrunk by ``scale`` around the centre (1 for a plain icon, 0.8
    for a maskable one, whose corners stay inside the safe circle)."""

    def shrink(x: float, y: float) -> tuple[float, float]:
        return 0.5 + (x - 0.5) / scale, 0.5 + (y - 0.5) / scale

    back_edge = _rounded_box(0.14, 0.16, 0.60, 0.80, radius=0.06)
    back = _rounded_box(0.165, 0.185, 0.575, 0.775, radius=0.045)
    front_edge = _rounded_box(0.36, 0.22, 0.86, 0.88, radius=0.065)
    front = _rounded_box(0.375, 0.235, 0.845, 0.865, radius=0.055)
    heart = _heart(0.61, 0.55, 0.16)

    def colour(x: float, y: float) -> Colour | None:
        x, y = shrink(x, y)
        if front_edge(x, y):
            if not front(x, y):
                return FELT
            return HEART if heart(x, y) else CARD
        if back_edge(x, y):
            if not back(x, y):
                return BACK_EDGE
            stripe = int((x + y) * 30) % 2 == 0
            return BACK if stripe else (160, 30, 38)
        return None

    return colour


def render(size: int, shape: Shape, background: Colour = FELT, samples: int = 3) -> bytes:
    """A ``size``×``size`` PNG of ``shape`` on ``background``."""
    rows = bytearray()
    offsets = [(k + 0.5) / samples for k in range(samples)]
    count = samples * samples
    for py in range(size):
        rows.append(0)  # PNG filter type 0 for this row
        for px in range(size):
            red = green = blue = 0
            for oy in offsets:
                for ox in offsets:
                    found = shape((px + ox) / size, (py + oy) / size) or background
                    red += found[0]
                    green += found[1]
                    blue += found[2]
            rows += bytes((red // count, green // count, blue // count))
    return _png(size, size, bytes(rows))


def _png(width: int, height: int, raw_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw_rows, 9))
            + chunk(b"IEND", b""))


ICONS: dict[str, tuple[int, float]] = {
    "icon-192.png": (192, 1.0),
    "icon-512.png": (512, 1.0),
    "maskable-512.png": (512, 0.72),
}
"""The icon files the manifest lists: their size and how far the picture is shrunk."""


def draw_icons() -> dict[str, bytes]:
    """Every icon of :data:`ICONS`, as PNG bytes by file name."""
    return {name: render(size, picture(scale)) for name, (size, scale) in ICONS.items()}
