"""Ink spilt over from a neighbour's mark: the end of a large stroke that
runs past its own box into the next one.

A player crossing with large checks or X's overshoots the box, and the tail
of a stroke may reach well into the empty box beside it. The networks see a
stroke in the box and may read it crossed. Such ink lies all along one edge
of the box, none in its middle, and runs on past that edge toward a
neighbour read crossed; a cross of this player's own goes through the
middle of its box. A box read crossed whose mark is like that, holding less
ink than the player's crosses, is doubted (verdict.SPILT_OVER).

Ink here is paper (own_marks.paper_window: print and its edges left out, so
a stroke shows in the box, and past the box's printed frame in the margin
between boxes) darker than the blank by INK_DARKENED: the stroke, not the
photo's grain, which own_marks.DARKENED still counts in a dim photo. A
light pencil's strokes darken the paper little more than that; for a
player whose crosses are light (see :func:`stroke_darkening`), ink is what
is darkened by STROKE_SHARE of their strokes' darkening.

Chosen on every box read crossed, or doubted leaning crossed, of the 88
independent sets at hand (seeds 131-173 odd, hard seeds 132-174 even,
tables 102-144 even, hard tables 103-145 odd; 8,358 photos, 296,796 such
boxes): 4 boxes are like that, all empty boxes holding the tail of a large
check in the box beside them; the one read crossed (table 144 photo 6, red
7, at 0.947) made its sheet ``ok`` with a wrong score, the other three were
doubted already. No cross is. Players who circle numbers leave the middle
of every box clean (their crosses' median share there is 0 on 99 % of
their sheets, on 1 to 4 % of other players' sheets), and their circles
often show as one arc along one edge, running past it; on their sheets
(the player's crosses putting under THROUGH_MIDDLE of their ink in the
middle) nothing is doubted so: 48 right circles would have been. Nor is
a box the light washes out (glare.WASHED_OUT): under a lamp's glare
(``scan_benchmark.py --spoil glare``, seeds 9 and 70) two right X's and
checks of thick blue pens showed only pieces of their strokes, along an
edge, and were doubted so.
"""

from __future__ import annotations

import numpy as np

from qwixx_print.layout import Box

from .own_marks import INNER, INNER_PX, paper_window

INK_DARKENED = 0.25
#: A player's strokes darken the paper by the median over their crosses of
#: each one's STROKE_PERCENTILE of its paper darkened by STROKE_FROM or more
#: (at least MIN_PX pixels of it); ink is what is darkened by STROKE_SHARE
#: of that, or INK_DARKENED where less. Fresh table 204, photo 20: the tail
#: of a pencil player's large check in red 9 reached into the empty red 10,
#: every network read it crossed (0.98-1.0), and the sheet came out ``ok``
#: with a wrong score; its stroke darkened the paper by 0.30 at most, 7
#: pixels of it by INK_DARKENED, and went unseen. That player's strokes
#: darken it by 0.26, and by STROKE_SHARE of that 23 pixels show, 14 of them
#: along the edge (see EDGE_SHARE).
STROKE_PERCENTILE = 90
STROKE_FROM = 0.1
STROKE_SHARE = 0.6
#: The box's middle counts as the INNER_PX / MIDDLE_PART radius round its centre.
MIDDLE_PART = 4
#: At least MIN_PX pixels of ink in the box, EDGE_SHARE of them within
#: EDGE_PX of one edge, GAP_PX or more past that edge (in the margin between
#: the boxes, along the box's span).
MIN_PX = 10
EDGE_PX = 5
#: (A tail that enters at a corner lies partly farther in from the edge it
#: crosses: table 204 photo 20's, 14 of 23 pixels; hence 0.4, not 0.6.
#: With STROKE_SHARE, over the 152 independent sets at hand (22,061
#: sheets), this doubts that tail and 4 right checks whose long stroke ends
#: in a box's corner: 2 sheets fewer exact.)
EDGE_SHARE = 0.4
GAP_PX = 2
#: Only a box holding under INK_SHARE of the ink of the player's middle cross.
INK_SHARE = 0.6
#: Only on a sheet whose player's crosses put a median THROUGH_MIDDLE or
#: more of their ink in the box's middle.
THROUGH_MIDDLE = 0.02

#: Sides of a box, as (row, column) steps toward the neighbour there.
SIDES = {"left": (0, -1), "right": (0, 1), "above": (-1, 0), "below": (1, 0)}


def spilt_over(inputs: np.ndarray, crossed: np.ndarray | None, ink_mm2: np.ndarray,
               neighbours: np.ndarray, washed: np.ndarray) -> np.ndarray:
    """Per box, whether it is read crossed (``crossed``: the boxes read
    crossed with confidence, bool per box, None where too few to tell) with
    its ink like the tail of a neighbour's mark (see the module's note).
    ``inputs``: the boxes' network inputs (see box_inputs); ``ink_mm2``: ink
    per box; ``neighbours``: per box and side (SIDES order) the index of the
    box beside it there, -1 for none (see :func:`neighbour_table`); ``washed``:
    the boxes the light washes out (glare.WASHED_OUT), left alone: glare leaves
    a right cross little of its ink, in pieces."""
    out = np.zeros(len(ink_mm2), bool)
    if crossed is None:
        return out
    at = np.flatnonzero(crossed)
    asked = ~washed[at] & (ink_mm2[at] < INK_SHARE * np.median(ink_mm2[at]))
    if not asked.any():
        return out
    ink = _ink(inputs[at], min(INK_DARKENED, STROKE_SHARE * stroke_darkening(inputs[at])))
    if _middle_share(ink) < THROUGH_MIDDLE:
        return out
    lo, hi = INNER.start, INNER.stop
    for box, mask in zip(at[asked], ink[asked]):
        inside = mask[INNER, INNER]
        count = np.count_nonzero(inside)
        if count < MIN_PX or np.count_nonzero(inside & _MIDDLE):
            continue
        for side, neighbour in zip(SIDES, neighbours[box]):
            if neighbour < 0 or not crossed[neighbour]:
                continue
            edge, past = {"left": (mask[lo:hi, lo:lo + EDGE_PX], mask[lo:hi, :lo]),
                          "right": (mask[lo:hi, hi - EDGE_PX:hi], mask[lo:hi, hi:]),
                          "above": (mask[lo:lo + EDGE_PX, lo:hi], mask[:lo, lo:hi]),
                          "below": (mask[hi - EDGE_PX:hi, lo:hi], mask[hi:, lo:hi])}[side]
            if np.count_nonzero(edge) >= EDGE_SHARE * count and np.count_nonzero(past) >= GAP_PX:
                out[box] = True
    return out


_neighbour_tables: dict[tuple[Box, ...], np.ndarray] = {}


def neighbour_table(boxes: tuple[Box, ...]) -> np.ndarray:
    """Per box of a sheet, the index of the box beside it on each side
    (SIDES order), -1 for none: the nearest whose centre lies within half
    the box's height (width) of its row (column) and within 1.6 box widths
    (heights). Worked out once per sheet."""
    if boxes not in _neighbour_tables:
        centres = np.array([(b.rect.x + b.rect.w / 2, b.rect.y + b.rect.h / 2) for b in boxes])
        sizes = np.array([(b.rect.w, b.rect.h) for b in boxes])
        table = np.full((len(boxes), len(SIDES)), -1, np.int64)
        for i, (centre, size) in enumerate(zip(centres, sizes)):
            d = centres - centre
            for k, (rows, cols) in enumerate(SIDES.values()):
                along, across = (d[:, 0] * cols, d[:, 1]) if cols else (d[:, 1] * rows, d[:, 0])
                reach, tolerance = (size[0], size[1]) if cols else (size[1], size[0])
                near = (along > 0) & (along < 1.6 * reach) & (np.abs(across) < 0.5 * tolerance)
                if near.any():
                    table[i, k] = int(np.flatnonzero(near)[np.argmin(along[near])])
        _neighbour_tables[boxes] = table
    return _neighbour_tables[boxes]


def stroke_darkening(inputs: np.ndarray) -> float:
    """How far a player's strokes darken the paper (0..1 of the blank), from
    their crosses' network inputs (see STROKE_PERCENTILE); 1 where no cross
    shows enough of it."""
    darkened = _darkening(inputs)[:, INNER, INNER]
    each = [np.percentile(box[box >= STROKE_FROM], STROKE_PERCENTILE)
            for box in darkened if np.count_nonzero(box >= STROKE_FROM) >= MIN_PX]
    return float(np.median(each)) if each else 1.0


def _darkening(inputs: np.ndarray) -> np.ndarray:
    """Per box and pixel of its whole network input, how far the photo is
    darker than the blank there (0..1 of the blank), 0 where not paper."""
    photo = inputs[:, :3].mean(axis=1)
    blank = np.maximum(inputs[:, 3:6].mean(axis=1), 0.05)
    return np.where(paper_window(inputs), 1.0 - photo / blank, 0.0)


def _ink(inputs: np.ndarray, darkened: float = INK_DARKENED) -> np.ndarray:
    """Per box, which pixels of its whole network input are ink: paper
    darkened by more than ``darkened`` of the blank (see INK_DARKENED)."""
    return _darkening(inputs) > darkened


def _middle_share(ink: np.ndarray) -> float:
    """The median share of their ink that boxes holding any put in the middle."""
    inside = ink[:, INNER, INNER]
    counts = np.count_nonzero(inside, axis=(1, 2))
    held = counts > 0
    if not held.any():
        return 0.0
    return float(np.median(np.count_nonzero(inside[held] & _MIDDLE, axis=(1, 2)) / counts[held]))


_centre = (INNER_PX - 1) / 2
_MIDDLE = np.hypot(*np.mgrid[0:INNER_PX, 0:INNER_PX] - _centre) < INNER_PX / MIDDLE_PART
