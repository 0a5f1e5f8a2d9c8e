"""Find where each box's print lies on a rectified sheet image.

The corner markers fix the sheet's frame, not where every box lies on it:
a fit to three markers is off at the hidden corner, bent paper moves the
middle of a row while the corners stay put, and curl shifts boxes by a
millimetre or two. So the reader (:mod:`qwixx_scan.read`, through
:func:`qwixx_scan.box_inputs.located_box_inputs`) looks for every box's
print before it reads the box:

1. The whole sheet (:func:`global_correction`): every box's print is
   looked for within +-6 mm (+-15 where nothing fits) at quarter resolution
   and, when most boxes agree on a homography that moves them by a
   millimetre or more, the image is warped by it; where none fits, a bend
   of the paper may (:func:`bend_shifts`; each box is then first searched
   where the bend puts it).
2. Each box (:func:`locate_boxes`): its printed surroundings (outline,
   number, row band) are matched against the blank sheet within +-2 mm,
   absorbing paper curl, and a box matched on the edge of that search is
   looked for again around its neighbours' shift; an offset that disagrees
   with the neighbours while its match is weak (ink over the print) is
   replaced by theirs (:func:`regularise_offsets`).
3. Where the boxes' found places show the sheet squeezed or stretched
   unevenly, the sheet is resampled along a smooth field through them and
   the boxes looked for once more (:func:`even_field`).

Coordinates: ``rectified`` pixel (x, y) is sheet mm (x / px_per_mm,
y / px_per_mm), x right, y down, top-left trim corner at (0, 0).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import cv2
import numpy as np

from qwixx_print.layout import Box

if TYPE_CHECKING:  # only named in annotations: box_inputs imports this module
    from .box_inputs import ReaderReference

#: Box location search radius and template margin around the box (mm).
SEARCH_MM = 2.0
TEMPLATE_MARGIN_MM = 1.2
#: Before the box search, the fit is checked over the whole sheet: every
#: box's print looked for within WIDE_SEARCH_MM (at quarter resolution); a
#: homography through at least CORRECTION_INLIERS of the boxes (within
#: RANSAC_MM) that moves some box by CORRECTION_MIN_MM or more is applied.
WIDE_SEARCH_MM = 6.0
#: Where the boxes lie off within WIDE_SEARCH_MM and neither a homography
#: nor a bend fits them, they are looked for once more within FAR_SEARCH_MM:
#: paper bent 7 mm towards a camera tilted 36 degrees (foreign_photos.py
#: seed 65, photo 29) moved the middle rows 8-9 mm, and the sheet, nothing
#: found near enough, was doubted whole (52 boxes); looked for within 15 mm
#: a bend fits and 1 box is doubtful (within 9 mm, at the search's edge, 6),
#: none wrong. Hard seed 66, photo 12 (bent 4 mm, tilted 40 degrees, most
#: boxes scribbled over) is read exactly so (within 9 or 12 mm it stays
#: doubted whole). Over 3,656 independent sheets nothing else changed.
FAR_SEARCH_MM = 15.0
#: A bend found within WIDE_SEARCH_MM that moves some box further than
#: BEND_NEAR_EDGE_MM (the wide search less the box search's SEARCH_MM)
#: reaches near the search's edge, where the boxes moved most may lie past
#: it, matched on their neighbours' print: the boxes are looked for within
#: FAR_SEARCH_MM too, and a fit found there is taken. On seed 65, photo 29
#: (above) a bend fitted within 6 mm moved boxes 7.5 mm and left the sheet
#: doubted whole, once a bend was judged by the boxes showing their print
#: (see BEND_SEEN_MATCH); looked for within 15 mm as well, 1 box is doubtful.
BEND_NEAR_EDGE_MM = WIDE_SEARCH_MM - SEARCH_MM
#: A box whose print matches best on the edge of its +-SEARCH_MM search may
#: lie beyond it: it is looked for again around its neighbours' offset (the
#: well-matched ones where it has two), when that is within REACH_MM of
#: where its search began (up to REACH_ROUNDS times, so a shift spreads
#: along a row). Bent paper moves the middle of a row while the corners,
#: where the markers are, stay put: on an independent photo
#: (foreign_photos.py seed 3, photo 138: bent 3.7 mm, tilted 26 degrees)
#: the four lock boxes at the rows' ends lay 2.5-3 mm above their place,
#: were matched on the search's edge and read as doubtful. Only the
#: neighbours' shift moves the search, and only a match there better than
#: WEAK_MATCH is taken: a box under a scribble matches nowhere, and
#: followed its best (0.2) over 4.7 mm into the gap to the next penalty
#: box; two scribbled penalty boxes following each other drifted 2.6 mm.
REACH_MM = 5.0
REACH_ROUNDS = 3
RANSAC_MM = 0.8
CORRECTION_INLIERS = 0.6
CORRECTION_MIN_MM = 1.0
#: Where no homography fits, a bend (see :func:`bend_shifts`) is looked for
#: among each box's BEND_PEAKS best matches (at least BEND_PEAK_SPACING_MM
#: apart), in BEND_TRIALS random draws per axis; it is taken when its matches
#: score BEND_MIN_SUPPORT times those of no shift at all and it explains at
#: least BEND_MIN_BOXES of the boxes whose print is seen: those matched
#: somewhere at BEND_SEEN_MATCH or better, and at least BEND_MIN_SEEN of
#: them. A box filled or scribbled over hides its print, and its matches
#: land anywhere: on paper bent 5-7 mm under a camera tilted 26-36 degrees,
#: of a player who fills boxes in, 13-21 of the 43 boxes searched showed
#: their print and a bend explained 14-26 boxes, the print of every box
#: that showed it, but not half of all 43; nothing fitted, many boxes were
#: found away from their neighbours, and the sheet was doubted whole
#: (foreign_photos.py hard seeds 55 photo 69, 60 photo 74, 66 photo 19:
#: now read exactly).
BEND_PEAKS = 3
BEND_PEAK_SPACING_MM = 2.0
BEND_TRIALS = 300
BEND_MIN_SUPPORT = 2.0
BEND_MIN_BOXES = 0.5
BEND_SEEN_MATCH = 0.6
BEND_MIN_SEEN = 12
#: Where a homography fits too, the bend is taken when its matches score
#: BEND_OVER_HOMOGRAPHY times the homography's. A sheet bent 6 mm under a
#: 39-degree tilt with a marker hidden (foreign_photos.py seed 2, photo 75)
#: fits a homography through 28 of 43 boxes, which leaves the rows' ends,
#: lock boxes among them, up to 2 mm off and doubtful; the bend explains the
#: matches 1.43 times as well. On bent independent photos read better with
#: the bend the ratio was 1.32-1.43; on 600 photogen photos (curl up to a
#: few mm, a corner hidden under a thumb, where the homography is right) at
#: most 1.25, and at 1.17 the bend made a box doubtful.
BEND_OVER_HOMOGRAPHY = 1.3
#: A bend lifts paper a few mm: it moves the boxes, but squeezes or
#: stretches the sheet between them only so far. A bend whose shifts change
#: by more than MAX_BEND_SLOPE mm per mm anywhere among the boxes is no bend
#: but rows matched on other rows. On a hard table photo (foreign_photos.py
#: --table --hard-share 1, seed 65, photo 31: large black circles over the
#: print, bent 4.4 mm, tilted 36 degrees) the search within FAR_SEARCH_MM
#: fitted one moving the red row 17 mm down and the penalty boxes 14 mm up
#: (slope 0.99), and the sheet was doubted whole; the bend found within
#: WIDE_SEARCH_MM (4.6 mm) reads it exactly. Over 830 independent photos
#: (seeds 65, 82, 91, hard 66 and 92, tables 64 and hard 65) 533 bends were
#: fitted: every one the reader kept sloped 0.20 or less; the two above 0.4
#: were that one and seed 65 photo 29's bend within WIDE_SEARCH_MM (0.45,
#: boxes matched on their neighbours at the search's edge), which the bend
#: found further off (0.18) replaced anyway.
MAX_BEND_SLOPE = 0.4
#: An offset further than this (mm) from its neighbours' with a weak match is
#: replaced by theirs; neighbours are boxes whose centres lie within
#: NEIGHBOUR_MM.
OFFSET_AGREEMENT_MM = 0.6
NEIGHBOUR_MM = 12.5
WEAK_MATCH = 0.75
#: A box goes astray when its print is first matched on the edge of its
#: search (the best match lies further off) and, in the end, weakly (below
#: ASTRAY_MATCH): it was not found near its place. A sheet with more than
#: MAX_ASTRAY such boxes lies further off its markers' fit than the search
#: reaches, in a part of it the whole-sheet correction did not catch (paper
#: bent 5-6 mm under a camera tilted 38-40 degrees: the left of a sheet was
#: read under its title), and every box of it is doubtful
#: (read.SHEET_ASTRAY). Only where the boxes' print matches at all (the
#: sheet's median match ASTRAY_SHEET_MATCH or more): on a pale print in a
#: dim photo no box matches (0.17 on a photogen table sheet read exactly),
#: and where the best of nothing lies says nothing. Over 2,849 single-sheet
#: photos (independent seeds 1-12, photogen seeds 4, 5, 7, 9, 11) 11 sheets
#: had 5 or more: none read exactly, 4 of them with 6-7 wrong boxes (20 of
#: the 28 wrong boxes of all those photos) that only 5-10 doubtful boxes
#: sent to review, the 5 matched below 0.3 doubted whole already (see
#: read.MAX_FOUND_AWAY); no sheet read exactly had more than 4, nor did any
#: of the independent generator's 537 table sheets.
ASTRAY_MATCH = 0.5
MAX_ASTRAY = 4
ASTRAY_SHEET_MATCH = 0.3
#: The corner markers fix the sheet's frame, not its inside: paper bent
#: under a tilted camera, and a wide lens's barrel, squeeze and stretch it
#: unevenly, and a box at a row's end can then appear 10-15 % smaller than
#: the blank's, its neighbours' print and outline shifted into its window
#: (foreign_photos.py seed 4, photo 18: two empty row-end boxes read
#: doubtful so). Where a smooth field through the boxes' found places
#: (degree FIELD_DEGREE in x and y, fitted to the well-matched boxes, those
#: further than RANSAC_MM from it left out) scales or shears some box by
#: more than UNEVEN_SCALE, the rectified sheet is resampled along the field
#: and the boxes looked for once more (see :func:`even_field`).
UNEVEN_SCALE = 0.04
FIELD_DEGREE = 3
#: Where fewer boxes matched above the field's threshold than it has terms
#: twice over, it is fitted to those matched above FAIR_FIELD_MATCH: boxes
#: covered by thick strokes, in a dim photo under a shadow band, match
#: weakly all over. On paper bent 6.4 mm under a camera tilted 37 degrees
#: (foreign_photos.py hard seed 88, photo 90: a player slashing boxes with
#: a 1.3 mm pen) 18 of 52 boxes matched above WEAK_MATCH, 41 above 0.6;
#: the rows' ends were squeezed by up to 14 %, and the four empty lock
#: boxes, read against a blank that no longer lined up with them, read
#: crossed (the sheet came out ``invalid``). Evened out along the fairly matched boxes'
#: field, every box is read right.
FAIR_FIELD_MATCH = 0.6
#: The field's terms u^i v^j, (i, j) in this order (see field_basis).
_FIELD_TERMS = tuple((i, j) for i in range(FIELD_DEGREE + 1) for j in range(FIELD_DEGREE + 1 - i))


def locate_boxes(photo_gray_half: np.ndarray, ref: ReaderReference, boxes: tuple[Box, ...], *,
                 start: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Offset (dx, dy) in full-resolution px of each box's print, match score,
    and whether the box went astray (see MAX_ASTRAY).

    Template matching on half-resolution grey images (normalised correlation,
    so exposure and contrast don't matter), with a sub-pixel peak. A box
    matched on the edge of its search is looked for again around its
    neighbours' offset (see REACH_MM). ``start``: where to search each box
    first (offsets in full-resolution px; default where the fit puts it).
    """
    half = ref.px_per_mm / 2
    search = max(2, round(SEARCH_MM * half))
    margin = TEMPLATE_MARGIN_MM * half
    windows = []
    for box in boxes:
        r = box.rect
        windows.append((round(r.x * half - margin), round(r.y * half - margin),
                        round((r.x + r.w) * half + margin), round((r.y + r.h) * half + margin)))
    first = np.zeros((len(boxes), 2)) if start is None else np.round(start / 2)
    # A border, so that a box moved toward the image's edge (bent paper
    # beside a marker) is still searched: the paper's edge goes on there.
    pad = search + round(REACH_MM * half) + int(np.abs(first).max(initial=0)) + 1
    photo = cv2.copyMakeBorder(photo_gray_half, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    offsets = np.zeros((len(boxes), 2), np.float32)
    scores = np.zeros(len(boxes), np.float32)
    on_edge = np.zeros(len(boxes), bool)
    for i, window in enumerate(windows):
        centre = (int(first[i, 0]), int(first[i, 1]))
        found = _match_box(photo, pad, ref.gray_half, window, centre, search)
        if found is not None:
            offsets[i], scores[i], on_edge[i] = found
    first_on_edge = on_edge.copy()
    for _ in range(REACH_ROUNDS):
        if not on_edge.any():
            break
        medians, _ = neighbour_offsets(offsets, scores, boxes, weak_too=True)
        moved = False
        for i in np.flatnonzero(on_edge & ~np.isnan(medians[:, 0])):
            centre = (round(float(medians[i, 0]) / 2), round(float(medians[i, 1]) / 2))
            if np.hypot(*(centre - first[i])) > REACH_MM * half:
                continue
            found = _match_box(photo, pad, ref.gray_half, windows[i], centre, search)
            if found is not None and found[1] > max(scores[i], WEAK_MATCH):
                offsets[i], scores[i], on_edge[i] = found
                moved = True
            else:
                on_edge[i] = False
        if not moved:
            break
    return offsets, scores, first_on_edge & (scores < ASTRAY_MATCH)


def _match_box(photo: np.ndarray, pad: int, blank_gray_half: np.ndarray,
               window: tuple[int, int, int, int], centre: tuple[int, int],
               search: int) -> tuple[tuple[float, float], float, bool] | None:
    """Where the blank's ``window`` (half-resolution px) matches best within
    +-``search`` px of ``centre`` (px from its place) in ``photo`` (the
    half-resolution photo with a border of ``pad`` px): the offset in
    full-resolution px, the score and whether the best match lies on the
    search's edge; None where the search leaves the padded photo."""
    x0, y0, x1, y1 = window
    cx, cy = centre
    h, w = photo.shape
    ax0, ay0 = x0 + cx - search + pad, y0 + cy - search + pad
    ax1, ay1 = x1 + cx + search + pad, y1 + cy + search + pad
    if ax0 < 0 or ay0 < 0 or ax1 > w or ay1 > h:
        return None
    result = cv2.matchTemplate(photo[ay0:ay1, ax0:ax1], blank_gray_half[y0:y1, x0:x1],
                               cv2.TM_CCOEFF_NORMED)
    _, best, _, (bx, by) = cv2.minMaxLoc(result)
    dx, dy = _subpixel(result, bx, by)
    on_edge = bx in (0, 2 * search) or by in (0, 2 * search)
    return (((cx + bx + dx - search) * 2, (cy + by + dy - search) * 2), best, on_edge)


def global_correction(photo_gray_half: np.ndarray, ref: ReaderReference,
                      boxes: tuple[Box, ...]) -> tuple[np.ndarray | None, np.ndarray | None]:
    """How to put the boxes back where the blank has them when the sheet's fit
    is off by more than the box search absorbs: a homography (full-resolution
    px, blank -> photo) or, for bent paper, each box's shift (full-resolution
    px) to start its search from; (None, None) when no correction is needed
    or none is sure.

    A fit to three markers can be off by 4-6 mm at the hidden corner, and the
    +-SEARCH_MM box search then matches half a box away. Here every box's
    print is looked for within +-WIDE_SEARCH_MM at quarter resolution and a
    homography is fitted to all boxes with RANSAC: a box matched on a mark or
    a neighbour is an outlier, not a shift. It is used only when most boxes
    agree with it, and only when it moves some box by more than
    CORRECTION_MIN_MM (a good fit passes through unchanged). Where no
    homography fits, the shifts may be those of bent paper (see
    :func:`bend_shifts`); where neither fits, or a bend reaches near the
    search's edge (BEND_NEAR_EDGE_MM), the boxes are looked for further off
    (FAR_SEARCH_MM).
    """
    quarter = cv2.resize(photo_gray_half, ref.gray_quarter.shape[::-1],
                         interpolation=cv2.INTER_AREA)
    correction = _correction_within(quarter, ref, boxes, WIDE_SEARCH_MM)
    # The boxes lie off and nothing fits, or a bend reaches near the search's
    # edge, where the boxes moved most may lie past it: further off?
    if correction is None or (correction[1] is not None and np.hypot(*correction[1].T).max()
                              > BEND_NEAR_EDGE_MM * ref.px_per_mm):
        correction = _correction_within(quarter, ref, boxes, FAR_SEARCH_MM) or correction
    return correction or (None, None)


def _correction_within(quarter: np.ndarray, ref: ReaderReference, boxes: tuple[Box, ...],
                       search_mm: float) -> tuple[np.ndarray | None, np.ndarray | None] | None:
    """:func:`global_correction` with every box looked for within
    ``search_mm`` of its place on ``quarter`` (the photo at the blank's
    quarter resolution); None where the boxes lie off and neither a
    homography nor a bend fits them."""
    template_src = ref.gray_quarter
    ppm = ref.px_per_mm / 4
    search = round(search_mm * ppm)
    margin = TEMPLATE_MARGIN_MM * ppm
    h, w = quarter.shape
    index, results, best_shifts = [], [], []
    for i, box in enumerate(boxes):
        r = box.rect
        x0, y0 = round(r.x * ppm - margin), round(r.y * ppm - margin)
        x1, y1 = round((r.x + r.w) * ppm + margin), round((r.y + r.h) * ppm + margin)
        if x0 - search < 0 or y0 - search < 0 or x1 + search > w or y1 + search > h:
            continue
        result = cv2.matchTemplate(quarter[y0 - search:y1 + search, x0 - search:x1 + search],
                                   template_src[y0:y1, x0:x1], cv2.TM_CCOEFF_NORMED)
        _, _, _, (bx, by) = cv2.minMaxLoc(result)
        dx, dy = _subpixel(result, bx, by)
        index.append(i)
        results.append(result)
        best_shifts.append(((bx + dx - search) / ppm, (by + dy - search) / ppm))
    if len(index) < 12:
        return None, None
    centres_mm = np.float32([boxes[i].rect.centre for i in index])
    shift_mm = np.float32(best_shifts)
    src_a = centres_mm * np.float32(ref.px_per_mm)
    dst_a = src_a + shift_mm * np.float32(ref.px_per_mm)
    if np.percentile(np.hypot(*shift_mm.T), 90) < CORRECTION_MIN_MM:
        return None, None  # the fit is good; the box search takes care of the rest
    hom, inliers = cv2.findHomography(src_a, dst_a, cv2.RANSAC,
                                      ransacReprojThreshold=RANSAC_MM * ref.px_per_mm)
    if hom is not None and inliers.sum() < CORRECTION_INLIERS * len(src_a):
        hom = None
    if hom is not None:
        moved = cv2.perspectiveTransform(src_a[None], hom)[0]
        if np.hypot(*(moved - src_a).T).max() / ref.px_per_mm < CORRECTION_MIN_MM:
            return None, None
    # boxes x BEND_PEAKS x (dx mm, dy mm, score)
    spacing = max(1, round(BEND_PEAK_SPACING_MM * ppm))
    found = np.array([_best_peaks(result, search, spacing) for result in results])
    found /= np.float32([ppm, ppm, 1])
    size_mm = (ref.size_px[0] / ref.px_per_mm, ref.size_px[1] / ref.px_per_mm)
    bent = bend_shifts(centres_mm, found, size_mm)
    if bent is not None and hom is not None:
        # Bent paper also leaves most boxes near some homography: the one
        # that explains the boxes' matches better is taken.
        by_hom = (moved - src_a) / np.float32(ref.px_per_mm)
        by_bend = bent(centres_mm)
        if _bend_support(by_bend, found[:, :, :2], found[:, :, 2]) < BEND_OVER_HOMOGRAPHY \
                * _bend_support(by_hom, found[:, :, :2], found[:, :, 2]):
            bent = None
    if bent is None:
        return None if hom is None else (hom, None)
    all_centres = np.float32([b.rect.centre for b in boxes])
    return None, bent(all_centres) * np.float32(ref.px_per_mm)


def _best_peaks(result: np.ndarray, search: int, spacing: int) -> np.ndarray:
    """The BEND_PEAKS best local maxima of a match ``result`` at least
    ``spacing`` px apart: (dx, dy, score) each, px from the search's centre,
    the best first (NaN and 0 where there are fewer)."""
    size = 2 * spacing + 1
    is_max = result >= cv2.dilate(result, np.ones((size, size), np.uint8))
    ys, xs = np.nonzero(is_max)
    order = np.argsort(-result[ys, xs])[:BEND_PEAKS]
    peaks = np.full((BEND_PEAKS, 3), np.nan, np.float32)
    peaks[:, 2] = 0.0
    for k, j in enumerate(order):
        dx, dy = _subpixel(result, xs[j], ys[j])
        peaks[k] = (xs[j] + dx - search, ys[j] + dy - search, result[ys[j], xs[j]])
    return peaks


def bend_shifts(centres_mm: np.ndarray, found: np.ndarray,
                size_mm: tuple[float, float]) -> Callable[[np.ndarray], np.ndarray] | None:
    """The shift field of a bent sheet that the boxes' matches support, as a
    function of sheet mm (n x 2) giving mm (n x 2); None when no bend fits
    the matches clearly better than no shift at all.

    Paper bent along one of its axes is lifted (or sunk) off the plane the
    corner markers fix, most in the middle: under a tilted camera each point
    appears moved by about its height times the slant of the view there. So
    the shift is (1 - s^2) (a + b u + c v), s the position along the bend's
    axis and u, v the position on the sheet (all -1..1), a, b, c 2-vectors:
    six numbers. Boxes are alike, so a match can alias onto the next box:
    each box offers its BEND_PEAKS best matches (``found``: boxes x peaks x
    (dx, dy, score), mm) and a bend is fitted by RANSAC, counting for each
    box the best score among its matches within RANSAC_MM of the bend: the
    true match holds the box's own number and scores higher.
    """
    rng = np.random.default_rng(0)  # the same photo reads the same every time
    offsets, scores = found[:, :, :2], found[:, :, 2]
    n = len(found)
    # boxes whose print shows (matched well somewhere): the others' matches land anywhere
    showing = max(int(np.count_nonzero(scores[:, 0] >= BEND_SEEN_MATCH)), BEND_MIN_SEEN)
    still = np.where(np.hypot(*found[:, 0, :2].T) < RANSAC_MM, scores[:, 0], 0.0).sum()
    best: tuple[float, int, np.ndarray] | None = None
    for axis in (0, 1):
        basis = _bend_basis(centres_mm, size_mm, axis)
        # BEND_TRIALS draws of three boxes at once; half of them take each
        # box's best match, half any of its matches.
        pick = np.argsort(rng.random((BEND_TRIALS, n)), axis=1)[:, :3]
        which = rng.integers(0, BEND_PEAKS, (BEND_TRIALS, 3))
        which[rng.random(BEND_TRIALS) < 0.5] = 0
        seen = offsets[pick, which].astype(np.float64)  # trials x 3 x 2
        system = basis[pick]  # trials x 3 x 3
        usable = ~np.isnan(seen).any(axis=(1, 2)) & (np.abs(np.linalg.det(system)) > 1e-9)
        if not usable.any():
            continue
        coefs = np.linalg.solve(system[usable], seen[usable])  # trials x 3 x 2
        support = _bend_support(np.einsum("nk,tkc->tnc", basis, coefs), offsets, scores)
        k = int(np.argmax(support))
        if best is None or support[k] > best[0]:
            best = (float(support[k]), axis, coefs[k])
    if best is None or best[0] < BEND_MIN_SUPPORT * max(still, 1e-6):
        return None
    _, axis, coef = best
    basis = _bend_basis(centres_mm, size_mm, axis)
    for _ in range(3):  # refit to the matches it explains
        distance = np.hypot(*((basis @ coef)[:, None, :] - offsets).transpose(2, 0, 1))
        distance = np.where(np.isnan(distance), np.inf, distance)
        nearest = distance.argmin(axis=1)
        near = distance[np.arange(n), nearest] < RANSAC_MM
        if near.sum() < BEND_MIN_BOXES * showing:
            return None
        coef, *_ = np.linalg.lstsq(basis[near], offsets[np.arange(n), nearest][near], rcond=None)
    if np.hypot(*(basis @ coef).T).max() < CORRECTION_MIN_MM:
        return None
    if _steepest_slope(lambda points: _bend_basis(points, size_mm, axis), centres_mm, coef,
                       1.0) > MAX_BEND_SLOPE:
        return None
    return lambda points_mm: (_bend_basis(points_mm, size_mm, axis) @ coef).astype(np.float32)


def _steepest_slope(basis: Callable[[np.ndarray], np.ndarray], points: np.ndarray,
                    coef: np.ndarray, step: float) -> float:
    """The most a shift field (``basis(points) @ coef``) changes per unit
    of position at ``points``, either component along either axis (central
    differences ``step`` either way): how far it squeezes, stretches or
    shears the sheet there."""
    slopes = [(basis(points + d) - basis(points - d)) @ coef / (2 * step)
              for d in (np.array([step, 0], points.dtype), np.array([0, step], points.dtype))]
    return float(max(np.abs(slope).max() for slope in slopes))


def _bend_basis(points_mm: np.ndarray, size_mm: tuple[float, float], axis: int) -> np.ndarray:
    u = points_mm[:, 0] / size_mm[0] * 2 - 1
    v = points_mm[:, 1] / size_mm[1] * 2 - 1
    lift = 1 - (u, v)[axis] ** 2
    return np.stack([lift, lift * u, lift * v], 1).astype(np.float64)


def _bend_support(predicted: np.ndarray, offsets: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """How well predicted shifts (... x boxes x 2, mm) are borne out: per box
    the best score of its matches (``offsets``: boxes x peaks x 2,
    ``scores``: boxes x peaks) within RANSAC_MM of the prediction, summed."""
    gap = predicted[..., :, None, :] - offsets
    distance = np.hypot(gap[..., 0], gap[..., 1])
    return np.where(distance < RANSAC_MM, scores, 0.0).max(axis=-1).sum(axis=-1)


def _subpixel(result: np.ndarray, x: int, y: int) -> tuple[float, float]:
    def vertex(a: float, b: float, c: float) -> float:
        a, b, c = float(a), float(b), float(c)  # plain floats: called ~100 times a sheet
        d = a - 2 * b + c
        return 0.0 if d >= 0 else min(0.5, max(-0.5, 0.5 * (a - c) / d))

    h, w = result.shape
    dx = vertex(result[y, x - 1], result[y, x], result[y, x + 1]) if 0 < x < w - 1 else 0.0
    dy = vertex(result[y - 1, x], result[y, x], result[y + 1, x]) if 0 < y < h - 1 else 0.0
    return dx, dy


def even_field(offsets: np.ndarray, scores: np.ndarray, boxes: tuple[Box, ...], px_per_mm: float,
               size_px: tuple[int, int], *, min_match: float = WEAK_MATCH,
               any_scale: bool = False) -> np.ndarray | None:
    """The smooth shift field through the boxes' found ``offsets`` (px; of
    those matched above ``min_match``, or FAIR_FIELD_MATCH where too few
    are), as the coefficients of :func:`field_basis`'s terms (terms x 2),
    where it scales or shears some box by more than UNEVEN_SCALE (or
    ``any_scale``); None where the sheet is even enough (or too few boxes
    matched well to tell). See UNEVEN_SCALE."""
    centres = np.float32([b.rect.centre for b in boxes]) * np.float32(px_per_mm)
    basis = field_basis(centres, size_px)
    use = scores > min_match
    if use.sum() < 2 * basis.shape[1]:
        use = scores > min(min_match, FAIR_FIELD_MATCH)
    for _ in range(3):
        if use.sum() < 2 * basis.shape[1]:
            return None
        coef, *_ = np.linalg.lstsq(basis[use], offsets[use].astype(np.float64), rcond=None)
        near = np.hypot(*(basis @ coef - offsets).T) < RANSAC_MM * px_per_mm
        if np.array_equal(near & use, use):
            break
        use &= near
    # the field's slope over 2 mm
    if not any_scale and _steepest_slope(lambda points: field_basis(points, size_px), centres,
                                         coef, px_per_mm) <= UNEVEN_SCALE:
        return None
    return coef


def field_basis(points: np.ndarray, size_px: tuple[int, int]) -> np.ndarray:
    """Monomials u^i v^j (i + j <= FIELD_DEGREE) of points' place on the sheet, u, v in -1..1."""
    u = points[:, 0].astype(np.float64) / size_px[0] * 2 - 1
    v = points[:, 1].astype(np.float64) / size_px[1] * 2 - 1
    return np.stack([u ** i * v ** j for i, j in _FIELD_TERMS], 1)


def resample_along_field(image: np.ndarray, coef: np.ndarray, *, origin: int = 0,
                         size_px: tuple[int, int] | None = None) -> np.ndarray:
    """``image`` with each pixel (x, y) taken from (x, y) plus the field of
    ``coef`` (see :func:`field_basis`) there. ``origin`` and ``size_px``:
    where the field's sheet (width, height; by default the image's own)
    begins in ``image`` (px from the top and the left), for an image with a
    margin around that sheet."""
    height, width = image.shape[:2]
    sheet_w, sheet_h = size_px or (width, height)
    u = (np.arange(width, dtype=np.float32) - origin) / sheet_w * 2 - 1
    v = (np.arange(height, dtype=np.float32) - origin) / sheet_h * 2 - 1
    # The field is sum over i, j of c_ij u^i v^j: per axis one product of the
    # columns sum_j c_ij v^j (height x powers) with the rows u^i (powers x
    # width), written once. Summing an outer product per power of u, each
    # copied, took 6.5 ms of a 132 x 98 mm sheet at 8 px/mm, more than the
    # resampling itself (7 ms); this takes 1.7.
    powers_u = np.stack([u ** i for i in range(FIELD_DEGREE + 1)])
    maps = []
    for axis, grid in ((0, np.arange(width, dtype=np.float32)[None, :]),
                       (1, np.arange(height, dtype=np.float32)[:, None])):
        columns = np.zeros((height, FIELD_DEGREE + 1), np.float32)
        for k, (i, j) in enumerate(_FIELD_TERMS):
            columns[:, i] += np.float32(coef[k, axis]) * v ** j
        field = columns @ powers_u
        field += grid
        maps.append(field)
    return cv2.remap(image, maps[0], maps[1], cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)


def regularise_offsets(offsets: np.ndarray, scores: np.ndarray, boxes: tuple[Box, ...],
                       px_per_mm: float) -> np.ndarray:
    """Replace offsets that disagree with their neighbours while matching weakly.

    Paper curl moves neighbouring boxes together; a box whose own match went
    elsewhere because ink covers its print takes its neighbours' median.
    """
    out = offsets.copy()
    tolerance = OFFSET_AGREEMENT_MM * px_per_mm
    for i, (median, median_score) in enumerate(zip(*neighbour_offsets(offsets, scores, boxes))):
        if np.isnan(median_score) or scores[i] >= 0.97:
            continue
        if np.hypot(*(offsets[i] - median)) > tolerance and scores[i] < max(
                WEAK_MATCH, median_score - 0.05):
            out[i] = median
    return out


def neighbour_offsets(offsets: np.ndarray, scores: np.ndarray, boxes: tuple[Box, ...], *,
                      weak_too: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Per box, the median offset and match score of its well-matched
    neighbours (within NEIGHBOUR_MM); NaN where it has fewer than two.
    ``weak_too``: where fewer than two neighbours match well, all of them."""
    near = _near_boxes(boxes)
    use = near & (scores > WEAK_MATCH)[None, :]
    if weak_too:
        use = np.where((use.sum(axis=1) < 2)[:, None], near, use)
    enough = use.sum(axis=1) >= 2
    use &= enough[:, None]
    medians = _nan_median(np.where(use[:, :, None], offsets[None, :, :], np.nan), axis=1)
    median_scores = _nan_median(np.where(use, scores[None, :], np.nan), axis=1)
    return medians.astype(np.float32), median_scores.astype(np.float32)


_near: dict[tuple[Box, ...], np.ndarray] = {}


def _near_boxes(boxes: tuple[Box, ...]) -> np.ndarray:
    """n x n: whether box j's centre lies within NEIGHBOUR_MM of box i's (i != j)."""
    if boxes not in _near:
        _near[boxes] = (box_distances(boxes) < NEIGHBOUR_MM) & ~np.eye(len(boxes), dtype=bool)
    return _near[boxes]


_distances: dict[tuple[Box, ...], np.ndarray] = {}


def box_distances(boxes: tuple[Box, ...]) -> np.ndarray:
    """The distances (mm) between the boxes' centres, n x n, computed once per sheet."""
    if boxes not in _distances:
        centres = np.array([b.rect.centre for b in boxes], np.float32)
        _distances[boxes] = np.hypot(*(centres[:, None, :] - centres[None, :, :])
                                     .transpose(2, 0, 1))
    return _distances[boxes]


def _nan_median(a: np.ndarray, axis: int) -> np.ndarray:
    """Median of the non-NaN values along ``axis`` (NaN where there are none);
    np.nanmedian is slow on such tiny arrays."""
    ordered = np.sort(a, axis=axis)  # NaN sorts last
    k = np.count_nonzero(~np.isnan(a), axis=axis, keepdims=True)
    lo = np.take_along_axis(ordered, np.maximum(k - 1, 0) // 2, axis=axis)
    hi = np.take_along_axis(ordered, np.minimum(k // 2, a.shape[axis] - 1), axis=axis)
    return np.where(k > 0, (lo + hi) / 2, np.nan).squeeze(axis)


