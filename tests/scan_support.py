"""Helpers for the scanner tests: simple, exactly known photos of real sheets.

The sheet is the real PDF (``qwixx_print.render``) rasterized, with bold
synthetic crosses; it is placed in the picture by a known homography so a
test can check where the scanner put it. The realistic photos (hand-like
strokes, light, blur) come from ``photogen``; these are the controlled ones.
"""

from __future__ import annotations

import cv2
import numpy as np
from qwixx_print.layout import Sheet
from qwixx_scan.blank import render_blank
from qwixx_scan.box_model import INPUT_CHANNELS, INPUT_PX
from qwixx_scan.verdict import BoxEvidence, BoxVerdict, decide

SHEET_PPM = 12.0  # px per mm of the flat sheet image the photos are made from


_FLAT: dict[tuple[str, float], np.ndarray] = {}


def _flat(sheet: Sheet, ppm: float) -> np.ndarray:
    key = (sheet.code_payload, ppm)
    if key not in _FLAT:
        _FLAT[key] = render_blank(sheet, ppm)
    return _FLAT[key]


def flat_sheet(sheet: Sheet, crosses: tuple[str, ...] = (), ppm: float = SHEET_PPM) -> np.ndarray:
    """The blank sheet (BGR, ``ppm`` px per mm) with a blue X in each box of ``crosses``."""
    image = _flat(sheet, ppm).copy()
    for box_id in crosses:
        r = sheet.box(box_id).rect
        x0, y0 = (r.x + 1.6) * ppm, (r.y + 1.6) * ppm
        x1, y1 = (r.x + r.w - 1.6) * ppm, (r.y + r.h - 1.6) * ppm
        width = max(2, round(0.5 * ppm))
        for a, b in (((x0, y0), (x1, y1)), ((x1, y0), (x0, y1))):
            cv2.line(image, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])),
                     (140, 50, 20), width, cv2.LINE_AA)
    return image


def placement(sheet: Sheet, picture_size: tuple[int, int], *, centre: tuple[float, float],
              width_px: float, angle_deg: float = 0.0, tilt: float = 0.0) -> np.ndarray:
    """A homography sheet mm -> picture px: the sheet ``width_px`` wide, turned by
    ``angle_deg``, centred at ``centre``; ``tilt`` narrows its far (top) side."""
    w_mm, h_mm = sheet.size_mm
    scale = width_px / w_mm
    corners = np.array([[0, 0], [w_mm, 0], [w_mm, h_mm], [0, h_mm]], np.float64)
    pts = (corners - [w_mm / 2, h_mm / 2]) * scale
    pts[:, 0] *= 1 - tilt * (0.5 - corners[:, 1] / h_mm)
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    pts = pts @ rot.T + centre
    return cv2.getPerspectiveTransform(corners.astype(np.float32), pts.astype(np.float32))


def photo(picture_size: tuple[int, int], sheets: list[tuple[np.ndarray, np.ndarray]], *,
          seed: int = 0, noise: float = 3.0, blur: float = 0.8) -> np.ndarray:
    """A picture of ``picture_size`` (w, h px) showing each (flat image, mm->px
    homography) pair on a wooden-brown table, with mild blur and noise."""
    width, height = picture_size
    canvas = np.empty((height, width, 3), np.uint8)
    canvas[:] = (70, 100, 140)
    to_mm = np.diag([1 / SHEET_PPM, 1 / SHEET_PPM, 1.0])  # flat sheets are at SHEET_PPM
    for flat, h_mm in sheets:
        # BORDER_TRANSPARENT leaves the table wherever the sheet is not.
        cv2.warpPerspective(flat, h_mm @ to_mm, (width, height), dst=canvas,
                            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    if blur:
        canvas = cv2.GaussianBlur(canvas, (0, 0), blur)
    cv2.setRNGSeed(seed)
    grain = np.empty(canvas.shape, np.int16)
    cv2.randn(grain, 0, noise)
    return cv2.add(canvas, grain, dtype=cv2.CV_8U)


def cover(image: np.ndarray, h_mm: np.ndarray, rect_mm: tuple[float, float, float, float],
          colour: tuple[int, int, int] = (120, 150, 205)) -> np.ndarray:
    """Paint a skin-coloured blob over ``rect_mm`` (x0, y0, x1, y1) of a placed sheet:
    a thumb hiding a marker."""
    x0, y0, x1, y1 = rect_mm
    pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64).reshape(-1, 1, 2)
    px = cv2.perspectiveTransform(pts, h_mm).reshape(-1, 2)
    out = image.copy()
    cv2.fillConvexPoly(out, np.round(px).astype(np.int32), colour, cv2.LINE_AA)
    return out


def write_jpeg(path, image: np.ndarray, quality: int = 88) -> None:
    if not cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, quality]):
        raise OSError(f"cannot write {path}")


#: The photo's grey where a pen stroke lies in :func:`boxes_with`'s boxes (paper 1).
PEN = 0.3
#: The middle of a box's network input (px).
C = INPUT_PX // 2


def pen_stroke(x0, y0, x1, y1):
    """A straight pen stroke from (x0, y0) to (x1, y1), as a mark for
    :func:`boxes_with`."""
    return lambda image: cv2.line(image, (x0, y0), (x1, y1), PEN, 2, cv2.LINE_AA)


def boxes_with(*marks, two_digits: bool = False) -> np.ndarray:
    """One network input per mark: a light box with a dark printed number in
    its middle (in the photo as in the blank) and the mark drawn over it,
    ``mark(image)`` drawing on a 48 x 48 grey image (paper 1.0).
    ``two_digits``: the number printed as two digits 6 px apart (a 10, 11
    or 12), not as one."""
    out = np.ones((len(marks), INPUT_CHANNELS, INPUT_PX, INPUT_PX), np.float32)
    c = INPUT_PX // 2
    for k, mark in enumerate(marks):
        if two_digits:
            out[k, :, c - 6:c + 6, c - 8:c - 3] = 0.25
            out[k, :, c - 6:c + 6, c + 3:c + 8] = 0.25
        else:
            out[k, :, c - 6:c + 6, c - 4:c + 4] = 0.25  # the number, printed
        photo = out[k, 0].copy()
        mark(photo)
        out[k, :3] = np.minimum(out[k, :3], photo[None])
    return out


def independent_photo(tmp_path, seed: int, index: int, hard_share: float = 0.25, *,
                      table: bool = False):
    """The scanner's result for the independent generator's photo
    (benchmarks/foreign_photos.py, made here: 1-4 s), and its truth."""
    from benchmarks.foreign_photos import make_photo, make_table_photo
    from qwixx_scan.pipeline import known_layouts, scan_photo

    data, truth = (make_table_photo if table else make_photo)(seed, index, hard_share)
    path = tmp_path / f"{seed}-{index}.jpg"
    path.write_bytes(data)
    return scan_photo(path, layouts=known_layouts()), truth


def independent_photo_sheet(tmp_path, seed: int, index: int, hard_share: float = 0.25):
    """The one sheet the scanner reads in the independent generator's photo, and its truth."""
    result, truth = independent_photo(tmp_path, seed, index, hard_share)
    assert result.error is None, result.error
    (sheet,) = result.sheets
    (expected,) = truth["sheets"]
    return sheet, expected


def spoilt_photo(target, seed: int, index: int, kind: str, hard_share: float = 0.25, *,
                 table: bool = False) -> dict:
    """The independent generator's photo ``index`` of ``seed`` (its
    ``--hard-share``; ``table``: of a ``--table`` run) spoilt as
    ``scan_benchmark.py --spoil KIND`` spoils it, written to ``target``;
    returns its truth."""
    from benchmarks.foreign_photos import make_photo, make_table_photo
    from benchmarks.spoilt_photos import spoil

    data, truth = (make_table_photo if table else make_photo)(seed, index, hard_share)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    write_jpeg(target, spoil(image, kind, truth, seed=index), quality=90)
    return truth


def spoilt_photo_sheet(tmp_path, seed: int, index: int, kind: str, hard_share: float = 0.25):
    """The one sheet read from the independent generator's photo (of its
    ``--hard-share``) spoilt as ``scan_benchmark.py --spoil KIND`` spoils
    it, and its truth."""
    from qwixx_scan.pipeline import known_layouts, scan_photo

    path = tmp_path / f"{kind}.jpg"
    truth = spoilt_photo(path, seed, index, kind, hard_share)
    (sheet,) = scan_photo(path, layouts=known_layouts()).sheets
    (want,) = truth["sheets"]
    return sheet, want


def benchmark_photo(tmp_path, index: int, seed: int = 4):
    """The scanner's result for photo ``index`` of the scan benchmark's photogen
    run (benchmarks/scan_benchmark.py: ``seed``, a quarter hard, 8-12 MP;
    made here, 2-4 s), and its truth."""
    from photogen.__main__ import photo_profile, photo_seed
    from photogen.scene import generate_photo
    from qwixx_scan.pipeline import known_layouts, scan_photo

    made = generate_photo(photo_seed(seed, index), profile=photo_profile(seed, index, 0.25, 0.0),
                          size="mixed")
    path = tmp_path / f"photogen-{seed}-{index}.jpg"
    path.write_bytes(made.jpeg)
    return scan_photo(path, layouts=known_layouts()), made.truth


def verdict_of(*evidence, **more) -> BoxVerdict:
    """:func:`qwixx_scan.verdict.decide`'s verdict on one box, whose evidence is
    given as :class:`qwixx_scan.verdict.BoxEvidence`'s fields."""
    return decide(BoxEvidence(*evidence, **more))


def sheet_read_at(result, want: dict):
    """The scanner's sheet of a photo that lies where the truth's sheet
    ``want`` lies (the nearest centre): table photos may hold several
    sheets of one layout and letter."""
    centre = np.mean(want["corners_px"], axis=0)
    return min(result.sheets,
               key=lambda s: np.linalg.norm(np.mean(s.corners_px, axis=0) - centre))


def no_sheet_sure_of_a_wrong_score(result, truth) -> None:
    """Every sheet of a table photo that comes out ``ok`` is read exactly
    (its truth found by letter, and among sheets of one letter, or without
    one, by its marks)."""
    for sheet in result.sheets:
        same = [t for t in truth["sheets"] if t["letter"] == sheet.sheet.letter]
        want = min(same, key=lambda t: len(set(sheet.marked) ^ set(t["marked"])))
        if sheet.status == "ok":
            assert set(sheet.marked) == set(want["marked"])
