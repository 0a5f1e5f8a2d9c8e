"""Copies of benchmark photos spoilt the way real photos go wrong, for
``scan_benchmark.py --spoil KIND`` (and shrunk, for ``--long-side PX``):
what neither generator does (or not as strongly), measured on photos whose
truth is known.

KIND:
- ``glare``: a lamp reflected by the paper: one soft spot per sheet, 85 %
  white at its middle, 8-18 % of the sheet's width, at a random place on it;
- ``bright``: 45 % too bright, so that much of the paper is white to the brim;
- ``tungsten``: an orange cast (blue x0.55, green x0.8, red x1.15);
- ``motion``: a 9 px motion blur in a random direction;
- ``smooth``: a phone's noise reduction (an edge-preserving filter);
- ``dark``: a dim room: 58 % too dark, with the sensor noise that brings
  (Gaussian, sigma 4 of 255);
- ``shadow``: the phone's or the hand's own shadow, photographing from
  above under a ceiling lamp: over each sheet a straight-edged shadow, 30-55
  % darker and a little blue, its edge 0.3-1.5 mm soft, crossing the sheet
  somewhere in its middle three fifths at any angle (the generators' shadows
  are soft bands and drop shadows, their edges centimetres wide);
- ``crease``: the sheet was folded in half and opened again: a straight
  fold across each sheet near its middle (along or across it, up to 4
  degrees off), one slope 8-20 % darker fading over 2-6 mm, a thin
  highlight on the ridge and a dark line 15-30 % deep beside it;
- ``blocky``: compressed hard once before (JPEG quality 12-20, as some
  messaging apps and web forms do), its 8 x 8 blocks and smeared colours
  kept;
- ``noisy``: a small sensor in a dim room at high ISO: strong noise
  (sigma 9-14 of 255), partly in colour, grainy over 2 px;
- ``focus``: a close-up with the camera tilted and the lens wide open:
  the sheet sharp at one end, more and more out of focus towards the other
  (in some direction across it), up to a blur of sigma 0.2-0.4 mm there;
- ``lens``: a wide lens's distortion left in the picture (barrel or
  pincushion, 3-8 % at the picture's corners), so the sheet's straight
  edges and rows bow;
- ``sharpened``: a phone's heavy sharpening and local tone mapping: an
  unsharp mask (radius 1-2.5 px, amount 0.8-1.6) that rings light halos
  round every stroke and edge, after the light was evened out locally
  (shadows lifted, as "HDR" photos are);
- ``stain``: a cup set down on each sheet: the dried ring a drink leaves,
  a circle 60-85 mm across on the paper, centred anywhere on the sheet (so
  often cut by its edge): a brown line 0.4-1.2 mm wide, 20-50 % deep in
  blue (less in green, least in red), darkest at its outer edge and fading
  inward, broken and uneven along its length, the paper inside it tinted
  2-8 %.

Every spoilt copy is saved again as JPEG (quality 90); the truth goes along
as it is (the pixels do not move; ``lens`` moves them, and the sheets'
corners in the truth with them; ``stain`` adds each sheet's ring as
``stain_ring_mm``: its centre and radius on the sheet). Fixed seeds: the
same copies every time.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # photogen, at the repo root

KINDS = ("glare", "bright", "tungsten", "motion", "smooth", "dark", "shadow", "crease", "blocky",
         "noisy", "focus", "lens", "sharpened", "stain")


def spoil(image: np.ndarray, kind: str, truth: dict, seed: int) -> np.ndarray:
    """``image`` (BGR uint8) spoilt the way ``kind`` says."""
    rng = np.random.default_rng(seed)
    picture = image.astype(np.float32)
    if kind == "glare":
        yy, xx = np.mgrid[0:image.shape[0], 0:image.shape[1]].astype(np.float32)
        for sheet in truth["sheets"]:
            corners = np.float32(sheet["corners_px"])
            u, v = rng.uniform(0.15, 0.85, 2)
            top = corners[0] + u * (corners[1] - corners[0])
            bottom = corners[3] + u * (corners[2] - corners[3])
            cx, cy = top + v * (bottom - top)
            radius = rng.uniform(0.08, 0.18) * np.linalg.norm(corners[1] - corners[0])
            spot = 0.85 * np.exp(-(((xx - cx) / radius) ** 2 + ((yy - cy) / (0.6 * radius)) ** 2))
            picture += (255 - picture) * spot[..., None]
    elif kind == "bright":
        picture *= 1.45
    elif kind == "tungsten":
        picture *= np.float32([0.55, 0.8, 1.15])
    elif kind == "motion":
        size = 9
        kernel = np.zeros((size, size), np.float32)
        kernel[size // 2] = 1.0
        turn = cv2.getRotationMatrix2D(((size - 1) / 2, (size - 1) / 2), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, turn, (size, size))
        picture = cv2.filter2D(picture, -1, kernel / kernel.sum())
    elif kind == "smooth":
        picture = cv2.bilateralFilter(image, 15, 80, 10).astype(np.float32)
    elif kind == "dark":
        picture = picture * 0.42 + rng.normal(0.0, 4.0, picture.shape).astype(np.float32)
    elif kind == "shadow":
        for sheet in truth["sheets"]:
            picture *= _hard_shadow(image.shape[:2], np.float32(sheet["corners_px"]), rng)
    elif kind == "crease":
        for sheet in truth["sheets"]:
            picture *= _crease(image.shape[:2], np.float32(sheet["corners_px"]), rng)[..., None]
    elif kind == "blocky":
        quality = int(rng.integers(12, 21))
        _, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        picture = cv2.imdecode(jpeg, cv2.IMREAD_COLOR).astype(np.float32)
    elif kind == "noisy":
        sigma = rng.uniform(9, 14)
        grey = rng.normal(0.0, sigma * 0.8, image.shape[:2]).astype(np.float32)[..., None]
        colour = rng.normal(0.0, sigma * 0.6, image.shape).astype(np.float32)
        picture += cv2.GaussianBlur(grey + colour, (0, 0), 0.8)
    elif kind == "focus":
        for sheet in truth["sheets"]:
            picture = _out_of_focus(picture, np.float32(sheet["corners_px"]), rng)
    elif kind == "lens":
        picture = _lens_distortion(picture, truth, rng)
    elif kind == "sharpened":
        # local tone mapping: the light's large-scale level pulled towards its mean
        light = cv2.GaussianBlur(picture.max(axis=2), (0, 0), max(image.shape[:2]) / 40)
        lift = (float(light.mean()) / np.maximum(light, 1.0)) ** rng.uniform(0.3, 0.6)
        picture = picture * lift[..., None]
        radius, amount = rng.uniform(1.0, 2.5), rng.uniform(0.8, 1.6)
        picture += amount * (picture - cv2.GaussianBlur(picture, (0, 0), radius))
    elif kind == "stain":
        for sheet in truth["sheets"]:
            _darken_with_a_drink_ring(picture, sheet, rng)
    else:
        raise ValueError(f"unknown spoil {kind!r}; one of {', '.join(KINDS)}")
    return np.clip(picture, 0, 255).astype(np.uint8)


def _hard_shadow(shape: tuple[int, int], corners: np.ndarray,
                 rng: np.random.Generator) -> np.ndarray:
    """Per pixel and channel, how much light a straight-edged shadow over the
    sheet at ``corners`` (px, the trim's four corners in order) leaves."""
    px_per_mm = _px_per_mm(corners)
    u, v = rng.uniform(0.2, 0.8, 2)
    top = corners[0] + u * (corners[1] - corners[0])
    bottom = corners[3] + u * (corners[2] - corners[3])
    through = top + v * (bottom - top)
    angle = rng.uniform(0, 2 * np.pi)
    side = _beyond_line(shape, through, np.float32([np.cos(angle), np.sin(angle)]))
    soft = rng.uniform(0.3, 1.5) * px_per_mm
    inside = 1 / (1 + np.exp(np.clip(-side / soft, -30, 30)))
    depth = rng.uniform(0.3, 0.55)
    tint = np.float32([1.1, 1.04, 1.0])  # (BGR) skylight fills a lamp's shadow: bluer
    return 1 - (depth * inside)[..., None] * (2 - tint)


def _crease(shape: tuple[int, int], corners: np.ndarray,
            rng: np.random.Generator) -> np.ndarray:
    """Per pixel, how much light a fold across the sheet at ``corners`` (px,
    the trim's four corners in order) leaves: the fold runs near the middle,
    along or across the sheet, a few degrees off; the slope on one side faces
    away from the lamp (darker, fading with distance), the ridge catches a
    thin highlight and a thin dark line runs beside it."""
    centre = corners.mean(axis=0)
    sides = (corners[1] - corners[0], corners[3] - corners[0])
    along, across = sides if rng.random() < 0.5 else sides[::-1]
    angle = np.arctan2(along[1], along[0]) + np.deg2rad(rng.uniform(-4, 4))
    shift = rng.uniform(-0.08, 0.08) * np.linalg.norm(across)
    normal = np.float32([-np.sin(angle), np.cos(angle)])
    side = _beyond_line(shape, centre + shift * normal, normal) / _px_per_mm(corners)  # mm
    if rng.random() < 0.5:
        side = -side
    slope = rng.uniform(0.08, 0.2) * np.exp(-np.maximum(side, 0) / rng.uniform(2, 6))
    light = 1 - np.where(side >= 0, slope, 0)
    light += 0.1 * np.exp(-((side + 0.2) / 0.2) ** 2)  # the ridge's highlight
    light -= rng.uniform(0.15, 0.3) * np.exp(-((side - 0.15) / 0.2) ** 2)  # its dark edge
    on_sheet = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(on_sheet, np.round(corners).astype(np.int32), 1)
    return np.where(on_sheet > 0, light, 1).astype(np.float32)


def _darken_with_a_drink_ring(picture: np.ndarray, sheet: dict,
                              rng: np.random.Generator) -> None:
    """Darken ``picture`` (float BGR, in place) with the dried ring of a
    drink on ``sheet`` (its truth: layout, trim corners in px; the ring is
    added to it as ``stain_ring_mm``), seen in perspective
    (photogen.drink_ring)."""
    from photogen.drink_ring import darken_with_drink_ring
    from qwixx_print.layout import load_layout

    width_mm, height_mm = load_layout(sheet["layout"]).sheet(sheet.get("letter")).size_mm
    corners = np.float32(sheet["corners_px"])
    to_sheet = cv2.getPerspectiveTransform(
        corners, np.float32([[0, 0], [width_mm, 0], [width_mm, height_mm], [0, height_mm]]))
    sheet["stain_ring_mm"] = list(darken_with_drink_ring(picture, to_sheet,
                                                         (width_mm, height_mm), rng))


def _out_of_focus(picture: np.ndarray, corners: np.ndarray,
                  rng: np.random.Generator) -> np.ndarray:
    """``picture`` with the sheet at ``corners`` (px, the trim's corners in
    order) blurred more and more along a random direction across it: not at
    all where it starts, sigma 0.2-0.4 mm (of the sheet) where it ends. Made
    by blending copies blurred in steps (a blur that varies per pixel)."""
    angle = rng.uniform(0, 2 * np.pi)
    normal = np.float32([np.cos(angle), np.sin(angle)])
    along = (corners - corners.mean(axis=0)) @ normal
    start = corners.mean(axis=0) + along.min() * normal
    depth = np.clip(_beyond_line(picture.shape[:2], start, normal) / (along.max() - along.min()),
                    0, 1)
    steps = np.linspace(0, rng.uniform(0.2, 0.4) * _px_per_mm(corners), 6)
    position = depth * (len(steps) - 1)
    out = np.zeros_like(picture)
    for step, sigma in enumerate(steps):
        weight = np.maximum(0, 1 - np.abs(position - step))  # a tent: blends neighbour steps
        copy = cv2.GaussianBlur(picture, (0, 0), sigma) if sigma > 0 else picture
        out += copy * weight[..., None]
    return out


def _lens_distortion(picture: np.ndarray, truth: dict, rng: np.random.Generator) -> np.ndarray:
    """``picture`` through a lens with radial distortion (barrel or
    pincushion, 3-8 % at the corners); ``truth``'s sheet corners moved along."""
    height, width = picture.shape[:2]
    centre = np.float32([(width - 1) / 2, (height - 1) / 2])
    half_diagonal = float(np.hypot(*centre))
    k = rng.uniform(0.03, 0.08) * rng.choice([-1.0, 1.0])

    def distorted(points: np.ndarray) -> np.ndarray:  # where an undistorted point lands
        offset = (points - centre) / half_diagonal
        radius2 = (offset ** 2).sum(axis=-1, keepdims=True)
        return centre + offset * (1 + k * radius2) * half_diagonal

    # For each output pixel, the source pixel it shows: invert r' = r (1 + k r^2)
    # by a few fixed-point steps (k is small).
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    target = np.stack([xx, yy], axis=-1)
    source = target.copy()
    for _ in range(4):
        source += target - distorted(source)
    for sheet in truth["sheets"]:
        if "corners_px" in sheet:
            sheet["corners_px"] = distorted(np.float32(sheet["corners_px"])).tolist()
    return cv2.remap(picture, source[..., 0], source[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def _px_per_mm(corners: np.ndarray) -> float:
    """The scale of the sheet at ``corners`` (px, the trim's four corners in
    order): every layout's trim is about 200 mm long."""
    return max(np.linalg.norm(corners[1] - corners[0]),
               np.linalg.norm(corners[3] - corners[0])) / 200.0


def _beyond_line(shape: tuple[int, int], through: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """Per pixel, how far (px) it lies beyond the line through ``through``
    square to ``normal`` (a unit vector), on the side the normal points to."""
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32)
    return (xx - through[0]) * normal[0] + (yy - through[1]) * normal[1]


def shrink(image: np.ndarray, truth: dict, long_side: int) -> np.ndarray:
    """``image`` shrunk to ``long_side`` px on its long side, as messaging apps
    send photos; ``truth``'s pixel positions (its sheets' corners) shrunk too."""
    factor = long_side / max(image.shape[:2])
    for sheet in truth["sheets"]:
        if "corners_px" in sheet:
            sheet["corners_px"] = [[x * factor, y * factor] for x, y in sheet["corners_px"]]
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)


def altered_copies(photos: list[Path], folder: Path,
                   alter: Callable[[np.ndarray, dict, int], np.ndarray],
                   quality: int = 90) -> list[Path]:
    """Each photo and its truth as ``alter(image, truth, number)`` leaves them
    (it may change the truth in place), in ``folder``; made once."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for number, photo in enumerate(photos):
        target = folder / photo.name
        truth_path = target.with_suffix(".json")
        if not truth_path.exists():
            truth = json.loads(photo.with_suffix(".json").read_text())
            altered = alter(cv2.imread(str(photo)), truth, number)
            if not cv2.imwrite(str(target), altered, [cv2.IMWRITE_JPEG_QUALITY, quality]):
                raise SystemExit(f"cannot write {target}")
            truth_path.write_text(json.dumps(truth))  # last: a folder cut short is redone
        out.append(target)
    return out
