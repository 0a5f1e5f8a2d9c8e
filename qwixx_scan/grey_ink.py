"""A doubtful box in a coloured ink, read once more with its ink turned grey.

The box networks learned the inks of photogen's pens: blue and black
ballpoint, a black felt pen, a red pen and pencil. A felt pen of another
colour can leave them split on a plain mark: an orange pen's solid fill
(blue channel gone, green halved, red untouched), over a yellow or red row,
is a colour they saw only as print, and two of them were sure of a cross
and one sure of an empty box, box after box
(benchmarks/unseen_marks_benchmark.py, fills: 5 of the 6 orange sheets
with every box doubted). The shape of a mark does
not depend on its colour: the same box with its ink turned the grey of
equal strength, a mark such as they learned in black pen or pencil, they
read crossed with one voice (all five networks 0.97-1.0 on those fills).

So a box doubted for its mark (ASKED) whose ink is coloured (its weakest
channel's darkening under COLOURED_SHARE of its strongest) and of the
player's colour (:func:`in_their_colour`) is read once more in grey
(:func:`grey_ink`), and taken as crossed where the networks are sure of a
cross there (verdict.sure_of_a_cross) and it is no drink's ring (see
RIM_MOST_INK_MM2). It is never made empty, and no other box is asked. A
sheet in black ink or pencil is not asked: those are grey already, and
turning a pencil box grey only takes its colour noise away (over the
independent sets surveyed, the one doubtful empty box the networks read
crossed in a per-pixel grey was a pencil player's, dim and noisy), while a
drink's brown ring across an empty box of a pencil player's sheet is
coloured and read crossed in grey like a pencil slash (stained independent
seed 257, photo 91).

Surveyed before it was kept: on the unseen-marks benchmark (280 sheets,
14,560 boxes) no doubtful empty box was read crossed in grey by the three
deciding networks, and 110 doubtful crosses were (84 orange fills, 24
red, purple and orange hatchings, a turned X); over 14 independent sets
(1,440 photos, 295 doubtful boxes) no doubtful empty box either. As kept:
unseen fills 9 -> 11 of 20 exact (doubtful boxes 292 -> 66), hatchings 7 ->
8 (324 -> 253), no box wrong; the nine stained sets (1,314 sheets) read as
before, box for box.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from .own_marks import COLOUR_COSINE, ink_colours
from .verdict import DOUBTFUL_MARK, NARROW_MIRRORED, BoxVerdict, sure_of_a_cross

#: A box's ink is coloured where the darkening of its weakest channel is
#: under this share of its strongest's. Black ink and pencil darken the
#: three channels alike (over the unseen-marks benchmark's crosses, a median
#: of 0.84 and 0.80); navy and dark green 0.63-0.64, purple 0.54, pure blue
#: and red 0.26-0.27, orange 0.16.
COLOURED_SHARE = 0.7
#: The doubts asked about: a doubtful mark, and a box read crossed only
#: narrowly that a mirrored view reads empty (their_crosses.NARROW_VIEW_DOUBT,
#: which is there for a pencil line through a skipped number: grey).
ASKED = (DOUBTFUL_MARK, NARROW_MIRRORED)
#: A pen's blue or red is near enough a drink ring's brown for the colour
#: test: on the stained copies of the independent sets (spoilt_photos.py
#: ``stain``: seeds 9, 70, 257, 259, 261, every photo hard 258 and 262,
#: table 232, hard table 233) three empty boxes a ring runs through, on a
#: blue, a green and a red pen's sheet (the ring's colour 0.96-0.97 of
#: theirs), were read crossed in grey; two came out as wrong boxes, on
#: sheets still in review for other boxes. So a box holding no more ink
#: than RIM_MOST_INK_MM2 is not taken where the network that learned rings
#: reads it empty (read.RIM_EMPTY_P; it read those three 0.03-0.08). The
#: ring's line holds little ink: the 36 empty boxes asked on those sheets
#: held 0.2-6.7 mm^2; the boxes taken on the unseen-marks benchmark, fills
#: and hatchings, 15-56 (and a turned X, 7.5). Asked about every box,
#: that network read 41 of the 91 fills taken empty too (fill sheets 11 ->
#: 9 exact, doubtful boxes 66 -> 150).
RIM_MOST_INK_MM2 = 12.0
GREY_INK_REASON = "in a coloured ink, read crossed by every network once its ink is turned grey"


def grey_ink(inputs: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """The boxes' network inputs (n x 6 x INPUT_PX x INPUT_PX: photo BGR with
    paper = 1, blank BGR) with each box's ink turned grey: at each pixel the
    darkening against the blank along the box's ink colour (``colours``, n x
    3, see own_marks.ink_colours; the least-squares strength of that colour,
    its strongest channel counting 1) taken off all three channels alike.
    Print, which the photo shows as the blank does, stays as it is."""
    photo, blank = inputs[:, :3], inputs[:, 3:6]
    darkening = 1.0 - photo / np.maximum(blank, 0.05)
    direction = colours / np.maximum(colours.max(axis=1, keepdims=True), 1e-6)
    weight = np.maximum((direction * direction).sum(axis=1), 1e-6)
    strength = np.einsum("nc,nchw->nhw", direction, darkening) / weight[:, None, None]
    out = inputs.copy()
    out[:, :3] = blank * (1.0 - np.clip(strength, -1.0, 1.0))[:, None]
    return out.astype(np.float32)


def coloured(colours: np.ndarray) -> np.ndarray:
    """Per box, whether its ink (``colours``, n x 3 mean darkening per
    channel) is coloured: see COLOURED_SHARE. A box without ink is not."""
    strongest = colours.max(axis=1)
    return (strongest > 0) & (colours.min(axis=1) < COLOURED_SHARE * strongest)


def crossed_in_grey(verdicts: list[BoxVerdict], inputs: np.ndarray, ink_mm2: np.ndarray,
                    classifier, like_a_rim: Callable[[np.ndarray], np.ndarray]
                    ) -> list[BoxVerdict]:
    """``verdicts`` with every box doubted for its mark (ASKED), in the
    player's coloured ink (see :func:`in_their_colour`), that the networks
    are sure is crossed with its ink turned grey taken as crossed
    (``settled`` says why, so that the rules may doubt it again); not a box
    holding no more ink (``ink_mm2``, per box) than RIM_MOST_INK_MM2 that
    ``like_a_rim`` (given such boxes' inputs, per box) takes for a drink's
    dried ring."""
    doubtful = np.array([v.state == "uncertain" and v.note in ASKED for v in verdicts])
    if not doubtful.any():
        return verdicts
    colours = ink_colours(inputs)
    marks = doubtful | np.array([v.state == "crossed" for v in verdicts])
    ask = np.flatnonzero(doubtful & in_their_colour(colours, marks))
    if not len(ask):
        return verdicts
    each = classifier.each_probability(grey_ink(inputs[ask], colours[ask]))
    sure = sure_of_a_cross(each)
    thin = sure & (ink_mm2[ask] <= RIM_MOST_INK_MM2)
    if thin.any():
        sure[thin] = ~like_a_rim(inputs[ask[thin]])
    out = list(verdicts)
    for i, p in zip(ask[sure], np.median(each[:, sure], axis=0)):
        out[i] = replace(verdicts[i], state="crossed", confidence=round(float(p), 3),
                         note=f"settled: {GREY_INK_REASON}", settled=GREY_INK_REASON)
    return out


def in_their_colour(colours: np.ndarray, marks: np.ndarray) -> np.ndarray:
    """Per box, whether its ink is coloured and of the player's colour: the
    median ink colour of the boxes with a mark (``marks``: read crossed or
    doubted for their mark) is coloured, and the box's lies within
    own_marks.COLOUR_COSINE of it. A drink's dried ring is brown, a
    coloured line across an empty box that the networks read crossed in grey
    like a pencil slash (spoilt_photos.py ``stain``, seed 257 photo 91: a
    pencil player's sheet, which then came out ``ok`` with a wrong score);
    on a sheet of black ink or pencil it is no player's colour."""
    if not marks.any():
        return np.zeros(len(colours), bool)
    theirs = np.median(colours[marks], axis=0)
    if not coloured(theirs[None])[0]:
        return np.zeros(len(colours), bool)
    cosine = colours @ theirs / np.maximum(np.linalg.norm(colours, axis=1)
                                           * np.linalg.norm(theirs), 1e-9)
    return coloured(colours) & (cosine >= COLOUR_COSINE)
