"""Toss-ups on a pen player's sheet that hold none of their pen's ink.

A player marks a whole sheet with one pen. A ballpoint's or a felt pen's
cross leaves deep ink (box_inputs.DEEP_INK_DARKNESS: far darker than the
print), measured against the paper around the box, so a dim photo or a
shadow does not take it away. Where the networks cannot decide about a
box (verdict.DOUBTFUL_MARK: two of them sure of opposite verdicts) on the
sheet of such a player, every cross of which holds a good share of that
deep ink, and the box holds almost none of it and little darkened paper,
nothing of their pen is there: the box is taken as empty (PENLESS_EMPTY).

Most such toss-ups are clean boxes in dark, grainy photos, where the grain
looks like a trace of pencil to the network that learned the most pencil
(``d``) in one view and not in the others; the rest are the shade of a
die, a neighbour's overshooting stroke at the box's edge, or a drink's
dried ring, which is brown and lighter than any pen.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .own_marks import MIN_CROSSES
from .their_crosses import writes_with_a_pen
from .verdict import DOUBTFUL_MARK, BoxVerdict

#: A toss-up is taken as empty where it holds under PENLESS_DEEP_SHARE of
#: the deep ink of the player's crosses (their median, at least
#: their_crosses.PEN_DEEP_INK_MM2: a pen, not a pencil) and its darkened
#: paper (own_marks.darkened_pixels) is under PENLESS_DARK_SHARE of theirs
#: (a mark in some other, lighter pen or a pencil still darkens the paper).
#: Over the toss-ups left at the end of reading on the 123 independent sets
#: at hand and their stained, folded and spoilt copies (1,573 boxes of
#: 1,157 photos; 751 on pen sheets), the 24 crosses among those on pen
#: sheets held 0.585 or more of their player's deep ink, but for 11 under a
#: lamp's glare, which washes a pen's ink out too (glare.WASHED_OUT: such
#: boxes are left alone) and held none.
#:
#: Nothing is taken on a sheet where a box read crossed holds under
#: PENLESS_WEAKEST_SHARE of that median: there the pen does not leave its
#: deep ink in every cross, and a toss-up's want of it proves nothing. A
#: coloured pen's crosses over dark print (green and blue rows above all)
#: hold far less deep ink than over pale print: over those 1,157 photos,
#: 480 right crosses on pen sheets held under 0.3 of their player's median,
#: many 0.10-0.12, so a cross over such print that the networks split on
#: could hold under 0.1 while the sheet's others hold a little more; with
#: every cross at 0.2 or more, a toss-up taken holds under half of the
#: weakest. The same keeps a drink's ring alone, read crossed where it runs
#: through an empty box (0-0.057 of the pen's deep ink): the toss-up may be
#: all that keeps such a sheet in review. Every sheet of the survey with a
#: toss-up to take and a box read crossed wrongly (31, all but two stained
#: copies) had such a box; without this, 15 stained sheets came out ``ok``
#: with a wrong score. It leaves 62 of the 89 empty boxes on plain,
#: folded and spoilt sheets that the share alone would take (at 0.1, 89;
#: at 0.3, 38).
PENLESS_DEEP_SHARE = 0.1
PENLESS_DARK_SHARE = 0.5
PENLESS_WEAKEST_SHARE = 0.2
PENLESS_EMPTY = ("read empty: the networks could not decide, but it holds none of the dark ink "
                 "this player's pen leaves in their crosses")


def penless_toss_ups(verdicts: list[BoxVerdict], deep_ink_mm2: np.ndarray,
                     darkened: np.ndarray, washed: np.ndarray) -> list[BoxVerdict]:
    """The verdicts with each toss-up (DOUBTFUL_MARK) that holds none of
    the player's pen's ink taken as empty (see PENLESS_DEEP_SHARE).
    ``deep_ink_mm2``: deep ink per box; ``darkened``: darkened paper per box
    (own_marks.darkened_pixels); ``washed``: boxes the light may wash out,
    left alone. Nothing is taken where a box read crossed holds little deep
    ink (see PENLESS_WEAKEST_SHARE)."""
    crossed = np.array([v.state == "crossed" for v in verdicts], bool)
    if np.count_nonzero(crossed) < MIN_CROSSES or not writes_with_a_pen(crossed, deep_ink_mm2):
        return verdicts
    their_deep = float(np.median(deep_ink_mm2[crossed]))
    if deep_ink_mm2[crossed].min() < PENLESS_WEAKEST_SHARE * their_deep:
        return verdicts
    penless = deep_ink_mm2 < PENLESS_DEEP_SHARE * their_deep
    their_dark = float(np.median(darkened[crossed]))
    out = list(verdicts)
    for i, v in enumerate(verdicts):
        if (v.state == "uncertain" and v.note == DOUBTFUL_MARK and not washed[i]
                and penless[i] and darkened[i] < PENLESS_DARK_SHARE * their_dark):
            out[i] = replace(v, state="empty", note=PENLESS_EMPTY, lean="",
                             confidence=round(1 - float(deep_ink_mm2[i]) / their_deep, 3))
    return out
