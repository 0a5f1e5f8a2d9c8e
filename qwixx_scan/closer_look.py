"""Doubtful boxes looked at closer: by the close-look network
(box_model.CloseLook, about 7 px/mm where the others see 3.5), and chain
ends by the pencil network too.

On the sheet of a player who writes without a pen, a box doubted for its
mark is taken as crossed where every view reads it crossed
(CLOSE_CROSSED_P), and boxes read empty are doubted where the close look
sees a cross (CLOSE_EMPTY_DOUBT, CLOSE_HATCHED_DOUBT,
CLOSE_DISPUTED_DOUBT); on any sheet a box doubted for its mark while the
networks lean empty is taken as empty where every view reads it empty
(CLOSE_EMPTY_P), and on a pencil sheet its faint doubts where nothing
faint hides on it (FAINT_CLOSE_EMPTY_P): see :func:`seen_close`. A pencil
circle hidden in a printed chain ring is doubted by
:func:`chain_rings_doubted` and :func:`broken_chains_doubted`. Each box
is shown to the close look once (:class:`CloseViews`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from qwixx_print.layout import Sheet

from .box_inputs import LocatedInputs
from .box_model import (DECIDERS, MEMBERS, MIRRORED_VIEWS, BoxClassifier, CrossedReading,
                        box_classifier, close_look)
from .own_marks import MIN_CROSSES
from .verdict import (DOUBTFUL_MARK, FAINT_DARK_PX, FAINT_DOUBT, HARDLY_ANY_INK, LIGHT_CROSS,
                      NARROW_MIRRORED, BoxVerdict, read_empty_unstruck, taken_as_crossed,
                      too_doubtful)

#: A box of a player whose crosses leave no pen's deep ink, still doubtful
#: after the darker look (read.DARKER_LOOKS) for one of these notes, is shown to
#: the close-look network (box_model.CloseLook: about 7 px/mm where the
#: others see 3.5) as it is and mirrored, and taken as crossed
#: (CLOSE_CROSSED) where every view reads it CLOSE_CROSSED_P or more, on a
#: sheet with fewer than verdict.MANY_DOUBTFUL doubtful boxes. Of the 179 such boxes
#: over the 46 independent sets at hand and photogen's 300 (6,874 sheets),
#: 100 crosses and 79 not (lines through skipped numbers, dots, empty boxes
#: in dim, grainy photos), 45 crosses read 0.93 or more in every view, no
#: other box above 0.81 (a pencil line through a skipped green 10, table 73
#: photo 24). Not for a box a mirrored view doubted over one decider's doubt
#: (box_model.SPLIT: the long stroke of a red check in hard table 14 photo
#: 37, reaching into the corner of an empty yellow 11, reads 0.945 close;
#: see verdict.BoxEvidence.mirrored_doubt), nor for the faint-crosses doubts of
#: boxes read empty (one cross among them reads under 0.1 close). Where it
#: takes a box, the sheet's boxes read empty are looked at closer too, and
#: doubted (CLOSE_DOUBTED) where some view reads CLOSE_EMPTY_DOUBT or more:
#: its doubts no longer shield a miss. Read again, the sets above: 32 boxes
#: taken, all crosses (6,619 -> 6,636 sheets exact), and 3 boxes doubted
#: that the networks had read empty, all three crosses missed (wrong boxes 8
#: -> 5; hard table 72 photo 17's pencil fill in red 5 would otherwise have
#: come out ``ok`` with a wrong score once its two doubtful neighbours were
#: taken). A box read crossed only narrowly and doubted mirrored
#: (verdict.NARROW_MIRRORED) is asked too: over the 61 independent sets at hand
#: (9,341 sheets) 27 such boxes stayed doubtful, 25 crosses (14 of them
#: pencil, reading 0.946 or more in every view) and 2 not (hard table 67
#: photo 35's grainy skip line, see their_crosses.NARROW_VIEW_DOUBT, reads 0.174 in one
#: view; a red one 0.3).
CLOSE_LOOK = (DOUBTFUL_MARK, HARDLY_ANY_INK, LIGHT_CROSS, NARROW_MIRRORED)
#: Nor does it take a box whose mark would look like a line through a
#: skipped number were it read crossed (see their_crosses.SKIP_LIKE_TILT_DEG): on a hard
#: independent table photo (seed 138, photo 10) a pencil line rising 23
#: degrees through a skipped green 10 of an X player (0.08 mm^2 of ink)
#: read 0.951 close in every view; taken, the sheet came out ``ok`` with a
#: wrong score. Of the 118 boxes the close look took over 76 independent
#: sets (2,250 photos with a pencil player), 116 were crosses, none of them
#: such a line. Nor one whose mark is a short flat trace (skip_lines.
#: short_flat_traces): fresh independent seed 265 photo 94, a pencil
#: player circling numbers lined the skipped yellow 10 low through its
#: digits, which hid all but 9 px of the line; the networks could not
#: decide (0.5), the close look read 0.965 in every view, and the sheet
#: came out ``ok`` with a wrong score. Of the 57 boxes the close look took
#: over the 56 sets at hand, all crosses, none is such a trace.
CLOSE_CROSSED_P = 0.93
CLOSE_CROSSED = "read crossed when looked at closer (light pencil)"
CLOSE_EMPTY_DOUBT = 0.5
CLOSE_DOUBTED = "read empty, but looked at closer it may be crossed"
#: A box still doubted for its mark (verdict.DOUBTFUL_MARK) while the networks
#: lean empty is shown to the close-look network too, on any player's
#: sheet with fewer than verdict.MANY_DOUBTFUL doubtful boxes, and taken as empty
#: (CLOSE_EMPTY) where every view reads it CLOSE_EMPTY_P or less. Most such
#: boxes are empty boxes in dim, grainy photos, where the grain looks like
#: a trace of pencil to some network, and lines through skipped numbers.
#: Over the 61 independent sets at hand (9,341 sheets), of the 239 boxes so
#: doubted at the end, 205 empty and 34 crossed: the crosses read 0.615 or
#: more close in some view (a light pencil check), 76 empty boxes 0.2 or
#: less in every view (96 at 0.3), and no sheet whose doubts all went so
#: held a box read wrong elsewhere. Not where the network that learned
#: turned marks (TURNED_MEMBER, see box_model) reads a cross
#: (TURNED_MEMBER_CROSSED_P or more): the close look did not learn them,
#: and read two X's drawn turned 20-40 degrees (unseen_marks_benchmark's
#: ``turned-x``, seed 7090013), which ``e`` read 0.98 and 1.0, empty at
#: 0.006; 3 of the 76 empty boxes above are kept doubtful for it. Stop 46
#: raised it from 0.2: of the 163 boxes so doubted after stop 45 (65
#: independent sets, 9,627 sheets), 37 read 0.2-0.4 in their highest view,
#: all empty boxes, skip lines and dots, while the 34 crosses read 0.615
#: or more; the 299 photos with a doubt of 73 sets read again, 24 sheets
#: more exactly, no box wrong, and the unseen-marks benchmark the same.
#: Nor where one of the deciding networks (box_model.DECIDERS) is sure of
#: a cross (TURNED_MEMBER_CROSSED_P or more): the box is then a toss-up
#: between networks sure of opposite verdicts, a mark one of them knows and
#: the others not (box_model.SURE). A small black slash curled into a hook
#: under a blue 12 (fresh hard independent seed 130, photo 2), which ``c``
#: read 0.97 and ``b`` and ``d`` 0.002, read 0.2 close up and the sheet
#: came out ``ok`` with a wrong score. Of the 63 boxes taken as empty so
#: over 40 independent sets (5,797 sheets), it was the only crossed one,
#: and two empty ones had a decider that sure (0.90, 0.96).
#: Nor where the light may have washed a cross out (glare.WASHED_OUT,
#: glare.CLIPPED_SHARE) and left none of a pen's dark ink (their_crosses.PEN_DEEP_INK_MM2):
#: close up the washed-out stroke is as faint as before. Under a lamp's
#: reflection (``scan_benchmark.py --spoil glare``) a black slash over
#: blue 8 (independent seed 9 photo 36, 4 % of the print's contrast left)
#: and a red X over red 6 (seed 70 photo 83, 22 %), toss-ups between the
#: networks without any ink left, read empty close up; the rules then
#: settled blue 8's chain partner empty too, and both sheets came out
#: ``ok`` with wrong scores. (A ballpoint's line through a skipped red 2,
#: its print hidden under 25 mm^2 of ink, 2.3 of it dark, measures as
#: washed out too: photogen's benchmark photo 105.)
CLOSE_EMPTY_P = 0.4
CLOSE_EMPTY = "read empty when looked at closer"
#: Nor on a sheet where the close look reads some other box read empty
#: CLOSE_UNSTEADY_P or more: where it sees a cross in an empty box, its word
#: that a doubtful box is empty is no better. Fresh hard independent table
#: seed 184, photo 34 (37 % exposure, noise 9, JPEG quality 42, a shadow
#: band): a player's tiny pencil X over red 3, hardly darker than the grain,
#: read 0.79, 0.53 and 0.2 by the first networks and 0.28 close up, was taken
#: as empty, and the sheet came out ``ok`` with a wrong score, while the
#: close look read the empty green 8 0.954 and yellow 7 0.80. Over the 104
#: independent sets at hand (15,092 sheets), of the 183 sheets where the
#: close look took a doubt as empty, that one read another empty box 0.9 or
#: more; the next 0.79, then 0.76 and 0.74 (pen sheets).
CLOSE_UNSTEADY_P = 0.9
TURNED_MEMBER = "e"
TURNED_MEMBER_CROSSED_P = 0.9
#: Nor where the box holds CLOSE_INKY_SHARE times the ink of the player's
#: crosses (the median of the boxes read crossed, with at least
#: own_marks.MIN_CROSSES of them) or more and some network reads a cross
#: there (CLOSE_INKY_SEEN_P or more): a mark as big as their crosses that
#: a network takes for one is not a speck the close look may dismiss.
#: Fresh hard independent seed 282, photo 19: a red pen's check mark drawn
#: flat through the bottom of blue 11, twice the ink of the player's checks,
#: read 0.89 by ``a`` and 0.83 by ``e`` but 0.19 and less by the deciders
#: and 0.32 close up, was taken as empty, and the sheet came out ``ok``
#: with a wrong score. Over the 92 independent sets at hand (13,305
#: sheets), of the 182 boxes the close look took as empty, 2 were crossed
#: (that one, and a pencil X holding a tenth of its player's ink); 9 of the
#: 180 empty ones held 1.5 times their player's crosses' ink or more (under
#: shadow bands, dice, a thumb), 3 of these with a network at
#: 0.8 or more (one on a sheet in review anyway).
CLOSE_INKY_SHARE = 1.5
CLOSE_INKY_SEEN_P = 0.8
#: A pencil player who hatches densely (own_marks.hatches: their crosses
#: darken CLOSE_HATCHING_COVER of their box or more) may shade a box so
#: lightly that every network reads it empty with confidence: hard
#: independent seed 116 photo 48's light fill in blue 12 (0.05), on a sheet
#: then ``ok`` with a wrong score. On such a sheet (fewer than verdict.MANY_DOUBTFUL
#: doubts) every box read empty whose paper something darkens is looked at
#: closer, and doubted (CLOSE_DOUBTED) where some view reads
#: CLOSE_HATCHED_DOUBT or more. Over
#: the 48,205 boxes read empty on the pencil sheets at hand (8,197 sheets),
#: 13 empty boxes read 0.8 or more close, four of them on sheets whose
#: crosses darken 16-19 % of their box (thick pencil X's, all four empty
#: boxes in ``ok`` sheets but one), none where the crosses darken more;
#: two light fills read empty (on sheets of crosses darkening 28 and 37 %)
#: read 0.91 and 0.99. A third, seed 119 photo 18's light horizontal
#: hatching in a green 8 step box (read empty at 0.007, the sheet ``ok``
#: with a wrong score), reads 0.73 close, so the doubt starts at 0.7; a box
#: whose paper is darkened by fewer than verdict.FAINT_DARK_PX pixels is not asked
#: (sensor noise darkens some; the three fills darken 26, 107 and 193). Over
#: the 8,851 boxes read empty on the hatchers' sheets of 61 sets: those
#: three doubted, no other (at 0.7 over every box darkened at all: two more,
#: darkened by 4 and 7 pixels).
CLOSE_HATCHING_COVER = 0.2
CLOSE_HATCHED_DOUBT = 0.7
#: On a pencil player's sheet, a box read empty that some first network
#: (box_model.FIRST) leaned toward a cross, so that not all were agreed on
#: empty (or, holding ink, that ``d`` leaned toward one: box_model.PENCIL_LEAN),
#: is looked at closer, and doubted (CLOSE_DOUBTED) where two views
#: or more read CLOSE_DISPUTED_DOUBT or more. Fresh independent seed 135
#: photo 76 (hard: a shadow band, 27 degrees of tilt, a thumb over a
#: marker): a pencil fill over red 9 so even that evening out the light
#: took it all for shade (no ink, no paper darkened), read empty at 0.007
#: while ``d`` and ``e`` read 0.32 and 0.28 and every empty box of the
#: sheet under 0.001; the sheet came out ``ok`` with a wrong score. Close
#: up its views read 0.94, 0.87, 0.85 and 0.53. Over the 52 sets at hand
#: (7,525 sheets), 138 boxes read empty on pencil sheets are so disputed;
#: two read 0.8 or more in two views: that fill and an empty blue 10
#: (views 0.997, 0.996, 0.60); the next 0.72.
CLOSE_DISPUTED_DOUBT = 0.8
#: On a pencil player's Kettingen sheet, a pencil circle round a chain end
#: can follow the printed chain ring so closely that it hides in it: fresh
#: hard independent seed 142 photo 69 (28 degrees of tilt, a shadow band,
#: JPEG quality 44), both ends of the green 5 - blue 5 chain circled, read
#: empty on the first networks' word (0.005 at most; no ink left once the
#: print is taken away), so the chain looked whole and the sheet came out
#: ``ok`` with a wrong score. Only ``d``, never asked about such boxes
#: (box_model.AGREED), leaned toward a cross: 0.44 and 0.51. So each chain
#: end read empty on the first networks' word alone is shown to ``d`` (a
#: few boxes a sheet) and doubted where it reads CHAIN_RING_LEAN or more,
#: leaning empty: where the chain's other end is read plainly empty, the
#: rules then settle the box as empty again (settle.py), and where it is
#: read crossed, the sheet needs a look instead of breaking a rule. Over
#: the 52 sets at hand (7,525 sheets), of the 2,072 such chain ends on
#: pencil sheets, 3 empty ones read 0.4 or more (0.66-0.85; 0.2-0.4: 2)
#: and one crossed (hard seed 120 photo 8's green 4, 0.64, its chain
#: broken); on pens' sheets 1 of 5,130 (0.44, empty), so they are not asked.
CHAIN_RING_LEAN = 0.4
#: The chain ends ``d`` reads under CHAIN_RING_LEAN are looked at closer
#: (box_model.CloseLook) and doubted the same way where every view reads
#: CHAIN_RING_CLOSE_P or more. Fresh hard independent seed 242 photo 54
#: (24.7 degrees of tilt, blur 1.8 px, JPEG quality 42): a pencil player's
#: circles round both ends of the green 4 - blue 4 chain; green 4 read
#: empty on the first networks' word, ``d`` 0.12; blue 4 doubted, then
#: settled empty by the rules for its plainly empty partner; the sheet
#: came out ``ok`` with 88 instead of 96. Close up green 4 reads 0.92-0.99
#: in every view. Over every chain end so asked about in the 164 sets at
#: hand (6,475 ends on 1,795 sheets), the truly empty ones read 0.19 at
#: most in their lowest view; of the 8 circled ends missed, only green 4
#: reads a cross close up (the others 0.09 at most: their sheets break the
#: chain rule, ``invalid``).
CHAIN_RING_CLOSE_P = 0.5
CHAIN_RING_DOUBTED = "read empty, but a pencil mark may follow its printed chain ring"
#: Where the player circles the numbers in pencil (own_marks.circles), a
#: circle round a chain end can lie on the printed chain ring so exactly
#: that no network sees it, close up neither: fresh hard independent seed
#: 272 photo 11 (a curled sheet, blur 1.8 px) read red 6 empty at 0.009
#: (0.8 close up in one view of four) while its partner, yellow 6, was
#: circled plainly, and the sheet came out ``invalid`` for a broken chain
#: with red 6 counted wrong. So on such a sheet a chain end read empty
#: whose other end is read crossed is doubtful (CHAIN_RING_HIDDEN), leaning
#: empty, for a person to look at: the rules settle it only with the lean
#: (settle.py), so a truly broken chain is not mended into an ``ok``.
CHAIN_RING_HIDDEN = ("read empty, but the other end of its chain is crossed, and this player's "
                     "pencil circles can hide in its printed ring")
#: On a pencil player's sheet whose crosses can be very faint (verdict.FAINT_DOUBT),
#: every box not read crossed is looked at closer; where each of them,
#: doubted or not, reads FAINT_CLOSE_EMPTY_P or less in every view, nothing
#: faint hides on the sheet and its faint doubts are taken as empty
#: (:func:`_empty_seen_close`: CLOSE_EMPTY), unless
#: TURNED_MEMBER or a decider reads a cross (TURNED_MEMBER_CROSSED_P, as
#: for CLOSE_EMPTY). Only the whole sheet so clean will do: the faint doubts
#: also keep in review a sheet where a faint mark went unseen by every
#: network (hard independent seed 140 photo 102: a tiny light pencil X
#: over yellow 4, at most 0.004 from every network, its sheet's only doubt
#: an empty blue 12 at 0.0003 close up), and that X reads 0.6 close up.
#: Over 59 photos of 52 sets with such doubts (62 sheets): of the doubted
#: boxes that were crosses, the lowest read 0.14 close in its highest view
#: (then 0.31, 0.36); 17 sheets were so clean, none with a box read wrong.
#: Not a box doubted only for the trace its mirrored views show
#: (verdict.FAINT_MIRRORED_DOUBT, see verdict.FAINT_VIEW_P): a tiny red check hugging a
#: printed 6 (hard independent seed 27 photo 8, every decider 0.004 or
#: less as it is) reads 0.014 close up, every other box of its sheet less;
#: such a box stays doubtful, and so its sheet in review. Only on the sheet
#: of a player the reader finds without a pen (the close look learned
#: pencil; thin red checks with no deep ink count as such). Over the 72
#: sets at hand (10,443 sheets): 26 sheets lost faint doubts, 19 more read
#: exactly, no box read wrong more, none ``ok`` and wrong.
FAINT_CLOSE_EMPTY_P = 0.05


class CloseViews:
    """The close look's views of a sheet's boxes (box_model.CloseLook: each
    box as it is and mirrored), each box shown to it once however many of
    :func:`seen_close`'s rules and :func:`chain_rings_doubted` ask about
    it: on a pencil sheet where a doubt is taken as empty and faint doubts
    remain, every box read empty is asked about twice. ``located``: the
    sheet's boxes, kept for the rules that ask the other networks too."""

    def __init__(self, located: LocatedInputs):
        self.located = located
        self._seen: dict[int, np.ndarray] = {}

    def of(self, boxes: np.ndarray) -> np.ndarray:
        """P(crossed) of each box of ``boxes`` (indices) in each view (views x
        boxes, MIRRORED_VIEWS order)."""
        new = [i for i in dict.fromkeys(boxes.tolist()) if i not in self._seen]
        if new:
            views = close_look().crossed_views(self.located.close_look(np.array(new)))
            self._seen.update(zip(new, views.T))
        if not len(boxes):
            return np.zeros((len(MIRRORED_VIEWS), 0))
        return np.stack([self._seen[i] for i in boxes.tolist()], axis=1)


def seen_close(verdicts: list[BoxVerdict], close: CloseViews, reading: CrossedReading,
               *, pencil: bool, take_crosses: bool, hatcher_shade: np.ndarray | None,
               washed: np.ndarray,
               skip_like: Callable[[np.ndarray], np.ndarray]) -> list[BoxVerdict]:
    """The verdicts once the sheet's doubtful boxes are looked at closer,
    each box once: on a ``pencil`` player's sheet those doubted for one of
    CLOSE_LOOK's notes, for a cross (:func:`_crossed_seen_close`; only
    where ``take_crosses``, see read.DARKENED_DEEP_INK_MM2), and
    those read empty that some first network leaned toward a cross (see
    CLOSE_DISPUTED_DOUBT); on any sheet those doubted for their mark while
    the networks lean empty, for an empty box (:func:`_empty_seen_close`),
    but not where the light may have washed a cross out (``washed``: see
    CLOSE_EMPTY_P), which no closer look brings back, nor where the close
    look reads some box read empty as crossed (CLOSE_UNSTEADY_P). None on
    a sheet with verdict.MANY_DOUBTFUL doubtful boxes or more, then or after the
    first.
    ``close``: the sheet's close views, kept for the rules after it;
    ``reading``: the networks' first reading of every box; ``skip_like``:
    per box of the sheet, whether those boxes (indices) would look like
    lines through skipped numbers read crossed (see
    :func:`their_crosses.skip_like_crosses`), which the close look does not take."""
    if too_doubtful(verdicts):
        return verdicts
    mirrored_doubt = reading.mirrored_doubt
    for_cross = np.array([pencil and take_crosses and v.state == "uncertain"
                          and v.note in CLOSE_LOOK and not m
                          for v, m in zip(verdicts, mirrored_doubt)], bool)
    for_empty = np.array([v.state == "uncertain" and v.note == DOUBTFUL_MARK and v.lean == "empty"
                          for v in verdicts], bool) & ~washed
    ask = np.flatnonzero(for_cross | for_empty)
    views = close.of(ask)
    out = verdicts
    if pencil:
        crossing = for_cross[ask]
        out = _crossed_seen_close(verdicts, close, ask[crossing],
                                  views[:, crossing].min(axis=0), hatcher_shade, skip_like)
        out = _disputed_empties_seen_close(out, close, reading.first_agreed_empty)
        if too_doubtful(out):
            return out
    emptying = for_empty[ask]
    most = views[:, emptying].max(axis=0)
    if (most <= CLOSE_EMPTY_P).any() and _close_look_steady(out, close):
        out = _empty_seen_close(out, close.located, ask[emptying], most)
    return _faint_doubts_seen_close(out, close) if pencil else out


def _close_look_steady(verdicts: list[BoxVerdict], close: CloseViews) -> bool:
    """Whether the close look reads every box read empty (a line through a
    skipped number aside) under CLOSE_UNSTEADY_P: only then is its word
    that a doubtful box is empty taken."""
    look = np.flatnonzero(read_empty_unstruck(verdicts))
    return not len(look) or bool(close.of(look).max() < CLOSE_UNSTEADY_P)


def _crossed_seen_close(verdicts: list[BoxVerdict], close: CloseViews, ask: np.ndarray,
                        least: np.ndarray, hatcher_shade: np.ndarray | None,
                        skip_like: Callable[[np.ndarray], np.ndarray]) -> list[BoxVerdict]:
    """The verdicts of a player who writes without a pen, with each box of
    ``ask`` (doubted for one of CLOSE_LOOK's notes, not a box a mirrored
    view doubted over one decider's doubt: see box_model.SPLIT) taken as
    crossed where the close look reads it crossed in every mirrored view
    (``least``, its lowest view, at CLOSE_CROSSED_P or more). Where it takes
    one, every box read empty is looked at closer as well, and doubted
    (CLOSE_DOUBTED) where some view leans to a cross (CLOSE_EMPTY_DOUBT).
    ``hatcher_shade``: on the sheet of a player who hatches (see
    CLOSE_HATCHING_COVER), each box's darkened paper
    (own_marks.darkened_pixels), else None: there every box read empty
    whose paper verdict.FAINT_DARK_PX pixels or more are darkened is looked at
    closer, and doubted where a view reads CLOSE_HATCHED_DOUBT (a box
    whose paper hardly anything darkens holds no fill; on the hatchers'
    sheets at hand most boxes read empty are such). A box that would look
    like a line through a skipped number read crossed (``skip_like``, see
    CLOSE_CROSSED_P) is not taken."""
    taking = np.flatnonzero(least >= CLOSE_CROSSED_P)
    if len(taking):
        least = least.copy()
        least[taking[skip_like(ask[taking])[ask[taking]]]] = 0.0
    taken = bool((least >= CLOSE_CROSSED_P).any())
    out = taken_as_crossed(verdicts, ask, least, CLOSE_CROSSED_P, CLOSE_CROSSED)
    empty = np.flatnonzero(read_empty_unstruck(verdicts))
    if taken:
        look, limit = empty, CLOSE_EMPTY_DOUBT
    elif hatcher_shade is not None:
        look, limit = empty[hatcher_shade[empty] >= FAINT_DARK_PX], CLOSE_HATCHED_DOUBT
    else:
        return out
    if not len(look):
        return out
    most = close.of(look).max(axis=0)
    return _doubted_leaning_empty(out, look[most >= limit])


def _disputed_empties_seen_close(verdicts: list[BoxVerdict], close: CloseViews,
                                 first_agreed_empty: np.ndarray) -> list[BoxVerdict]:
    """The verdicts of a player who writes without a pen, with each box read
    empty that the first networks did not all read empty
    (``first_agreed_empty`` false) doubted (CLOSE_DOUBTED) where the close
    look reads it crossed in two views or more (CLOSE_DISPUTED_DOUBT)."""
    look = np.flatnonzero(read_empty_unstruck(verdicts) & ~first_agreed_empty)
    if not len(look):
        return verdicts
    second = np.sort(close.of(look), axis=0)[-2]
    return _doubted_leaning_empty(verdicts, look[second >= CLOSE_DISPUTED_DOUBT])


def _faint_doubts_seen_close(verdicts: list[BoxVerdict], close: CloseViews) -> list[BoxVerdict]:
    """The verdicts with the boxes doubted because the player's crosses can be
    very faint (verdict.FAINT_DOUBT) taken as empty as by :func:`_empty_seen_close`,
    where the close look reads every box not read crossed, doubted or not,
    FAINT_CLOSE_EMPTY_P or less in every view."""
    faint = np.array([v.state == "uncertain" and v.note == FAINT_DOUBT for v in verdicts], bool)
    if not faint.any():  # (asked by seen_close only on a sheet not verdict.too_doubtful)
        return verdicts
    look = np.flatnonzero(read_empty_unstruck(verdicts) | faint)
    most = close.of(look).max(axis=0)
    if most.max() > FAINT_CLOSE_EMPTY_P:
        return verdicts
    doubts = np.flatnonzero(faint[look])
    return _empty_seen_close(verdicts, close.located, look[doubts], most[doubts])


def _doubted_leaning_empty(verdicts: list[BoxVerdict], boxes: np.ndarray,
                           note: str = CLOSE_DOUBTED) -> list[BoxVerdict]:
    """The verdicts with each box of ``boxes`` (read empty) doubted, leaning
    empty, for ``note``'s reason (by default: looked at closer, it may be
    crossed, CLOSE_DOUBTED)."""
    out = list(verdicts)
    for i in boxes:
        out[i] = replace(verdicts[i], state="uncertain", confidence=0.3, note=note,
                         lean="empty")
    return out


def chain_rings_doubted(verdicts: list[BoxVerdict], sheet: Sheet, close: CloseViews,
                        first_agreed_empty: np.ndarray,
                        classifier: BoxClassifier) -> list[BoxVerdict]:
    """The verdicts of a player who writes without a pen, with each chain end
    read empty on the first networks' word alone (``first_agreed_empty``)
    doubted (CHAIN_RING_DOUBTED) where ``d`` reads CHAIN_RING_LEAN or more,
    or, looked at closer, every view CHAIN_RING_CLOSE_P or more: a pencil
    circle may follow the printed chain ring."""
    ends = {box_id for chain in sheet.chains for box_id in chain}
    if not ends:
        return verdicts
    at_ends = np.array([v.box_id in ends for v in verdicts], bool)
    ask = np.flatnonzero(at_ends & read_empty_unstruck(verdicts) & first_agreed_empty)
    if not len(ask):
        return verdicts
    leaning = classifier.pencil_probability(close.located.inputs[ask]) >= CHAIN_RING_LEAN
    closer = ask[~leaning]
    if len(closer):
        leaning[~leaning] = close.of(closer).min(axis=0) >= CHAIN_RING_CLOSE_P
    return _doubted_leaning_empty(verdicts, ask[leaning], note=CHAIN_RING_DOUBTED)


def broken_chains_doubted(verdicts: list[BoxVerdict], sheet: Sheet) -> list[BoxVerdict]:
    """The verdicts with each chain end read empty (no line through it)
    whose other end is read crossed doubted, leaning empty (see
    CHAIN_RING_HIDDEN)."""
    at = {v.box_id: i for i, v in enumerate(verdicts)}
    empty = read_empty_unstruck(verdicts)
    hidden = [at[box_id] for chain in sheet.chains for box_id in chain
              if empty[at[box_id]] and any(verdicts[at[end]].state == "crossed" for end in chain)]
    return _doubted_leaning_empty(verdicts, np.array(hidden, int), note=CHAIN_RING_HIDDEN)


def _empty_seen_close(verdicts: list[BoxVerdict], located: LocatedInputs, ask: np.ndarray,
                      most: np.ndarray) -> list[BoxVerdict]:
    """The verdicts with each box of ``ask`` (doubted for its mark while the
    networks lean empty) taken as empty (CLOSE_EMPTY) where the close look
    reads it CLOSE_EMPTY_P or less in every mirrored view (``most``, its
    highest view), neither TURNED_MEMBER nor a decider reads a cross, and
    no network reads a cross in a box as inky as the player's crosses
    (CLOSE_INKY_SHARE)."""
    read_empty = most <= CLOSE_EMPTY_P
    ask, most = ask[read_empty], most[read_empty]
    if not len(ask):
        return verdicts
    # the networks are asked again only about these few boxes, not kept
    # for every box from the sheet's first reading
    each = box_classifier().each_probability(located.inputs[ask])
    sure = each[[MEMBERS.index(m) for m in TURNED_MEMBER + DECIDERS]].max(axis=0)
    inky = _inky_seen_crossed(verdicts, located.ink_mm2[:, 0], ask, each)
    out = list(verdicts)
    for i, value, sure_p, kept in zip(ask, most, sure, inky):
        if sure_p < TURNED_MEMBER_CROSSED_P and not kept:
            out[i] = replace(verdicts[i], state="empty", confidence=round(1 - float(value), 3),
                             note=CLOSE_EMPTY, lean="")
    return out


def _inky_seen_crossed(verdicts: list[BoxVerdict], ink_mm2: np.ndarray, ask: np.ndarray,
                       each: np.ndarray) -> np.ndarray:
    """Per box of ``ask``: it holds CLOSE_INKY_SHARE times the median ink of
    the boxes read crossed or more, and some network of ``each`` (members x
    boxes of ``ask``) reads it CLOSE_INKY_SEEN_P or more."""
    crossed = [i for i, v in enumerate(verdicts) if v.state == "crossed"]
    if len(crossed) < MIN_CROSSES:
        return np.zeros(len(ask), bool)
    inky = ink_mm2[ask] >= CLOSE_INKY_SHARE * float(np.median(ink_mm2[crossed]))
    return inky & (each.max(axis=0) >= CLOSE_INKY_SEEN_P)
