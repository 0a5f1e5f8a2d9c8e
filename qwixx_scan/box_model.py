"""The learned box classifier: probability that a player crossed a box.

Five small convolutional networks (trained by
training/train_box_classifier.py on generated photos, shipped as ONNX in
``models/``) run with ONNX Runtime (one network, one sheet's boxes, one
core: about 3 ms, where OpenCV's DNN module took 11 ms; the scanner runs
them joined in two graphs, see GROUPS). They learned from different photos
(``a``: sheets printed exactly as designed; ``b``, ``c`` and ``d``: also
paler, grey and colour-shifted prints, inks of every shade, boxes hatched
solid, and more of them; ``c`` from more photos and longer; ``d`` also from
many more pencil marks and coloured felt pens; ``e`` also from marks turned
as far as a plus; ``a`` to ``d`` were then taught boxes shaded in lightly
with even strokes, all five boxes shaded in almost evenly, then marks
drawn wild (larger, off centre, broad pens) and then boxes in grainy photos
taken in dim light, keeping their verdicts elsewhere). ``b``, ``c`` and
``d`` decide together: the box's probability is the middle one of their
three, so no single network decides alone (on the 800 fresh benchmark
photos of seeds 5, 7, 9 and 10, with the checks below and in read.py: 771
sheets read exactly where the mean of ``b`` and ``c`` gave 769, 1 wrong
box instead of 3, 55 doubtful boxes instead of 57). Where two of the
networks asked are sure of opposite verdicts, the box is a toss-up and goes
to review: a mark one of them has not learned is not scored on the others'
word alone. A box they are unsure of is shown to them
once more, mirrored three ways, and their views averaged (see
MIRRORED_VIEWS). Their input per box is built by
:func:`qwixx_scan.box_inputs.box_inputs`: 6 channels of INPUT_PX x INPUT_PX
pixels covering the box and 1.8 mm around it (about 4 px/mm): the photo with
paper = 1 (BGR) and the blank sheet (BGR, 0..1), so that the network knows
what is print. A sixth network sees a box closer, at CLOSE_PX a side
(:class:`CloseLook`), for a pencil player's doubtful boxes only; a seventh,
which learned drink rings (:class:`RimLook`), may only doubt a pen player's
boxes read crossed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import onnxruntime

INPUT_PX = 48
INPUT_CHANNELS = 6
#: The close look's side (px) over the same window: about 7 px/mm, near the
#: rectified sheet's own 8 (see CloseLook).
CLOSE_PX = 96
#: Two networks this sure of opposite verdicts make a box a toss-up. (On
#: the benchmarks, averaging ``a`` in as well sent 2-10 % more sheets to
#: review; this check costs none and still catches what ``a`` knows.)
SURE = 0.8
#: Where the networks asked first (FIRST) are all this sure of one verdict
#: (the reader's own thresholds, verdict.CROSSED_P and verdict.EMPTY_P), the
#: others are not asked: the median of ``b``, ``c`` and ``d`` then lies
#: between ``b`` and ``c`` whatever ``d`` says, so the verdict stands. That
#: is 98-99.7 % of the boxes: the late networks add well under a millisecond
#: a sheet instead of 7 ms each (30 real sheets: 16.7 ms for four networks,
#: 16.6-17.6 for the first three alone).
AGREED = 0.9
#: A box the deciders' median calls empty is a toss-up all the same where
#: two of the networks lean this far towards crossed: on 200 fresh photos
#: (seed 11) a slash through a 4, flat enough to pass for a skip line, was
#: read empty at 0.013 while ``a`` gave 0.49 and ``d`` 0.69, and the sheet
#: came out ``ok`` with a wrong score. Over 1,000 other benchmark sheets
#: this doubted one more box.
LEAN = 0.4
#: ... or where ``d`` alone gives PENCIL_LEAN or more: it learned from many
#: more pencil marks than the others, and a light pencil fill that ``a``,
#: ``b`` and ``c`` read empty it alone may see (two such fills over 1,150
#: independent photos, read empty with confidence; no empty box of those,
#: the 160 table photos or photogen's 1,650 had it so; one of the 9,360 of
#: the unseen-marks benchmark, next to a thin X, did).
#: Where the networks asked first all read a box empty, ``d`` is not asked
#: (see AGREED) unless the box holds some ink (verdict.TURN_CHECK_INK_MM2) or
#: its paper is darkened (read.PENCIL_ASK_DARK_PX): then it is, and where
#: it gives PENCIL_LEAN or more, every network is asked as for a box they
#: are unsure of. A classic sheet shaded in with
#: light pencil hatching (independent seed 41, photo 146) had a box with
#: 4.6 mm^2 of ink that ``e``, ``b`` and ``c`` read empty (0.01-0.05) and
#: ``d`` crossed (0.67): the sheet came out ``ok`` with a wrong score.
#: Over the 10,688 sheets of every benchmark set: that box doubted, 6 more
#: boxes doubtful, 2 sheets fewer exact, no wrong box more; unseen marks
#: unchanged; no slower (independent seed 29: 50.9-51.3 ms a photo against
#: 50.2-53.4).
PENCIL_LEAN = 0.5
#: A box the networks are still unsure of (between the reader's thresholds,
#: or a toss-up) is looked at once more, as it is and mirrored left-right,
#: top-bottom and both (print and marks together: the networks learned
#: mirrored boxes as boxes, see training's ``augment``), every network on
#: every view; the views' log-odds are averaged per network. One view's
#: chance stroke or noise then weighs a quarter. A toss-up in any one view
#: stays one: where a network sure of its verdict in one view is outweighed
#: in the others, the mark is one that network has seen and the others not.
#: (Averaging without that rule let two crossed boxes through as ``ok``.)
#: Over 4,263 sheets of every benchmark set: 14 more read exactly (4,106 ->
#: 4,120), 659 -> 633 doubtful boxes, wrong boxes 7 -> 7, none ``ok``.
#: (rows, columns) steps of each view.
MIRRORED_VIEWS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
#: Read empty from the mirrored views, a box must be this sure of it; else
#: it stays as doubtful as it was. The networks under-read light pencil
#: rather than over-read anything, so a doubt that comes out empty is the
#: riskier side: of the boxes the mirrored views took out of doubt as empty,
#: those right came out 0.010-0.049, and a pencil slash through a lock box
#: 0.081 (fresh independent seed 19, photo 21).
MIRRORED_EMPTY = 0.05
#: A box the deciders' median reads crossed while one of the three leans
#: empty (below SPLIT) is looked at mirrored as well, and stays crossed only
#: if the mirrored views agree (AGREED); else it is a toss-up. On a hard
#: independent table photo (foreign_photos.py --table --hard-share 1, seed
#: 14, photo 37) the long stroke of a red check overshooting from its box
#: reached into the corner of the next one, which ``b`` and ``d`` read
#: crossed (0.996, 0.97) and ``c`` not (0.44): the sheet came out ``ok``
#: with a wrong score; mirrored, ``a`` and ``e`` are sure of opposite
#: verdicts in one view. Over 6,732 sheets of every benchmark set: that box
#: and one other wrong box (on a sheet sent to review anyway) doubted
#: instead, 2 sheets fewer exact (6,513 -> 6,511), none ``ok`` and wrong.
SPLIT = 0.5
MODELS = Path(__file__).resolve().parent / "models"
#: The networks, in the order of :meth:`BoxClassifier.each_probability`.
MEMBERS = "abcde"
#: Asked about every box; the others only where these are not all agreed
#: (see AGREED). ``e`` learned turned marks up to a plus, which all the
#: others read empty: on 15 sheets marked with plusses, 8 came out ``ok``
#: with every plus missed. Asked about every box, its veto makes such boxes
#: a toss-up (0 of those sheets ``ok``). ``a`` then vetoes only where the
#: first three are not agreed, so the reader still runs three networks on
#: every box: over 1,400 benchmark sheets this read as many sheets exactly
#: and made fewer wrong boxes (4 against 8) than asking ``a``, ``b``, ``c``.
FIRST = "ebc"
#: Their middle verdict decides.
DECIDERS = "bcd"
#: The graphs the scanner runs: FIRST, then the others. Each is its networks
#: joined into one (training/merge_networks.py), which computes the same as
#: running them one by one, about a quarter faster (one session, and their
#: first convolutions as one).
GROUPS = (FIRST, "".join(m for m in MEMBERS if m not in FIRST))


def network_path(members: str) -> Path:
    """The ONNX file of ``members``: one network as trained (one of MEMBERS,
    by training/train_box_classifier.py) or several joined into one graph
    (one of GROUPS, by training/merge_networks.py)."""
    return MODELS / f"box_classifier_{members}.onnx"


@dataclass(frozen=True)
class CrossedReading:
    """Per box: P(crossed) (``p``, see :meth:`BoxClassifier.crossed_probability`),
    the deciding networks' median (``median``) and whether ``p`` is a toss-up
    only because a mirrored view doubted a cross one decider leaned against
    (``mirrored_doubt``, see SPLIT); ``first_agreed_empty``: the boxes read
    empty on the first networks' word (FIRST all agreed, see AGREED; an
    inked one with d not leaning to a cross either, see PENCIL_LEAN), about
    which no other network was asked; ``mirrored_cross``: the boxes the
    networks were unsure of as they are that their mirrored views read
    crossed (AGREED or more)."""

    p: np.ndarray
    median: np.ndarray
    mirrored_doubt: np.ndarray
    first_agreed_empty: np.ndarray
    mirrored_cross: np.ndarray


class BoxClassifier:
    """Wraps the networks, run as the joined graphs of GROUPS on a sheet's
    boxes, BATCH boxes a run."""

    def __init__(self, paths: tuple[Path, ...] = tuple(network_path(g) for g in GROUPS)):
        """``paths``: the joined graphs of GROUPS, in that order."""
        self._first, self._late = (_session(path, "python training/merge_networks.py")
                                   for path in paths)
        # where the first networks and the others go in MEMBERS order
        self._to_members = np.array([(FIRST + GROUPS[1]).index(m) for m in MEMBERS])
        self._first_deciders = np.array([FIRST.index(m) for m in DECIDERS if m in FIRST])

    def _every(self, blob: np.ndarray) -> np.ndarray:
        """Every network's P(crossed) (networks in MEMBERS order x boxes)."""
        return np.vstack([self._first.probabilities(blob),
                          self._late.probabilities(blob)])[self._to_members]

    def crossed_probability(self, inputs: np.ndarray) -> np.ndarray:
        """P(crossed) per box for ``inputs`` (n x INPUT_CHANNELS x INPUT_PX x INPUT_PX
        float32): the deciding networks' median, or 0.5 where two networks are
        sure of opposite verdicts; where they are unsure, from the box's
        mirrored views too (see MIRRORED_VIEWS)."""
        return self.crossed_reading(inputs).p

    def crossed_reading(self, inputs: np.ndarray,
                        inked: np.ndarray | None = None) -> CrossedReading:
        """:meth:`crossed_probability` (``p``) and, per box, the deciding
        networks' median itself (``median``: where ``p`` is a toss-up, the
        side it leans to), and which boxes its mirrored views doubted over one
        decider's doubt (``mirrored_doubt``, see SPLIT). Boxes the networks
        are unsure of, and boxes read crossed over one decider's doubt, are
        looked at mirrored too. ``inked`` (bool per box): boxes that hold some
        ink, never read empty on the first networks' word alone (see
        PENCIL_LEAN)."""
        if len(inputs) == 0:
            return CrossedReading(np.zeros(0, np.float32), np.zeros(0, np.float32),
                                  np.zeros(0, bool), np.zeros(0, bool), np.zeros(0, bool))
        blob = np.ascontiguousarray(inputs, np.float32)
        p = self._first.probabilities(blob)
        crossed, empty = p.min(axis=0) >= AGREED, p.max(axis=0) <= 1 - AGREED
        if inked is not None and (empty & inked).any():
            # d alone may see a light pencil fill that the others read empty
            # (see PENCIL_LEAN): a box that holds ink is shown to it as well.
            ask = np.flatnonzero(empty & inked)
            empty[ask[self.pencil_probability(blob[ask]) >= PENCIL_LEAN]] = False
        # Agreed boxes: the bound of the deciders' median on the side of doubt.
        deciding = p[self._first_deciders]
        out = np.where(crossed, deciding.min(axis=0), deciding.max(axis=0))
        median = out.copy()
        rest = ~(crossed | empty)
        if rest.any():
            late = self._late.probabilities(np.ascontiguousarray(blob[rest]))
            every = np.vstack([p[:, rest], late])[self._to_members]
            out[rest] = combine(every)
            median[rest] = np.median(every[DECIDER_ROWS], axis=0)
        unsure = np.flatnonzero((out > 1 - AGREED) & (out < AGREED))
        split = np.zeros(len(out), bool)
        if rest.any():
            split[rest] = (out[rest] >= AGREED) & (every[DECIDER_ROWS].min(axis=0) < SPLIT)
        split = np.flatnonzero(split)
        mirrored_cross = np.zeros(len(out), bool)
        if len(unsure) or len(split):
            look, look_median = self._mirrored_look(blob[np.concatenate([unsure, split])])
            n = len(unsure)
            hardly_empty = (look[:n] > MIRRORED_EMPTY) & (look[:n] <= 1 - AGREED)
            out[unsure] = np.where(hardly_empty, out[unsure], look[:n])
            mirrored_cross[unsure] = out[unsure] >= AGREED
            median[unsure] = look_median[:n]
            doubted = look[n:] < AGREED
            out[split] = np.where(doubted, 0.5, out[split])
            median[split] = np.where(doubted, look_median[n:], median[split])
            split = split[doubted]
        mirrored_doubt = np.zeros(len(out), bool)
        mirrored_doubt[split] = True
        return CrossedReading(out, median, mirrored_doubt, empty, mirrored_cross)

    def _mirrored_look(self, blob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """P(crossed) and the deciders' median for boxes the networks are
        unsure of, from every network's view of each box as it is and
        mirrored (see MIRRORED_VIEWS): their log-odds averaged per network,
        then combined as usual. A box two networks are sure of opposite
        verdicts of, or that leans (see :func:`combine`), in any one view
        stays a toss-up."""
        n = len(blob)
        views = mirrored(blob)
        # members x views x boxes
        p = self._every(views).reshape(len(MEMBERS), len(MIRRORED_VIEWS), n)
        p = np.clip(p, 1e-6, 1 - 1e-6)
        toss_up = np.any([_toss_ups(p[:, v]) for v in range(len(MIRRORED_VIEWS))], axis=0)
        log_odds = np.log(p / (1 - p)).mean(axis=1)
        every = 1.0 / (1.0 + np.exp(-log_odds))
        return (np.where(toss_up, 0.5, combine(every)),
                np.median(every[DECIDER_ROWS], axis=0))

    def highest_decider_probability(self, inputs: np.ndarray) -> np.ndarray:
        """The highest P(crossed) any deciding network gives each box (all of
        them asked): where a miss must be ruled out, no decider may doubt."""
        if len(inputs) == 0:
            return np.zeros(0, np.float32)
        blob = np.ascontiguousarray(inputs, np.float32)
        return self._every(blob)[DECIDER_ROWS].max(axis=0)

    def least_mirrored_decider_probability(self, inputs: np.ndarray) -> np.ndarray:
        """The lowest P(crossed) any deciding network gives each box in any of
        its views (as it is and mirrored, see MIRRORED_VIEWS)."""
        return self.decider_views(inputs).min(axis=(0, 1))

    def decider_views(self, inputs: np.ndarray,
                      views: tuple[tuple[int, int], ...] = MIRRORED_VIEWS) -> np.ndarray:
        """P(crossed) by each deciding network (DECIDERS order) in each view of
        each box (``views`` order; by default MIRRORED_VIEWS, the box as it
        is first): deciders x views x boxes."""
        if len(inputs) == 0:
            return np.zeros((len(DECIDERS), len(views), 0), np.float32)
        blob = np.ascontiguousarray(inputs, np.float32)
        seen = mirrored(blob, views)
        return self._every(seen)[DECIDER_ROWS].reshape(len(DECIDERS), len(views), -1)

    def each_probability(self, inputs: np.ndarray) -> np.ndarray:
        """Every network's P(crossed) for every box (networks x boxes, in
        MEMBERS order): what :meth:`crossed_probability` combines."""
        blob = np.ascontiguousarray(inputs, np.float32)
        return self._every(blob)

    def pencil_probability(self, inputs: np.ndarray) -> np.ndarray:
        """P(crossed) by ``d`` alone, the network that learned the most pencil
        marks (see PENCIL_LEAN), for each box of ``inputs``."""
        if len(inputs) == 0:
            return np.zeros(0, np.float32)
        blob = np.ascontiguousarray(inputs, np.float32)
        return self._late.probabilities(blob)[_LATE_PENCIL_ROW]

    def turned_probability(self, inputs: np.ndarray) -> np.ndarray:
        """P(crossed) by the deciding networks for ``inputs`` turned half round
        (print and marks turned together). They learned mirrored boxes too, so
        they should say the same; where they do not, they are not sure."""
        if len(inputs) == 0:
            return np.zeros(0, np.float32)
        blob = np.ascontiguousarray(inputs[:, :, ::-1, ::-1], np.float32)
        return np.median(self._every(blob)[DECIDER_ROWS], axis=0)


def mirrored(inputs: np.ndarray,
             views: tuple[tuple[int, int], ...] = MIRRORED_VIEWS) -> np.ndarray:
    """Every box of ``inputs`` (n x channels x side x side) in each of
    ``views`` ((rows, columns) steps), view after view, as one float32 batch."""
    return np.ascontiguousarray(np.concatenate(
        [inputs[:, :, ::rows, ::cols] for rows, cols in views]), np.float32)


#: The deciding networks' rows in MEMBERS order (as each_probability gives them).
DECIDER_ROWS = [MEMBERS.index(m) for m in DECIDERS]
_PENCIL_ROW = MEMBERS.index("d")
_LATE_PENCIL_ROW = GROUPS[1].index("d")


def combine(p: np.ndarray) -> np.ndarray:
    """One P(crossed) per box from every network's (``p``: networks x boxes,
    in MEMBERS order): the deciders' median, or 0.5 where two networks are
    sure of opposite verdicts (something one of them has not learned) or
    where the median says empty but two networks lean towards crossed (see
    LEAN), or ``d`` alone does (see PENCIL_LEAN)."""
    return np.where(_toss_ups(p), 0.5, np.median(p[DECIDER_ROWS], axis=0))


def _toss_ups(p: np.ndarray) -> np.ndarray:
    """The boxes :func:`combine` calls a toss-up (``p``: networks x boxes)."""
    median = np.median(p[DECIDER_ROWS], axis=0)
    disagree = (p.max(axis=0) >= SURE) & (p.min(axis=0) <= 1 - SURE)
    leaning = (median <= 1 - AGREED) & ((np.count_nonzero(p >= LEAN, axis=0) >= 2)
                                        | (p[_PENCIL_ROW] >= PENCIL_LEAN))
    return disagree | leaning


#: Boxes per run of a joined graph. A sheet's 50-60 boxes at once made the
#: scan's peak memory grow from 324 to 402 MB (independent seed 29, 150
#: photos: the joined first layer's buffers are three times the size, and
#: freed memory came back fragmented); 16 at a time kept it at 321 MB and
#: ran faster still (a sheet's first pass 7.4-8.0 ms at once, 6.6-6.9 in
#: sixteens, 8.4-10 as five networks: their buffers stay in the cache).
BATCH = 16


class _Networks:
    """One joined graph's session and the name of its input."""

    def __init__(self, session: onnxruntime.InferenceSession):
        self._session = session
        self._input = session.get_inputs()[0].name

    def probabilities(self, blob: np.ndarray) -> np.ndarray:
        """P(crossed) per network and box of ``blob`` (networks x boxes; the
        logits through a sigmoid)."""
        logits = np.concatenate([self._session.run(None, {self._input: blob[i:i + BATCH]})[0]
                                 for i in range(0, max(len(blob), 1), BATCH)])
        return 1.0 / (1.0 + np.exp(-logits.T.astype(np.float64)))


class CloseLook:
    """The close-look network (``models/box_classifier_close.onnx``): ``d``
    made to see each box at CLOSE_PX a side, about twice the resolution of
    the others' INPUT_PX (training/train_box_classifier.py ``tune-close``).
    At the others' 3.5 px/mm a light pencil stroke is a pixel of mid grey;
    at 7 it keeps its shape. Asked only about a few doubtful boxes of a
    sheet (see closer_look.CLOSE_LOOK and closer_look.CLOSE_EMPTY_P), so it is loaded
    then."""

    def __init__(self, path: Path = MODELS / "box_classifier_close.onnx"):
        self._network = _session(path, "python training/train_box_classifier.py tune-close")

    def crossed_views(self, inputs: np.ndarray) -> np.ndarray:
        """P(crossed) of each box (``inputs``: n x INPUT_CHANNELS x CLOSE_PX x
        CLOSE_PX) as it is and mirrored (views x boxes, MIRRORED_VIEWS order)."""
        if len(inputs) == 0:
            return np.zeros((len(MIRRORED_VIEWS), 0))
        return self._network.probabilities(mirrored(inputs))[0].reshape(len(MIRRORED_VIEWS), -1)


class RimLook:
    """The network that learned drink rings (``models/box_classifier_rings.onnx``):
    ``b`` tuned on boxes a cup's dried ring runs through, half of them
    crossed (training/train_box_classifier.py, ``generate --rings`` and
    ``tune --times``). A rim across an empty box is a thin line through it,
    the way a slash is, and the other networks read it crossed (0.94-1.0);
    this one reads half of those empty. Asked only about a pen player's
    boxes read crossed, it can only doubt them (read.RIM_DOUBT), never read
    a box crossed: as a decider in ``b``'s place, it moved a printed chain
    ring from a narrow reading (doubted) to a sure one, and a sheet came
    out ``ok`` with a wrong score (independent seed 43, photo 87). Loaded
    on first use."""

    def __init__(self, path: Path = MODELS / "box_classifier_rings.onnx"):
        self._network = _session(path, "python training/train_box_classifier.py tune --member b "
                                       "--times 10 (see its module docstring)")

    def crossed_probability(self, inputs: np.ndarray) -> np.ndarray:
        """P(crossed) of each box of ``inputs`` (n x INPUT_CHANNELS x
        INPUT_PX x INPUT_PX)."""
        if len(inputs) == 0:
            return np.zeros(0)
        return self._network.probabilities(np.ascontiguousarray(inputs, np.float32))[0]


def _session(path: Path, rebuild: str) -> _Networks:
    """A network's ONNX Runtime session, as the scanner runs them all;
    ``rebuild``: the command that makes ``path`` again, for the message."""
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: reinstall qwixx, or rebuild it with {rebuild}")
    # One thread: a sheet's boxes are too small a batch to share out. With
    # two (as many as OpenCV used on 2 cores) a photo took 0.108-0.111 s
    # instead of 0.068-0.077 (60 independent photos, median), the threads
    # waiting on each other; OpenCV's own threads still help (0.068 with
    # two, 0.077 with one).
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    # No memory arena: it keeps the buffers of the largest batch for
    # good; without it the scan's peak memory fell from 370 to 344 MB
    # (benchmark, seed 9) at the same speed (15 ms a sheet either way).
    options.enable_cpu_mem_arena = False
    # Nor memory patterns: one is kept per batch shape, and the batches'
    # sizes vary (a sheet's boxes, those asked again, their mirrored
    # views): with them the peak grew 332 -> 369 MB (300 photogen photos,
    # seed 4), without them 334, at the same speed.
    options.enable_mem_pattern = False
    return _Networks(onnxruntime.InferenceSession(str(path), options,
                                                  providers=["CPUExecutionProvider"]))


@cache
def close_look() -> CloseLook:
    """The shared close-look network, loaded on first use."""
    return CloseLook()


@cache
def rim_look() -> RimLook:
    """The shared network that learned drink rings, loaded on first use."""
    return RimLook()


@cache
def box_classifier() -> BoxClassifier:
    """The shared classifier, loaded on first use."""
    return BoxClassifier()
