"""The blank sheet as the reader's reference: what a sheet looks like unmarked.

The reader compares every box of a photo with the same box of the blank
sheet, so the printed number, the outline and the row colour are never taken
for pen ink. The blank is the sheet's own PDF (``qwixx_print.render``)
rasterized with pypdfium2 at the reader's resolution. Images here are
BGR uint8 (compact: every sheet of every layout stays cached), pixel
(x, y) = sheet mm (x / px_per_mm, y / px_per_mm), x right, y down, top-left
trim corner at (0, 0).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, fields

import cv2
import numpy as np

from qwixx_print.layout import Sheet

from .disk_cache import cached_arrays

#: How far (mm) the printed edges in a photo may sit from where the blank puts
#: them after local re-alignment (resampling, blur, sub-pixel error). Within
#: this radius the reader takes the darkest printed value as the expectation,
#: so a slightly misplaced printed edge is not taken for ink.
EDGE_TOLERANCE_MM = 0.45
#: A pixel is "flat" (good for measuring paper and print levels) when the
#: blank varies less than this much (0..1) within ``FLAT_RADIUS_MM``.
FLAT_SPREAD = 0.06
FLAT_RADIUS_MM = 0.6


@dataclass(frozen=True)
class BlankReference:
    """The blank sheet at one resolution, with what the reader derives from it.

    ``image``: BGR uint8. ``darkest``: BGR uint8, per channel the
    darkest blank value within ``EDGE_TOLERANCE_MM`` (what ink must be
    darker than).
    ``flat``: bool mask of pixels far from any printed edge. ``gray_half``:
    float32 grey image at half resolution, for locating boxes;
    ``gray_quarter`` the same at a quarter, for checking the sheet's fit.
    """

    px_per_mm: float
    image: np.ndarray
    darkest: np.ndarray
    flat: np.ndarray
    gray_half: np.ndarray
    gray_quarter: np.ndarray

    @property
    def size_px(self) -> tuple[int, int]:
        """(width, height) in px."""
        return self.image.shape[1], self.image.shape[0]


_cache: dict[tuple[str, str, str | None, float], BlankReference] = {}
_lock = threading.Lock()


def render_blank(sheet: Sheet, px_per_mm: float) -> np.ndarray:
    """The blank sheet as BGR uint8, exactly ``size_mm * px_per_mm`` pixels."""
    import pypdfium2

    from qwixx_print.render import sheet_pdf

    width = round(sheet.size_mm[0] * px_per_mm)
    height = round(sheet.size_mm[1] * px_per_mm)
    pdf = pypdfium2.PdfDocument(sheet_pdf(sheet))
    try:
        page = pdf[0]
        scale = px_per_mm * 25.4 / 72.0
        bitmap = page.render(scale=scale, fill_color=(255, 255, 255, 255))
        rgb = np.array(bitmap.to_pil().convert("RGB"))
    finally:
        pdf.close()
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    if bgr.shape[:2] != (height, width):
        bgr = cv2.resize(bgr, (width, height), interpolation=cv2.INTER_AREA)
    return bgr


def blank_reference(sheet: Sheet, px_per_mm: float) -> BlankReference:
    """The :class:`BlankReference` of ``sheet`` at ``px_per_mm``: made once
    per process, and kept on disk between runs (see :mod:`qwixx_scan.disk_cache`)."""
    key = (sheet.fingerprint, sheet.layout, sheet.letter, float(px_per_mm))
    with _lock:
        ref = _cache.get(key)
    if ref is None:
        ref = load_reference(sheet, px_per_mm)
        with _lock:
            _cache[key] = ref
    return ref


def load_reference(sheet: Sheet, px_per_mm: float) -> BlankReference:
    """:func:`blank_reference` without keeping it in memory: for a caller that
    keeps only what it derives from it (the reader's box plans)."""
    # The whole definition, not just the geometry: colours and text are in
    # the blank too.
    arrays = cached_arrays("blank", f"{sheet!r} at {float(px_per_mm)!r} px/mm",
                           lambda: _reference_arrays(sheet, px_per_mm))
    return BlankReference(px_per_mm=float(px_per_mm), **arrays)


def _reference_arrays(sheet: Sheet, px_per_mm: float) -> dict[str, np.ndarray]:
    ref = build_reference(render_blank(sheet, px_per_mm), px_per_mm)
    return {f.name: getattr(ref, f.name) for f in fields(ref) if f.name != "px_per_mm"}


def build_reference(blank_bgr: np.ndarray, px_per_mm: float) -> BlankReference:
    """Derive the reader's reference data from a blank sheet image (BGR uint8)."""
    r = max(1, round(EDGE_TOLERANCE_MM * px_per_mm))
    darkest = cv2.erode(blank_bgr, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                              (2 * r + 1, 2 * r + 1)))
    f = max(1, round(FLAT_RADIUS_MM * px_per_mm))
    kernel = np.ones((2 * f + 1, 2 * f + 1), np.uint8)
    spread = cv2.subtract(cv2.dilate(blank_bgr, kernel), cv2.erode(blank_bgr, kernel))
    flat = spread.max(axis=2) < FLAT_SPREAD * 255
    gray = cv2.cvtColor(blank_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gray_half = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2),
                           interpolation=cv2.INTER_AREA)
    gray_quarter = cv2.resize(gray_half, (gray_half.shape[1] // 2, gray_half.shape[0] // 2),
                              interpolation=cv2.INTER_AREA)
    return BlankReference(px_per_mm=float(px_per_mm), image=blank_bgr, darkest=darkest,
                          flat=flat, gray_half=gray_half, gray_quarter=gray_quarter)
