"""Decide for every box of a rectified sheet: crossed, empty or uncertain.

How (each step physically motivated, thresholds in mm and in paper-relative
darkness so they hold at any resolution and exposure):

1. Locate: every box's printed surroundings (outline, number, row band) are
   matched against the blank sheet within +-2 mm, absorbing paper curl and an
   imperfect homography; an offset that disagrees with the neighbours while
   its match is weak (ink over the print) is replaced by theirs.
2. Normalise: per box and colour channel, the paper level is measured on
   the box's own flat light inside (80th percentile, so ink stays below
   it), on a 3 x 3 grid so soft shadows are followed; a box far darker than
   the paper around it is covered with ink, not shaded. A per-sheet tone
   curve maps blank colours to how this photo renders them.
3. Ink: a pixel is ink where the photo is darker, in some channel, than the
   darkest blank value near it (so printed numbers and slightly misplaced
   printed edges are never ink), by a threshold set from the photo's own
   noise and the sheet's own pen, with hysteresis so faint pencil stays
   connected.
4. Shape: the ink inside a box (its outline band left out, ink that only
   enters from a neighbour dropped) is described by its extent and its
   principal axes: two-dimensional marks (X, check, circle, scribble) and
   long non-horizontal strokes (slash) are crosses; a thin horizontal line
   (a skipped number), a dot or nothing is not; anything between is
   uncertain and goes to review. A cross must leave ink on open paper (away
   from dark print); where a printed ring hides much of a box, flat strokes
   and, on a sheet whose player circles numbers, empty reads are doubted.

Coordinates: ``rectified`` pixel (x, y) is sheet mm (x / px_per_mm,
y / px_per_mm), x right, y down, top-left trim corner at (0, 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from qwixx_print.layout import Box, Sheet

from .blank import BlankReference, blank_reference

#: Box location search radius and template margin around the box (mm).
SEARCH_MM = 2.0
TEMPLATE_MARGIN_MM = 1.2
#: An offset further than this (mm) from its neighbours' with a weak match is
#: replaced by theirs; neighbours are boxes whose centres lie within
#: NEIGHBOUR_MM.
OFFSET_AGREEMENT_MM = 0.6
NEIGHBOUR_MM = 12.5
WEAK_MATCH = 0.75
#: Ink is looked for in the box and this far around it (mm): strokes that
#: overshoot must stay connected to judge where they belong.
WINDOW_MM = 1.8
#: The printed outline band left out when describing a box's ink (mm).
INTERIOR_INSET_MM = 0.6
#: A component with less than NEIGHBOUR_SHARE of its ink inside a box, all
#: of it within EDGE_BAND_MM of the box's edge, is a neighbour's overshoot.
NEIGHBOUR_SHARE = 0.35
EDGE_BAND_MM = 2.0
#: Darkness (fraction of the paper level) that is ink at least, whatever the
#: noise: weak threshold (stroke extent) and strong (a stroke must reach it).
INK_WEAK_MIN = 0.06
INK_STRONG_MIN = 0.12
NOISE_WEAK_SIGMAS = 5.0
NOISE_STRONG_SIGMAS = 9.0
#: The light over a box window is measured in LIGHT_CELLS x LIGHT_CELLS
#: cells, each within LIGHT_RANGE of the box's paper level.
LIGHT_CELLS = 3
LIGHT_RANGE = (0.7, 1.25)
#: A box's paper level below this share of the paper's around it: ink covers it.
COVERED_LEVEL = 0.85
#: Once the sheet's pen is known (its clear strokes' darkness), ink must
#: reach these shares of it: a faint pencil keeps low thresholds, a dark
#: ballpoint raises them above print residue. A clear stroke is a component
#: of at least PEN_STROKE_MM length (0.3 mm wide); PEN_MIN_STROKES needed.
PEN_WEAK_SHARE = 0.20
PEN_STRONG_SHARE = 0.35
PEN_STROKE_MM = 8.0
PEN_MIN_STROKES = 3


@dataclass(frozen=True)
class BoxVerdict:
    box_id: str
    state: str  # "crossed" | "empty" | "uncertain"
    confidence: float  # 0..1
    note: str  # e.g. "skip line", "dot", ""


@dataclass(frozen=True)
class InkShape:
    """The ink inside one box, in mm (box centre at 0, x right, y down).

    ``extent_x``/``extent_y``: 2nd..98th percentile spread; ``major``/
    ``minor``: the spread along the principal axes as the length of a
    uniform segment with that variance (sqrt(12) sigma); ``angle``: of the
    major axis from horizontal, 0..90 degrees; ``area``: mm^2 of ink;
    ``contrast``: median darkness over the weak ink threshold (1 = at it);
    ``open_area``: mm^2 of the ink on open paper, away from dark print
    (where misplaced print can't pass for ink); ``visible``: the share of
    the box's inside that is open paper (a printed ring hides much of it);
    ``centre_share``: the share of the ink within RING_HOLE_MM of the box's
    centre (about 0 for a circle round the number); ``sectors``: of 8
    directions from the centre, in how many the ink lies (8 for a circle, 4
    for an X);
    ``edge_only``: the ink was all near the box edge and came mostly from
    outside (a neighbour's overshoot).
    """

    area: float
    extent_x: float
    extent_y: float
    major: float
    minor: float
    angle: float
    contrast: float
    open_area: float = 0.0
    edge_only: bool = False
    visible: float = 1.0
    centre_share: float = 0.0
    sectors: int = 0



def read_marks(rectified: np.ndarray, sheet: Sheet, *, px_per_mm: float) -> dict[str, BoxVerdict]:
    """Read every box of ``sheet`` from its rectified image (BGR uint8).

    Returns a verdict per box id, in the order of ``sheet.boxes``.
    """
    _check_image(rectified, sheet, px_per_mm)
    ref = blank_reference(sheet, px_per_mm)
    shapes = measure_ink(rectified, sheet, ref)
    verdicts = {box_id: decide(shape, box_id) for box_id, shape in shapes.items()}
    return _doubt_hidden_circles(verdicts, shapes)


def _doubt_hidden_circles(verdicts: dict[str, BoxVerdict],
                          shapes: dict[str, InkShape]) -> dict[str, BoxVerdict]:
    """A player who circles numbers leaves nothing visible on a box whose
    printed ring hides a circle: such boxes read empty go to review."""
    circles = sum(v.state == "crossed" and shapes[k].centre_share < 0.05
                  and shapes[k].sectors >= 7
                  and min(shapes[k].extent_x, shapes[k].extent_y) >= RING_MIN_MM
                  for k, v in verdicts.items())
    if circles < 2:
        return verdicts
    return {k: BoxVerdict(k, "uncertain", 0.3, "a circle may hide under the printed ring")
            if v.state == "empty" and shapes[k].visible < HIDDEN_VISIBLE else v
            for k, v in verdicts.items()}


def _check_image(rectified: np.ndarray, sheet: Sheet, px_per_mm: float) -> None:
    if not isinstance(rectified, np.ndarray) or rectified.dtype != np.uint8 \
            or rectified.ndim != 3 or rectified.shape[2] != 3:
        raise ValueError("rectified must be a BGR uint8 image of shape (height, width, 3)")
    if not px_per_mm > 0:
        raise ValueError(f"px_per_mm must be positive, got {px_per_mm}")
    want = (round(sheet.size_mm[1] * px_per_mm), round(sheet.size_mm[0] * px_per_mm))
    if abs(rectified.shape[0] - want[0]) > 2 or abs(rectified.shape[1] - want[1]) > 2:
        raise ValueError(f"rectified is {rectified.shape[1]}x{rectified.shape[0]} px but the "
                         f"sheet at {px_per_mm} px/mm is {want[1]}x{want[0]} px")


# --- 1. locate --------------------------------------------------------------

def locate_boxes(photo_gray_half: np.ndarray, ref: BlankReference,
                 boxes: tuple[Box, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Offset (dx, dy) in full-resolution px of each box's print, and match score.

    Template matching on half-resolution grey images (normalised correlation,
    so exposure and contrast don't matter), with a sub-pixel peak.
    """
    half = ref.px_per_mm / 2
    search = max(2, round(SEARCH_MM * half))
    margin = TEMPLATE_MARGIN_MM * half
    h, w = photo_gray_half.shape
    offsets = np.zeros((len(boxes), 2), np.float32)
    scores = np.zeros(len(boxes), np.float32)
    for i, box in enumerate(boxes):
        r = box.rect
        x0, y0 = round(r.x * half - margin), round(r.y * half - margin)
        x1, y1 = round((r.x + r.w) * half + margin), round((r.y + r.h) * half + margin)
        if x0 - search < 0 or y0 - search < 0 or x1 + search > w or y1 + search > h:
            continue
        template = ref.gray_half[y0:y1, x0:x1]
        area = photo_gray_half[y0 - search:y1 + search, x0 - search:x1 + search]
        result = cv2.matchTemplate(area, template, cv2.TM_CCOEFF_NORMED)
        _, best, _, (bx, by) = cv2.minMaxLoc(result)
        dx, dy = _subpixel(result, bx, by)
        offsets[i] = ((bx + dx - search) * 2, (by + dy - search) * 2)
        scores[i] = best
    return offsets, scores


def _subpixel(result: np.ndarray, x: int, y: int) -> tuple[float, float]:
    def vertex(a: float, b: float, c: float) -> float:
        d = a - 2 * b + c
        return 0.0 if d >= 0 else float(np.clip(0.5 * (a - c) / d, -0.5, 0.5))

    h, w = result.shape
    dx = vertex(result[y, x - 1], result[y, x], result[y, x + 1]) if 0 < x < w - 1 else 0.0
    dy = vertex(result[y - 1, x], result[y, x], result[y + 1, x]) if 0 < y < h - 1 else 0.0
    return dx, dy


def regularise_offsets(offsets: np.ndarray, scores: np.ndarray, boxes: tuple[Box, ...],
                       px_per_mm: float) -> np.ndarray:
    """Replace offsets that disagree with their neighbours while matching weakly.

    Paper curl moves neighbouring boxes together; a box whose own match went
    elsewhere because ink covers its print takes its neighbours' median.
    """
    centres = np.array([b.rect.centre for b in boxes], np.float32)
    dist = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    out = offsets.copy()
    tolerance = OFFSET_AGREEMENT_MM * px_per_mm
    good = scores > WEAK_MATCH
    for i in range(len(boxes)):
        near = (dist[i] < NEIGHBOUR_MM) & good
        near[i] = False
        if near.sum() < 2 or scores[i] >= 0.97:
            continue
        median = np.median(offsets[near], axis=0)
        if np.hypot(*(offsets[i] - median)) > tolerance and scores[i] < max(
                WEAK_MATCH, float(np.median(scores[near])) - 0.05):
            out[i] = median
    return out


# --- 2./3. normalise and find ink -------------------------------------------

@dataclass(frozen=True)
class _BoxPlan:
    """What the reader needs of one box, derived once per sheet and resolution.

    Pixel coordinates are in the blank's frame. ``light_index``: indices
    (into the window's flattened pixels, every second row and column) of the
    flat, light pixels of the box's inside, where the paper level is
    measured; ``light_blank`` the blank there, ``light_cell`` their light
    cell. ``around``: per channel, the same for light pixels around the box.
    ``tone_*``: flat pixels, to learn the tone curve; ``flat_index``: flat
    pixels, to measure noise.
    """

    box: Box
    window: tuple[int, int, int, int]  # x0, y0, x1, y1
    darkest: np.ndarray
    light_index: np.ndarray
    light_blank: np.ndarray  # n x 3
    light_cell: np.ndarray  # the light cell of each light pixel
    cell_counts: np.ndarray
    cell_starts: np.ndarray
    around: tuple[tuple[np.ndarray, np.ndarray], ...]  # like light, outside the box
    tone_index: np.ndarray
    tone_blank: np.ndarray
    flat_index: np.ndarray


_plans: dict[tuple[int, str], list[_BoxPlan]] = {}


def _box_plans(ref: BlankReference, sheet: Sheet) -> list[_BoxPlan]:
    key = (id(ref), sheet.fingerprint)
    plans = _plans.get(key)
    if plans is None:
        plans = _plans[key] = [_plan(ref, box) for box in sheet.boxes]
    return plans


def _plan(ref: BlankReference, box: Box) -> _BoxPlan:
    x0, y0, x1, y1 = _rect_px(box, ref.px_per_mm, WINDOW_MM)
    blank = ref.image[y0:y1, x0:x1]
    flat = ref.flat[y0:y1, x0:x1]
    sub = np.zeros_like(flat)
    sub[::2, ::2] = True
    # The paper level is measured on the box's own light interior (the
    # material the ink is judged on); only where too little of it is flat
    # and light, on the light pixels around the box.
    inside = np.zeros_like(flat)
    ix0, iy0, ix1, iy1 = _rect_px(box, ref.px_per_mm, -0.3)
    inside[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0] = True
    lightest = blank.min(axis=2)
    light_index = np.flatnonzero(flat & sub & inside & (lightest > 0.8))
    if len(light_index) < 40:
        light_index = np.flatnonzero(flat & sub & (lightest > 0.55))
    around = []
    for c in range(3):
        out_idx = np.flatnonzero(flat & sub & ~inside & (blank[:, :, c] > 0.55))
        around.append((out_idx, blank[:, :, c].ravel()[out_idx]))
    h, w = flat.shape
    cells = (light_index // w * LIGHT_CELLS // h) * LIGHT_CELLS + light_index % w * LIGHT_CELLS // w
    counts = np.bincount(cells, minlength=LIGHT_CELLS * LIGHT_CELLS)
    sub3 = np.zeros_like(flat)
    sub3[::3, ::3] = True
    tone_index = np.flatnonzero(flat & sub3)
    return _BoxPlan(box=box, window=(x0, y0, x1, y1), darkest=ref.darkest[y0:y1, x0:x1],
                    light_index=light_index,
                    light_blank=blank.reshape(-1, 3)[light_index], light_cell=cells,
                    cell_counts=counts, cell_starts=np.concatenate([[0], np.cumsum(counts)[:-1]]),
                    around=tuple(around),
                    tone_index=tone_index,
                    tone_blank=blank.reshape(-1, 3)[tone_index],
                    flat_index=np.flatnonzero(flat)[::3])


def measure_ink(rectified: np.ndarray, sheet: Sheet, ref: BlankReference) -> dict[str, InkShape]:
    """Find the ink of every box and describe its shape (see :class:`InkShape`)."""
    p = ref.px_per_mm
    height, width = ref.image.shape[:2]
    rectified = rectified[:height, :width]
    if rectified.shape[:2] != (height, width):
        rectified = cv2.copyMakeBorder(rectified, 0, height - rectified.shape[0], 0,
                                       width - rectified.shape[1], cv2.BORDER_REPLICATE)
    gray = cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY)
    gray_half = cv2.resize(gray, ref.gray_half.shape[::-1], interpolation=cv2.INTER_AREA)
    boxes = sheet.boxes
    offsets, scores = locate_boxes(gray_half.astype(np.float32), ref, boxes)
    offsets = regularise_offsets(offsets, scores, boxes, p)
    # A border so that every shifted window lies inside the image.
    pad = round((SEARCH_MM + 0.5) * p)
    padded = cv2.copyMakeBorder(rectified, pad, pad, pad, pad, cv2.BORDER_REPLICATE)

    plans = _box_plans(ref, sheet)
    raw = [_raw_window(padded, pad, plan, off) for plan, off in zip(plans, offsets)]
    levels = _box_levels(np.array([level for _, level, _ in raw]))
    photos = [_normalise(photo, level, cells) for (photo, _, cells), level in zip(raw, levels)]
    lut = _tone_curve(plans, photos)
    # The maps cover only the boxes' region: (gx, gy) is its top-left corner.
    gx, gy = min(pl.window[0] for pl in plans), min(pl.window[1] for pl in plans)
    strength = np.zeros((max(pl.window[3] for pl in plans) - gy,
                         max(pl.window[2] for pl in plans) - gx), np.float32)
    darkness = []
    flat_strengths = []
    for plan, photo in zip(plans, photos):
        dark = _darkness(plan.darkest, photo, lut)
        darkness.append(dark)
        x0, y0, x1, y1 = plan.window
        region = strength[y0 - gy:y1 - gy, x0 - gx:x1 - gx]
        np.maximum(region, dark, out=region)
        flat_strengths.append(dark.ravel()[plan.flat_index])
    # Each box's own area comes from its own alignment, not a neighbour's.
    for plan, dark in zip(plans, darkness):
        x0, y0 = plan.window[:2]
        ox0, oy0, ox1, oy1 = _rect_px(plan.box, p, 0.5)
        strength[oy0 - gy:oy1 - gy, ox0 - gx:ox1 - gx] = dark[oy0 - y0:oy1 - y0,
                                                               ox0 - x0:ox1 - x0]

    weak, strong = _thresholds(np.concatenate(flat_strengths))
    ink, labels, areas = _ink_components(strength, weak, strong)
    # The sheet's own pen sets the bar: where clear strokes are dark, print
    # residue and noise well below them are not ink.
    pen = _pen_contrast(strength, ink, labels, areas, p)
    if pen is not None and pen * PEN_WEAK_SHARE > weak:
        weak, strong = pen * PEN_WEAK_SHARE, max(strong, pen * PEN_STRONG_SHARE)
        ink, labels, areas = _ink_components(strength, weak, strong)
    return {box.id: _describe(box, ink, labels, areas, strength, weak, ref, (gx, gy))
            for box in boxes}


def _rect_px(box: Box, p: float, grow_mm: float) -> tuple[int, int, int, int]:
    r = box.rect
    return (round((r.x - grow_mm) * p), round((r.y - grow_mm) * p),
            round((r.x + r.w + grow_mm) * p), round((r.y + r.h + grow_mm) * p))


def _raw_window(padded: np.ndarray, pad: int, plan: _BoxPlan,
                offset: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The photo around a box, shifted onto the blank (BGR float32, 0..255),
    its paper level per channel and a coarse map of the light over the
    window (LIGHT_CELLS x LIGHT_CELLS x 3, relative to that level).

    Paper level: the 80th percentile of photo / blank on the flat light
    pixels (ink, darker than paper, stays below it); per cell the same on
    the cell's pixels, so that the light may change across the box (soft
    shadows), but never more than LIGHT_RANGE allows (a cell full of ink is
    ink, not shade). Cells with too few light pixels follow their row or
    column.
    """
    x0, y0, x1, y1 = plan.window
    dx, dy = round(float(offset[0])) + pad, round(float(offset[1])) + pad
    photo = cv2.GaussianBlur(padded[y0 + dy:y1 + dy, x0 + dx:x1 + dx], (3, 3), 0)
    photo = photo.astype(np.float32)
    flat_photo = photo.reshape(-1, 3)
    n = LIGHT_CELLS * LIGHT_CELLS
    cells = np.ones((LIGHT_CELLS, LIGHT_CELLS, 3), np.float32)
    if len(plan.light_index) < 20:
        return photo, np.full(3, np.nan, np.float32), cells
    ratio = flat_photo[plan.light_index] / plan.light_blank
    k = int(0.8 * (len(ratio) - 1))
    level = np.maximum(np.partition(ratio, k, axis=0)[k], 1e-3)
    for c, (out_idx, out_blank) in enumerate(plan.around):
        if len(out_idx) >= 20:
            # Paper in the box far darker than the paper just around it is
            # covered with ink (a scribble), not shaded: take the level around.
            out_ratio = flat_photo[out_idx, c] / out_blank
            j = int(0.8 * (len(out_ratio) - 1))
            around_level = float(np.partition(out_ratio, j)[j])
            if level[c] < COVERED_LEVEL * around_level:
                level[c] = around_level
    rel = np.clip(ratio / level, 0.0, 3.99)
    keys = np.sort(plan.light_cell[:, None] * 4.0 + rel, axis=0)
    counts = plan.cell_counts
    good = counts >= 8
    at = plan.cell_starts[good] + (counts[good] * 4) // 5
    values = np.full((n, 3), np.nan)
    values[good] = keys[at] - (np.nonzero(good)[0] * 4.0)[:, None]
    values = values.reshape(LIGHT_CELLS, LIGHT_CELLS, 3)
    if not good.all():
        values = np.stack([_fill_cells(values[:, :, c]) for c in range(3)], axis=2)
    cells[:] = np.clip(values, *LIGHT_RANGE)
    return photo, level.astype(np.float32), cells


def _fill_cells(grid: np.ndarray) -> np.ndarray:
    """Cells without a measurement (NaN) take their row's, else their column's
    median, else 1 (the box's level)."""
    out = grid.copy()
    for r, c in zip(*np.nonzero(np.isnan(grid))):
        row, col = grid[r][~np.isnan(grid[r])], grid[:, c][~np.isnan(grid[:, c])]
        out[r, c] = np.median(row) if len(row) else np.median(col) if len(col) else 1.0
    return out


def _box_levels(levels: np.ndarray) -> np.ndarray:
    """Paper levels per box (n x 3); a box without light pixels takes the median."""
    fallback = np.nanmedian(levels, axis=0)
    fallback = np.where(np.isnan(fallback), 255.0, fallback)
    return np.where(np.isnan(levels), fallback[None, :], levels)


def _normalise(photo: np.ndarray, level: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """Divide a raw window by its paper level field: paper = 1 in every channel."""
    h, w = photo.shape[:2]
    gain = np.maximum(cells * level[None, None, :], 1e-3).astype(np.float32)
    return cv2.divide(photo, cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR))


def _tone_curve(plans: list[_BoxPlan], photos: list[np.ndarray]) -> np.ndarray:
    """A (1, 256, 3) table: blank value (0..255) -> this photo's normalised value.

    Printers and cameras render colours their own way. Learned from flat
    pixels of all windows (median per blank level, 16 levels), made
    monotone; levels without enough samples keep the identity.
    """
    levels = np.linspace(0, 1, 256)
    lut = np.tile(levels.astype(np.float32)[None, :, None], (1, 1, 3))
    blank = np.concatenate([pl.tone_blank for pl in plans])
    photo = np.concatenate([ph.reshape(-1, 3)[pl.tone_index] for pl, ph in zip(plans, photos)])
    photo = np.clip(photo, 0.0, 3.99)
    for c in range(3):
        bins = np.minimum((blank[:, c] * 16).astype(np.int64), 15)
        keys = np.sort(bins * 4.0 + photo[:, c])
        counts = np.bincount(bins, minlength=16)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        k = np.nonzero(counts >= 100)[0]
        if not len(k):
            continue
        medians = np.maximum.accumulate(keys[starts[k] + counts[k] // 2] - k * 4.0)
        centres = np.bincount(bins, weights=blank[:, c], minlength=16)[k] / counts[k]
        curve = np.interp(levels, centres, medians)
        # Outside the learned levels, follow the identity's slope.
        curve = np.where(levels < centres[0], medians[0] - (centres[0] - levels), curve)
        curve = np.where(levels > centres[-1], medians[-1] + (levels - centres[-1]), curve)
        lut[0, :, c] = curve
    return lut


def _darkness(darkest: np.ndarray, photo: np.ndarray, lut: np.ndarray) -> np.ndarray:
    """How much darker (fraction of paper) the photo is than the print allows."""
    b, g, r = cv2.split(cv2.subtract(cv2.LUT(darkest, lut), photo))
    return cv2.max(cv2.max(b, g), r)


def _thresholds(flat_strength: np.ndarray) -> tuple[float, float]:
    med = float(np.median(flat_strength))
    sigma = 1.4826 * float(np.median(np.abs(flat_strength - med)))
    return (max(INK_WEAK_MIN, med + NOISE_WEAK_SIGMAS * sigma),
            max(INK_STRONG_MIN, med + NOISE_STRONG_SIGMAS * sigma))


def _ink_components(strength: np.ndarray, weak: float,
                    strong: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ink mask (weak pixels connected to strong ones), component labels, areas (px).

    Components are labelled after a one-pixel dilation so that a faint
    stroke broken by noise stays one stroke.
    """
    weak_mask = (strength > weak).astype(np.uint8)
    joined = cv2.dilate(weak_mask, np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(joined, connectivity=8)
    has_strong = np.zeros(count, bool)
    has_strong[np.unique(labels[strength > strong])] = True
    has_strong[0] = False
    ink = weak_mask.astype(bool) & has_strong[labels]
    areas = np.bincount(labels[ink], minlength=count)
    return ink, labels, areas


def _pen_contrast(strength: np.ndarray, ink: np.ndarray, labels: np.ndarray,
                  areas: np.ndarray, p: float) -> float | None:
    """Typical darkness of this sheet's pen strokes (None: too few clear strokes).

    Taken from the largest ink components (each at least a stroke of
    PEN_STROKE_MM): the 90th percentile of their darkness, median over them.
    """
    min_area = PEN_STROKE_MM * 0.3 * p * p
    big = np.nonzero(areas >= min_area)[0]
    if len(big) < PEN_MIN_STROKES:
        return None
    big = big[np.argsort(areas[big])[::-1][:12]]
    values = strength[ink]
    lab = labels[ink]
    levels = [float(np.percentile(values[lab == k], 90)) for k in big]
    return float(np.median(levels))


# --- 4. shape -----------------------------------------------------------------

def _describe(box: Box, ink: np.ndarray, labels: np.ndarray, areas: np.ndarray,
              strength: np.ndarray, weak: float, ref: BlankReference,
              origin: tuple[int, int]) -> InkShape:
    """The shape of the ink inside ``box`` (maps cropped at ``origin`` px)."""
    p = ref.px_per_mm
    x0, y0, x1, y1 = _rect_px(box, p, -INTERIOR_INSET_MM)
    open_paper = ref.open[y0:y1, x0:x1]
    x0, x1, y0, y1 = x0 - origin[0], x1 - origin[0], y0 - origin[1], y1 - origin[1]
    inside = ink[y0:y1, x0:x1]
    visible = float(open_paper.mean())
    if not inside.any():
        return InkShape(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, visible=visible)
    lab = labels[y0:y1, x0:x1]
    keep = inside.copy()
    edge_only = False
    band = EDGE_BAND_MM * p
    h, w = inside.shape
    for label in np.unique(lab[inside]):
        own = inside & (lab == label)
        share = own.sum() / max(1, areas[label])
        if share >= NEIGHBOUR_SHARE:
            continue
        # A stroke of a neighbour enters over one edge: inside the box it
        # stays in a band along that edge.
        ys, xs = np.nonzero(own)
        along_side = (xs.max() < band or xs.min() > w - 1 - band or
                      ys.max() < band or ys.min() > h - 1 - band)
        if along_side:
            keep &= ~own
            edge_only = True
    n = int(keep.sum())
    if n == 0:
        return InkShape(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, edge_only=True, visible=visible)
    m = cv2.moments(keep.view(np.uint8), binaryImage=True)
    cxx, cyy, cxy = m["mu20"] / n, m["mu02"] / n, m["mu11"] / n
    evals, evecs = np.linalg.eigh(np.array([[cxx, cxy], [cxy, cyy]]))
    vx, vy = evecs[:, 1]
    s = strength[y0:y1, x0:x1][keep]
    ys, xs = np.nonzero(keep)
    rx, ry = xs - (x1 - x0) / 2, ys - (y1 - y0) / 2
    near_centre = np.hypot(rx, ry) < RING_HOLE_MM * p
    sector = ((np.arctan2(ry, rx) + np.pi) / (2 * np.pi) * 8).astype(int) % 8
    sectors = int((np.bincount(sector, minlength=8) >= 0.03 * len(sector)).sum())
    return InkShape(area=n / p**2, extent_x=_spread(keep.sum(axis=0)) / p,
                    extent_y=_spread(keep.sum(axis=1)) / p,
                    major=float(np.sqrt(max(evals[1], 0) * 12)) / p,
                    minor=float(np.sqrt(max(evals[0], 0) * 12)) / p,
                    angle=float(np.degrees(np.arctan2(abs(vy), abs(vx)))),
                    contrast=float(np.median(s)) / weak,
                    open_area=float(np.count_nonzero(keep & open_paper)) / p**2,
                    edge_only=edge_only, visible=visible,
                    centre_share=float(near_centre.mean()), sectors=sectors)


def _spread(profile: np.ndarray) -> float:
    """Distance (px) between the 2nd and 98th percentile of a projection profile."""
    cum = np.cumsum(profile)
    total = cum[-1]
    lo = int(np.searchsorted(cum, 0.02 * total))
    hi = int(np.searchsorted(cum, 0.98 * total))
    return float(hi - lo)


#: Shape thresholds (mm, degrees). A cross spans most of a 9 mm box in both
#: directions; a slash is long and steep; a skip line is long, thin, flat.
CROSS_EXTENT_MM = 3.5
#: In boxes where less than HIDDEN_VISIBLE of the inside is open paper.
HIDDEN_VISIBLE = 0.42
HIDDEN_CROSS_EXTENT_MM = 2.8
CROSS_MINOR_MM = 2.0
SLASH_LENGTH_MM = 4.5
SLASH_ANGLE = 18.0
SKIP_ANGLE = 10.0
SKIP_MINOR_MM = 2.0
SKIP_HEIGHT_MM = 2.8
DOT_EXTENT_MM = 1.8
#: A dot is round-ish (minor axis at least DOT_ROUNDNESS of the major one);
#: anything smaller than TINY_MM is a speck whatever its shape.
DOT_ROUNDNESS = 0.45
TINY_MM = 0.8
CLEAR_CONTRAST = 1.6
#: A circle round the number: ink spanning RING_MIN_MM both ways, none of it
#: within RING_HOLE_MM of the centre.
RING_HOLE_MM = 1.5
RING_MIN_MM = 5.0
#: A cross leaves at least this much ink (mm^2) on open paper.
OPEN_INK_MM2 = 1.0


def decide(shape: InkShape, box_id: str) -> BoxVerdict:
    """Turn one box's ink shape into a verdict with a confidence."""
    if shape.area == 0.0:
        note = "ink from a neighbour" if shape.edge_only else ""
        return BoxVerdict(box_id, "empty", 1.0, note)
    size = max(shape.extent_x, shape.extent_y)
    contrast = float(np.clip((shape.contrast - 1.0) / (CLEAR_CONTRAST - 1.0), 0, 1))
    if size < DOT_EXTENT_MM:
        if size > TINY_MM and shape.minor < DOT_ROUNDNESS * shape.major:
            # A short stroke, not a dot: perhaps the visible piece of a mark.
            return BoxVerdict(box_id, "uncertain", 0.3, "short stroke")
        margin = (DOT_EXTENT_MM - size) / DOT_EXTENT_MM
        return BoxVerdict(box_id, "empty", _confidence(margin), "dot")
    flat_thin = (shape.angle <= SKIP_ANGLE and shape.minor <= SKIP_MINOR_MM
                 and shape.extent_y <= SKIP_HEIGHT_MM)
    if flat_thin and shape.visible < HIDDEN_VISIBLE:
        # Print hides much of this box: a flat stroke may be the visible part of a cross.
        return BoxVerdict(box_id, "uncertain", 0.3, "partly hidden by print")
    if flat_thin:
        margin = min((SKIP_ANGLE - shape.angle) / SKIP_ANGLE,
                     (SKIP_MINOR_MM - shape.minor) / SKIP_MINOR_MM)
        return BoxVerdict(box_id, "empty", _confidence(margin), "skip line")
    opened = (shape.open_area - OPEN_INK_MM2) / OPEN_INK_MM2
    # Where print hides much of the box, less of a cross can show.
    needed = CROSS_EXTENT_MM if shape.visible >= HIDDEN_VISIBLE else HIDDEN_CROSS_EXTENT_MM
    two_d = min(shape.extent_x, shape.extent_y) - needed
    if two_d >= 0 and shape.minor >= CROSS_MINOR_MM:
        if opened < 0:
            return BoxVerdict(box_id, "uncertain", 0.3, "ink only along the print")
        margin = min(two_d / 2.0, (shape.minor - CROSS_MINOR_MM) / 1.0, contrast, opened)
        return BoxVerdict(box_id, "crossed", _confidence(margin), "")
    if shape.major >= SLASH_LENGTH_MM and shape.angle >= SLASH_ANGLE:
        if opened < 0:
            return BoxVerdict(box_id, "uncertain", 0.3, "ink only along the print")
        margin = min((shape.major - SLASH_LENGTH_MM) / 2.0,
                     (shape.angle - SLASH_ANGLE) / 15.0, contrast, opened)
        return BoxVerdict(box_id, "crossed", _confidence(margin), "slash")
    return BoxVerdict(box_id, "uncertain", 0.3, "unclear mark")


def _confidence(margin: float) -> float:
    """0.5 at a decision boundary, 1.0 with a clear margin."""
    return round(0.5 + 0.5 * float(np.clip(margin, 0.0, 1.0)), 3)
