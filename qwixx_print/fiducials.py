"""The corner markers shared by the printer and the scanner.

Every sheet carries four ArUco markers from :data:`ARUCO_DICT`, one near
each corner, with the ids in :data:`MARKER_IDS` (top-left, top-right,
bottom-right, bottom-left). The printer draws each marker as vector
squares exactly filling ``sheet.furniture.markers[k]``; the scanner finds
them with ``cv2.aruco.ArucoDetector`` and knows from the id which corner
of the sheet it sees, so a photo can be rectified at any rotation.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

#: The ArUco dictionary: 4x4 data bits, 50 ids (robust, small cells).
ARUCO_DICT: int = cv2.aruco.DICT_4X4_50
#: Marker ids for the corners, in the order of ``furniture.markers``:
#: top-left, top-right, bottom-right, bottom-left.
MARKER_IDS: tuple[int, int, int, int] = (0, 1, 2, 3)
#: Cells per side of a whole marker: 4 data cells plus a one-cell black border.
MARKER_CELLS = 6


def aruco_dictionary() -> cv2.aruco.Dictionary:
    """The OpenCV dictionary object for :data:`ARUCO_DICT`."""
    return cv2.aruco.getPredefinedDictionary(ARUCO_DICT)


@cache
def _cells(marker_id: int) -> bytes:
    image = cv2.aruco.generateImageMarker(aruco_dictionary(), marker_id, MARKER_CELLS, borderBits=1)
    return (image < 128).tobytes()


def marker_cells(marker_id: int) -> np.ndarray:
    """The marker's cells as a 6x6 bool array, True = black.

    Row 0 is the top of the marker as printed (y down), column 0 its left
    side. The outer ring is the black border, so the array's edge is all True.
    """
    if not 0 <= marker_id < 50:
        raise ValueError(f"marker_id must be 0..49 for DICT_4X4_50, not {marker_id}")
    return np.frombuffer(_cells(marker_id), dtype=bool).reshape(MARKER_CELLS, MARKER_CELLS).copy()
