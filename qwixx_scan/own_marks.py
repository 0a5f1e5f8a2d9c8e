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
- all five networks together lean crossed (their median at LEAN or more).

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
"""

from __future__ import annotations

import numpy as np

MIN_CROSSES = 4
LIKE_CROSSES = 0.5
EMPTY_MARGIN = 2.0
EMPTY_SLACK_MM2 = 1.0
MOST_INK = 1.5
COLOUR_COSINE = 0.95
DARKNESS_RANGE = (0.5, 2.0)
LEAN = 0.5


def like_own_crosses(crossed: np.ndarray, empty: np.ndarray, doubtful: np.ndarray,
                     ink_mm2: np.ndarray, colour: np.ndarray, vote: np.ndarray) -> np.ndarray:
    """Which of the ``doubtful`` boxes (bool per box) look like this player's
    crosses. ``crossed``/``empty``: bool per box, read with confidence.
    ``ink_mm2``: ink per box; ``colour``: its mean darkening per BGR channel
    (n x 3, see :func:`qwixx_scan.read.ink_colours`); ``vote``: the five
    networks' median P(crossed) (used where ``doubtful``)."""
    out = np.zeros(len(ink_mm2), bool)
    if np.count_nonzero(crossed) < MIN_CROSSES or not doubtful.any():
        return out
    cross_ink = ink_mm2[crossed]
    most_empty = ink_mm2[empty].max() if empty.any() else 0.0
    low = max(LIKE_CROSSES * np.percentile(cross_ink, 10),
              EMPTY_MARGIN * most_empty + EMPTY_SLACK_MM2)
    high = MOST_INK * cross_ink.max()
    theirs = np.median(colour[crossed], axis=0)
    strength = np.linalg.norm(theirs)
    if strength <= 0:
        return out
    mine = np.linalg.norm(colour, axis=1)
    cosine = colour @ theirs / np.maximum(mine * strength, 1e-9)
    darkness = mine / strength
    return (doubtful & (ink_mm2 >= low) & (ink_mm2 <= high) & (cosine >= COLOUR_COSINE)
            & (darkness >= DARKNESS_RANGE[0]) & (darkness <= DARKNESS_RANGE[1])
            & (vote >= LEAN))
