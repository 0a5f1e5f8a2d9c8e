"""Boxes read empty that a pencil player hatched too lightly to be seen.

A player who shades boxes with parallel pencil strokes may shade one so
lightly that every network and the close look read it empty, and the
strokes darken so little of the paper that own_marks' measures (paper
darker than the blank by own_marks.DARKENED) find next to nothing: table
266 photo 2, a player hatching Treden D with light flat strokes, had red 10
and yellow 8 read empty with confidence (0.014 and 0.001; close up 0.46
and 0.03 at most), 18 and 31 pixels darkened against their fills' 226, and
the sheet came out ``ok`` with a wrong score. Flat strokes through a number
also look like a line through a skipped number, which the networks learned
to read empty.

Measured more gently (paper darker than the blank by LIGHT_DARKENED), those
two boxes show 128 and 147 pixels in 5 and 4 parallel strokes, where the
sheet's other boxes read empty show 30 at most. So on the sheet of a
pencil player who hatches (closer_look.CLOSE_HATCHING_COVER), a box read
empty is doubtful when its gently darkened paper

- is at least verdict.FAINT_DARK_PX pixels and LIGHT_HATCHING_SHARE of what
  their crosses' darken so (their median),
- is ABOVE_EMPTIES times what the sheet's other boxes read empty show (their
  EMPTIES_PERCENTILE), so that a shadow or a curl darkening many boxes
  does not count,
- and lies in parallel strokes: the photo's gradients there point one way
  (their coherence HATCHING_COHERENCE or more) and, across that way, the
  darkened paper falls into MIN_HATCHING_STROKES separate bands or more.

Over the 718 sheets of hatching pencil players in the 124 independent sets
at hand (19,412 boxes read empty on them) this doubts those two boxes and
no other. Without the strokes' test, 81 boxes (62 sheets), among them
shadows' edges and corners, drink rings, printed chain rings; with 3 bands
in place of 4, 7 (a skip line with a shadow or a ring beside it makes 2 or
3); with the other empties' test at 1.5 times, 5; with neither that test
nor the share of the player's fills, 34.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from .own_marks import darkened_paper, middle_greys, paper_pixels
from .verdict import FAINT_DARK_PX, BoxVerdict

LIGHT_DARKENED = 0.05
LIGHT_HATCHING_SHARE = 0.2
ABOVE_EMPTIES = 2.0
EMPTIES_PERCENTILE = 90
HATCHING_COHERENCE = 0.7
MIN_HATCHING_STROKES = 4
#: A box hatched as fully as the player's fills, in a dim, grainy photo:
#: there the grain shades every empty box's paper too, so that a fill
#: counted in pixels is not ABOVE_EMPTIES times theirs, and the strokes
#: run together into fewer bands. So a box read empty is doubtful as well
#: where the share of its paper gently darkened is LIKE_FILLS_SHARE of the
#: player's crosses' (their median share) and ABOVE_EMPTIES_SHARE times
#: what the sheet's other boxes read empty show (their EMPTIES_PERCENTILE,
#: as shares), with the gradients' coherence as above and
#: MIN_LIKE_FILL_STROKES bands or more (a shadow's edge or a fold makes
#: one). Shares, since a step box's dark frame leaves less paper than a
#: plain box's. Not on the sheet of a player who circles the numbers
#: (own_marks.circles): their circles darken the paper about as much, and
#: a circle drawn loosely round an empty neighbour's edge is shaded so
#: too. Hard independent table 319 photo 32, a pencil player filling
#: Treden B with light flat strokes in a dim, grainy photo: yellow 8, a
#: step box, read empty (0.00-0.01 by every network), 46 % of its paper
#: shaded against their fills' 52 % and the other empties' 23 %; the sheet
#: came out ``ok`` with a wrong score. Over the 960 hatchers' sheets of
#: every set at hand (5,112 photos with a pencil player; 25,724 boxes read
#: empty on them), three crosses were read empty: the two the counts above
#: doubt and this one. The shares doubt this one and two right boxes (a
#: dense line through a skipped number, an X player's lock box in a
#: shadow), each settled empty by the rules, so that every set at hand
#: (16,610 photos) read again with it reads no other sheet otherwise;
#: asked on circle players' sheets too, they doubted 10 boxes more.
LIKE_FILLS_SHARE = 0.8
ABOVE_EMPTIES_SHARE = 1.5
MIN_LIKE_FILL_STROKES = 2
#: A band of the strokes' profile holds at least this many darkened pixels
#: (one pixel of grain between two strokes does not join them).
BAND_MIN_PX = 2
LIGHT_HATCHING = ("read empty, but its paper is shaded lightly in parallel strokes, as this "
                  "player hatches their crosses")


def light_hatching_doubted(verdicts: list[BoxVerdict], inputs: np.ndarray,
                           paper: np.ndarray, *, circling: bool = False) -> list[BoxVerdict]:
    """The verdicts of a pencil player who hatches, with each box read
    empty that is hatched lightly (see the module's note), or as fully as
    their fills in a grainy photo (see LIKE_FILLS_SHARE; not where the
    player is ``circling`` the numbers), doubtful, leaning empty.
    ``inputs``: every box's network input; ``paper``: their
    own_marks.paper_pixels."""
    crossed = np.array([v.state == "crossed" for v in verdicts], bool)
    empty = np.flatnonzero([v.state == "empty" for v in verdicts])
    if not crossed.any() or len(empty) < 2:
        return verdicts
    shaded = np.count_nonzero(darkened_paper(inputs, by=LIGHT_DARKENED, paper=paper),
                              axis=(1, 2))
    visible = shaded[empty] >= FAINT_DARK_PX
    light = set(empty[visible & (shaded[empty] >= np.maximum(
        LIGHT_HATCHING_SHARE * np.median(shaded[crossed]),
        ABOVE_EMPTIES * _other_empties(shaded[empty])))])
    like_fills = set()
    if not circling:
        share = shaded / np.maximum(np.count_nonzero(paper, axis=(1, 2)), 1)
        like_fills = set(empty[visible & (share[empty] >= np.maximum(
            LIKE_FILLS_SHARE * np.median(share[crossed]),
            ABOVE_EMPTIES_SHARE * _other_empties(share[empty])))])
    if not light and not like_fills:
        return verdicts
    ask = np.array(sorted(light | like_fills))
    coherence, strokes = parallel_strokes(inputs[ask], paper[ask])
    least = np.array([MIN_LIKE_FILL_STROKES if i in like_fills else MIN_HATCHING_STROKES
                      for i in ask])
    out = list(verdicts)
    for i in ask[(coherence >= HATCHING_COHERENCE) & (strokes >= least)]:
        out[i] = replace(verdicts[i], state="uncertain", confidence=0.3, note=LIGHT_HATCHING,
                         lean="empty")
    return out


def _other_empties(values: np.ndarray) -> np.ndarray:
    """Per box read empty (``values``: a measure of each), the
    EMPTIES_PERCENTILE of the same measure over the other boxes read empty."""
    return np.array([np.percentile(np.delete(values, k), EMPTIES_PERCENTILE)
                     for k in range(len(values))])


def parallel_strokes(inputs: np.ndarray,
                     paper: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per box, how the gently darkened paper of its middle (see
    LIGHT_DARKENED) lies: how much the photo's gradients over it and round
    it point one way (coherence, 0: every way, 1: one) and into how many
    separate bands (BAND_MIN_PX) it falls across that way: parallel
    strokes make as many bands as there are strokes, a line or a shadow's
    edge one. ``paper``: own_marks.paper_pixels of ``inputs``, where known
    already."""
    photo, blank = middle_greys(inputs)
    shade = (photo / blank).astype(np.float32)
    paper = paper_pixels(inputs) if paper is None else paper
    marked = darkened_paper(inputs, by=LIGHT_DARKENED, paper=paper)
    near = np.ones((3, 3), np.uint8)
    coherence = np.zeros(len(inputs))
    strokes = np.zeros(len(inputs), int)
    for k in range(len(inputs)):
        # round the marked pixels, not at the print's edges
        over = (cv2.dilate(marked[k].astype(np.uint8), near)
                & cv2.erode(paper[k].astype(np.uint8), near)).astype(bool)
        if not marked[k].any() or not over.any():
            continue
        gx, gy = (cv2.Sobel(shade[k], cv2.CV_32F, dx, 1 - dx, ksize=3)[over].astype(np.float64)
                  for dx in (1, 0))
        xx, yy, xy = (gx * gx).sum(), (gy * gy).sum(), (gx * gy).sum()
        coherence[k] = np.hypot(xx - yy, 2 * xy) / max(xx + yy, 1e-12)
        across = 0.5 * np.arctan2(2 * xy, xx - yy)  # the gradients' way: across the strokes
        ys, xs = np.nonzero(marked[k])
        at = xs * np.cos(across) + ys * np.sin(across)
        profile = np.bincount((at - at.min()).astype(int)) >= BAND_MIN_PX
        strokes[k] = int(profile[0]) + np.count_nonzero(profile[1:] & ~profile[:-1])
    return coherence, strokes
