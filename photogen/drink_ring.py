"""The dried ring a drink leaves where a cup stood on a sheet.

Used by benchmarks/spoilt_photos.py's ``stain`` spoil (a ring on each sheet
of a photo) and by training/train_box_classifier.py's ``generate --rings``
(rings on flat sheets, so that the box networks learn that a rim through a
box is no cross). The ring is a circle on the paper, 60-85 mm across, its
rim a brown line 0.4-1.2 mm wide.
"""

from __future__ import annotations

import cv2
import numpy as np

from qwixx_print.layout import Sheet

#: The ring's radius on the paper (mm): cups and glasses 60-85 mm across.
RADIUS_MM = (30.0, 42.5)
#: How wide the rim's dark line is (mm).
RIM_MM = (0.4, 1.2)


def darken_with_drink_ring(picture: np.ndarray, to_sheet: np.ndarray,
                           size_mm: tuple[float, float],
                           rng: np.random.Generator) -> tuple[float, float, float]:
    """Darken ``picture`` (float BGR, in place) with a drink's ring on a
    sheet of ``size_mm`` (width, height) that ``to_sheet`` (a 3 x 3
    homography) maps from picture px to sheet mm; return the ring's centre
    and radius on the sheet (mm). The liquid dries outward, so the ring is
    darkest at its outer edge, fading over its width toward the middle; its
    depth wanders along the ring (a cup set down unevenly leaves gaps)."""
    width_mm, height_mm = size_mm
    centre = rng.uniform(0.05, 0.95, 2) * (width_mm, height_mm)
    radius = rng.uniform(*RADIUS_MM)
    width = rng.uniform(*RIM_MM)
    ring = (float(centre[0]), float(centre[1]), float(radius))
    # only the part of the picture the ring can darken is worked out
    reach = radius + 2 * width
    square = centre + reach * np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]])
    seen = cv2.perspectiveTransform(square[None].astype(np.float32),
                                    np.linalg.inv(to_sheet))[0]
    x0, y0 = np.maximum(np.floor(seen.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(seen.max(axis=0)).astype(int) + 1,
                        (picture.shape[1], picture.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return ring
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    h = to_sheet.astype(np.float32)
    w = h[2, 0] * xx + h[2, 1] * yy + h[2, 2]
    sx = (h[0, 0] * xx + h[0, 1] * yy + h[0, 2]) / w - centre[0]  # mm from the ring's centre
    sy = (h[1, 0] * xx + h[1, 1] * yy + h[1, 2]) / w - centre[1]
    distance = np.hypot(sx, sy)
    angle = np.arctan2(sy, sx)
    # depth along the ring: a few slow waves, clipped at 0 where the ring breaks
    waves = sum(rng.uniform(0.2, 0.5) * np.sin(k * angle + rng.uniform(0, 2 * np.pi))
                for k in (1, 2, 3, 5))
    along = np.clip(0.75 + waves, 0.0, 1.0)
    inside = radius - distance  # mm inside the rim
    line = np.where(inside >= 0, np.exp(-np.maximum(inside, 0) / width),
                    np.exp(-((np.minimum(inside, 0) / (0.25 * width)) ** 2)))
    depth = rng.uniform(0.2, 0.5) * along * line
    depth += rng.uniform(0.02, 0.08) * (inside > 0)  # the thin film dried inside
    tint = np.float32([1.0, 0.65, 0.35])  # (BGR) coffee and tea absorb blue most
    picture[y0:y1, x0:x1] *= (1 - depth[..., None] * tint).astype(np.float32)
    return ring


def boxes_under_rim(sheet: Sheet, ring: tuple[float, float, float],
                    reach_mm: float) -> np.ndarray:
    """Per box of ``sheet``: whether the rim of ``ring`` (centre x, y and
    radius, sheet mm) runs within ``reach_mm`` of the box (through the
    window a reader looks at)."""
    cx, cy, radius = ring
    out = np.zeros(len(sheet.boxes), bool)
    for k, box in enumerate(sheet.boxes):
        r = box.rect
        x0, y0, x1, y1 = r.x - reach_mm, r.y - reach_mm, r.x + r.w + reach_mm, r.y + r.h + reach_mm
        nearest = np.hypot(np.clip(cx, x0, x1) - cx, np.clip(cy, y0, y1) - cy)
        farthest = max(np.hypot(x - cx, y - cy) for x in (x0, x1) for y in (y0, y1))
        out[k] = nearest <= radius <= farthest
    return out
