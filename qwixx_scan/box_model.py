"""The learned box classifier: probability that a player crossed a box.

Two small convolutional networks (trained by training/train_box_classifier.py
on generated photos, shipped as ONNX in ``models/``) run with OpenCV's DNN
module, so the scanner needs no deep-learning framework. They learned from
different photos (``a``: sheets printed exactly as designed; ``b``: also
paler, grey and colour-shifted prints, inks of every shade, boxes hatched
solid) and the probability is their mean: a box is crossed or empty for sure
only when both lean the same way, so a mark one of them misjudges with
confidence goes to review instead of into the score. Its input per box
is built by :func:`qwixx_scan.read.box_inputs`: 6 channels of
INPUT_PX x INPUT_PX pixels covering the box and 1.8 mm around it (about
4 px/mm): the photo with paper = 1 (BGR) and the blank sheet (BGR, 0..1),
so that the network knows what is print.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

INPUT_PX = 48
INPUT_CHANNELS = 6
MODELS = Path(__file__).resolve().parent / "models"
MODEL_PATHS = (MODELS / "box_classifier_a.onnx", MODELS / "box_classifier_b.onnx")


class BoxClassifier:
    """Wraps the networks; one forward pass each for all boxes of a sheet."""

    def __init__(self, paths: tuple[Path, ...] = MODEL_PATHS):
        for path in paths:
            if not path.exists():
                raise FileNotFoundError(f"{path} is missing: reinstall qwixx, or rebuild it "
                                        "with python training/train_box_classifier.py")
        self._nets = [cv2.dnn.readNetFromONNX(str(path)) for path in paths]
        self._lock = threading.Lock()

    def crossed_probability(self, inputs: np.ndarray) -> np.ndarray:
        """P(crossed) per box for ``inputs`` (n x INPUT_CHANNELS x INPUT_PX x INPUT_PX
        float32): the mean of the networks' probabilities."""
        if len(inputs) == 0:
            return np.zeros(0, np.float32)
        blob = np.ascontiguousarray(inputs, np.float32)
        total = np.zeros(len(inputs), np.float64)
        with self._lock:
            for net in self._nets:
                net.setInput(blob)
                logits = net.forward().reshape(-1).astype(np.float64)
                total += 1.0 / (1.0 + np.exp(-logits))
        return total / len(self._nets)


_classifier: BoxClassifier | None = None


def box_classifier() -> BoxClassifier:
    """The shared classifier, loaded on first use."""
    global _classifier
    if _classifier is None:
        _classifier = BoxClassifier()
    return _classifier
