"""Which layout and letter a photographed sheet is: read from its QR code.

The code's text is ``QWIXX:<LAYOUT>:<LETTER or ->:<FINGERPRINT>``
(:func:`qwixx_print.layout.code_payload`). The fingerprint changes with
any change of geometry, so a sheet is only ever read with exactly the
geometry it was printed with; anything else is refused with a message.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from qwixx_print.errors import PhotoError
from qwixx_print.layout import Layout, Sheet

from .rectify import SheetFit, rectify

#: Resolution (px per mm) at which the code area is warped for decoding:
#: about 6 px per QR module, plenty for OpenCV's decoder.
CODE_PX_PER_MM = 12.0
#: Blank paper added around the code area when warping it, in mm: room for
#: a position that is a little off before the layout is known.
CODE_MARGIN_MM = 4.0


class UnknownSheetError(PhotoError):
    """A sheet whose code names a layout or geometry we do not have."""


@dataclass(frozen=True)
class KnownSheets:
    """Every sheet we can read, by the exact payload of its QR code."""

    by_payload: dict[str, Sheet]

    @classmethod
    def from_layouts(cls, layouts: Iterable[Layout]) -> KnownSheets:
        table: dict[str, Sheet] = {}
        for layout in layouts:
            for sheet in layout.sheets.values():
                table.setdefault(sheet.code_payload, sheet)
        return cls(table)

    @property
    def sizes_mm(self) -> list[tuple[float, float]]:
        """The distinct sheet sizes, most common first (to guess before identifying)."""
        counts: dict[tuple[float, float], int] = {}
        for sheet in self.by_payload.values():
            counts[sheet.size_mm] = counts.get(sheet.size_mm, 0) + 1
        return sorted(counts, key=lambda s: -counts[s])

    def code_rects_mm(self, size_mm: tuple[float, float]) -> list[tuple[float, float, float, float]]:
        """Distinct code areas (x0, y0, x1, y1 mm) of the known sheets of this size."""
        rects = {(s.furniture.code.x, s.furniture.code.y,
                  s.furniture.code.x + s.furniture.code.w, s.furniture.code.y + s.furniture.code.h)
                 for s in self.by_payload.values() if s.size_mm == size_mm}
        return sorted(rects)

    def match(self, payload: str) -> Sheet:
        """The sheet whose code reads ``payload``; UnknownSheetError otherwise."""
        if payload in self.by_payload:
            return self.by_payload[payload]
        parts = payload.split(":")
        if len(parts) != 4 or parts[0] != "QWIXX":
            raise UnknownSheetError(
                f"the code on the sheet reads '{payload[:40]}', which is not a qwixx sheet code; "
                "scan sheets printed with `qwixx print`")
        _, name, letter, fingerprint = parts
        same_name = [s for s in self.by_payload.values()
                     if s.code_payload.split(":")[1] == name]
        if not same_name:
            raise UnknownSheetError(
                f"the sheet was printed from layout '{name.lower()}', which qwixx does not know; "
                "give its layout file with --layout FILE")
        if not any(s.code_payload.split(":")[2] == letter for s in same_name):
            raise UnknownSheetError(
                f"the sheet says layout '{name.lower()}' letter {letter}, which that layout does "
                "not have; give the layout file it was printed from with --layout FILE")
        raise UnknownSheetError(
            f"the sheet was printed from a different version of layout '{name.lower()}' "
            f"(geometry fingerprint {fingerprint}, ours differs); reading it with the wrong box "
            "positions would give a wrong score, so give the exact layout file it was printed "
            "from with --layout FILE")


def read_code(gray: np.ndarray, fit: SheetFit,
              code_rect_mm: tuple[float, float, float, float],
              size_mm: tuple[float, float]) -> str | None:
    """Decode the QR code inside ``code_rect_mm`` (x0, y0, x1, y1 mm) of a
    sheet placed in the grayscale picture ``gray`` by ``fit``; None if it
    cannot be read."""
    if gray.ndim != 2:
        raise ValueError(f"gray must be a 2-D (grayscale) image, not shape {gray.shape}")
    x0, y0, x1, y1 = code_rect_mm
    m = CODE_MARGIN_MM
    region = (x0 - m, y0 - m, x1 + m, y1 + m)
    crop = rectify(gray, fit, size_mm, px_per_mm=CODE_PX_PER_MM, region_mm=region)
    for candidate in _variants(crop):
        text = _decode(candidate)
        if text:
            return text
    return None


def _variants(gray: np.ndarray):
    yield gray
    # Uneven light or a soft focus: a local threshold gives the decoder clean modules.
    yield cv2.adaptiveThreshold(cv2.GaussianBlur(gray, (3, 3), 0), 255,
                                cv2.ADAPTIVE_THRESH_GAUSSIAN_C, cv2.THRESH_BINARY, 51, 10)
    yield cv2.resize(gray, None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA)


_QR: cv2.QRCodeDetector | None = None


def _decode(gray: np.ndarray) -> str | None:
    global _QR
    if _QR is None:
        _QR = cv2.QRCodeDetector()
    try:
        text, _points, _ = _QR.detectAndDecode(gray)
    except cv2.error:
        return None
    return text or None
