"""The benchmark's spoils do what they say (benchmarks/spoilt_photos.py)."""

from __future__ import annotations

import numpy as np

from benchmarks.spoilt_photos import spoil

#: A classic sheet (132 x 98 mm) lying square at 10 px/mm, 100 px from the corner.
CORNERS = [[100, 100], [1420, 100], [1420, 1080], [100, 1080]]


def _on_paper(angle_deg: np.ndarray, centre, radius_mm: float) -> tuple[np.ndarray, np.ndarray]:
    angle = np.radians(angle_deg)
    x = 100 + 10 * (centre[0] + radius_mm * np.cos(angle))
    y = 100 + 10 * (centre[1] + radius_mm * np.sin(angle))
    return np.round(y).astype(int), np.round(x).astype(int)


def test_a_drink_ring_is_a_brown_rim_where_its_truth_puts_it():
    image = np.full((1200, 1600, 3), 230, np.uint8)
    truth = {"sheets": [{"layout": "classic", "letter": None, "corners_px": CORNERS}]}
    out = spoil(image, "stain", truth, seed=3).astype(float)
    cx, cy, radius = truth["sheets"][0]["stain_ring_mm"]
    assert 30 <= radius <= 42.5
    angles = np.arange(0, 360, 2.0)
    y, x = _on_paper(angles, (cx, cy), radius - 0.1)
    seen = (y >= 0) & (y < 1200) & (x >= 0) & (x < 1600)
    rim = out[y[seen], x[seen]]
    # the rim is darkest in blue: a brown line, broken in places
    assert (230 - rim[:, 0]).max() >= 0.15 * 230
    assert ((230 - rim[:, 0]) >= (230 - rim[:, 2])).all()
    # inside, a thin tint; well outside, the picture as it was
    y, x = _on_paper(angles, (cx, cy), radius + 5)
    seen = (y >= 0) & (y < 1200) & (x >= 0) & (x < 1600)
    assert (out[y[seen], x[seen]] == 230).all()
    y, x = _on_paper(angles, (cx, cy), radius - 8)
    seen = (y >= 0) & (y < 1200) & (x >= 0) & (x < 1600)
    inside = 230 - out[y[seen], x[seen], 0]
    assert 0 < np.median(inside) <= 0.09 * 230
