"""The blank printed sheet as an image: ``sheet_pdf(sheet)`` rasterized.

The photo generator draws marks on the real printed sheet, so what the
scanner sees in a generated photo is what a printer would have put on
paper. Rasterizations are cached per sheet and resolution.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pypdfium2 as pdfium

from qwixx_print.layout import Sheet
from qwixx_print.render import sheet_pdf

#: Resolutions (px per mm) the blank sheet is rasterized at; a photo uses
#: the smallest one at least as fine as the sheet appears in it, so only a
#: few rasterizations per sheet are ever made.
PX_PER_MM_LEVELS = (4, 6, 8, 10, 13, 16, 20, 25)
_CACHE_BYTES = 400_000_000  # a few 12 MP sheets, or every sheet at table-photo sizes
_cache: OrderedDict[tuple[str, int], np.ndarray] = OrderedDict()
_pdfs: dict[str, bytes] = {}

_PT_PER_MM = 72 / 25.4


def raster_level(px_per_mm_needed: float) -> int:
    """The cached resolution to use for a sheet seen at ``px_per_mm_needed``."""
    for level in PX_PER_MM_LEVELS:
        if level >= px_per_mm_needed:
            return level
    return PX_PER_MM_LEVELS[-1]


def blank_sheet(sheet: Sheet, px_per_mm: int) -> np.ndarray:
    """The blank sheet, BGR uint8, exactly ``round(size_mm * px_per_mm)`` pixels.

    Pixel (0, 0) is the top-left trim corner; x right, y down. The returned
    array is shared by the cache: copy it before drawing on it.
    """
    key = (sheet.code_payload, int(px_per_mm))
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    if sheet.code_payload not in _pdfs:
        _pdfs[sheet.code_payload] = sheet_pdf(sheet)
    doc = pdfium.PdfDocument(_pdfs[sheet.code_payload])
    try:
        bitmap = doc[0].render(scale=px_per_mm / _PT_PER_MM, fill_color=(255, 255, 255, 255))
        image = np.array(bitmap.to_numpy()[:, :, :3])
        if bitmap.mode.startswith("RGB"):
            image = image[:, :, ::-1]
    finally:
        doc.close()
    width = round(sheet.size_mm[0] * px_per_mm)
    height = round(sheet.size_mm[1] * px_per_mm)
    # pdfium rounds the page size up; the extra row/column is sub-pixel paper
    image = np.ascontiguousarray(image[:height, :width])
    if image.shape[:2] != (height, width):
        image = np.pad(image, ((0, height - image.shape[0]), (0, width - image.shape[1]), (0, 0)),
                       mode="edge")
    image.flags.writeable = False
    _cache[key] = image
    while sum(a.nbytes for a in _cache.values()) > _CACHE_BYTES and len(_cache) > 1:
        _cache.popitem(last=False)
    return image
