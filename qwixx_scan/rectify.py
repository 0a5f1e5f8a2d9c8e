"""From marker corners to a flat, upright image of the sheet.

The homography maps sheet millimetres (x right, y down, from the top-left
trim corner) to picture pixels. It is fitted to every corner of every
visible marker (4 per marker, so 12 points even with one marker hidden).
:func:`rectify` warps the sheet so that sheet mm (x, y) lands on pixel
(x * px_per_mm, y * px_per_mm): the image :func:`qwixx_scan.read.read_marks`
expects.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from qwixx_print.layout import MARKER_MM

from .find import MarkerGroup, marker_rect_corners_mm

#: Resolution of the rectified sheet handed to the mark reader, px per mm.
#: A ballpoint line (about 0.4 mm) stays 3 px wide; a 148 x 105 mm sheet
#: becomes 1184 x 840 px, quick to warp and to read.
RECT_PX_PER_MM = 8.0
#: Largest tolerated RMS distance (mm, on the sheet) between the marker
#: corners and where the fitted homography puts them. Above this the paper
#: is too bent (or a marker misread) to trust box positions even with the
#: reader's search and bend fit. Generated photos with curled paper stay
#: below 0.33 mm (120 photos: median 0.08, 99th percentile 0.2); 547
#: independent photos (foreign_photos.py, paper bent up to 7 mm, tilt up to
#: 40 degrees) below 0.82 but one at 1.0 mm (bent 6.7 mm, tilted 39
#: degrees), which the reader reads without a wrong box.
MAX_FIT_ERROR_MM = 1.5
#: A fit to the corners RANSAC kept that misses a found marker corner by more
#: than this (mm) is replaced by the fit to all corners (see
#: :func:`fit_sheet`): the boxes' search (locate.WIDE_SEARCH_MM) finds boxes
#: that far from where a fit puts them, farther it finds their neighbours.
WILD_FIT_MM = 6.0


@dataclass(frozen=True)
class SheetFit:
    """A homography ``h`` (3x3) from sheet mm to picture px, and its quality.

    ``error_mm``: RMS reprojection error of the marker corners, in mm on the
    sheet. ``px_per_mm``: the picture's mean resolution on the sheet.
    """

    h: np.ndarray
    error_mm: float
    px_per_mm: float
    markers_used: int

    def scaled(self, factor: float) -> SheetFit:
        """The same fit for the picture resized by ``factor`` (px centres kept)."""
        s = np.array([[factor, 0, 0.5 * factor - 0.5], [0, factor, 0.5 * factor - 0.5], [0, 0, 1]])
        return SheetFit(s @ self.h, self.error_mm, self.px_per_mm * factor, self.markers_used)

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        """Map an (N, 2) array of sheet mm to picture px."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.h).reshape(-1, 2)


def fit_sheet(group: MarkerGroup, size_mm: tuple[float, float]) -> SheetFit:
    """Fit the mm -> px homography of a sheet of ``size_mm`` to its markers.

    Needs at least 3 markers (12 corners). RANSAC drops a corner that was
    badly located (glare, a pen stroke touching the marker).
    """
    if len(group.hits) < 3:
        raise ValueError("fit_sheet needs at least 3 markers")
    mm = np.vstack([marker_rect_corners_mm(k, size_mm) for k in sorted(group.hits)])
    px = np.vstack([group.hits[k].corners for k in sorted(group.hits)]).astype(np.float64)
    side = float(np.mean([h.side_px for h in group.hits.values()]))
    px_per_mm = side / MARKER_MM
    threshold = max(1.5, side / 25)  # px: a corner this far off is an outlier
    h, inliers = cv2.findHomography(mm, px, cv2.RANSAC, threshold)
    if h is None:
        raise ValueError("the marker corners do not fit a sheet")
    keep = inliers.ravel().astype(bool)
    if keep.sum() < 8 or np.count_nonzero(keep.reshape(-1, 4).sum(axis=1) >= 2) < 3:
        # Two markers' 8 corners fit a homography exactly, and on bent paper
        # RANSAC can settle on them alone; far from them such a fit is wild
        # (an independent table photo: 150 px off at the other two markers,
        # with 0.1 mm of error on the corners kept). Corners are dropped only
        # while corners of three markers or more still hold the fit. Over the
        # 4,263 sheets of the benchmark sets this took the doubtful boxes
        # from 633 to 336 and the sheets read exactly from 4,120 to 4,134
        # (steep, bent sheets doubted whole before), wrong boxes 7 to 7; on
        # 2,169 fresh ones 2,097 to 2,108 exact, one box more read wrong (on
        # a sheet that came out invalid), none `ok` but wrong. A marker counts
        # with two corners kept: two markers and one corner of a third (a hard
        # photo, independent seed 26, photo 43) put a corner 600 px off and the
        # sheet was refused as cut off; over 5,740 photos this read 3 sheets
        # more exactly and that photo, no box read differently otherwise.
        keep[:] = True
    h, _ = cv2.findHomography(mm[keep], px[keep], 0)
    projected = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), h).reshape(-1, 2)
    if not keep.all() and _farthest_corner_px(projected, px) > WILD_FIT_MM * px_per_mm:
        # RANSAC's tight threshold suits flat paper. On bent paper no
        # homography meets every corner that closely, and the largest set of
        # corners that one does meet can leave a marker out entirely, the fit
        # far from it: a hard independent table photo (seed 95, photo 13: a
        # sheet bent 2.6 mm, tilted 35 degrees) kept two corners each of two
        # markers and all four of a third, and missed the fourth by 50 px,
        # 15 mm there; its boxes were read a column off and the sheet
        # doubted whole. Over the 6,933
        # sheets of the benchmark sets the fit to all corners met every found
        # marker within a quarter of its side (2.3 mm), so a fit missing one
        # by more is bent paper, not a misplaced marker. Refitted from 6 mm
        # (the box search's reach), 6 sheets of 10,496 read differently: 3
        # more exactly (this one, two table sheets no longer doubting a box),
        # one box more doubted on a sheet in review, one less on a sheet
        # doubted whole either way, and one box read wrong
        # on a sheet in review (independent table 71, photo 18: an empty red
        # 12 among small bold red crosses, doubted before only because the
        # fit was 73 px off at that corner). Refitted from 2.3 mm, 13 sheets
        # read differently, as many for the worse as for the better.
        keep[:] = True
        h, _ = cv2.findHomography(mm, px, 0)
        projected = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), h).reshape(-1, 2)
    error_px = float(np.sqrt(np.mean(np.sum((projected[keep] - px[keep]) ** 2, axis=1))))
    return SheetFit(h, error_px / px_per_mm, px_per_mm, len(group.hits))


def _farthest_corner_px(projected: np.ndarray, found: np.ndarray) -> float:
    return float(np.max(np.linalg.norm(projected - found, axis=1)))


def refit_sheet(group: MarkerGroup, size_mm: tuple[float, float],
                points_mm: np.ndarray, points_px: np.ndarray) -> SheetFit:
    """The homography of :func:`fit_sheet`, fitted to the marker corners and
    to more points of known place (``points_mm`` on the sheet, found at
    ``points_px`` in the picture; N x 2 each).

    With a marker hidden, the three others leave the perspective towards the
    hidden corner badly determined; points printed near that corner (the
    code's finder patterns) pin it down. ``error_mm`` covers all points.
    """
    mm = np.vstack([marker_rect_corners_mm(k, size_mm) for k in sorted(group.hits)]
                   + [np.asarray(points_mm, np.float64).reshape(-1, 2)])
    px = np.vstack([group.hits[k].corners for k in sorted(group.hits)]
                   + [np.asarray(points_px, np.float64).reshape(-1, 2)]).astype(np.float64)
    h, _ = cv2.findHomography(mm, px, 0)
    if h is None:
        raise ValueError("the points do not fit a sheet")
    side = float(np.mean([hit.side_px for hit in group.hits.values()]))
    px_per_mm = side / MARKER_MM
    projected = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), h).reshape(-1, 2)
    error_px = float(np.sqrt(np.mean(np.sum((projected - px) ** 2, axis=1))))
    return SheetFit(h, error_px / px_per_mm, px_per_mm, len(group.hits))


def affine_fit(points_mm: np.ndarray, points_px: np.ndarray) -> SheetFit:
    """The affine map through three points (mm on the sheet -> picture px),
    as a :class:`SheetFit`: exact near those points, for a small area such as
    the code."""
    affine = cv2.getAffineTransform(np.asarray(points_mm, np.float32).reshape(3, 2),
                                    np.asarray(points_px, np.float32).reshape(3, 2))
    h = np.vstack([affine.astype(np.float64), [0.0, 0.0, 1.0]])
    px_per_mm = float(np.sqrt(abs(np.linalg.det(affine[:, :2]))))
    return SheetFit(h, 0.0, px_per_mm, 0)


def local_px_per_mm(fit: SheetFit, size_mm: tuple[float, float]) -> float:
    """The smallest resolution (px per mm) anywhere on the sheet: the far side
    of a tilted sheet is seen smaller than the near side."""
    width, height = size_mm
    worst = np.inf
    for x, y in ((0, 0), (width, 0), (width, height), (0, height), (width / 2, height / 2)):
        x0 = np.clip(x, 1, width - 1) - 1
        y0 = np.clip(y, 1, height - 1) - 1
        p = fit.to_px(np.array([[x0, y0], [x0 + 1, y0], [x0, y0 + 1]]))
        worst = min(worst, np.linalg.norm(p[1] - p[0]), np.linalg.norm(p[2] - p[0]))
    return float(worst)


def outside_sides(fit: SheetFit, region_mm: tuple[float, float, float, float],
                  image_size: tuple[int, int], *, margin_px: float = 1.0) -> list[str]:
    """Which sides of the sheet's ``region_mm`` (x0, y0, x1, y1) fall outside
    an image of ``image_size`` (width, height px): a list like ["left"].

    A side is named when at least half of it is outside; when only a corner
    is cut off, the side(s) most outside are named. Empty when all is inside.
    """
    x0, y0, x1, y1 = region_mm
    width, height = image_size
    along = np.linspace(0.0, 1.0, 17)
    sides = {"left": [(x0, y0 + t * (y1 - y0)) for t in along],
             "right": [(x1, y0 + t * (y1 - y0)) for t in along],
             "top": [(x0 + t * (x1 - x0), y0) for t in along],
             "bottom": [(x0 + t * (x1 - x0), y1) for t in along]}
    outside: dict[str, float] = {}
    for name, points in sides.items():
        p = fit.to_px(np.array(points))
        inside = ((p[:, 0] >= -margin_px) & (p[:, 0] <= width - 1 + margin_px)
                  & (p[:, 1] >= -margin_px) & (p[:, 1] <= height - 1 + margin_px))
        outside[name] = 1.0 - float(inside.mean())
    worst = max(outside.values())
    if worst == 0.0:
        return []
    return [name for name, share in outside.items() if share >= 0.5 or share == worst]


def rectify(image: np.ndarray, fit: SheetFit, size_mm: tuple[float, float], *,
            px_per_mm: float = RECT_PX_PER_MM,
            region_mm: tuple[float, float, float, float] | None = None) -> np.ndarray:
    """Warp the sheet (or ``region_mm`` = x0, y0, x1, y1 of it) to a flat image.

    Output pixel (u, v) shows sheet mm (x0 + u / px_per_mm, y0 + v / px_per_mm);
    for the whole sheet its size is round(W * ppm) x round(H * ppm).
    """
    if region_mm is None:
        region_mm = (0.0, 0.0, size_mm[0], size_mm[1])
    x0, y0, x1, y1 = region_mm
    out_w, out_h = round((x1 - x0) * px_per_mm), round((y1 - y0) * px_per_mm)
    to_mm = np.array([[1 / px_per_mm, 0, x0], [0, 1 / px_per_mm, y0], [0, 0, 1]])
    # The mm -> px homography composed with output px -> mm; WARP_INVERSE_MAP
    # samples the picture at each output pixel directly.
    m = fit.h @ to_mm
    if fit.px_per_mm > 3 * px_per_mm:
        # Shrinking more than 3x: halve the picture first (pyrDown filters),
        # so that bilinear sampling does not alias pen strokes and noise.
        bbox = _bbox(fit, region_mm, image.shape)
        if bbox is not None:
            bx0, by0, bx1, by1 = bbox
            crop = image[by0:by1, bx0:bx1]
            levels = 0
            while fit.px_per_mm / 2 ** levels > 3 * px_per_mm and min(crop.shape[:2]) > 16:
                crop = cv2.pyrDown(crop)
                levels += 1
            shift = np.array([[1, 0, -bx0], [0, 1, -by0], [0, 0, 1]], np.float64)
            f = 0.5 ** levels  # pyrDown keeps pixel centres: x' = (x + 0.5) * f - 0.5
            down = np.array([[f, 0, 0.5 * f - 0.5], [0, f, 0.5 * f - 0.5], [0, 0, 1]])
            return cv2.warpPerspective(crop, down @ shift @ m, (out_w, out_h),
                                       flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                       borderMode=cv2.BORDER_REPLICATE)
    return cv2.warpPerspective(image, m, (out_w, out_h),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def _bbox(fit: SheetFit, region_mm: tuple[float, float, float, float],
          shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    x0, y0, x1, y1 = region_mm
    p = fit.to_px(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
    bx0 = int(max(0, np.floor(p[:, 0].min()) - 8))
    by0 = int(max(0, np.floor(p[:, 1].min()) - 8))
    bx1 = int(min(shape[1], np.ceil(p[:, 0].max()) + 9))
    by1 = int(min(shape[0], np.ceil(p[:, 1].max()) + 9))
    if bx1 <= bx0 or by1 <= by0:
        return None
    return bx0, by0, bx1, by1
