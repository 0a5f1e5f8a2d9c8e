"""Colours for the printed sheet, in RGB (home printing) or CMYK (print shop).

Every colour the renderer uses goes through one :class:`Ink`, so switching
the whole pad to CMYK is one flag, and reportlab's ``enforceColorSpace``
guard catches any colour that slips past it.

The palette serves the scanner: box interiors are very light tints and the
printed numbers medium tones, so dark pen ink (blue or black ballpoint,
pencil, felt tip, red pen) stands out against everything inside a box.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import CMYKColor, Color

RGB = tuple[float, float, float]

WHITE: RGB = (1.0, 1.0, 1.0)
BLACK: RGB = (0.0, 0.0, 0.0)
#: Titles, operators, the letter: near-black, softer than the markers.
TEXT_DARK: RGB = (0.13, 0.13, 0.15)
#: Labels and hints.
TEXT_GREY: RGB = (0.42, 0.42, 0.45)
#: Thin rules: table lines, penalty box outlines, the name line.
RULE_GREY: RGB = (0.55, 0.55, 0.58)
#: The frame of Treden step boxes and the Kettingen chain rings and links:
#: dark enough to see at once on every row colour, printed only on a box's
#: edge so the interior stays light.
MARK_DARK: RGB = (0.16, 0.13, 0.11)

#: How much of the row colour tints a box interior (0 = white).
BOX_TINT = 0.10


def tint(rgb: RGB, amount: float) -> RGB:
    """``rgb`` mixed with white: ``amount`` 0 gives white, 1 the colour itself."""
    return tuple(1.0 - amount * (1.0 - c) for c in rgb)  # type: ignore[return-value]


def rgb_to_cmyk(rgb: RGB) -> tuple[float, float, float, float]:
    """Naive device conversion; pure greys become K only (no rich black)."""
    r, g, b = rgb
    k = 1.0 - max(r, g, b)
    if k >= 1.0 - 1e-9:
        return (0.0, 0.0, 0.0, 1.0)
    if abs(r - g) < 1e-9 and abs(g - b) < 1e-9:
        return (0.0, 0.0, 0.0, round(k, 4))
    scale = 1.0 - k
    return tuple(round(v, 4) for v in ((1 - r - k) / scale, (1 - g - k) / scale,
                                       (1 - b - k) / scale, k))  # type: ignore[return-value]


@dataclass(frozen=True)
class Ink:
    """Turns the palette's RGB triples into reportlab colours of one colour space."""

    cmyk: bool = False

    def __call__(self, rgb: RGB) -> Color:
        if self.cmyk:
            return CMYKColor(*rgb_to_cmyk(rgb))
        return Color(*(round(c, 4) for c in rgb))
