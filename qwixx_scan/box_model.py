"""The learned box classifier: probability that a player crossed a box.

Two small convolutional networks (trained by training/train_box_classifier.py
on generated photos, shipped as ONNX in ``models/``) run with ONNX Runtime
(one network, one sheet's boxes, one core: 10 ms, where OpenCV's DNN module
took 18 ms; the pair was a fifth of a scan's time). They learned from
different photos (``a``: sheets printed exactly as designed; ``b``: also
paler, grey and colour-shifted prints, inks of every shade, boxes hatched
solid, and more of them). ``b`` decides; where ``a`` is sure of the
opposite, the box is a toss-up and goes to review: a mark one of them has
not learned is not scored on the other's word alone. Their input per box
is built by :func:`qwixx_scan.read.box_inputs`: 6 channels of
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
#: the benchmarks, averaging the two sent 2-10 % more sheets to review than
#: ``b`` alone; this check costs none and still catches what ``a`` knows.)
SURE = 0.8
MODELS = Path(__file__).resolve().parent / "models"
MODEL_PATHS = (MODELS / "box_classifier_a.onnx", MODELS / "box_classifier_b.onnx")


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
        self._nets = [onnxruntime.InferenceSession(str(path), options,
                                                   providers=["CPUExecutionProvider"])
                      for path in paths]

    def crossed_probability(self, inputs: np.ndarray) -> np.ndarray:
        """P(crossed) per box for ``inputs`` (n x INPUT_CHANNELS x INPUT_PX x INPUT_PX
        float32): the last network's, or 0.5 where another is sure of the opposite."""
        if len(inputs) == 0:
            return np.zeros(0, np.float32)
        blob = np.ascontiguousarray(inputs, np.float32)
        p = np.array([_probability(net, blob) for net in self._nets])
        # The last network decides; where another is sure of the opposite,
        # the box is a toss-up (0.5): something one of them has not learned.
        disagree = (p.max(axis=0) >= SURE) & (p.min(axis=0) <= 1 - SURE)
        return np.where(disagree, 0.5, p[-1])

    def turned_probability(self, inputs: np.ndarray) -> np.ndarray:
        """P(crossed) by the deciding network for ``inputs`` turned half round
        (print and marks turned together). It learned mirrored boxes too, so
        it should say the same; where it does not, it is not sure."""
        if len(inputs) == 0:
            return np.zeros(0, np.float32)
        blob = np.ascontiguousarray(inputs[:, :, ::-1, ::-1], np.float32)
        return _probability(self._nets[-1], blob)


def _probability(net: onnxruntime.InferenceSession, blob: np.ndarray) -> np.ndarray:
    """One network's P(crossed) per box of ``blob`` (its logits through a sigmoid)."""
    (logits,) = net.run(None, {net.get_inputs()[0].name: blob})
    logits = logits.reshape(-1).astype(np.float64)
    return 1.0 / (1.0 + np.exp(-logits))


_classifier: BoxClassifier | None = None


def box_classifier() -> BoxClassifier:
    """The shared classifier, loaded on first use."""
    global _classifier
    if _classifier is None:
        _classifier = BoxClassifier()
    return _classifier
