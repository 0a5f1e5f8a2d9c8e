"""Long straight lines across the sheet: a fold in the paper, not a pen's mark.

A sheet folded (in a pocket, a box) and opened again shows the fold as a
thin dark line straight across it. Where that line runs through an empty
box, or through a line the player drew through a skipped number, the
networks may see a stroke more and read the box crossed; where it runs
over a small light mark, they may doubt it and a closer look read it empty
(seed 257 photo 18 and seed 259 photo 127 folded, spoilt_photos.py
``crease``: a skipped blue 6 read crossed, a pencil check in blue 9 read
empty, each sheet ``ok`` with a wrong score). No player's stroke runs on
straight through box after box: a fold does.

Found from the darkened paper (own_marks.DARKENED) of the boxes' windows
(own_marks.paper_window: the print and its edges left out), laid out where
the boxes were found: the strongest straight lines there (a Hough
transform) count as long where, in LONG_LINE_BOXES or more boxes one after
the other along one, it darkens LINE_COVER of the paper it crosses, while
under REST_DARKENED of the box's paper OFF_LINE_MM or more from it is
darkened. A player who hatches boxes over draws lines that run on from box
to box along a row, but their boxes are dark all over (a fifth to two
thirds of that paper); the fold's boxes hold at most a cross besides.

The boxes such a line runs through (THROUGH_INSET_MM or more within their
printed edges) are read once more with the line taken out (in each box
where its darkened paper lies: the paper bends), and a verdict that
reading does not bear out is doubtful: a box read crossed that no longer
reads crossed, and a box read empty that no longer reads empty (a fold
along a row over a pencil slash hid it: 0.008 with the fold, 0.5 without,
out-of-sample folded hard table 313 photo 15). Only a box the networks
split over (verdict.DOUBTFUL_MARK) is settled by that reading, where it is
sure: the fold is what they split over (folded copies of 13 independent
sets, 1,878 sheets: 73 boxes settled, 68 empty and 5 crossed, none
wrongly; 1,681 -> 1,732 exact); otherwise a line found where there is no
fold costs at most a doubt.

A fold across the rows meets one box a row, 4 or 5 boxes whose digits
take much of their paper, and makes a weak line (WEAK_VOTES); strokes of
the player's marks in a box of each row can line up as well. Such a line
counts only where it runs on as a fold does over the printed bands and
the paper between its boxes, on the rectified sheet (:func:`runs_on`).

Chosen on seed 257's 150 photos folded and 150 photos each of seeds 257
and 259, hard 258 and 40 of table 232 (the same photos unfolded), every
line the transform gave and the boxes along it: counting boxes by the
line's cover alone, 52 sheets of the folded copies and 52 of the plain
photos had a run of 4, the plain ones hatched rows (the rest of their
boxes' paper mostly 0.2-0.67 darkened) or a dark photo's grain along a
row's printed edge; the folds' boxes 0 to 0.2 but for hatched boxes they
cross. With REST_DARKENED, lines are found on 42 folded sheets and no
plain one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from qwixx_print.layout import Sheet

from .box_inputs import WINDOW_MM
from .box_model import INPUT_PX
from .own_marks import darkened_window, paper_window
from .verdict import CROSSED_P, DOUBTFUL_MARK, EMPTY_P, BoxVerdict

#: The canvas the boxes' darkened paper is laid out on (px per mm).
CANVAS_PX_PER_MM = 3.0
#: Hough votes (canvas pixels along a line) a line needs to count without
#: more: about four boxes' paper along it.
MIN_VOTES = 100
#: A fold across the rows meets one box a row, 4 or 5 boxes, the digits
#: taking much of their paper: 50-100 votes. A line that weak is looked at
#: too, but counts only where it runs on between its boxes as a fold does
#: (see runs_on): at WEAK_VOTES, strokes of X's in a box of each row lined
#: up by chance make runs of 4 too (on 18 sheets of 640 plain photos
#: of seeds 257 and 259, hard 258 and 332 and table 232).
WEAK_VOTES = 50
#: At most this many of the strongest lines are looked at (the weak ones
#: of a fold across the rows come after a sheet's stronger lines).
MAX_CANDIDATES = 12
LONG_LINE_BOXES = 4
LINE_COVER = 0.7
OFF_LINE_MM = 0.8
REST_DARKENED = 0.2
#: A box counts as crossed by a line where it crosses this much of its paper (samples).
MIN_PAPER_SAMPLES = 10
#: The line is fitted to the darkened pixels within FIT_MM of it (in a box,
#: where it has MIN_FIT_PX of them there).
FIT_MM = 0.6
MIN_FIT_PX = 5
#: A line runs through a box where it crosses it THROUGH_INSET_MM or more
#: within its printed edges: along them, in the margin of the box's window,
#: a dark photo's grain makes lines too (hard tables 287 and 289).
THROUGH_INSET_MM = 1.0
#: A weak line runs on between its boxes (see runs_on): sampled every
#: SAMPLE_MM outside the boxes, MIN_BETWEEN samples or more, RUNS_ON_SHARE
#: of them dark (RIDGE_DARKER darker than the sheet RIDGE_MM to either
#: side). On the folded copies of seeds 259 and 331 and hard 258 the folds
#: across the rows ran on so over 0.8-1.0 of those samples, 0.9 or more but
#: for one; runs of 4 of X's strokes lined up by chance, on 640 plain photos
#: (seeds 257 and 259, hard 258 and 332, table 232) and the folded copies,
#: 0.48-0.84 (hard 332 photo 50): a photo's noise alone makes half the
#: samples dark.
SAMPLE_MM = 0.25
MIN_BETWEEN = 8
RIDGE_MM = 0.8
RIDGE_DARKER = 0.03
RUNS_ON_SHARE = 0.85
#: Two lines found are one fold where they differ by SAME_FOLD_DEG or less
#: and share half their boxes (see _same_fold).
SAME_FOLD_DEG = 5.0
#: The line's pixels taken out: within this many window pixels of it.
ERASE_PX = 1.5
FOLD_CROSSED_DOUBT = ("read crossed, but a long straight line across the sheet (a fold?) "
                      "runs through the box, and without that line it does not read crossed")
#: A box the networks split over that a long line runs through, read with
#: the line taken out: crossed or empty where that reading is sure.
FOLD_SETTLED = {state: (f"read {state} once a long straight line across the sheet (a fold?) "
                        "running through it was taken out")
                for state in ("crossed", "empty")}
FOLD_EMPTY_DOUBT = ("read empty, but a long straight line across the sheet (a fold?) runs "
                    "through the box, and without that line it does not read empty")


@dataclass(frozen=True)
class LongLine:
    """A straight line (x cos(angle) + y sin(angle) = rho, sheet mm) and the
    boxes (indices) it darkens one after the other along it."""

    angle_deg: float
    rho_mm: float
    boxes: tuple[int, ...]


def folds_doubted(verdicts: list[BoxVerdict], inputs: np.ndarray, frames: np.ndarray,
                  crossed_probability: Callable[[np.ndarray], np.ndarray],
                  paper: np.ndarray | None = None, sheet: np.ndarray | None = None,
                  px_per_mm: float = 0.0) -> list[BoxVerdict]:
    """The verdicts with the boxes a long straight line runs through
    (:func:`long_lines`) read once more with that line taken out
    (``crossed_probability``) and made doubtful where that reading does not
    bear them out: a box read crossed that no longer reads crossed
    (verdict.CROSSED_P), and a box read empty that no longer reads empty
    (verdict.EMPTY_P). A box the networks split over
    (verdict.DOUBTFUL_MARK) is settled by that reading where it is sure
    (see FOLD_SETTLED). ``frames``: :func:`window_frames`; ``paper``:
    own_marks.paper_window of ``inputs``, where known already; ``sheet``,
    ``px_per_mm``: the rectified sheet, for lines across the rows (see
    WEAK_VOTES)."""
    asked = {i for i, v in enumerate(verdicts)
             if v.state in ("crossed", "empty")
             or (v.state == "uncertain" and v.note == DOUBTFUL_MARK)}
    if not asked:
        return verdicts
    looked: list[int] = []
    taken_out: list[np.ndarray] = []
    for line in long_lines(inputs, frames, paper, sheet, px_per_mm):
        for i in sorted(asked.intersection(line.boxes) & _runs_through(line, frames)):
            looked.append(i)
            taken_out.append(without_line(inputs[i], frames[i], line))
    if not looked:
        return verdicts
    out = list(verdicts)
    for i, p in zip(looked, crossed_probability(np.stack(taken_out))):
        v = verdicts[i]
        if v.state == "uncertain":
            if p <= EMPTY_P or p >= CROSSED_P:
                state = "crossed" if p >= CROSSED_P else "empty"
                out[i] = replace(v, state=state, confidence=round(float(max(p, 1 - p)), 3),
                                 lean="", settled="", note=FOLD_SETTLED[state])
            continue
        crossed = v.state == "crossed"
        if (crossed and p < CROSSED_P) or (not crossed and p > EMPTY_P):
            out[i] = replace(v, state="uncertain", confidence=0.5, lean="", settled="",
                             note=FOLD_CROSSED_DOUBT if crossed else FOLD_EMPTY_DOUBT)
    return out


def _runs_through(line: LongLine, frames: np.ndarray) -> set[int]:
    """The boxes whose inside (THROUGH_INSET_MM within their edges) ``line``
    runs through; ``frames``: :func:`window_frames`."""
    normal, _ = _axes(np.radians(line.angle_deg), np.float64)
    centres = frames[:, :2] + frames[:, 2:] / 2
    half = (np.abs(normal) * (frames[:, 2:] / 2 - WINDOW_MM)).sum(axis=1)  # the box's, across it
    return set(np.flatnonzero(np.abs(centres @ normal - line.rho_mm) < half - THROUGH_INSET_MM))


def window_frames(sheet: Sheet, centres_px: np.ndarray, px_per_mm: float) -> np.ndarray:
    """Per box, where its network input's window lies on the sheet: left,
    top, width and height in mm (n x 4)."""
    size = np.float32([(b.rect.w, b.rect.h) for b in sheet.boxes]) + 2 * WINDOW_MM
    centres = np.asarray(centres_px, np.float32) / px_per_mm
    return np.hstack([centres - size / 2, size])


def long_lines(inputs: np.ndarray, frames: np.ndarray, paper: np.ndarray | None = None,
               sheet: np.ndarray | None = None, px_per_mm: float = 0.0) -> list[LongLine]:
    """The long straight lines darkening the boxes (see the module's note);
    ``frames``: :func:`window_frames`; ``paper``: own_marks.paper_window of
    ``inputs``, where known already; ``sheet``: the rectified sheet (BGR,
    ``px_per_mm``), where lines weaker than MIN_VOTES are to be looked at
    (see WEAK_VOTES)."""
    if len(inputs) == 0:
        return []
    paper = paper_window(inputs) if paper is None else paper
    dark = darkened_window(inputs, paper)
    near_dark = _next_to(dark)
    canvas = _canvas(dark, frames)
    weakest = MIN_VOTES if sheet is None else WEAK_VOTES
    found = cv2.HoughLinesWithAccumulator(canvas, 1, np.pi / 180, weakest)
    if found is None:
        return []
    lines = []
    looked: list[tuple[float, float]] = []
    for rho_px, theta, votes in found.reshape(-1, 3):
        # (Hough's neighbours of a line looked at are the same line)
        if any(abs(rho_px - r) < 4 and abs(theta - t) < 0.035 for r, t in looked):
            continue
        if len(looked) == MAX_CANDIDATES:
            break
        looked.append((rho_px, theta))
        theta, rho = float(theta), float(rho_px) / CANVAS_PX_PER_MM
        boxes = _darkened_run(dark, near_dark, paper, frames, theta, rho)
        if len(boxes) < LONG_LINE_BOXES:
            continue
        # The transform's line is as good as its 1 degree and 1/3 mm steps:
        # fitted to the darkened pixels along it, it is the fold's own (where
        # its pixels are taken out of a box, a line beside the fold's would
        # leave the fold and cut the mark).
        theta, rho = _fitted(dark, frames, boxes, theta, rho)
        line = LongLine(float(np.degrees(theta)), rho,
                        _darkened_run(dark, near_dark, paper, frames, theta, rho))
        if len(line.boxes) < LONG_LINE_BOXES or any(_same_fold(line, other) for other in lines):
            continue
        if votes < MIN_VOTES and not runs_on(sheet, px_per_mm, frames, line):
            continue
        lines.append(line)
    return lines


def _same_fold(line: LongLine, other: LongLine) -> bool:
    """Whether two lines found are one fold: about as steep (SAME_FOLD_DEG)
    and through half the boxes of the shorter or more. A sheet folded twice
    shows two folds crossing in a box."""
    turn = abs(line.angle_deg - other.angle_deg) % 180
    shared = len(set(line.boxes) & set(other.boxes))
    return min(turn, 180 - turn) <= SAME_FOLD_DEG and \
        2 * shared >= min(len(line.boxes), len(other.boxes))


def without_line(inputs: np.ndarray, frame: np.ndarray, line: LongLine) -> np.ndarray:
    """A box's input (INPUT_CHANNELS x INPUT_PX x INPUT_PX) with ``line``
    taken out: each pixel of its paper (own_marks.paper_window) within
    ERASE_PX of the line given the lighter of the photo's values just past
    that on either side, where that is lighter. A stroke crossing the line
    is dark on both sides and stays; the print is not touched."""
    normal, _ = _axes(np.radians(line.angle_deg))
    scale = frame[2:] / INPUT_PX  # mm per window pixel, x and y
    v, u = np.mgrid[0:INPUT_PX, 0:INPUT_PX].astype(np.float32) + 0.5
    x, y = frame[0] + u * scale[0], frame[1] + v * scale[1]
    off = x * normal[0] + y * normal[1] - line.rho_mm  # mm from the line
    paper = paper_window(inputs[None])[0]
    # A fold bends with the paper: in this box it lies where the darkened
    # paper along the line does (the middle of it).
    along = darkened_window(inputs[None], paper[None])[0] & (np.abs(off) <= FIT_MM)
    if np.count_nonzero(along) >= MIN_FIT_PX:
        off -= np.median(off[along])
    rows, cols = np.nonzero((np.abs(off) / scale.mean() <= ERASE_PX) & paper)
    step = np.rint(normal * (ERASE_PX + 1)).astype(int)
    sides = [inputs[:3, np.clip(rows + sign * step[1], 0, INPUT_PX - 1),
                    np.clip(cols + sign * step[0], 0, INPUT_PX - 1)] for sign in (-1, 1)]
    out = inputs.copy()
    out[:3, rows, cols] = np.maximum(inputs[:3, rows, cols], np.minimum(*sides))
    return out


def runs_on(sheet: np.ndarray, px_per_mm: float, frames: np.ndarray, line: LongLine) -> bool:
    """Whether ``line`` runs on between the boxes of its run as a fold does:
    of the points along it, every SAMPLE_MM from the first of those boxes
    to the last, that lie in no box (as found: ``frames`` less their
    margin), MIN_BETWEEN or more, and RUNS_ON_SHARE of them or more darker
    on the line than RIDGE_MM to either side by RIDGE_DARKER of the lighter
    side. ``sheet``: the rectified sheet (BGR, ``px_per_mm``). A fold
    darkens the printed bands and the paper between the boxes too; strokes
    in boxes that a line happens to meet do not."""
    normal, along = _axes(np.radians(line.angle_deg))
    centres = frames[list(line.boxes), :2] + frames[list(line.boxes), 2:] / 2
    ends = centres @ along
    s = np.arange(ends.min(), ends.max(), SAMPLE_MM, dtype=np.float32)
    points = line.rho_mm * normal + s[:, None] * along
    boxes = frames + np.float32([WINDOW_MM, WINDOW_MM, -2 * WINDOW_MM, -2 * WINDOW_MM])
    x, y = points[:, None, 0], points[:, None, 1]
    inside = np.any((x >= boxes[:, 0]) & (x <= boxes[:, 0] + boxes[:, 2])
                    & (y >= boxes[:, 1]) & (y <= boxes[:, 1] + boxes[:, 3]), axis=1)
    points = points[~inside]
    if len(points) < MIN_BETWEEN:
        return False
    xy = np.concatenate([points + k * RIDGE_MM * normal for k in (0, -1, 1)]) * px_per_mm
    values = cv2.remap(sheet, xy[:, 0].reshape(1, -1), xy[:, 1].reshape(1, -1), cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)[0].astype(np.float32).mean(axis=1)
    on, side_a, side_b = values.reshape(3, -1)
    dark = on < np.maximum(side_a, side_b) * (1 - RIDGE_DARKER)
    return float(np.mean(dark)) >= RUNS_ON_SHARE


def _canvas(dark: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """The darkened pixels of every box's window laid out where it lies on
    the sheet, CANVAS_PX_PER_MM (uint8, 255 where darkened)."""
    x, y = _on_sheet(frames, *np.nonzero(dark)).T * CANVAS_PX_PER_MM
    right, bottom = (frames[:, :2] + frames[:, 2:]).max(axis=0) * CANVAS_PX_PER_MM
    canvas = np.zeros((int(bottom) + 2, int(right) + 2), np.uint8)
    inside = (x >= 0) & (y >= 0)
    canvas[y[inside].astype(int), x[inside].astype(int)] = 255
    return canvas


def _on_sheet(frames: np.ndarray, box: np.ndarray, v: np.ndarray,
              u: np.ndarray) -> np.ndarray:
    """Where pixels (row ``v``, column ``u``) of the windows of boxes ``box``
    lie on the sheet (n x 2, mm); ``frames``: :func:`window_frames`."""
    scale = frames[box, 2:] / INPUT_PX
    return np.stack([frames[box, 0] + (u + 0.5) * scale[:, 0],
                     frames[box, 1] + (v + 0.5) * scale[:, 1]], axis=1)


def _axes(theta: float, dtype=np.float32) -> tuple[np.ndarray, np.ndarray]:
    """A line's unit normal at ``theta`` (radians, as Hough gives it: the
    line is the points whose projection on it is rho) and its direction."""
    normal = np.array([np.cos(theta), np.sin(theta)], dtype)
    return normal, np.array([-normal[1], normal[0]], dtype)


def _next_to(dark: np.ndarray) -> np.ndarray:
    """Per box, the pixels of its window that are or touch a darkened one
    (of ``dark``; its own window's only)."""
    padded = np.pad(dark, ((0, 0), (1, 1), (1, 1)))
    out = np.zeros_like(dark)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            out |= padded[:, dr:dr + INPUT_PX, dc:dc + INPUT_PX]
    return out


def _fitted(dark: np.ndarray, frames: np.ndarray, boxes: tuple[int, ...], theta: float,
            rho_mm: float) -> tuple[float, float]:
    """The line (theta, rho mm) fitted to the darkened pixels of ``boxes``
    within FIT_MM of the line given (least squares across the line)."""
    picked = np.zeros(len(dark), bool)
    picked[list(boxes)] = True
    points = _on_sheet(frames, *np.nonzero(dark & picked[:, None, None]))
    normal, _ = _axes(theta, np.float64)
    points = points[np.abs(points @ normal - rho_mm) <= FIT_MM]
    if len(points) < 2 * LONG_LINE_BOXES:
        return theta, rho_mm
    centre = points.mean(axis=0)
    _, _, axes = np.linalg.svd(points - centre, full_matrices=False)
    fitted = axes[1] if axes[1] @ normal >= 0 else -axes[1]
    return float(np.arctan2(fitted[1], fitted[0])), float(centre @ fitted)


def _darkened_run(dark: np.ndarray, near_dark: np.ndarray, paper: np.ndarray,
                  frames: np.ndarray, theta: float, rho_mm: float) -> tuple[int, ...]:
    """The longest run of boxes, one after the other along the line, that it
    darkens so (see the module's note); ``near_dark``: :func:`_next_to`
    ``dark``."""
    normal, along = _axes(theta)
    centres = frames[:, :2] + frames[:, 2:] / 2
    reach = np.hypot(frames[:, 2], frames[:, 3]) / 2
    near = np.flatnonzero(np.abs(centres @ normal - rho_mm) < reach)
    if len(near) < LONG_LINE_BOXES:
        return ()
    near = near[np.argsort(centres[near] @ along)]
    frame = frames[near]
    scale = frame[:, 2:] / INPUT_PX  # mm per window pixel, per box
    foot = centres[near] + normal * (rho_mm - centres[near] @ normal)[:, None]
    s = np.arange(-reach.max(), reach.max(), 0.8 * float(scale.min()), dtype=np.float32)
    points = foot[:, None, :] + s[None, :, None] * along  # boxes x samples x 2 (mm)
    pix = (points - frame[:, None, :2]) / scale[:, None, :]
    inside = np.all((pix >= 1) & (pix < INPUT_PX - 1), axis=2)
    cols, rows = np.clip(pix, 0, INPUT_PX - 1).astype(int).transpose(2, 0, 1)
    box = near[:, None]
    on_paper = paper[box, rows, cols] & inside
    counted = np.count_nonzero(on_paper, axis=1)
    lit = near_dark[box, rows, cols]  # a darkened pixel next to the sample
    darkens = np.count_nonzero(lit & on_paper, axis=1) >= LINE_COVER * np.maximum(counted, 1)
    if np.count_nonzero(darkens) < LONG_LINE_BOXES:
        return ()  # (most lines looked at: the rest of their boxes' paper is not asked)
    # the rest of each box's paper the line covers, OFF_LINE_MM or more from it
    covered = np.flatnonzero(darkens)
    grid = (np.arange(INPUT_PX, dtype=np.float32) + 0.5)
    x = frame[covered, None, None, 0] + grid[None, None, :] * scale[covered, None, None, 0]
    y = frame[covered, None, None, 1] + grid[None, :, None] * scale[covered, None, None, 1]
    off_line = np.abs(x * normal[0] + y * normal[1] - rho_mm) >= OFF_LINE_MM
    rest = paper[near[covered]] & off_line
    rest_darkened = np.count_nonzero(dark[near[covered]] & rest, axis=(1, 2)) / np.maximum(
        np.count_nonzero(rest, axis=(1, 2)), 1)
    darkens[covered] = rest_darkened < REST_DARKENED
    run: list[int] = []
    best: list[int] = []
    for i, box_i in enumerate(near):
        if counted[i] < MIN_PAPER_SAMPLES:
            continue  # the line hardly crosses this box's paper: neither breaks nor counts
        if darkens[i]:
            run.append(int(box_i))
            if len(run) > len(best):
                best = list(run)
        else:
            run = []
    return tuple(best)
