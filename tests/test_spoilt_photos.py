"""The benchmark's spoils do what they say (benchmarks/spoilt_photos.py)."""

from __future__ import annotations

import numpy as np

from benchmarks.spoilt_photos import spoil

#: A classic sheet (132 x 98 mm) lying square at 10 px/mm, 100 px from the corner.
CORNERS = [[100, 100], [1420, 100], [1420, 1080], [100, 1080]]


def _round(picture: np.ndarray, centre, radius_mm: float) -> np.ndarray:
    """The pixels of ``picture`` on a circle on the sheet (every 2 degrees),
    those inside the picture."""
    angle = np.radians(np.arange(0, 360, 2.0))
    x = np.round(100 + 10 * (centre[0] + radius_mm * np.cos(angle))).astype(int)
    y = np.round(100 + 10 * (centre[1] + radius_mm * np.sin(angle))).astype(int)
    seen = (y >= 0) & (y < picture.shape[0]) & (x >= 0) & (x < picture.shape[1])
    return picture[y[seen], x[seen]]


def test_a_drink_ring_is_a_brown_rim_where_its_truth_puts_it():
    image = np.full((1200, 1600, 3), 230, np.uint8)
    truth = {"sheets": [{"layout": "classic", "letter": None, "corners_px": CORNERS}]}
    out = spoil(image, "stain", truth, seed=3).astype(float)
    cx, cy, radius = truth["sheets"][0]["stain_ring_mm"]
    assert 30 <= radius <= 42.5
    rim = _round(out, (cx, cy), radius - 0.1)
    # the rim is darkest in blue: a brown line, broken in places
    assert (230 - rim[:, 0]).max() >= 0.15 * 230
    assert ((230 - rim[:, 0]) >= (230 - rim[:, 2])).all()
    # inside, a thin tint; well outside, the picture as it was
    assert (_round(out, (cx, cy), radius + 5) == 230).all()
    inside = 230 - _round(out, (cx, cy), radius - 8)[:, 0]
    assert 0 < np.median(inside) <= 0.09 * 230
