"""Phone photos of finished score sheets from a second, independent generator.

Every other benchmark photo comes from ``photogen/`` and the scanner's
networks learned photogen's look. This script makes photos with its own,
deliberately different rendering so ``scan_benchmark.py --photos DIR`` can
show how the whole scanner copes with a look it has never seen. It shares
no rendering code with photogen's scene.py, strokes.py or printer.py; it
reuses only :func:`photogen.play.play_sheet` (which boxes a player crossed)
and :func:`qwixx_print.render.sheet_pdf` (the blank sheet).

    python benchmarks/foreign_photos.py --out DIR --count N --seed S
                                        [--hard-share 0.25] [--start K] [--jobs J]

Writes NNNN.jpg and NNNN.json (the truth format of ``python -m photogen``:
``file``, ``sheets`` with ``layout``, ``letter``, ``marked``, ``status``,
``corners_px`` ..., and ``photo`` with ``difficulty`` normal|hard).

What a photo holds (hard photos draw from the harsher ends):

- marks, one style per sheet: X (most), check, slash, circle, fill, in
  blue, black, red, green ink or pencil, hand-ish jittered polylines of
  varying width; skip lines through skipped numbers, stray dots, digits in
  the total fields and a name on the name line (none of them are crosses);
- scene: wood, tablecloth, dark or pale table textures seen in the same
  perspective as the sheet; the sheet covers 20-80 % of the frame, any
  rotation, tilt up to 40 degrees, a cylindrical bend, barrel distortion, a
  drop shadow at its edge; sometimes a thumb over one corner marker;
- light and camera: gradient, vignette, a soft shadow band, warm or cool
  white balance, luminance and blotchy chroma noise (stronger when dark),
  blur, sometimes sharpening, JPEG quality 40-95, 8-12 megapixels, portrait
  photos often stored turned with an EXIF orientation tag (Pillow).

Coordinates: sheet mm from the trim's top-left corner, x right, y down;
photo px of the upright photo (as seen after the EXIF turn), x right, y down;
camera mm with x right, y down, z away from the lens.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # photogen lives at the repo root, not installed

from photogen.play import play_sheet  # noqa: E402
from qwixx_print.layout import Rect, Sheet, load_layout  # noqa: E402
from qwixx_print.render import sheet_pdf  # noqa: E402
from qwixx_print.rules import score_sheet  # noqa: E402

GENERATOR = "foreign_photos/1"
#: Resolution of the cached blank sheet raster (px per mm); a photo's sheet
#: is drawn at its own, lower resolution (about its px/mm in the photo).
BLANK_PX_PER_MM = 20.0
#: The sheets a photo may show (layout, letter).
SHEETS = [("classic", None)] * 4 + [("treden", c) for c in "ABCDE"] + \
         [("kettingen", c) for c in "ABCDE"]
#: Photo sizes (landscape w, h) from 8.0 to 12.2 megapixels.
PHOTO_SIZES = ((3264, 2448), (3840, 2160), (3648, 2736), (4000, 2256), (4000, 3000),
               (4032, 3024))
#: Inks (BGR of the pure ink, how dense a stroke is 0..1).
INKS = {"blue": ((170, 60, 20), 0.9), "black": ((40, 35, 35), 0.92),
        "red": ((40, 30, 200), 0.88), "green": ((60, 130, 30), 0.88),
        "pencil": ((95, 92, 90), 0.62)}
INK_WEIGHTS = {"blue": 0.34, "black": 0.24, "red": 0.1, "green": 0.08, "pencil": 0.24}
KIND_WEIGHTS = {"x": 0.56, "check": 0.12, "slash": 0.12, "circle": 0.1, "fill": 0.1}
NAMES = ("Mia", "Jonas", "Oma Ria", "Sven", "Lotte", "Pieter", "Anna K.", "Noah", "Fenna",
         "Bram", "Ute")


def pick(rng: np.random.Generator, weights: dict[str, float]) -> str:
    keys = list(weights)
    p = np.array([weights[k] for k in keys], float)
    return keys[int(rng.choice(len(keys), p=p / p.sum()))]


# ------------------------------------------------------------------ the sheet


@lru_cache(maxsize=16)
def blank_sheet(layout: str, letter: str | None) -> np.ndarray:
    """The blank sheet as BGR uint8 at :data:`BLANK_PX_PER_MM` (rasterized PDF)."""
    import pypdfium2 as pdfium

    sheet = load_layout(layout).sheet(letter)
    page = pdfium.PdfDocument(sheet_pdf(sheet))[0]
    rgb = page.render(scale=BLANK_PX_PER_MM * 25.4 / 72).to_numpy()
    return np.ascontiguousarray(rgb[..., :3])  # pdfium renders BGR(x) by default


def printed_look(blank: np.ndarray, rng: np.random.Generator,
                 hard: bool) -> tuple[np.ndarray, dict]:
    """The blank (BGR uint8) as a home printer put it on paper: paper tint,
    toner density, sometimes a greyscale printer, slightly soft."""
    grey = rng.random() < (0.12 if hard else 0.05)
    density = rng.uniform(0.62, 0.9) if hard else rng.uniform(0.8, 1.0)
    paper = np.array([rng.uniform(236, 252), rng.uniform(240, 253), rng.uniform(240, 254)])
    # out_c = paper_c - (255 - in_c) * density * paper_c / 255: one affine map per channel
    mix = np.array([[0.114, 0.587, 0.299]] * 3) if grey else np.eye(3)
    gain = density * paper / 255.0
    matrix = np.hstack([mix * gain[:, None], (paper * (1 - density))[:, None]])
    img = cv2.transform(blank, matrix)
    return cv2.GaussianBlur(img, (0, 0), 0.6), {"grey_printer": grey,
                                                 "toner_density": round(density, 3)}


@dataclass
class MarkStyle:
    kind: str
    ink: str
    width_mm: float
    size: float  # half-extent of a mark as a share of half the box width

    def to_json(self) -> dict:
        return {"kind": self.kind, "ink": self.ink, "width_mm": round(self.width_mm, 3),
                "size": round(self.size, 3)}


def random_style(rng: np.random.Generator, hard: bool) -> MarkStyle:
    ink = pick(rng, INK_WEIGHTS)
    kind = pick(rng, KIND_WEIGHTS)
    if ink == "pencil":
        width = rng.uniform(0.28, 0.6)
    elif rng.random() < 0.25:
        width = rng.uniform(0.8, 1.4)  # felt pen
    else:
        width = rng.uniform(0.32, 0.6)  # ballpoint
    if hard and rng.random() < 0.4:
        size = float(rng.choice([rng.uniform(0.3, 0.45), rng.uniform(1.05, 1.25)]))
    else:
        size = rng.uniform(0.55, 0.95)
    return MarkStyle(kind, ink, width, size)


class Pen:
    """Draws hand-ish strokes (mm) into an ink-density mask (float32 0..1)."""

    def __init__(self, mask: np.ndarray, ppm: float, width_mm: float,
                 rng: np.random.Generator, pencil: bool):
        self.mask, self.ppm, self.width, self.rng, self.pencil = mask, ppm, width_mm, rng, pencil

    def stroke(self, points: list[tuple[float, float]], *, wobble_mm: float = 0.12,
               width_mm: float | None = None) -> None:
        """A polyline through ``points`` (mm), resampled, wobbled, pressure varying."""
        pts = np.array(points, float)
        seg = np.hypot(*np.diff(pts, axis=0).T)
        length = float(seg.sum())
        if length < 1e-6:
            pts = np.vstack([pts[:1], pts[:1] + 0.05])
            seg, length = np.array([0.05]), 0.05
        n = max(4, int(length / 0.35))
        along = np.concatenate([[0], np.cumsum(seg)])
        s = np.linspace(0, length, n)
        xy = np.stack([np.interp(s, along, pts[:, 0]), np.interp(s, along, pts[:, 1])], 1)
        # a slow wobble (the hand) plus a little tremor
        phase = self.rng.uniform(0, 2 * np.pi, 2)
        freq = self.rng.uniform(0.05, 0.2, 2)  # waves per mm: a slow hand
        xy[:, 0] += wobble_mm * np.sin(s * freq[0] * 2 * np.pi + phase[0])
        xy[:, 1] += wobble_mm * np.sin(s * freq[1] * 2 * np.pi + phase[1])
        xy += self.rng.normal(0, wobble_mm * 0.15, xy.shape)
        width = width_mm or self.width
        # pressure: lighter at the start and end of a stroke
        t = s / length
        pressure = 0.7 + 0.45 * np.sin(np.pi * np.clip(t * 1.1, 0, 1)) ** 0.6
        pressure *= self.rng.uniform(0.85, 1.1)
        fixed = np.round(xy * self.ppm * 16).astype(np.int32)
        level = float(self.rng.uniform(0.85, 1.0))
        for i in range(n - 1):
            thick = max(1, int(round(width * pressure[i] * self.ppm)))
            cv2.line(self.mask, tuple(fixed[i]), tuple(fixed[i + 1]), level, thick,
                     cv2.LINE_AA, 4)

    def dot(self, x: float, y: float, r_mm: float) -> None:
        cv2.circle(self.mask, (round(x * self.ppm * 16), round(y * self.ppm * 16)),
                   max(1, round(r_mm * self.ppm * 16)), 1.0, -1, cv2.LINE_AA, 4)


def _bow(a, b, amount: float, n: int = 5) -> list[tuple[float, float]]:
    """Points from ``a`` to ``b`` bent sideways by ``amount`` mm in the middle."""
    a, b = np.array(a, float), np.array(b, float)
    d = b - a
    normal = np.array([-d[1], d[0]]) / (np.hypot(*d) + 1e-9)
    return [tuple(a + d * t + normal * amount * math.sin(math.pi * t))
            for t in np.linspace(0, 1, n)]


def draw_cross(pen: Pen, r: Rect, style: MarkStyle, rng: np.random.Generator) -> None:
    """One crossing mark of the sheet's style in box ``r`` (mm)."""
    cx = r.x + r.w / 2 + rng.normal(0, 0.5)
    cy = r.y + r.h / 2 + rng.normal(0, 0.5)
    half = r.w / 2 * style.size * rng.uniform(0.88, 1.12)
    turn = math.radians(float(np.clip(rng.normal(0, 8), -20, 20)))  # an X, never a +

    def at(dx, dy):  # a point of the mark, turned a little with the hand
        c, s = math.cos(turn), math.sin(turn)
        return cx + c * dx - s * dy, cy + s * dx + c * dy

    kind = style.kind
    if kind == "x":
        k = rng.uniform(0.8, 1.1)
        pen.stroke(_bow(at(-half, -half * k), at(half, half * k), rng.normal(0, 0.4)))
        pen.stroke(_bow(at(half * rng.uniform(0.85, 1.05), -half * k),
                        at(-half, half * k * rng.uniform(0.9, 1.05)), rng.normal(0, 0.4)))
    elif kind == "check":
        pen.stroke([at(-half, 0.05 * half), at(-half * 0.25, half * 0.85),
                    *_bow(at(-half * 0.2, half * 0.8), at(half * 1.05, -half * 1.05),
                          rng.normal(0, 0.5), 4)])
    elif kind == "slash":
        sign = 1 if rng.random() < 0.85 else -1
        pen.stroke(_bow(at(-half, sign * half), at(half, -sign * half), rng.normal(0, 0.4)))
    elif kind == "circle":
        radius = r.w / 2 * rng.uniform(0.7, 1.0)
        start = rng.uniform(0, 2 * np.pi)
        sweep = rng.uniform(1.85, 2.15) * np.pi  # not always closed, sometimes overlapping
        a = np.linspace(start, start + sweep, 28)
        squash = rng.uniform(0.85, 1.1)
        pen.stroke([at(radius * math.cos(t), radius * squash * math.sin(t)) for t in a],
                   wobble_mm=0.18)
    elif kind == "fill":
        x0, x1 = r.x + rng.uniform(0.6, 1.4), r.x + r.w - rng.uniform(0.6, 1.4)
        y, points, left = r.y + rng.uniform(0.8, 1.5), [], True
        step = max(pen.width * 1.1, 0.55)
        while y < r.y + r.h - rng.uniform(0.7, 1.5):
            points.append((x0 if left else x1, y))
            left = not left
            y += step
        pen.stroke(points or [(x0, cy), (x1, cy)], wobble_mm=0.2)
    else:
        raise ValueError(kind)


def draw_skip_line(pen: Pen, r: Rect, rng: np.random.Generator) -> None:
    """A short near-horizontal line through a skipped number (not a cross)."""
    cy = r.y + r.h / 2 + rng.normal(0, 0.6)
    x0, x1 = r.x + r.w * rng.uniform(0.1, 0.3), r.x + r.w * rng.uniform(0.7, 0.92)
    tilt = math.tan(math.radians(rng.normal(0, 5))) * (x1 - x0) / 2
    pen.stroke(_bow((x0, cy - tilt), (x1, cy + tilt), rng.normal(0, 0.25), 4))


def write_text(mask: np.ndarray, ppm: float, text: str, box: Rect, height_mm: float,
               rng: np.random.Generator, width_mm: float) -> None:
    """Handwriting-ish ``text`` (a Hershey font, sheared and turned) into ``box`` (mm)."""
    font = int(rng.choice([cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SIMPLEX,
                           cv2.FONT_HERSHEY_PLAIN | cv2.FONT_ITALIC]))
    px_h = height_mm * ppm
    scale = px_h / cv2.getTextSize("8", font, 1.0, 1)[0][1]
    thick = max(1, round(width_mm * ppm))
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    if tw > box.w * ppm * 0.92:  # a player squeezes the digits into the field
        scale *= box.w * ppm * 0.92 / tw
        (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    pad = int(px_h)
    tile = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)  # putText wants 8 bit
    cv2.putText(tile, text, (pad, pad + th), font, scale, 255, thick, cv2.LINE_AA)
    tile = tile.astype(np.float32) / 255
    shear, turn = rng.uniform(-0.25, 0.1), rng.normal(0, 4)
    centre = (tile.shape[1] / 2, tile.shape[0] / 2)
    m = cv2.getRotationMatrix2D(centre, turn, 1.0)
    m[0, 1] += shear
    tile = cv2.warpAffine(tile, m, (tile.shape[1], tile.shape[0]))
    # place the tile's centre at a spot in the box, clipped to the mask
    cx = (box.x + box.w / 2 + rng.normal(0, box.w * 0.05)) * ppm
    cy = (box.y + box.h / 2 + rng.normal(0, box.h * 0.05)) * ppm
    x0, y0 = int(cx - tile.shape[1] / 2), int(cy - tile.shape[0] / 2)
    ys, xs = slice(max(0, y0), min(mask.shape[0], y0 + tile.shape[0])), \
        slice(max(0, x0), min(mask.shape[1], x0 + tile.shape[1]))
    part = tile[ys.start - y0:ys.stop - y0, xs.start - x0:xs.stop - x0]
    np.maximum(mask[ys, xs], part * rng.uniform(0.85, 1.0), out=mask[ys, xs])


def draw_sheet(sheet: Sheet, truth, style: MarkStyle, ppm: float, rng: np.random.Generator,
               hard: bool) -> tuple[np.ndarray, dict]:
    """The finished sheet as BGR float32 at ``ppm`` px/mm, and what was written on it."""
    blank = blank_sheet(truth.layout, sheet.letter)
    h_px, w_px = round(sheet.size_mm[1] * ppm), round(sheet.size_mm[0] * ppm)
    small = cv2.resize(blank, (w_px, h_px), interpolation=cv2.INTER_AREA)
    paper, print_info = printed_look(small, rng, hard)
    mask = np.zeros((h_px, w_px), np.float32)
    pen = Pen(mask, ppm, style.width_mm, rng, style.ink == "pencil")
    for box_id in truth.marked:
        draw_cross(pen, sheet.box(box_id).rect, style, rng)
    for box_id in truth.skip_lined:
        draw_skip_line(pen, sheet.box(box_id).rect, rng)
    # stray dots: a touch of the pen, in an empty box or anywhere
    dots_in_boxes = []
    empty = [b for b in sheet.boxes if b.id not in truth.marked and b.id not in truth.skip_lined]
    for _ in range(int(rng.choice([0, 1, 2], p=[0.45, 0.35, 0.2]))):
        if empty and rng.random() < 0.5:
            box = empty[int(rng.integers(len(empty)))]
            r = box.rect
            pen.dot(r.x + r.w * rng.uniform(0.2, 0.8), r.y + r.h * rng.uniform(0.2, 0.8),
                    rng.uniform(0.25, 0.5))
            dots_in_boxes.append(box.id)
        else:
            w, h = sheet.size_mm
            pen.dot(rng.uniform(15, w - 15), rng.uniform(15, h - 15), rng.uniform(0.25, 0.5))
    # the player's totals and name (digits and letters, never crosses)
    totals_written: dict[str, str] = {}
    if rng.random() < 0.6:
        score = score_sheet(sheet, truth.marked).score_json()
        for field, rect in sheet.furniture.totals:
            if field in score and rng.random() < 0.92:
                text = str(abs(int(score[field])))
                write_text(mask, ppm, text, rect, rng.uniform(4.0, 6.0), rng,
                           style.width_mm * 0.9)
                totals_written[field] = text
    name = None
    if rng.random() < 0.7:
        name = str(rng.choice(NAMES))
        line = sheet.furniture.name_line
        spot = Rect(line.x + 10, line.y - 3.5, min(35.0, line.w - 12), line.h + 2)
        write_text(mask, ppm, name, spot, rng.uniform(3.5, 5.0), rng, style.width_mm * 0.9)
    # ink: uneven density along the strokes; pencil is grainy
    colour, density = INKS[style.ink]
    coverage = mask * density
    if style.ink == "pencil":
        grain = np.empty(mask.shape, np.float32)
        cv2.randu(grain, 0.45, 1.0)
        coverage *= cv2.GaussianBlur(grain, (0, 0), 0.6)
    else:
        low = cv2.resize(rng.uniform(0.82, 1.0, (8, 12)).astype(np.float32), (w_px, h_px))
        coverage *= low
    np.clip(coverage, 0, 1, out=coverage)
    # ink absorbs light: a multiplicative layer, 1 - coverage * (1 - ink) per channel
    factor = cv2.merge([1.0 - coverage * (1.0 - c / 255.0) for c in colour])
    paper = cv2.multiply(paper, factor, dtype=cv2.CV_8U)
    info = {"print": print_info, "dots_in_boxes": dots_in_boxes,
            "totals_written": totals_written, "name_written": name}
    return paper, info


# ------------------------------------------------------------------ geometry


@dataclass
class Camera:
    """A pinhole camera with barrel distortion and a (bent) sheet on the table.

    The sheet's point (u, v) mm sits at ``centre + (u - w/2) e1 + (v - h/2) e2
    + z(u, v) toward`` in camera mm, ``toward`` the sheet normal facing the lens.
    """

    width: int
    height: int
    focal: float  # px
    k1: float  # barrel distortion (negative) at the half diagonal
    rot: np.ndarray  # 3x3, columns e1, e2, e3 = e1 x e2 (away from the lens)
    centre: np.ndarray  # camera mm
    sheet_mm: tuple[float, float]
    bend_axis: int  # 0: the bend runs along sheet x, 1: along y
    bend_mm: float  # lift at the edges (>0, a curl) or in the middle (<0, an arch)

    @property
    def half_diag(self) -> float:
        return math.hypot(self.width, self.height) / 2

    def lift(self, u, v):
        """Height of the paper over the table (mm) and its slopes d/du, d/dv."""
        w, h = self.sheet_mm
        half = (w, h)[self.bend_axis] / 2
        # flat beyond the edges: else far rays could meet a phantom of the bent paper
        s = np.clip(((u, v)[self.bend_axis] - half) / half, -1.0, 1.0)
        if self.bend_mm >= 0:
            z, dz = self.bend_mm * s * s, 2 * self.bend_mm * s / half
        else:
            z, dz = -self.bend_mm * (1 - s * s), 2 * self.bend_mm * s / half
        zero = np.zeros_like(dz)
        return z, (dz, zero) if self.bend_axis == 0 else (zero, dz)

    def to_camera(self, u, v):
        w, h = self.sheet_mm
        z, _ = self.lift(u, v)
        e1, e2, e3 = self.rot[:, 0], self.rot[:, 1], self.rot[:, 2]
        return (self.centre[:, None] + np.outer(e1, u - w / 2) + np.outer(e2, v - h / 2)
                - np.outer(e3, z))

    def project(self, u, v, *, distort: bool = True) -> np.ndarray:
        """Photo px (N, 2) of sheet points ``u``, ``v`` (mm, arrays)."""
        p = self.to_camera(np.asarray(u, float), np.asarray(v, float))
        x = self.focal * p[0] / p[2]
        y = self.focal * p[1] / p[2]
        if distort:
            r2 = (x * x + y * y) / self.half_diag ** 2
            x, y = x * (1 + self.k1 * r2), y * (1 + self.k1 * r2)
        return np.stack([x + self.width / 2, y + self.height / 2], 1)

    def undistort(self, x, y):
        """Pinhole px (relative to the centre) of distorted photo px (relative)."""
        rd2 = (x * x + y * y) / self.half_diag ** 2
        factor = np.ones_like(x)
        for _ in range(6):  # r_d = r_u (1 + k1 r_u^2): fixed point, converges for mild k1
            factor = 1 / (1 + self.k1 * rd2 * factor * factor)
        return x * factor, y * factor

    def sheet_coords(self, xs, ys) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Sheet mm seen at photo px ``xs``, ``ys``: on the flat table (u0, v0) and
        on the bent paper (u, v)."""
        x, y = self.undistort(xs - self.width / 2, ys - self.height / 2)
        ray = np.stack([x / self.focal, y / self.focal, np.ones_like(x)])
        a = np.tensordot(self.rot.T, ray, 1)  # the ray in sheet axes
        c = self.rot.T @ (-self.centre)  # the lens in sheet axes, seen from the sheet centre
        w, h = self.sheet_mm
        t = -c[2] / a[2]  # the table plane: e3 component 0
        u0, v0 = c[0] + t * a[0] + w / 2, c[1] + t * a[1] + h / 2
        for _ in range(4):  # Newton on c3 + t a3 + z(u(t), v(t)) = 0
            u, v = c[0] + t * a[0] + w / 2, c[1] + t * a[1] + h / 2
            z, (dzu, dzv) = self.lift(u, v)
            g = c[2] + t * a[2] + z
            t = t - g / (a[2] + dzu * a[0] + dzv * a[1])
        u, v = c[0] + t * a[0] + w / 2, c[1] + t * a[1] + h / 2
        return u0, v0, u, v


def rotation(tilt_deg: float, tilt_dir_deg: float, spin_deg: float) -> np.ndarray:
    """The sheet axes: turned ``spin`` in its plane, then tilted ``tilt`` about
    an axis in the image plane pointing ``tilt_dir``."""
    s = math.radians(spin_deg)
    spin = np.array([[math.cos(s), -math.sin(s), 0], [math.sin(s), math.cos(s), 0], [0, 0, 1]])
    k = np.array([math.cos(math.radians(tilt_dir_deg)), math.sin(math.radians(tilt_dir_deg)), 0])
    tilt, _ = cv2.Rodrigues(k * math.radians(tilt_deg))
    return tilt @ spin


def outline(cam: Camera, n: int = 12, distort: bool = False) -> np.ndarray:
    w, h = cam.sheet_mm
    t = np.linspace(0, 1, n, endpoint=False)
    u = np.concatenate([t * w, np.full(n, w), (1 - t) * w, np.zeros(n)])
    v = np.concatenate([np.zeros(n), t * h, np.full(n, h), (1 - t) * h])
    return cam.project(u, v, distort=distort)


def place_sheet(cam: Camera, coverage: float, rng: np.random.Generator) -> float:
    """Move the sheet so that it covers about ``coverage`` of the frame and lies
    wholly inside it (with a small margin); the coverage it got."""
    frame = cam.width * cam.height
    cam.centre = np.array([0.0, 0.0, 500.0])
    area0 = cv2.contourArea(outline(cam).astype(np.float32))
    cam.centre[2] = 500.0 * math.sqrt(area0 / (coverage * frame))
    margin = 0.015 * min(cam.width, cam.height)
    for _ in range(8):  # too big for the frame: step back until it fits
        pts = outline(cam)
        span = pts.max(0) - pts.min(0)
        need = max(span[0] / (cam.width - 2 * margin), span[1] / (cam.height - 2 * margin))
        if need <= 1:
            break
        cam.centre[2] *= need * 1.02
    # move it sideways to a random spot where it still fits
    for _ in range(3):
        pts = outline(cam)
        lo, hi = pts.min(0), pts.max(0)
        room_lo = np.array([margin, margin]) - lo
        room_hi = np.array([cam.width - margin, cam.height - margin]) - hi
        shift = np.array([rng.uniform(min(room_lo[i], room_hi[i]), max(room_lo[i], room_hi[i]))
                          if room_lo[i] <= room_hi[i] else (room_lo[i] + room_hi[i]) / 2
                          for i in range(2)])
        cam.centre[:2] += shift * cam.centre[2] / cam.focal
        pts = outline(cam)
        inside_lo = (pts.min(0) >= margin * 0.5).all()
        inside_hi = (pts.max(0) <= [cam.width - margin * 0.5, cam.height - margin * 0.5]).all()
        if inside_lo and inside_hi:
            break
    return float(cv2.contourArea(outline(cam, distort=True).astype(np.float32)) / frame)


def max_px_per_mm(cam: Camera) -> float:
    w, h = cam.sheet_mm
    u, v = np.meshgrid(np.linspace(0, w, 9), np.linspace(0, h, 7))
    u, v = u.ravel(), v.ravel()
    p = cam.project(u, v)
    du, dv = cam.project(u + 0.5, v) - p, cam.project(u, v + 0.5) - p
    return float(max(np.hypot(*du.T).max(), np.hypot(*dv.T).max()) / 0.5)


# ------------------------------------------------------------------ the table


def _smooth_noise(rng, shape, cells, sigma=1.0) -> np.ndarray:
    """Smooth noise, about ``cells`` blobs across, resized to ``shape`` (h, w)."""
    h, w = shape
    ch, cw = max(2, int(cells * h / max(h, w))), max(2, int(cells * w / max(h, w)))
    small = rng.normal(0, 1, (ch, cw)).astype(np.float32)
    return cv2.GaussianBlur(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC), (0, 0), sigma)


def _stretched_noise(rng, along, across, len_along: float, len_across: float) -> np.ndarray:
    """Smooth noise (about unit spread) whose blobs are ``len_along`` mm long and
    ``len_across`` mm wide, at the mm coordinates ``along``, ``across``."""
    cells = 64
    # low-pass filtered in the frequency domain: the noise tiles without seams
    freq = np.fft.fftfreq(cells)
    low = np.exp(-(freq[:, None] ** 2 + freq[None, :] ** 2) / (2 * 0.08 ** 2))
    spectrum = np.fft.fft2(rng.normal(0, 1, (cells, cells))) * low
    small = np.fft.ifft2(spectrum).real.astype(np.float32)
    small /= small.std() + 1e-6
    return cv2.remap(small, (along / len_along).astype(np.float32) % cells,
                     (across / len_across).astype(np.float32) % cells, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_WRAP)


def table_texture(kind: str, size_mm: tuple[float, float], ppm: float,
                  rng: np.random.Generator) -> np.ndarray:
    """A table top (BGR uint8) of ``size_mm`` at ``ppm`` px/mm."""
    w, h = max(8, int(size_mm[0] * ppm)), max(8, int(size_mm[1] * ppm))
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32) / ppm  # mm
    if kind == "wood":
        turn = math.radians(rng.uniform(0, 180))
        along = xs * math.cos(turn) + ys * math.sin(turn)
        across = -xs * math.sin(turn) + ys * math.cos(turn)
        plank = rng.uniform(90, 200)
        # grain: long, slowly wandering lines along the board, fine fibres
        warp = _stretched_noise(rng, along, across, 250, 30) * rng.uniform(4, 10) + \
            _stretched_noise(rng, along, across, 60, 6) * 0.6
        rings = np.sin((across + warp) * 2 * np.pi / rng.uniform(3.0, 9.0))
        fibre = _stretched_noise(rng, along, across, 15, 0.4) * 0.2
        board = np.floor(across / plank)  # each board a little lighter or darker
        tone = 0.5 + 0.25 * rings + fibre + 0.12 * np.sin(board * 12.9898) + \
            0.1 * _smooth_noise(rng, (h, w), 4)
        seam = np.abs(((across / plank) % 1.0) - 0.5) > 0.497
        tone[seam] = -0.6
        del along, across, warp, rings, fibre, board
        light = np.array([rng.uniform(110, 170), rng.uniform(150, 200), rng.uniform(185, 230)])
        dark = light * rng.uniform(0.35, 0.6)
        if rng.random() < 0.35:  # walnut
            light, dark = light * 0.55, dark * 0.5
        t = np.clip(tone, 0, 1)[..., None]
        img = dark + (light - dark) * t
    elif kind == "cloth":
        turn = math.radians(rng.uniform(0, 90))
        a = xs * math.cos(turn) + ys * math.sin(turn)
        b = -xs * math.sin(turn) + ys * math.cos(turn)
        period = rng.uniform(8, 30)
        base = np.array(rng.choice([(40, 40, 190), (160, 70, 30), (50, 120, 40), (60, 60, 60),
                                    (30, 140, 210)]), float)
        white = np.array([235, 235, 232], float)
        if rng.random() < 0.7:  # gingham: stripes both ways, darker where they cross
            sa = (np.sin(a * 2 * np.pi / period) > 0).astype(np.float32)
            sb = (np.sin(b * 2 * np.pi / period) > 0).astype(np.float32)
            share = (sa + sb)[..., None] / 2
        else:  # stripes
            share = (np.sin(a * 2 * np.pi / period) > 0.3).astype(np.float32)[..., None] * 0.9
        share = cv2.GaussianBlur(share, (0, 0), 0.4 * ppm)[..., None]
        weave = 1 + 0.06 * np.sin(a * ppm * 1.3) * np.sin(b * ppm * 1.3)
        img = (white + (base - white) * share) * weave[..., None]
        img *= (1 + 0.08 * _smooth_noise(rng, (h, w), 5))[..., None]  # folds and creases
    elif kind == "dark":
        base = np.array(rng.choice([(30, 30, 32), (45, 40, 38), (35, 45, 55), (25, 28, 25)]),
                        float) * rng.uniform(0.7, 1.3)
        speck = _smooth_noise(rng, (h, w), 600, 0.5) * 6 + _smooth_noise(rng, (h, w), 5) * 8
        img = base + speck[..., None]
    else:  # pale laminate: little contrast against the paper
        base = np.array([rng.uniform(175, 215)] * 3) + rng.uniform(-8, 8, 3)
        img = base + (_smooth_noise(rng, (h, w), 300, 0.5) * 4
                      + _smooth_noise(rng, (h, w), 3) * 6)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


# ------------------------------------------------------------------ the thumb


def draw_thumb(photo: np.ndarray, cam: Camera, sheet: Sheet, marker: int,
               rng: np.random.Generator) -> None:
    """A thumb (skin, shaded, a nail) from outside the sheet over ``marker``."""
    m = sheet.furniture.markers[marker]
    mc = np.array([m.x + m.w / 2, m.y + m.h / 2])
    w, h = cam.sheet_mm
    inward = np.array([w / 2, h / 2]) - mc
    inward /= np.linalg.norm(inward)
    ang = math.radians(rng.uniform(-35, 35))
    inward = np.array([inward[0] * math.cos(ang) - inward[1] * math.sin(ang),
                       inward[0] * math.sin(ang) + inward[1] * math.cos(ang)])
    tip = mc + inward * rng.uniform(1.0, 7.0)  # past the marker centre: covers most or all
    length, width = rng.uniform(55, 75), rng.uniform(18, 23)
    base = tip - inward * length
    # the thumb's outline in sheet mm, then in the photo (it lies on the paper)
    s = np.linspace(0, 1, 40)
    half_w = width / 2 * np.sqrt(np.clip(1 - (1 - np.minimum(s / 0.3, 1)) ** 2, 0, 1))
    side = np.array([-inward[1], inward[0]])
    left = tip[None] - inward[None] * (s * length)[:, None] + side[None] * half_w[:, None]
    right = tip[None] - inward[None] * (s * length)[:, None] - side[None] * half_w[:, None]
    ring = np.vstack([left, right[::-1]])
    poly = cam.project(ring[:, 0], ring[:, 1])
    # the nail: a rounded patch near the tip
    ns = np.linspace(0, 2 * np.pi, 24)
    nail_c = tip - inward * width * 0.45
    nail = nail_c[None] + inward[None] * (np.cos(ns) * width * 0.32)[:, None] + \
        side[None] * (np.sin(ns) * width * 0.3)[:, None]
    nail_px = cam.project(nail[:, 0], nail[:, 1])
    x0, y0 = np.floor(poly.min(0)).astype(int) - 40
    x1, y1 = np.ceil(poly.max(0)).astype(int) + 40
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(photo.shape[1], x1), min(photo.shape[0], y1)
    if x1 <= x0 or y1 <= y0:
        return
    region = photo[y0:y1, x0:x1].astype(np.float32)
    shape = (y1 - y0, x1 - x0)
    mask = np.zeros(shape, np.float32)
    cv2.fillPoly(mask, [np.round((poly - [x0, y0]) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    px_mm = float(np.linalg.norm(cam.project([mc[0] + 1], [mc[1]]) - cam.project([mc[0]], [mc[1]])))
    # shade: round across the thumb (distance to its edge), a soft shadow beside it
    depth = cv2.distanceTransform((mask > 0.5).astype(np.uint8), cv2.DIST_L2, 5)
    roundness = np.clip(depth / (width * 0.5 * px_mm), 0, 1) ** 0.5
    shadow = cv2.GaussianBlur(mask, (0, 0), 2.5 * px_mm)
    shift = np.float32([[1, 0, 2.0 * px_mm], [0, 1, 2.5 * px_mm]])
    shadow = cv2.warpAffine(shadow, shift, (shape[1], shape[0]))
    region *= (1 - 0.45 * shadow * (1 - mask))[..., None]
    skin = np.array([rng.uniform(120, 170), rng.uniform(140, 185), rng.uniform(190, 235)],
                    np.float32) * rng.uniform(0.6, 1.0)
    tone = (0.55 + 0.45 * roundness)[..., None] * skin
    nmask = np.zeros(shape, np.float32)
    cv2.fillPoly(nmask, [np.round((nail_px - [x0, y0]) * 16).astype(np.int32)], 1.0,
                 cv2.LINE_AA, 4)
    nmask = cv2.GaussianBlur(nmask, (0, 0), 0.4 * px_mm) * mask
    tone = tone * (1 - nmask[..., None]) + (skin * 1.12 + 10)[None, None] * \
        (0.8 + 0.2 * roundness[..., None]) * nmask[..., None]
    mask = cv2.GaussianBlur(mask, (0, 0), 0.6)[..., None]
    region = region * (1 - mask) + np.minimum(tone, 255) * mask
    photo[y0:y1, x0:x1] = np.clip(region, 0, 255).astype(np.uint8)


# ------------------------------------------------------------------ the photo


def light_field(shape, rng, hard: bool) -> tuple[np.ndarray, dict]:
    """Brightness over the frame (float32 h x w, ~0..1.2): exposure, gradient,
    vignette and a soft shadow band; computed small, for smooth upscaling."""
    h, w = shape
    sh, sw = max(8, h // 16), max(8, w // 16)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xs, ys = xs / sw - 0.5, ys / sh - 0.5
    dark_photo = rng.random() < (0.35 if hard else 0.1)
    exposure = rng.uniform(0.35, 0.6) if dark_photo else rng.uniform(0.78, 1.08)
    direction = rng.uniform(0, 2 * np.pi)
    grad = rng.uniform(0.05, 0.45 if hard else 0.3)
    field = 1 + grad * (xs * math.cos(direction) + ys * math.sin(direction))
    vig = rng.uniform(0.1, 0.45)
    field *= 1 - vig * (xs * xs + ys * ys) / 0.5
    band = None
    if rng.random() < (0.55 if hard else 0.25):
        angle = rng.uniform(0, np.pi)
        offset = rng.uniform(-0.3, 0.3)
        dist = xs * math.cos(angle) + ys * math.sin(angle) - offset
        width, soft = rng.uniform(0.08, 0.3), rng.uniform(0.02, 0.08)
        depth = rng.uniform(0.25, 0.55 if hard else 0.4)
        inside = 1 / (1 + np.exp(-(width / 2 - np.abs(dist)) / soft))
        field *= 1 - depth * inside
        band = {"depth": round(depth, 2), "width": round(width, 2)}
    field = cv2.resize(field * exposure, (w, h), interpolation=cv2.INTER_LINEAR)
    return field, {"exposure": round(exposure, 3), "gradient": round(grad, 3),
                   "vignette": round(vig, 3), "shadow_band": band}


def store_jpeg(image_bgr: np.ndarray, quality: int, orientation: int) -> bytes:
    """JPEG bytes (Pillow) of the upright ``image_bgr``; with ``orientation`` 3,
    6 or 8 the pixels are stored turned and an EXIF tag says how to turn them."""
    pil = Image.fromarray(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2RGB))
    turn = {3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_90,  # 90: counter-clockwise
            8: Image.Transpose.ROTATE_270}.get(orientation)
    if turn is not None:
        pil = pil.transpose(turn)
    out = io.BytesIO()
    if orientation == 1:
        pil.save(out, "JPEG", quality=quality)
    else:
        exif = Image.Exif()
        exif[0x0112] = orientation
        pil.save(out, "JPEG", quality=quality, exif=exif.tobytes())
    return out.getvalue()


def make_photo(seed: int, index: int, hard_share: float) -> tuple[bytes, dict]:
    """One photo (JPEG bytes) and its truth; the same (seed, index) gives the same photo."""
    rng = np.random.default_rng([seed, index, 7411])
    cv2.setRNGSeed(int(rng.integers(1 << 30)))  # cv2.randu/randn: the same in any process
    hard = bool(rng.random() < hard_share)
    layout, letter = SHEETS[int(rng.integers(len(SHEETS)))]
    sheet = load_layout(layout).sheet(letter)
    truth = play_sheet(sheet, rng, illegal_share=0.03)
    style = random_style(rng, hard)

    # camera and pose
    width, height = PHOTO_SIZES[int(rng.integers(len(PHOTO_SIZES)))]
    if rng.random() < 0.5:
        width, height = height, width
    focal = max(width, height) * rng.uniform(0.72, 0.95)
    # barrel distortion at the frame's corners, what is left after the phone corrects it
    k1 = -(rng.uniform(0.01, 0.04) if hard else rng.uniform(0.0, 0.02))
    tilt = rng.uniform(22, 40) if hard else abs(rng.normal(0, 12)) % 30
    bend = rng.uniform(3, 7) if hard else rng.uniform(0, 3.5)
    bend *= 1 if rng.random() < 0.6 else -1
    if rng.random() < 0.5:  # any turn at all
        spin = rng.uniform(0, 360)
    else:  # roughly square to the frame, the sheet's long side along the frame's
        spin = 90 * (int(height > width) + 2 * int(rng.integers(2))) + rng.normal(0, 6)
    cam = Camera(width, height, focal, k1, rotation(tilt, rng.uniform(0, 360), spin),
                 np.zeros(3), sheet.size_mm, int(rng.integers(2)), bend)
    want = rng.uniform(0.2, 0.35) if hard and rng.random() < 0.6 else rng.uniform(0.2, 0.8)
    coverage = place_sheet(cam, want, rng)
    scale = max_px_per_mm(cam)

    # the sheet, drawn at about its resolution in the photo (no aliasing, no waste)
    ppm = float(np.clip(scale, 6.0, BLANK_PX_PER_MM))
    paper, written = draw_sheet(sheet, truth, style, ppm, rng, hard)

    # where each photo pixel looks: computed every 8 px, interpolated in between
    step = 8
    gw, gh = -(-width // step), -(-height // step)
    gx, gy = np.meshgrid((np.arange(gw) + 0.5) * step - 0.5, (np.arange(gh) + 0.5) * step - 0.5)
    u0, v0, u, v = cam.sheet_coords(gx.astype(np.float64), gy.astype(np.float64))

    def full(a):
        return cv2.resize(a.astype(np.float32), (gw * step, gh * step),
                          interpolation=cv2.INTER_LINEAR)[:height, :width]

    # the table, seen in the same perspective
    table_kind = pick(rng, {"wood": 0.35, "cloth": 0.25, "dark": 0.25, "pale": 0.15}
                      if not hard else {"wood": 0.3, "cloth": 0.3, "dark": 0.2, "pale": 0.2})
    lo = np.maximum([u0.min(), v0.min()], -2500.0)
    hi = np.minimum([u0.max(), v0.max()], 2500.0)
    extent = hi - lo + 20
    tex_ppm = float(min(4.0, 2000 / extent.max()))
    texture = table_texture(table_kind, tuple(extent), tex_ppm, rng)
    mx, my = cv2.convertMaps(full((u0 - lo[0] + 10) * tex_ppm - 0.5),
                             full((v0 - lo[1] + 10) * tex_ppm - 0.5), cv2.CV_16SC2)
    table = cv2.remap(texture, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    del texture, mx, my

    # the sheet on it (its edge anti-aliased by the remap of an opaque layer)
    sx, sy = cv2.convertMaps(full(u * ppm - 0.5), full(v * ppm - 0.5), cv2.CV_16SC2)
    seen = cv2.remap(cv2.merge([*cv2.split(paper), np.full(paper.shape[:2], 255, np.uint8)]),
                     sx, sy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                     borderValue=(0, 0, 0, 0))
    del sx, sy
    alpha = cv2.extractChannel(seen, 3).astype(np.float32) * (1 / 255)
    image = cv2.blendLinear(table, cv2.cvtColor(seen, cv2.COLOR_BGRA2BGR), 1 - alpha, alpha)
    del table, seen

    thumb = None
    if rng.random() < (0.3 if hard else 0.08):
        thumb = int(rng.integers(4))
        draw_thumb(image, cam, sheet, thumb, rng)

    blur_px = rng.uniform(0.9, 2.2) if hard else rng.uniform(0.3, 1.2)
    image = cv2.GaussianBlur(image, (0, 0), blur_px)
    sharpened = bool(rng.random() < 0.4)
    if sharpened:  # the phone's unsharp mask
        image = cv2.addWeighted(image, 1.6, cv2.GaussianBlur(image, (0, 0), 1.5), -0.6, 0)

    # light: exposure, gradient, vignette, shadow band, the sheet's soft drop
    # shadow on the table (not on the sheet itself), white balance
    field, light = light_field((height, width), rng, hard)
    small = cv2.resize(alpha, (width // 4, height // 4), interpolation=cv2.INTER_AREA)
    off = rng.normal(0, scale * 0.6 / 4, 2)
    soft = max(1.0, scale * rng.uniform(0.8, 2.5) / 4)  # 0.8-2.5 mm, in quarter pixels
    small = cv2.warpAffine(cv2.GaussianBlur(small, (0, 0), soft),
                           np.float32([[1, 0, off[0]], [0, 1, off[1]]]), small.shape[::-1])
    drop = cv2.resize(small, (width, height))
    drop *= 1 - alpha
    field *= 1 - rng.uniform(0.15, 0.4) * drop
    del drop, alpha
    balance = {"warm": (0.86, 0.97, 1.1), "cool": (1.1, 1.0, 0.9), "neutral": (1.0, 1.0, 1.0)}
    wb = str(rng.choice(list(balance), p=[0.4, 0.25, 0.35]))
    gains = np.array(balance[wb]) * rng.uniform(0.97, 1.03, 3)
    photo = cv2.multiply(image, cv2.merge([field * float(g) for g in gains]), dtype=cv2.CV_32F)
    del field, image

    # sensor noise: luminance per pixel, chroma in blotches; stronger in the dark
    noise = rng.uniform(2.0, 4.0) * (1.0 / max(light["exposure"], 0.3)) ** 0.8
    noise *= 1.4 if hard else 1.0
    luma = np.empty((height, width), np.float32)
    cv2.randn(luma, 0, noise)  # OpenCV's generator (seeded above): faster than numpy
    photo += luma[..., None]
    del luma
    chroma = cv2.resize(rng.normal(0, noise * 0.9, (height // 3, width // 3, 3)).astype(np.float32),
                        (width, height), interpolation=cv2.INTER_LINEAR)
    image = cv2.add(photo, chroma, dtype=cv2.CV_8U)  # saturating
    del photo, chroma

    quality = int(rng.integers(40, 71)) if hard else int(rng.integers(60, 96))
    orientation = 1
    if height > width and rng.random() < 0.6:
        orientation = int(rng.choice([6, 8]))
    elif rng.random() < 0.08:
        orientation = 3
    jpeg = store_jpeg(image, quality, orientation)

    w, h = sheet.size_mm
    corners = cam.project(np.array([0, w, w, 0.0]), np.array([0, 0, float(h), float(h)]))
    expected = score_sheet(sheet, truth.marked)
    sheet_truth = truth.to_json()
    sheet_truth.update({
        "score": expected.score_json(),
        "status": expected.status(),
        "style": style.to_json(),
        "pen": style.ink,
        "mark_kinds": [style.kind] if truth.marked else [],
        "occluded_marker": thumb,
        "corners_px": [[round(float(x), 1), round(float(y), 1)] for x, y in corners],
        "px_per_mm": round(scale, 2),
        "dots_in_boxes": written["dots_in_boxes"],
        "totals_written": written["totals_written"],
        "name_written": written["name_written"],
    })
    photo_truth = {
        "generator": GENERATOR, "seed": seed, "index": index, "size": [width, height],
        "difficulty": "hard" if hard else "normal", "table": False, "jpeg_quality": quality,
        "exif_orientation": orientation, "tilt_deg": round(tilt, 1),
        "bend_mm": round(bend, 2), "barrel_k1": round(k1, 4), "coverage": round(coverage, 3),
        "background": table_kind, "white_balance": wb, "blur_px": round(blur_px, 2),
        "sharpened": sharpened, "noise": round(noise, 2), "print": written["print"], **light,
    }
    return jpeg, {"file": None, "sheets": [sheet_truth], "photo": photo_truth}


def _write_one(job: tuple[Path, int, int, float]) -> float:
    out, seed, index, hard_share = job
    t0 = time.perf_counter()
    jpeg, truth = make_photo(seed, index, hard_share)
    name = f"{index:04d}.jpg"
    truth["file"] = name
    # the truth first: a photo on disk always has its truth beside it
    (out / name).with_suffix(".json").write_text(json.dumps(truth, indent=1))
    (out / name).write_bytes(jpeg)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--hard-share", type=float, default=0.25)
    parser.add_argument("--start", type=int, default=0, help="index of the first photo")
    parser.add_argument("--jobs", type=int, default=1, help="processes (one core each)")
    args = parser.parse_args()
    if args.count < 1 or args.jobs < 1 or args.start < 0:
        parser.error("--count and --jobs must be at least 1, --start at least 0")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        parser.error(f"cannot create --out {args.out}: {error.strerror}; give a writable folder")
    jobs = [(args.out, args.seed, k, args.hard_share)
            for k in range(args.start, args.start + args.count)]
    cv2.setNumThreads(1)
    t0 = time.perf_counter()
    if args.jobs > 1:
        from multiprocessing import Pool

        with Pool(args.jobs) as pool:
            for done, seconds in enumerate(pool.imap(_write_one, jobs), 1):
                print(f"{done}/{len(jobs)} ({seconds:.2f} s)", file=sys.stderr, flush=True)
    else:
        for done, job in enumerate(jobs, 1):
            seconds = _write_one(job)
            print(f"{done}/{len(jobs)} {job[2]:04d}.jpg ({seconds:.2f} s)", file=sys.stderr,
                  flush=True)
    print(f"{len(jobs)} photos in {args.out} ({time.perf_counter() - t0:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
