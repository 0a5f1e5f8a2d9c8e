"""One box's verdict (crossed, empty or uncertain) from what the reader found out about it.

:func:`decide` weighs a box's :class:`BoxEvidence`, gathered by
:func:`qwixx_scan.read.read_marks`, against the thresholds here: the
networks' probability (CROSSED_P, EMPTY_P), the ink the box holds, where
its print was found, and the doubts the other rules raised (the light, the
player's own crosses); the notes it writes are here too. Besides, the
measures of a whole sheet that these verdicts lean on: whether its crosses
can be very faint (:func:`faint_crosses`), whether the networks are sure
enough of a cross to outweigh the ink count (:func:`sure_of_a_cross`), and
whether so many of its boxes are doubtful that its empty verdicts cannot be
trusted either (:func:`doubt_empties_of_a_doubtful_sheet`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .box_model import MEMBERS, SURE
from .skip_lines import struck_through

#: The note of a box not seen (see box_inputs.MIN_SEEN_SHARE).
UNSEEN = "not seen: found past the edge of the photographed sheet, bent or seen steeply there"
#: An empty box shows its print plainly: one read empty where its print
#: matched the blank sheet's below HIDDEN_PRINT_MATCH (normalised
#: correlation; see locate.locate_boxes) may have been read in the wrong
#: place, or under something, and is doubtful. On the independent photos
#: (foreign_photos.py seeds 1-6, 850 photos) 7 of the 20 wrong boxes were
#: such empty boxes, matched at 0.05-0.31: rows of steep, bent sheets read
#: half a row off. Of the number and lock boxes rightly read empty on those
#: photos, on 1,650 photogen photos and on 120 table photos, those matched
#: below 0.32 all lay on sheets sent to review anyway; three on sheets read
#: exactly matched at 0.33-0.35 (a skip line through the number, a shadow's
#: edge across it). Penalty boxes are left out: a bare outline round blank
#: paper matches weakly in any photo (0.18-0.28 on sheets read exactly).
HIDDEN_PRINT_MATCH = 0.32
#: Probability thresholds: crossed at or above CROSSED_P, empty at or below
#: EMPTY_P, uncertain between (chosen with ``train_box_classifier.py
#: calibrate`` on held-out generated photos: no wrong box on 6240, 5 between).
CROSSED_P = 0.9
EMPTY_P = 0.1
#: The physical check: read crossed with less ink than CROSSED_MIN_INK_MM2
#: (none to speak of), or read empty with more deep ink (darker than the
#: print by box_inputs.DEEP_INK_DARKNESS) than EMPTY_MAX_DEEP_INK_MM2, is
#: doubtful. On held-out photos 99.9 % of crossed boxes hold more than 0.65
#: mm^2 of ink, and the network was never sure of a cross in an empty box (0
#: of 45,000); faint pencil over coloured print, read crossed, held
#: 0.08-0.28 mm^2 (the old limit of 0.3 sent 15 such crosses to review).
#: Deep ink tells a mark from shade: a hard shadow edge across an empty box
#: darkens most of it by 0.15 (up to 53 mm^2 of ink on the benchmark photos)
#: but hardly ever by 0.4 (at most 12 mm^2 of 45,000 empty boxes), while
#: boxes hatched solid in a way the networks had not seen, read empty, hold
#: 26-41 mm^2 of it (benchmarks/unseen_marks_benchmark.py).
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
#: ... and that box's paper is hardly darkened either: by fewer than
#: FAINT_DARK_PX pixels of its middle (own_marks.darkened_pixels, measured
#: against the blank pixel by pixel) more than the boxes read empty show
#: (their median: sensor noise darkens pixels too). The ink count compares a
#: box with the darkest print near it, so a cross over a wide printed number
#: can count less than FAINT_MARK_MM2 in any pen: 14-18 % of the crosses read
#: on Kettingen B's and E's green 10, none of them faint to the eye, each
#: making its sheet "faint" and its empty boxes, skip lines and dots
#: doubtful. The faint crosses of seed 27 photo 8 (tiny red checks, see
#: FAINT_VIEW_P) darken 4-6 pixels; the green 10s 11-53, where their
#: sheets' empty boxes show next to none; in hard table 14 photo 37 (very
#: dark and noisy, marks barely seen) the empty boxes show 72 and a faint
#: lock cross 34.
FAINT_DARK_PX = 10
#: In a dark, grainy photo the grain counts as ink and darkens paper in
#: every box, empty ones too, so no cross holds less than FAINT_MARK_MM2.
#: There a sheet is faint all the same where some box read crossed holds
#: less ink than most boxes read empty (their median) and darkens less of
#: its paper than most of them: nothing measured tells that cross from an
#: empty box, only the networks. A light pencil slash through a green 8 in
#: a photo at a third of the usual light (fresh hard independent table
#: seed 101, photo 11) was read empty at 0.024 and the sheet came out
#: ``ok`` with a wrong score; its red 2, read crossed, held 5.4 mm^2 against
#: the empty boxes' 6.0 and darkened 69 pixels against their 72. Now that
#: sheet is doubted whole. Over 40 independent sets (5,797 sheets): 18
#: other sheets read as faint, 10 of them exact before, now in review; of
#: the 1,148 sheets made after, 7 exact ones (most on dark, grainy tables).
#: On such a sheet every deciding network must also read the box empty
#: (FAINT_VIEW_P or less) in each of its mirrored views (box_model's
#: MIRRORED_VIEWS). A tiny red check on a red 6 (30 % of the box, 0.45 mm^2
#: of ink; hard independent seed 27, photo 8) got at most 0.004 from the
#: deciders as it is, so the sheet came out ``ok`` with a wrong score;
#: mirrored, ``b`` gave 0.115 and ``c`` 0.16. Over the 16,794 boxes read
#: empty on faint sheets of every benchmark set it was the only one crossed.
#: Only boxes where some decider sees a trace of a mark as it is
#: (FAINT_TRACE_P) are looked at mirrored: a tenth of them (looking at all
#: made a faint sheet's photo 15 ms slower). Over the 10,396 sheets of every
#: set: that box doubted, 16 empty boxes too, 6 sheets fewer exact, and the
#: unseen-marks benchmark unchanged.
FAINT_VIEW_P = 0.1
FAINT_TRACE_P = 1e-4
#: A cross holding FAINT_DEEP_INK_MM2 more of the dark ink
#: (box_inputs.DEEP_INK_DARKNESS) than most boxes read empty is told from
#: them by that ink, however little ink it holds in all: it makes no sheet
#: faint by holding less than they do. In dark, grainy photos the grain puts
#: 4-14 mm^2 of ink in an empty box but next to no dark ink (their median
#: 0-0.2 mm^2), where a pen's crosses leave 1-2.7. Of the 40 sheets taken
#: as faint over 40 independent sets (5,811 sheets), 13 of pen players were
#: so for crosses under the empty boxes' ink; read again with 4 sets more
#: (6,389 sheets), 6 of them read exactly, from review to ``ok``
#: (independent seed 143 photo 9 among them: a blue pen's circle with 1.1
#: mm^2 of dark ink against the grain's 6.9 of ink), nothing else changed,
#: and the unseen-marks benchmark neither. A pencil leaves no dark ink: its
#: crosses are judged as before.
FAINT_DEEP_INK_MM2 = 1.0
#: Where INKED_CROSSES_SHARE of the player's crosses or more hold that dark
#: ink, the player writes with a pen that leaves it, and the few crosses
#: that hold less ink than the grain puts in the empty boxes make no sheet
#: faint either: a pen's stroke over a dark, wide printed number (Kettingen
#: B's green 10) or a small X in the dark keeps little dark ink of its own,
#: but the pen is no fainter for it. Photogen's benchmark photo 52 (black
#: ballpoint, hard): the X on green 10 held 5.3 mm^2 of ink and 0.3 of dark
#: ink against the grain's 6.4 and the other 23 crosses' 2.1-8.8 of dark
#: ink, and three clean empty boxes were doubted. Pencil and pale pens,
#: whose crosses keep little of it, are judged as before: of the 63
#: sheets taken as faint over 60 independent sets, the pen players' that
#: this clears had 0.77-0.96 of their crosses holding the dark ink, the
#: others at most 0.60. Over those sets (8,743 sheets) 4 sheets read
#: differently, all pen players' in dark, grainy photos, 74 doubts fewer:
#: 3 from review to exact ``ok``, one from doubted whole to ``invalid``
#: (its player broke a rule) with one doubt; 8,451 -> 8,454 exact, the
#: same 7 wrong boxes. Photogen's 300: 296 -> 297. Eight sets made after
#: (1,166 sheets): no sheet read differently but one with 18 doubts fewer
#: (in review for one left).
INKED_CROSSES_SHARE = 0.75
FAINT_DOUBT = "read empty, but this player's crosses can be very faint"
FAINT_MIRRORED_DOUBT = ("read empty, but this player's crosses can be very faint, and mirrored "
                        "it shows a trace of a mark")
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
#: Where MANY_DOUBTFUL or more of a sheet's boxes are doubtful, its boxes
#: read empty are doubted too (DOUBTFUL_SHEET): the reader is lost on that
#: sheet (a dark, noisy photo, faint marks), and its empty verdicts are not
#: to be trusted either. Over the 13,776 sheets of every benchmark set, 31
#: boxes were read wrong; 11 of them crosses read empty on the 37 sheets
#: with 5 or more doubtful boxes, 10 on the 13 with 8 or more (8 on one
#: sheet: faint pencil slashes in a photo at 35 % exposure, noise 12,
#: independent seed 53 photo 80), none on the others. Such a sheet is far
#: from read exactly anyway; the user is told to photograph it again. Once
#: the networks had learned grainy photos (training's ``--grainy``) they
#: doubted fewer boxes of a sheet they are lost on: a Kettingen sheet hatched
#: lightly in grey pencil (benchmarks/unseen_marks_benchmark.py, seed
#: 7110001), whose crosses every network reads empty, kept only 6 doubtful
#: boxes (8 or more before) and came out with 19 crosses read empty. At 6, over
#: the 3,656 sheets of the independent sets at hand, 10 sheets more (6 or 7
#: doubtful boxes, none with a box read wrong) are doubted so; no sheet
#: read exactly is touched.
MANY_DOUBTFUL = 6
DOUBTFUL_SHEET = ("read empty, but so many of the sheet's boxes are doubtful that its empty "
                  "readings cannot be trusted either")
#: The note of a box taken as empty for the line through its number (see
#: qwixx_scan.skip_lines).
STRUCK_THROUGH = "a line through a skipped number"
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
#: The note of a box read crossed with less ink than CROSSED_MIN_INK_MM2
#: (see UNANIMOUS_P).
HARDLY_ANY_INK = "read crossed but holds hardly any ink"
#: The note of a box read crossed whose mark is like a line through a
#: skipped number (see their_crosses.SKIP_LIKE_TILT_DEG).
SKIP_LIKE = ("read crossed, but its mark is one line through the number, like a line "
             "through a skipped number, unlike this player's crosses")
#: A box read crossed whose ink lies along one edge, none in its middle, and
#: runs on past that edge toward a box read crossed, holding less ink than
#: the player's crosses (see :mod:`qwixx_scan.spills`), is doubtful: the tail
#: of a large check overshooting from the box beside it. Fresh table 144
#: photo 6: such a tail in an empty red 7 read crossed at 0.947 (every
#: network 0.72 or more in every mirrored view, 0.40 of the player's ink),
#: and the sheet came out ``ok`` with 26 points instead of 20. Doubted
#: before the other doubts of a box read crossed, so that no closer look
#: or the player's own marks take it back: its stroke is a cross's stroke.
SPILT_OVER = ("read crossed, but its ink lies along one edge, running on toward the "
              "crossed box beside it, like the end of that box's mark")
#: A number or lock box read empty whose mark is one steep stroke through
#: its middle, in the player's pen, as much ink as half their crosses (see
#: :mod:`qwixx_scan.lone_strokes`), is doubtful: a slash too small for the
#: networks. Table 140 photo 37: a blue slash over green 12, 0.6 of the
#: player's middle ink, read empty at 0.0006 (their other small slashes
#: crossed), and the sheet came out ``ok`` with 121 points instead of 130.
LONE_STROKE = ("read empty, but it holds one steep stroke of this player's pen through "
               "its middle, like a small slash")
#: A number or lock box read empty whose mark is short, through its middle,
#: in the player's pen, as much ink as half their crosses, and some network
#: leans toward a cross (see :mod:`qwixx_scan.lone_strokes`, SHORT_PX), is
#: doubtful: a slash so small that the print hides most of it. Fresh hard
#: table 155 photo 23: a blue slash between the 1 and the 2 of green 12,
#: 0.7 of the player's middle ink, read empty (a network 0.2), and the sheet
#: came out ``ok`` with 68 points instead of 75.
SHORT_STROKE = ("read empty, but it holds a short stroke of this player's pen through its "
                "middle, mostly hidden by the number, like a small slash")
#: The note of a box read crossed with far less ink than the player's
#: crosses (see their_crosses.LIGHT_CROSS_SHARE).
LIGHT_CROSS = ("read crossed, but with far less ink than this player's crosses, and doubted "
               "when looked at mirrored")
#: The note of a box read crossed only narrowly without a dark pen's deep
#: ink (see their_crosses.NARROW_CROSS_P).
NO_DEEP_INK = ("read crossed only narrowly, with almost none of the dark ink of this "
               "player's crosses")
#: The note of a box read crossed only narrowly and doubted mirrored (see
#: their_crosses.NARROW_VIEW_DOUBT).
NARROW_MIRRORED = ("read crossed only narrowly, and read empty when looked at mirrored")
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
#: The note of a box read empty where the light washes it out (see
#: glare.WASHED_OUT).
WASHED_OUT_NOTE = ("read empty, but the light washes the box out there (a lamp's reflection): "
                   "a cross could be lost in it")
#: The note of a box read empty where the photo is white to the brim (see
#: glare.CLIPPED_SHARE).
OVEREXPOSED_NOTE = ("read empty, but the photo is white to the brim there (too bright): a "
                    "light cross could be lost in it")


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


@dataclass(frozen=True)
class BoxEvidence:
    """What the reader found out about one box, for :func:`decide`."""

    box_id: str
    #: The deciding networks' probability that the box is crossed.
    crossed_p: float
    #: Ink the box holds, mm^2 darker than the print by
    #: box_inputs.INK_DARKNESS, and deep ink, by box_inputs.DEEP_INK_DARKNESS.
    ink_mm2: float
    deep_ink_mm2: float
    #: The box's kind (a penalty box's bare outline matches weakly in any photo).
    kind: str = "number"
    #: Some cross on this sheet is very faint (see FAINT_MARK_MM2), so an
    #: empty verdict needs FAINT_EMPTY_P from ``highest_p``, the most doubtful
    #: deciding network's probability (None: ``crossed_p``).
    faint_marks: bool = False
    highest_p: float | None = None
    #: ... and no deciding network may give more than FAINT_VIEW_P in any
    #: mirrored view either (None: not asked).
    highest_view_p: float | None = None
    #: The deciding networks' probability for the box turned half round (see
    #: TURN_CHECK_INK_MM2).
    turned_p: float = 0.0
    #: For a box found away from its neighbours, the probability where they
    #: put it (see box_inputs.SECOND_PLACE_MM).
    second_place_p: float | None = None
    #: How well the box's print matched the blank sheet's where it was found
    #: (see HIDDEN_PRINT_MATCH and box_inputs.SECOND_PLACE_MM).
    print_match: float = 1.0
    #: The networks are sure of a cross (see UNANIMOUS_P).
    unanimous: bool = False
    #: The deciding networks' own median: the side a toss-up (``crossed_p``
    #: 0.5, two networks sure of opposite verdicts) leans to, for the rules to
    #: settle (see :mod:`qwixx_scan.settle`).
    median_p: float | None = None
    #: The probability with the box lit from around it (see LIT_FROM_AROUND
    #: and LIT_CROSSED); ``light_fills``: the player shades boxes in lightly
    #: (see LIGHT_FILL_LIT_P).
    lit_p: float | None = None
    light_fills: bool = False
    #: False for a box found past the image's edge (see
    #: box_inputs.MIN_SEEN_SHARE), which nothing else tells about.
    seen: bool = True
    #: The light washes the box out (see glare.WASHED_OUT).
    washed_out: bool = False
    #: The photo is white to the brim there (see glare.CLIPPED_SHARE).
    overexposed: bool = False
    #: The box's mark is a line through a skipped number (see
    #: :mod:`qwixx_scan.skip_lines`): read empty, or doubted while the
    #: networks lean empty, it is empty, whatever the sheet's faint crosses
    #: or the photo's light.
    struck: bool = False
    #: Read crossed, it holds far less ink than the player's crosses and a
    #: mirrored view doubts it (see their_crosses.LIGHT_CROSS_SHARE).
    light_doubted: bool = False
    #: Read crossed only narrowly, it holds almost none of the deep ink of
    #: the player's dark crosses (see their_crosses.NARROW_CROSS_P).
    no_deep_ink: bool = False
    #: Read crossed only narrowly, a deciding network reads it empty in some
    #: mirrored view (see their_crosses.NARROW_VIEW_DOUBT), or leans empty where it holds
    #: little of a pen player's deep ink (see their_crosses.NARROW_SHADE_SHARE).
    narrow_doubted: bool = False
    #: Read crossed, its mark is one line through the number, and the
    #: player's crosses are not (see their_crosses.SKIP_LIKE_TILT_DEG).
    skip_like: bool = False
    #: Read crossed, its ink is like the tail of the mark in the box beside it
    #: (see SPILT_OVER).
    spilt: bool = False
    #: Read empty, its mark is one steep stroke of the player's pen (see
    #: LONE_STROKE).
    lone_stroke: bool = False
    #: Read empty, its mark a short stroke of the player's pen that a
    #: network leans toward (see SHORT_STROKE).
    short_stroke: bool = False
    #: Read crossed over one decider's doubt, and doubted in a mirrored view
    #: (box_model.SPLIT: two networks sure of opposite verdicts there): not
    #: taken as crossed once lit from around it (LIT_FROM_AROUND), which
    #: looks at the box as it is only, while the mirrored views found a mark
    #: some network has not learned. On a hard table photo (foreign_photos.py
    #: --table seed 14, photo 37) the stroke of a neighbour's check in an
    #: empty box's corner, doubted so, read 0.979 lit once the networks were
    #: tuned on wild marks (training/train_box_classifier.py), and the box
    #: was crossed. Over 2,785 independent sheets (seeds 55-66, tables 35-41)
    #: this doubted one right cross besides (a light fill, table 37 photo 4).
    mirrored_doubt: bool = False


def decide(e: BoxEvidence) -> BoxVerdict:
    """One box's verdict from what the reader found out about it."""
    box_id, crossed_p, second_place_p = e.box_id, e.crossed_p, e.second_place_p
    if not e.seen:
        return BoxVerdict(box_id, "uncertain", 0.0, UNSEEN)
    if second_place_p is not None and e.print_match < HIDDEN_PRINT_MATCH \
            and second_place_p >= CROSSED_P:
        # Its print was hardly seen where the box was found (ink over it),
        # so that place says little; a cross where its neighbours put it
        # stands (see box_inputs.SECOND_PLACE_MM).
        crossed_p, second_place_p = second_place_p, None
    if second_place_p is not None and _band(second_place_p) != _band(crossed_p):
        return BoxVerdict(box_id, "uncertain", 0.3, "the box's print was found away from where "
                          "its neighbours put it, and the two places read differently")
    if crossed_p >= CROSSED_P:
        if e.spilt:
            return BoxVerdict(box_id, "uncertain", 0.3, SPILT_OVER)
        if e.ink_mm2 < CROSSED_MIN_INK_MM2 and not e.unanimous:
            return BoxVerdict(box_id, "uncertain", 0.3, HARDLY_ANY_INK, lean="crossed")
        if e.light_doubted:
            return BoxVerdict(box_id, "uncertain", 0.3, LIGHT_CROSS, lean="crossed")
        if e.no_deep_ink:
            return BoxVerdict(box_id, "uncertain", 0.3, NO_DEEP_INK, lean="crossed")
        if e.narrow_doubted:
            return BoxVerdict(box_id, "uncertain", 0.3, NARROW_MIRRORED, lean="crossed")
        if e.skip_like:
            return BoxVerdict(box_id, "uncertain", 0.3, SKIP_LIKE)
        return BoxVerdict(box_id, "crossed", round(crossed_p, 3), "")
    if crossed_p <= EMPTY_P:
        if e.deep_ink_mm2 > EMPTY_MAX_DEEP_INK_MM2:
            return BoxVerdict(box_id, "uncertain", 0.3, "read empty but holds much ink",
                              lean="empty")
        if e.lit_p is not None and e.lit_p >= CROSSED_P and e.ink_mm2 >= TURN_CHECK_INK_MM2:
            return BoxVerdict(box_id, "uncertain", 0.3, LIT_CROSSED)
        if e.light_fills and e.lit_p is not None and e.lit_p >= LIGHT_FILL_LIT_P:
            return BoxVerdict(box_id, "uncertain", 0.3, LIT_LEANS)
        if e.turned_p >= TURNED_CROSSED_P:
            return BoxVerdict(box_id, "uncertain", 0.3, "read empty, but read crossed when "
                              "turned round")
        if e.lone_stroke:
            return BoxVerdict(box_id, "uncertain", 0.3, LONE_STROKE, lean="empty")
        if e.short_stroke:
            return BoxVerdict(box_id, "uncertain", 0.3, SHORT_STROKE, lean="empty")
        if e.print_match < HIDDEN_PRINT_MATCH and e.kind != "penalty":
            return BoxVerdict(box_id, "uncertain", 0.3, HIDDEN_PRINT)
        if e.washed_out:
            return BoxVerdict(box_id, "uncertain", 0.3, WASHED_OUT_NOTE, lean="empty")
        if e.struck:
            return BoxVerdict(box_id, "empty", round(1.0 - crossed_p, 3), STRUCK_THROUGH)
        if e.overexposed:
            return BoxVerdict(box_id, "uncertain", 0.3, OVEREXPOSED_NOTE, lean="empty")
        if e.faint_marks and max(crossed_p, e.highest_p or 0.0) > FAINT_EMPTY_P:
            return BoxVerdict(box_id, "uncertain", 0.3, FAINT_DOUBT, lean="empty")
        if e.faint_marks and (e.highest_view_p or 0.0) > FAINT_VIEW_P:
            return BoxVerdict(box_id, "uncertain", 0.3, FAINT_MIRRORED_DOUBT, lean="empty")
        return BoxVerdict(box_id, "empty", round(1.0 - crossed_p, 3), "")
    if e.lit_p is not None and not e.mirrored_doubt and crossed_once_lit(e.lit_p, e.ink_mm2):
        return BoxVerdict(box_id, "crossed", round(e.lit_p, 3), LIT_FROM_AROUND)
    # A toss-up (two networks sure of opposite verdicts) leans where the
    # deciding networks' median points, so that the rules may settle it: an
    # empty lock box that network ``a`` alone took for a cross, with its last
    # number empty, or a chain box whose partner is crossed. Over 1,000
    # independent photos, 1,650 photogen photos and 120 table photos this
    # made 9, 8 and 1 more sheets exact, and settled no box wrongly.
    toward = e.median_p if crossed_p == 0.5 and e.median_p is not None else crossed_p
    if e.struck and toward < 0.5:
        return BoxVerdict(box_id, "empty", round(1.0 - toward, 3) * 0.5, STRUCK_THROUGH)
    lean = "crossed" if toward > 0.5 else "empty" if toward < 0.5 else ""
    return BoxVerdict(box_id, "uncertain", round(max(crossed_p, 1.0 - crossed_p), 3) * 0.5,
                      DOUBTFUL_MARK, lean=lean)


def crossed_once_lit(lit_p, ink_mm2):
    """Whether a box the networks are unsure of is crossed, read lit from
    around it (see LIT_FROM_AROUND); per box where given arrays."""
    return (lit_p >= CROSSED_P) & (ink_mm2 >= CROSSED_MIN_INK_MM2)


def _band(p: float) -> str:
    return "crossed" if p >= CROSSED_P else "empty" if p <= EMPTY_P else "between"


def sure_of_a_cross(each: np.ndarray) -> np.ndarray:
    """Per box, whether the networks (``each``: networks x boxes, in
    box_model.MEMBERS order) are sure enough of a cross to outweigh the ink
    count: all at least UNANIMOUS_P, UNANIMOUS_EXCEPT only not sure of an
    empty box."""
    lenient = MEMBERS.index(UNANIMOUS_EXCEPT)
    return (np.delete(each, lenient, axis=0).min(axis=0) >= UNANIMOUS_P) \
        & (each[lenient] > 1 - SURE)


def faint_crosses(crossed_p: np.ndarray, ink_mm2: np.ndarray, deep_ink_mm2: np.ndarray,
                  darkened: np.ndarray, inputs: np.ndarray, grain: float = 0.0) -> bool:
    """Some box read crossed holds hardly any ink and hardly darkens its paper
    more than the boxes read empty do (see FAINT_MARK_MM2, FAINT_DARK_PX), or
    holds less ink and darkens less than most boxes read empty (see
    FAINT_DARK_PX) and not more of the dark ink (``deep_ink_mm2``, see
    FAINT_DEEP_INK_MM2), nor where most crosses hold it (see
    INKED_CROSSES_SHARE); ``darkened``: own_marks.darkened_pixels of every
    box; ``inputs``: the boxes' network inputs, to leave the lines through
    skipped numbers out of the empty boxes' measure (``grain``: see
    skip_lines.paper_grain)."""
    crossed, empty = crossed_p >= CROSSED_P, crossed_p <= EMPTY_P
    if not crossed.any():
        return False
    ink_floor, floor = _empty_floor(ink_mm2, darkened, empty)
    thin = crossed & (ink_mm2 < FAINT_MARK_MM2)
    if np.any(darkened[thin] < floor + FAINT_DARK_PX):
        return True
    # A pen's dark ink, which the boxes read empty do not show, tells a cross
    # from them however little ink it holds (see FAINT_DEEP_INK_MM2).
    deep_floor = float(np.median(deep_ink_mm2[empty])) if empty.any() else 0.0
    like_empty = crossed & (deep_ink_mm2 < deep_floor + FAINT_DEEP_INK_MM2)
    if np.count_nonzero(crossed & ~like_empty) >= INKED_CROSSES_SHARE * np.count_nonzero(crossed):
        return False  # a pen that leaves its dark ink (see INKED_CROSSES_SHARE)
    below_empty = like_empty & (ink_mm2 < ink_floor) & (darkened < floor)
    # The boxes read empty measure the photo's noise, not the lines through
    # skipped numbers among them: where a cross holds less than most, the
    # floor is measured once more without the lines. On photogen's benchmark
    # photo 135 (motion blur, a shadow's edge) 13 of a check player's 26
    # empty boxes were struck through, their median held more ink than 9 of
    # the checks, and an empty box in the shadow (0.003, one network 0.012)
    # was doubted. Over 40 independent sets (5,811 sheets) no sheet read
    # differently, nor on the unseen-marks benchmark.
    if below_empty.any() and empty.any():
        at = np.flatnonzero(empty)
        plain = empty.copy()
        plain[at] = ~struck_through(inputs[at], grain=grain)
        if plain.any():
            ink_floor, floor = _empty_floor(ink_mm2, darkened, plain)
            below_empty = like_empty & (ink_mm2 < ink_floor) & (darkened < floor)
    return bool(below_empty.any())


def _empty_floor(ink_mm2: np.ndarray, darkened: np.ndarray,
                 empty: np.ndarray) -> tuple[float, float]:
    """The ink and darkened paper most boxes read empty show (their medians)."""
    if not empty.any():
        return 0.0, 0.0
    return float(np.median(ink_mm2[empty])), float(np.median(darkened[empty]))


def too_doubtful(verdicts: list[BoxVerdict]) -> bool:
    """Whether MANY_DOUBTFUL or more of a sheet's boxes are doubtful: then
    its doubts are the whole sheet's, not one box's to look at again."""
    return sum(v.state == "uncertain" for v in verdicts) >= MANY_DOUBTFUL


def doubt_empties_of_a_doubtful_sheet(verdicts: list[BoxVerdict]) -> list[BoxVerdict]:
    """The verdicts with every box read empty doubted (DOUBTFUL_SHEET) where
    MANY_DOUBTFUL or more of the sheet's boxes are doubtful; a line through
    a skipped number, a positive sign of an empty box, stays."""
    if not too_doubtful(verdicts):
        return verdicts
    return [replace(v, state="uncertain", confidence=0.3, note=DOUBTFUL_SHEET, lean="empty")
            if unstruck else v for v, unstruck in zip(verdicts, read_empty_unstruck(verdicts))]


def read_empty_unstruck(verdicts: list[BoxVerdict]) -> np.ndarray:
    """Per box, whether it is read empty without a line through a skipped
    number (STRUCK_THROUGH, a positive sign of an empty box)."""
    return np.array([v.state == "empty" and v.note != STRUCK_THROUGH for v in verdicts], bool)


def taken_as_crossed(verdicts: list[BoxVerdict], ask: np.ndarray, p: np.ndarray,
                     at_least: float, note: str) -> list[BoxVerdict]:
    """The verdicts with each box of ``ask`` whose probability ``p`` is
    ``at_least`` or more taken as crossed, noted ``note``."""
    out = list(verdicts)
    for i, value in zip(ask, p):
        if value >= at_least:
            out[i] = replace(verdicts[i], state="crossed", confidence=round(float(value), 3),
                             note=note, lean="")
    return out
