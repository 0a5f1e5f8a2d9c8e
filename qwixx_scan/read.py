"""Decide for every box of a rectified sheet: crossed, empty or uncertain.

How:

1. Locate: every box's print is found on the sheet, which the corner
   markers place only roughly (bent paper, a hidden marker, curl): see
   :mod:`qwixx_scan.locate`.
2. Normalise: the photo's window around each box is divided by the paper
   level measured there, so shade and exposure drop out, and put next to
   the same window of the blank sheet as the networks' input; the ink the
   box holds is counted too: see :mod:`qwixx_scan.box_inputs`.
3. Decide: a small convolutional network (``box_model``, trained on
   generated photos by training/train_box_classifier.py) looks at each
   box's normalised window next to the same window of the blank sheet and
   gives the probability that a player crossed it. Learned from many
   thousands of marks, it separates crosses from skip lines, dots,
   overshoot and print far better than hand-set shape thresholds did.
   Between two probability thresholds, or when the network disagrees with
   the plain amount of ink in the box (much deep ink read empty, hardly any ink
   read crossed unless the networks are all but unanimous: something it
   has not seen), the box is uncertain and the sheet goes to review
   (:mod:`qwixx_scan.verdict`). A box they are unsure of is first read once
   more with the paper level taken just around it and the light inside not
   evened out: a light fill is then darker than the paper, not shade. A
   light pencil mark still doubtful is looked at closer
   (:mod:`qwixx_scan.closer_look`); a box read empty where a lamp's
   reflection or too bright a photo washes it out is doubtful
   (:mod:`qwixx_scan.glare`).
4. Compare with the player's own marks on the same sheet: a box doubted
   for its mark that looks like their confident crosses (ink, its colour,
   the networks' lean) is taken as crossed (``own_marks``), and reported
   as settled; a box read crossed with far less ink than their crosses
   that a network doubts mirrored, read crossed only narrowly with almost
   none of their dark pen's deep ink, or read crossed only once lit and far
   darker than their crosses, is doubtful (:mod:`qwixx_scan.their_crosses`).
   A box whose mark is a thin flat line through its number is a skipped
   number (``skip_lines``).
5. A long straight line running on through box after box is a fold in the
   paper: the boxes it runs through are read again without it, and a
   verdict that reading does not bear out is doubtful; a box the networks
   split over is settled by it where it is sure (:mod:`qwixx_scan.folds`).

Coordinates: ``rectified`` pixel (x, y) is sheet mm (x / px_per_mm,
y / px_per_mm), x right, y down, top-left trim corner at (0, 0).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

import numpy as np

from qwixx_print.layout import Sheet

from .box_inputs import (PHOTO_CAP, LocatedInputs, Surroundings, located_box_inputs,
                         reader_reference)
from .box_model import MIRRORED_VIEWS, box_classifier, rim_look
from .closer_look import (CLOSE_HATCHING_COVER, CloseViews, broken_chains_doubted,
                          chain_rings_doubted, seen_close)
from .folds import folds_doubted, window_frames
from .glare import overexposed_boxes, washed_out_boxes
from .grey_ink import crossed_in_grey
from .locate import ASTRAY_SHEET_MATCH, MAX_ASTRAY
from .light_hatching import light_hatching_doubted
from .lone_strokes import lone_strokes
from .own_marks import INNER, INNER_PX
from .own_marks import LEAN as OWN_LEAN
from .own_marks import (circles, darkened_pixels, hatches, ink_colours, like_own_crosses,
                        paper_window, placed_like_crosses)
from .pen_toss_ups import penless_toss_ups
from .rim_lines import rim_lines_doubted
from .skip_lines import ink_spreads_both_ways, lone_lines, paper_grain, struck_through
from .spills import neighbour_table, spilt_over
from .their_crosses import (NARROW_SHADE_SHARE, PEN_DEEP_INK_MM2, doubt_dark_lit_crosses,
                            doubt_lit_lines, doubt_pens_lit_crosses, light_crosses_doubted,
                            light_lines_of_an_x_striker,
                            narrow_crosses_doubted_mirrored, narrow_crosses_without_deep_ink,
                            read_crossed, skip_like_crosses, skip_like_marks,
                            skip_lines_may_be_steeper, strikes_skipped_numbers,
                            struck_like_their_lines, without_their_deep_ink, writes_with_a_pen)
from .verdict import (CROSSED_MIN_INK_MM2, CROSSED_P, DOUBTFUL_MARK, EMPTY_P, FAINT_TRACE_P,
                      HARDLY_ANY_INK, HIDDEN_PRINT, HIDDEN_PRINT_MATCH, TURN_CHECK_INK_MM2,
                      BoxEvidence, BoxVerdict, crossed_once_lit, decide,
                      doubt_empties_of_a_doubtful_sheet, faint_crosses, sure_of_a_cross,
                      taken_as_crossed, too_doubtful)

#: A box found away from where its neighbours put it is read at both places
#: (see box_inputs.SECOND_PLACE_MM), but where its print was hardly seen at
#: its own place (matched below verdict.HIDDEN_PRINT_MATCH: a solid fill or a thick
#: cross over it, which the match then took for something else), that place
#: says little, and a cross where its neighbours put it stands. Over 1,000
#: independent photos (seeds 1-7) this read 11 more crossed boxes right
#: (solid fills, filled penalty boxes: 3 more sheets exact), over 160 table
#: photos 2 more sheets exact, and no box wrong (1,650 photogen photos: the
#: same); the only sheet where it would have crossed empty boxes had 20
#: boxes found away (see MAX_FOUND_AWAY).
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
#: Boxes whose print lies under a player's ink (see HIDDEN_PRINT_INK_MM2)
#: are not counted, where the other boxes are found well: their print is
#: matched nowhere, so neither they nor the empty boxes beside them, placed
#: by their offsets, say anything of the sheet's shape. The unseen-marks
#: benchmark's fill sheet of seed 7060018 (a flat sheet, 41 boxes filled
#: black) had 24 boxes found away, 20 of them filled and four empty ones
#: whose print was found well (0.73-0.88) away from where their filled
#: neighbours put them: all 52 boxes were doubted. Over the 147
#: independent sets at hand in stop 84, three sheets of players filling or
#: circling with a thick pen in steep, bent photos (hard seed 300 photo 16,
#: hard seed 306 photo 124, seed 347 photo 20: 29-38 degrees, 6-7 mm
#: bends) were doubted whole so; counted without their filled boxes they
#: keep 1-4 doubts and read no box wrong. (Since box_inputs.OWN_PRINT_SEEN,
#: empty boxes found well among filled ones are no longer found away, which
#: alone clears that benchmark sheet and two of the three; hard seed 306
#: photo 124 is still doubted whole unless its filled boxes are left out
#: here.)
MAX_FOUND_AWAY = 8
MIN_EMPTY_AWAY = 3
#: A box whose paper is darkened (own_marks.darkened_pixels) over
#: PENCIL_ASK_DARK_PX pixels or more is never read empty on the first
#: networks' word alone either: the pencil network (box_model.PENCIL_LEAN)
#: is asked too, as for a box holding verdict.TURN_CHECK_INK_MM2 of ink. Ink is
#: counted against the darkest print nearby, so a light pencil check lying
#: over a two-digit number holds hardly any (independent table 48, photo 30:
#: 0.08 mm^2 on a yellow 10, 10 pixels darkened): ``e``, ``b`` and ``c``
#: read it empty (0.001-0.025), ``d`` was not asked and gives 0.975, and the
#: sheet came out ``ok`` with a wrong score. Over the 5,581 sheets of the
#: independent sets at hand: that box doubted, and two more (a dot between
#: the digits of a 12, a faint pencil line through a skipped 12); no other
#: sheet read differently. About 3 % of all boxes are shown to ``d`` so.
PENCIL_ASK_DARK_PX = 5
#: The note of every box of a sheet too far off its fit (see MAX_FOUND_AWAY).
SHEET_TOO_FAR_OFF = ("many of the sheet's boxes lie away from where their neighbours put "
                     "them, as on bent paper or at a steep angle: no box of it can be trusted")
#: The note of every box of a sheet with boxes astray (see locate.MAX_ASTRAY).
#: Where the print matches poorly everywhere (median below
#: locate.ASTRAY_SHEET_MATCH) boxes astray say nothing on a sheet all four
#: markers placed: the print is pale, and the markers' frame holds (a
#: photogen table sheet, 18 astray, read exactly). Where a marker was hidden,
#: its corner is only extrapolated from the other three, and there poor
#: matches and boxes astray are the frame's fault: a steep, bent sheet
#: (independent seed 18, photo 7: tilted 37 degrees, bent 5.6 mm, a marker
#: under a thumb; median match 0.28, 19 boxes astray) was read with rows half
#: a box off, 15 boxes wrong. Over 4,492 sheets of every benchmark set, 7
#: matched below 0.3: the pale one, that one, and five doubted whole already.
SHEET_ASTRAY = ("many of the sheet's boxes were not found near where its corner markers put "
                "them, as on bent paper or at a steep angle: no box of it can be trusted")
#: A box scribbled over edge to edge, or circled with a thick pen, hides its
#: print, which the box search then matches nowhere (-0.2 to 0.25): such a
#: box goes astray however well the sheet lies. Boxes read crossed with this
#: much ink (mm^2) are left out of the boxes astray (SHEET_ASTRAY) where the
#: sheet's other boxes are found well (their median match
#: VISIBLE_PRINT_MATCH or more). Over the 9,059 sheets read of every benchmark set
#: (independent seeds 1-34 and tables 1-21, photogen seeds 4-11), 22 were
#: doubted whole for their placement: 16 of them, filled in or circled,
#: only for boxes astray under 17-43 mm^2 of ink, all read crossed, the
#: other boxes matching 0.77-0.98; those 16 are now read exactly. The 5
#: lying truly off keep 9-24 boxes astray with less ink, their other boxes
#: matching 0.20-0.50 (and one sheet evened out keeps a circled box with
#: 13 mm^2 astray).
#:
#: A box under that much ink need not be read crossed for sure: one the
#: networks only lean toward crossed (above HIDDEN_PRINT_P; a toss-up, 0.5,
#: does not lean) hides its print just as well. Hard table 255 photo 16's
#: Kettingen D, a black pen filling boxes with zigzags, evened out, had six
#: filled boxes astray read crossed and a seventh (30.6 mm^2) read 0.755,
#: and the whole sheet was doubted for that one; the unseen-marks
#: benchmark's fill sheet of seed 7060010 likewise for a box of 54 mm^2 read
#: 0.8996. A sheet truly off still shows it in boxes astray with little ink
#: (a steep, bent sheet with a hidden marker, seed 263 photo 56: four
#: under 11 mm^2) and in toss-ups.
HIDDEN_PRINT_INK_MM2 = 15.0
HIDDEN_PRINT_P = 0.5
VISIBLE_PRINT_MATCH = 0.6
#: A player whose crosses leave no pen's deep ink (pencil, see
#: their_crosses.writes_with_a_pen) draws strokes the networks see faintly: at their 3.5
#: px per mm a light pencil line is a pixel of mid grey. A box of such a
#: player doubted for its mark (verdict.DOUBTFUL_MARK) or read crossed with hardly
#: any ink (verdict.HARDLY_ANY_INK) is looked at once more with its photo darkened
#: (each photo channel, paper = 1, raised to the powers DARKER_LOOKS: paper
#: stays paper, a stroke at 0.8 of it falls to 0.75 and 0.72; the networks
#: learned such tone curves, see training's ``augment``), and taken as
#: crossed (DARKER_CROSSED) where every such look reads it crossed
#: (verdict.CROSSED_P), on a sheet with fewer than verdict.MANY_DOUBTFUL doubtful boxes.
#: Over the 39 independent sets at hand and photogen's 300 (5,995 sheets)
#: that took 31 doubtful boxes as crossed, every one a cross (15 sheets
#: more read exactly), and on two sets made after choosing (independent
#: seed 109, hard seed 110) 5 more, all crosses. Of the boxes doubted for
#: their mark on pen sheets it would have taken 4 crosses and 1 dot of 136.
#: A box read crossed only narrowly and doubted mirrored (verdict.NARROW_MIRRORED)
#: is not looked at so: one such, a faint, grainy pencil line through a
#: skipped blue 6 (independent hard table 67), reads crossed darkened too
#: (looked at closer, it is not: see closer_look.CLOSE_LOOK). Nor a box whose
#: mark would look like a line through a skipped number were it read
#: crossed, as the close look asks (see their_crosses.SPARSE_LINE_PX).
DARKER_LOOKS = (1.3, 1.5)
DARKER_CROSSED = "read crossed once its light strokes were darkened (light pencil)"
#: ... and only where the player's crosses (their_crosses.read_crossed) leave under
#: DARKENED_DEEP_INK_MM2 of deep ink in the middle: between that and
#: their_crosses.PEN_DEEP_INK_MM2 the player may well write with a pen that a dim,
#: blurred photo greys. Hard table 235, photo 22 (a black felt pen's
#: checks, 0.94 mm^2 of deep ink in the middle, blur 2 px, JPEG quality 48,
#: a curled sheet): a blurred yellow 4 with a speck beside it (0.88, no
#: deep ink) read crossed darkened, the sheet ``ok`` with a wrong score.
#: Of the 102 boxes taken so over the 56 independent sets at hand (5,320
#: photos), one other lay on a sheet at 0.5 or more (a right green-pen
#: cross at 0.69: doubtful now); every other one on sheets under 0.45.
#: Nor does the close look take a box as crossed on such a sheet
#: (closer_look.CLOSE_CROSSED: it took that 4 next); the 57 it took over those sets lay
#: on sheets under 0.2.
DARKENED_DEEP_INK_MM2 = 0.5
# Not done: reading a box still unsure in every turn (mirrored either way,
# turned half round) and taking it as crossed where the networks lean to a
# cross in all four. Over 2,737 sheets that took 13 crosses (light fills
# most) out of doubt and no empty box (each came to 0.5 or less in some
# turn), but it made one table sheet ``ok`` with a wrong score: beside its
# two unsure fills, a third fill with a die lying at its edge was read
# empty by all five networks (0.001-0.035). A sheet's doubtful fills are
# what sends such a sheet to review.

OWN_MARKS_REASON = ("like this player's crosses: as much ink, in their pen's colour, far more "
                    "than any empty box; the networks lean crossed")
#: The same where the networks lean empty (see own_marks.COVER_MARGIN).
OWN_HATCHING_REASON = ("like this player's crosses: as much ink, in their pen's colour, far more "
                       "than any empty box, over as much of the box as their hatching")
#: A pen's cross leaves its dark ink (see their_crosses.PEN_DEEP_INK_MM2): on the sheet of
#: a player who writes with one, a doubtful box is taken as like their
#: crosses only where it holds OWN_PEN_DEEP_SHARE of the dark ink of their
#: middle cross or more. Hard independent table 143, photo 28 (dark, grainy
#: colour noise, a sheet bent 5 mm): an empty blue 7 between two bold black
#: X's, a toss-up among the networks, held as much ink as the X's in the
#: noise (22 mm^2 against their 26) but a tenth of their dark ink (1.3 mm^2
#: against 12.4); taken as crossed, the sheet came out ``ok`` with a wrong
#: score. Of the 151 boxes taken so over the 84 independent sets at hand
#: (12,213 sheets), 22 were pen players'; the right ones held 0.45 of the
#: middle cross's dark ink or more. Not where the light washes the box out
#: (glare.WASHED_OUT): a lamp's glare takes the dark ink with the print, and
#: under it (``scan_benchmark.py --spoil glare``, seeds 9 and 70) two right
#: black crosses the networks were unsure of held none of it.
OWN_PEN_DEEP_SHARE = 0.25


def read_marks(rectified: np.ndarray, sheet: Sheet, *, px_per_mm: float,
               all_markers: bool = True,
               surroundings: Surroundings | None = None) -> dict[str, BoxVerdict]:
    """Read every box of ``sheet`` from its rectified image (BGR uint8).

    ``all_markers``: the sheet was rectified by all four corner markers;
    False where one was hidden and its corner extrapolated from the other
    three (see SHEET_ASTRAY). ``surroundings``: the sheet rectified with a
    margin around it, for boxes found past its edge (see
    box_inputs.SURROUND_MM). Returns a verdict per box id, in the order of
    ``sheet.boxes``.
    """
    _check_image(rectified, sheet, px_per_mm)
    ref = reader_reference(sheet, px_per_mm)
    located = located_box_inputs(rectified, sheet, ref, surroundings)
    inputs, ink_mm2, centres_px = located.inputs, located.ink_mm2, located.centres_px
    # Where each box is shown (the overlay's outline): where it was found,
    # but a box whose print was hardly seen there (a fill over it, matched
    # somewhere under the ink) and that its neighbours put elsewhere lies
    # where they put it.
    shown_px = centres_px.copy()
    hidden = located.match[located.second_place] < HIDDEN_PRINT_MATCH
    shown_px[located.second_place[hidden]] = located.second_centres_px[hidden]
    found = [(round(float(x) / ref.px_per_mm, 2), round(float(y) / ref.px_per_mm, 2))
             for x, y in shown_px]
    classifier = box_classifier()
    inked = ink_mm2[:, 0] >= TURN_CHECK_INK_MM2
    paper_around = paper_window(inputs)  # per box, which pixels of its window are paper
    paper = paper_around[:, INNER, INNER]  # (own_marks.paper_pixels)
    darkened = darkened_pixels(inputs, paper)  # and how many of them a mark darkens
    reading = classifier.crossed_reading(inputs,
                                         inked=inked | (darkened >= PENCIL_ASK_DARK_PX))
    crossed_p, median_p = reading.p, reading.median
    # Boxes found away from their neighbours: also read where they put them.
    second_p = np.full(len(crossed_p), np.nan)
    second_p[located.second_place] = classifier.crossed_probability(located.second_inputs)
    outlines = np.array([box.kind == "penalty" for box in sheet.boxes])  # penalty boxes
    untrusted = _why_no_box_is_trusted(located, crossed_p, second_p, all_markers, outlines)
    if untrusted is not None:
        return {box.id: BoxVerdict(box.id, "uncertain", 0.0, untrusted, found_at_mm=at)
                for box, at in zip(sheet.boxes, found)}
    # Boxes the networks are unsure of, and boxes read empty that hold some
    # ink: read once more lit from around them (one pass for both). Not a
    # box a mirrored view doubted: lit, it would be looked at as it is
    # only, where the networks missed what those views saw (see
    # verdict.BoxEvidence.mirrored_doubt).
    unsure = (crossed_p > EMPTY_P) & (crossed_p < CROSSED_P) & ~reading.mirrored_doubt
    empty_with_ink = (crossed_p <= EMPTY_P) & inked
    lit_p = np.full(len(crossed_p), np.nan)
    relit = np.flatnonzero(unsure | empty_with_ink)
    if len(relit):
        lit_p[relit] = classifier.crossed_probability(located.lit_from_around(relit))
    # A player who shades boxes in lightly: every box read empty is read lit too.
    light_fills = bool(np.any(unsure & crossed_once_lit(lit_p, ink_mm2[:, 0])))
    if light_fills:
        rest = np.flatnonzero((crossed_p <= EMPTY_P) & np.isnan(lit_p))
        if len(rest):
            lit_p[rest] = classifier.crossed_probability(located.lit_from_around(rest))
    grain = paper_grain(inputs, crossed_p <= EMPTY_P, paper)  # for lines through skipped numbers
    faint = faint_crosses(crossed_p, ink_mm2[:, 0], ink_mm2[:, 1], darkened, inputs, grain)
    # Boxes read empty that hold some ink are looked at once more, turned.
    turned_p = np.zeros(len(crossed_p))
    check = np.flatnonzero(empty_with_ink)
    turned_p[check] = classifier.turned_probability(inputs[check])
    highest_p, highest_view_p = crossed_p.copy(), np.full(len(crossed_p), np.nan)
    if faint:
        empty = np.flatnonzero(crossed_p <= EMPTY_P)
        highest_p[empty] = np.maximum(crossed_p[empty],
                                      classifier.highest_decider_probability(inputs[empty]))
        # Mirrored, see verdict.FAINT_VIEW_P (the view as it is was just asked above:
        # over verdict.FAINT_VIEW_P there, highest_p already doubts the box).
        trace = empty[highest_p[empty] > FAINT_TRACE_P]
        highest_view_p[trace] = classifier.decider_views(
            inputs[trace], views=MIRRORED_VIEWS[1:]).max(axis=(0, 1))
    boxed = ~outlines  # number and lock boxes
    theirs = read_crossed(crossed_p)
    pen = writes_with_a_pen(theirs, ink_mm2[:, 1])
    # a player whose crosses hold far less deep ink than a pen's (DARKENED_DEEP_INK_MM2)
    no_pen_ink = not writes_with_a_pen(theirs, ink_mm2[:, 1], DARKENED_DEEP_INK_MM2)
    washed, washed_out = washed_out_boxes(located, crossed_p, boxed, outlines, classifier,
                                          pen=pen, told=theirs is not None)
    overexposed = overexposed_boxes(rectified, sheet, ref, centres_px, inputs, crossed_p, pen,
                                    boxed)
    # Boxes read crossed that hold hardly any ink: are the networks sure?
    unanimous = np.zeros(len(crossed_p), bool)
    inkless = np.flatnonzero((crossed_p >= CROSSED_P) & (ink_mm2[:, 0] < CROSSED_MIN_INK_MM2))
    if len(inkless):
        unanimous[inkless] = sure_of_a_cross(classifier.each_probability(inputs[inkless]))
    paper_px = np.count_nonzero(paper, axis=(1, 2))
    pen_hatcher = pen and hatches(theirs, darkened, paper_px)
    light_doubted = light_crosses_doubted(inputs, theirs, ink_mm2, pen, washed, classifier,
                                          crossed_p, pen_hatcher=pen_hatcher)
    no_deep_ink = narrow_crosses_without_deep_ink(theirs, crossed_p, ink_mm2[:, 1], washed)
    # (a pen's narrow cross dark without its deep ink: see their_crosses.NARROW_SHADE_SHARE)
    shaded = (without_their_deep_ink(ink_mm2[:, 1], theirs, washed, share=NARROW_SHADE_SHARE)
              if pen else None)
    narrow_doubted = narrow_crosses_doubted_mirrored(inputs, crossed_p, classifier,
                                                     shaded=shaded)
    numbered = np.array([box.kind == "number" for box in sheet.boxes])
    # the lone lines of the player's crosses, which the skip-line rules compare
    # with (a few ms a sheet: worked out once)
    their_lines = None if theirs is None else lone_lines(inputs[theirs], grain=grain)
    circling = theirs is not None and circles(theirs & numbered, inputs, paper)
    skip_like = (skip_like_crosses(inputs, theirs, ink_mm2[:, 0], numbered, crossed_p,
                                   grain=grain, their_lines=their_lines)
                 | light_lines_of_an_x_striker(inputs, theirs, ink_mm2[:, 0], numbered, crossed_p,
                                               darkened, paper_px, washed, circling=circling,
                                               grain=grain))
    spilt = spilt_over(inputs, theirs, ink_mm2[:, 0], neighbour_table(sheet.boxes), washed)
    strokes = lone_strokes(inputs, theirs, (crossed_p <= EMPTY_P) & boxed, ink_mm2[:, 0],
                           ink_mm2[:, 1], classifier, grain=grain)
    per_box = dict(crossed_p=crossed_p, ink_mm2=ink_mm2[:, 0], deep_ink_mm2=ink_mm2[:, 1],
                   highest_p=highest_p, highest_view_p=_measured(highest_view_p),
                   turned_p=turned_p, second_place_p=_measured(second_p),
                   print_match=located.match, unanimous=unanimous, median_p=median_p,
                   lit_p=_measured(lit_p), seen=~located.unseen, washed_out=washed_out,
                   overexposed=overexposed, light_doubted=light_doubted,
                   no_deep_ink=no_deep_ink, narrow_doubted=narrow_doubted, skip_like=skip_like,
                   spilt=spilt, lone_stroke=strokes.lone, short_stroke=strokes.short,
                   mirrored_doubt=reading.mirrored_doubt)
    evidence = [BoxEvidence(box.id, kind=box.kind, faint_marks=faint, light_fills=light_fills,
                            **{name: _plain(values[i]) for name, values in per_box.items()})
                for i, box in enumerate(sheet.boxes)]
    verdicts = [decide(e) for e in evidence]
    # A line through a skipped number is looked for only where it would change
    # the verdict (a doubt the faint crosses or the light raised, a doubtful
    # mark leaning empty): looking at every box cost 1.5 ms a sheet. Such a
    # line only ever makes a doubt empty, so only doubtful boxes are asked.
    struck_ones = {i: replace(evidence[i], struck=True)
                   for i, v in enumerate(verdicts) if v.state == "uncertain"}
    look = [i for i, e in struck_ones.items() if decide(e).state != verdicts[i].state]
    if any(crossed_p[i] > EMPTY_P for i in look) \
            and not strikes_skipped_numbers(inputs, crossed_p, numbered, grain):
        # see the note after their_crosses.MIN_STRUCK_LINES
        look = [i for i in look if crossed_p[i] <= EMPTY_P]
    if look:
        steeper = skip_lines_may_be_steeper(inputs, theirs, grain, their_lines)
        lines = struck_through(inputs[look], steeper=steeper, grain=grain)
        # a toss-up its deciders are unsure of themselves: its ink must be a
        # line too (see skip_lines.ink_spreads_both_ways)
        unsure = np.array([verdicts[i].note == DOUBTFUL_MARK and median_p[i] > EMPTY_P
                           for i in look])
        if unsure.any():
            lines[unsure] &= ~ink_spreads_both_ways(inputs[np.array(look)[unsure]])
        for i, line in zip(look, lines):
            if line:
                verdicts[i] = decide(struck_ones[i])
    # what the lit look and the looks below take no box for (their_crosses.SPARSE_LINE_PX)
    skip_like = partial(skip_like_marks, inputs, theirs, ink_mm2[:, 0], numbered, crossed_p,
                        grain=grain, their_lines=their_lines)
    verdicts = doubt_lit_lines(verdicts, inputs, numbered, theirs, grain, their_lines, skip_like)
    verdicts = [replace(v, found_at_mm=at) for v, at in zip(verdicts, found)]
    verdicts = doubt_dark_lit_crosses(verdicts, theirs, inputs, darkened, paper_px, ink_mm2[:, 0],
                                      classifier)
    if pen:
        verdicts = doubt_pens_lit_crosses(verdicts, washed)
        verdicts = struck_like_their_lines(verdicts, inputs, crossed_p, ink_mm2[:, 0], numbered,
                                           theirs, reading.mirrored_cross)
    verdicts = _settle_by_own_marks(verdicts, inputs, ink_mm2, darkened, paper_px, classifier,
                                    pen=pen, washed=washed, astray=located.astray & boxed)
    hatcher_shade = None
    if no_pen_ink:
        verdicts = _crossed_once_darkened(verdicts, inputs, classifier, skip_like)
    if not pen:
        crossed = np.array([v.state == "crossed" for v in verdicts])
        if hatches(crossed, darkened, paper_px, cover=CLOSE_HATCHING_COVER):
            hatcher_shade = darkened
    close = CloseViews(located)
    verdicts = seen_close(verdicts, close, reading, pencil=not pen, take_crosses=no_pen_ink,
                          hatcher_shade=hatcher_shade,
                          washed=(washed_out | overexposed) & (ink_mm2[:, 1] < PEN_DEEP_INK_MM2),
                          skip_like=skip_like)
    if hatcher_shade is not None:
        verdicts = light_hatching_doubted(verdicts, inputs, paper, circling=circling)
    if not pen:
        verdicts = chain_rings_doubted(verdicts, sheet, close, reading.first_agreed_empty,
                                       classifier)
        if circling:
            verdicts = broken_chains_doubted(verdicts, sheet)
    if pen:
        verdicts = _doubt_rims(verdicts, inputs)
    verdicts = crossed_in_grey(verdicts, inputs, ink_mm2[:, 0], classifier, _like_a_rim)
    if not circling:  # a big circle's arc in the box is one line too (rim_lines)
        verdicts = rim_lines_doubted(verdicts, inputs, rim_look().crossed_probability, paper)
    verdicts = folds_doubted(verdicts, inputs, window_frames(sheet, centres_px, ref.px_per_mm),
                             classifier.crossed_probability, paper_around, rectified,
                             ref.px_per_mm)
    if pen:
        verdicts = penless_toss_ups(verdicts, ink_mm2[:, 1], darkened,
                                    washed | washed_out | overexposed)
    return {v.box_id: v for v in doubt_empties_of_a_doubtful_sheet(verdicts)}


#: On the sheet of a player who writes with a pen (their_crosses.writes_with_a_pen), a
#: box read crossed that the network which learned drink rings
#: (box_model.RimLook) reads RIM_EMPTY_P or less is a toss-up: a cup's
#: dried ring running through an empty box is a thin line across it, which
#: every other network reads crossed (0.94-1.0). Over 1,314 sheets with a
#: ring on each (benchmarks/spoilt_photos.py ``stain``: independent seeds
#: 9, 70, 257, 259, 261, every photo hard 258 and 262, table 232, hard
#: table 233) sheets ``ok`` with a wrong score 136 -> 102, wrong boxes 419
#: -> 335; over the 7,813 sheets of the 52 independent sets at hand and
#: seeds 9 and 70, 4 right sheets more in review (two black slashes, a
#: blue X in a penalty box, a check), no box read otherwise wrong. Asked
#: on every sheet at 0.2, it caught as many stained sheets (101 left) and
#: doubted 36 right sheets, 30 of them pencil players' (light fills above
#: all: faint lines across a box, as a rim is).
RIM_EMPTY_P = 0.5
RIM_DOUBT = ("read crossed, but the network that learned drink rings reads it empty: "
             "a thin line across the box, like a cup's ring")


def _doubt_rims(verdicts: list[BoxVerdict], inputs: np.ndarray) -> list[BoxVerdict]:
    """The verdicts with every box read crossed that the network which
    learned drink rings reads empty (see RIM_EMPTY_P) made a toss-up; not
    those taken as crossed after a doubt for being like the player's own
    crosses (``settled``, see own_marks): a pen's X washed out by glare is
    one, which that network reads empty (independent seed 70 photo 16
    under ``--spoil glare``), and a rim is like no player's crosses."""
    crossed = np.flatnonzero([v.state == "crossed" and not v.settled for v in verdicts])
    if not len(crossed):
        return verdicts
    out = list(verdicts)
    for i in crossed[_like_a_rim(inputs[crossed])]:
        out[i] = replace(verdicts[i], state="uncertain", confidence=0.5, note=RIM_DOUBT, lean="")
    return out


def _like_a_rim(inputs: np.ndarray) -> np.ndarray:
    """Per box of ``inputs``, whether the network that learned drink rings
    reads it empty (RIM_EMPTY_P or less): a rim, not a mark."""
    return rim_look().crossed_probability(inputs) <= RIM_EMPTY_P


def _why_no_box_is_trusted(located: LocatedInputs, crossed_p: np.ndarray,
                           second_p: np.ndarray, all_markers: bool,
                           outlines: np.ndarray) -> str | None:
    """The note for every box of a sheet placed too poorly to trust any box of
    it, else None: so many boxes found away from their neighbours' places,
    empty ones among them, not counting those whose print lies under ink
    (see MAX_FOUND_AWAY), or not found near their own
    (see SHEET_ASTRAY and box_inputs.BENT_FIELD_MATCH). ``outlines``: the
    boxes printed as a bare outline (penalty boxes)."""
    under_ink = _print_under_ink(located, crossed_p)
    away = located.second_place[~under_ink[located.second_place]]
    empty = (crossed_p[away] <= EMPTY_P) | (second_p[away] <= EMPTY_P)
    if len(away) > MAX_FOUND_AWAY and np.count_nonzero(empty) >= MIN_EMPTY_AWAY:
        return SHEET_TOO_FAR_OFF
    astray = located.astray & ~under_ink
    # A sheet evened out is doubted whole where any numbered or lock box is
    # still astray, but not for a penalty box alone: a bare outline matches
    # weakly in any photo (see verdict.HIDDEN_PRINT_MATCH), and anything over it
    # hides it. On a hard table photo (foreign_photos.py --table
    # --hard-share 1, seed 62, photo 18) a sheet of boxes filled in was
    # evened out and every box found but an empty penalty box with 13.6 mm^2
    # of something over it: doubted whole (52 boxes), now read exactly. Of
    # 1,541 independent photos read for it (stop 39's sets) two other sheets
    # were evened out, neither with a box still astray.
    if (located.evened_out and (astray & ~outlines).any()) or (
            np.count_nonzero(astray) > MAX_ASTRAY
            and (not all_markers or np.median(located.match) >= ASTRAY_SHEET_MATCH)):
        return SHEET_ASTRAY
    return None


def _print_under_ink(located: LocatedInputs, crossed_p: np.ndarray) -> np.ndarray:
    """The boxes whose print is hidden under a player's ink (leaning toward a
    cross, above HIDDEN_PRINT_P, with HIDDEN_PRINT_INK_MM2 of ink or more),
    where the other boxes are found well (their median match
    VISIBLE_PRINT_MATCH or more); else none. Their print not being found
    says nothing of where the sheet lies."""
    under = (crossed_p > HIDDEN_PRINT_P) & (located.ink_mm2[:, 0] >= HIDDEN_PRINT_INK_MM2)
    if under.all() or np.median(located.match[~under]) < VISIBLE_PRINT_MATCH:
        return np.zeros(len(under), bool)
    return under


def _crossed_once_darkened(verdicts: list[BoxVerdict], inputs: np.ndarray, classifier,
                           skip_like: Callable[[np.ndarray], np.ndarray]) -> list[BoxVerdict]:
    """The verdicts of a player who writes without a pen, with every box
    doubted for its mark or for holding hardly any ink taken as crossed
    where each of its darkened looks reads it crossed (see DARKER_LOOKS);
    none on a sheet with verdict.MANY_DOUBTFUL doubtful boxes or more, nor
    a box whose mark would be like a line through a skipped number were it
    read crossed (``skip_like``: per box, given the indices of those asked;
    their_crosses.skip_like_marks, as the close look asks)."""
    if too_doubtful(verdicts):
        return verdicts
    ask = np.flatnonzero([v.state == "uncertain" and v.note in (DOUBTFUL_MARK, HARDLY_ANY_INK)
                          for v in verdicts])
    if len(ask):
        ask = ask[~skip_like(ask)[ask]]
    if not len(ask):
        return verdicts
    asked = inputs[ask]  # (a copy: indexed by an array)
    photo = np.maximum(asked[:, :3], np.float32(1e-3))
    looks = []
    for power in DARKER_LOOKS:
        asked[:, :3] = np.minimum(np.power(photo, np.float32(power)), np.float32(PHOTO_CAP))
        looks.append(classifier.crossed_probability(asked))
    return taken_as_crossed(verdicts, ask, np.min(looks, axis=0), CROSSED_P, DARKER_CROSSED)


def _settle_by_own_marks(verdicts: list[BoxVerdict], inputs: np.ndarray, ink_mm2: np.ndarray,
                         darkened: np.ndarray, paper: np.ndarray,
                         classifier, *, pen: bool, washed: np.ndarray,
                         astray: np.ndarray) -> list[BoxVerdict]:
    """The verdicts with every box doubted for its mark that looks like this
    player's confident crosses taken as crossed (see :mod:`own_marks`), on a
    ``pen`` player's sheet only where it holds their dark ink too (see
    OWN_PEN_DEEP_SHARE) or the light washes it out (``washed``, per box: see
    glare.WASHED_OUT), and never a numbered or lock box ``astray`` (its print not
    found near its place; see the note in the body); ``ink_mm2``: ink and dark
    ink per box (mm^2), ``darkened``: own_marks.darkened_pixels of every box,
    ``paper``: how many pixels of each box's middle are paper
    (own_marks.paper_pixels)."""
    ink_mm2, deep_ink_mm2 = ink_mm2[:, 0], ink_mm2[:, 1]
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
    crossed = states == "crossed"
    # A box the networks lean empty on is taken as like the player's hatching
    # (OWN_HATCHING_REASON: own_marks.like_own_crosses given ``paper``) only on
    # the sheet of a player who writes without a pen: that measure is for light
    # pencil shading, which the networks read empty most of all; a pen's fill they
    # read with confidence. Independent table 174, photo 16 (a normal photo): a
    # yellow die lying at the edge of a blue felt-pen hatcher's sheet covered a
    # corner of the skipped blue 12 and shaded the rest; with the line through the
    # number that made as much ink as their fills, dark ink among it, and the
    # networks unsure (0.35 in the middle), the box was taken as hatched and the
    # sheet came out ``ok`` with a wrong score. Of the 19 boxes taken so over the
    # 84 independent sets then at hand (12,190 sheets), 17 were pencil fills; the
    # other right one, a green felt pen's check (hard table 143, photo 8), is
    # doubtful now (the rules settle it).
    by_ink, by_shade = like_own_crosses(crossed, empty, doubtful, ink_mm2,
                                        ink_colours(inputs), vote, darkened,
                                        None if pen else paper)
    # A box astray (locate.ASTRAY_MATCH: its print not found near its place)
    # is not taken as like the player's crosses: what its window holds may
    # be print seen off its place, or a neighbour's stroke. Fresh hard
    # independent seed 246 photo 36 (tilted 35 degrees, paper bent 6.3 mm, a
    # grey print, thick black X's): green 12 was found 2.5 mm off, its
    # frame's print and the end of yellow 2's X above it counting 15 mm^2 of
    # ink (the player's crosses 26); the networks split (0.06-0.94), the box
    # was taken as crossed by the player's own marks, and the sheet came out
    # ``ok`` with 136 instead of 134. Of the 269 boxes taken so over the 168
    # independent sets at hand, the other astray ones were 4 penalty boxes,
    # crossed (3 checked; the fourth on a table photo of two classic
    # sheets): a bare outline under a cross is found nowhere, so those are
    # still taken.
    by_ink, by_shade = by_ink & ~astray, by_shade & ~astray
    # where in the box the mark lies (own_marks.PLACE_SLACK_PX), but where the
    # light washes the box out, which leaves a cross in pieces
    ask = np.flatnonzero((by_ink | by_shade) & ~washed)
    if len(ask):
        elsewhere = ask[~placed_like_crosses(inputs, crossed, ask)]
        by_ink[elsewhere], by_shade[elsewhere] = False, False
    if pen and (by_ink | by_shade).any():  # (then some box is read crossed)
        inked = washed | (deep_ink_mm2
                          >= OWN_PEN_DEEP_SHARE * float(np.median(deep_ink_mm2[crossed])))
        by_ink, by_shade = by_ink & inked, by_shade & inked
    if not (by_ink | by_shade).any():
        return verdicts
    typical_ink = float(np.median(ink_mm2[crossed]))
    share = darkened * 100 / INNER_PX**2  # of the box, in per cent
    typical_share = float(np.median(share[crossed]))
    out = list(verdicts)
    for i in np.flatnonzero(by_ink | by_shade):
        detail = (f"{ink_mm2[i]:.0f} mm^2 of ink, their crosses {typical_ink:.0f}" if by_ink[i]
                  else f"darkened over {share[i]:.0f} % of the box, their crosses "
                       f"{typical_share:.0f} %")
        reason = OWN_MARKS_REASON if vote[i] >= OWN_LEAN else OWN_HATCHING_REASON
        out[i] = replace(verdicts[i], state="crossed", confidence=round(float(vote[i]), 3),
                         note=f"settled: {reason} ({detail})", settled=reason)
    return out


def _measured(values: np.ndarray) -> list[float | None]:
    """Values measured for some boxes only (NaN elsewhere), None where not."""
    return [None if np.isnan(v) else float(v) for v in values]


def _plain(value):
    """A numpy scalar as Python's own (a bool or a float); None stays None."""
    if value is None or isinstance(value, float):
        return value
    return bool(value) if isinstance(value, np.bool_) else float(value)


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
