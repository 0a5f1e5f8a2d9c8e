"""The learned box classifier: probability that a player crossed a box.

Three small convolutional networks (trained by training/train_box_classifier.py
on generated photos, shipped as ONNX in ``models/``) run with ONNX Runtime
(one network, one sheet's boxes, one core: about 5 ms, where OpenCV's DNN
module took 11 ms). They learned from different photos (``a``: sheets
printed exactly as designed; ``b`` and ``c``: also paler, grey and
colour-shifted prints, inks of every shade, boxes hatched solid, and more
of them; ``c`` from more photos and longer). ``b`` and ``c`` decide
together (the mean of their probabilities: on 600 fresh photos the pair
made 3 wrong boxes where ``b`` alone made 10); where any two of the three are sure of
opposite verdicts, the box is a toss-up and goes to review: a mark one of
them has not learned is not scored on the others' word alone. Their input
per box is built by :func:`qwixx_scan.read.box_inputs`: 6 channels of
INPUT_PX x INPUT_PX pixels covering the box and 1.8 mm around it (about
4 px/mm): the photo with paper = 1 (BGR) and the blank sheet (BGR, 0..1),
so that the network knows what is print.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import onnxruntime

INPUT_PX = 48
INPUT_CHANNELS = 6
#: Two networks this sure of opposite verdicts make a box a toss-up. (On
#: the benchmarks, averaging ``a`` in as well sent 2-10 % more sheets to
#: review; this check costs none and still catches what ``a`` knows.)
SURE = 0.8
MODELS = Path(__file__).resolve().parent / "models"
#: The first network only vetoes; the others decide together.
MODEL_PATHS = tuple(MODELS / f"box_classifier_{member}.onnx" for member in "abc")


class BoxClassifier:
    """Wraps the networks; one forward pass each for all boxes of a sheet."""

    def __init__(self, paths: tuple[Path, ...] = MODEL_PATHS):
        for path in paths:
            if not path.exists():
                raise FileNotFoundError(f"{path} is missing: reinstall qwixx, or rebuild it "
                                        "with python training/train_box_classifier.py")
        # As many threads as OpenCV may use: one per process under --jobs.
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = max(1, cv2.getNumThreads())
        options.inter_op_num_threads = 1
        # No memory arena: it keeps the buffers of the largest batch for
        # good; without it the scan's peak memory fell from 370 to 344 MB
        # (benchmark, seed 9) at the same speed (15 ms a sheet either way).
        options.enable_cpu_mem_arena = False
        nets = [_Network(onnxruntime.InferenceSession(str(path), options,
                                                      providers=["CPUExecutionProvider"]))
                for path in paths]
        self._nets, self._deciders = nets, nets[1:]

    def crossed_probability(self, inputs: np.ndarray) -> np.ndarray:
        """P(crossed) per box for ``inputs`` (n x INPUT_CHANNELS x INPUT_PX x INPUT_PX
        float32): the deciding networks' mean, or 0.5 where two networks are
        sure of opposite verdicts."""
        if len(inputs) == 0:
            return np.zeros(0, np.float32)
        blob = np.ascontiguousarray(inputs, np.float32)
        p = np.array([net.probability(blob) for net in self._nets])
        # Where two are sure of opposite verdicts, the box is a toss-up
        # (0.5): something one of them has not learned.
        disagree = (p.max(axis=0) >= SURE) & (p.min(axis=0) <= 1 - SURE)
        return np.where(disagree, 0.5, p[1:].mean(axis=0))  # p[1:]: the deciders

    def turned_probability(self, inputs: np.ndarray) -> np.ndarray:
        """P(crossed) by the deciding networks for ``inputs`` turned half round
        (print and marks turned together). They learned mirrored boxes too, so
        they should say the same; where they do not, they are not sure."""
        if len(inputs) == 0:
            return np.zeros(0, np.float32)
        blob = np.ascontiguousarray(inputs[:, :, ::-1, ::-1], np.float32)
        return np.mean([net.probability(blob) for net in self._deciders], axis=0)


class _Network:
    """One network's session and the name of its input."""

    def __init__(self, session: onnxruntime.InferenceSession):
        self._session = session
        self._input = session.get_inputs()[0].name

    def probability(self, blob: np.ndarray) -> np.ndarray:
        """P(crossed) per box of ``blob`` (the logits through a sigmoid)."""
        (logits,) = self._session.run(None, {self._input: blob})
        return 1.0 / (1.0 + np.exp(-logits.reshape(-1).astype(np.float64)))


_classifier: BoxClassifier | None = None


def box_classifier() -> BoxClassifier:
    """The shared classifier, loaded on first use."""
    global _classifier
    if _classifier is None:
        _classifier = BoxClassifier()
    return _classifier
