"""A lone stroke of the player's pen in a box read empty: a small slash the
networks missed.

A player who crosses with one short slash may make one so small that every
network reads the box empty, sure of it, while the same player's other
slashes, a little longer or darker, read crossed. What the box holds is
still plain: a single straight stroke through its middle, steep, as much
ink as half of the player's crosses, in their pen's dark ink. A line
through a skipped number is flat (skip_lines: up to 20 degrees, hurried
rising ones to 30); stray dots or the edge of a pen lying on the sheet
make no stroke through the middle. A box read empty whose mark is such a
stroke is doubted (verdict.LONE_STROKE).

The stroke is skip_lines.lone_lines' line at any tilt: the box's darkened
paper a thin line with clean paper around it, here tilted STEEP_DEG or more
from flat, its middle within CENTRED_PX of the box's. Only in a box that
holds INK_SHARE of the ink of the player's middle cross (read with
confidence) or more and DEEP_SHARE of its dark ink
(box_inputs.DEEP_INK_DARKNESS), on the sheet of a player whose middle cross
holds THEIR_DEEP_MM2 of it or more: a pencil leaves next to none, and
without it a pencil sheet's grain and shade pass for strokes.

Chosen on the boxes read empty holding a quarter of their player's middle
ink or more, over the 96 independent sets at hand (seeds 131-177 odd, hard
seeds 132-178 even, tables 102-148 even, hard tables 103-149 odd; 13,978
sheets, 50,194 such boxes, 38,073 of them lines through skipped numbers):
a steep lone line holding half the ink and dark ink is in 4 of them; of
those with its middle near the box's, table 140 photo 37's green 12 (a
blue slash at 46 degrees, 0.6 of the player's middle ink, read empty at
0.0006 and the sheet ``ok`` with a wrong score) and a skipped red 6 struck
through at a measured 31 degrees (a dot above the line tilting it, 6.5 px
off the middle); the other two are a pair of stray dots and the edge of a
pen lying over a box, 11 and 14 px off. At 20 degrees 5 more lines
through skipped numbers would be doubted, and a second missed slash (hard
seed 168 photo 77, 21 degrees, its sheet in review already).

A stroke SLANTED_DEG to STEEP_DEG from flat, as steep as a hurried line
through a skipped number, is doubted only where some network, asked about
it, leans toward a cross (TRACE_P or more; box_model.MEMBERS, the deciders
and the two others): the networks read those lines empty with little
doubt. That 21-degree slash read 0.22, 0.07, 0.45, 0.005 and 0.38 (empty
on the deciders' median); the four lines through skipped numbers of that
band that hold the ink and lie near the middle, 0.008 at most. Of the 11
other boxes of the band holding a quarter of the ink and three tenths of
the dark ink (10 lines through skipped numbers, a stray dot), the highest
a network gave was 0.25 (8 px off the middle, 0.39 of the dark ink), then
0.13.

A slash smaller still, drawn between the digits of a two-digit number, is
mostly hidden by the print: what shows is a short piece (a spread under
SHORT_PX long, SHORT_MIN_PX pixels or more) through the box's middle. The
print hides most of a line through a skipped 10, 11 or 12 as well, so such
a mark is doubted only where some network leans toward a cross
(SHORT_TRACE_P or more). Fresh hard table 155 photo 23: a blue slash over
green 12, 29 px of it showing between the 1 and the 2 (10.6 px long, 21
degrees), 0.7 of the player's middle ink and 0.8 of its dark ink, read
empty (the most doubtful network 0.195), the sheet ``ok`` with 68 points
instead of 75. Over the 28 sets then at hand (seeds 171-183 odd, hard
seeds 172-184 even, tables 142-154 even, hard tables 143-155 odd; 9,350
boxes read empty holding a quarter of their player's middle ink or more,
8,326 of them lines through skipped numbers), 11 boxes read empty hold
half the ink and dark ink in such a short piece near the middle: that
slash and 10 lines through skipped numbers, to which no network gave more
than 0.0003.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .own_marks import INNER_PX
from .skip_lines import lone_lines

STEEP_DEG = 30.0
SLANTED_DEG = 20.0
TRACE_P = 0.3
SHORT_PX = 16.0
SHORT_MIN_PX = 10
SHORT_TRACE_P = 0.1
CENTRED_PX = INNER_PX / 4
INK_SHARE = 0.5
DEEP_SHARE = 0.5
THEIR_DEEP_MM2 = 0.1


class Strokes(NamedTuple):
    """Per box (bool), of the boxes read empty: ``lone``, the mark is one
    steep or slanted stroke through the middle; ``short``, a short mark
    through the middle that some network leans toward (see SHORT_PX)."""

    lone: np.ndarray
    short: np.ndarray


def lone_strokes(inputs: np.ndarray, crossed: np.ndarray | None, empty: np.ndarray,
                 ink_mm2: np.ndarray, deep_ink_mm2: np.ndarray, classifier, *,
                 grain: float = 0.0) -> Strokes:
    """Which of ``empty`` (bool per box: read empty) hold a stroke of the
    player's pen (see the module's note and :class:`Strokes`).
    ``crossed``: the boxes read crossed with confidence (bool per box, None
    where too few to tell); ``ink_mm2``, ``deep_ink_mm2``: ink and dark ink
    per box; ``inputs``: the boxes' network inputs (see box_inputs);
    ``classifier``: box_model.BoxClassifier, asked about slanted and short
    strokes (see TRACE_P, SHORT_TRACE_P); ``grain``: see
    skip_lines.paper_grain."""
    lone, short = np.zeros(len(ink_mm2), bool), np.zeros(len(ink_mm2), bool)
    if crossed is None:
        return Strokes(lone, short)
    their_ink = float(np.median(ink_mm2[crossed]))
    their_deep = float(np.median(deep_ink_mm2[crossed]))
    if their_deep < THEIR_DEEP_MM2:
        return Strokes(lone, short)
    at = np.flatnonzero(empty & (ink_mm2 >= INK_SHARE * their_ink)
                        & (deep_ink_mm2 >= DEEP_SHARE * their_deep))
    if not len(at):
        return Strokes(lone, short)
    line = lone_lines(inputs[at], grain=grain)
    tilt = np.abs(line.tilt_deg)
    centred = np.hypot(line.off_x, line.off_y) <= CENTRED_PX
    stroke = line.found & (tilt >= SLANTED_DEG) & centred
    slanted = np.flatnonzero(stroke & (tilt < STEEP_DEG))
    if len(slanted):
        traced = classifier.each_probability(inputs[at[slanted]]).max(axis=0) >= TRACE_P
        stroke[slanted[~traced]] = False
    lone[at] = stroke
    brief = np.flatnonzero(~stroke & centred & (line.pixels >= SHORT_MIN_PX)
                           & (line.length < SHORT_PX))
    if len(brief):
        short[at[brief]] = classifier.each_probability(inputs[at[brief]]).max(axis=0) \
            >= SHORT_TRACE_P
    return Strokes(lone, short)
