"""A drink's ring on a flat sheet (photogen.drink_ring), as the box networks'
training data draws it: the boxes said to lie under the rim are the ones it
darkens."""

from __future__ import annotations

import numpy as np
import pytest

from photogen.drink_ring import boxes_under_rim, darken_with_drink_ring
from qwixx_print.layout import load_layout
from qwixx_scan.box_inputs import WINDOW_MM

PX_PER_MM = 8.0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_box_the_rim_darkens_is_one_said_to_lie_under_it(seed):
    sheet = load_layout("classic").sheet(None)
    width_mm, height_mm = sheet.size_mm
    picture = np.full((int(height_mm * PX_PER_MM), int(width_mm * PX_PER_MM), 3), 255, np.float32)
    ring = darken_with_drink_ring(picture, np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1.0]),
                                  (width_mm, height_mm), np.random.default_rng(seed))
    under = boxes_under_rim(sheet, ring, WINDOW_MM)
    darkened = []
    for box in sheet.boxes:
        r = box.rect
        x0, y0 = (int((v - WINDOW_MM) * PX_PER_MM) for v in (r.x, r.y))
        x1, y1 = (int((v + WINDOW_MM) * PX_PER_MM) for v in (r.x + r.w, r.y + r.h))
        window = picture[max(y0, 0):y1, max(x0, 0):x1, 0]
        # a fifth darker in blue: the rim (the film inside the ring tints less)
        darkened.append(window.size > 0 and window.min() < 0.8 * 255)
    darkened = np.array(darkened)
    assert darkened.any()
    assert not (darkened & ~under).any()
    # and the boxes said to lie under it are near the circle, not all over the sheet
    assert under.sum() < len(sheet.boxes) / 2
