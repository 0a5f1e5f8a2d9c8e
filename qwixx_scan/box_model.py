"""The learned box classifier: probability that a player crossed a box.

A small convolutional network (trained by training/train_box_classifier.py
on generated photos, shipped as ONNX in ``models/``) run with OpenCV's DNN
module, so the scanner needs no deep-learning framework. Its input per box
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
MODEL_PATH = Path(__file__).resolve().parent / "models" / "box_classifier.onnx"


class BoxClassifier:
    """Wraps the network; one forward pass for all boxes of a sheet."""

    def __init__(self, path: Path = MODEL_PATH):
        if not path.exists():
            raise FileNotFoundError(f"{path} is missing: reinstall qwixx, or rebuild it with "
                                    "python training/train_box_classifier.py")
        self._net = cv2.dnn.readNetFromONNX(str(path))
        self._lock = threading.Lock()

    def crossed_probability(self, inputs: np.ndarray) -> np.ndarray:
        """P(crossed) per box for ``inputs`` (n x INPUT_CHANNELS x INPUT_PX x INPUT_PX float32)."""
        if len(inputs) == 0:
            return np.zeros(0, np.float32)
        with self._lock:
            self._net.setInput(np.ascontiguousarray(inputs, np.float32))
            logits = self._net.forward().reshape(-1)
        return 1.0 / (1.0 + np.exp(-logits.astype(np.float64)))


_classifier: BoxClassifier | None = None


def box_classifier() -> BoxClassifier:
    """The shared classifier, loaded on first use."""
    global _classifier
    if _classifier is None:
        _classifier = BoxClassifier()
    return _classifier
