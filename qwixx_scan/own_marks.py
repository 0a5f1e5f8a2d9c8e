"""Settle a doubtful box by the player's own marks on the same sheet.

A player marks a whole sheet with one pen, in one way. Where the networks
are unsure about a box (light pencil hatching, which two of the three
deciding networks learned too little of, is the common case), the boxes of
the same sheet read with confidence show what this player's crosses look
like and how much ink their empty boxes hold (skip lines, stray dots, the
shade of a curl). A box the networks doubted is taken as crossed when it
looks like this player's crosses on every count at once:

- the sheet has at least MIN_CROSSES boxes read crossed with confidence;
- the box holds as much ink as a cross (at least LIKE_CROSSES of the 10th
  percentile of their ink) and clearly more than any empty box of the sheet
  (EMPTY_MARGIN times the most, plus EMPTY_SLACK_MM2);
- but not more than MOST_INK times the most any cross holds: a thumb, a pen
  or a die over a box is more ink than a cross;
- its ink has the colour of their ink (the direction of the mean darkening
  in BGR within COLOUR_COSINE, its strength within DARKNESS_RANGE of
  theirs): a shadow or a skin-coloured thumb is not the player's pen;
- its mark lies where their marks lie in their boxes (see PLACE_SLACK_PX):
  a die or a pen at the box's corner is not their cross;
- all five networks together lean crossed (their median at LEAN or more);
  or, where they lean empty, it is like the crosses by both measures of
  its amount below (ink and darkened paper), and its darkened paper covers
  as much of the box as the crosses' does and no more (see COVER_MARGIN):
  light pencil shading, which the networks read empty most of all, though
  seldom with certainty (see HATCHED_MIN_VOTE).

Only boxes doubted for their mark are considered, never a box doubted for
where it was found or for holding much ink while read empty.

Chosen on every box of 700 independent photos (benchmarks/foreign_photos.py,
seeds 1-5: 36,140 boxes) and 1,650 photogen photos (seeds 4, 5, 7, 9-12
and the rule-breaking set: about 86,000 boxes): 47 and 6 doubtful boxes
taken as crossed rightly, none wrongly but a printed chain ring off its
place in a red-pen sheet, which the rules then caught
(:func:`qwixx_scan.settle.keep_rule_abiding`). Without the colour test one
more box went wrong; with the 95th percentile of the empty boxes' ink in
place of their most, 11 more went right and none wrong on these sets, but
"more than any empty box" is the guarantee worth keeping.

The ink count compares a box with the darkest print near it, so light
pencil over a coloured number, paler than the print, often counts as no ink
at all (0 mm^2 for crosses a person sees at once). So the amount is also
measured as the pixels darkened (see :func:`darkened_pixels`: paper darker
than the blank sheet there by DARKENED, print and its edges left out), and a
box is like the player's crosses by either measure, with the same tests
(DARK_EMPTY_MARGIN and DARK_EMPTY_SLACK_PX for the empty boxes). Chosen on
the readings of the 7,582 sheets of all benchmark sets (5,740 photos:
independent seeds 1-28, tables 1-17, photogen seeds 4, 5, 7, 9 and 11): it
took 26 more doubtful boxes as crossed, all rightly (without the colour
test 29, with the empty boxes' most doubled rather than times 2.5 no
more). Scanned anew, the 5,740 photos gave 7,038 -> 7,047 sheets exact and
1,052 -> 1,032 doubtful boxes, no box more wrong (the rules then decide
about some of the boxes it settles).
"""

from __future__ import annotations

import cv2
import numpy as np

from .box_model import INPUT_PX

MIN_CROSSES = 4
LIKE_CROSSES = 0.5
EMPTY_MARGIN = 2.0
EMPTY_SLACK_MM2 = 1.0
MOST_INK = 1.5
COLOUR_COSINE = 0.95
DARKNESS_RANGE = (0.5, 2.0)
LEAN = 0.5
#: Where the networks lean empty (median below LEAN), a box is taken only if
#: it is like the crosses by both measures of its amount (its ink and its
#: darkened paper, see _as_much_as_crosses) and its darkened paper (see
#: :func:`darkened_pixels`) covers at most COVER_MARGIN times the share of
#: the box's paper that the crosses' median covers, plus COVER_SLACK: a
#: player's hatching leaves paper between its strokes as every other box
#: they hatched does, where the shade of a curl or a shadow darkens a box
#: whole; and a fold's or a shadow's edge may darken part of a box like a
#: mark but holds next to no ink darker than the print. Over the doubtful
#: boxes of the 6,157 independent sheets at hand (seeds 41, 43, 55-76,
#: tables 14, 16, 35-50) 13 crosses (10 of them pencil fills, read at
#: 0.045-0.46) are taken so, and no other box: 11 sheets more exact.
#: Without the share test, two empty boxes of photogen's seed 4 would have
#: been taken: a green 9 in deep shade (0.59 of its paper darkened, the
#: player's scribbles 0.40) and a red 2 half under a shadow (0.53, their
#: slashes 0.10); without the ink, two empty boxes under a fold
#: (spoilt_photos.py's ``crease``, independent seed 70) with as much
#: darkened paper as crosses, each on a sheet then ``ok`` with a wrong
#: score (3 more sheets would have been read exactly).
COVER_MARGIN = 1.2
COVER_SLACK = 0.03
#: ... and only on the sheet of a player who hatches: whose crosses (their
#: median) darken at least HATCHING_COVER of their box's paper. Hard
#: independent seed 116, photo 76: the end of a slash (a player's slashes
#: darken 12 % of a box) that overshot from yellow 10 into the empty
#: yellow 11 (6 %) was taken as crossed, on a sheet then `ok` with a wrong
#: score. The 10 boxes rightly taken so over the 8,197 independent sheets
#: at hand were all on sheets of pencil fills, whose crosses darken 20-42 %.
HATCHING_COVER = 0.16
#: ... and only where the networks saw something of a mark there: their
#: median at least HATCHED_MIN_VOTE. Hard independent table 140, photo 0
#: (dim, noise 12 of 255): a die's soft shadow over the empty penalty 1 of
#: a player circling numbers in pencil darkened 34 % of its paper, grey
#: like pencil, with twice the ink of their circles (which darken 28 % of
#: their boxes in the noise); ``d`` leaned crossed (0.58), so it was
#: doubted, but the five networks' median was 0.006, and it was taken as
#: hatched: the sheet was in review only for another box. The 8 boxes
#: rightly taken so over the 52 independent sets at hand (7,558 sheets),
#: pencil fills and one felt pen's check, read 0.125-0.489; those of the
#: earlier sets 0.045 or more.
HATCHED_MIN_VOTE = 0.02
#: Darkened pixels: where the blank sheet is at least PAPER_BLANK light
#: (grey, 0..1) at a pixel of the network input and all round it (3 x 3
#: px: the edges of print, which a slight misplacement darkens, are left
#: out), a pixel of the photo darker than the blank by DARKENED of it holds
#: a mark.
PAPER_BLANK = 0.7
DARKENED = 0.12
DARK_EMPTY_MARGIN = 2.5
DARK_EMPTY_SLACK_PX = 3.0
#: A box is taken by its darkened paper alone only where the player's
#: crosses (their median) darken at least MIN_CROSS_COVER of the box's
#: middle: where they darken less, a speck darkens as much as a cross. Hard
#: independent seed 104 photo 25: a player crossing with small, light
#: pencil X's (about 1 % of the box each) left two pencil dots in the empty
#: green 2 (about 1 % too), taken as crossed, on a sheet then in review only
#: for the lock the wrong cross called missing. Of the 71 boxes taken by
#: own marks over the 4,823 sheets then at hand, only that box and a right
#: X of the same sheet were taken by darkened paper where the crosses
#: darkened under 9 % of the box.
MIN_CROSS_COVER = 0.03
#: The box in its network input, not its surroundings: the middle
#: INNER_PX x INNER_PX pixels (rows and columns INNER).
INNER_PX = INPUT_PX - 2 * (INPUT_PX // 6)
INNER = slice(INPUT_PX // 6, INPUT_PX // 6 + INNER_PX)
#: A player who circles the numbers leaves the paper round the middle of
#: the box bare: their crosses (at least MIN_CROSSES, read with confidence)
#: darken a median under CIRCLE_MIDDLE_COVER of the paper within
#: CIRCLE_MIDDLE_PX of the middle of the box (of its INNER_PX, about 9 mm);
#: an X, a slash, a check or a fill runs through it. Over the pencil sheets
#: of the 72 independent sets at hand (2,050 with MIN_CROSSES or more read
#: with confidence), the 185 circling players' median was 0.104 at most
#: (3 over CIRCLE_MIDDLE_COVER), the 1,861 others' 0.047 at least (one
#: under it: 7 slashes, hard table 223 photo 29).
CIRCLE_MIDDLE_PX = 8
CIRCLE_MIDDLE_COVER = 0.05
#: The pixels of a box's middle within CIRCLE_MIDDLE_PX of its centre.
_MIDDLE = np.hypot(*(np.mgrid[0:INNER_PX, 0:INNER_PX] - (INNER_PX - 1) / 2)) < CIRCLE_MIDDLE_PX
#: A box is like the player's crosses only where the middle of its
#: darkened paper (:func:`darkened_paper`) lies no farther from the middle
#: of the box than that of their crosses read with confidence that lies
#: farthest, plus PLACE_SLACK_PX (of the INNER_PX window, about 1 mm); a
#: box with fewer than PLACE_MIN_PX darkened pixels is not judged so (its
#: ink may be over the print). Fresh independent table 296, photo 37 (a
#: normal photo, five Kettingen sheets): a yellow die lay over the top left
#: corner of the empty red 6 of a red pen's circles; the networks split
#: (0.5), the die's edge and shadow made as much ink as a circle in about
#: the pen's colour, and the box was taken as crossed: the sheet came out
#: ``ok`` with 66 points instead of 58. Its darkened paper lay 15.3 px from
#: the middle, the player's circles' 7.6 at most. Of the 167 boxes taken
#: by own marks over the 87 independent sets at hand and the 13 stained
#: copies (10,160 photos), the crosses lay at most 3.1 px beyond their
#: player's farthest (a check's short stroke in a corner); that box 7.7,
#: an empty box of a stained copy by a ring's rim 4.7. Not where the light
#: washes the box out (glare.WASHED_OUT, asked by the reader): a lamp's
#: reflection leaves part of a cross, off the middle (independent seed 70,
#: photo 16 under ``scan_benchmark.py --spoil glare``: a black X's darkened
#: paper 7.7 px off, the player's others 2.3 at most).
PLACE_SLACK_PX = 4.0
PLACE_MIN_PX = 10
#: Ink for its colour (ink_colours): photo darker than this share of the
#: paper, where the blank sheet is lighter than INK_COLOUR_PAPER (not print).
INK_COLOUR_BELOW = 0.8
INK_COLOUR_PAPER = 0.85


def like_own_crosses(crossed: np.ndarray, empty: np.ndarray, doubtful: np.ndarray,
                     ink_mm2: np.ndarray, colour: np.ndarray, vote: np.ndarray,
                     darkened: np.ndarray | None = None,
                     paper: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Which of the ``doubtful`` boxes (bool per box) look like this player's
    crosses, by their ink and by their darkened pixels: two bool arrays per
    box. ``crossed``/``empty``: bool per box, read with confidence.
    ``ink_mm2``: ink per box; ``colour``: its mean darkening per BGR channel
    (n x 3, see :func:`ink_colours`); ``vote``: the five
    networks' median P(crossed) (used where ``doubtful``); ``darkened``: per
    box, see :func:`darkened_pixels` (None: by ink alone); ``paper``: per
    box, how many pixels of its middle are paper (see :func:`paper_pixels`;
    None: only boxes the networks lean crossed are taken). None is taken by
    its darkened pixels alone where the crosses darken under MIN_CROSS_COVER
    of the box."""
    nothing = np.zeros(len(ink_mm2), bool)
    if np.count_nonzero(crossed) < MIN_CROSSES or not doubtful.any():
        return nothing, nothing
    theirs = np.median(colour[crossed], axis=0)
    strength = np.linalg.norm(theirs)
    if strength <= 0:
        return nothing, nothing
    mine = np.linalg.norm(colour, axis=1)
    cosine = colour @ theirs / np.maximum(mine * strength, 1e-9)
    darkness = mine / strength
    coloured = (doubtful & (cosine >= COLOUR_COSINE) & (darkness >= DARKNESS_RANGE[0])
                & (darkness <= DARKNESS_RANGE[1]))
    leaning = vote >= LEAN
    inked = _as_much_as_crosses(ink_mm2, crossed, empty, EMPTY_MARGIN, EMPTY_SLACK_MM2)
    if darkened is None:
        return coloured & leaning & inked, nothing
    shaded = _as_much_as_crosses(darkened.astype(np.float64), crossed, empty,
                                 DARK_EMPTY_MARGIN, DARK_EMPTY_SLACK_PX)
    hatched = nothing
    if paper is not None and hatches(crossed, darkened, paper):
        share = darkened / np.maximum(paper, 1)
        hatched = (~leaning & (vote >= HATCHED_MIN_VOTE) & inked & shaded
                   & (share <= COVER_MARGIN * np.median(share[crossed]) + COVER_SLACK))
    by_ink = coloured & ((leaning & inked) | hatched)
    if np.median(darkened[crossed]) < MIN_CROSS_COVER * INNER_PX**2:
        return by_ink, nothing
    return by_ink, coloured & leaning & shaded & ~by_ink


def placed_like_crosses(inputs: np.ndarray, crossed: np.ndarray,
                        ask: np.ndarray) -> np.ndarray:
    """Per box of ``ask`` (indices), whether its mark lies in the box where
    the player's crosses (``crossed``, bool per box) lie in theirs, as far
    as can be told (see PLACE_SLACK_PX): True where it holds too little
    darkened paper to tell, or none of the crosses does."""
    from .skip_lines import Spread  # (skip_lines builds on this module)

    theirs = np.flatnonzero(crossed)
    spread = Spread.of(darkened_paper(inputs[np.concatenate([theirs, ask])]))
    middle = (INNER_PX - 1) / 2
    off, pixels = np.hypot(spread.mx - middle, spread.my - middle), spread.pixels
    seen = pixels[:len(theirs)] > 0
    if not seen.any():
        return np.ones(len(ask), bool)
    farthest = float(off[:len(theirs)][seen].max())
    mine, mine_px = off[len(theirs):], pixels[len(theirs):]
    return (mine_px < PLACE_MIN_PX) | (mine <= farthest + PLACE_SLACK_PX)


def ink_colours(inputs: np.ndarray) -> np.ndarray:
    """Each box's ink colour: the mean darkening (1 - photo, paper = 1) per
    BGR channel over the pixels inside the box that are darker than 0.8 of
    the paper where the blank sheet is light (n x 3; zeros where none)."""
    photo = inputs[:, :3, INNER, INNER]
    ink = (photo.min(axis=1) < INK_COLOUR_BELOW) & (inputs[:, 3:6, INNER, INNER].min(axis=1)
                                                    > INK_COLOUR_PAPER)
    count = np.maximum(ink.sum(axis=(1, 2)), 1)[:, None]
    return ((1.0 - photo) * ink[:, None]).sum(axis=(2, 3)) / count


def hatches(crossed: np.ndarray, darkened: np.ndarray, paper: np.ndarray, *,
            cover: float = HATCHING_COVER) -> bool:
    """Whether the player hatches their crosses: at least MIN_CROSSES of
    them (``crossed``, bool per box) darken (``darkened``, see
    :func:`darkened_pixels`) a median ``cover`` or more of their box's
    paper (``paper``: its pixels per box)."""
    if np.count_nonzero(crossed) < MIN_CROSSES:
        return False
    share = darkened[crossed] / np.maximum(paper[crossed], 1)
    return float(np.median(share)) >= cover


def circles(crossed: np.ndarray, inputs: np.ndarray, paper: np.ndarray) -> bool:
    """Whether the player circles the numbers (see CIRCLE_MIDDLE_COVER):
    ``crossed`` (bool per box) their crosses, ``inputs`` every box's network
    input and ``paper`` its :func:`paper_pixels`."""
    if np.count_nonzero(crossed) < MIN_CROSSES:
        return False
    darkened = darkened_paper(inputs[crossed], paper=paper[crossed])
    middle = _MIDDLE & paper[crossed]
    cover = np.count_nonzero(darkened & middle, axis=(1, 2)) \
        / np.maximum(np.count_nonzero(middle, axis=(1, 2)), 1)
    return float(np.median(cover)) < CIRCLE_MIDDLE_COVER


def _as_much_as_crosses(amount: np.ndarray, crossed: np.ndarray, empty: np.ndarray,
                        margin: float, slack: float) -> np.ndarray:
    """Per box: as much as a cross (LIKE_CROSSES of their 10th percentile),
    clearly more than any empty box (``margin`` times their most plus
    ``slack``), not more than MOST_INK times the most any cross has."""
    of_crosses = amount[crossed]
    most_empty = amount[empty].max() if empty.any() else 0.0
    low = max(LIKE_CROSSES * np.percentile(of_crosses, 10), margin * most_empty + slack)
    return (amount >= low) & (amount <= MOST_INK * of_crosses.max())


def darkened_pixels(inputs: np.ndarray, paper: np.ndarray | None = None) -> np.ndarray:
    """Per box, how many pixels of the box (the middle of its network input,
    see box_inputs) show paper darkened: the blank sheet at least
    PAPER_BLANK light there and all round, the photo darker than it by
    DARKENED of it. Measured against the blank pixel by pixel, light pencil
    over a coloured box counts as well as dark ink. ``paper``:
    :func:`paper_pixels` of ``inputs``, where known already."""
    return np.count_nonzero(darkened_paper(inputs, paper=paper), axis=(1, 2))


def darkened_paper(inputs: np.ndarray, by: float = DARKENED,
                   paper: np.ndarray | None = None) -> np.ndarray:
    """Which pixels of each box's middle (n x INNER_PX x INNER_PX, bool) show
    paper darkened (``by`` of the blank or more; see :func:`darkened_pixels`).
    ``paper``: :func:`paper_pixels` of ``inputs``, where known already."""
    photo, inner_blank = middle_greys(inputs)
    paper = paper_pixels(inputs) if paper is None else paper
    return paper & (photo < inner_blank * (1 - by))


def darkened_window(inputs: np.ndarray, paper: np.ndarray | None = None) -> np.ndarray:
    """:func:`darkened_paper` over each box's whole network input (n x
    INPUT_PX x INPUT_PX, bool). ``paper``: :func:`paper_window` of
    ``inputs``, where known already."""
    photo, blank = window_greys(inputs)
    paper = paper_window(inputs) if paper is None else paper
    return paper & (photo < blank * (1 - DARKENED))


def middle_greys(inputs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`window_greys` at each pixel of each box's middle (n x INNER_PX x
    INNER_PX)."""
    return window_greys(inputs[:, :, INNER, INNER])


def window_greys(inputs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The photo's and the blank's grey (their channels' mean, the blank's at
    least 0.05) at each pixel of each box's input."""
    return inputs[:, :3].mean(axis=1), np.maximum(inputs[:, 3:6].mean(axis=1), 0.05)


def paper_pixels(inputs: np.ndarray) -> np.ndarray:
    """Which pixels of each box's middle (n x INNER_PX x INNER_PX, bool) are
    paper: the blank sheet at least PAPER_BLANK light there and all round."""
    return paper_window(inputs)[:, INNER, INNER]


def paper_window(inputs: np.ndarray) -> np.ndarray:
    """:func:`paper_pixels` over each box's whole network input (n x
    INPUT_PX x INPUT_PX, bool): the box's middle and the margin around it."""
    blank = inputs[:, 3:6].mean(axis=1)
    n, size = blank.shape[:2]
    if n == 0:
        return np.zeros((0, size, size), bool)
    # The boxes stacked into one column for a single 3 x 3 erosion (a
    # quarter of the time of nine shifted numpy copies): where two boxes
    # meet, their margins mix (a row or two at the window's top and bottom).
    darkest_around = cv2.erode(np.ascontiguousarray(blank.reshape(n * size, size)),
                               np.ones((3, 3), np.uint8), borderType=cv2.BORDER_REPLICATE)
    return darkest_around.reshape(n, size, size) >= PAPER_BLANK
