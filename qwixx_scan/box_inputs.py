"""What the box networks see of each box of a rectified sheet, and the ink it holds.

:func:`located_box_inputs` finds every box's print (see
:mod:`qwixx_scan.locate`) and takes the photo's window around it (the box
and WINDOW_MM around it). Per box and colour channel, the paper level is
measured on the box's own flat light inside (80th percentile, so ink stays
below it), on a 3 x 3 grid so soft shadows are followed; a box far darker
than the paper around it, or than its neighbour boxes' paper (or tinted
where light is not), is covered with ink, not shaded, and takes their
level. The window divided by that level (paper = 1) next to the same window
of the blank sheet is the networks' input (``box_model``); with it come the
ink each box holds, for the physical checks of :mod:`qwixx_scan.verdict`, and
where each box was found. Training (training/train_box_classifier.py) takes
its inputs from :func:`box_inputs`, so the networks learn from what they
will see.

What the blank sheet tells about every box (its window, where its paper is
light and flat) is worked out once per sheet and resolution
(:class:`ReaderReference`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from qwixx_print.layout import Box, Sheet

from .blank import BlankReference, load_reference
from .box_model import CLOSE_PX, INPUT_CHANNELS, INPUT_PX
from .locate import (ASTRAY_SHEET_MATCH, MAX_ASTRAY, REACH_MM, SEARCH_MM, box_distances,
                     even_field, field_basis, global_correction, locate_boxes,
                     neighbour_offsets, regularise_offsets, resample_along_field)

#: The photo channels of a box's input (paper = 1) are capped here: a
#: reflection or a lit edge brighter than the paper tells nothing.
PHOTO_CAP = 1.5
#: A box whose print was found further than SECOND_PLACE_MM from where its
#: neighbours' shifts put it (a strong match elsewhere: ink over the print,
#: a row band's edge) is read at both places; when the two readings differ
#: the box is doubtful. On 150 independent photos (foreign_photos.py, seed
#: 2) a thick X in the first box of a curled, steeply tilted sheet was
#: matched 4.8 mm off, between two rows, while its neighbours moved 1 mm:
#: read empty there, and the sheet came out ``ok`` with a wrong score. 6 of
#: that set's 11 wrong boxes were found 2-4 mm from where their neighbours
#: put them; on 200 photogen photos (seed 5), 7 of 10,400 boxes were found
#: more than 1.5 mm off, all read right.
SECOND_PLACE_MM = 1.5
#: A box whose print is found well (matched OWN_PRINT_SEEN or better) is
#: not taken as found away from where its neighbours put it where those
#: neighbours' print is not seen (their median match under
#: NEIGHBOURS_UNSEEN, verdict.HIDDEN_PRINT_MATCH): boxes filled over their
#: print are matched at random within their search, and their places say
#: nothing of where the box lies; its own print does. The box search
#: reaches (SEARCH_MM, REACH_MM) less than a box's width from where the fit
#: puts a box, so a print matched that well is the box's own. Over the 147
#: independent sets at hand in stop 84, 10 boxes were doubtful because the
#: two places read differently, 8 of them on sheets of players filling
#: boxes in (a pen's zigzags hiding the print), 4 of those empty boxes
#: matched 0.72-0.98 beside filled neighbours matched -0.02 to 0.24 (hard
#: seed 322 photo 63's yellow 3 and blue 12, hard table 285 photo 35's red
#: 8, hard table 321 photo 38's green 12): read where their neighbours put
#: them, they showed the edge of a fill. Read so, those sheets have no box
#: wrong, two of them none doubtful.
OWN_PRINT_SEEN = 0.6
NEIGHBOURS_UNSEEN = 0.32
#: Before a sheet with boxes astray is given up, it is evened out along the
#: boxes that were found (matched above BENT_FIELD_MATCH, not astray: see
#: even_field) and its boxes are looked for once more. Bent 4.5-6.6 mm
#: under a camera tilted 29-40 degrees, often with a corner marker hidden,
#: one corner of a sheet lies further off than the box search reaches while
#: the rest is found. The sheet is read so only where then no box goes
#: astray; else it is doubted whole after all. Over 4,263 sheets
#: (independent seeds 1-16 and their tables, photogen seeds 4-11) 9 sheets
#: had boxes astray that no even field had already put right: 6 are now
#: read (2 exactly, 4 with 2-4 doubtful boxes, no box wrong; a crossed lock
#: box found past the image's edge, read empty there, is doubtful: see
#: MIN_SEEN_SHARE); of the 3 still doubted whole, two had too few boxes
#: found to fit a field to, and one, whose left third lay past the image,
#: had 3 boxes still astray (3 of its boxes read wrong, read so).
BENT_FIELD_MATCH = 0.6
#: A box found so far past the edge of the rectified image that less than
#: MIN_SEEN_SHARE of it lies inside was not seen (the image's edge copied
#: outward was all there was; the photo around the sheet, see SURROUND_MM,
#: is not trusted that far out) and is doubtful. On steep photos of bent sheets
#: a row's first or last box can lie past the trim as the markers place it:
#: over 4,263 sheets, boxes found up to 6.7 mm past it (a quarter of the box
#: still inside) were all read right; of those found 9.6-19 mm past it (none
#: of the box inside), 3 were read wrong (empty) and 3 empty by chance, on
#: sheets sent to review for their neighbours.
MIN_SEEN_SHARE = 0.2
#: A box found past the rectified sheet's edge, or near it, has its window
#: reach past the image (or, on a sheet put right by a correction or a
#: field, take pixels from past it), where copying the edge outward is all
#: there is. There the photo is rectified once more with SURROUND_MM around
#: the sheet (by the caller's ``surroundings``) and put right the same way,
#: and the windows take what the photo shows past the edge. Bent 5.8 mm
#: under a camera tilted 39 degrees (independent hard seed 166, photo 117),
#: a sheet's first column lay up to 3.8 mm past the edge as the markers
#: place it; the networks saw half of a bold X in the last row's first box
#: and the edge's copy beside it, read it empty (0.001-0.014), and the sheet
#: came out ``ok`` with a wrong score. Over 72 independent sets (10,488
#: sheets) that sheet was the only one read otherwise; about one photo in 50
#: (3 of 150 in seeds 165 and 166 each) is rectified the second time.
SURROUND_MM = 12.0
#: The network sees the box and this much around it (mm): where an
#: overshooting stroke comes from tells whose mark it is.
WINDOW_MM = 1.8
#: The light over a box window is measured in LIGHT_CELLS x LIGHT_CELLS
#: cells, each within LIGHT_RANGE of the box's paper level.
LIGHT_CELLS = 3
LIGHT_RANGE = (0.7, 1.25)
#: A cell with fewer light pixels than this has no level of its own; a box
#: (or its surroundings) with fewer than MIN_LEVEL_PIXELS, none.
MIN_CELL_PIXELS = 8
MIN_LEVEL_PIXELS = 20
#: A box's paper level below this share of the paper's around it: ink covers it.
COVERED_LEVEL = 0.85
#: Compared with the lighter of its neighbours' levels (this percentile of
#: the boxes within LEVEL_NEIGHBOUR_MM), a box whose level is below
#: COVERED_DARK in some channel, or whose darkest channel is below
#: COVERED_TINT of its lightest, is covered with ink (see _covered_boxes).
LEVEL_NEIGHBOUR_MM = 25.0
LEVEL_NEIGHBOUR_PCT = 75
COVERED_DARK = 0.35
COVERED_TINT = 0.5
#: Ink for the physical check: darker than the darkest blank value nearby by
#: INK_DARKNESS (fraction of paper), inside the box less INTERIOR_INSET_MM;
#: deep ink by DEEP_INK_DARKNESS, which tells a mark from shade (see
#: verdict.EMPTY_MAX_DEEP_INK_MM2).
INK_DARKNESS = 0.15
DEEP_INK_DARKNESS = 0.4
INTERIOR_INSET_MM = 0.6


@dataclass(frozen=True)
class _BoxPlan:
    """What the reader needs of one box, derived once per sheet and resolution.

    Pixel coordinates are in the blank's frame. ``light_index``: indices
    (into the window's flattened pixels, every second row and column) of the
    flat, light pixels of the box's inside, where the paper level is
    measured; ``light_blank`` the blank there (0..1), ``light_cell``
    their light cell. ``around``: per channel, the same for light pixels
    around the box. ``blank_input``: the blank's channels of the network
    input. ``interior``: the rows and columns of the window inside the box
    less its outline band; ``darkest_inside``: the blank's darkest values
    there (uint8, see BlankReference.darkest).
    ``fill``: how cells with too few light pixels take their level from the
    others (see _fill_weights).
    """

    box: Box
    window: tuple[int, int, int, int]  # x0, y0, x1, y1
    light_index: np.ndarray
    light_blank: np.ndarray  # n x 3
    light_cell: np.ndarray  # the light cell of each light pixel
    cell_counts: np.ndarray
    around: tuple[tuple[np.ndarray, np.ndarray], ...]  # like light, outside the box
    blank_input: np.ndarray  # 3 x INPUT_PX x INPUT_PX
    interior: tuple[slice, slice]
    darkest_inside: np.ndarray
    fill: tuple[np.ndarray, np.ndarray] | None  # see _fill_weights


@dataclass(frozen=True)
class ReaderReference:
    """What the reader keeps of a sheet's blank reference: the grey images it
    locates boxes on and every box's plan (see :class:`_BoxPlan`), but not
    the blank's full-size images, which only the plans are made from (most
    of a reference's memory, and every sheet read stays cached)."""

    px_per_mm: float
    size_px: tuple[int, int]  # width, height
    gray_half: np.ndarray
    gray_quarter: np.ndarray
    plans: list[_BoxPlan]
    windows: _Windows

    @classmethod
    def of(cls, ref: BlankReference, sheet: Sheet) -> ReaderReference:
        plans = [_plan(ref, box) for box in sheet.boxes]
        return cls(ref.px_per_mm, ref.size_px, ref.gray_half, ref.gray_quarter, plans,
                   _windows(plans))


_readers: dict[tuple[str, str, str | None, float], ReaderReference] = {}
_readers_lock = threading.Lock()


def reader_reference(sheet: Sheet, px_per_mm: float) -> ReaderReference:
    """The :class:`ReaderReference` of ``sheet`` at ``px_per_mm``, made once per process."""
    key = (sheet.fingerprint, sheet.layout, sheet.letter, float(px_per_mm))
    with _readers_lock:
        reader = _readers.get(key)
    if reader is None:
        reader = ReaderReference.of(load_reference(sheet, px_per_mm), sheet)
        with _readers_lock:
            _readers[key] = reader
    return reader


# (each blank reference is kept with its plans: its id must not be reused)
_of_blanks: dict[tuple[int, str], tuple[BlankReference, ReaderReference]] = {}


def _as_reader(ref: BlankReference | ReaderReference, sheet: Sheet) -> ReaderReference:
    """A caller's blank reference (training, tests) as the reader's, made once per reference."""
    if isinstance(ref, ReaderReference):
        return ref
    key = (id(ref), sheet.fingerprint)
    with _readers_lock:
        cached = _of_blanks.get(key)
    if cached is None:
        cached = (ref, ReaderReference.of(ref, sheet))
        with _readers_lock:
            _of_blanks[key] = cached
    return cached[1]


def _plan(ref: BlankReference, box: Box) -> _BoxPlan:
    x0, y0, x1, y1 = _rect_px(box, ref.px_per_mm, WINDOW_MM)
    blank = ref.image[y0:y1, x0:x1].astype(np.float32) / 255.0
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
    ix0, iy0, ix1, iy1 = _rect_px(box, ref.px_per_mm, -INTERIOR_INSET_MM)
    interior = (slice(iy0 - y0, iy1 - y0), slice(ix0 - x0, ix1 - x0))
    blank_input = cv2.resize(blank, (INPUT_PX, INPUT_PX), interpolation=cv2.INTER_AREA)
    return _BoxPlan(box=box, window=(x0, y0, x1, y1),
                    light_index=light_index,
                    light_blank=blank.reshape(-1, 3)[light_index], light_cell=cells,
                    cell_counts=counts,
                    around=tuple(around), blank_input=blank_input.transpose(2, 0, 1).copy(),
                    interior=interior,
                    darkest_inside=ref.darkest[y0:y1, x0:x1][interior].copy(),
                    fill=_fill_weights(counts >= MIN_CELL_PIXELS))


@dataclass(frozen=True)
class LocatedInputs:
    """What :func:`located_box_inputs` gives; see there."""

    inputs: np.ndarray
    ink_mm2: np.ndarray
    centres_px: np.ndarray
    second_place: np.ndarray
    second_inputs: np.ndarray
    match: np.ndarray
    lit_from_around: Callable[[np.ndarray], np.ndarray]
    close_look: Callable[[np.ndarray], np.ndarray]
    where_neighbours_put: Callable[[np.ndarray], np.ndarray]
    astray: np.ndarray
    unseen: np.ndarray
    evened_out: bool
    paper_levels: np.ndarray
    #: Where the boxes of ``second_place`` lie where their neighbours put
    #: them (px, as ``centres_px``).
    second_centres_px: np.ndarray


def box_inputs(rectified: np.ndarray, sheet: Sheet, ref: BlankReference | ReaderReference,
               *, close: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The network input of every box and the ink each box holds (see
    :func:`located_box_inputs`, which also says where each box was found);
    ``close``: every box's close look instead (CLOSE_PX a side)."""
    located = located_box_inputs(rectified, sheet, ref)
    if close:
        return located.close_look(np.arange(len(sheet.boxes))), located.ink_mm2
    return located.inputs, located.ink_mm2


#: The sheet rectified over (-margin, -margin) to (width + margin, height +
#: margin) mm, at the reader's resolution: what lies around it in the photo.
Surroundings = Callable[[float], np.ndarray]


def located_box_inputs(rectified: np.ndarray, sheet: Sheet,
                       ref: BlankReference | ReaderReference,
                       surroundings: Surroundings | None = None) -> LocatedInputs:
    """The network input of every box, the ink each box holds and where it was found.

    Returns ``inputs`` (n_boxes x 6 x INPUT_PX x INPUT_PX float32: the
    box window of the photo with paper = 1 (BGR) and the same window of the
    blank (BGR, 0..1)), ``ink_mm2`` (n_boxes x 2: mm^2 of the box's
    inside that is darker than the darkest blank value nearby by
    INK_DARKNESS, and by DEEP_INK_DARKNESS) and ``centres_px`` (n_boxes x
    2: where each box's centre was found in ``rectified``, px, after the
    whole-sheet correction and the box's own shift), in ``sheet.boxes``
    order; ``second_place`` (indices of the boxes found further than
    SECOND_PLACE_MM from where their neighbours' shifts put them) and
    ``second_inputs`` (their input taken there) and ``second_centres_px``
    (where those boxes' centres lie there); ``match``: how well each
    box's print matched the blank sheet's where it was found (normalised
    correlation, see :func:`locate_boxes`); ``lit_from_around(indices)``:
    those boxes' input once more with the paper level taken just around
    each box and not evened out inside it (see verdict.LIT_FROM_AROUND);
    ``close_look(indices)``: those boxes' input at CLOSE_PX a side (the
    same window and paper level, about twice the resolution);
    ``where_neighbours_put(indices)``: those boxes' input taken where their
    neighbours' shifts put them (as ``second_inputs``); ``astray``:
    the boxes whose print was not found near their place (see MAX_ASTRAY);
    ``unseen``: the boxes found past the image's edge, hardly any of them
    inside (see MIN_SEEN_SHARE); ``evened_out``: the sheet had boxes astray
    and was evened out along the boxes found to find the rest (see
    BENT_FIELD_MATCH); ``astray`` is then what was still astray after that;
    ``paper_levels``: each box's paper level (n_boxes x 3, BGR, the photo
    over the blank's paper, 0..255; a box covered with ink takes its
    neighbours'). ``surroundings``: what lies around the sheet, asked for
    where a box's window reaches past ``rectified`` (see SURROUND_MM);
    without it the image's edge is copied outward.
    """
    ref = _as_reader(ref, sheet)
    p = ref.px_per_mm
    width, height = ref.size_px
    rectified = rectified[:height, :width]
    if rectified.shape[:2] != (height, width):
        rectified = cv2.copyMakeBorder(rectified, 0, height - rectified.shape[0], 0,
                                       width - rectified.shape[1], cv2.BORDER_REPLICATE)
    boxes = sheet.boxes
    gray_half = _gray_half(rectified, ref)
    correction, start = global_correction(gray_half, ref, boxes)
    if correction is not None:
        rectified = cv2.warpPerspective(rectified, correction, (width, height),
                                        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                        borderMode=cv2.BORDER_REPLICATE)
        gray_half = _gray_half(rectified, ref)
    offsets, scores, astray = locate_boxes(gray_half, ref, boxes, start=start)
    offsets = regularise_offsets(offsets, scores, boxes, p)
    field = even_field(offsets, scores, boxes, p, (width, height))
    bent_far = False  # evened out along the boxes found, to find those astray
    if field is None and np.count_nonzero(astray) > MAX_ASTRAY \
            and np.median(scores) >= ASTRAY_SHEET_MATCH:  # (where they count: see MAX_ASTRAY)
        field = even_field(offsets, np.where(astray, 0.0, scores), boxes, p, (width, height),
                           min_match=BENT_FIELD_MATCH, any_scale=True)
        bent_far = field is not None
    if field is not None:
        rectified = resample_along_field(rectified, field)
        offsets, scores, astray = locate_boxes(_gray_half(rectified, ref), ref, boxes)
        offsets = regularise_offsets(offsets, scores, boxes, p)
    # (in a dim, noisy photo no box may match well: then all neighbours count)
    expected, expected_match = neighbour_offsets(offsets, scores, boxes, weak_too=True)
    apart = np.hypot(*(offsets - expected).T)
    # (a box found well among neighbours found nowhere: see OWN_PRINT_SEEN)
    own_place = (scores >= OWN_PRINT_SEEN) & (expected_match < NEIGHBOURS_UNSEEN)
    second_place = np.flatnonzero((apart > SECOND_PLACE_MM * p) & ~own_place)  # NaN: False
    centres_px = _came_from(np.float32([b.rect.centre for b in boxes]) * np.float32(p) + offsets,
                            (width, height), correction, field)
    # how far each box lies past the image's edges (px, per side), and how much of it is inside
    size = np.float32([(b.rect.w, b.rect.h) for b in boxes]) * np.float32(p)
    past = np.maximum(np.maximum(size / 2 - centres_px, 0),
                      np.maximum(centres_px + size / 2 - np.float32([width, height]), 0))
    unseen = np.prod(np.clip(1 - past / size, 0, 1), axis=1) < MIN_SEEN_SHARE
    # A border so that every shifted window lies inside the image.
    pad = round((REACH_MM + SEARCH_MM + 0.5) * p + np.abs(offsets).max(initial=0.0))
    padded = cv2.copyMakeBorder(rectified, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    plans, windows = ref.plans, ref.windows
    if surroundings is not None and _reach_past(plans, (offsets, expected), (width, height),
                                                correction, field):
        margin = round(SURROUND_MM * p)
        padded = _surrounded(surroundings(margin / p), margin, pad, (width, height),
                             correction, field)

    photos, levels, cells, outside = _raw_windows(padded, pad, plans, windows, offsets)
    levels, covered = _covered_boxes(_box_levels(levels), boxes)
    inputs = np.empty((len(plans), INPUT_CHANNELS, INPUT_PX, INPUT_PX), np.float32)
    ink_mm2 = np.empty((len(plans), 2), np.float32)
    for k, plan in enumerate(plans):
        inputs[k], ink_mm2[k] = _box_input(plan, photos[k], levels[k], cells[k], covered[k], p)

    def where_neighbours_put(indices: np.ndarray) -> np.ndarray:
        out = np.empty((len(indices), INPUT_CHANNELS, INPUT_PX, INPUT_PX), np.float32)
        if len(indices):
            there = [plans[k] for k in indices]
            there_photos, _, there_cells, _ = _raw_windows(padded, pad, there, _windows(there),
                                                           expected[indices])
            for j, k in enumerate(indices):
                out[j], _ = _box_input(plans[k], there_photos[j], levels[k], there_cells[j],
                                       covered[k], p)
        return out

    def lit_from_around(indices: np.ndarray) -> np.ndarray:
        out = np.empty((len(indices), INPUT_CHANNELS, INPUT_PX, INPUT_PX), np.float32)
        for j, k in enumerate(indices):
            level = np.where(np.isnan(outside[k]), levels[k], outside[k]).astype(np.float32)
            # as if covered: the light inside is not evened out
            out[j], _ = _box_input(plans[k], photos[k], level, cells[k], True, p)
        return out

    def close_look(indices: np.ndarray) -> np.ndarray:
        out = np.empty((len(indices), INPUT_CHANNELS, CLOSE_PX, CLOSE_PX), np.float32)
        blanks = _blanks_close(sheet, p, indices, plans)
        for j, k in enumerate(indices):
            out[j], _ = _box_input(plans[k], photos[k], levels[k], cells[k], covered[k], p,
                                   blank_close=blanks[j])
        return out

    second_centres_px = _came_from(
        np.float32([boxes[k].rect.centre for k in second_place]).reshape(-1, 2) * np.float32(p)
        + expected[second_place], (width, height), correction, field)
    return LocatedInputs(inputs, ink_mm2, centres_px, second_place,
                         where_neighbours_put(second_place), scores, lit_from_around,
                         close_look, where_neighbours_put, astray, unseen, bent_far, levels,
                         second_centres_px)


def _reach_past(plans: list[_BoxPlan], offsets: tuple[np.ndarray, ...],
                size_px: tuple[int, int], correction: np.ndarray | None,
                field: np.ndarray | None) -> bool:
    """Whether any box's window, shifted by any of ``offsets`` (boxes x 2 px
    each, NaN where unknown) on the sheet put right (``correction``,
    ``field``), shows anything from past the edge of the rectified image
    (``size_px``) it was put right from."""
    window = np.float32([plan.window for plan in plans])
    corners = np.stack([window[:, [0, 1]], window[:, [2, 1]], window[:, [2, 3]],
                        window[:, [0, 3]]], axis=1)  # boxes x 4 x (x, y)
    for shift in offsets:
        at = _came_from((corners + np.round(np.nan_to_num(shift))[:, None, :]).reshape(-1, 2),
                        size_px, correction, field)
        if (at < 0).any() or (at[:, 0] > size_px[0]).any() or (at[:, 1] > size_px[1]).any():
            return True
    return False


def _came_from(points_px: np.ndarray, size_px: tuple[int, int], correction: np.ndarray | None,
               field: np.ndarray | None) -> np.ndarray:
    """Where points of the sheet put right (``correction``, then ``field``)
    lie on the rectified image (``size_px``) it was put right from (n x 2
    float32 px)."""
    points_px = np.float32(points_px)
    if field is not None:  # the resampled (x, y) came from (x, y) + field
        points_px = points_px + (field_basis(points_px, size_px) @ field).astype(np.float32)
    if correction is not None:
        # the corrected image's pixel (x, y) came from the rectified image at H (x, y)
        points_px = cv2.perspectiveTransform(points_px[None], correction)[0]
    return points_px


def _surrounded(around: np.ndarray, margin: int, pad: int, size_px: tuple[int, int],
                correction: np.ndarray | None, field: np.ndarray | None) -> np.ndarray:
    """The rectified sheet (``size_px``) with ``pad`` px around it, from
    ``around`` (the sheet rectified with ``margin`` px around it), put right
    as the sheet was (``correction``, ``field``)."""
    width, height = size_px
    if correction is not None:
        # corrected (x, y) came from H (x, y): the same in the margin's frame
        shift = np.array([[1, 0, margin], [0, 1, margin], [0, 0, 1]], np.float64)
        around = cv2.warpPerspective(around, shift @ correction @ np.linalg.inv(shift),
                                     (around.shape[1], around.shape[0]),
                                     flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REPLICATE)
    if field is not None:
        around = resample_along_field(around, field, origin=margin, size_px=size_px)
    if pad <= margin:
        return around[margin - pad:margin + height + pad, margin - pad:margin + width + pad]
    return cv2.copyMakeBorder(around, *(4 * [pad - margin]), cv2.BORDER_REPLICATE)


def _gray_half(image: np.ndarray, ref: ReaderReference) -> np.ndarray:
    """The rectified sheet in grey at the blank's half resolution (float32), for locating boxes."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.resize(gray, ref.gray_half.shape[::-1],
                      interpolation=cv2.INTER_AREA).astype(np.float32)


def _box_input(plan: _BoxPlan, photo: np.ndarray, level: np.ndarray, cells: np.ndarray,
               covered: bool, p: float,
               blank_close: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One box's network input from its raw window (see :func:`_raw_windows`),
    and its ink and deep ink (mm^2). ``covered``: the box is covered with
    ink (see :func:`_covered_boxes`), its light cells measured on ink;
    ``blank_close``: the box's blank for the close look (see
    :func:`_blanks_close`): the input is then CLOSE_PX a side."""
    if covered:
        cells = np.ones_like(cells)  # measured on ink, not on paper
    photo = _normalise(photo, level, cells)
    darkest = plan.darkest_inside.astype(np.float32) * np.float32(1 / 255)
    below = cv2.subtract(darkest, np.ascontiguousarray(photo[plan.interior]))
    # the darkest channel's margin; numpy's max over a 3-long last axis is
    # 13x slower than this (13 ms of a 12 MP photo's scan)
    inside = np.maximum(np.maximum(below[:, :, 0], below[:, :, 1]), below[:, :, 2])
    ink = (np.count_nonzero(inside > INK_DARKNESS) / p**2,
           np.count_nonzero(inside > DEEP_INK_DARKNESS) / p**2)
    # capped by a threshold: the same as np.minimum, five times as fast
    # (1.5 ms of a sheet's reading)
    capped = cv2.threshold(photo, PHOTO_CAP, PHOTO_CAP, cv2.THRESH_TRUNC)[1]
    side = INPUT_PX if blank_close is None else CLOSE_PX
    small = cv2.resize(capped, (side, side), interpolation=cv2.INTER_AREA)
    out = np.empty((INPUT_CHANNELS, side, side), np.float32)
    out[:3] = small.transpose(2, 0, 1)
    out[3:] = plan.blank_input if blank_close is None else blank_close * np.float32(1 / 255)
    return out, np.float32(ink)


_close_blanks: dict[tuple[str, str, str | None, float, int], np.ndarray] = {}


def _blanks_close(sheet: Sheet, px_per_mm: float, indices: np.ndarray,
                  plans: list[_BoxPlan]) -> list[np.ndarray]:
    """The blank's channels of these boxes' close look (each 3 x CLOSE_PX x
    CLOSE_PX, uint8), made from the blank sheet once per process and box.
    Only the few boxes the close look is asked about need them, so they are
    not in the box plans (that would make each sheet's plans a quarter
    larger)."""
    keys = [(sheet.fingerprint, sheet.layout, sheet.letter, float(px_per_mm), int(k))
            for k in indices]
    with _readers_lock:
        missing = [j for j, key in enumerate(keys) if key not in _close_blanks]
    if missing:
        image = load_reference(sheet, px_per_mm).image
        made = {}
        for j in missing:
            x0, y0, x1, y1 = plans[indices[j]].window
            made[keys[j]] = cv2.resize(image[y0:y1, x0:x1], (CLOSE_PX, CLOSE_PX),
                                       interpolation=cv2.INTER_AREA).transpose(2, 0, 1).copy()
        with _readers_lock:
            _close_blanks.update(made)
    with _readers_lock:
        return [_close_blanks[key] for key in keys]


def _rect_px(box: Box, p: float, grow_mm: float) -> tuple[int, int, int, int]:
    r = box.rect
    return (round((r.x - grow_mm) * p), round((r.y - grow_mm) * p),
            round((r.x + r.w + grow_mm) * p), round((r.y + r.h + grow_mm) * p))


@dataclass(frozen=True)
class _Segments:
    """Pixels of several box windows laid end to end, box after box.

    ``index``: each pixel's place in the windows laid end to end (see
    :func:`_raw_windows`); ``blank``: the blank's value there; ``box``:
    which of the boxes it belongs to; ``at``: per box, the place (in the
    sorted segment) of its 80th percentile; ``enough``: the boxes with
    at least MIN_LEVEL_PIXELS pixels."""

    index: np.ndarray
    blank: np.ndarray
    box: np.ndarray
    at: np.ndarray
    enough: np.ndarray


def _segments(parts: list[tuple[np.ndarray, np.ndarray]], starts: np.ndarray) -> _Segments:
    """Every box's (pixel index in its window, blank value) laid end to end;
    ``starts``: where each box's window begins among the windows laid end to end."""
    counts = np.array([len(index) for index, _ in parts])
    first = _run_starts(counts)
    total = int(counts.sum())
    return _Segments(
        index=np.concatenate([index + start for (index, _), start in zip(parts, starts)]
                             + [np.zeros(0, np.int64)]).astype(np.int32),
        blank=np.concatenate([blank for _, blank in parts]).astype(np.float32)
        if total else np.zeros((0,) + parts[0][1].shape[1:], np.float32),
        box=np.repeat(np.arange(len(parts), dtype=np.int32), counts),
        at=np.minimum(first + (0.8 * np.maximum(counts - 1, 0)).astype(np.int64),
                      max(total - 1, 0)),
        enough=counts >= MIN_LEVEL_PIXELS)


@dataclass(frozen=True)
class _Windows:
    """The plans of several boxes put together, so that their paper levels are
    measured in a few array operations for all boxes at once (box by box,
    numpy's cost per call was 10 ms of a sheet's reading)."""

    shapes: tuple[tuple[int, int], ...]
    starts: np.ndarray  # where each window begins, in pixels laid end to end
    light: _Segments
    around: tuple[_Segments, ...]  # per channel
    cell_key: np.ndarray  # per light pixel: its box's and cell's place (see _raw_windows)
    good: np.ndarray  # boxes x cells: cells with a level of their own
    cell_at: np.ndarray  # per good cell: where its level lies among the sorted keys
    cell_base: np.ndarray  # per good cell: its key without the value (good cells x 1)
    fill: np.ndarray  # boxes x cells x cells: how the others take theirs
    fill_const: np.ndarray  # boxes x cells


def _windows(plans: list[_BoxPlan]) -> _Windows:
    shapes = tuple((p.window[3] - p.window[1], p.window[2] - p.window[0]) for p in plans)
    sizes = np.array([h * w for h, w in shapes], np.int64)
    starts = _run_starts(sizes)
    light = _segments([(p.light_index, p.light_blank) for p in plans], starts)
    around = tuple(_segments([p.around[c] for p in plans], starts) for c in range(3))
    n_cells = LIGHT_CELLS * LIGHT_CELLS
    cell_key = (light.box * n_cells + np.concatenate(
        [p.light_cell for p in plans] + [np.zeros(0, np.int64)])) * 4.0
    counts = np.array([p.cell_counts for p in plans]).reshape(-1, n_cells)
    good = counts >= MIN_CELL_PIXELS
    # the sorted keys run box by box, cell by cell: a good cell's level is
    # its 80th percentile, counts * 4 // 5 into its run
    cell_at = (_run_starts(counts.ravel()) + counts.ravel() * 4 // 5)[good.ravel()]
    fill = np.zeros((len(plans), n_cells, n_cells))
    fill_const = np.zeros((len(plans), n_cells))
    for k, plan in enumerate(plans):
        if plan.fill is not None:
            fill[k], fill_const[k] = plan.fill
    cell_base = (np.flatnonzero(good) * 4.0)[:, None]
    return _Windows(shapes, starts, light, around, cell_key, good, cell_at, cell_base, fill,
                    fill_const)


def _raw_windows(padded: np.ndarray, pad: int, plans: list[_BoxPlan], windows: _Windows,
                 offsets: np.ndarray
                 ) -> tuple[list[np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
    """The photo around each box, shifted onto the blank (BGR float32,
    0..255), its paper level per channel (boxes x 3; NaN where the box has
    too few light pixels), a coarse map of the light over the window
    (boxes x LIGHT_CELLS x LIGHT_CELLS x 3, relative to that level) and the
    paper level just around the box (boxes x 3; NaN where too little paper
    shows there).

    Paper level: the 80th percentile of photo / blank on the flat light
    pixels (ink, darker than paper, stays below it); per cell the same on
    the cell's pixels, so that the light may change across the box (soft
    shadows), but never more than LIGHT_RANGE allows (a cell full of ink is
    ink, not shade). Cells with too few light pixels follow their row or
    column.

    Every box's percentiles come from one sort: each value is keyed by its
    box (and cell) first, values below SEGMENT_SPAN, so the boxes' runs
    follow each other in the sorted order and a box's percentile is a fixed
    place in it.
    """
    blurred = []
    for plan, offset in zip(plans, offsets):
        x0, y0, x1, y1 = plan.window
        dx, dy = round(float(offset[0])) + pad, round(float(offset[1])) + pad
        blurred.append(cv2.GaussianBlur(padded[y0 + dy:y1 + dy, x0 + dx:x1 + dx], (3, 3), 0)
                       .reshape(-1, 3))
    pixels = np.concatenate(blurred)  # uint8: float32 only where measured (memory)
    photos = [pixels[start:start + h * w].reshape(h, w, 3).astype(np.float32)
              for start, (h, w) in zip(windows.starts, windows.shapes)]
    n = len(plans)
    cells = np.ones((n, LIGHT_CELLS, LIGHT_CELLS, 3), np.float32)
    light = windows.light
    outside = np.full((n, 3), np.nan, np.float32)
    if not len(light.index):
        return photos, np.full((n, 3), np.nan, np.float32), cells, outside
    ratio = pixels[light.index] / light.blank
    level = np.maximum(_segment_values(ratio, light.box, light.at), np.float32(1e-3))
    for c, around in enumerate(windows.around):
        if not len(around.index):
            continue
        out_ratio = pixels[around.index, c] / around.blank
        around_level = _segment_values(out_ratio[:, None], around.box, around.at)[:, 0]
        outside[:, c] = np.where(around.enough, np.maximum(around_level, np.float32(1e-3)),
                                 np.nan)
        # Paper in the box far darker than the paper just around it is
        # covered with ink (a scribble), not shaded: take the level around.
        covered = around.enough & (level[:, c] < COVERED_LEVEL * around_level.astype(np.float64))
        level[:, c] = np.where(covered, around_level, level[:, c])
    rel = np.clip(ratio / level[light.box], 0.0, 3.99)
    keys = np.sort(windows.cell_key[:, None] + rel, axis=0)
    n_cells = LIGHT_CELLS * LIGHT_CELLS
    values = np.full((n * n_cells, 3), np.nan)
    values[windows.good.ravel()] = keys[windows.cell_at] - windows.cell_base
    values = values.reshape(n, n_cells, 3)
    filled = np.einsum("kij,kjc->kic", windows.fill, np.nan_to_num(values)) \
        + windows.fill_const[:, :, None]
    values = np.where(windows.good[:, :, None], values, filled)
    cells[:] = np.clip(values.reshape(n, LIGHT_CELLS, LIGHT_CELLS, 3), *LIGHT_RANGE)
    cells[~light.enough] = 1.0
    level[~light.enough] = np.nan
    return photos, level, cells, outside


def _run_starts(lengths: np.ndarray) -> np.ndarray:
    """Where each of runs of these lengths starts when laid end to end."""
    return np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)


#: Above any photo / blank ratio of a light pixel (255 / 0.55): see _raw_windows.
SEGMENT_SPAN = 1024.0


def _segment_values(values: np.ndarray, box: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Per box, the value at place ``at`` of its run of ``values`` (n x c,
    float32) sorted per column; ``box`` says whose each value is (runs in
    box order)."""
    offset = box[:, None] * SEGMENT_SPAN
    # Only the places asked for need to be in sorted order: a partition at
    # them gives the same values as a full sort in 60 % of its time (1 ms
    # of a photo's reading).
    ordered = np.partition(offset + values.astype(np.float64), at, axis=0)
    return (ordered[at] - offset[at]).astype(np.float32)


def _fill_weights(good: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """How the cells not ``good`` (a flat LIGHT_CELLS x LIGHT_CELLS mask: too
    few light pixels) take a level: their row's median, else their column's,
    else 1 (the box's level). With three cells a row or column, a median is
    of one or two values, a mean: so this is a fixed weighting of the good
    cells plus a constant, the same for every photo, worked out once per box.
    None where no cell is missing."""
    if good.all():
        return None
    grid = good.reshape(LIGHT_CELLS, LIGHT_CELLS)
    weights = np.zeros((good.size, good.size))
    const = np.zeros(good.size)
    for cell in np.flatnonzero(~good):
        r, c = divmod(int(cell), LIGHT_CELLS)
        row = [r * LIGHT_CELLS + j for j in range(LIGHT_CELLS) if grid[r, j]]
        col = [i * LIGHT_CELLS + c for i in range(LIGHT_CELLS) if grid[i, c]]
        use = row or col
        if len(use) > 2:
            raise ValueError(f"LIGHT_CELLS must be 3 or less for a median to be a mean, "
                             f"not {LIGHT_CELLS}")
        if use:
            weights[cell, use] = 1.0 / len(use)
        else:
            const[cell] = 1.0
    return weights, const


def _box_levels(levels: np.ndarray) -> np.ndarray:
    """Paper levels per box (n x 3); a box without light pixels takes the median."""
    fallback = np.nanmedian(levels, axis=0)
    fallback = np.where(np.isnan(fallback), 255.0, fallback)
    return np.where(np.isnan(levels), fallback[None, :], levels)


_neighbour_tables: dict[tuple[Box, ...], tuple[np.ndarray, np.ndarray]] = {}


def _neighbour_table(boxes: tuple[Box, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Per box, the indices of the other boxes within LEVEL_NEIGHBOUR_MM (rows
    padded with the box's own index) and how many there are; once per sheet."""
    if boxes not in _neighbour_tables:
        dist = box_distances(boxes)
        near = (dist < LEVEL_NEIGHBOUR_MM) & ~np.eye(len(boxes), dtype=bool)
        counts = near.sum(axis=1)
        table = np.repeat(np.arange(len(boxes))[:, None], max(1, int(counts.max())), axis=1)
        for i, row in enumerate(near):
            table[i, :counts[i]] = np.flatnonzero(row)
        _neighbour_tables[boxes] = (table, counts)
    return _neighbour_tables[boxes]


def _covered_boxes(levels: np.ndarray,
                   boxes: tuple[Box, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Boxes whose own paper level was measured on ink, and better levels for them.

    A box's paper level comes from the lightest part of its inside; a box
    filled edge to edge has none, and dividing by the ink's own level would
    make the fill vanish. Light changes smoothly from box to box, so a level
    far below the lighter neighbours' (LEVEL_NEIGHBOUR_PCT percentile) is
    ink: much darker in every channel alike than any shadow, or tinted (one
    channel relatively darker than the others), which light is not. Such a
    box takes its neighbours' level. Returns (levels, covered mask).
    """
    table, counts = _neighbour_table(boxes)
    # The percentile of each box's neighbours (all boxes at once, by
    # np.percentile's linear rule): padding sorts last and is never reached.
    ordered = np.sort(np.where((np.arange(table.shape[1]) < counts[:, None])[:, :, None],
                               levels[table], 1e30), axis=1)
    position = LEVEL_NEIGHBOUR_PCT / 100 * np.maximum(counts - 1, 0)
    below = np.floor(position).astype(int)
    above = np.minimum(below + 1, np.maximum(counts - 1, 0))
    rows = np.arange(len(levels))
    low, high = ordered[rows, below], ordered[rows, above]
    expected = low + (high - low) * (position - below)[:, None]
    ratio = levels / np.maximum(expected, 1e-3)
    covered = (counts >= 3) & ((ratio.min(axis=1) < COVERED_DARK)
                               | (ratio.min(axis=1) < COVERED_TINT * ratio.max(axis=1)))
    return np.where(covered[:, None], expected, levels), covered


def _normalise(photo: np.ndarray, level: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """Divide a raw window by its paper level field: paper = 1 in every channel."""
    h, w = photo.shape[:2]
    gain = np.maximum(cells * level[None, None, :], 1e-3).astype(np.float32)
    return cv2.divide(photo, cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR))

