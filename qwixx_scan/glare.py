"""Light that washes a box out: a lamp's reflection, a photo too bright.

A reflection leaves the print and the ink a share of their contrast
(:func:`print_contrast`): a box whose print shows too little of what the
sheet's empty boxes show (WASHED_OUT) is doubtful where it reads empty,
unless on a pen player's sheet the networks read it empty with confidence
once its contrast is restored (:func:`restored_contrast`, RESTORED_EMPTY);
a penalty box's bare outline is judged by its paper's brightness
(GLARED_PENALTY_SHARE). A photo white to the brim loses light pencil
(CLIPPED_SHARE): a box read empty there is doubtful unless the player's
crosses stay in sight. :func:`washed_out_boxes` and
:func:`overexposed_boxes` find such boxes for
:func:`qwixx_scan.read.read_marks`; the notes are
verdict.WASHED_OUT_NOTE and verdict.OVEREXPOSED_NOTE.
"""

from __future__ import annotations

import cv2
import numpy as np

from qwixx_print.layout import Sheet

from .box_inputs import PHOTO_CAP, LocatedInputs, ReaderReference
from .box_model import close_look
from .own_marks import MIN_CROSSES, ink_colours
from .verdict import CROSSED_P, EMPTY_P

#: A lamp reflected by the paper washes a patch of the sheet out: print and
#: ink there keep a fraction of their contrast, and a cross under it can
#: read empty with confidence (the print's match, being normalised, does
#: not see it). A number or lock box whose print shows less than
#: WASHED_OUT of the contrast this sheet's empty boxes show (print_contrast,
#: their median) is doubtful where it reads empty. On 150 independent
#: photos (seed 9) with a strong glare spot on each sheet (a first set made
#: for it), 15 crossed boxes read empty and 6 sheets came out ``ok`` and
#: wrong; their number boxes showed 0.20-0.38 (one 0.54). On
#: ``benchmarks/scan_benchmark.py --spoil glare`` (seed 9): 3 sheets ``ok``
#: and wrong -> 0, 8 wrong boxes -> 4. Over every benchmark set without glare
#: (5,740 photos) no empty number or lock box was doubted by it. Penalty
#: boxes are left out: their thin outline measures too roughly (empty ones
#: of those sets went down to 0.07, and a thumb over the last one to 0),
#: overlapping what glare leaves of them (0.11 and 0.22 on that set); the
#: paper's brightness tells glare there (GLARED_PENALTY_SHARE).
WASHED_OUT = 0.45
#: A player who writes without a pen (pencil) loses a cross in a reflection
#: sooner: the stroke is lighter than the print, so it fades while the
#: print still shows. On such sheets a box read empty is doubtful below
#: PENCIL_WASHED_OUT. Independent seed 109 photo 30 under the glare spoil: a
#: pencil X over green 9, at 0.47 of the print contrast of the sheet's
#: empty boxes, read empty at 0.0003 on a sheet ``ok``. Over 853 pencil
#: sheets without glare (23 single-sheet independent sets and photogen's
#: 300) no box is under 0.5; on 128 pencil sheets of the glare spoils of
#: seeds 70, 103 and 109 it doubts that cross and 31 empty boxes (24
#: sheets), which the reflection washed out as far. Raised from 0.5 to 0.6:
#: independent seeds 187 (photo 21) and 179 (photo 80) under the glare
#: spoil, a small pencil X over blue 3 and one over red 10 at 0.51 and 0.52,
#: read empty at 0.001-0.002 on sheets ``ok``. Over the 52 independent sets
#: at hand without glare (7,558 sheets), pencil sheets' number and lock
#: boxes read empty go under 0.6 twice, both under 0.5 already; over six
#: glare spoils (900 photos), 10 pencil crosses read empty lie at 0.5-0.6.
#: The glare spoils of eight sets (1,200 photos): 5 -> 3 sheets ``ok`` and
#: wrong, 25 -> 18 wrong boxes, 847 -> 833 exact. A sheet with too few
#: crosses to tell pen from pencil keeps 0.5 (UNTOLD_WASHED_OUT): a light
#: slip over a box of a blank sheet, reaching over its neighbours' edges,
#: took their print down to 0.5-0.6 (tests/test_read.py).
PENCIL_WASHED_OUT = 0.6
UNTOLD_WASHED_OUT = 0.5
#: A pen's box read empty is doubtful below PEN_WASHED_OUT, more than the
#: WASHED_OUT that tells the light washes a box out for the other rules:
#: the boxes a pen player's restored view reads empty with confidence are
#: cleared (see RESTORED_EMPTY), so a higher limit only asks about boxes
#: the restored view is unsure of. Independent seed 201 photo 54 under the
#: glare spoil: a black slash over blue 9, at 0.456 of the print's
#: contrast, read empty (0.03; restored, 0.10) on a sheet ``ok``. Over the
#: glare spoils of twelve sets (1,800 photos), pens' number and lock boxes
#: read empty at 0.45-0.55 that the restored view does not read empty: 4
#: crosses (that slash, 0.10; others at 0.17, 0.5 and 1.0), 2 empty boxes
#: (0.07, and a dot 0.5); at 0.55-0.6 none.
PEN_WASHED_OUT = 0.55
#: Such a box is looked at once more with its contrast restored (see
#: restored_contrast: the print then shows as much as elsewhere on the
#: sheet, and so does a cross over it), where it was found and where its
#: neighbours put it, and where the networks read both views empty with
#: confidence (RESTORED_EMPTY or less) it is not doubted for the light,
#: where the player writes with a pen (their_crosses.PEN_DEEP_INK_MM2). On the glare
#: spoils of seeds 9 and 70, of the washed-out boxes read empty on pens'
#: sheets, restored where found: 144 of 151 empty boxes and lines through
#: skipped numbers 0.05 or less; 36 of 38 crosses 0.5 or more, and two
#: (a blue circle, a thin green slash) 0.000 and 0.002: their washed-out
#: print was matched 2.9 mm off, and there the mark lies outside the view;
#: where the neighbours put them, 0.985 and 0.5. (Taken on the view where
#: found alone, one sheet came out ``ok`` with a wrong score.) A pencil
#: cross can vanish in the reflection altogether (seed 9 photo 54's light X:
#: 0.001 at both places), so pencil sheets keep the doubt: no pencil
#: sheet's crosses at hand hold 1 mm^2 of deep ink in the middle, 44 of 56
#: pens' do. Not where the print keeps less than MIN_RESTORED_SHARE of its
#: contrast: too little is left to restore.
RESTORED_EMPTY = 0.05
MIN_RESTORED_SHARE = 0.15
#: Such a box is taken as empty only where the close look (box_model.
#: CloseLook, twice the detail), shown it with its contrast restored, reads
#: it under RESTORED_CLOSE_DOUBT in every mirrored view too. Hard seed 248
#: photo 115 under the glare spoil: a green pen's sparse horizontal fill
#: strokes over blue 4 at 0.27 of the print's contrast, restored 0.02 (lines
#: across a box look like a skipped number's line), close up restored
#: 0.14-0.27; its sheet came out ``ok`` with 108 instead of 115. Over the
#: glare spoils of seeds 241, 243, 247 and hard 248 (600 photos), of the
#: 465 boxes the restored view took as empty, 7 were crossed: 5 of them
#: read 0.18-0.29 close up at most, 2 under 0.05; of the 458 empty ones 5
#: (on 5 sheets) read 0.15 or more, the next 0.12.
RESTORED_CLOSE_DOUBT = 0.15
#: A penalty box's bare outline fades as much in a die's shadow or a faint
#: print as under a lamp's reflection (see WASHED_OUT), but only the
#: reflection makes the paper brighter. A penalty box read empty is
#: doubtful where its print shows less than GLARED_PENALTY_SHARE of the
#: usual contrast, its paper is brighter than GLARE_BRIGHTER times the
#: sheet's median box (paper levels, box_inputs), and either its print
#: keeps too little contrast to restore (under MIN_RESTORED_SHARE, but some:
#: a print not seen at all is a blur's or a thumb's as often) or, its
#: contrast restored, the networks read it over GLARED_PENALTY_P where it
#: was found or where its neighbours put it (a toss-up between them, 0.5,
#: is not enough: restoring a blurred outline brings up the grain too).
#: On the glare spoils of nine independent sets (1,350 photos) 11 crossed
#: penalty boxes read empty or doubtful; it doubts 8 of them, every sheet
#: they lie on but one (seed 183 photo 37: a black fill under a reflection
#: uneven inside the box, which restores as a dark rim round a bright
#: middle and reads empty, 0.008), and 19 empty ones. Over the 56
#: independent sets at hand and three shadow and dark spoils, without
#: glare (5,770 photos, 22,372 empty penalty boxes), it doubts none. Over
#: GLARED_PENALTY_P 0.2 the toss-ups too: 2 there, and 3 on 2 sheets of
#: ``unseen_marks_benchmark.py --sheets 20`` (blurred, unevenly lit);
#: without the paper's brightness 17.
GLARED_PENALTY_SHARE = 0.5
GLARE_BRIGHTER = 1.05
#: In the heart of a reflection, where a penalty box's paper is GLARE_HEART
#: times as bright as the sheet's median box or more, the restored view is
#: not asked: the box is doubtful. There the reflection is so uneven inside
#: the box that a black fill restores as a dark rim round a bright middle
#: and reads empty (seed 183 photo 37 under the glare spoil, 3.0 times as
#: bright, restored 0.008, its sheet ``ok`` with a wrong score since stop 59;
#: hard seed 184 photo 37, 2.65 times). Over the glare spoils of 12 sets
#: (1,800 photos) the empty penalty boxes read so, not doubted already, were
#: at most 2.31 times as bright but one (3.21, seed 181 photo 110); without
#: a reflection a box is hardly ever brighter than GLARE_BRIGHTER.
GLARE_HEART = 2.5
GLARED_PENALTY_P = 0.5
#: A broad reflection brightens the sheet's middle boxes as much as a
#: penalty box, so a box under it may be no brighter than the median box:
#: such a penalty box (its print under GLARED_PENALTY_SHARE of the usual
#: contrast, but enough to restore) is doubtful where, its contrast
#: restored, the networks read it crossed with confidence, over
#: BROAD_GLARE_P (more than GLARED_PENALTY_P asks of a box the paper's
#: brightness already points to). Independent seed 241 photo 96 under the
#: glare spoil: a pencil filler's penalty 1, at 0.23 of the usual contrast
#: and 0.97 times as bright as the median box, read empty (0.002),
#: restored 0.99, its sheet ``ok`` with 84 instead of 79. On the
#: single-sheet photos of six independent sets without glare (900 photos,
#: 3,600 penalty boxes) it asks about 17 empty ones, restored 0.02 at
#: most; on a shadow spoil (150) about 5, at most 0.08; on four glare
#: spoils (600) about 51 empty ones, at most 0.23, and 3 crossed ones,
#: 0.97-1.0 (that one, and two on seed 247 photo 119, one of them read
#: empty before).
BROAD_GLARE_P = 0.9
#: A photo so bright that the paper is white to the brim (every channel at
#: CLIPPED_LEVEL or more) has lost what was only a little darker than the
#: paper: light pencil. Inside a number or lock box the blank is a pale
#: tint (its palest channel 231-237 of 255), which stays below that level
#: on white paper (a flatbed scan, a photo in bright light) and turns white
#: only when the photo is too bright. A box read empty where CLIPPED_SHARE
#: of its light blank (tint or paper, LIGHT_BLANK) or more is white to the
#: brim is doubtful, unless the player's crosses are dark (their ink's
#: darkening, see own_marks.ink_colours, DARK_MARKS or more in the median) or leave a
#: pen's deep ink (their_crosses.PEN_DEEP_INK_MM2): a cross of theirs stays in sight.
#: The brightness pales a blue ballpoint's crosses to a pencil's darkening
#: (a table photo, foreign_photos.py --table seed 54 photo 29: 0.54, 2.6
#: mm^2 of deep ink, 20 boxes doubted on a sheet read exactly); the deep
#: ink stays a pen's, and no pencil keeps it in a photo too bright. With
#: that test too, the bright spoils of seeds 9 and 70 read 111 and 110
#: sheets exactly instead of 96 and 97, no box wrong either way.
#: Independent seed 9 made 45 % brighter
#: (``benchmarks/scan_benchmark.py --spoil bright``): 1 sheet of 150 came
#: out ``ok`` with 13 pencil crosses gone and 101 boxes were wrong; with
#: this, none ``ok`` and wrong, 34 wrong boxes (on sheets sent to review),
#: 98 sheets exact. Over every benchmark set (5,740 photos) it
#: doubted 73 empty boxes of 12 bright photos (thin strokes of ink, seen as
#: light as pencil, among them): 12 sheets fewer exact, none made wrong.
#: Crosses' median darkening, per sheet: pencil 0.27-0.51, ink pens
#: 0.41-1.17, mostly above 0.55 (independent seeds 9, 20, photogen seed 5).
CLIPPED_LEVEL = 250
CLIPPED_SHARE = 0.6
DARK_MARKS = 0.55
#: The blank's light part (tint or paper), grey 0..255, for CLIPPED_SHARE.
LIGHT_BLANK = 225
#: Where at least MIN_KEPT_CROSSES of the player's crosses lie where the
#: photo is white to the brim, and there darken their boxes as much as
#: their crosses elsewhere do (their median darkening, see own_marks.ink_colours, at
#: least KEPT_DARKENING of the others'), the brightness has taken nothing
#: from them, and a cross of theirs stays in sight in the boxes near them
#: (within KEPT_NEAR_MM: the light changes little over a box or two). A
#: photo's light past white eats into a pencil stroke first: 10 % past it
#: pales a darkening of 0.4 to 0.34 (0.85), 30 % past it to 0.22, and a
#: lamp's reflection (the ``glare`` spoil) whitens the strokes with the
#: paper. Where the photo is that bright, the crosses there show it.
#: Over 52 independent sets (7,571 sheets) the crosses in photos white to
#: the brim read 0.96 or more, at 0.88-1.0 of their others' darkening,
#: while 30 empty boxes and lines through skipped numbers were doubted on
#: 16 sheets; with this, 4 of those sheets read exactly, 2 keep fewer
#: doubts, nothing else changed. The ``bright`` spoil (45 % too bright) of
#: independent seeds 9 and 70: 112 -> 117 and 112 -> 121 sheets exact, no
#: box wrong either way.
MIN_KEPT_CROSSES = 2
KEPT_DARKENING = 0.9
KEPT_NEAR_MM = 25.0
#: Print and paper of the blank, for print_contrast (0..1, paper 1).
PRINT_BELOW = 0.6
PAPER_ABOVE = 0.85
MIN_CONTRAST_PIXELS = 10


def print_contrast(inputs: np.ndarray) -> np.ndarray:
    """How much of the blank's contrast between print and paper each box's
    photo shows (1: all of it; NaN where the box shows too little of
    either): the difference of the photo's means over the blank's paper and
    print pixels, over the blank's own (grey, every channel averaged)."""
    photo = inputs[:, :3].mean(axis=1)
    blank = inputs[:, 3:6].mean(axis=1)
    printed, paper = blank < PRINT_BELOW, blank > PAPER_ABOVE
    n_printed, n_paper = printed.sum(axis=(1, 2)), paper.sum(axis=(1, 2))

    def mean(image: np.ndarray, where: np.ndarray, count: np.ndarray) -> np.ndarray:
        return (image * where).sum(axis=(1, 2)) / np.maximum(count, 1)

    seen = mean(photo, paper, n_paper) - mean(photo, printed, n_printed)
    drawn = mean(blank, paper, n_paper) - mean(blank, printed, n_printed)
    enough = (n_printed >= MIN_CONTRAST_PIXELS) & (n_paper >= MIN_CONTRAST_PIXELS)
    return np.where(enough, seen / np.maximum(drawn, 1e-3), np.nan)


def _washed_share(inputs: np.ndarray, crossed_p: np.ndarray, boxed: np.ndarray) -> np.ndarray:
    """Per box, the share of the contrast this sheet's empty number and lock
    boxes (``boxed``) show that its print shows (NaN where not measured);
    under WASHED_OUT the light washes it out. Penalty boxes are measured
    too, though too roughly to doubt an empty one for it alone (see
    GLARED_PENALTY_SHARE)."""
    contrast = print_contrast(inputs)
    usual = contrast[(crossed_p <= EMPTY_P) & boxed & ~np.isnan(contrast)]
    if len(usual) == 0:
        return np.full(len(contrast), np.nan)
    return contrast / float(np.median(usual))


def washed_out_boxes(located: LocatedInputs, crossed_p: np.ndarray, boxed: np.ndarray,
                     outlines: np.ndarray, classifier, *, pen: bool,
                     told: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per box, whether the light washes its print out (under WASHED_OUT of
    the contrast the sheet's empty boxes show: the rules that a lamp's glare
    would mislead leave such a box alone), and whether a box read empty is
    doubtful for it: a number or lock box (``boxed``) under PEN_WASHED_OUT
    where the player writes with a pen (``pen``) and it does not read empty
    once restored (see RESTORED_EMPTY), PENCIL_WASHED_OUT where they write
    without one, UNTOLD_WASHED_OUT where too few crosses are read to tell
    (``told`` false); a penalty box (``outlines``) as GLARED_PENALTY_SHARE
    has it."""
    washed_share = _washed_share(located.inputs, crossed_p, boxed)
    washed = washed_share < WASHED_OUT  # NaN: False
    limit = (PEN_WASHED_OUT if pen else PENCIL_WASHED_OUT if told
             else UNTOLD_WASHED_OUT)
    # (not a penalty box: its outline measures too roughly; see _glared_penalties)
    washed_out = (washed_share < limit) & boxed
    if pen:
        washed_out &= ~_empty_once_restored(located, crossed_p, washed_out, washed_share,
                                            classifier)
    washed_out |= _glared_penalties(located, crossed_p, washed_share, outlines, classifier)
    return washed, washed_out


def _empty_once_restored(located: LocatedInputs, crossed_p: np.ndarray, washed_out: np.ndarray,
                         share: np.ndarray, classifier) -> np.ndarray:
    """Per box, whether a box read empty where the light washes it out
    (``washed_out``; ``share``: see :func:`_washed_share`) reads empty with
    confidence once its contrast is restored, both where it was found and
    where its neighbours put it, and close up (see RESTORED_EMPTY and
    RESTORED_CLOSE_DOUBT)."""
    out = np.zeros(len(crossed_p), bool)
    look = np.flatnonzero(washed_out & (crossed_p <= EMPTY_P) & (share >= MIN_RESTORED_SHARE))
    out[look] = _restored_p(located, look, share, classifier) <= RESTORED_EMPTY
    closer = np.flatnonzero(out)
    if len(closer):
        views = close_look().crossed_views(
            restored_contrast(located.close_look(closer), share[closer]))
        out[closer] = views.max(axis=0) < RESTORED_CLOSE_DOUBT
    return out


def _glared_penalties(located: LocatedInputs, crossed_p: np.ndarray, share: np.ndarray,
                      penalty: np.ndarray, classifier) -> np.ndarray:
    """Per box, whether a penalty box (``penalty``) read empty may hide a
    cross in a lamp's reflection (see GLARED_PENALTY_SHARE and, for a
    reflection broad enough to brighten the median box too, BROAD_GLARE_P;
    ``share``: see :func:`_washed_share`)."""
    level = located.paper_levels.mean(axis=1)
    median = float(np.median(level))
    look = penalty & (crossed_p <= EMPTY_P) & (share < GLARED_PENALTY_SHARE)
    bright = level > GLARE_BRIGHTER * median
    # on paper brighter than the sheet's: too little contrast left to restore,
    # or in the heart of the reflection, but some: a print not seen at all (a
    # share under 0) or not measured (NaN) is a blur's or a thumb's as often
    out = look & bright & (share >= 0) & ((share < MIN_RESTORED_SHARE)
                                          | (level > GLARE_HEART * median))
    ask = np.flatnonzero(look & ~out & (share >= MIN_RESTORED_SHARE))
    limit = np.where(bright[ask], GLARED_PENALTY_P, BROAD_GLARE_P)
    out[ask] = _restored_p(located, ask, share, classifier) > limit
    return out


def _restored_p(located: LocatedInputs, look: np.ndarray, share: np.ndarray,
                classifier) -> np.ndarray:
    """P(crossed) of boxes ``look`` with their contrast restored (see
    restored_contrast), the higher of where each was found and where its
    neighbours put it."""
    if len(look) == 0:
        return np.zeros(0)
    views = np.concatenate([located.inputs[look], located.where_neighbours_put(look)])
    restored_p = classifier.crossed_probability(
        restored_contrast(views, np.concatenate([share[look], share[look]])))
    return np.maximum(restored_p[:len(look)], restored_p[len(look):])


def restored_contrast(inputs: np.ndarray, share: np.ndarray) -> np.ndarray:
    """Network inputs with the photo's contrast against the paper (paper =
    1) stretched by 1 / ``share`` per box: what a reflection added evenly
    to print, ink and paper alike (a share of white) taken out again."""
    out = inputs.copy()
    gain = (1.0 / share).astype(np.float32)[:, None, None, None]
    out[:, :3] = np.clip(1.0 - (1.0 - inputs[:, :3]) * gain, 0.0, PHOTO_CAP)
    return out


def _light_marks(darkening: np.ndarray, crosses: np.ndarray) -> bool:
    """Whether this player's crosses (``crosses``, their ``darkening``: see
    :func:`_crosses_darkening`) are light enough to be lost in a photo white
    to the brim (see DARK_MARKS); so where too few are read to tell."""
    if np.count_nonzero(crosses) < 3:
        return True
    return float(np.median(darkening[crosses])) < DARK_MARKS


def _crosses_darkening(inputs: np.ndarray, crosses: np.ndarray) -> np.ndarray:
    """Per box, how much the ink darkens it (the length of its ink colour,
    see :func:`own_marks.ink_colours`) for the boxes of ``crosses``, 0 elsewhere."""
    darkening = np.zeros(len(inputs))
    if crosses.any():
        darkening[crosses] = np.linalg.norm(ink_colours(inputs[crosses]), axis=1)
    return darkening


def overexposed_boxes(rectified: np.ndarray, sheet: Sheet, ref: ReaderReference,
                      centres_px: np.ndarray, inputs: np.ndarray, crossed_p: np.ndarray,
                      pen: bool, boxed: np.ndarray) -> np.ndarray:
    """Per box, whether a light cross could be lost to the photo's brightness
    there (see CLIPPED_SHARE): a number or lock box, the share of its light
    blank (tint or paper, not print) that the photo shows white to the brim
    where the box was found (``centres_px`` on ``rectified``). None where the
    player writes with a pen (``pen``, see :func:`their_crosses.writes_with_a_pen`) or
    their crosses are dark (see DARK_MARKS), nor near their crosses that the
    brightness left whole (see MIN_KEPT_CROSSES); ``boxed``: number and
    lock boxes."""
    out = np.zeros(len(sheet.boxes), bool)
    if pen:
        return out
    crosses = crossed_p >= CROSSED_P
    darkening = _crosses_darkening(inputs, crosses)
    if not _light_marks(darkening, crosses):
        return out
    blank = ref.gray_half  # the blank's grey at half the reader's resolution
    small = cv2.resize(rectified, (blank.shape[1], blank.shape[0]), interpolation=cv2.INTER_AREA)
    blue, green, red = cv2.split(small)  # (numpy's min over the colour axis: 6 ms a sheet)
    white = cv2.min(cv2.min(blue, green), red) >= CLIPPED_LEVEL
    if not white.any():
        return out
    scale = blank.shape[1] / ref.size_px[0]
    for k, (box, (cx, cy)) in enumerate(zip(sheet.boxes, centres_px)):
        if not boxed[k]:  # a penalty box is white: white paper says nothing
            continue
        r = box.rect
        bx, by = round(r.x * ref.px_per_mm * scale), round(r.y * ref.px_per_mm * scale)
        w, h = round(r.w * ref.px_per_mm * scale), round(r.h * ref.px_per_mm * scale)
        px, py = round(cx * scale - w / 2), round(cy * scale - h / 2)
        if min(bx, by, px, py) < 0 or max(bx, px) + w > blank.shape[1] \
                or max(by, py) + h > blank.shape[0]:
            continue
        light = blank[by:by + h, bx:bx + w] >= LIGHT_BLANK
        if light.any():
            out[k] = float(np.mean(white[py:py + h, px:px + w][light])) >= CLIPPED_SHARE
    return out & ~_near_kept_crosses(out, boxed, crosses, darkening, centres_px / ref.px_per_mm)


def _near_kept_crosses(white: np.ndarray, boxed: np.ndarray, crosses: np.ndarray,
                       darkening: np.ndarray, centres_mm: np.ndarray) -> np.ndarray:
    """Per box, whether it lies within KEPT_NEAR_MM of the player's crosses
    (``crosses``, their ``darkening``: see :func:`_crosses_darkening`) that
    lie where the photo is white to the brim (``white``), where those lost
    none of their darkening to it (see MIN_KEPT_CROSSES); ``boxed``: number
    and lock boxes (a penalty box's white paper may be clipped anywhere, and
    its cross with it); ``centres_mm``: where each box was found."""
    in_white = crosses & white
    elsewhere = crosses & ~white & boxed
    if np.count_nonzero(in_white) < MIN_KEPT_CROSSES or np.count_nonzero(elsewhere) < MIN_CROSSES:
        return np.zeros(len(white), bool)
    if np.median(darkening[in_white]) < KEPT_DARKENING * np.median(darkening[elsewhere]):
        return np.zeros(len(white), bool)
    apart = np.linalg.norm(centres_mm[:, None, :] - centres_mm[None, in_white, :], axis=2)
    return apart.min(axis=1) <= KEPT_NEAR_MM
