"""Lines through skipped numbers: a box whose mark is one thin, nearly flat
line through it holds no cross.

Players strike through the numbers they pass over, and the rules advise it:
a short horizontal line through the number. The networks read most of them
empty; in pencil, in dim photos, some come out unsure, and where the sheet
holds a very faint cross (read.FAINT_MARK_MM2) or the photo is white to the
brim (read.CLIPPED_SHARE) a box read empty with any trace of a mark is
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

That shape is measured pixel by pixel against the blank sheet, so grain
spread over the box, or a dim photo darkening all of it, breaks the line,
and a line tilted past MAX_TILT_DEG is none. A line is therefore also looked
for as a straight stroke (:func:`straight_strokes`): the straight band the
box's paper darkens most along, against the box's own paper and with the
photo smoothed first, thin, long and with clean paper around it, within
FLAT_STROKE_TILT_DEG of flat through the middle; on the sheet of a player
who crosses with single strokes only within MAX_TILT_DEG (a hard table
photo, independent table seed 108 photo 20: a pencil slash at 20 degrees
that the networks leaned empty on). Over the 36 independent sets of stop 50
(5,233 sheets): 4 more sheets read exactly, no box read differently
otherwise. Of the 560 boxes left doubtful there, the stroke alone (the
sheet's paper not compared) takes 41 of the 110 skipped numbers, and of the
100 crossed boxes only that slash; most of those skipped numbers were
doubted after this step is taken (the empty boxes of a grainy sheet
doubted whole), where it is not asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from .own_marks import INNER, INNER_PX, darkened_paper, paper_pixels

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


#: A line through a skipped number is also found as a straight stroke (see
#: :func:`straight_strokes`): the straight band STROKE_HALF_PX either side
#: of a line, over the box's paper, darkest against the box's own paper
#: (its median; smoothed over SMOOTH_PX first, so that a grainy photo's
#: speckle averages out along the band), at least STROKE_CONTRAST darker,
#: its darker pixels (half the band's darkening or more) spread
#: STROKE_SPAN_PX or more along it and, within BAND_PX of it, on average
#: at most STROKE_THICKNESS_PX across (a pen's line, not a shadow's edge or
#: a band of fill), and beyond BAND_PX of it at most
#: CLEAN_SHARE of the paper that dark. It counts as a line through the
#: number within FLAT_STROKE_TILT_DEG of flat and STROKE_OFF_PX of the
#: middle. Darkness measured against the box's own paper, not the blank,
#: keeps finding the line where a shadow or a dim photo darkens the whole
#: box, and grain spread over the box no longer breaks the line's shape.
SMOOTH_PX = 3
STROKE_HALF_PX = 1.5
STROKE_CONTRAST = 0.06
STROKE_SPAN_PX = 18.0
STROKE_THICKNESS_PX = 4.5
FLAT_STROKE_TILT_DEG = 20.0
STROKE_OFF_PX = 5.0
#: The bands looked at: every STROKE_STEP_DEG of tilt round the half turn,
#: every pixel off the middle up to STROKE_SHIFT_PX; a band over fewer than
#: MIN_BAND_PX pixels of paper says nothing.
STROKE_STEP_DEG = 2
STROKE_SHIFT_PX = 8
MIN_BAND_PX = 12
#: A player who crosses with single straight strokes (a slash; a check's
#: long stroke shows as one too) may draw one flatter than usual: on a sheet
#: where STROKE_PLAYER_SHARE or more of the crosses read with confidence
#: are lone straight strokes, a stroke is taken for a line through a
#: skipped number only within MAX_TILT_DEG of flat, as the shape of
#: :func:`lone_lines` is.
STROKE_PLAYER_SHARE = 0.2
#: Measured against the box's own paper, light shading (a box filled in
#: lightly, one stroke darker) would look clean: a stroke is taken only in a
#: box whose paper is at most SHADED_PAPER darker than the sheet's (the
#: median box's, see paper_darkness; share of the blank). A dim photo or a
#: shadow darkens the whole sheet's paper, shading one box's.
SHADED_PAPER = 0.02


def struck_through(inputs: np.ndarray, strokes_are_crosses: bool = False,
                   sheet_paper: float = 0.0) -> np.ndarray:
    """Per box (network inputs, see box_inputs), whether its mark is one thin,
    nearly flat line through it: its darkened paper shaped so (see
    :func:`lone_lines`), or a straight stroke nearly flat through the middle
    (see :func:`straight_strokes`; less flat only where the player does not
    cross with straight strokes, ``strokes_are_crosses``, see
    STROKE_PLAYER_SHARE) on paper no darker than the sheet's (``sheet_paper``,
    see :func:`paper_darkness`) by more than SHADED_PAPER."""
    line = lone_lines(inputs)
    struck = line.found & (np.abs(line.tilt_deg) <= MAX_TILT_DEG)
    if struck.all():
        return struck
    stroke = straight_strokes(inputs)
    flat = MAX_TILT_DEG if strokes_are_crosses else FLAT_STROKE_TILT_DEG
    return struck | (stroke.lone & (np.abs(stroke.tilt_deg) <= flat)
                     & (np.abs(stroke.off_px) <= STROKE_OFF_PX)
                     & (stroke.paper <= sheet_paper + SHADED_PAPER))


def crosses_with_strokes(their_crosses: np.ndarray) -> bool:
    """Whether the player crosses with single straight strokes: the network
    inputs of the boxes read crossed with confidence, STROKE_PLAYER_SHARE or
    more of them a lone straight stroke at any tilt."""
    if len(their_crosses) == 0:
        return False
    return bool(np.mean(straight_strokes(their_crosses).lone) >= STROKE_PLAYER_SHARE)


@dataclass(frozen=True)
class Strokes:
    """Per box, the straight band darkest against the box's own paper (see
    STROKE_CONTRAST): how much darker (``contrast``), its tilt from flat
    (degrees, -90..90, positive where it falls to the right), how far it
    runs from the middle (px, across it), how far its darker pixels spread
    along it (px) and how thick they lie (px: their count within BAND_PX of
    it over the paper's length along it), and the share of the paper beyond it as dark; ``lone``:
    such a band is a stroke with clean paper around it."""

    contrast: np.ndarray
    tilt_deg: np.ndarray
    off_px: np.ndarray
    span_px: np.ndarray
    thickness_px: np.ndarray
    beyond_share: np.ndarray
    #: how much darker than the blank the box's paper is (see paper_darkness)
    paper: np.ndarray

    @property
    def lone(self) -> np.ndarray:
        return ((self.contrast >= STROKE_CONTRAST) & (self.span_px >= STROKE_SPAN_PX)
                & (self.thickness_px <= STROKE_THICKNESS_PX)
                & (self.beyond_share <= CLEAN_SHARE))


def straight_strokes(inputs: np.ndarray) -> Strokes:
    """The straight band each box's paper darkens most along (see Strokes)."""
    n = len(inputs)
    paper = paper_pixels(inputs).reshape(n, -1)
    dark = _relative_darkness(inputs).reshape(n, -1)
    own = _paper_level(dark, paper)
    dark = dark - own[:, None]
    across, along, tilts, offsets, bands = _bands()
    weights = paper.astype(np.float32)
    counts = weights @ bands.T
    means = ((dark * weights).astype(np.float32) @ bands.T) / np.maximum(counts, 1)
    means[counts < MIN_BAND_PX] = -np.inf
    best = np.argmax(means, axis=1)
    contrast = means[np.arange(n), best]
    span, thickness, share = np.zeros(n), np.full(n, np.inf), np.ones(n)
    for k in np.flatnonzero(np.isfinite(contrast)):
        off = np.abs(across[best[k]] - offsets[best[k]])
        darker = paper[k] & (dark[k] >= contrast[k] / 2)
        on = darker & (off <= STROKE_HALF_PX)
        if on.any():
            span[k] = np.ptp(along[best[k]][on])
            # the paper along its middle line measures its length there
            thickness[k] = (np.count_nonzero(darker & (off <= BAND_PX))
                            / max(np.count_nonzero(paper[k] & (off <= 0.5)), 1))
        beyond = paper[k] & (off > BAND_PX)
        share[k] = np.count_nonzero(darker & beyond) / max(np.count_nonzero(beyond), 1)
    contrast = np.where(np.isfinite(contrast), contrast, 0.0)
    return Strokes(contrast, tilts[best], offsets[best], span, thickness, share, own)


def paper_darkness(inputs: np.ndarray) -> np.ndarray:
    """Per box, how much darker than the blank sheet its paper is (share of
    the blank; the median over its paper pixels, see own_marks.paper_pixels)."""
    n = len(inputs)
    return _paper_level(_relative_darkness(inputs).reshape(n, -1),
                        paper_pixels(inputs).reshape(n, -1))


def _paper_level(dark: np.ndarray, paper: np.ndarray) -> np.ndarray:
    return np.array([np.median(d[p]) if p.any() else 0.0 for d, p in zip(dark, paper)])


def _relative_darkness(inputs: np.ndarray) -> np.ndarray:
    """Per box, how much darker than the blank sheet each pixel of its middle
    is (share of the blank), the photo smoothed over SMOOTH_PX."""
    photo = np.ascontiguousarray(inputs[:, :3].mean(axis=1), np.float32)
    n, size = photo.shape[:2]
    if n:
        photo = cv2.blur(photo.reshape(n * size, size), (SMOOTH_PX, SMOOTH_PX),
                         borderType=cv2.BORDER_REPLICATE).reshape(n, size, size)
    blank = np.maximum(inputs[:, 3:6].mean(axis=1), 0.05)
    return (1.0 - photo / blank)[:, INNER, INNER]


@cache
def _bands() -> tuple[np.ndarray, ...]:
    """Per band looked at (every tilt and shift, see STROKE_STEP_DEG): each
    pixel's distance across its line and position along it (px), its tilt
    (degrees), its shift and which pixels it covers (float32 0/1)."""
    tilts = np.arange(-90 + STROKE_STEP_DEG, 91, STROKE_STEP_DEG, dtype=np.float64)
    shifts = np.arange(-STROKE_SHIFT_PX, STROKE_SHIFT_PX + 1, dtype=np.float64)
    ys, xs = np.mgrid[0:INNER_PX, 0:INNER_PX].astype(np.float64) - (INNER_PX - 1) / 2
    angle = np.radians(np.repeat(tilts, len(shifts)))[:, None]
    offsets = np.tile(shifts, len(tilts))
    across = -xs.ravel()[None] * np.sin(angle) + ys.ravel()[None] * np.cos(angle)
    along = xs.ravel()[None] * np.cos(angle) + ys.ravel()[None] * np.sin(angle)
    bands = (np.abs(across - offsets[:, None]) <= STROKE_HALF_PX).astype(np.float32)
    return across, along, np.repeat(tilts, len(shifts)), offsets, bands


@dataclass(frozen=True)
class LoneLines:
    """Per box, whether its darkened paper is one thin line with clean paper
    around it (the module's note, at any tilt), how far that line is tilted
    from flat (degrees, -90..90; positive where it falls to the right), how
    far its middle lies from the box's (px of the inner window, INNER_PX
    square; x right, y down) and how long the darkened paper's spread is
    along its long axis (``length``, px, for every box: four standard
    deviations, about a line's length)."""

    found: np.ndarray
    tilt_deg: np.ndarray
    off_x: np.ndarray
    off_y: np.ndarray
    length: np.ndarray


def lone_lines(inputs: np.ndarray) -> LoneLines:
    """The lone line each box's darkened paper shows, if any (see LoneLines)."""
    paper = paper_pixels(inputs)
    mask = darkened_paper(inputs, paper=paper)
    n = mask.sum(axis=(1, 2)).astype(np.float64)
    ys, xs = np.mgrid[0:INNER_PX, 0:INNER_PX].astype(np.float64)
    some = np.maximum(n, 1.0)
    mx = (mask * xs).sum(axis=(1, 2)) / some
    my = (mask * ys).sum(axis=(1, 2)) / some
    dx, dy = xs[None] - mx[:, None, None], ys[None] - my[:, None, None]
    sxx = (mask * dx * dx).sum(axis=(1, 2)) / some
    syy = (mask * dy * dy).sum(axis=(1, 2)) / some
    sxy = (mask * dx * dy).sum(axis=(1, 2)) / some
    # the spread's axes: eigenvalues of [[sxx, sxy], [sxy, syy]]
    half_gap = np.sqrt(((sxx - syy) / 2) ** 2 + sxy ** 2)
    major = (sxx + syy) / 2 + half_gap
    minor = np.maximum((sxx + syy) / 2 - half_gap, 1e-3)
    angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)  # of the long axis, from flat
    length = 4 * np.sqrt(major)
    line = ((n >= MIN_PX) & (np.sqrt(major / minor) >= ELONGATION)
            & (length >= LENGTH_PX[0]) & (length <= LENGTH_PX[1])
            & (n / np.maximum(length, 1e-6) <= THICKNESS_PX))
    # the paper beyond the line, looked at where there is one (most marks
    # are none): how far each pixel lies from it (through the spread's centre)
    at = np.flatnonzero(line)
    off_line = np.abs(dx[at] * np.sin(angle[at])[:, None, None]
                      - dy[at] * np.cos(angle[at])[:, None, None])
    beyond = paper[at] & (off_line > BAND_PX)
    shaded = darkened_paper(inputs[at], by=FAINTLY, paper=paper[at]) & beyond
    line[at] = shaded.sum(axis=(1, 2)) <= CLEAN_SHARE * np.maximum(beyond.sum(axis=(1, 2)), 1)
    middle = (INNER_PX - 1) / 2
    return LoneLines(line, np.degrees(angle), mx - middle, my - middle, length)
