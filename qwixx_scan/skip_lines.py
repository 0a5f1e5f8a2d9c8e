"""Lines through skipped numbers: a box whose mark is one thin, nearly flat
line through it holds no cross.

Players strike through the numbers they pass over, and the rules advise it:
a short horizontal line through the number. The networks read most of them
empty; in pencil, in dim photos, some come out unsure, and where the sheet
holds a very faint cross (verdict.FAINT_MARK_MM2) or the photo is white to the
brim (glare.CLIPPED_SHARE) a box read empty with any trace of a mark is
doubted: a skipped number struck through went to review with them.

A mark is taken for such a line by the shape of the box's darkened paper
(own_marks.darkened_paper: print and its edges left out, so a line through
the digits shows as pieces either side of them and between them): at least
MIN_PX pixels whose spread is a line (the long axis ELONGATION times the
short one or more) tilted at most MAX_TILT_DEG from flat, LENGTH_PX long
and at most THICKNESS_PX thick on average, the paper beyond it clean (see
CLEAN_SHARE). An X, a check, a slash or a scribble spreads both ways or lies
steep; a circle round the number shows as two arcs at the box's sides,
longer than any line through it; light shading leaves no paper clean.

Chosen on every box of the 400 sheets with a doubtful box among the 7,320
of the benchmark sets (20,800 boxes): of 1,748 skipped numbers read empty,
1,129 are taken for such lines (the rest too faint, or steeper); of the
boxes doubted, 39 skipped numbers (19 for the sheet's faint crosses, 9 for
the light, 11 for the networks' doubt) and no crossed or plain empty box;
of the 9,563 crossed boxes, 8 (flat checks, X's with one stroke faint, a
circle), all read crossed with confidence. Without the clean paper around
the line, pencil shading with one darker stroke was taken for one (a
crossed box lost). Only boxes read empty, or doubted while the networks
lean empty, are ever taken as struck through.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .own_marks import INNER, INNER_PX, darkened_paper, middle_greys, paper_pixels

MIN_PX = 10
ELONGATION = 3.0
MAX_TILT_DEG = 12.0
LENGTH_PX = (12.0, 40.0)
THICKNESS_PX = 3.0
#: Beyond BAND_PX of the line, at most CLEAN_SHARE of the paper may be
#: darkened even by FAINTLY of the blank: a box shaded in lightly with flat
#: strokes, of which one came out darker, is no line on clean paper.
BAND_PX = 3.0
FAINTLY = 0.05
CLEAN_SHARE = 0.1
#: Clean paper in a grainy photo is darkened by its grain: the paper beyond
#: a line is shaded only where darkened by more than the grain darkens the
#: paper of the sheet's boxes read empty (the median box's GRAIN_PERCENTILE
#: of its paper's darkening), where that exceeds FAINTLY. In a dark, noisy
#: photo (hard independent table 141, photo 32) a quarter of clean paper is
#: darkened by FAINTLY or more, and no line was ever lone there: a hooked
#: line through a skipped number, read crossed, was not doubted as one (see
#: their_crosses.FLAT_SKIP_SURE_P). Over the 80 independent sets at hand (11,634
#: sheets), 4,078 more lines through skipped numbers read empty are found,
#: 7 in boxes the networks are unsure of (so read empty) and 2 right
#: crosses unsure of, leaning crossed (left so); 9 sheets read differently
#: but for that doubt: 5 from review to exact, 3 right crosses doubted as
#: like such lines (a check's stroke, an X's), and 3 sheets in review with
#: many doubts fewer or more (33 -> 4, 29 -> 1, 5 -> 38).
GRAIN_PERCENTILE = 95


#: On the sheet of a player whose crosses are hardly ever lone lines (see
#: their_crosses.SKIP_LIKE_SHARE), a line may be this steep: a flat check's long
#: stroke, which MAX_TILT_DEG keeps out, is no mark of theirs. Hurried lines
#: through skipped numbers lie up to 20 degrees from flat; of the 42 such
#: lines left doubtful over 40 independent sets (5,811 sheets, seeds
#: 131-150, tables 102-121), 15 were lone lines tilted 12.4-19.4 degrees.
#: Taken as struck through there: 11 sheets more read exactly (5,597 ->
#: 5,608), no box read otherwise on any other sheet, the unseen-marks
#: benchmark unchanged (plusses and turned X's still doubted, none wrong).
STEEPER_TILT_DEG = 20.0


def struck_through(inputs: np.ndarray, *, steeper: bool = False,
                   grain: float = 0.0) -> np.ndarray:
    """Per box (network inputs, see box_inputs), whether its darkened paper
    is one thin, nearly flat line through it: within MAX_TILT_DEG of flat,
    or with ``steeper`` STEEPER_TILT_DEG. ``grain``: see :func:`lone_lines`."""
    line = lone_lines(inputs, grain=grain)
    return line.found & (np.abs(line.tilt_deg) <= (STEEPER_TILT_DEG if steeper
                                                    else MAX_TILT_DEG))


def ink_spreads_both_ways(inputs: np.ndarray) -> np.ndarray:
    """Per box, whether its ink, over the print as well (:func:`ink_axes`),
    spreads both ways: some ink, less than ELONGATION times as long as it is
    wide. Where the deciding networks are unsure of a box themselves, its
    darkened paper alone is no proof of a line through the number: a tiny
    X drawn over the digits leaves only its ends on the paper, and with a
    dot beside them they lay along one flat line (hard independent table
    319 photo 0, a green X over a blue 5, its deciders at 0.48, taken as
    struck through and the sheet ``ok`` with a wrong score); over the
    digits its ink is an X. A pencil's line, lighter than the print,
    shows no ink over it (NaN tilt) and is not asked. Of the 166 boxes taken as struck
    through over every set at hand (16,610 photos: 131 plain sets, their
    stained, folded and spoilt copies), asking this where the deciders'
    median is above verdict.EMPTY_P keeps two in doubt: that X, and one
    line through a skipped number (hard table 315 photo 28's red 8, its
    deciders at 0.45), which goes to review."""
    axes = ink_axes(inputs)
    return ~np.isnan(axes.tilt_deg) & (axes.elongation < ELONGATION)


#: Ink, for :func:`ink_axes`: the photo darker than the blank's darkest
#: value nearby (INK_NEAR_PX round each pixel) by INK_BELOW of the paper in
#: some channel, as box_inputs measures a box's ink.
INK_BELOW = 0.15
INK_NEAR_PX = 1


@dataclass(frozen=True)
class InkAxes:
    """Per box, how its ink lies (see :func:`ink_axes`): the tilt of its
    long axis from flat (``tilt_deg``, degrees, -90..90, positive falling to
    the right; NaN where the middle holds under MIN_PX pixels of ink), how
    much longer that axis is than the short one (``elongation``, 1: round)
    and how long the ink is along it, as a line would be (``length_px``, px
    of the INNER_PX window; NaN where the tilt is)."""

    tilt_deg: np.ndarray
    elongation: np.ndarray
    length_px: np.ndarray


def ink_axes(inputs: np.ndarray) -> InkAxes:
    """Per box, the axes of its ink (see :class:`InkAxes`). Ink over the
    print counts where it is darker than the print (a blue line through red
    digits), so a line through the number keeps its shape where
    :func:`lone_lines`, on the paper between the digits alone, sees pieces;
    but so does print the photo shows a little off the blank's."""
    photo = inputs[:, :3, INNER, INNER]
    size = 2 * INK_NEAR_PX + 1
    kernel = np.ones((size, size), np.uint8)
    ink = np.zeros((len(inputs), INNER_PX, INNER_PX), bool)
    for k, box in enumerate(inputs):
        darkest = np.stack([cv2.erode(np.ascontiguousarray(box[3 + c]), kernel)
                            for c in range(3)])[:, INNER, INNER]
        ink[k] = (darkest - photo[k]).max(axis=0) > INK_BELOW
    spread = Spread.of(ink)
    enough = spread.pixels >= MIN_PX
    return InkAxes(np.where(enough, np.degrees(spread.angle), np.nan),
                   np.where(enough, spread.elongation, 1.0),
                   np.where(enough, spread.length, np.nan))


_YS, _XS = np.mgrid[0:INNER_PX, 0:INNER_PX].astype(np.float64)


@dataclass(frozen=True)
class Spread:
    """Per box, how its marked pixels (a bool mask per box, INNER_PX square)
    spread: how many (``pixels``), their middle (``mx``, ``my``: px, x
    right, y down), the variances along their long and short axes
    (``major``; ``minor``, at least 1e-3) and the long axis' angle from flat
    (``angle``, radians, positive falling to the right)."""

    pixels: np.ndarray
    mx: np.ndarray
    my: np.ndarray
    major: np.ndarray
    minor: np.ndarray
    angle: np.ndarray

    @classmethod
    def of(cls, mask: np.ndarray) -> Spread:
        n = mask.sum(axis=(1, 2)).astype(np.float64)
        some = np.maximum(n, 1.0)
        mx = (mask * _XS).sum(axis=(1, 2)) / some
        my = (mask * _YS).sum(axis=(1, 2)) / some
        dx, dy = _XS[None] - mx[:, None, None], _YS[None] - my[:, None, None]
        sxx = (mask * dx * dx).sum(axis=(1, 2)) / some
        syy = (mask * dy * dy).sum(axis=(1, 2)) / some
        sxy = (mask * dx * dy).sum(axis=(1, 2)) / some
        # the spread's axes: eigenvalues of [[sxx, sxy], [sxy, syy]]
        half_gap = np.sqrt(((sxx - syy) / 2) ** 2 + sxy ** 2)
        return cls(n, mx, my, (sxx + syy) / 2 + half_gap,
                   np.maximum((sxx + syy) / 2 - half_gap, 1e-3),
                   0.5 * np.arctan2(2 * sxy, sxx - syy))

    @property
    def length(self) -> np.ndarray:
        """How long each spread is along its long axis, as a line would be (px)."""
        return 4 * np.sqrt(self.major)

    @property
    def elongation(self) -> np.ndarray:
        """How many times as long as it is wide each spread is (1: round)."""
        return np.sqrt(self.major / self.minor)

    def clean_beyond(self, at: np.ndarray, paper: np.ndarray, darkened: np.ndarray,
                     band_px: float, share: float) -> np.ndarray:
        """Per box of ``at`` (indices), whether at most ``share`` of its paper
        (``paper``: the boxes of ``at``, as own_marks.paper_pixels) farther
        than ``band_px`` from the long axis through the spread's middle is
        ``darkened`` (the same boxes' masks): a line on clean paper."""
        dx, dy = _XS[None] - self.mx[at, None, None], _YS[None] - self.my[at, None, None]
        off_line = np.abs(dx * np.sin(self.angle[at])[:, None, None]
                          - dy * np.cos(self.angle[at])[:, None, None])
        beyond = paper & (off_line > band_px)
        return (darkened & beyond).sum(axis=(1, 2)) <= share * np.maximum(
            beyond.sum(axis=(1, 2)), 1)

    @property
    def drawn_out(self) -> np.ndarray:
        """Whether each spread has MIN_PX pixels or more and is ELONGATION
        times as long as it is wide, as a line is."""
        return self.drawn_out_from(MIN_PX)

    def drawn_out_from(self, min_px: float) -> np.ndarray:
        """Whether each spread has ``min_px`` pixels or more and is
        ELONGATION times as long as it is wide."""
        return (self.pixels >= min_px) & (self.elongation >= ELONGATION)


@dataclass(frozen=True)
class LoneLines:
    """Per box, whether its darkened paper is one thin line with clean paper
    around it (the module's note, at any tilt), how far that line is tilted
    from flat (degrees, -90..90; positive where it falls to the right), how
    far its middle lies from the box's (px of the inner window, INNER_PX
    square; x right, y down) and how long the darkened paper's spread is
    along its long axis (``length``, px, for every box: four standard
    deviations, about a line's length) and how many of its pixels are
    darkened (``pixels``, for every box)."""

    found: np.ndarray
    tilt_deg: np.ndarray
    off_x: np.ndarray
    off_y: np.ndarray
    length: np.ndarray
    pixels: np.ndarray


def paper_grain(inputs: np.ndarray, plain: np.ndarray, paper: np.ndarray | None = None) -> float:
    """How far the photo's grain darkens clean paper (0..1 of the blank):
    the median over the ``plain`` boxes (bool per box: read empty) of each
    one's GRAIN_PERCENTILE of its paper's darkening; 0 without such boxes.
    ``paper``: own_marks.paper_pixels of ``inputs``, where known already."""
    at = np.flatnonzero(plain)
    if not len(at):
        return 0.0
    boxes = inputs[at]
    photo, blank = middle_greys(boxes)
    paper = (paper_pixels(boxes) if paper is None else paper[at]).reshape(len(at), -1)
    counts = paper.sum(axis=1)
    if not counts.any():
        return 0.0
    # each box's percentile by sorting (what is not paper, NaN, sorts last):
    # a tenth of the time of numpy's nanpercentile
    darkening = np.sort(np.where(paper, 1.0 - (photo / blank).reshape(len(at), -1), np.nan),
                        axis=1)
    rank = np.round((counts[counts > 0] - 1) * GRAIN_PERCENTILE / 100).astype(int)
    each = np.take_along_axis(darkening[counts > 0], rank[:, None], axis=1)
    return float(np.median(each))


def short_flat_traces(inputs: np.ndarray) -> np.ndarray:
    """Per box, whether its darkened paper is a thin, flat trace too short
    for a line (MIN_PX pixels or more spread as a line, ELONGATION, within
    MAX_TILT_DEG of flat, but under LENGTH_PX[0] long): what a line through
    a skipped number leaves where it runs over the digits, the print
    hiding most of it. Too short to be taken for such a line in a box read
    empty; nor is it a cross's mark (closer_look.CLOSE_LOOK)."""
    spread = Spread.of(darkened_paper(inputs, paper=paper_pixels(inputs)))
    return (spread.drawn_out & (spread.length < LENGTH_PX[0])
            & (np.abs(np.degrees(spread.angle)) <= MAX_TILT_DEG))


def lone_lines(inputs: np.ndarray, *, grain: float = 0.0, min_px: float = MIN_PX) -> LoneLines:
    """The lone line each box's darkened paper shows, if any (see LoneLines).
    ``grain``: how far the photo's grain darkens clean paper (see
    :func:`paper_grain`), which the paper beyond a line may be darkened by
    and still be clean; ``min_px``: the fewest darkened pixels a line shows
    (see their_crosses.SPARSE_LINE_PX)."""
    paper = paper_pixels(inputs)
    mask = darkened_paper(inputs, paper=paper)
    spread = Spread.of(mask)
    n, mx, my, angle, length = spread.pixels, spread.mx, spread.my, spread.angle, spread.length
    line = (spread.drawn_out_from(min_px) & (length >= LENGTH_PX[0]) & (length <= LENGTH_PX[1])
            & (n / np.maximum(length, 1e-6) <= THICKNESS_PX))
    # the paper beyond the line, looked at where there is one (most marks
    # are none)
    at = np.flatnonzero(line)
    faint = darkened_paper(inputs[at], by=max(FAINTLY, grain), paper=paper[at])
    line[at] = spread.clean_beyond(at, paper[at], faint, BAND_PX, CLEAN_SHARE)
    middle = (INNER_PX - 1) / 2
    return LoneLines(line, np.degrees(angle), mx - middle, my - middle, length, n)
