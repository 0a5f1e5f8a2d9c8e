"""A box read crossed weighed against the player's own crosses on the sheet.

A player marks a whole sheet with one pen, in one way, so the boxes read
crossed with confidence (:func:`read_crossed`) show what their crosses
are: how much ink they hold, whether a pen's deep ink
(:func:`writes_with_a_pen`), how their lines lie. A box read crossed
unlike them is doubtful: far less ink, and doubted when looked at
mirrored (LIGHT_CROSS_SHARE); read crossed only narrowly without a dark
pen's deep ink (NARROW_CROSS_P) or doubted mirrored (NARROW_VIEW_DOUBT);
one line through the number, like a line through a skipped number
(SKIP_LIKE_TILT_DEG, SLASHES_SHARE, STRUCK_INK_SHARE); read crossed only
once lit from around it, but darker than their crosses by far, a fraction
of them (LIT_VOTE, LIT_SPECK_SHARE), a pen's mark (PEN_DEEP_INK_MM2) or a
line through a skipped number (LIT_LINE). The notes that
:func:`qwixx_scan.verdict.decide` writes for these doubts are in
:mod:`qwixx_scan.verdict`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .box_model import DECIDER_ROWS
from .own_marks import MIN_CROSSES, hatches
from .skip_lines import (MAX_TILT_DEG, MIN_PX, LoneLines, ink_axes, lone_lines,
                         short_flat_traces, struck_through)
from .verdict import CROSSED_P, EMPTY_P, LIT_FROM_AROUND, BoxVerdict

#: A box read crossed whose mark is one thin line falling to the right at
#: SKIP_LIKE_TILT_DEG (from flat) through the middle of the box (within
#: SKIP_LIKE_OFF_PX of it, of skip_lines' INNER_PX square) is doubtful on a
#: sheet where at most SKIP_LIKE_SHARE of the player's crosses read with
#: confidence (at least own_marks.MIN_CROSSES) are such lone lines at any
#: tilt: like a line through a skipped number drawn less flat than usual,
#: unlike how this player crosses. Two sheets of 13,776 (independent seed
#: 53 photo 6, a pencil line 20 degrees steep through yellow 7 of an X
#: player; table seed 16 photo 36, 22 degrees, blue pen) came out ``ok``
#: with a wrong score, every network sure of a cross (0.92-0.999). Lone
#: lines rising to the right are left alone: that is how a check's long
#: stroke and a slash lie, and such right crosses were most of the 55
#: sheets this rule sent to review when it took both ways; falling to the
#: right only, it doubts 7 right crosses (7 sheets fewer exact).
#:
#: A line rising to the right at RISING_SKIP_TILT_DEG that holds under
#: RISING_SKIP_INK of the ink of the player's middle cross is no check of
#: theirs, though, on a sheet where at most RISING_SKIP_SHARE of their
#: crosses are lone lines: it is doubtful too, wherever it lies in the box.
#: Two sheets came out ``ok`` with a wrong score so: independent seed 93
#: photo 27 (a line rising 27 degrees through a skipped blue 10, left of
#: the middle, on an X player's sheet: 0.19 of their ink, 2 of their 17
#: crosses lone lines) and hard table seed 70 photo 10 (21 degrees through
#: a skipped red 4 of a player circling numbers: 0.27 of the ink, 1 of 23),
#: every network sure of a cross. Of the 1,230 boxes read crossed that are
#: lone lines within 40 degrees of flat, over 21 sets (2,470 photos: seeds
#: 65, 82, 91, 93, 95, 96, 98, hard 66, 92, 94, 97, tables 64, 66, 69, 71,
#: hard tables 65, 67, 68, 70, photogen's 300), the right ones rising so
#: under that ink lay on sheets of check players with 0.16 or more of
#: their crosses lone lines; the lightest right one on a sheet under that
#: share held 0.42 of the ink.
#:
#: On such a sheet a rising line RISING_SKIP_LENGTH times as long as the
#: player's middle cross or longer (the darkened paper's spread along its
#: long axis, skip_lines.LoneLines.length) is doubtful too, whatever its
#: ink: hard independent seed 99 photo 104, a long line rising 22 degrees
#: through a skipped green 5 of a player who crosses with small X's, came
#: out ``ok`` with a wrong score; it held as much ink as their X's (0.50 of
#: the middle one's) and was 1.76 times as long. Of the 54 boxes read
#: crossed that are lone lines rising so on such sheets (23 independent
#: sets and photogen's 300: 2,650 photos), the right ones reached 1.51 (a
#: slash) and 1.48 (an X with one stroke faint), then 1.12; on the 4 sets
#: made after (571 sheets), 1.20.
#: All 31 sets then at hand read again (4,823 sheets with photogen's 300):
#: only that sheet changed.
#:
#: Where the player's crosses spread both ways (their ink's median
#: elongation under ROUND_CROSSES_ELONGATION, skip_lines.ink_axes: X's,
#: circles, fills) and the player strikes skipped numbers through
#: (:func:`strikes_skipped_numbers`), the rising line is doubtful under
#: ROUND_RISING_SKIP_INK of their ink: one stroke of an X holds about half
#: of it, and such a player's lines through skipped numbers lie rising as
#: well as flat. Fresh table 328 photo 5: a red X player who struck 12
#: numbers through drew the line through the skipped green 7 rising 19
#: degrees (0.38 of the ink of their X's), read crossed at 0.994, and the
#: sheet came out ``ok`` with a wrong score. Over the 155 independent sets
#: at hand (15,110 photos), the boxes read crossed on strikers' sheets
#: that are lone lines rising so held, on sheets of players crossing so,
#: 0.42 and 0.45 of the ink where right (pencil X's), on check and slash
#: players' sheets (elongation 2.1-17) from 0.36; the X's elongation
#: reached 2.12 and checks' fell to 1.19 (5th percentiles 1.09 and 2.22).
SKIP_LIKE_TILT_DEG = (12.0, 25.0)
SKIP_LIKE_OFF_PX = (4.5, 4.0)
SKIP_LIKE_SHARE = 0.1
RISING_SKIP_TILT_DEG = (-30.0, -12.0)
RISING_SKIP_INK = 0.35
RISING_SKIP_SHARE = 0.125
RISING_SKIP_LENGTH = 1.6
ROUND_CROSSES_ELONGATION = 1.8
ROUND_RISING_SKIP_INK = 0.4
#: A flat line through the middle of the box (within skip_lines.MAX_TILT_DEG
#: of flat) on such a sheet is doubtful where the networks read it crossed
#: short of FLAT_SKIP_SURE_P: they read nearly every line through a skipped
#: number empty, and the right crosses whose mark is such a line (an X with
#: one stroke faint, a circle's arc) they read surely. Hard independent
#: table 141, photo 32: a red X player's line through a skipped blue 11, its
#: left end hooked down, read crossed at 0.952 (one decider 0.938); the
#: sheet came out ``ok`` with a wrong score. (Its line was found once the
#: photo's grain was allowed for: see skip_lines.GRAIN_PERCENTILE.) Over the
#: 80 independent sets at hand (11,634 sheets), 16 boxes read crossed on
#: such sheets are flat lone lines through the middle: that line and 15
#: right crosses, 13 of them read at 0.999 or more, a pencil X at 0.941 and
#: a pencil fill at 0.962 (on a sheet in review for another box). Doubting
#: every one of them made 13 sheets fewer exact for that one.
FLAT_SKIP_SURE_P = 0.99
#: On the sheet of a player whose crosses are lone lines themselves (at
#: least SLASHES_SHARE of them: slashes), a line through a skipped number
#: is told from a cross by its tilt alone: a box read crossed short of
#: FLAT_SKIP_SURE_P whose lone line lies nearer in tilt to the player's
#: lines through skipped numbers (the lone lines within
#: skip_lines.MAX_TILT_DEG of flat among their boxes read empty, at least
#: MIN_STRUCK_LINES of them: their median) than to their crosses' (median)
#: is doubtful too. Hard independent table 149, photo 9: a player slashing
#: at 31-60 degrees struck yellow 4 through at 21 degrees (their other
#: struck lines 0-12), read crossed at 0.971, and the sheet came out ``ok``
#: with 27 instead of 25. Over the 1,591 photos of the 96 sets at hand
#: holding a slash player's sheet (317 sheets of such players, 114 with
#: struck lines), this doubts that line and 2 right slashes (18.8 and 21.3
#: degrees, read at 0.94 and 0.922); without the sure reading's exemption,
#: 22 right crosses (slashes and flat checks, down to 13 degrees).
SLASHES_SHARE = 0.5
MIN_STRUCK_LINES = 2
#: A thick pen's slashes are seldom found as lone lines (skip_lines'
#: THICKNESS_PX), so SLASHES_SHARE does not judge them; their ink does
#: (skip_lines.ink_axes). On the sheet of a player whose crosses' ink is a
#: line (their median elongation LINE_CROSSES_ELONGATION or more) and who
#: struck skipped numbers through (MIN_STRUCK_LINES boxes read empty with
#: STRUCK_INK_SHARE of their middle cross's ink, elongated
#: STRUCK_ELONGATION), a number box read crossed short of FLAT_SKIP_SURE_P
#: whose ink is one line (SKIP_INK_ELONGATION) lying nearer their struck
#: lines' than their crosses' ink both in tilt (from flat) and in length
#: (medians) is doubtful. Table 268 photo 29: a red felt-pen slash player
#: (1.2 mm; slashes 42 degrees from flat, none found as a lone line) struck
#: yellow 4 through with a shorter line rising 22 degrees, read crossed at
#: 0.90, and the sheet came out ``ok`` with a wrong score. Over the 124
#: independent sets at hand (17,971 sheets), tilt alone (elongation 1.5)
#: doubted 30 boxes: that line, a skip line on an ``invalid`` sheet (hard
#: table 243 photo 24), 3 boxes doubtful already and 25 right slashes and
#: checks drawn 5-30 degrees from flat: those whose ink is one line
#: (SKIP_INK_ELONGATION) 0.85-1.18 times as long as their player's
#: crosses, the others elongated 1.6-3.3; the skip lines 0.79 and 0.63 of
#: their player's crosses, nearer their struck lines' length. With length
#: and elongation, the two skip lines alone.
LINE_CROSSES_ELONGATION = 3.0
SKIP_INK_ELONGATION = 4.0
# A box the networks are unsure of (between verdict.EMPTY_P and verdict.CROSSED_P, leaning
# empty) is taken for a line through a skipped number (verdict.STRUCK_THROUGH) only
# on the sheet of a player who strikes skipped numbers through: at least
# MIN_STRUCK_LINES number boxes read empty show such a line
# (skip_lines.struck_through, as steep as skip_lines.STEEPER_TILT_DEG).
# Players who strike skipped numbers through do it to many: over 138 of the
# independent sets at hand, the other 63 toss-ups taken for such lines (62
# lines, a stray dot) lay on sheets whose truth holds 3 to 24 of them (the
# dot's none), and on all the lines' sheets but one 2 or more were found
# among the boxes read empty. Hard independent seed 234, photo 149
# (blur 2.1 px, JPEG 41): a small black X over red 2, its second stroke
# over the digit, left one flat stroke on the paper beside it; the networks
# split (0.11-0.999), it was taken for such a line on the sheet of a player
# who never draws one (no line among 30 boxes read empty), read empty, and
# the sheet came out ``ok`` with a wrong score. This leaves in doubt that X
# and two boxes besides (a line on a sheet of faint pencil lines the rest
# of which were not found, and the dot); read again, no sheet but that X's
# read otherwise.
#: A pen player who strikes skipped numbers through leaves boxes read empty
#: that hold about as much ink as a cross (STRUCK_INK_SHARE of their middle
#: cross's or more; MIN_STRUCK_LINES such boxes at least). On such a sheet a
#: number box the networks read crossed only once looked at mirrored
#: (box_model.MIRRORED_VIEWS: unsure of it as it is) is doubtful where its
#: ink lies along one axis (skip_lines.ink_axes: STRUCK_ELONGATION or more)
#: tilted nearer those boxes' ink (their median tilt from flat) than their
#: crosses'. Fresh hard independent seed 230, photo 2 (tilted 35 degrees,
#: bent 6 mm, JPEG 43): a check player's blue felt-pen line (1.1 mm) through
#: a skipped red 11, crossing both ones, read 0.80-0.99 by the networks (the
#: deciders' median 0.815 as it was, 0.986 mirrored), and the sheet came out
#: ``ok`` with a wrong score. No lone line was found in it (skip_lines): the
#: pen is thicker than skip_lines.THICKNESS_PX, and the digits, shown a
#: little below the blank's, left pieces of their own beside the line. Over
#: the 140 independent sets at hand (20,317 sheets) this doubted that line
#: and one right cross (table 142 photo 8: a small blue X whose ink lay
#: along one stroke 25 degrees from flat, barely nearer the player's struck
#: lines, 4 degrees, than their crosses, 45).
STRUCK_INK_SHARE = 0.5
STRUCK_ELONGATION = 1.5
STRUCK_LIKE = ("read crossed only once looked at mirrored, and its ink lies like this player's "
               "lines through skipped numbers rather than like their crosses")
#: A box read crossed that holds less than LIGHT_CROSS_SHARE of the ink of
#: the middle one of the sheet's boxes read crossed (at least
#: own_marks.MIN_CROSSES of them) is looked at mirrored too, and doubtful where
#: a deciding network gives it less than LIGHT_VIEW_DOUBT in some view: the
#: overshooting tail of a large check in a neighbour's corner can look like
#: a cross as photographed. On a fresh hard independent photo
#: (foreign_photos.py --hard-share 1, seed 37, photo 12) the tails of two
#: large checks in the corners of the empty box between them read crossed
#: at 0.81-0.999 by every network, and the sheet came out ``ok`` with a
#: wrong score; the box held 0.16 of the ink of the player's crosses, and
#: mirrored, a decider gave it 0.18. Over every benchmark set (9,655
#: sheets, 6,793 crossed boxes under 0.4 of their crosses' ink), this
#: doubted that box and 4 other wrong ones (0.007-0.23 in some mirrored
#: view, all under 0.21 of the ink), and 18 right crosses: 5 sheets fewer
#: exact, wrong boxes 21 -> 17, wrong but ``ok`` 3 -> 2.
#:
#: A pen's cross leaves some of its dark ink (see verdict.NO_DEEP_INK) where a
#: photo's noise does not: a box of a player who writes with a pen (see
#: PEN_DEEP_INK_MM2) holding under NO_DEEP_INK_SHARE of their crosses'
#: middle deep ink is doubtful already where a decider gives it less than
#: INKLESS_VIEW_DOUBT in some mirrored view. On a fresh hard table photo
#: (foreign_photos.py --table, seed 58, photo 19: 42 % exposure, noise 8)
#: an empty red 11 of a blue pen's player read crossed at 0.98, holding
#: 0.19 of the player's ink and none of their deep ink (2.1 mm^2 in the
#: middle cross); mirrored, a decider gave it 0.30, and only another
#: doubtful box kept the sheet from ``ok``. Over the 2,496 sheets
#: of 17 fresh sets, 200 right crosses of pen players held under that share
#: of deep ink (circles round the number, checks, thin slashes); the 82 of
#: them under LIGHT_CROSS_SHARE of the ink gave 0.90 or more in every view.
#: A box the light washes out (see glare.WASHED_OUT) is left to LIGHT_VIEW_DOUBT:
#: glare takes the deep ink with the print (``scan_benchmark.py --spoil
#: glare``, seed 70, photo 14: a right green fill under glare, none of its
#: deep ink left, 0.33 in one mirrored view).
#:
#: A box holding under FAINT_CROSS_SHARE of the player's middle ink is
#: doubted as readily (INKLESS_VIEW_DOUBT), whatever the pen, where the
#: light does not wash it out: a stray dot or flick is no cross. On a fresh
#: table photo (foreign_photos.py --table, seed 69, photo 36: a player
#: filling boxes in black) a small flick in an empty red 10, 0.03 of the
#: player's ink, read crossed at 0.952, one decider at 0.37 mirrored, and
#: the sheet came out ``ok`` with a wrong score. Of the 1,876 boxes read
#: crossed under 0.4 of their player's ink over 16 sets (2,090 photos, seeds
#: 65, 82, 91, 93, 95, 96, hard 66, 92, 94, tables 64, 66, 69, hard tables
#: 65, 67, 68), it was the only wrong one under a tenth; one right cross
#: (a small check, 0.085 of the ink, 0.44 in one view) is doubted with it,
#: then settled by its Kettingen chain: no other sheet changed.
#:
#: A box read crossed only narrowly (below NARROW_CROSS_P) is doubted as
#: readily where it holds under NARROW_FAINT_SHARE of the ink: the
#: networks' hesitation and the missing ink point the same way. On a fresh
#: hard table photo (foreign_photos.py --table --hard-share 1, seed 163,
#: photo 1: blur 1.8 px, JPEG 48) a faint pencil line through sheet D's
#: skipped green 12 read crossed at 0.939 with 0.12 of the player's ink, a
#: decider 0.46 mirrored; too faint to be found as a lone line
#: (skip_lines), it made the sheet ``ok`` with 69 points instead of 62. Of
#: the 454 boxes read crossed at 0.90-0.99 under 0.4 of their player's ink
#: over the 60 independent sets then at hand (8,696 sheets), 12 fall under
#: all three limits: that line, another line through a skipped number
#: doubted already, and 10 right crosses, each doubted already (then taken
#: by the close look or left doubtful); no other sheet was read otherwise.
#: At 0.25 of the ink, 3 right fills more (0.18-0.24 of it, 0.27-0.50
#: mirrored) would have been doubted.
#:
#: On the sheet of a player who hatches with a pen (own_marks.hatches: their
#: crosses are fills), such a box is doubted where a decider gives it less
#: than HATCHED_VIEW_DOUBT in some mirrored view: a quarter of their fill's
#: ink is no fill of theirs, and one thick stroke through the number is how
#: they strike a skipped one. Fresh hard independent seed 220 photo 148
#: (a blue felt pen, 1.2 mm wide): a short line rising through the skipped
#: blue 12, 0.12 of the player's ink, read crossed at 0.99 (0.62 mirrored),
#: and the sheet came out ``ok`` with 136 points instead of 127. Over the
#: 1,642 photos of the 116 sets at hand that hold a player who fills (1,763
#: pen hatchers' sheets), of the boxes read crossed on pen hatchers' sheets
#: under LIGHT_CROSS_SHARE of the ink, that line read under 0.7 in some
#: mirrored view and no other (the lowest right one 0.80); a pencil
#: hatcher's light fills read as low as 0.32, so pencil is left alone.
#: Read again, the 116 sets (16,835 sheets): one right cross more doubted,
#: hard table 159 photo 25's yellow 9, a small green circle (0.14 of the
#: ink, 0.52 mirrored) of a player whose circles darken as much of their
#: boxes as fills do. Not a box the light washes out (glare.WASHED_OUT): glare
#: takes a fill's ink with the print (seed 70 photo 14 under the glare
#: spoil, above).
LIGHT_CROSS_SHARE = 0.25
FAINT_CROSS_SHARE = 0.1
NARROW_FAINT_SHARE = 0.15
LIGHT_VIEW_DOUBT = 0.25
INKLESS_VIEW_DOUBT = 0.5
HATCHED_VIEW_DOUBT = 0.7
#: A box read crossed only narrowly (the deciding networks below
#: NARROW_CROSS_P) that holds almost none of the deep ink of the player's
#: crosses (under NO_DEEP_INK_SHARE of the middle one's, read crossed with
#: confidence, at least own_marks.MIN_CROSSES of them), where those crosses
#: are dark (their middle one DARK_PEN_DEEP_INK_MM2 or more), is doubtful: a
#: dark pen's cross leaves dark ink. On a fresh hard independent photo
#: (foreign_photos.py --hard-share 1, seed 43, photo 87: 40 % of the right
#: exposure, noise 8.8 of 255, a player circling numbers with a thick blue
#: pen) the printed circles of both ends of a Kettingen chain read crossed
#: at 0.909 and 0.918, and the chain rule cannot object to a pair: the
#: sheet came out ``ok`` with a wrong score. They held 0.16 and 0 mm^2 of
#: deep ink, the player's crosses 14 in the middle. Over the readings of
#: every earlier benchmark set (10,688 sheets), no right cross read crossed
#: with confidence fell under all three limits; the nearest were a fill at
#: 0.963 holding 0.8 % of its player's deep ink and one at 0.937 holding 3 %.
#: A box the light washes out (see glare.WASHED_OUT) is left alone: glare washes
#: out the ink with the print (``scan_benchmark.py --spoil glare``, seed 9:
#: three right crosses under glare fell under all three limits, their
#: print showing 0.22-0.34 of the usual contrast; the chain circles above
#: 0.66 and 0.95).
NARROW_CROSS_P = 0.95
NO_DEEP_INK_SHARE = 0.02
DARK_PEN_DEEP_INK_MM2 = 5.0
#: A box read crossed only narrowly (below NARROW_CROSS_P) is looked at
#: mirrored as well, and is doubtful where a deciding network reads it
#: empty (below NARROW_VIEW_DOUBT) in some view. On a fresh hard table photo
#: (foreign_photos.py --table --hard-share 1, seed 67, photo 35: 40 %
#: exposure, noise 8, JPEG 45) a faint pencil line through a skipped blue 6,
#: too grainy to be taken for such a line (see skip_lines), read crossed at
#: 0.912 while the player's crosses read 0.998 and more; one decider gave
#: it 0.12 mirrored, and the sheet came out ``ok`` with a wrong score. Of
#: the 510 boxes read crossed at 0.90-0.99 over 1,210 independent photos
#: (seeds 65, 82, 91, 93, hard 66, 92, 94, tables 64, 66, hard 65, 67),
#: that was the only wrong one; 2 right pencil crosses are doubted with it
#: (0.015 and 0.036 in some view); the next lowest right one gave 0.28.
NARROW_VIEW_DOUBT = 0.25
#: ... and where the box holds under NARROW_SHADE_SHARE of the deep ink of
#: a pen player's crosses (see PEN_DEEP_INK_MM2), where a decider gives it
#: less than INKLESS_VIEW_DOUBT in some view: a shadow darkens a box without
#: a pen's dark strokes. On a fresh table photo (foreign_photos.py --table,
#: seed 240, photo 2: 36 % exposure, noise 11) the shadow of a die lying on
#: the sheet covered an empty red 11 of a black pen's player; it read
#: crossed at 0.949 with 0.06 of their crosses' middle deep ink and 0.61 of
#: their ink, a decider 0.38 mirrored, and the sheet came out ``ok`` with a
#: wrong score. Of the 100 boxes of pen players read crossed at 0.90-0.95
#: over the 70 sets at hand (10,126 sheets), 6 held under 0.2 of that deep
#: ink: that box, and 5 right crosses each 0.90 or more in every view; no
#: right one under 0.3 of it gave less than 0.7. Not a box the light
#: washes out (see glare.WASHED_OUT): glare takes a pen's deep ink with the print.
NARROW_SHADE_SHARE = 0.2
#: A box read crossed only once lit from around it is doubtful where the
#: networks, shown it as it is, lean empty (their median below LIT_VOTE)
#: and its paper is darkened (own_marks.darkened_pixels) over more than
#: LIT_DARKER_THAN_CROSSES times as many pixels as the middle one of the
#: player's crosses read with confidence (at least own_marks.MIN_CROSSES of
#: them): a light fill is no darker than the player's marks, the edge of a
#: shadow across a box in a dim, noisy photo can be. On a fresh hard table
#: photo (foreign_photos.py --table seed 22, photo 39: noise 11, a shadow
#: band, small pencil crosses) an empty box read so, 5.2 times as dark as
#: the player's crosses, made the sheet ``ok`` with a wrong score; of the 74
#: boxes rightly read so over every benchmark set, those the networks lean
#: empty on were at most 0.92 times as dark as the player's crosses.
LIT_VOTE = 0.5
LIT_DARKER_THAN_CROSSES = 2.5
LIT_SHADOW = ("read crossed once the light inside it was taken as that of the paper around "
              "it, but darker than this player's crosses by far (a shadow?)")
#: Lit from around, a light fill shows: on the sheet of a player who does
#: not hatch (own_marks.hatches), whose crosses are strokes, not fills, a
#: box read so is doubtful where the deciding networks, or all five, lean
#: empty on it as it is (their median under LIT_VOTE) and it darkens under
#: LIT_SPECK_SHARE as many pixels as the player's middle cross. Hard
#: independent seed 200, photo 83 (a black-and-white print, blur 2.1 px,
#: small pencil X's): two stray dots beside the 3 of an empty red 3,
#: deciders 0.19, read crossed so (0.973), 7 pixels darkened against the X's
#: 62, and the sheet came out ``ok`` with a wrong score. Over the 7,220
#: photos of the 76 sets then at hand, 117 boxes were read crossed so, 31 of
#: them of players who do not hatch: of the right ones where the deciders
#: leaned empty, the least held 0.45 of their player's darkened pixels (a
#: pencil slash, hard seed 188 photo 137). A hatcher's light fill darkens as
#: little as 0.03 (their fills are darker) and is left alone. All five's
#: median counts as well since stop 66: seed 247 photo 124 (a pencil X
#: player's sheet) had a speck between the digits of an empty red 10, 5
#: pixels darkened against the X's 53, that two deciders read 0.89-0.92 and
#: the other networks 0.005-0.24; read crossed so, it left the sheet ``ok``
#: with a wrong score. Over the 5,223 photos with a pencil sheet of the 172
#: sets then at hand, 45 boxes of players who do not hatch were read crossed
#: so, 5 of them under LIT_SPECK_SHARE: the two specks, and 3 right crosses
#: that the deciders and all five read 0.74 or more.
LIT_SPECK_SHARE = 0.25
#: On such a sheet a box read crossed only once lit that holds under
#: LIT_SPECK_INK_SHARE of the ink of the player's middle cross is doubtful
#: too, whatever the networks say: their crosses need no light. Fresh hard
#: independent table 263, photo 22 (45 % exposure, noise 7, blur 1.65 px,
#: JPEG 45): a stray dot in the empty blue 4 of a player crossing with a
#: blue pen, whose X's the dim photo leaves without a pen's deep ink, read
#: crossed narrowly (0.86) and 0.955 lit, 0.24 of their ink; its dot
#: darkened 0.77 of their X's pixels in the grain and the networks leaned
#: crossed, so the darkened-pixel rule above did not take it, and the sheet
#: came out ``ok`` with a wrong score. Over the 112 independent sets at
#: hand (16,215 sheets), 164 boxes were read crossed only once lit; on the
#: sheets of players who do not hatch, 7 held under 0.3 of their player's
#: ink: that dot, a speck the rule above doubts already, the empty red 8
#: of a player of tiny red X's (0.16, on a sheet in review), and four right
#: crosses (0.06-0.26: pen X's in dim photos, a small X hidden in its
#: digit, a pencil slash); the next right one held 0.41.
LIT_SPECK_INK_SHARE = 0.3
LIT_SPECK = ("read crossed once the light inside it was taken as that of the paper around "
             "it, but it holds a fraction of this player's strokes (a speck?)")
#: Lit from around, a light fill shows; a pen's mark does not need it. A box
#: read crossed only once lit from around it (verdict.LIT_FROM_AROUND) is doubtful
#: where the player's crosses read with confidence (at least
#: own_marks.MIN_CROSSES of them) leave dark ink (their middle one
#: PEN_DEEP_INK_MM2 of deep ink or more: a pen, not a pencil), unless the
#: light washes the box out (any box, as for verdict.NO_DEEP_INK; see glare.WASHED_OUT:
#: under glare, ``scan_benchmark.py --spoil glare``, seed 9, two right
#: crosses in pen read so). At first only such boxes holding less than
#: LIGHT_CROSS_SHARE of the player's middle ink were: on a fresh hard table
#: photo (foreign_photos.py --table seed 33, photo 9: 44 % exposure, a
#: player filling boxes in red) the line through a skipped red 10 read so
#: (0.84 as it was, 0.98 lit), 0.07 of the player's ink. But on hard seed
#: 62, photo 34 (37 % exposure, noise 9, a shadow band) an empty red 4 of a
#: player crossing in blue read so holding 0.57 of their ink, and the sheet
#: came out ``ok`` with a wrong score; right pen crosses read so held as
#: little as 0.36 (of 139 right crosses read so over 14,663 sheets, 8 were
#: pens'). Over the 4,694 sheets of independent photos at hand (seeds 41,
#: 43, 55-71, tables 14, 16, 35-45) taking every such box caught that sheet
#: and doubted two right crosses (a blue slash, a black fill's penalty box);
#: 131 of those 139 right crosses are pencil, which this leaves alone.
PEN_DEEP_INK_MM2 = 1.0
LIT_PEN_MARK = ("read crossed only once the light inside it was taken as that of the paper "
                "around it, which this player's pen does not need (a shadow?)")
#: Lit from around, a line shows as plainly as a light fill. A number box
#: read crossed only once lit from around it (verdict.LIT_FROM_AROUND) whose mark is
#: one line through the number, as a line through a skipped number is
#: (skip_lines.struck_through, as steep as it may be in a doubtful box of
#: this player: see skip_lines_may_be_steeper), is doubtful. Fresh hard
#: independent seed 232, photo 143 (blur 1.9 px, noise 6.4, JPEG 60): a
#: pencil X player's line rising 17 degrees through a skipped red 5, a
#: toss-up between the networks (0.22-0.92), read crossed lit (0.965), and
#: the sheet came out ``ok`` with a wrong score; the rules for lines
#: through skipped numbers read crossed (SKIP_LIKE_TILT_DEG) judge only the
#: boxes the networks read crossed. Over the 140 independent sets at hand
#: (20,317 sheets) this doubted that line and two right crosses, a pencil
#: circle's arc (hard seed 230 photo 27) and a small black check (hard
#: table 187 photo 7). Such a box is asked as the darker and close looks
#: ask theirs too (skip_like_marks: on a striking player's sheet a line of
#: SPARSE_LINE_PX pixels, a short flat trace between the digits): fresh
#: hard seed 338, photo 15 (tilted 40 degrees, paper bent 6 mm), a pencil
#: slashing player who strikes skipped numbers drew a line falling 18
#: degrees through the skipped red 11, between its digits, 8 px of it, too
#: few for struck_through; the networks split (0.5), lit it read crossed,
#: and the sheet came out ``ok`` with 82 instead of 73.
LIT_LINE = ("read crossed once the light inside it was taken as that of the paper around it, "
            "but its mark is one line through the number, like a line through a skipped number")


def _crosses_spread_both_ways(inputs: np.ndarray, crossed: np.ndarray) -> bool:
    """Whether the player's crosses (``crossed``, see :func:`read_crossed`)
    are round, their ink's median elongation (skip_lines.ink_axes) under
    ROUND_CROSSES_ELONGATION: X's, circles, fills, not checks or slashes."""
    return bool(np.median(ink_axes(inputs[crossed]).elongation) < ROUND_CROSSES_ELONGATION)


def read_crossed(crossed_p: np.ndarray) -> np.ndarray | None:
    """The boxes the networks read crossed, which show what this player's
    crosses look like; None where fewer than own_marks.MIN_CROSSES, too few
    to tell."""
    crossed = crossed_p >= CROSSED_P
    return crossed if np.count_nonzero(crossed) >= MIN_CROSSES else None


def writes_with_a_pen(crossed: np.ndarray | None, deep_ink_mm2: np.ndarray,
                      at_least: float = PEN_DEEP_INK_MM2) -> bool:
    """Whether this player's crosses (``crossed``, see :func:`read_crossed`)
    leave ``at_least`` mm^2 of deep ink (``deep_ink_mm2`` per box) in the
    middle: a pen's, not a pencil's."""
    return crossed is not None and float(np.median(deep_ink_mm2[crossed])) >= at_least


def light_crosses_doubted(inputs: np.ndarray, crossed: np.ndarray | None,
                          ink_mm2: np.ndarray, pen: bool, washed: np.ndarray,
                          classifier, crossed_p: np.ndarray, *,
                          pen_hatcher: bool = False) -> np.ndarray:
    """Per box, whether it is read crossed with far less ink than the
    player's crosses (``crossed``, see :func:`read_crossed`) and a deciding
    network doubts it in a mirrored view (see LIGHT_CROSS_SHARE); ``ink_mm2``:
    each box's ink and deep ink; ``pen``: the player writes with a pen (see
    :func:`writes_with_a_pen`), whose boxes holding none of its deep ink are
    doubted more readily (INKLESS_VIEW_DOUBT), as are boxes holding hardly
    any of their ink (FAINT_CROSS_SHARE; read crossed only narrowly,
    ``crossed_p``, NARROW_FAINT_SHARE), where the light does not wash them
    out (``washed``, see glare.WASHED_OUT), and on a ``pen_hatcher``'s sheet
    every such box the light does not wash out (HATCHED_VIEW_DOUBT)."""
    doubted = np.zeros(len(ink_mm2), bool)
    if crossed is None:
        return doubted
    ink, deep = ink_mm2[:, 0], ink_mm2[:, 1]
    theirs = np.median(ink[crossed])
    light = np.flatnonzero(crossed & (ink < LIGHT_CROSS_SHARE * theirs))
    if len(light):
        limit = np.full(len(light), LIGHT_VIEW_DOUBT)
        faint = ((ink < FAINT_CROSS_SHARE * theirs)
                 | ((ink < NARROW_FAINT_SHARE * theirs) & (crossed_p < NARROW_CROSS_P))) & ~washed
        if pen:
            faint |= without_their_deep_ink(deep, crossed, washed)
        limit[faint[light]] = INKLESS_VIEW_DOUBT
        if pen_hatcher:  # not where the light washes a fill's ink out with the print
            limit[~washed[light]] = HATCHED_VIEW_DOUBT
        doubted[light] = classifier.least_mirrored_decider_probability(inputs[light]) < limit
    return doubted


# The close look (closer_look.CLOSE_CROSSED_P) takes no box whose mark is a
# lone line rising to the right at RISING_SKIP_TILT_DEG through the middle
# (SKIP_LIKE_OFF_PX) on a sheet where at most SKIP_LIKE_SHARE of the
# player's crosses are lone lines, whatever its ink or length: the
# networks could not decide on it, and that is how a line through a
# skipped number lies, not how this player crosses. Fresh independent
# seed 293 photo 8 (a normal photo: 28 degrees of tilt, blur 1 px): a
# pencil X player's line rising 21 degrees through a skipped blue 9, its
# end hooked back, 0.39 of their ink and 1.3 times as long as their X's,
# a toss-up between the networks (0.20-0.997), read 0.976-0.995 close up,
# was taken, and the sheet came out ``ok`` with a wrong score. Over the
# 116 independent sets at hand (16,797 sheets), of the 132 boxes the close
# look would take (130 taken), this line is the only lone line within 30
# degrees of flat but one right X falling 20 degrees through a green 2,
# which the falling rule keeps from it already.
#: On the sheet of a player who strikes skipped numbers through
#: (:func:`strikes_skipped_numbers`), the boxes these looks would take are
#: judged as lone lines from SPARSE_LINE_PX darkened pixels
#: (skip_lines.MIN_PX elsewhere): a light line through a number shows on
#: the paper only in pieces beside and between the digits. Fresh hard
#: independent table 295, photo 20 (blur 2 px, JPEG 45): a pencil X
#: player's line falling 15 degrees through a skipped yellow 9 of Treden C
#: (a step box) darkened 7 pixels of its paper and held 0.03 mm^2 of ink;
#: the networks read it 0.98, doubted for its want of ink
#: (verdict.HARDLY_ANY_INK), and the darker look (read.DARKER_LOOKS), which
#: asked nothing of the kind, took it: the sheet came out ``ok`` with 148
#: points instead of 131; that player struck 13 numbers through. Over the
#: 83 independent sets at hand and their stained copies (9,780 photos), of
#: the 342 boxes the two looks took, from 5 pixels on that line alone is
#: judged so besides those judged so already; from 4 pixels a right fill's
#: trace too. Not on other players' sheets: every photo hard independent
#: seed 110, photo 92, a small X of a thin pencil over yellow 2 showed one
#: stroke's 5 pixels falling 13 degrees (a player who strikes no number
#: through).
SPARSE_LINE_PX = 5


def skip_like_marks(inputs: np.ndarray, crossed: np.ndarray | None, ink_mm2: np.ndarray,
                    numbered: np.ndarray, crossed_p: np.ndarray, among: np.ndarray, *,
                    grain: float = 0.0, their_lines: LoneLines | None = None) -> np.ndarray:
    """:func:`skip_like_crosses` for the boxes ``among``, each as if read
    crossed, their lone lines judged from SPARSE_LINE_PX pixels where the
    player strikes skipped numbers through, and besides any number box
    among them whose mark is a short flat trace, what a line through a
    skipped number leaves between the digits (skip_lines.short_flat_traces,
    see closer_look.CLOSE_CROSSED_P), or a line rising through its middle
    on the sheet of a player whose crosses are seldom lone lines (see the
    note above)."""
    sparse = strikes_skipped_numbers(inputs, crossed_p, numbered, grain)
    like = skip_like_crosses(inputs, crossed, ink_mm2, numbered, crossed_p, among, grain=grain,
                             their_lines=their_lines, rising_through_middle=True,
                             min_px=SPARSE_LINE_PX if sparse else MIN_PX)
    like[among] |= numbered[among] & short_flat_traces(inputs[among])
    return like


def skip_like_crosses(inputs: np.ndarray, crossed: np.ndarray | None, ink_mm2: np.ndarray,
                      numbered: np.ndarray, crossed_p: np.ndarray,
                      among: np.ndarray | None = None, *, grain: float = 0.0,
                      their_lines: LoneLines | None = None,
                      rising_through_middle: bool = False,
                      min_px: float = MIN_PX) -> np.ndarray:
    """Per box, whether it is a number box (``numbered``) read crossed whose
    mark looks like a line through a skipped number on a sheet whose
    player's crosses (``crossed``, see :func:`read_crossed`) are not lone
    lines (see SKIP_LIKE_TILT_DEG): falling to the right through the middle,
    rising to the right with far less ink (``ink_mm2``) than their crosses
    (RISING_SKIP_INK; ROUND_RISING_SKIP_INK where they are round and the
    player strikes numbers through) or far longer than they are
    (RISING_SKIP_LENGTH), or flat through the middle and read crossed
    (``crossed_p``) short of FLAT_SKIP_SURE_P.
    ``among``: the boxes judged (indices), each as if read crossed; by
    default those read crossed. ``grain``: see skip_lines.paper_grain;
    ``their_lines``: the lone lines of the boxes ``crossed``, where known
    already; ``rising_through_middle``: any line rising to the right through
    the middle, whatever its ink or length, as the close look asks (see the
    note before :func:`skip_like_marks`); ``min_px``: the fewest darkened
    pixels of a lone line in a box of ``among`` (skip_lines.lone_lines)."""
    out = np.zeros(len(numbered), bool)
    if crossed is None:
        return out
    at = np.flatnonzero(crossed)
    theirs = lone_lines(inputs[at], grain=grain) if their_lines is None else their_lines
    lone_share = np.mean(theirs.found)
    judged = at if among is None else among
    line = theirs if among is None else lone_lines(inputs[judged], grain=grain, min_px=min_px)
    low, high = SKIP_LIKE_TILT_DEG  # (+: falling to the right, y down)
    through_middle = ((lone_share <= SKIP_LIKE_SHARE)
                      & (np.abs(line.off_x) <= SKIP_LIKE_OFF_PX[0])
                      & (np.abs(line.off_y) <= SKIP_LIKE_OFF_PX[1]))
    falling = through_middle & (line.tilt_deg >= low) & (line.tilt_deg <= high)
    flat = (through_middle & (np.abs(line.tilt_deg) <= MAX_TILT_DEG)
            & (crossed_p[judged] < FLAT_SKIP_SURE_P))
    low, high = RISING_SKIP_TILT_DEG
    rising_tilt = (line.tilt_deg >= low) & (line.tilt_deg <= high)
    their_ink = np.median(ink_mm2[at])
    rising = ((lone_share <= RISING_SKIP_SHARE) & rising_tilt
              & ((ink_mm2[judged] < RISING_SKIP_INK * their_ink)
                 | (line.length >= RISING_SKIP_LENGTH * np.median(theirs.length))))
    # (the player's crosses and struck lines looked at only where they decide)
    round_rising = (line.found & (lone_share <= RISING_SKIP_SHARE) & rising_tilt & ~rising
                    & (ink_mm2[judged] < ROUND_RISING_SKIP_INK * their_ink))
    if (round_rising.any() and _crosses_spread_both_ways(inputs, crossed)
            and strikes_skipped_numbers(inputs, crossed_p, numbered, grain)):
        rising |= round_rising
    if rising_through_middle:
        rising |= through_middle & rising_tilt
    out[judged[line.found & (falling | flat | rising)]] = True
    if lone_share >= SLASHES_SHARE:
        out[judged[_tilted_like_their_struck_lines(inputs, crossed_p, numbered, theirs, line,
                                                   judged, grain)]] = True
    out[_inked_like_their_struck_lines(inputs, crossed, ink_mm2, numbered, crossed_p,
                                       judged)] = True
    return out & numbered


def _tilted_like_their_struck_lines(inputs: np.ndarray, crossed_p: np.ndarray,
                                    numbered: np.ndarray, theirs: LoneLines, line: LoneLines,
                                    judged: np.ndarray, grain: float) -> np.ndarray:
    """Per judged box (``judged``, their lone lines ``line``), whether it is
    a lone line read (``crossed_p``) short of FLAT_SKIP_SURE_P whose tilt
    lies nearer the player's lines through skipped numbers than their
    crosses' (``theirs``; see SLASHES_SHARE)."""
    out = np.zeros(len(judged), bool)
    ask = line.found & (crossed_p[judged] < FLAT_SKIP_SURE_P)
    if not ask.any() or not theirs.found.any():
        return out
    empty = np.flatnonzero((crossed_p <= EMPTY_P) & numbered)
    struck = lone_lines(inputs[empty], grain=grain)
    flat = np.abs(struck.tilt_deg[struck.found])
    flat = flat[flat <= MAX_TILT_DEG]
    if len(flat) < MIN_STRUCK_LINES:
        return out
    tilt = np.abs(line.tilt_deg)
    return ask & (np.abs(tilt - np.median(flat))
                  < np.abs(tilt - np.median(np.abs(theirs.tilt_deg[theirs.found]))))


def _inked_like_their_struck_lines(inputs: np.ndarray, crossed: np.ndarray,
                                   ink_mm2: np.ndarray, numbered: np.ndarray,
                                   crossed_p: np.ndarray, judged: np.ndarray) -> np.ndarray:
    """The number boxes among ``judged`` (box indices) read (``crossed_p``)
    short of FLAT_SKIP_SURE_P whose ink is one line (SKIP_INK_ELONGATION)
    lying nearer, in tilt and in length, the ink of the player's struck
    boxes than that of their crosses (``crossed``), on the sheet of a
    player whose crosses are lines themselves (see LINE_CROSSES_ELONGATION)."""
    ask = judged[numbered[judged] & (crossed_p[judged] < FLAT_SKIP_SURE_P)]
    if not len(ask):
        return ask
    box = ink_axes(inputs[ask])
    ask, tilt, length = (v[box.elongation >= SKIP_INK_ELONGATION]
                         for v in (ask, np.abs(box.tilt_deg), box.length_px))
    if not len(ask):
        return ask
    at = np.flatnonzero(crossed)
    theirs = ink_axes(inputs[at])
    if not np.median(theirs.elongation) >= LINE_CROSSES_ELONGATION:
        return ask[:0]
    lines = ink_axes(inputs[_inked_struck_boxes(crossed_p, ink_mm2, numbered, crossed)])
    drawn = lines.elongation >= STRUCK_ELONGATION
    if np.count_nonzero(drawn) < MIN_STRUCK_LINES:
        return ask[:0]

    def nearer_struck(box: np.ndarray, their: np.ndarray, struck: np.ndarray) -> np.ndarray:
        return np.abs(box - np.median(struck)) < np.abs(box - np.nanmedian(their))

    return ask[nearer_struck(tilt, np.abs(theirs.tilt_deg), np.abs(lines.tilt_deg[drawn]))
               & nearer_struck(length, theirs.length_px, lines.length_px[drawn])]


def _inked_struck_boxes(crossed_p: np.ndarray, ink_mm2: np.ndarray, numbered: np.ndarray,
                        crossed: np.ndarray) -> np.ndarray:
    """The number boxes read empty (``crossed_p``) that hold STRUCK_INK_SHARE
    of the ink of the player's middle cross (``crossed``) or more, as a
    line through a skipped number does (indices)."""
    return np.flatnonzero((crossed_p <= EMPTY_P) & numbered
                          & (ink_mm2 >= STRUCK_INK_SHARE * float(np.median(ink_mm2[crossed]))))


def strikes_skipped_numbers(inputs: np.ndarray, crossed_p: np.ndarray, numbered: np.ndarray,
                            grain: float) -> bool:
    """Whether at least MIN_STRUCK_LINES number boxes read empty (``crossed_p``)
    show a line through a skipped number (skip_lines.struck_through, as steep
    as STEEPER_TILT_DEG): the sheet of a player who strikes them through."""
    return len(_struck_boxes(inputs, crossed_p, numbered, grain)) >= MIN_STRUCK_LINES


def _struck_boxes(inputs: np.ndarray, crossed_p: np.ndarray, numbered: np.ndarray,
                  grain: float) -> np.ndarray:
    """The number boxes read empty (``crossed_p``) that show a line through a
    skipped number (skip_lines.struck_through, as steep as STEEPER_TILT_DEG):
    indices."""
    empty = np.flatnonzero((crossed_p <= EMPTY_P) & numbered)
    return empty[struck_through(inputs[empty], steeper=True, grain=grain)]


#: On the sheet of a player who crosses with X's (their crosses' ink
#: spreading both ways, ROUND_CROSSES_ELONGATION, and neither circling the
#: numbers nor filling the boxes: own_marks.circles, own_marks.hatches) and
#: strikes skipped numbers through (:func:`strikes_skipped_numbers`), a
#: number box read crossed only narrowly (NARROW_CROSS_P) that holds under
#: LIGHT_CROSS_SHARE of the ink of their middle cross, nearer the ink of
#: their lines through skipped numbers (the middle one's) than of their
#: crosses, is doubtful: an X of theirs holds much more. Fresh hard table
#: 329 photo 9 (exposure 0.46, noise 5, JPEG 45): a pencil X player who
#: struck 16 numbers through left a short line through the skipped green 5,
#: 0.16 of their X's ink (their struck lines 0.19), not a lone line in the
#: grain, read crossed at 0.942 (0.70 in its lowest mirrored view), and the
#: sheet came out ``ok`` with a wrong score. Over the 155 independent sets at
#: hand (15,110 photos), the boxes read so on the sheets of strikers who
#: cross with X's (their truth) were 45 lines through skipped numbers, 12
#: empty boxes and no cross; on the sheets of players who fill or circle
#: lightly in pencil, 106 right crosses, which the player's kind keeps out.
#: A filler is told by the share of their boxes their crosses darken
#: (own_marks.hatches), here from X_PLAYER_MAX_COVER: at the reader's
#: HATCHING_COVER a pencil filler on a folded copy of hard table 303
#: (photo 36, 0.159) was taken for an X player and a right fill doubted.
#: Over 980 photos (seeds 351-356, tables 322-323), pencil X players'
#: crosses darkened 0.024-0.287 of their boxes (median 0.12, the fresh
#: one above 0.114), pencil fillers' 0.160-0.450. Not where the light
#: washes a box out (glare takes ink with the print), as for the other
#: light crosses. Every set at hand read again (18,890 photos): besides the
#: two fresh sheets, only seed 257 photo 2 under `--spoil glare` read
#: otherwise, a right pencil X at 0.07 of the ink under the lamp (not washed
#: out by glare.WASHED_OUT's measure), doubted on a sheet in review before.
X_PLAYER_MAX_COVER = 0.14


def light_lines_of_an_x_striker(inputs: np.ndarray, crossed: np.ndarray | None,
                                ink_mm2: np.ndarray, numbered: np.ndarray,
                                crossed_p: np.ndarray, darkened: np.ndarray,
                                paper_px: np.ndarray, washed: np.ndarray, *,
                                circling: bool, grain: float = 0.0) -> np.ndarray:
    """Per box, whether it is a number box read crossed only narrowly with
    the ink of a struck line on the sheet of a player who crosses with X's
    and strikes skipped numbers through (see the note above). ``crossed``:
    see :func:`read_crossed`; ``ink_mm2``: each box's ink; ``darkened`` and
    ``paper_px``: how many of each box's paper pixels a mark darkens, and
    how many there are (own_marks.darkened_pixels, own_marks.paper_pixels);
    ``washed``: every box whose print the light washes out (see
    glare.WASHED_OUT), left alone; ``circling``: the player circles the
    numbers (own_marks.circles); ``grain``: see skip_lines.paper_grain."""
    out = np.zeros(len(crossed_p), bool)
    if crossed is None:
        return out
    their_ink = float(np.median(ink_mm2[crossed]))
    ask = (crossed & numbered & (crossed_p < NARROW_CROSS_P) & ~washed
           & (ink_mm2 < LIGHT_CROSS_SHARE * their_ink))
    if not ask.any():
        return out
    if (circling or not _crosses_spread_both_ways(inputs, crossed)
            or hatches(crossed, darkened, paper_px, cover=X_PLAYER_MAX_COVER)):
        return out
    struck = _struck_boxes(inputs, crossed_p, numbered, grain)
    if len(struck) < MIN_STRUCK_LINES:
        return out
    struck_ink = float(np.median(ink_mm2[struck]))
    return ask & (np.abs(ink_mm2 - struck_ink) < np.abs(ink_mm2 - their_ink))


def skip_lines_may_be_steeper(inputs: np.ndarray, crossed: np.ndarray | None,
                              grain: float = 0.0,
                              their_lines: LoneLines | None = None) -> bool:
    """Whether this player's crosses (``crossed``, see :func:`read_crossed`)
    are hardly ever lone lines (SKIP_LIKE_SHARE), so that a lone line in a
    doubtful box may be taken as a line through a skipped number up to
    skip_lines.STEEPER_TILT_DEG from flat (see skip_lines.struck_through).
    ``grain``: see skip_lines.paper_grain; ``their_lines``: the lone lines
    of the boxes ``crossed``, where known already."""
    if crossed is None:
        return False
    if their_lines is None:
        their_lines = lone_lines(inputs[crossed], grain=grain)
    return bool(np.mean(their_lines.found) <= SKIP_LIKE_SHARE)


def narrow_crosses_without_deep_ink(crossed: np.ndarray | None, crossed_p: np.ndarray,
                                    deep_ink_mm2: np.ndarray,
                                    washed: np.ndarray) -> np.ndarray:
    """Per box, whether it is read crossed only narrowly holding almost
    none of the deep ink of a dark pen's crosses (the player's, ``crossed``,
    see :func:`read_crossed`), where the light does not wash it out
    (``washed``: every box whose print the light washes out, see glare.WASHED_OUT and
    NARROW_CROSS_P)."""
    if crossed is None:
        return np.zeros(len(crossed_p), bool)
    if float(np.median(deep_ink_mm2[crossed])) < DARK_PEN_DEEP_INK_MM2:
        return np.zeros(len(crossed_p), bool)
    return crossed & (crossed_p < NARROW_CROSS_P) & without_their_deep_ink(deep_ink_mm2, crossed,
                                                                             washed)


def narrow_crosses_doubted_mirrored(inputs: np.ndarray, crossed_p: np.ndarray,
                                    classifier, *, shaded: np.ndarray | None = None
                                    ) -> np.ndarray:
    """Per box, whether it is read crossed only narrowly and a deciding
    network reads it empty in some mirrored view (see NARROW_VIEW_DOUBT), or
    leans empty where it is ``shaded`` (bool per box: dark without a pen's
    deep ink, see NARROW_SHADE_SHARE)."""
    out = np.zeros(len(crossed_p), bool)
    narrow = np.flatnonzero((crossed_p >= CROSSED_P) & (crossed_p < NARROW_CROSS_P))
    if len(narrow):
        limit = np.full(len(narrow), NARROW_VIEW_DOUBT)
        if shaded is not None:
            limit[shaded[narrow]] = INKLESS_VIEW_DOUBT
        out[narrow] = classifier.least_mirrored_decider_probability(inputs[narrow]) < limit
    return out


def without_their_deep_ink(deep_ink_mm2: np.ndarray, crossed: np.ndarray,
                           washed: np.ndarray, share: float = NO_DEEP_INK_SHARE) -> np.ndarray:
    """Per box, whether it holds almost none of the deep ink of the player's
    crosses (``crossed``; under ``share`` of the middle one's) where the
    light does not wash it out (``washed``, see glare.WASHED_OUT): glare takes a
    pen's deep ink with the print."""
    return (deep_ink_mm2 < share * np.median(deep_ink_mm2[crossed])) & ~washed


def doubt_dark_lit_crosses(verdicts: list[BoxVerdict], crossed: np.ndarray | None,
                           inputs: np.ndarray, darkened: np.ndarray, paper_px: np.ndarray,
                           ink_mm2: np.ndarray, classifier) -> list[BoxVerdict]:
    """The verdicts with every box read crossed only once lit from around it
    (verdict.LIT_FROM_AROUND) doubtful where it looks like a shadow or a speck rather
    than a light fill: darker than the player's crosses (``crossed``, see
    :func:`read_crossed`) by far (see LIT_DARKER_THAN_CROSSES), or, on the
    sheet of a player who does not hatch, a fraction of a cross (see
    LIT_SPECK_SHARE, LIT_SPECK_INK_SHARE). ``darkened``:
    own_marks.darkened_pixels of every box; ``paper_px``: how many pixels of
    each box's middle are paper; ``ink_mm2``: each box's ink."""
    lit = np.array([v.note == LIT_FROM_AROUND for v in verdicts])
    if crossed is None or not lit.any():
        return verdicts
    theirs = float(np.median(darkened[crossed]))
    their_ink = float(np.median(ink_mm2[crossed]))
    strokes = not hatches(crossed, darkened, paper_px)
    each = classifier.each_probability(inputs[lit])
    vote = np.median(each, axis=0)
    deciders = np.median(each[DECIDER_ROWS], axis=0)
    out = list(verdicts)
    for i, v, d in zip(np.flatnonzero(lit), vote, deciders):
        shadow = v < LIT_VOTE and darkened[i] > LIT_DARKER_THAN_CROSSES * theirs
        speck = strokes and ((min(d, v) < LIT_VOTE and darkened[i] < LIT_SPECK_SHARE * theirs)
                             or ink_mm2[i] < LIT_SPECK_INK_SHARE * their_ink)
        note = LIT_SHADOW if shadow else LIT_SPECK if speck else None
        if note:
            out[i] = BoxVerdict(verdicts[i].box_id, "uncertain", 0.3, note,
                                found_at_mm=verdicts[i].found_at_mm)
    return out


def doubt_lit_lines(verdicts: list[BoxVerdict], inputs: np.ndarray, numbered: np.ndarray,
                    crossed: np.ndarray | None, grain: float,
                    their_lines: LoneLines | None,
                    skip_like: Callable[[np.ndarray], np.ndarray] | None = None
                    ) -> list[BoxVerdict]:
    """The verdicts with every number box (``numbered``) read crossed only
    once lit from around it (verdict.LIT_FROM_AROUND) doubtful where its mark is a
    line through a skipped number (see LIT_LINE). ``crossed``,
    ``their_lines``: the player's crosses and their lone lines (see
    :func:`skip_lines_may_be_steeper`); ``grain``: see
    skip_lines.paper_grain; ``skip_like``: per box, given the indices of
    those asked, whether its mark is like a line through a skipped number
    as the other looks judge it (:func:`skip_like_marks`)."""
    lit = np.flatnonzero(np.array([v.note == LIT_FROM_AROUND for v in verdicts], bool) & numbered)
    if not len(lit):
        return verdicts
    steeper = skip_lines_may_be_steeper(inputs, crossed, grain, their_lines)
    struck = struck_through(inputs[lit], steeper=steeper, grain=grain)
    if skip_like is not None:
        struck |= skip_like(lit)[lit]
    lines = lit[struck]
    out = list(verdicts)
    for i in lines:
        out[i] = BoxVerdict(verdicts[i].box_id, "uncertain", 0.3, LIT_LINE)
    return out


def struck_like_their_lines(verdicts: list[BoxVerdict], inputs: np.ndarray,
                            crossed_p: np.ndarray, ink_mm2: np.ndarray, numbered: np.ndarray,
                            crossed: np.ndarray | None,
                            mirrored_cross: np.ndarray) -> list[BoxVerdict]:
    """The verdicts, of a pen player, with every number box (``numbered``)
    read crossed only once looked at mirrored (``mirrored_cross``, see
    box_model.CrossedReading) doubtful where its ink lies like the player's
    lines through skipped numbers rather than like their crosses
    (``crossed``, see :func:`read_crossed`): see STRUCK_LIKE.
    ``crossed_p``: the networks' reading, ``ink_mm2``: ink per box."""
    ask = np.flatnonzero(mirrored_cross & numbered
                         & np.array([v.state == "crossed" and not v.note for v in verdicts]))
    if crossed is None or not len(ask):
        return verdicts
    struck = _inked_struck_boxes(crossed_p, ink_mm2, numbered, crossed)
    if len(struck) < MIN_STRUCK_LINES:
        return verdicts
    # how far from flat their crosses' ink and their struck boxes' lie
    their_tilts, struck_tilts = (np.abs(t[~np.isnan(t)]) for t in
                                 (ink_axes(inputs[at]).tilt_deg for at in (crossed, struck)))
    if not len(their_tilts) or not len(struck_tilts):
        return verdicts
    axes = ink_axes(inputs[ask])
    tilt = np.abs(axes.tilt_deg)  # (NaN, inkless: never like either)
    like = ((axes.elongation >= STRUCK_ELONGATION)
            & (np.abs(tilt - np.median(struck_tilts)) < np.abs(tilt - np.median(their_tilts))))
    out = list(verdicts)
    for i in ask[like]:
        out[i] = BoxVerdict(verdicts[i].box_id, "uncertain", 0.3, STRUCK_LIKE,
                            found_at_mm=verdicts[i].found_at_mm)
    return out


def doubt_pens_lit_crosses(verdicts: list[BoxVerdict], washed: np.ndarray) -> list[BoxVerdict]:
    """The verdicts, of a player who writes with a pen (see
    :func:`writes_with_a_pen`), with every box read crossed only once lit
    from around it (verdict.LIT_FROM_AROUND) doubtful where the light does not wash
    the box out (``washed``: every box whose print the light washes out, see
    glare.WASHED_OUT)."""
    return [BoxVerdict(v.box_id, "uncertain", 0.3, LIT_PEN_MARK, found_at_mm=v.found_at_mm)
            if v.note == LIT_FROM_AROUND and not washed[i] else v
            for i, v in enumerate(verdicts)]
