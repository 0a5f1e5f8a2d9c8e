"""A drink's ring through an empty box of a player whose crosses are no lines.

A cup set down on a sheet leaves a dried ring 60-85 mm across; where its
rim runs through an empty box it is one thin line across the box, which
the deciding networks read crossed, sure of it (0.94-1.0). On a pen
player's sheet the network that learned drink rings is asked about every
box read crossed (read.RIM_DOUBT, at read.RIM_EMPTY_P); a pencil player's
light strokes are too much like a rim for it to be asked there (it read
light fills empty).

This module looks at the mark's shape instead. Where the player's crosses
spread both ways (an X, a fill: their darkened paper less than
CROSSES_ELONGATION times as long as it is wide, the median over their
boxes read crossed), a box read crossed whose mark is one long thin line
on clean paper (:func:`rim_like_lines`) is no mark of theirs. It is
doubted (RIM_LINE_DOUBT) unless the rings network reads it crossed above
RIM_LINE_P: over the stained photos below, the player's own crosses that
came out as such a line (an X with one stroke faint) read 0.998 or more
there, the rims 0.002-0.95 (stained seed 257 and hard 258). Not on the
sheet of a player who circles the numbers (own_marks.circles, asked by
the reader): a circle drawn wider than the box shows one arc through its
middle, a line as long as a rim's; asked there, the rule sent 7 right
sheets of pencil circle players to review in part of the sets at hand.

Over the stained copies (benchmarks/spoilt_photos.py ``stain``) of the
nine independent sets at hand (seeds 9, 70, 257, 259, 261, every photo
hard 258 and 262, table 232, hard table 233; 1,314 sheets): wrong boxes
330 -> 211, sheets ``ok`` with a wrong score 100 -> 65, as many exact
(592); each of the 104 sheets read otherwise had a wrong box before. On
four sets made after the rule was set (seed 321, every photo hard 322,
table 292, hard table 293): stained, ``ok`` and wrong 42 -> 24, wrong
boxes 144 -> 92, as many exact; plain, read alike. Over
the plain sets at hand (67 sets, 9,761 sheets), 5 right sheets went to
review (7,051 -> 7,046 exact over 50 of them, the others as before; the
rings network read their lines 0.77-0.94): two pencil fills, a pencil X,
a pencil slash and a black felt pen's short, thick slashes, which spread
hardly more one way than the other; no box read wrong otherwise. The
player's crosses' median spread over seven of those sets (seeds 9, 70,
257, 259 and 261, every photo hard 258 and 262): X's 1.05-1.96, fills and circles 1.07-1.47,
checks 1.71-4.72 (2 % below 2), slashes 2.67 and more: a check's long
stroke is such a line too, so checks and slashes are left to the rings
network.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from .own_marks import MIN_CROSSES, darkened_paper, paper_pixels
from .skip_lines import Spread
from .verdict import BoxVerdict

#: The player's crosses spread both ways: the median of their darkened
#: paper's long axis over its short one, over their boxes read crossed, is
#: below this (see the module's note for each kind of mark).
CROSSES_ELONGATION = 2.0
#: A rim through a box: paper darkened by RIM_DARKENED of the blank or more,
#: at least RIM_MIN_PX pixels spread RIM_ELONGATION times as long as wide,
#: RIM_MIN_LENGTH_PX long (most of the box's middle: a rim runs through), at
#: most RIM_THICKNESS_PX thick on average, and beyond RIM_BAND_PX of the
#: line at most RIM_CLEAN_SHARE of the paper darkened. A grainy photo's
#: paper, and the film a drink leaves inside its ring, are darkened by up to
#: 0.09: at 0.08 they widened the rim of 5 of those 71 boxes past a line.
RIM_DARKENED = 0.12
RIM_MIN_PX = 10
RIM_ELONGATION = 4.0
RIM_MIN_LENGTH_PX = 20.0
RIM_THICKNESS_PX = 4.0
RIM_BAND_PX = 2.5
RIM_CLEAN_SHARE = 0.15
#: The rings network's reading above which such a line is the player's.
RIM_LINE_P = 0.95
RIM_LINE_DOUBT = ("read crossed, but its mark is one long thin line across the box, unlike "
                  "this player's crosses, as a drink's ring leaves")


def rim_like_lines(inputs: np.ndarray, paper: np.ndarray | None = None) -> np.ndarray:
    """Per box of ``inputs`` (the networks' input), whether its mark is one
    long thin line on clean paper, as a rim running through it is.
    ``paper``: own_marks.paper_pixels of ``inputs``, where known already."""
    paper = paper_pixels(inputs) if paper is None else paper
    mask = darkened_paper(inputs, by=RIM_DARKENED, paper=paper)
    spread = Spread.of(mask)
    line = ((spread.pixels >= RIM_MIN_PX)
            & (spread.elongation >= RIM_ELONGATION)
            & (spread.length >= RIM_MIN_LENGTH_PX)
            & (spread.pixels / np.maximum(spread.length, 1e-6) <= RIM_THICKNESS_PX))
    at = np.flatnonzero(line)
    line[at] = spread.clean_beyond(at, paper[at], mask[at], RIM_BAND_PX, RIM_CLEAN_SHARE)
    return line


def crosses_spread_both_ways(inputs: np.ndarray, crossed: np.ndarray,
                             paper: np.ndarray | None = None) -> bool:
    """Whether the player's crosses (``crossed``, bool per box) spread both
    ways (see CROSSES_ELONGATION): at least MIN_CROSSES of them. ``paper``:
    own_marks.paper_pixels of ``inputs``, where known already."""
    if np.count_nonzero(crossed) < MIN_CROSSES:
        return False
    paper = paper_pixels(inputs[crossed]) if paper is None else paper[crossed]
    spread = Spread.of(darkened_paper(inputs[crossed], paper=paper))
    return float(np.median(spread.elongation)) < CROSSES_ELONGATION


def rim_lines_doubted(verdicts: list[BoxVerdict], inputs: np.ndarray,
                      rings_p: Callable[[np.ndarray], np.ndarray],
                      paper: np.ndarray | None = None) -> list[BoxVerdict]:
    """The verdicts with each box read crossed whose mark is a rim's line
    doubted, on the sheet of a player whose crosses spread both ways,
    unless the rings network (``rings_p``: P(crossed) per box of the inputs
    given) reads it crossed above RIM_LINE_P. ``paper``:
    own_marks.paper_pixels of ``inputs``, where known already."""
    crossed = np.array([v.state == "crossed" for v in verdicts], bool)
    if not crossed.any() or not crosses_spread_both_ways(inputs, crossed, paper):
        return verdicts
    ask = np.flatnonzero(crossed)
    ask = ask[rim_like_lines(inputs[ask], None if paper is None else paper[ask])]
    if not len(ask):
        return verdicts
    out = list(verdicts)
    for i in ask[rings_p(inputs[ask]) <= RIM_LINE_P]:
        out[i] = replace(verdicts[i], state="uncertain", confidence=0.5, note=RIM_LINE_DOUBT,
                         lean="", settled="")
    return out
