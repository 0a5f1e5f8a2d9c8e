"""Toss-ups on a pen player's sheet that hold none of their pen's ink.

A player marks a whole sheet with one pen. A ballpoint's or a felt pen's
cross leaves deep ink (box_inputs.DEEP_INK_DARKNESS: far darker than the
print), measured against the paper around the box, so a dim photo or a
shadow does not take it away; where some cross of the sheet holds
hardly any, nothing is taken (see PENLESS_DEEP_SHARE). Where the networks cannot decide about a box
(verdict.DOUBTFUL_MARK: two of them sure of opposite verdicts) on the sheet
of such a player, and the box holds almost none of that deep ink and little
darkened paper, nothing of their pen is there: the box is taken as empty
(PENLESS_EMPTY).

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
from .their_crosses import PEN_DEEP_INK_MM2
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
#: Nothing is taken on a sheet where a box read crossed holds as little of
#: the pen's deep ink: something other than the pen darkens its boxes (a
#: drink's dried ring above all, read crossed where it runs through an
#: empty box), and the toss-up may be all that keeps such a sheet in
#: review. Over those 1,157 photos, every sheet with a toss-up so taken
#: and a box read crossed wrongly (31, all but two stained copies) had
#: such a box (its wrong cross: 0-0.057 of the pen's deep ink): without
#: this, 15 stained sheets came out ``ok`` with a wrong score. It also
#: keeps a pen whose crosses are not all dark alone: of the 96 plain,
#: folded and spoilt sheets with toss-ups to take and no wrong box, 13
#: had such a box, a right cross (circles and fills of a coloured pen
#: over print about as dark as its ink, a check's short stroke, crosses
#: under a fold), and keep their toss-ups.
PENLESS_DEEP_SHARE = 0.1
PENLESS_DARK_SHARE = 0.5
PENLESS_EMPTY = ("read empty: the networks could not decide, but it holds none of the dark ink "
                 "this player's pen leaves in their crosses")


def penless_toss_ups(verdicts: list[BoxVerdict], deep_ink_mm2: np.ndarray,
                     darkened: np.ndarray, washed: np.ndarray) -> list[BoxVerdict]:
    """The verdicts with each toss-up (DOUBTFUL_MARK) that holds none of
    the player's pen's ink taken as empty (see PENLESS_DEEP_SHARE).
    ``deep_ink_mm2``: deep ink per box; ``darkened``: darkened paper per box
    (own_marks.darkened_pixels); ``washed``: boxes the light may wash out,
    left alone."""
    crossed = np.array([v.state == "crossed" for v in verdicts], bool)
    if np.count_nonzero(crossed) < MIN_CROSSES:
        return verdicts
    their_deep = float(np.median(deep_ink_mm2[crossed]))
    penless = deep_ink_mm2 < PENLESS_DEEP_SHARE * their_deep
    if their_deep < PEN_DEEP_INK_MM2 or (penless & crossed).any():
        return verdicts
    their_dark = float(np.median(darkened[crossed]))
    out = list(verdicts)
    for i, v in enumerate(verdicts):
        if (v.state == "uncertain" and v.note == DOUBTFUL_MARK and not washed[i]
                and penless[i] and darkened[i] < PENLESS_DARK_SHARE * their_dark):
            out[i] = replace(v, state="empty", note=PENLESS_EMPTY, lean="",
                             confidence=round(1 - float(deep_ink_mm2[i]) / their_deep, 3))
    return out
