"""Finding sheets in a picture by their corner markers.

Every printed sheet carries four ArUco markers (ids 0..3: top-left,
top-right, bottom-right, bottom-left, see :mod:`qwixx_print.fiducials`).
This module detects them at any rotation and under perspective, refines
their corners to sub-pixel precision and groups them into sheets: one
photo may hold several sheets, each with at most one marker of each id.
Markers belong together when each one's position agrees with where the
others' would put it on a sheet.

Pixel coordinates: x right, y down, pixel centres at integers (OpenCV).
Sheet coordinates: mm from the sheet's top-left trim corner, y down.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import cv2
import numpy as np

from qwixx_print.fiducials import ARUCO_DICT, MARKER_IDS
from qwixx_print.layout import MARKER_INSET_MM, MARKER_MM

#: Markers are detected on a copy shrunk by a whole factor until its long
#: side is at most this many px: detection cost grows with the area, blur
#: hurts less when shrunk, and a whole factor shrinks fast. A marker of a
#: sheet filling a fifth of the picture stays about 28 px wide.
DETECT_LONG_SIDE_PX = 1280
#: Two markers belong to one sheet when the step from one to the other, as
#: their two shapes predict it together (see _pair_error), is right within
#: this share of their distance. A tilted camera makes the far side of a
#: sheet look much smaller than the near one: one marker alone predicted the
#: other up to 0.75 of their distance off (the steepest of 400 independent
#: photos: tilted 36 degrees, bent 5 mm), and such a sheet lost its third
#: marker. Measured with both: markers of one sheet at most 0.18 off (400
#: independent photos, 200 photogen photos, 100 table photos), of two
#: neighbouring sheets on a table at least 0.44.
GROUP_TOLERANCE = 0.3
#: A marker found smaller than this (px a side at the reduced size) says
#: that smaller ones may have gone unseen there: look at the full size too.
SMALL_MARKER_PX = 16

CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


@dataclass(frozen=True)
class MarkerHit:
    """One detected corner marker: its id and its 4 corners in px.

    ``corners`` is a 4x2 float32 array in the marker's printed order: its
    top-left, top-right, bottom-right and bottom-left corner.
    """

    marker_id: int
    corners: np.ndarray

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @property
    def side_px(self) -> float:
        c = self.corners
        return float(np.mean([np.linalg.norm(c[i] - c[(i + 1) % 4]) for i in range(4)]))


@dataclass(frozen=True)
class MarkerGroup:
    """Markers that belong to one sheet, keyed by marker id (0..3)."""

    hits: dict[int, MarkerHit]

    @property
    def missing(self) -> tuple[int, ...]:
        return tuple(k for k in MARKER_IDS if k not in self.hits)

    @property
    def centre(self) -> np.ndarray:
        return np.mean([h.centre for h in self.hits.values()], axis=0)

    def scaled(self, factor: float) -> MarkerGroup:
        """The same markers in the picture resized by ``factor`` (px centres kept)."""
        return MarkerGroup({k: MarkerHit(h.marker_id,
                                         ((h.corners + 0.5) * factor - 0.5).astype(np.float32))
                            for k, h in self.hits.items()})


def marker_rect_corners_mm(marker_id: int, size_mm: tuple[float, float]) -> np.ndarray:
    """The 4 corners (mm, marker's printed order) of corner marker ``marker_id``.

    The markers sit ``MARKER_INSET_MM`` in from both trim edges of their
    corner on every layout, so only the sheet size moves them.
    """
    width, height = size_mm
    m, s = MARKER_INSET_MM, MARKER_MM
    x0, y0 = {0: (m, m), 1: (width - m - s, m), 2: (width - m - s, height - m - s),
              3: (m, height - m - s)}[marker_id]
    return np.array([[x0, y0], [x0 + s, y0], [x0 + s, y0 + s], [x0, y0 + s]], np.float64)


#: Small sheets far from the camera: accept markers down to ~12 px a side
#: (perimeter as a share of the picture's long side).
MIN_PERIMETER_RATE = 0.02


def _detector(window_sizes: tuple[int, int, int], min_perimeter_rate: float,
              border_px: int = 3) -> cv2.aruco.ArucoDetector:
    """An ArUco detector thresholding with windows (min, max, step) in px,
    taking no marker within ``border_px`` of the picture's edge (ArUco's
    default 3: a marker cut by the edge would put its corners there)."""
    params = cv2.aruco.DetectorParameters()
    params.minDistanceToBorder = border_px
    params.minMarkerPerimeterRate = min_perimeter_rate
    (params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax,
     params.adaptiveThreshWinSizeStep) = window_sizes
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT), params)


#: One thresholding window of 15 px finds the markers of ordinary photos in
#: half the time of two (7 and 27 px): on 800 generated single-sheet photos
#: it missed 2 of 3,808 markers the pair found, and those photos get the
#: thorough detector, with more windows, as their second look anyway.
_FAST_WINDOWS = (15, 15, 1)
#: Where fewer than 3 markers are found at all, thin dark lines are closed
#: (grey-level closing with squares this wide, px of the picture given) and
#: the markers looked for once more: a player's cross overshooting onto a
#: marker's white margin joins the marker's outline to the stroke, and the
#: detector no longer sees a square (independent seed 21, photo 61: a blue
#: stroke touching one marker, another under a thumb; found with 5 px, not
#: with 3; at 7 px a marker's own cells closed up).
INK_CLOSINGS_PX = (3, 5)
_THOROUGH_WINDOWS = (3, 43, 8)
#: The margin round the place of a missing marker (see
#: missing_marker_regions): marker sides, or a share of the other markers'
#: spread in the picture, whichever is more.
REGION_MARGIN = 2.5
REGION_MARGIN_SHARE = 0.08
#: The same for a sheet seen by two markers, whose fit is looser: the two
#: squares' corners say little of the perspective far from them.
PAIR_REGION_MARGIN_SHARE = 0.25
#: The sensor's grain in a dim photo breaks a small marker's cells apart for
#: the detector's thresholds; a blur this wide (px) smooths it, and the
#: cells, two or three times as wide, stay. Hard independent table 132,
#: photo 9 (38 % exposure, noise 11, tilted 34 degrees): a sheet's two far
#: markers, about 20 px a side, were found only so (or at twice the size),
#: and the sheet was refused as cut off.
GRAIN_BLUR_PX = 3
#: The thorough detector's windows step 8 px: a far marker squashed by a
#: steep tilt, its cells two or three px across in the half-size picture,
#: can fall between them. Hard independent table 173, photo 29 (five sheets,
#: tilted 38 degrees, 43 % exposure): a sheet's two far markers, 21-22 px a
#: side, were found only with windows between (7, 9 or 13 px), and the sheet
#: was refused as seen by two markers. Where a sheet is still seen by two,
#: every odd window from 3 to 23 px looks where it places the others (4 ms
#: a region).
_FINE_WINDOWS = (3, 23, 2)
#: A marker at the sheet's far corner, where a steep tilt squeezes the
#: paper between it and the sheet's edge to a few px, runs into a dark
#: table for the detector's local thresholds (of any window): its square is
#: no longer a shape of its own. Hard independent seed 264, photo 42
#: (tilted 26 degrees, curled, a thumb over another marker): the sheet was
#: refused as seen by two markers. In the picture's lightest channel (see
#: :func:`_lightest_channel`: a wooden table is light in red, the marker
#: dark in all three) a single level for the whole region parts them: where
#: a sheet is still seen by two markers, the region is cut at these shares
#: of the way from its darkest (EDGE_LEVEL_DARK percentile) to its paper
#: (EDGE_LEVEL_PAPER percentile) and looked at again.
EDGE_LEVELS = (0.25, 0.4, 0.55)
EDGE_LEVEL_DARK = 1
EDGE_LEVEL_PAPER = 90
#: A missing marker is looked for at down to this share of its size as the
#: others' predict it: smaller shapes there are print, text or noise, and
#: each would cost the detector a look.
REGION_MIN_SIDE = 0.5


@dataclass(frozen=True)
class Region:
    """Where a missing marker must lie: x0, y0, x1, y1 px of the picture (end
    exclusive), and the side it would have there, px."""

    box: tuple[int, int, int, int]
    side_px: float


def detect_markers(gray: np.ndarray, colour: np.ndarray | None = None, *,
                   enough: Callable[[list[MarkerHit]], bool] | None = None,
                   where_missing: Callable[[list[MarkerHit], bool], list[Region] | None]
                   | None = None,
                   ) -> list[MarkerHit]:
    """Every sheet corner marker in a grayscale uint8 image, corners refined.

    Detection runs on a copy shrunk to at most ``DETECT_LONG_SIDE_PX``; when
    that finds fewer than 3 markers (too few for a sheet), a thorough
    detector looks again at the reduced and the full size. While fewer than
    3 are found, or some sheet lacks a marker and ``enough`` says the
    markers found are not enough (by default it says they are), it looks on
    with the local contrast stretched (shadows), then (given ``colour``, the
    same picture in BGR) in its lightest channel (see
    :func:`_lightest_channel`), then with thin dark lines closed (see
    INK_CLOSINGS_PX), then in the lightest channel at the full size. The
    corners are refined with ``cv2.cornerSubPix`` on ``gray`` and returned
    in its px coordinates.

    ``where_missing`` (see :func:`missing_marker_regions`; its second
    argument is ``pairs``): where the first look found every sheet by three
    markers or four, the regions where the missing ones must lie, else None.
    Given regions, the full size and the thorough detector look there only,
    not over the whole picture (a marker under a thumb cost two
    whole-picture looks, 60-110 ms, for nothing). Where all the looks leave
    a sheet seen by two markers, the thorough detector looks at the full
    size where those two place the others.
    """
    def found_enough(found: list[MarkerHit]) -> bool:
        return len(found) >= 3 and (enough is None or not _some_marker_missing(found)
                                    or enough(found))

    if gray.ndim != 2 or gray.dtype != np.uint8:
        raise ValueError(f"gray must be a 2-D uint8 image, not {gray.dtype} {gray.shape}")
    divisor = -(-max(gray.shape) // DETECT_LONG_SIDE_PX)
    hits = _detect_at(gray, divisor, _FAST_WINDOWS)
    small = bool(hits) and min(h.side_px for h in hits) / divisor < SMALL_MARKER_PX
    if where_missing is not None and _some_marker_missing(hits) and not small:
        regions = where_missing(hits, False)
        if regions is not None:
            before = len(hits)
            for region in regions:
                hits = _merge_hits(hits, _detect_in_region(gray, region, divisor))
            # Each region holds one sheet's missing marker at most; more
            # found there belong to a sheet the first look missed, which
            # the looks below may find whole (table 204, photo 26: a sheet
            # at the picture's edge, one of its markers beside its
            # neighbour's missing one, was skipped without a word).
            if len(hits) - before <= len(regions):
                return [_refine(gray, h) for h in hits]
    if divisor > 1 and hits and (_some_marker_missing(hits) or small):
        # Several small sheets (a table photo): markers of the smallest ones
        # may be too small to decode at the reduced size; look at the full size.
        hits = _merge_hits(hits, _detect_at(gray, 1, _FAST_WINDOWS))
    if len(hits) < 3 or _some_marker_missing(hits):
        hits = _merge_hits(hits, _detect_at(gray, divisor, _THOROUGH_WINDOWS))
    if len(hits) < 3 and divisor > 1:
        # Markers too small or blurred at the reduced size?
        hits = _merge_hits(hits, _detect_at(gray, 1, _THOROUGH_WINDOWS))
    if not found_enough(hits):
        # Harsh light or shadows: stretch local contrast and look once more.
        clahe = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8))
        hits = _merge_hits(hits, _detect_at(clahe.apply(gray), divisor, _THOROUGH_WINDOWS))
    lightest = None
    if not found_enough(hits) and colour is not None:
        lightest = _lightest_channel(colour)
        hits = _merge_hits(hits, _detect_at(lightest, divisor, _THOROUGH_WINDOWS))
    for size in INK_CLOSINGS_PX:
        if found_enough(hits):
            break
        # A pen stroke touching a marker joins its outline to the stroke:
        # close thin dark lines (ink), keeping the marker's thick cells.
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
        closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, kernel)
        hits = _merge_hits(hits, _detect_at(closed, divisor, _THOROUGH_WINDOWS))
    if not found_enough(hits) and lightest is not None and divisor > 1:
        # A dim, noisy picture with a stroke over a marker: shrunk, the
        # marker's dim white cells drown in the noise (independent hard seed
        # 64, photo 71: 37 % exposure, noise 10 of 255, a blue line across
        # the marker, a thumb over another; found only here).
        hits = _merge_hits(hits, _detect_at(lightest, 1, _THOROUGH_WINDOWS))
    if not found_enough(hits) and where_missing is not None:
        # A sheet seen by two markers, the others small, dim and noisy
        # (independent hard table 84, photo 33: a sheet a tenth of a dark,
        # grainy photo tilted 39 degrees): the thorough detector at the full
        # size, where the two place the others, finds one the looks over
        # the whole picture did not. Stretched over the region alone, the
        # contrast of a marker half lost in a lamp's reflection comes back
        # where stretching it over the whole picture did not bring it
        # (spoilt_photos.py's ``glare`` on seed 109, photo 106).
        for region in where_missing(hits, True) or []:
            for look in ("plain", "stretched", "smoothed", "fine"):
                hits = _merge_hits(hits, _detect_in_region(gray, region, 1, look=look))
            if lightest is not None:  # (see EDGE_LEVELS)
                hits = _merge_hits(hits, _detect_in_region(lightest, region, 1, look="levelled"))
    return [_refine(gray, h) for h in hits]


def missing_marker_regions(groups: list[MarkerGroup], size_mm: tuple[float, float],
                           image_size: tuple[int, int], *,
                           pairs: bool = False) -> list[Region] | None:
    """Where the missing markers of sheets of ``size_mm`` seen by three
    (``groups``, see :func:`group_markers`) must lie in a picture of
    ``image_size`` (width, height px): one region per missing marker inside
    the picture. None where some sheet was seen by fewer than three markers
    (or a lone one lies apart): a marker may then be missing anywhere.
    With ``pairs``, sheets seen by two markers get regions too (their
    markers' eight corners fix a homography, loosely: see
    PAIR_REGION_MARGIN_SHARE), and lone markers none.

    The missing marker is put where a homography fitted to the other three
    markers' twelve corners puts it, with a margin of REGION_MARGIN marker
    sides or REGION_MARGIN_SHARE of the markers' spread in the picture (bent
    paper, a loose fit).
    """
    if not pairs and any(len(g.hits) < 3 for g in groups):
        return None
    width, height = image_size
    regions: list[Region] = []
    for group in groups:
        if len(group.hits) in (1, 4):
            continue
        mm = np.vstack([marker_rect_corners_mm(k, size_mm) for k in group.hits])
        px = np.vstack([h.corners for h in group.hits.values()])
        homography, _ = cv2.findHomography(mm.astype(np.float64), px.astype(np.float64), 0)
        if homography is None:
            return None
        side = float(np.mean([h.side_px for h in group.hits.values()]))
        share = REGION_MARGIN_SHARE if len(group.hits) == 3 else PAIR_REGION_MARGIN_SHARE
        margin = max(REGION_MARGIN * side, share * float(np.ptp(px, axis=0).max()))
        for missing in group.missing:
            quad = cv2.perspectiveTransform(
                marker_rect_corners_mm(missing, size_mm)[None].astype(np.float64), homography)[0]
            centre = quad.mean(axis=0)
            if not (0 <= centre[0] < width and 0 <= centre[1] < height):
                continue  # off the picture: the sheet is cut off there, nothing to find
            x0, y0 = np.floor(quad.min(axis=0) - margin).astype(int)
            x1, y1 = np.ceil(quad.max(axis=0) + margin).astype(int) + 1
            box = (max(int(x0), 0), max(int(y0), 0), min(int(x1), width), min(int(y1), height))
            regions.append(Region(box, float(np.mean(
                np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))))
    return regions


def _detect_in_region(gray: np.ndarray, region: Region, divisor: int, *,
                      look: str = "plain") -> list[MarkerHit]:
    """What the detectors find in one region of ``gray`` (in ``gray``'s px),
    looked at as ``look`` says (one of _REGION_LOOKS): "plain", the first
    detector at the full size and the thorough one at the size reduced
    ``divisor`` times (as over the whole picture); "stretched", the same in
    the region with its local contrast stretched (CLAHE over the region
    alone); "smoothed", with the sensor's grain smoothed (see
    GRAIN_BLUR_PX); "fine", the thorough one with every window of
    _FINE_WINDOWS; "levelled", the first detector in the region cut at each
    of EDGE_LEVELS (black below, white above)."""
    x0, y0, x1, y1 = region.box
    crop = gray[y0:y1, x0:x1]
    if min(crop.shape[:2]) < 16 * divisor:
        return []
    rate = 4 * REGION_MIN_SIDE * region.side_px / max(crop.shape[:2])
    found = _REGION_LOOKS[look](crop, divisor, rate)
    return [MarkerHit(h.marker_id, (h.corners + np.float32([x0, y0])).astype(np.float32))
            for h in found]


def _plain_look(crop: np.ndarray, divisor: int, rate: float,
                thorough_windows: tuple[int, int, int] = _THOROUGH_WINDOWS) -> list[MarkerHit]:
    return _merge_hits(_detect_at(crop, 1, _FAST_WINDOWS, rate),
                       _detect_at(crop, divisor, thorough_windows, rate))


def _stretched_look(crop: np.ndarray, divisor: int, rate: float) -> list[MarkerHit]:
    return _plain_look(cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8)).apply(crop),
                       divisor, rate)


def _smoothed_look(crop: np.ndarray, divisor: int, rate: float) -> list[MarkerHit]:
    return _plain_look(cv2.GaussianBlur(crop, (GRAIN_BLUR_PX, GRAIN_BLUR_PX), 0), divisor, rate)


def _fine_look(crop: np.ndarray, divisor: int, rate: float) -> list[MarkerHit]:
    return _plain_look(crop, divisor, rate, _FINE_WINDOWS)


def _levelled_look(crop: np.ndarray, divisor: int, rate: float) -> list[MarkerHit]:
    dark, paper = np.percentile(crop, (EDGE_LEVEL_DARK, EDGE_LEVEL_PAPER))
    found: list[MarkerHit] = []
    for share in EDGE_LEVELS:
        cut = np.where(crop < dark + share * (paper - dark), 0, 255).astype(np.uint8)
        found = _merge_hits(found, _detect_at(cut, 1, _FAST_WINDOWS, rate))
    return found


#: The ways :func:`_detect_in_region` looks at a region, by name.
_REGION_LOOKS = {"plain": _plain_look, "stretched": _stretched_look,
                 "smoothed": _smoothed_look, "fine": _fine_look, "levelled": _levelled_look}


def _lightest_channel(colour: np.ndarray) -> np.ndarray:
    """Per pixel, the lightest of a BGR picture's channels.

    The markers are printed black; a player's stroke in a coloured pen is
    light in its own colour's channel. Where a stroke touches a marker too
    thickly for the closings (a marker foreshortened to half its height
    under a camera tilted 34 degrees, whose white cells close first), this
    shows the marker without it (independent hard seed 48, photo 18: a blue
    stroke on one marker, a thumb over another; that marker is found here
    only). A black stroke stays; the closings are for those.
    """
    blue, green, red = cv2.split(colour)
    return cv2.max(cv2.max(blue, green), red)


def _some_marker_missing(hits: list[MarkerHit]) -> bool:
    """Not every id found equally often: some sheet lacks a marker."""
    counts = [sum(h.marker_id == k for h in hits) for k in MARKER_IDS]
    return min(counts) != max(counts)


def _detect_at(gray: np.ndarray, divisor: int, window_sizes: tuple[int, int, int],
               min_perimeter_rate: float = MIN_PERIMETER_RATE,
               border_px: int = 3) -> list[MarkerHit]:
    """Detect on ``gray`` shrunk ``divisor`` times (whole-factor area average),
    markers whose perimeter is at least ``min_perimeter_rate`` of its long
    side and that lie ``border_px`` or more from its edge."""
    # (a detector is made in microseconds: one per look, none kept)
    detector = _detector(window_sizes, min_perimeter_rate, border_px)
    small = gray if divisor == 1 else cv2.resize(
        gray, (gray.shape[1] // divisor, gray.shape[0] // divisor), interpolation=cv2.INTER_AREA)
    fx = small.shape[1] / gray.shape[1]
    fy = small.shape[0] / gray.shape[0]
    corners, ids, _rejected = detector.detectMarkers(small)
    if ids is None:
        return []
    hits = []
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        if int(marker_id) not in MARKER_IDS:
            continue
        # Map pixel centres of the small copy back to the working image.
        pts = (quad.reshape(4, 2).astype(np.float64) + 0.5) / (fx, fy) - 0.5
        hits.append(MarkerHit(int(marker_id), pts.astype(np.float32)))
    return hits


def markers_at_the_edge(gray: np.ndarray, found: list[MarkerHit]) -> list[MarkerHit]:
    """``found`` and the markers found with the picture's very edge allowed
    (see :func:`_detector`), corners refined: where a sheet runs off the picture,
    a marker there may lie right at its edge, its white margin cut. Not to
    read a sheet by (a marker cut by the edge would put its corners there),
    only to tell where the sheet lies. Hard independent seed 342 photo 1
    (tilted 35 degrees, the left edge of the sheet outside the picture, a
    thumb over the top right marker): the top left marker, 2 px from the
    edge at the reduced size, was found only so."""
    divisor = -(-max(gray.shape) // DETECT_LONG_SIDE_PX)
    edge = _detect_at(gray, divisor, _THOROUGH_WINDOWS, border_px=0)
    return _merge_hits(found, [_refine(gray, h) for h in edge])


def _merge_hits(first: list[MarkerHit], second: list[MarkerHit]) -> list[MarkerHit]:
    out = list(first)
    for hit in second:
        if all(np.linalg.norm(hit.centre - h.centre) > 0.5 * h.side_px for h in out):
            out.append(hit)
    return out


def _refine(gray: np.ndarray, hit: MarkerHit) -> MarkerHit:
    side = hit.side_px
    # A window of about half a marker cell: big enough to see the corner,
    # small enough to stay inside the 1.5 mm blank margin around the marker.
    half = int(np.clip(side / 6 * 0.5, 2, 10))
    pts = hit.corners.reshape(-1, 1, 2).copy()
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 30, 0.01)
    refined = cv2.cornerSubPix(gray, pts, (half, half), (-1, -1), criteria).reshape(4, 2)
    # Keep the detector's corner if refinement wandered off (blur, glare).
    moved = np.linalg.norm(refined - hit.corners, axis=1)
    keep = moved > max(2.0, side / 12)
    refined[keep] = hit.corners[keep]
    return MarkerHit(hit.marker_id, refined.astype(np.float32))


def _affine_from_marker(hit: MarkerHit, size_mm: tuple[float, float]) -> np.ndarray:
    """A 2x3 affine map mm -> px fitted to one marker's 4 corners."""
    mm = marker_rect_corners_mm(hit.marker_id, size_mm)
    design = np.hstack([mm, np.ones((4, 1))])
    solution, *_ = np.linalg.lstsq(design, hit.corners.astype(np.float64), rcond=None)
    return solution.T


@dataclass(frozen=True)
class _Placed:
    """What :func:`_pair_error` needs of one marker hit, for a sheet size:
    its centre (px), its place on the sheet (mm) and the picture's scale
    and slant where it lies (the linear part of its mm -> px affine map)."""

    centre_px: np.ndarray
    centre_mm: np.ndarray
    slant: np.ndarray

    @classmethod
    def of(cls, hit: MarkerHit, size_mm: tuple[float, float]) -> _Placed:
        return cls(hit.centre, marker_rect_corners_mm(hit.marker_id, size_mm).mean(axis=0),
                   _affine_from_marker(hit, size_mm)[:, :2])


def _pair_error(a: _Placed, b: _Placed) -> float:
    """How badly a and b disagree about being on one sheet (0 = perfectly):
    how far the step from a's centre to b's is from what the two markers'
    shapes predict, as a share of its length.

    Each marker's corners give the picture's scale and slant where it lies;
    across a tilted sheet they change, so the step is predicted with the
    mean of both (the trapezoid rule), not with either end's alone.
    """
    step = b.centre_px - a.centre_px
    distance = float(np.linalg.norm(step))
    if distance < 1e-6:
        return float("inf")
    slant = (a.slant + b.slant) / 2
    return float(np.linalg.norm(slant @ (b.centre_mm - a.centre_mm) - step) / distance)


def group_markers(hits: list[MarkerHit], size_mm: tuple[float, float]) -> list[MarkerGroup]:
    """Group marker hits into sheets of ``size_mm`` (mm): each group has at most
    one marker per id and all its markers agree on the sheet's position.

    Groups come out with the most markers first; a lone marker is a group of one.
    """
    n = len(hits)
    # each marker's fit once, not once per pair (a table's 16 markers: 120 pairs)
    placed = [_Placed.of(hit, size_mm) for hit in hits]
    error = np.full((n, n), np.inf)
    for i, j in combinations(range(n), 2):
        if hits[i].marker_id != hits[j].marker_id:
            error[i, j] = error[j, i] = _pair_error(placed[i], placed[j])
    candidates: list[tuple[int, float, frozenset[int]]] = []
    for seed in range(n):
        members = {hits[seed].marker_id: seed}
        for other in np.argsort(error[seed]):
            other = int(other)
            if error[seed, other] > GROUP_TOLERANCE:
                break
            mid = hits[other].marker_id
            if mid in members:
                continue
            if all(error[other, m] <= GROUP_TOLERANCE for m in members.values()):
                members[mid] = other
        idx = frozenset(members.values())
        total = sum(error[a, b] for a, b in combinations(sorted(idx), 2))
        candidates.append((len(idx), float(total), idx))
    candidates.sort(key=lambda c: (-c[0], c[1]))
    used: set[int] = set()
    groups: list[MarkerGroup] = []
    for _size, _err, idx in candidates:
        if idx & used:
            continue
        used |= idx
        groups.append(MarkerGroup({hits[i].marker_id: hits[i] for i in idx}))
    return groups
