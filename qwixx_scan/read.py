"""Decide for every box of a rectified sheet: crossed, empty or uncertain.

How:

1. Locate: first the whole sheet: every box's print is looked for within
   +-6 mm at quarter resolution and, when most boxes agree on a homography
   that moves them by a millimetre or more (a fit to three markers is off at
   the hidden corner), the image is warped by it; where none fits, a bend
   of the paper may (each box is then first searched where the bend puts
   it). Then every box's printed surroundings (outline, number, row band)
   are matched against the blank sheet within +-2 mm, absorbing paper curl,
   and a box matched on the edge of that search is looked for again around
   its neighbours' shift; an offset that disagrees with the neighbours
   while its match is weak (ink over the print) is replaced by theirs.
2. Normalise: per box and colour channel, the paper level is measured on
   the box's own flat light inside (80th percentile, so ink stays below
   it), on a 3 x 3 grid so soft shadows are followed; a box far darker than
   the paper around it, or than its neighbour boxes' paper (or tinted where
   light is not), is covered with ink, not shaded, and takes their level.
3. Decide: a small convolutional network (``box_model``, trained on
   generated photos by training/train_box_classifier.py) looks at each
   box's normalised window next to the same window of the blank sheet and
   gives the probability that a player crossed it. Learned from many
   thousands of marks, it separates crosses from skip lines, dots,
   overshoot and print far better than hand-set shape thresholds did.
   Between two probability thresholds, or when the network disagrees with
   the plain amount of ink in the box (much deep ink read empty, hardly any ink
   read crossed unless the networks are all but unanimous: something it
   has not seen), the box is uncertain and the sheet goes to review. A box they
   are unsure of is first read once more with the paper level taken just
   around it and the light inside not evened out: a light fill is then
   darker than the paper, not shade.
4. Compare: a box doubted for its mark that looks like the player's own
   confident crosses on the same sheet (ink, its colour, the networks'
   lean) is taken as crossed (``own_marks``), and reported as settled.

Coordinates: ``rectified`` pixel (x, y) is sheet mm (x / px_per_mm,
y / px_per_mm), x right, y down, top-left trim corner at (0, 0).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from qwixx_print.layout import Box, Sheet

from .blank import BlankReference, load_reference
from .box_model import INPUT_CHANNELS, INPUT_PX, MEMBERS, SURE, box_classifier
from .own_marks import like_own_crosses

#: Box location search radius and template margin around the box (mm).
SEARCH_MM = 2.0
TEMPLATE_MARGIN_MM = 1.2
#: Before the box search, the fit is checked over the whole sheet: every
#: box's print looked for within WIDE_SEARCH_MM (at quarter resolution); a
#: homography through at least CORRECTION_INLIERS of the boxes (within
#: RANSAC_MM) that moves some box by CORRECTION_MIN_MM or more is applied.
WIDE_SEARCH_MM = 6.0
#: A box whose print matches best on the edge of its +-SEARCH_MM search may
#: lie beyond it: it is looked for again around its neighbours' offset (the
#: well-matched ones where it has two), when that is within REACH_MM of
#: where its search began (up to REACH_ROUNDS times, so a shift spreads
#: along a row). Bent paper moves the middle of a row while the corners,
#: where the markers are, stay put: on an independent photo (foreign_photos.py seed 3, photo 138: bent
#: 3.7 mm, tilted 26 degrees) the four lock boxes at the rows' ends lay
#: 2.5-3 mm above their place, were matched on the search's edge and read
#: as doubtful. Only the neighbours' shift moves the search, and only a
#: match there better than WEAK_MATCH is taken: a box under a scribble
#: matches nowhere, and followed its best (0.2) over 4.7 mm into the gap to
#: the next penalty box; two scribbled penalty boxes following each other
#: drifted 2.6 mm.
REACH_MM = 5.0
REACH_ROUNDS = 3
RANSAC_MM = 0.8
CORRECTION_INLIERS = 0.6
CORRECTION_MIN_MM = 1.0
#: Where no homography fits, a bend (see :func:`bend_shifts`) is looked for
#: among each box's BEND_PEAKS best matches (at least BEND_PEAK_SPACING_MM
#: apart), in BEND_TRIALS random draws per axis; it is taken when its matches
#: score BEND_MIN_SUPPORT times those of no shift at all and it explains at
#: least BEND_MIN_BOXES of the boxes.
BEND_PEAKS = 3
BEND_PEAK_SPACING_MM = 2.0
BEND_TRIALS = 300
BEND_MIN_SUPPORT = 2.0
BEND_MIN_BOXES = 0.5
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
#: An offset further than this (mm) from its neighbours' with a weak match is
#: replaced by theirs; neighbours are boxes whose centres lie within
#: NEIGHBOUR_MM.
OFFSET_AGREEMENT_MM = 0.6
NEIGHBOUR_MM = 12.5
WEAK_MATCH = 0.75
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
#: ... but where the box's print was hardly seen at its own place (matched
#: below HIDDEN_PRINT_MATCH: a solid fill or a thick cross over it, which
#: the match then took for something else), that place says little, and a
#: cross where its neighbours put it stands. Over 1,000 independent photos
#: (seeds 1-7) this read 11 more crossed boxes right (solid fills, filled
#: penalty boxes: 3 more sheets exact), over 160 table photos 2 more sheets
#: exact, and no box wrong (1,650 photogen photos: the same); the only
#: sheet where it would have crossed empty boxes had 20 boxes found away
#: (see MAX_FOUND_AWAY).
#:
#: A sheet with more than MAX_FOUND_AWAY boxes found away from where their
#: neighbours put them, at least MIN_EMPTY_AWAY of them read empty at one
#: of the two places, is bent or seen so steeply that its boxes cannot be
#: placed: the neighbours' places are no better than the boxes' own, and
#: the verdicts read there are not to be trusted either, so every box of it
#: is doubtful (SHEET_TOO_FAR_OFF). An empty box shows its print, so one
#: found away says the geometry is off; boxes hatched solid hide theirs and
#: are found away in numbers on flat sheets too (up to 17 of a sheet in
#: benchmarks/unseen_marks_benchmark.py, at most 2 of them read empty).
#: Over 1,150 independent sheets (seeds 1-8) and 240 table sheets, 3 had
#: more than 8 boxes found away (20, 21, 29; 4, 5, 7 of them read empty;
#: 27, 12, 28 boxes doubtful and 5, 2, 9 read wrong: 16 of the 36 wrong
#: boxes), the next most 8; over 1,650 photogen sheets at most 5.
MAX_FOUND_AWAY = 8
MIN_EMPTY_AWAY = 3
#: A box goes astray when its print is first matched on the edge of its
#: search (the best match lies further off) and, in the end, weakly (below
#: ASTRAY_MATCH): it was not found near its place. A sheet with more than
#: MAX_ASTRAY such boxes lies further off its markers' fit than the search
#: reaches, in a part of it the whole-sheet correction did not catch (paper
#: bent 5-6 mm under a camera tilted 38-40 degrees: the left of a sheet was
#: read under its title), and every box of it is doubtful (SHEET_ASTRAY).
#: Only where the boxes' print matches at all (the sheet's median match
#: ASTRAY_SHEET_MATCH or more): on a pale print in a dim photo no box
#: matches (0.17 on a photogen table sheet read exactly), and where the
#: best of nothing lies says nothing. Over 2,849 single-sheet photos
#: (independent seeds 1-12, photogen seeds 4, 5, 7, 9, 11) 11 sheets had
#: 5 or more: none read exactly, 4 of them with 6-7 wrong boxes (20 of the
#: 28 wrong boxes of all those photos) that only 5-10 doubtful boxes sent
#: to review, the 5 matched below 0.3 doubted whole already (see
#: MAX_FOUND_AWAY); no sheet read exactly had more than 4, nor did any of
#: the independent generator's 537 table sheets.
ASTRAY_MATCH = 0.5
MAX_ASTRAY = 4
ASTRAY_SHEET_MATCH = 0.3
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
#: outward is all there is) and is doubtful. On steep photos of bent sheets
#: a row's first or last box can lie past the trim as the markers place it:
#: over 4,263 sheets, boxes found up to 6.7 mm past it (a quarter of the box
#: still inside) were all read right; of those found 9.6-19 mm past it (none
#: of the box inside), 3 were read wrong (empty) and 3 empty by chance, on
#: sheets sent to review for their neighbours.
MIN_SEEN_SHARE = 0.2
#: The note of a box not seen (see MIN_SEEN_SHARE).
UNSEEN = "not seen: found past the edge of the photographed sheet, bent or seen steeply there"
#: An empty box shows its print plainly: one read empty where its print
#: matched the blank sheet's below HIDDEN_PRINT_MATCH (normalised
#: correlation; see locate_boxes) may have been read in the wrong place, or
#: under something, and is doubtful. On the independent photos
#: (foreign_photos.py seeds 1-6, 850 photos) 7 of the 20 wrong boxes were
#: such empty boxes, matched at 0.05-0.31: rows of steep, bent sheets read
#: half a row off. Of the number and lock boxes rightly read empty on those
#: photos, on 1,650 photogen photos and on 120 table photos, those matched
#: below 0.32 all lay on sheets sent to review anyway; three on sheets read
#: exactly matched at 0.33-0.35 (a skip line through the number, a shadow's
#: edge across it). Penalty boxes are left out: a bare outline round blank
#: paper matches weakly in any photo (0.18-0.28 on sheets read exactly).
HIDDEN_PRINT_MATCH = 0.32
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
#: The field's terms u^i v^j, (i, j) in this order (see _field_basis).
_FIELD_TERMS = tuple((i, j) for i in range(FIELD_DEGREE + 1) for j in range(FIELD_DEGREE + 1 - i))
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
#: INK_DARKNESS (fraction of paper), inside the box less INTERIOR_INSET_MM.
INK_DARKNESS = 0.15
INTERIOR_INSET_MM = 0.6
#: Probability thresholds: crossed at or above CROSSED_P, empty at or below
#: EMPTY_P, uncertain between (chosen with ``train_box_classifier.py
#: calibrate`` on held-out generated photos: no wrong box on 6240, 5 between).
CROSSED_P = 0.9
EMPTY_P = 0.1
#: The physical check: read crossed with less ink than CROSSED_MIN_INK_MM2
#: (none to speak of), or read empty with more deep ink (darker than the
#: print by DEEP_INK_DARKNESS) than EMPTY_MAX_DEEP_INK_MM2, is doubtful.
#: On held-out photos 99.9 % of crossed boxes hold more than 0.65 mm^2 of
#: ink, and the network was never sure of a cross in an empty box (0 of
#: 45,000); faint pencil over coloured print, read crossed, held 0.08-0.28
#: mm^2 (the old limit of 0.3 sent 15 such crosses to review). Deep ink
#: tells a mark from shade: a hard shadow edge across an empty box darkens
#: most of it by 0.15 (up to 53 mm^2 of ink on the benchmark photos) but
#: hardly ever by 0.4 (at most 12 mm^2 of 45,000 empty boxes), while boxes
#: hatched solid in a way the networks had not seen, read empty, hold
#: 26-41 mm^2 of it (benchmarks/unseen_marks_benchmark.py).
DEEP_INK_DARKNESS = 0.4
EMPTY_MAX_DEEP_INK_MM2 = 18.0
CROSSED_MIN_INK_MM2 = 0.05
#: ... unless the networks are this sure of a cross: then it is the
#: ink count that failed (pale pencil over the print is not darker than the
#: print). Over 121,940 boxes of 2,350 benchmark photos (1,650 photogen, 700
#: independent), every box doubted for holding hardly any ink was crossed
#: (24 boxes), and all five networks were sure of a cross on one empty box
#: only, which held 7.2 mm^2 of ink (two big felt-pen dots).
UNANIMOUS_P = 0.9
#: ... where network ``a``, which learned from sheets printed exactly and
#: reads light pencil poorly, need only not be sure of an empty box (above
#: 1 - box_model.SURE, where it would veto anyway). Over 2,595 sheets (1,300
#: independent photos, 395 table sheets, 900 photogen photos) 62 boxes were
#: read crossed with hardly any ink, every one of them crossed; asking all
#: five left 23 doubtful, this 11 (a's 0.26-0.81 on the 12 it decided).
UNANIMOUS_EXCEPT = "a"
#: A sheet where some box is read crossed holding less than FAINT_MARK_MM2 of
#: ink was marked with a very faint pen (hard pencil, a pale print): the
#: network may miss a mark there, so a box reads empty only where every
#: deciding network gives it FAINT_EMPTY_P or less. On a benchmark photo
#: (faint pencil ticks on a pale print) two ticks were read empty at 0.023
#: and 0.048 next to a tick read crossed with 0.11 mm^2; over 1,000 sheets
#: of four photo sets this made at most one empty box per set doubtful. (A
#: tiny blue tick at the edge of an 8, 0.55 mm^2, got 0.004, 0.009 and
#: 0.000 from the three deciders: their median alone would have passed it.)
#: Not raised: at 0.015, 16 empty boxes of 4,263 sheets (independent seeds
#: 1-16 and their tables, photogen seeds 4-11) came out of doubt, none of
#: them crossed (+10 sheets exact; the one crossed box this rule caught
#: there got 0.025), but a box of light pencil hatching in
#: benchmarks/unseen_marks_benchmark.py, at 0.005-0.01, was read empty.
FAINT_MARK_MM2 = 0.5
FAINT_EMPTY_P = 0.005
#: A box read empty that holds TURN_CHECK_INK_MM2 of ink or more is shown to
#: the deciding network once more, turned half round; it learned mirrored
#: boxes as well, so a box it then reads crossed (at TURNED_CROSSED_P or
#: more) is doubtful. A pencil tick over the left of a printed 4 on a grey
#: print was read empty at 0.0004 and, turned, crossed at 0.999. Over 3,500
#: such boxes of three benchmark sets, no empty one read crossed turned.
TURN_CHECK_INK_MM2 = 1.0
TURNED_CROSSED_P = 0.5
#: The note of a box doubted for its mark (the networks unsure or at odds),
#: the only kind of doubt the player's own marks may settle (see own_marks).
DOUBTFUL_MARK = "doubtful mark"
#: The note of every box of a sheet too far off its fit (see MAX_FOUND_AWAY).
SHEET_TOO_FAR_OFF = ("many of the sheet's boxes lie away from where their neighbours put "
                     "them, as on bent paper or at a steep angle: no box of it can be trusted")
#: The note of every box of a sheet with boxes astray (see MAX_ASTRAY).
SHEET_ASTRAY = ("many of the sheet's boxes were not found near where its corner markers put "
                "them, as on bent paper or at a steep angle: no box of it can be trusted")
#: The note of an empty box whose print is hardly seen (see HIDDEN_PRINT_MATCH).
HIDDEN_PRINT = ("read empty, but its print is hardly seen there (read in the wrong place, "
                "or covered?)")
#: A box the networks are unsure of (between EMPTY_P and CROSSED_P) is shown
#: to them once more with the paper level taken from the light paper just
#: around it, and the light inside it not evened out. Shading a box in
#: lightly (pencil) darkens its whole inside alike, which the evening out
#: takes for shade and divides away: networks that look at the darkness
#: then see an almost empty box, while those that look at the strokes see a
#: fill, and the box is a toss-up. Read that way, a fill is darker than the
#: paper around it and the networks agree; a box they then read crossed
#: (the deciders' median at CROSSED_P, no two of them sure of opposite
#: verdicts) is crossed. Over 1,150 independent photos, 160 table photos
#: and 1,650 photogen photos this decided 31 doubtful boxes, all crossed
#: (most of them light pencil fills); read so, no empty box the networks
#: were unsure of came above 0.85.
LIT_FROM_AROUND = ("read crossed once the light inside it was taken as that of the paper "
                   "around it (shaded in)")
# Not done: reading a box still unsure in every turn (mirrored either way,
# turned half round) and taking it as crossed where the networks lean to a
# cross in all four. Over 2,737 sheets that took 13 crosses (light fills
# most) out of doubt and no empty box (each came to 0.5 or less in some
# turn), but it made one table sheet ``ok`` with a wrong score: beside its
# two unsure fills, a third fill with a die lying at its edge was read
# empty by all five networks (0.001-0.035). A sheet's doubtful fills are
# what sends such a sheet to review.

#: A box read empty that holds TURN_CHECK_INK_MM2 of ink or more is read lit
#: from around it too: a fill so even that the evening out took all of it
#: for shade reads empty with confidence (all five networks at 0.01-0.08 on
#: a pencil fill of an independent photo, foreign_photos.py seed 3, photo
#: 30), and lit from around as crossed (0.99): such a box is doubtful. Over
#: 2,737 sheets (1,300 independent photos, 537 table sheets, 900 photogen
#: photos) this doubted that box and no other.
LIT_CROSSED = ("read empty, but crossed once the light inside it was taken as that of the paper "
               "around it")
#: On a sheet where some box the networks were unsure of read crossed once
#: lit from around it (LIT_FROM_AROUND: a player who shades boxes in
#: lightly), every box read empty is read lit from around as well, and one
#: that then comes out a toss-up or more (LIGHT_FILL_LIT_P) is doubtful. On
#: a fresh independent photo (foreign_photos.py seed 13, photo 35) a pencil
#: fill lighter than the player's others, in a step box, read empty at
#: 0.002-0.005 from the deciders, 0.44 mm^2 of ink: too little for the
#: checks of empty boxes that hold ink; lit, one network saw the fill
#: (0.5); only other boxes on that sheet sent it to review. Over the 38
#: sheets of 4,263 (independent seeds 1-16 and their tables, photogen seeds
#: 4-11) with such crosses, this doubted that box and no other.
LIGHT_FILL_LIT_P = 0.5
LIT_LEANS = ("read empty, but this player shades boxes in lightly and, lit from the paper "
             "around it, it may be shaded too")
OWN_MARKS_REASON = ("like this player's crosses: as much ink, in their pen's colour, far more "
                    "than any empty box; the networks lean crossed")
#: Ink for its colour (ink_colours): photo darker than this share of the
#: paper, where the blank sheet is lighter than INK_COLOUR_PAPER (not print).
INK_COLOUR_BELOW = 0.8
INK_COLOUR_PAPER = 0.85


@dataclass(frozen=True)
class BoxVerdict:
    box_id: str
    state: str  # "crossed" | "empty" | "uncertain"
    confidence: float  # 0..1
    note: str  # why a box is uncertain, else ""
    #: For an uncertain box, the state the evidence points to ("crossed" or
    #: "empty"), "" for a toss-up; the rules may settle it (``settle``).
    lean: str = ""
    #: Where the box's print was found on the rectified sheet: its centre (x,
    #: y) in sheet mm. Curled paper or a loose fit move it off the layout's
    #: place; the overlay outlines the box where it was read.
    found_at_mm: tuple[float, float] | None = None
    #: Why a doubtful box was taken as crossed after all (see own_marks), else "".
    settled: str = ""


def read_marks(rectified: np.ndarray, sheet: Sheet, *, px_per_mm: float) -> dict[str, BoxVerdict]:
    """Read every box of ``sheet`` from its rectified image (BGR uint8).

    Returns a verdict per box id, in the order of ``sheet.boxes``.
    """
    _check_image(rectified, sheet, px_per_mm)
    ref = reader_reference(sheet, px_per_mm)
    located = located_box_inputs(rectified, sheet, ref)
    inputs, ink_mm2, centres_px = located.inputs, located.ink_mm2, located.centres_px
    found = [(round(float(x) / ref.px_per_mm, 2), round(float(y) / ref.px_per_mm, 2))
             for x, y in centres_px]
    classifier = box_classifier()
    crossed_p, median_p = classifier.crossed_probability_and_median(inputs)
    # Boxes found away from their neighbours: also read where they put them.
    second_p = np.full(len(crossed_p), np.nan)
    second_p[located.second_place] = classifier.crossed_probability(located.second_inputs)
    untrusted = _why_no_box_is_trusted(located, crossed_p, second_p)
    if untrusted is not None:
        return {box.id: BoxVerdict(box.id, "uncertain", 0.0, untrusted, found_at_mm=at)
                for box, at in zip(sheet.boxes, found)}
    # Boxes the networks are unsure of, and boxes read empty that hold some
    # ink: read once more lit from around them (one pass for both).
    unsure = (crossed_p > EMPTY_P) & (crossed_p < CROSSED_P)
    empty_with_ink = (crossed_p <= EMPTY_P) & (ink_mm2[:, 0] >= TURN_CHECK_INK_MM2)
    lit_p = np.full(len(crossed_p), np.nan)
    relit = np.flatnonzero(unsure | empty_with_ink)
    if len(relit):
        lit_p[relit] = classifier.crossed_probability(located.lit_from_around(relit))
    # A player who shades boxes in lightly: every box read empty is read lit too.
    light_fills = bool(np.any(unsure & _crossed_once_lit(lit_p, ink_mm2[:, 0])))
    if light_fills:
        rest = np.flatnonzero((crossed_p <= EMPTY_P) & np.isnan(lit_p))
        if len(rest):
            lit_p[rest] = classifier.crossed_probability(located.lit_from_around(rest))
    faint = bool(np.any((crossed_p >= CROSSED_P) & (ink_mm2[:, 0] < FAINT_MARK_MM2)))
    # Boxes read empty that hold some ink are looked at once more, turned.
    turned_p = np.zeros(len(crossed_p))
    check = np.flatnonzero(empty_with_ink)
    turned_p[check] = classifier.turned_probability(inputs[check])
    highest_p = crossed_p.copy()
    if faint:
        empty = np.flatnonzero(crossed_p <= EMPTY_P)
        highest_p[empty] = np.maximum(crossed_p[empty],
                                      classifier.highest_decider_probability(inputs[empty]))
    # Boxes read crossed that hold hardly any ink: are the networks sure?
    unanimous = np.zeros(len(crossed_p), bool)
    inkless = np.flatnonzero((crossed_p >= CROSSED_P) & (ink_mm2[:, 0] < CROSSED_MIN_INK_MM2))
    if len(inkless):
        unanimous[inkless] = sure_of_a_cross(classifier.each_probability(inputs[inkless]))
    verdicts = [replace(decide(box.id, float(p), float(ink), float(deep), faint_marks=faint,
                               turned_p=float(turned), highest_p=float(high),
                               second_place_p=None if np.isnan(second) else float(second),
                               unanimous=bool(sure), median_p=float(median),
                               print_match=float(match), kind=box.kind,
                               lit_p=None if np.isnan(lit) else float(lit),
                               light_fills=light_fills, seen=not unseen),
                        found_at_mm=at)
                for box, p, (ink, deep), turned, high, second, at, sure, match, median, lit, unseen
                in zip(sheet.boxes, crossed_p, ink_mm2, turned_p, highest_p, second_p, found,
                       unanimous, located.match, median_p, lit_p, located.unseen)]
    return {v.box_id: v for v in _settle_by_own_marks(verdicts, inputs, ink_mm2[:, 0],
                                                      classifier)}


def sure_of_a_cross(each: np.ndarray) -> np.ndarray:
    """Per box, whether the networks (``each``: networks x boxes, in
    box_model.MEMBERS order) are sure enough of a cross to outweigh the ink
    count: all at least UNANIMOUS_P, UNANIMOUS_EXCEPT only not sure of an
    empty box."""
    lenient = MEMBERS.index(UNANIMOUS_EXCEPT)
    return (np.delete(each, lenient, axis=0).min(axis=0) >= UNANIMOUS_P) \
        & (each[lenient] > 1 - SURE)


def _why_no_box_is_trusted(located: LocatedInputs, crossed_p: np.ndarray,
                           second_p: np.ndarray) -> str | None:
    """The note for every box of a sheet placed too poorly to trust any box of
    it, else None: so many boxes found away from their neighbours' places,
    empty ones among them (see MAX_FOUND_AWAY), or not found near their own
    (see MAX_ASTRAY and BENT_FIELD_MATCH)."""
    away = located.second_place
    empty = (crossed_p[away] <= EMPTY_P) | (second_p[away] <= EMPTY_P)
    if len(away) > MAX_FOUND_AWAY and np.count_nonzero(empty) >= MIN_EMPTY_AWAY:
        return SHEET_TOO_FAR_OFF
    if located.unplaced or (np.count_nonzero(located.astray) > MAX_ASTRAY
                            and np.median(located.match) >= ASTRAY_SHEET_MATCH):
        return SHEET_ASTRAY
    return None


def _settle_by_own_marks(verdicts: list[BoxVerdict], inputs: np.ndarray, ink_mm2: np.ndarray,
                         classifier) -> list[BoxVerdict]:
    """The verdicts with every box doubted for its mark that looks like this
    player's confident crosses taken as crossed (see :mod:`own_marks`)."""
    doubtful = np.array([v.state == "uncertain" and v.note == DOUBTFUL_MARK for v in verdicts])
    if not doubtful.any():
        return verdicts
    states = np.array([v.state for v in verdicts])
    vote = np.full(len(verdicts), np.nan)
    vote[doubtful] = np.median(classifier.each_probability(inputs[doubtful]), axis=0)
    # A box read empty where its print is hardly seen still shows what this
    # sheet's empty boxes hold: left out, its ink would no longer raise the
    # floor (a box of a sheet read half a row off was taken as crossed).
    empty = (states == "empty") | np.array([v.note == HIDDEN_PRINT for v in verdicts])
    like = like_own_crosses(states == "crossed", empty, doubtful, ink_mm2,
                            ink_colours(inputs), vote)
    if not like.any():
        return verdicts
    typical = float(np.median(ink_mm2[states == "crossed"]))
    return [replace(v, state="crossed", confidence=round(float(vote[i]), 3),
                    note=f"settled: {OWN_MARKS_REASON} ({ink_mm2[i]:.0f} mm^2 of ink, their "
                         f"crosses {typical:.0f})",
                    settled=OWN_MARKS_REASON)
            if like[i] else v for i, v in enumerate(verdicts)]


def ink_colours(inputs: np.ndarray) -> np.ndarray:
    """Each box's ink colour: the mean darkening (1 - photo, paper = 1) per
    BGR channel over the pixels inside the box that are darker than 0.8 of
    the paper where the blank sheet is light (n x 3; zeros where none)."""
    inner = slice(INPUT_PX // 6, INPUT_PX - INPUT_PX // 6)  # the box, not its surroundings
    photo = inputs[:, :3, inner, inner]
    ink = (photo.min(axis=1) < INK_COLOUR_BELOW) & (inputs[:, 3:6, inner, inner].min(axis=1)
                                                    > INK_COLOUR_PAPER)
    count = np.maximum(ink.sum(axis=(1, 2)), 1)[:, None]
    return ((1.0 - photo) * ink[:, None]).sum(axis=(2, 3)) / count


def decide(box_id: str, crossed_p: float, ink_mm2: float, deep_ink_mm2: float, *,
           faint_marks: bool = False, turned_p: float = 0.0,
           highest_p: float | None = None, second_place_p: float | None = None,
           unanimous: bool = False, print_match: float = 1.0,
           median_p: float | None = None, kind: str = "number",
           lit_p: float | None = None, light_fills: bool = False,
           seen: bool = True) -> BoxVerdict:
    """One box's verdict from the network's probability and the ink (mm^2,
    darker than the print by INK_DARKNESS) and deep ink (by DEEP_INK_DARKNESS)
    the box holds. ``faint_marks``: some cross on this sheet is very faint
    (see FAINT_MARK_MM2), so an empty verdict needs FAINT_EMPTY_P from
    ``highest_p``, the most doubtful deciding network's probability (default
    ``crossed_p``). ``turned_p``: the deciding networks' probability for the
    box turned half round (see TURN_CHECK_INK_MM2). ``second_place_p``: the
    probability where the box's neighbours put it, for a box found away from
    them (see SECOND_PLACE_MM). ``unanimous``: the networks are sure of a
    cross (see UNANIMOUS_P). ``print_match``: how well the box's print
    matched the blank sheet's where it was found (see HIDDEN_PRINT_MATCH and
    SECOND_PLACE_MM); ``kind``: the box's (a penalty box's bare outline
    matches weakly in any photo). ``median_p``: the deciding networks' own median, the side
    a toss-up (``crossed_p`` 0.5: two networks sure of opposite verdicts)
    leans to, for the rules to settle (see :mod:`qwixx_scan.settle`). ``lit_p``:
    the probability with the box lit from around it (see LIT_FROM_AROUND and
    LIT_CROSSED); ``light_fills``: the player shades boxes in lightly (see
    LIGHT_FILL_LIT_P). ``seen``: False for a box found past the image's edge
    (see MIN_SEEN_SHARE), which nothing else tells about."""
    if not seen:
        return BoxVerdict(box_id, "uncertain", 0.0, UNSEEN)
    if second_place_p is not None and print_match < HIDDEN_PRINT_MATCH \
            and second_place_p >= CROSSED_P:
        # Its print was hardly seen where the box was found (ink over it),
        # so that place says little; a cross where its neighbours put it
        # stands (see SECOND_PLACE_MM).
        crossed_p, second_place_p = second_place_p, None
    if second_place_p is not None and _band(second_place_p) != _band(crossed_p):
        return BoxVerdict(box_id, "uncertain", 0.3, "the box's print was found away from where "
                          "its neighbours put it, and the two places read differently")
    if crossed_p >= CROSSED_P:
        if ink_mm2 < CROSSED_MIN_INK_MM2 and not unanimous:
            return BoxVerdict(box_id, "uncertain", 0.3, "read crossed but holds hardly any ink",
                              lean="crossed")
        return BoxVerdict(box_id, "crossed", round(crossed_p, 3), "")
    if crossed_p <= EMPTY_P:
        if deep_ink_mm2 > EMPTY_MAX_DEEP_INK_MM2:
            return BoxVerdict(box_id, "uncertain", 0.3, "read empty but holds much ink",
                              lean="empty")
        if lit_p is not None and lit_p >= CROSSED_P and ink_mm2 >= TURN_CHECK_INK_MM2:
            return BoxVerdict(box_id, "uncertain", 0.3, LIT_CROSSED)
        if light_fills and lit_p is not None and lit_p >= LIGHT_FILL_LIT_P:
            return BoxVerdict(box_id, "uncertain", 0.3, LIT_LEANS)
        if turned_p >= TURNED_CROSSED_P:
            return BoxVerdict(box_id, "uncertain", 0.3, "read empty, but read crossed when "
                              "turned round")
        if print_match < HIDDEN_PRINT_MATCH and kind != "penalty":
            return BoxVerdict(box_id, "uncertain", 0.3, HIDDEN_PRINT)
        if faint_marks and max(crossed_p, highest_p or 0.0) > FAINT_EMPTY_P:
            return BoxVerdict(box_id, "uncertain", 0.3, "read empty, but this player's crosses "
                              "can be very faint", lean="empty")
        return BoxVerdict(box_id, "empty", round(1.0 - crossed_p, 3), "")
    if lit_p is not None and _crossed_once_lit(lit_p, ink_mm2):
        return BoxVerdict(box_id, "crossed", round(lit_p, 3), LIT_FROM_AROUND)
    # A toss-up (two networks sure of opposite verdicts) leans where the
    # deciding networks' median points, so that the rules may settle it: an
    # empty lock box that network ``a`` alone took for a cross, with its last
    # number empty, or a chain box whose partner is crossed. Over 1,000
    # independent photos, 1,650 photogen photos and 120 table photos this
    # made 9, 8 and 1 more sheets exact, and settled no box wrongly.
    toward = median_p if crossed_p == 0.5 and median_p is not None else crossed_p
    lean = "crossed" if toward > 0.5 else "empty" if toward < 0.5 else ""
    return BoxVerdict(box_id, "uncertain", round(max(crossed_p, 1.0 - crossed_p), 3) * 0.5,
                      DOUBTFUL_MARK, lean=lean)


def _crossed_once_lit(lit_p, ink_mm2):
    """Whether a box the networks are unsure of is crossed, read lit from
    around it (see LIT_FROM_AROUND); per box where given arrays."""
    return (lit_p >= CROSSED_P) & (ink_mm2 >= CROSSED_MIN_INK_MM2)


def _band(p: float) -> str:
    return "crossed" if p >= CROSSED_P else "empty" if p <= EMPTY_P else "between"


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
    :func:`bend_shifts`).
    """
    template_src = ref.gray_quarter
    quarter = cv2.resize(photo_gray_half, template_src.shape[::-1], interpolation=cv2.INTER_AREA)
    ppm = ref.px_per_mm / 4
    search = round(WIDE_SEARCH_MM * ppm)
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
        return hom, None
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
        if near.sum() < BEND_MIN_BOXES * n:
            return None
        coef, *_ = np.linalg.lstsq(basis[near], offsets[np.arange(n), nearest][near], rcond=None)
    if np.hypot(*(basis @ coef).T).max() < CORRECTION_MIN_MM:
        return None
    return lambda points_mm: (_bend_basis(points_mm, size_mm, axis) @ coef).astype(np.float32)


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
    those matched above ``min_match``), as the coefficients of
    :func:`_field_basis`'s terms (terms x 2), where it scales or shears some
    box by more than UNEVEN_SCALE (or ``any_scale``); None where the sheet
    is even enough (or too few boxes matched well to tell). See
    UNEVEN_SCALE."""
    centres = np.float32([b.rect.centre for b in boxes]) * np.float32(px_per_mm)
    basis = _field_basis(centres, size_px)
    use = scores > min_match
    for _ in range(3):
        if use.sum() < 2 * basis.shape[1]:
            return None
        coef, *_ = np.linalg.lstsq(basis[use], offsets[use].astype(np.float64), rcond=None)
        near = np.hypot(*(basis @ coef - offsets).T) < RANSAC_MM * px_per_mm
        if np.array_equal(near & use, use):
            break
        use &= near
    step = px_per_mm  # the field's slope over 2 mm
    slopes = [(_field_basis(centres + d, size_px) - _field_basis(centres - d, size_px)) @ coef
              / (2 * step) for d in (np.float32([step, 0]), np.float32([0, step]))]
    if not any_scale and max(np.abs(slope).max() for slope in slopes) <= UNEVEN_SCALE:
        return None
    return coef


def _field_basis(points: np.ndarray, size_px: tuple[int, int]) -> np.ndarray:
    """Monomials u^i v^j (i + j <= FIELD_DEGREE) of points' place on the sheet, u, v in -1..1."""
    u = points[:, 0].astype(np.float64) / size_px[0] * 2 - 1
    v = points[:, 1].astype(np.float64) / size_px[1] * 2 - 1
    return np.stack([u ** i * v ** j for i, j in _FIELD_TERMS], 1)


def _resample(image: np.ndarray, coef: np.ndarray) -> np.ndarray:
    """``image`` with each pixel (x, y) taken from (x, y) plus the field of
    ``coef`` (see :func:`_field_basis`) there."""
    height, width = image.shape[:2]
    u = np.arange(width, dtype=np.float32) / width * 2 - 1
    v = np.arange(height, dtype=np.float32) / height * 2 - 1
    maps = [np.arange(width, dtype=np.float32)[None, :].repeat(height, 0),
            np.arange(height, dtype=np.float32)[:, None].repeat(width, 1)]
    for axis in (0, 1):
        # sum over i of u^i times (sum over j of c_ij v^j): one outer product per power of u
        for i in range(FIELD_DEGREE + 1):
            column = sum(np.float32(coef[k, axis]) * v ** j
                         for k, (ii, j) in enumerate(_FIELD_TERMS) if ii == i)
            maps[axis] += np.outer(column, u ** i).astype(np.float32)
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
        _near[boxes] = (_box_distances(boxes) < NEIGHBOUR_MM) & ~np.eye(len(boxes), dtype=bool)
    return _near[boxes]

# --- 2. normalise: the network's input --------------------------------------

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
    windows: "_Windows"

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
    astray: np.ndarray
    unseen: np.ndarray
    unplaced: bool


def box_inputs(rectified: np.ndarray, sheet: Sheet,
               ref: BlankReference | ReaderReference) -> tuple[np.ndarray, np.ndarray]:
    """The network input of every box and the ink each box holds (see
    :func:`located_box_inputs`, which also says where each box was found)."""
    located = located_box_inputs(rectified, sheet, ref)
    return located.inputs, located.ink_mm2


def located_box_inputs(rectified: np.ndarray, sheet: Sheet,
                       ref: BlankReference | ReaderReference) -> LocatedInputs:
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
    ``second_inputs`` (their input taken there); ``match``: how well each
    box's print matched the blank sheet's where it was found (normalised
    correlation, see :func:`locate_boxes`); ``lit_from_around(indices)``:
    those boxes' input once more with the paper level taken just around
    each box and not evened out inside it (see LIT_FROM_AROUND); ``astray``:
    the boxes whose print was not found near their place (see MAX_ASTRAY);
    ``unseen``: the boxes found past the image's edge, hardly any of them
    inside (see MIN_SEEN_SHARE); ``unplaced``: the sheet was evened out along
    the boxes found to find the rest, and still some went astray (see
    BENT_FIELD_MATCH).
    """
    ref = _as_reader(ref, sheet)
    p = ref.px_per_mm
    width, height = ref.size_px
    rectified = rectified[:height, :width]
    if rectified.shape[:2] != (height, width):
        rectified = cv2.copyMakeBorder(rectified, 0, height - rectified.shape[0], 0,
                                       width - rectified.shape[1], cv2.BORDER_REPLICATE)
    boxes = sheet.boxes
    correction, start = global_correction(_gray_half(rectified, ref), ref, boxes)
    if correction is not None:
        rectified = cv2.warpPerspective(rectified, correction, (width, height),
                                        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                        borderMode=cv2.BORDER_REPLICATE)
    offsets, scores, astray = locate_boxes(_gray_half(rectified, ref), ref, boxes, start=start)
    offsets = regularise_offsets(offsets, scores, boxes, p)
    field = even_field(offsets, scores, boxes, p, (width, height))
    bent_far = False  # evened out along the boxes found, to find those astray
    if field is None and np.count_nonzero(astray) > MAX_ASTRAY \
            and np.median(scores) >= ASTRAY_SHEET_MATCH:  # (where they count: see MAX_ASTRAY)
        field = even_field(offsets, np.where(astray, 0.0, scores), boxes, p, (width, height),
                           min_match=BENT_FIELD_MATCH, any_scale=True)
        bent_far = field is not None
    if field is not None:
        rectified = _resample(rectified, field)
        offsets, scores, astray = locate_boxes(_gray_half(rectified, ref), ref, boxes)
        offsets = regularise_offsets(offsets, scores, boxes, p)
    # (in a dim, noisy photo no box may match well: then all neighbours count)
    expected, _ = neighbour_offsets(offsets, scores, boxes, weak_too=True)
    apart = np.hypot(*(offsets - expected).T)
    second_place = np.flatnonzero(apart > SECOND_PLACE_MM * p)  # NaN compares False
    centres_px = np.float32([b.rect.centre for b in boxes]) * np.float32(p) + offsets
    if field is not None:
        centres_px = centres_px + (_field_basis(centres_px, (width, height)) @ field
                                   ).astype(np.float32)
    if correction is not None:
        # the corrected image's pixel (x, y) came from the rectified image at H (x, y)
        centres_px = cv2.perspectiveTransform(centres_px[None], correction)[0]
    # how far each box lies past the image's edges (px, per side), and how much of it is inside
    size = np.float32([(b.rect.w, b.rect.h) for b in boxes]) * np.float32(p)
    past = np.maximum(np.maximum(size / 2 - centres_px, 0),
                      np.maximum(centres_px + size / 2 - np.float32([width, height]), 0))
    unseen = np.prod(np.clip(1 - past / size, 0, 1), axis=1) < MIN_SEEN_SHARE
    unplaced = bent_far and bool(astray.any())
    # A border so that every shifted window lies inside the image.
    pad = round((REACH_MM + SEARCH_MM + 0.5) * p + np.abs(offsets).max(initial=0.0))
    padded = cv2.copyMakeBorder(rectified, pad, pad, pad, pad, cv2.BORDER_REPLICATE)

    plans, windows = ref.plans, ref.windows
    photos, levels, cells, outside = _raw_windows(padded, pad, plans, windows, offsets)
    levels, covered = _covered_boxes(_box_levels(levels), boxes)
    inputs = np.empty((len(plans), INPUT_CHANNELS, INPUT_PX, INPUT_PX), np.float32)
    ink_mm2 = np.empty((len(plans), 2), np.float32)
    for k, plan in enumerate(plans):
        inputs[k], ink_mm2[k] = _box_input(plan, photos[k], levels[k], cells[k], covered[k], p)
    second_inputs = np.empty((len(second_place), INPUT_CHANNELS, INPUT_PX, INPUT_PX),
                             np.float32)
    if len(second_place):
        there = [plans[k] for k in second_place]
        there_photos, _, there_cells, _ = _raw_windows(padded, pad, there, _windows(there),
                                                       expected[second_place])
        for j, k in enumerate(second_place):
            second_inputs[j], _ = _box_input(plans[k], there_photos[j], levels[k],
                                             there_cells[j], covered[k], p)

    def lit_from_around(indices: np.ndarray) -> np.ndarray:
        out = np.empty((len(indices), INPUT_CHANNELS, INPUT_PX, INPUT_PX), np.float32)
        for j, k in enumerate(indices):
            level = np.where(np.isnan(outside[k]), levels[k], outside[k]).astype(np.float32)
            # as if covered: the light inside is not evened out
            out[j], _ = _box_input(plans[k], photos[k], level, cells[k], True, p)
        return out

    return LocatedInputs(inputs, ink_mm2, centres_px, second_place, second_inputs, scores,
                         lit_from_around, astray, unseen, unplaced)


def _gray_half(image: np.ndarray, ref: ReaderReference) -> np.ndarray:
    """The rectified sheet in grey at the blank's half resolution (float32), for locating boxes."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.resize(gray, ref.gray_half.shape[::-1],
                      interpolation=cv2.INTER_AREA).astype(np.float32)


def _box_input(plan: _BoxPlan, photo: np.ndarray, level: np.ndarray, cells: np.ndarray,
               covered: bool, p: float) -> tuple[np.ndarray, np.ndarray]:
    """One box's network input from its raw window (see :func:`_raw_windows`),
    and its ink and deep ink (mm^2). ``covered``: the box is covered with
    ink (see :func:`_covered_boxes`), its light cells measured on ink."""
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
    small = cv2.resize(np.minimum(photo, 1.5), (INPUT_PX, INPUT_PX), interpolation=cv2.INTER_AREA)
    out = np.empty((INPUT_CHANNELS, INPUT_PX, INPUT_PX), np.float32)
    out[:3] = small.transpose(2, 0, 1)
    out[3:] = plan.blank_input
    return out, np.float32(ink)


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
    ordered = np.sort(offset + values.astype(np.float64), axis=0)
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


def _nan_median(a: np.ndarray, axis: int) -> np.ndarray:
    """Median of the non-NaN values along ``axis`` (NaN where there are none);
    np.nanmedian is slow on such tiny arrays."""
    ordered = np.sort(a, axis=axis)  # NaN sorts last
    k = np.count_nonzero(~np.isnan(a), axis=axis, keepdims=True)
    lo = np.take_along_axis(ordered, np.maximum(k - 1, 0) // 2, axis=axis)
    hi = np.take_along_axis(ordered, np.minimum(k // 2, a.shape[axis] - 1), axis=axis)
    return np.where(k > 0, (lo + hi) / 2, np.nan).squeeze(axis)


def _box_levels(levels: np.ndarray) -> np.ndarray:
    """Paper levels per box (n x 3); a box without light pixels takes the median."""
    fallback = np.nanmedian(levels, axis=0)
    fallback = np.where(np.isnan(fallback), 255.0, fallback)
    return np.where(np.isnan(levels), fallback[None, :], levels)


_distances: dict[tuple[Box, ...], np.ndarray] = {}


def _box_distances(boxes: tuple[Box, ...]) -> np.ndarray:
    """The distances (mm) between the boxes' centres, n x n, computed once per sheet."""
    if boxes not in _distances:
        centres = np.array([b.rect.centre for b in boxes], np.float32)
        _distances[boxes] = np.hypot(*(centres[:, None, :] - centres[None, :, :])
                                     .transpose(2, 0, 1))
    return _distances[boxes]


_neighbour_tables: dict[tuple[Box, ...], tuple[np.ndarray, np.ndarray]] = {}


def _neighbour_table(boxes: tuple[Box, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Per box, the indices of the other boxes within LEVEL_NEIGHBOUR_MM (rows
    padded with the box's own index) and how many there are; once per sheet."""
    if boxes not in _neighbour_tables:
        dist = _box_distances(boxes)
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
