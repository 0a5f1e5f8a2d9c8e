"""How a printer puts the blank sheet on paper.

``qwixx print`` writes exact colours, but no two printers reproduce them
alike: an inkjet shifts tones per colour, a printer low on ink or in draft
mode prints everything paler, a black-and-white laser turns the coloured
rows into greys, and an empty cartridge leaves a colour cast. The scanner
compares a photo with the blank sheet as designed, so the generator prints
the blank the way a randomly chosen printer would before the player's pen
touches it. One printer per photo: the sheets on a table come from one pad.

Main entry: :func:`random_printer` and :func:`print_sheet`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Kinds of printer and how often each is drawn.
PRINTER_WEIGHTS = {"exact": 0.3, "inkjet": 0.3, "faded": 0.15, "grey": 0.15, "cast": 0.1}


@dataclass(frozen=True)
class Printer:
    """A printer's rendering of the designed colours.

    Applied to each pixel's ink coverage (1 - value, value 0..1 per BGR
    channel): ``grey`` first turns the colour into its luminance,
    ``saturation`` scales the distance from it, ``strength`` (per channel)
    scales the ink coverage (below 1: paler), ``gamma`` (per channel) bends
    the tones (above 1: darker mid-tones).
    """

    kind: str
    grey: bool = False
    saturation: float = 1.0
    strength: tuple[float, float, float] = (1.0, 1.0, 1.0)
    gamma: tuple[float, float, float] = (1.0, 1.0, 1.0)

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "grey": self.grey, "saturation": round(self.saturation, 3),
                "strength": [round(s, 3) for s in self.strength],
                "gamma": [round(g, 3) for g in self.gamma]}


EXACT = Printer("exact")


def random_printer(rng: np.random.Generator) -> Printer:
    """A printer drawn from :data:`PRINTER_WEIGHTS`."""
    kind = str(rng.choice(list(PRINTER_WEIGHTS), p=list(PRINTER_WEIGHTS.values())))
    if kind == "exact":
        return Printer(kind, gamma=_triple(rng, 0.95, 1.05))
    if kind == "inkjet":
        return Printer(kind, saturation=float(rng.uniform(0.8, 1.15)),
                       strength=_triple(rng, 0.9, 1.0), gamma=_triple(rng, 0.8, 1.25))
    if kind == "faded":
        fade = float(rng.uniform(0.45, 0.8))
        return Printer(kind, strength=tuple(fade * s for s in _triple(rng, 0.95, 1.0)),
                       gamma=_triple(rng, 0.9, 1.1))
    if kind == "grey":
        return Printer(kind, grey=True, strength=(float(rng.uniform(0.7, 1.0)),) * 3,
                       gamma=(float(rng.uniform(0.8, 1.25)),) * 3)
    strength = list(_triple(rng, 0.9, 1.0))
    strength[int(rng.integers(3))] *= float(rng.uniform(0.4, 0.75))  # one cartridge runs low
    return Printer(kind, strength=tuple(strength), gamma=_triple(rng, 0.9, 1.1))


def _triple(rng: np.random.Generator, lo: float, hi: float) -> tuple[float, float, float]:
    a, b, c = (float(v) for v in rng.uniform(lo, hi, 3))
    return a, b, c


def print_sheet(blank: np.ndarray, printer: Printer) -> np.ndarray:
    """The blank sheet image (BGR uint8) as ``printer`` puts it on paper (BGR uint8)."""
    if printer == EXACT:
        return blank
    value = blank.astype(np.float32) * np.float32(1 / 255)
    if printer.grey or printer.saturation != 1.0:
        lum = cv2.cvtColor(value, cv2.COLOR_BGR2GRAY)[:, :, None]
        value = lum + (0.0 if printer.grey else printer.saturation) * (value - lum)
    coverage = np.clip(1.0 - value, 0.0, 1.0) * np.array(printer.strength, np.float32)
    value = np.power(1.0 - coverage, np.array(printer.gamma, np.float32))
    return np.clip(value * 255.0 + 0.5, 0, 255).astype(np.uint8)
