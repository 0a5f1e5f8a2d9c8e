"""Which layout and letter a photographed sheet is: read from its QR code.

The code's text is ``QWIXX:<LAYOUT>:<LETTER or ->:<FINGERPRINT>``
(:func:`qwixx_print.layout.code_payload`). The fingerprint changes with
any change of geometry, so a sheet is only ever read with exactly the
geometry it was printed with; anything else is refused with a message.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from qwixx_print.errors import PhotoError
from qwixx_print.layout import QR_BORDER_MODULES, Layout, Sheet
from qwixx_print.qr import qr_modules

from .disk_cache import cached_arrays
from .find import MarkerGroup
from .rectify import SheetFit, affine_fit, rectify, refit_sheet

#: Resolution (px per mm) at which the code area is warped for decoding:
#: about 6 px per QR module, plenty for OpenCV's decoder.
CODE_PX_PER_MM = 12.0
#: Blank paper added around the code area when warping it, in mm: room for
#: a position that is a little off before the layout is known.
CODE_MARGIN_MM = 4.0
#: A code the decoder cannot read (small, blurred, dark: the sheets of a
#: table photo) is compared module by module with the codes of the known
#: sheets. It is taken for a known code only when at most this share of its
#: modules differ from that code (QR error correction level M itself
#: repairs about 15 %) ...
MAX_MODULE_MISMATCH = 0.04
#: ... and at least this share differ from every other known code. Known
#: codes differ from each other in 11 % of their modules or more, and a code
#: of an unknown layout or version differs from all of them as much, so it is
#: never taken for a known one. Measured on 149 sheets of 40 generated 12 MP
#: table photos: the right code 0-3.7 % where accepted, every other >= 11 %.
MIN_MODULE_MISMATCH_OTHERS = 0.10
#: Modules under a thumb or glare are left out of the comparison; at least
#: this share of the code must be in sight. On generated photos a thumb over
#: the bottom-right corner hid up to 61 % of a code that still matched its own
#: at 2 % and every other at 22 % or more; a wrong code cannot come within
#: 4 % on a third of the modules while the right one also does, so the
#: margin to the runner-up (MIN_MODULE_MISMATCH_OTHERS) still guards.
MIN_MODULES_IN_SIGHT = 0.33
#: Fewer in sight may do where they are many modules all the same and the
#: runner-up is clearly further off: at least FEW_IN_SIGHT_MODULES of them
#: (a fifth of a sheet's code), the runner-up differing from the code seen
#: in FEW_IN_SIGHT_MARGIN more of them than the best. A blurred code in a
#: shadow's edge (hard independent table 277, photo 9: 154 modules in
#: sight, a quarter; none differing from its own code, 7.8 % from the
#: runner-up) and one beside a hidden marker (hard 252, photo 60: 199, 2 %,
#: 15 %) left their sheets unread. Over every module-by-module comparison
#: made in the 140 independent sets at hand (29,141, on 20,295 sheets), this
#: takes 1,010 more, each the code its sheet was read as in the end or one
#: of those two; where another code fitted best (436 comparisons), it
#: differed from the code seen in 9.5 % of 63 modules, 14.7 % of 109, or more.
FEW_IN_SIGHT_MODULES = 120
FEW_IN_SIGHT_MARGIN = 0.07
#: Width (mm, Gaussian sigma) of the blur taken away to sharpen a code that
#: the in-sight test would find too smooth: half a module (16 mm / 29).
#: On a blurred table photo (0033 of the 12 MP table set, 7 px/mm) only 30 %
#: of the code's modules counted as in sight; sharpened, 51 %, matching its
#: own code at 0.3 % and every other at 14 % or more.
SHARPEN_SIGMA_MM = 0.25
#: Last, the code is compared with the known ones as a whole picture
#: (:func:`match_known_code_picture`), drawn with each of these blurs (mm,
#: Gaussian sigma; the one that fits the parts all codes share best is
#: used). The best-fitting code is taken when the runner-up leaves at least
#: PICTURE_CLEAR_RUNNER_UP times its residual, or when the runner-up leaves
#: at least PICTURE_MIN_RUNNER_UP times its residual and its own residual is
#: at most PICTURE_MAX_RESIDUAL times that of the shared parts (what noise
#: alone leaves). Why this is safe: a code that is not known (another
#: layout, or a known sheet printed by another version, its fingerprint
#: changed) differs from its closest known code in 10.6 % of the modules or
#: more, and the runner-up then differs in at most 2.43 times as many (960
#: random fingerprints): even without noise no runner-up leaves 4 times the
#: residual. Measured on the 80 codes of 40 generated 12 MP table photos
#: that the decoder could not read (down to 5 px/mm, blur 2 px, JPEG 44):
#: the right code left 0.53-1.46 times the shared parts' residual, its
#: runner-up 2.3 times its own or more; with the right code left out of the
#: known ones (as if unknown, also with its fingerprint changed), the
#: closest left 1.63 times or more and the runner-up at most 2.45 times that.
PICTURE_BLURS_MM = (0.125, 0.25, 0.375, 0.5)
PICTURE_MAX_RESIDUAL = 1.4
PICTURE_MIN_RUNNER_UP = 2.0
PICTURE_CLEAR_RUNNER_UP = 4.0
#: When the code cannot be read where the markers put it, its three finder
#: patterns are looked for this far (mm) around that place. With a corner
#: marker hidden (under the thumb holding the sheet) the sheet is fitted to
#: three markers, and the fit can be off by several mm at the hidden corner:
#: on generated photos of curled, tilted sheets up to about 10 mm, on an
#: independent one of a sheet bent 7 mm and tilted 30 degrees (foreign_photos.py
#: seed 3, photo 77) 13 mm, and on one bent 6.3 mm and tilted 25 degrees
#: (seed 7, photo 17) 19 mm. Looking further costs only where the code was
#: not read where it should be; what is found still has to be a known code
#: of this size, and the fit pinned to it a sheet (see pin_fit_at_code).
CODE_SEARCH_MM = 24.0
#: A code not recognised where the fit puts it is straightened by its own
#: finder patterns, each looked for this far (mm) around its place there
#: (see :func:`_straightened_by_finders`).
STRAIGHTEN_SEARCH_MM = 2.5
#: Where even the finders are not found there, OpenCV's QR detectors look at
#: the picture itself (see :func:`detect_code`), scaled to at least this
#: many px a module.
DETECT_MODULE_PX = 4.0
#: A finder pattern is taken where the picture matches its look at least this
#: well (normalised correlation, 1 = perfectly).
MIN_FINDER_SCORE = 0.55
#: The three finders must sit as on an upright code of the expected size:
#: each step between them within this share of the expected length and
#: FINDER_SKEW_DEG of its direction (a steep view of bent paper shears the
#: code: 13 degrees on foreign_photos.py seed 3, photo 77). A code seen
#: turned or much larger or smaller (a neighbouring sheet's, the sheet's own
#: after a far worse fit) is not taken.
FINDER_LAYOUT_TOLERANCE = 0.2
FINDER_SKEW_DEG = 20.0
#: The finders are looked for at these scales (across, down) of the size the
#: fit gives them, and only where none of those finds three, at the wide
#: ones: a bent sheet photographed steeply with its bottom-right marker
#: under a thumb (independent photos, foreign_photos.py seed 3, photo 77)
#: showed its code at 0.65 x 0.9 of that size, 10 mm from its place.
FINDER_SCALES = ((1.0, 1.0), (0.9, 0.9), (1.1, 1.1))
FINDER_WIDE_SCALES = tuple((sx, sy) for sx in (0.6, 0.7, 0.8, 0.9, 1.0, 1.15, 1.3)
                           for sy in (0.6, 0.7, 0.8, 0.9, 1.0, 1.15, 1.3)
                           if (sx, sy) not in FINDER_SCALES)


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

    def code_rects_mm(self, size_mm: tuple[float, float]
                      ) -> list[tuple[float, float, float, float]]:
        """Distinct code areas (x0, y0, x1, y1 mm) of the known sheets of this size."""
        rects = {(s.furniture.code.x, s.furniture.code.y,
                  s.furniture.code.x + s.furniture.code.w, s.furniture.code.y + s.furniture.code.h)
                 for s in self.by_payload.values() if s.size_mm == size_mm}
        return sorted(rects)

    def payloads_with_code_at(self, size_mm: tuple[float, float],
                              code_rect_mm: tuple[float, float, float, float]) -> list[str]:
        """Payloads of the known sheets of this size whose code lies in ``code_rect_mm``."""
        return sorted(p for p, s in self.by_payload.items() if s.size_mm == size_mm
                      and (s.furniture.code.x, s.furniture.code.y,
                           s.furniture.code.x + s.furniture.code.w,
                           s.furniture.code.y + s.furniture.code.h) == code_rect_mm)

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
              size_mm: tuple[float, float], *, known_payloads: Iterable[str] = ()) -> str | None:
    """Decode the QR code inside ``code_rect_mm`` (x0, y0, x1, y1 mm) of a
    sheet placed in the grayscale picture ``gray`` by ``fit``; None if it
    cannot be read. When the decoder fails, the code is compared module by
    module with ``known_payloads`` (see :data:`MAX_MODULE_MISMATCH`)."""
    if gray.ndim != 2:
        raise ValueError(f"gray must be a 2-D (grayscale) image, not shape {gray.shape}")
    x0, y0, x1, y1 = code_rect_mm
    m = CODE_MARGIN_MM
    region = (x0 - m, y0 - m, x1 + m, y1 + m)
    crop = rectify(gray, fit, size_mm, px_per_mm=CODE_PX_PER_MM, region_mm=region)
    payloads = list(known_payloads)
    n_modules = code_module_count(payloads)
    code_px = round((x1 - x0) * CODE_PX_PER_MM)
    straight = None
    if n_modules:
        # Compared module by module with the known codes first (1 ms), then
        # straightened by its own finder patterns and compared again, then
        # decoded in place (1.3 ms), before the decoder looks for the code
        # (4.6 ms a try). The comparison takes no unknown code (see
        # MAX_MODULE_MISMATCH); an unknown one is read by the decoder. The
        # fit often puts the code a little off in place, scale or angle: of
        # 100 independent photos (seed 141) 50 codes were decoded in place
        # and 29 more recognised as they were, and now 96 without the
        # decoder; of 100 hard ones (seed 142) 2 and 24, now 90. This step's
        # median fell from 2.1 to 1.1 ms and, on the hard ones, 7.8 to 3.0.
        text = match_known_code(crop, payloads, code_px=code_px)
        if text:
            return text
        straight = _straightened_by_finders(crop, x1 - x0, n_modules)
        if straight is not None:
            text = match_known_code(straight, payloads, code_px=code_px) \
                or _decode_in_place(straight, x1 - x0, n_modules)
            if text:
                return text
        text = _decode_in_place(crop, x1 - x0, n_modules)
        if text:
            return text
    for candidate in _variants(crop):
        text = _decode(candidate)
        if text:
            return text
    # A code blurred over half a module looks as smooth as a thumb to the
    # in-sight test; sharpened, its modules stand out again (a thumb stays
    # smooth), and the same thresholds decide. Straightened too: a table
    # sheet in a dark, noisy photo tilted 38 degrees (every photo hard
    # table seed 117, photo 28) was read only so.
    if not payloads:
        return None
    for picture in (crop,) if straight is None else (crop, straight):
        text = (match_known_code(_sharpened(picture), payloads, code_px=code_px)
                or match_known_code_picture(picture, payloads, code_px=code_px))
        if text:
            return text
    return None


def _straightened_by_finders(crop: np.ndarray, code_mm: float,
                             n_modules: int) -> np.ndarray | None:
    """``crop`` (the code area warped with CODE_MARGIN_MM around it) moved
    so that the code's three finder patterns, looked for within
    STRAIGHTEN_SEARCH_MM of where the fit puts them, sit where the fit puts
    them (an affine warp); None where one is not found or the three do not
    lie as on an upright code (see FINDER_LAYOUT_TOLERANCE)."""
    ppm = CODE_PX_PER_MM
    module_px = code_mm / (n_modules + 2 * QR_BORDER_MODULES) * ppm
    template = _finder_picture(round(module_px * 4) / 4)
    half_x, half_y = template.shape[1] // 2, template.shape[0] // 2
    score = cv2.matchTemplate(crop.astype(np.float32), template, cv2.TM_CCOEFF_NORMED)
    margin_mm = np.array([CODE_MARGIN_MM, CODE_MARGIN_MM])
    rect = (0.0, 0.0, code_mm, code_mm)
    expected = (finder_centres_mm(rect, n_modules) + margin_mm) * ppm  # crop px
    reach = round(STRAIGHTEN_SEARCH_MM * ppm)
    found = []
    for cx, cy in expected - (half_x, half_y):  # score px of each finder's top-left
        x0, y0 = max(round(cx) - reach, 0), max(round(cy) - reach, 0)
        window = score[y0:round(cy) + reach + 1, x0:round(cx) + reach + 1]
        if window.size == 0:
            return None
        _, best, _, (x, y) = cv2.minMaxLoc(window)
        if best < MIN_FINDER_SCORE:
            return None
        x, y = x + x0, y + y0
        found.append((x + _vertex(score, y, x, axis=1) + half_x,
                      y + _vertex(score, y, x, axis=0) + half_y))
    found_px = np.array(found, np.float64)
    far = (n_modules - 7) * module_px
    if not (_finder_step(found_px[1] - found_px[0], far, 0)
            and _finder_step(found_px[2] - found_px[0], far, 1)):
        return None
    to_place = cv2.getAffineTransform(found_px.astype(np.float32), expected.astype(np.float32))
    return cv2.warpAffine(crop, to_place, crop.shape[1::-1], flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def _sharpened(gray: np.ndarray) -> np.ndarray:
    """``gray`` with detail finer than about half a QR module doubled (unsharp mask)."""
    image = gray.astype(np.float32)
    soft = cv2.GaussianBlur(image, (0, 0), SHARPEN_SIGMA_MM * CODE_PX_PER_MM)
    return np.clip(2 * image - soft, 0, 255).astype(np.uint8)


def search_code(gray: np.ndarray, fit: SheetFit,
                code_rect_mm: tuple[float, float, float, float],
                size_mm: tuple[float, float], *,
                known_payloads: Iterable[str]) -> tuple[str, np.ndarray] | None:
    """The code of a known sheet, looked for around where ``fit`` puts it
    (for when :func:`read_code` found nothing there): its text and its three
    finder centres in picture px (:func:`find_code_finders`), or None.

    The code is read in the frame its own finder patterns give, so a fit off
    by several mm at the code (a hidden marker, curled paper) does not matter.
    """
    payloads = list(known_payloads)
    n_modules = code_module_count(payloads)
    if n_modules is None:
        return None
    finders_px = find_code_finders(gray, fit, code_rect_mm, size_mm, n_modules)
    if finders_px is None:
        return detect_code(gray, fit, code_rect_mm, payloads, n_modules)
    code_fit = affine_fit(finder_centres_mm(code_rect_mm, n_modules), finders_px)
    text = read_code(gray, code_fit, code_rect_mm, size_mm, known_payloads=payloads)
    return (text, finders_px) if text else None


def detect_code(gray: np.ndarray, fit: SheetFit, code_rect_mm: tuple[float, float, float, float],
                payloads: list[str], n_modules: int, *,
                search_mm: float = CODE_SEARCH_MM) -> tuple[str, np.ndarray] | None:
    """A known code found and read by OpenCV's QR detectors in the picture
    itself (not warped by ``fit``), up to ``search_mm`` around where ``fit``
    puts it: its text and its three finder centres in picture px, or None.

    The last resort of :func:`search_code`: a sheet bent 5-6.5 mm and seen
    35 degrees steep with a marker out of sight is fitted so poorly at the
    code that neither the warped code nor its finders are found where the
    fit puts them, while the picture shows the code plainly (independent
    photos, foreign_photos.py: 4 of the 5 of 850 photos whose code was not
    read). Only a code of this sheet's size and place among the known
    ``payloads`` counts; where it lies is checked by the caller
    (:func:`pin_fit_at_code` and the fit's error).
    """
    x0, y0, x1, y1 = code_rect_mm
    m = search_mm
    around = fit.to_px(np.array([[x0 - m, y0 - m], [x1 + m, y0 - m], [x1 + m, y1 + m],
                                 [x0 - m, y1 + m]]))
    bx0, by0 = np.maximum(np.floor(around.min(axis=0)).astype(int), 0)
    bx1 = min(int(np.ceil(around[:, 0].max())), gray.shape[1])
    by1 = min(int(np.ceil(around[:, 1].max())), gray.shape[0])
    if bx1 - bx0 < 16 or by1 - by0 < 16:
        return None
    crop = gray[by0:by1, bx0:bx1]
    module_mm = (x1 - x0) / (n_modules + 2 * QR_BORDER_MODULES)
    module_px = fit.px_per_mm * module_mm
    # The detectors want a few px a module; blurred modules read better larger.
    for scale in (max(1.0, DETECT_MODULE_PX / module_px),
                  max(2.0, 2 * DETECT_MODULE_PX / module_px)):
        picture = crop if scale == 1.0 else cv2.resize(crop, None, fx=scale, fy=scale,
                                                       interpolation=cv2.INTER_CUBIC)
        for detector in _detectors():
            try:
                text, corners, _ = detector.detectAndDecode(picture)
            except cv2.error:
                continue
            if text not in payloads or corners is None:
                continue
            # The detector's corners are the symbol's own (quiet zone left
            # out), top-left first in the code's reading order.
            corners_px = corners.reshape(4, 2).astype(np.float64) / scale + (bx0, by0)
            sx, sy = x0 + QR_BORDER_MODULES * module_mm, y0 + QR_BORDER_MODULES * module_mm
            side = n_modules * module_mm
            symbol_mm = np.float32([[sx, sy], [sx + side, sy], [sx + side, sy + side],
                                    [sx, sy + side]])
            to_px = cv2.getPerspectiveTransform(symbol_mm, corners_px.astype(np.float32))
            finders = cv2.perspectiveTransform(
                finder_centres_mm(code_rect_mm, n_modules).reshape(-1, 1, 2), to_px)
            return text, finders.reshape(3, 2)
    return None


def _detectors() -> tuple[cv2.QRCodeDetector, cv2.QRCodeDetectorAruco]:
    """The plain decoder's detector (:func:`_qr`) and the ArUco-based one."""
    global _QR_ARUCO
    if _QR_ARUCO is None:
        _QR_ARUCO = cv2.QRCodeDetectorAruco()
    return _qr(), _QR_ARUCO


_QR_ARUCO: cv2.QRCodeDetectorAruco | None = None


def pin_fit_at_code(gray: np.ndarray, fit: SheetFit, group: MarkerGroup,
                    code_rect_mm: tuple[float, float, float, float],
                    size_mm: tuple[float, float], payloads: Iterable[str], *,
                    finders_px: np.ndarray | None = None) -> SheetFit | None:
    """``fit`` (to three markers) fitted again with the code's finder patterns
    (``finders_px``, or found here near where ``fit`` puts them): a fit that
    also holds at the corner of the hidden marker. None when the finders are
    not found or the points do not fit a sheet."""
    n_modules = code_module_count(payloads)
    if n_modules is None:
        return None
    if finders_px is None:
        finders_px = find_code_finders(gray, fit, code_rect_mm, size_mm, n_modules)
        if finders_px is None:
            return None
    try:
        return refit_sheet(group, size_mm, finder_centres_mm(code_rect_mm, n_modules), finders_px)
    except ValueError:
        return None


def code_module_count(payloads: Iterable[str]) -> int | None:
    """The number of modules a side shared by the codes of ``payloads``
    (None when they differ or there are none)."""
    sizes = {code_modules(p).shape[0] for p in payloads}
    return sizes.pop() if len(sizes) == 1 else None


def finder_centres_mm(code_rect_mm: tuple[float, float, float, float],
                      n_modules: int) -> np.ndarray:
    """Where the centres of a printed code's three finder patterns are on the
    sheet (mm): its top-left, top-right and bottom-left one, as a 3 x 2 array."""
    x0, y0, x1, _y1 = code_rect_mm
    module = (x1 - x0) / (n_modules + 2 * QR_BORDER_MODULES)
    near = x0 + (QR_BORDER_MODULES + 3.5) * module, y0 + (QR_BORDER_MODULES + 3.5) * module
    far = (n_modules - 7) * module
    return np.array([near, (near[0] + far, near[1]), (near[0], near[1] + far)], np.float64)


def find_code_finders(gray: np.ndarray, fit: SheetFit,
                      code_rect_mm: tuple[float, float, float, float],
                      size_mm: tuple[float, float], n_modules: int, *,
                      search_mm: float = CODE_SEARCH_MM) -> np.ndarray | None:
    """The picture px (3 x 2: top-left, top-right, bottom-left finder pattern)
    of the code printed in ``code_rect_mm``, looked for up to ``search_mm``
    around where ``fit`` puts it; None when no upright code of that size is
    there.

    For a fit that is off at the code (a corner marker hidden): the finder
    centres found anchor a better fit. Only the finder patterns' layout is
    checked here; whether the code is a known one is for :func:`read_code`.
    """
    x0, y0, x1, y1 = code_rect_mm
    ppm = CODE_PX_PER_MM
    region = (x0 - search_mm, y0 - search_mm, x1 + search_mm, y1 + search_mm)
    crop = rectify(gray, fit, size_mm, px_per_mm=ppm, region_mm=region).astype(np.float32)
    module_px = (x1 - x0) / (n_modules + 2 * QR_BORDER_MODULES) * ppm
    expected = finder_centres_mm(code_rect_mm, n_modules)
    best: tuple[float, np.ndarray] | None = None
    # The fit may be off in scale where it is off in place: a little as a
    # rule, much and unevenly where the paper is bent as well.
    far = (n_modules - 7) * module_px  # from one finder's centre to the next
    for scales in (FINDER_SCALES, FINDER_WIDE_SCALES):
        for sx, sy in scales:
            template = _finder_picture(round(module_px * sx * 4) / 4,
                                       round(module_px * sy * 4) / 4)
            half_x, half_y = template.shape[1] // 2, template.shape[0] // 2
            score = cv2.matchTemplate(crop, template, cv2.TM_CCOEFF_NORMED)
            peaks = _peaks(score, MIN_FINDER_SCORE, spacing=min(half_x, half_y))
            found = _finder_triple(peaks, far * sx, far * sy)
            if found is None:
                continue
            total, centres = found
            if best is None or total > best[0]:
                best = (total, centres + (half_x, half_y))
        if best is not None:
            break
    if best is None:
        return None
    centres_mm = best[1] / ppm + np.array(region[:2])
    # ``fit`` is off by the error sought, but the same homography maps the
    # crop back to the picture: the centres land where they are in the photo.
    # The code's middle (between its top-right and bottom-left finder) within
    # the search: a code seen smaller than the fit has it ends up with its
    # far finders further off.
    middle = (centres_mm[1] + centres_mm[2]) / 2 - (expected[1] + expected[2]) / 2
    if np.hypot(*middle) > search_mm:
        return None
    return fit.to_px(centres_mm)


@lru_cache(maxsize=64)
def _finder_picture(module_px: float, module_px_y: float | None = None) -> np.ndarray:
    """A finder pattern with its light separator (9 x 9 modules), 0 dark 1
    light; its modules ``module_px`` wide and ``module_px_y`` (default as
    wide) high."""
    cells = np.ones((9, 9), np.float32)
    cells[1:8, 1:8] = 0
    cells[2:7, 2:7] = 1
    cells[3:6, 3:6] = 0
    width = int(round(9 * module_px)) | 1  # odd: the centre falls on a pixel
    height = int(round(9 * (module_px_y or module_px))) | 1
    picture = cv2.resize(cells, (width, height), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(picture, (0, 0), 1.0)


def _peaks(score: np.ndarray, minimum: float, *, spacing: int) -> list[tuple[float, float, float]]:
    """Local maxima of ``score`` above ``minimum`` at least ``spacing`` px apart:
    (x, y, score), best first, to sub-pixel precision."""
    size = 2 * spacing + 1
    is_max = (score >= cv2.dilate(score, np.ones((size, size), np.uint8))) & (score >= minimum)
    ys, xs = np.nonzero(is_max)
    order = np.argsort(-score[ys, xs])[:12]
    out = []
    for y, x in zip(ys[order], xs[order], strict=True):
        out.append((x + _vertex(score, y, x, axis=1), y + _vertex(score, y, x, axis=0),
                    float(score[y, x])))
    return out


def _vertex(score: np.ndarray, y: int, x: int, *, axis: int) -> float:
    """The offset (-0.5..0.5 px) of the top of a parabola through 3 scores."""
    if axis == 1:
        if not 0 < x < score.shape[1] - 1:
            return 0.0
        a, b, c = score[y, x - 1], score[y, x], score[y, x + 1]
    else:
        if not 0 < y < score.shape[0] - 1:
            return 0.0
        a, b, c = score[y - 1, x], score[y, x], score[y + 1, x]
    denominator = a - 2 * b + c
    return float(np.clip(0.5 * (a - c) / denominator, -0.5, 0.5)) if denominator < 0 else 0.0


def _finder_triple(peaks: list[tuple[float, float, float]], distance_x: float,
                   distance_y: float) -> tuple[float, np.ndarray] | None:
    """The best three peaks laid out as an upright code's finders: top-left,
    top-right about ``distance_x`` px to its right, bottom-left about
    ``distance_y`` px below (each step's length within
    FINDER_LAYOUT_TOLERANCE, its direction within FINDER_SKEW_DEG). Returns
    (summed score, 3 x 2 px) or None."""
    points = np.array([(x, y) for x, y, _ in peaks], np.float64).reshape(-1, 2)
    best: tuple[float, np.ndarray] | None = None
    for i, top_left in enumerate(points):
        for j, top_right in enumerate(points):
            if j == i or not _finder_step(top_right - top_left, distance_x, 0):
                continue
            for k, bottom_left in enumerate(points):
                if k in (i, j) or not _finder_step(bottom_left - top_left, distance_y, 1):
                    continue
                total = peaks[i][2] + peaks[j][2] + peaks[k][2]
                if best is None or total > best[0]:
                    best = (total, np.array([top_left, top_right, bottom_left]))
    return best


def _finder_step(step: np.ndarray, distance: float, axis: int) -> bool:
    """Whether ``step`` goes about ``distance`` px along ``axis`` (0: right, 1: down)."""
    length = float(np.hypot(*step))
    if abs(length - distance) > FINDER_LAYOUT_TOLERANCE * distance:
        return False
    return step[axis] >= length * np.cos(np.radians(FINDER_SKEW_DEG))


def match_known_code(crop: np.ndarray, payloads: list[str], *, code_px: int) -> str | None:
    """The payload among ``payloads`` whose QR code ``crop`` shows, or None.

    ``crop``: grayscale, the code square (``code_px`` px a side, quiet zone
    included) somewhere inside, upright. The square is located by matching
    the codes' common look (finder patterns), each module is sampled at its
    centre and called dark or light, and the module grid is compared with
    each known code's, leaving out modules hidden under a thumb or glare.
    """
    grids = [code_modules(p) for p in payloads]
    if len({g.shape for g in grids}) != 1 or crop.shape[0] < code_px or crop.shape[1] < code_px:
        return None
    n = grids[0].shape[0]
    square = _code_square(crop, payloads, code_px)
    step = code_px / (n + 2 * QR_BORDER_MODULES)
    # the mean of the middle half of each module (blur spreads its edges)
    centres = (np.arange(n) + QR_BORDER_MODULES + 0.5) * step
    half = max(1, round(step / 4))
    summed = cv2.boxFilter(square, -1, (2 * half + 1, 2 * half + 1))
    idx = np.clip(np.round(centres).astype(int), 0, code_px - 1)
    values = summed[np.ix_(idx, idx)]
    low, high = np.percentile(values, (5, 95))
    if high - low < 10:  # no contrast: nothing to compare
        return None
    dark = values < (low + high) / 2
    seen = _modules_in_sight(values, low, high)
    in_sight = np.count_nonzero(seen)
    many_in_sight = in_sight >= MIN_MODULES_IN_SIGHT * seen.size
    if not many_in_sight and in_sight < FEW_IN_SIGHT_MODULES:
        return None
    mismatch = sorted((float(np.mean((dark != g)[seen])), p)
                      for g, p in zip(grids, payloads, strict=True))
    best, payload = mismatch[0]
    others = mismatch[1][0] if len(mismatch) > 1 else 1.0
    if best > MAX_MODULE_MISMATCH:
        return None
    if many_in_sight and others >= MIN_MODULE_MISMATCH_OTHERS:
        return payload
    if in_sight >= FEW_IN_SIGHT_MODULES and others - best >= FEW_IN_SIGHT_MARGIN:
        return payload
    return None


def match_known_code_picture(crop: np.ndarray, payloads: list[str], *,
                             code_px: int) -> str | None:
    """The payload among ``payloads`` whose QR code ``crop`` shows, judged on
    the whole picture rather than module by module; None if unsure.

    For codes too small or blurred to call single modules (a table photo:
    under 3 px per module). Each known code is drawn as the photo shows it
    (blurred like the photo's finder patterns) and fitted to the crop with
    the same brightness and contrast. The residual over the parts every
    code shares (finders, timing, quiet zone) is what noise alone leaves;
    over the data modules the right code leaves about as much, a wrong one
    far more (see PICTURE_* for the thresholds and why they are safe).
    """
    grids = [code_modules(p) for p in payloads]
    if len(payloads) < 2 or len({g.shape for g in grids}) != 1 \
            or crop.shape[0] < code_px or crop.shape[1] < code_px:
        return None
    seen = _code_square(crop, payloads, code_px).astype(np.float64).ravel()
    best: tuple[float, np.ndarray] | None = None
    for sigma in PICTURE_BLURS_MM:
        pictures = np.array([_code_picture(p, code_px, sigma * CODE_PX_PER_MM).ravel()
                             for p in payloads], np.float64)
        spread = pictures.max(axis=0) - pictures.min(axis=0)
        shared, data = spread < 0.02, spread > 0.25
        design = np.stack([pictures[0][shared], np.ones(int(shared.sum()))], axis=1)
        (gain, offset), *_ = np.linalg.lstsq(design, seen[shared], rcond=None)
        noise = float(np.mean((seen[shared] - design @ (gain, offset)) ** 2))
        if gain <= 0 or noise <= 0:
            continue
        residuals = np.mean((seen[data] - (gain * pictures[:, data] + offset)) ** 2, axis=1)
        if best is None or noise < best[0]:
            best = (noise, residuals)
    if best is None:
        return None
    noise, residuals = best
    order = np.argsort(residuals)
    first, second = residuals[order[0]], residuals[order[1]]
    clear = second >= PICTURE_CLEAR_RUNNER_UP * first
    close_to_noise = (first <= PICTURE_MAX_RESIDUAL * noise
                      and second >= PICTURE_MIN_RUNNER_UP * first)
    return payloads[int(order[0])] if clear or close_to_noise else None


def _code_square(crop: np.ndarray, payloads: list[str], code_px: int) -> np.ndarray:
    """The ``code_px`` square of ``crop`` (float32) where the known codes'
    common look (finder patterns, timing, quiet zone) matches best."""
    common = np.mean([_code_picture(p, code_px) for p in payloads], axis=0).astype(np.float32)
    score = cv2.matchTemplate(crop.astype(np.float32), common, cv2.TM_CCOEFF_NORMED)
    _, _, _, (x, y) = cv2.minMaxLoc(score)
    return crop[y:y + code_px, x:x + code_px].astype(np.float32)


def _modules_in_sight(values: np.ndarray, low: float, high: float) -> np.ndarray:
    """Modules not hidden under a thumb or glare: a printed code changes from
    module to module almost everywhere, a finger over it is smooth. True where
    the 3 x 3 modules around a module vary by at least a third of the code's
    contrast."""
    v = ((values - low) / (high - low)).astype(np.float32)
    mean = cv2.blur(v, (3, 3), borderType=cv2.BORDER_REFLECT)
    square = cv2.blur(v * v, (3, 3), borderType=cv2.BORDER_REFLECT)
    return np.sqrt(np.maximum(square - mean * mean, 0.0)) > 0.3


@lru_cache(maxsize=64)
def code_modules(payload: str) -> np.ndarray:
    """The QR code of ``payload`` as ``qwixx print`` draws it (error correction
    M): a square bool array, True = dark module, without the quiet zone.
    Kept on disk between runs (see :mod:`qwixx_scan.disk_cache`): encoding
    takes about 40 ms a code, and a code is compared with all its neighbours'."""
    return cached_arrays("code", f"QR M {payload!r}", lambda: {"modules": qr_modules(payload)})[
        "modules"]


@lru_cache(maxsize=256)
def _code_picture(payload: str, code_px: int, blur_px: float = 1.5) -> np.ndarray:
    """The printed code square (quiet zone included), ``code_px`` px, 0 dark
    1 light, softened like a photo (Gaussian sigma ``blur_px``)."""
    cells = np.pad(~code_modules(payload), QR_BORDER_MODULES, constant_values=True)
    picture = cv2.resize(cells.astype(np.float32), (code_px, code_px),
                         interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(picture, (0, 0), blur_px)


def _variants(gray: np.ndarray):
    yield gray
    # Uneven light or a soft focus: a local threshold gives the decoder clean modules.
    yield cv2.adaptiveThreshold(cv2.GaussianBlur(gray, (3, 3), 0), 255,
                                cv2.ADAPTIVE_THRESH_GAUSSIAN_C, cv2.THRESH_BINARY, 51, 10)
    yield cv2.resize(gray, None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA)


_QR: cv2.QRCodeDetector | None = None


def _qr() -> cv2.QRCodeDetector:
    global _QR
    if _QR is None:
        _QR = cv2.QRCodeDetector()
    return _QR


def _decode(gray: np.ndarray) -> str | None:
    try:
        text, _points, _ = _qr().detectAndDecode(gray)
    except cv2.error:
        return None
    return text or None


def _decode_in_place(crop: np.ndarray, code_mm: float, n_modules: int) -> str | None:
    """Decode the code (a square ``code_mm`` a side) where the sheet's fit
    puts it in ``crop`` (the code area warped with CODE_MARGIN_MM around
    it), skipping the detector.

    Finding the code costs the decoder three quarters of its time; with the
    place known it decoded 105 of 151 codes of generated photos in 2.5 ms
    each, where detecting too read 141 in 10 ms. What it reads is the same
    full decode (error correction included); the rest get the detector.
    """
    quiet_mm = QR_BORDER_MODULES * code_mm / (n_modules + 2 * QR_BORDER_MODULES)
    near = (CODE_MARGIN_MM + quiet_mm) * CODE_PX_PER_MM  # the modules' corners, px
    far = (CODE_MARGIN_MM + code_mm - quiet_mm) * CODE_PX_PER_MM
    corners = np.float32([[[near, near], [far, near], [far, far], [near, far]]])
    try:
        text, _ = _qr().decode(crop, corners)
    except cv2.error:
        return None
    return text or None
