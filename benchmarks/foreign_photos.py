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
                                        [--table]

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

``--table`` (issue 5, ``qwixx scan --game``; read with ``scan_benchmark.py
--table --photos DIR``): 12 MP photos of a whole table, 2-5 sheets of one
game (all classic, or distinct letters of Treden or Kettingen; now and then
two players with the same letter), each with its own marks, style, ink, turn
(square to the others, facing its player, or anyhow) and bend (0-3 mm, hard
0-5 mm), slid together until they touch, lie a few mm apart or a few mm over
each other's edges (never over a marker, the code, the letter or a box),
under one camera (tilt up to 30 degrees, hard 40). Pens (shaded cylinders)
and dice (rounded cubes with pips) lie on and beside them with shadows from
one light; they hide no marker or code and at most a box's edge (2.5 mm; the
box's truth stays what the player marked). No thumbs. Each sheet's truth has
``corners_px``, ``on_table`` (centre, turn, how it met the others),
``stack`` (0 lowest) and ``bend_mm``; ``photo`` has ``table: true``,
``game``, ``letters``, ``same_letter_twice`` and ``objects`` (kind, colour,
table mm, ``covers_box_edges``).

Coordinates: sheet mm from the trim's top-left corner, x right, y down;
table mm around the middle of the sheets (x, y in the table top, up toward
the lens); photo px of the upright photo (as seen after the EXIF turn), x right, y down;
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


def coarse_grid(width: int, height: int, step: int = 8):
    """Photo px at which the camera is evaluated (every ``step`` px, float64
    arrays) and a function that interpolates values computed there to every
    pixel of the ``width`` x ``height`` photo."""
    gw, gh = -(-width // step), -(-height // step)
    gx, gy = np.meshgrid((np.arange(gw) + 0.5) * step - 0.5, (np.arange(gh) + 0.5) * step - 0.5)

    def full(a):
        return cv2.resize(a.astype(np.float32), (gw * step, gh * step),
                          interpolation=cv2.INTER_LINEAR)[:height, :width]

    return gx.astype(np.float64), gy.astype(np.float64), full


def seen_table(kind: str, u0: np.ndarray, v0: np.ndarray, full, rng: np.random.Generator):
    """The table top of ``kind`` as the photo sees it: ``u0``, ``v0`` are the
    table mm seen on the coarse grid, ``full`` interpolates them to every
    pixel (see :func:`coarse_grid`)."""
    lo = np.maximum([u0.min(), v0.min()], -2500.0)
    hi = np.minimum([u0.max(), v0.max()], 2500.0)
    extent = hi - lo + 20
    tex_ppm = float(min(4.0, 2000 / extent.max()))
    texture = table_texture(kind, tuple(extent), tex_ppm, rng)
    mx, my = cv2.convertMaps(full((u0 - lo[0] + 10) * tex_ppm - 0.5),
                             full((v0 - lo[1] + 10) * tex_ppm - 0.5), cv2.CV_16SC2)
    return cv2.remap(texture, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


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




def soften(image: np.ndarray, rng: np.random.Generator,
           hard: bool) -> tuple[np.ndarray, float, bool]:
    """Focus blur (Gaussian, px) and sometimes the phone's unsharp mask."""
    blur_px = rng.uniform(0.9, 2.2) if hard else rng.uniform(0.3, 1.2)
    image = cv2.GaussianBlur(image, (0, 0), blur_px)
    sharpened = bool(rng.random() < 0.4)
    if sharpened:
        image = cv2.addWeighted(image, 1.6, cv2.GaussianBlur(image, (0, 0), 1.5), -0.6, 0)
    return image, float(blur_px), sharpened


def develop(image: np.ndarray, field: np.ndarray, exposure: float, rng: np.random.Generator,
            hard: bool) -> tuple[np.ndarray, str, float]:
    """The sensor's view of ``image`` (BGR uint8) under the light ``field``:
    white balance, luminance noise per pixel and chroma noise in blotches
    (stronger in the dark); BGR uint8, the white balance and the noise level."""
    height, width = image.shape[:2]
    balance = {"warm": (0.86, 0.97, 1.1), "cool": (1.1, 1.0, 0.9), "neutral": (1.0, 1.0, 1.0)}
    wb = str(rng.choice(list(balance), p=[0.4, 0.25, 0.35]))
    gains = np.array(balance[wb]) * rng.uniform(0.97, 1.03, 3)
    photo = cv2.multiply(image, cv2.merge([field * float(g) for g in gains]), dtype=cv2.CV_32F)
    noise = rng.uniform(2.0, 4.0) * (1.0 / max(exposure, 0.3)) ** 0.8
    noise *= 1.4 if hard else 1.0
    luma = np.empty((height, width), np.float32)
    cv2.randn(luma, 0, noise)  # OpenCV's generator (seeded per photo): faster than numpy
    photo += luma[..., None]
    del luma
    chroma = cv2.resize(rng.normal(0, noise * 0.9, (height // 3, width // 3, 3)).astype(np.float32),
                        (width, height), interpolation=cv2.INTER_LINEAR)
    out = cv2.add(photo, chroma, dtype=cv2.CV_8U)  # saturating
    return out, wb, float(noise)


def encode_photo(image: np.ndarray, rng: np.random.Generator,
                 hard: bool) -> tuple[bytes, int, int]:
    """JPEG bytes of the upright ``image``, its quality and EXIF orientation
    (portrait photos are often stored turned, now and then one upside down)."""
    height, width = image.shape[:2]
    quality = int(rng.integers(40, 71)) if hard else int(rng.integers(60, 96))
    orientation = 1
    if height > width and rng.random() < 0.6:
        orientation = int(rng.choice([6, 8]))
    elif rng.random() < 0.08:
        orientation = 3
    return store_jpeg(image, quality, orientation), quality, orientation


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
    gx, gy, full = coarse_grid(width, height)
    u0, v0, u, v = cam.sheet_coords(gx, gy)

    # the table, seen in the same perspective
    table_kind = pick(rng, {"wood": 0.35, "cloth": 0.25, "dark": 0.25, "pale": 0.15}
                      if not hard else {"wood": 0.3, "cloth": 0.3, "dark": 0.2, "pale": 0.2})
    table = seen_table(table_kind, u0, v0, full, rng)

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

    image, blur_px, sharpened = soften(image, rng, hard)

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
    image, wb, noise = develop(image, field, light["exposure"], rng, hard)
    del field
    jpeg, quality, orientation = encode_photo(image, rng, hard)

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


# ------------------------------------------------------------------ a whole table

#: Table photos: 12 megapixels (landscape w, h; turned to portrait when the table asks).
TABLE_SIZES = ((4000, 3000), (4032, 3024))
#: The game on a table photo: every sheet of one layout.
GAMES = {"classic": 0.4, "treden": 0.3, "kettingen": 0.3}
#: Share of lettered games (Treden, Kettingen) where two players took the same letter.
SAME_LETTER_SHARE = 0.11  # about 1 table photo in 15 overall
PEN_COLOURS = {"blue": (150, 70, 25), "black": (30, 28, 28), "white": (225, 225, 222),
               "red": (35, 35, 185), "yellow": (40, 190, 225), "silver": (170, 168, 165)}
#: Dice (BGR body, BGR pips): two white dice and the four row colours of Qwixx.
DICE = {"white": ((232, 234, 236), (30, 30, 30)), "red": ((40, 40, 200), (240, 240, 240)),
        "yellow": ((40, 200, 235), (30, 30, 30)), "green": ((60, 150, 40), (240, 240, 240)),
        "blue": ((170, 90, 30), (240, 240, 240))}
PIPS = {1: [(0.5, 0.5)], 2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
        5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
        6: [(0.27, 0.23), (0.27, 0.5), (0.27, 0.77), (0.73, 0.23), (0.73, 0.5), (0.73, 0.77)]}


def turn2d(deg: float) -> np.ndarray:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[c, -s], [s, c]])


def rect_poly(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """The corners TL, TR, BR, BL of an axis-parallel rectangle (mm), (4, 2)."""
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)


@dataclass
class OnTable:
    """Where a sheet lies: its centre (table mm) and its turn (degrees, the
    sheet's x axis turned from the table's x axis toward its y axis)."""

    sheet: Sheet
    centre: np.ndarray
    turn: float

    def to_table(self, pts) -> np.ndarray:
        """Table mm (N, 2) of sheet mm points (N, 2)."""
        half = np.array(self.sheet.size_mm) / 2
        return self.centre + (np.asarray(pts, float) - half) @ turn2d(self.turn).T

    def outline(self) -> np.ndarray:
        w, h = self.sheet.size_mm
        return self.to_table(rect_poly(0, 0, w, h))


def keep_clear(sheet: Sheet, pad: float) -> list[np.ndarray]:
    """Sheet mm rectangles (as polygons) that no other sheet may cover: the
    corner markers, the code and the printed letter (``pad`` mm around them)
    and the boxes."""
    f = sheet.furniture
    rects = [rect_poly(r.x - pad, r.y - pad, r.x + r.w + pad, r.y + r.h + pad)
             for r in (*f.markers, f.code, f.letter)]
    xs = [b.rect.x for b in sheet.boxes] + [b.rect.x + b.rect.w for b in sheet.boxes]
    ys = [b.rect.y for b in sheet.boxes] + [b.rect.y + b.rect.h for b in sheet.boxes]
    rects.append(rect_poly(min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1))
    return rects


def _meets(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two convex polygons (mm) share any area."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return area > 1e-3


def _way(direction_deg: float) -> np.ndarray:
    return np.array([math.cos(math.radians(direction_deg)), math.sin(math.radians(direction_deg))])


def slide_in(sheet: Sheet, turn: float, direction: float,
             placed: list[OnTable]) -> tuple[OnTable, float]:
    """The sheet turned ``turn`` degrees, slid from afar along ``direction``
    toward the middle of the ``placed`` sheets until it touches one (bisection
    to 0.25 mm); the sheet there and its distance from the middle (mm)."""
    middle = np.mean([p.centre for p in placed], axis=0)
    way = _way(direction)
    on = OnTable(sheet, middle, turn)

    def hits(t: float) -> bool:
        on.centre = middle + way * t
        poly = on.outline()
        return any(_meets(poly, p.outline()) for p in placed)

    near, far = 0.0, 900.0
    while far - near > 0.25:
        mid = (far + near) / 2
        if hits(mid):
            near = mid
        else:
            far = mid
    on.centre = middle + way * far
    return on, far


def harmless_over(on: OnTable, t: float, direction: float, placed: list[OnTable],
                  depth: float) -> bool:
    """Whether ``on`` moved to ``t`` mm from the middle along ``direction`` lies
    over the ``placed`` sheets only at their edges: not deeper than ``depth``
    mm, never over a marker, the code or a box (1.5 mm around them)."""
    middle = np.mean([p.centre for p in placed], axis=0)
    poly = OnTable(on.sheet, middle + _way(direction) * t, on.turn).outline()
    for p in placed:
        w, h = p.sheet.size_mm
        for r in [rect_poly(depth, depth, w - depth, h - depth), *keep_clear(p.sheet, 1.5)]:
            if _meets(poly, p.to_table(r)):
                return False
    return True


def lay_out(sheets: list[Sheet], rng: np.random.Generator,
            hard: bool) -> tuple[list[OnTable], list[dict]]:
    """Put the sheets side by side on the table (mm): each slid toward the
    ones already there from a random side until it touches, then left with a
    gap, touching, or pushed a few mm over the sheets below (never over
    their markers, code or boxes, never deeper than ``max depth`` mm); each
    turned toward its player, or anyhow. The placing order is the stacking
    order. Returns the placed sheets and how each met the others."""
    placed: list[OnTable] = []
    contacts: list[dict] = []
    for sheet in sheets:
        if not placed:
            turn = rng.uniform(0, 360)
            placed.append(OnTable(sheet, np.zeros(2), turn))
            contacts.append({"how": "first"})
            continue
        how = str(rng.choice(["gap", "touch", "overlap"], p=[0.3, 0.3, 0.4]))
        gap = rng.uniform(1, 8) if how == "gap" else rng.uniform(0, 0.5)
        depth_limit = rng.uniform(2.5, 6.0 if not hard else 8.0)
        push = rng.uniform(1.0, depth_limit)
        # a few ways in; the one that keeps the sheets closest together wins
        best = None
        for _ in range(6):
            direction = rng.uniform(0, 360)
            way_turn = rng.random()
            if way_turn < 0.5:  # square to the first sheet: players around a square table
                turn = (placed[0].turn + 90 * int(rng.integers(4)) + rng.normal(0, 7)) % 360
            elif way_turn < 0.75:  # its bottom edge toward its player, outward
                turn = (direction - 90 + rng.normal(0, 12)) % 360
            else:
                turn = rng.uniform(0, 360)
            on, touch = slide_in(sheet, turn, direction, placed)
            got = how
            if how == "overlap":
                p = push
                while p > 0.5 and not harmless_over(on, touch - p, direction, placed, depth_limit):
                    p /= 2
                t = touch - p if p > 0.5 else touch + gap
                got = "overlap" if p > 0.5 else "touch"
            else:
                t = touch + gap
            on = OnTable(sheet, on.centre + _way(direction) * (t - touch), turn)
            _, spread = cv2.minEnclosingCircle(
                np.vstack([q.outline() for q in [*placed, on]]).astype(np.float32))
            if best is None or spread < best[0]:
                best = (spread, on, {"how": got, "pushed_mm": round(float(touch - t), 2)
                                     if got == "overlap" else None})
        placed.append(best[1])
        contacts.append(best[2])
    # the table's origin in the middle of the sheets
    middle = np.mean(np.vstack([p.outline() for p in placed]), axis=0)
    for p in placed:
        p.centre = p.centre - middle
    return placed, contacts


class FlatTable(Camera):
    """The camera over the flat table top: (u, v) are table mm around the
    table's origin (``sheet_mm`` is (0, 0), nothing is lifted). ``project_up``
    also sees points above the table (objects)."""

    def lift(self, u, v):
        z = np.zeros_like(np.asarray(u, float))
        return z, (z, z)

    def camera_mm(self, x, y, up) -> np.ndarray:
        """Camera mm (3, N) of table points (mm; ``up`` above the table top)."""
        e1, e2, e3 = self.rot[:, 0], self.rot[:, 1], self.rot[:, 2]
        x, y, up = (np.asarray(a, float).ravel() for a in np.broadcast_arrays(x, y, up))
        return (self.centre[:, None] + np.outer(e1, x) + np.outer(e2, y) - np.outer(e3, up))

    def project_up(self, x, y, up) -> tuple[np.ndarray, np.ndarray]:
        """Photo px (N, 2) of table points ``up`` mm above the table, and their depth (mm)."""
        p = self.camera_mm(x, y, up)
        px, py = self.focal * p[0] / p[2], self.focal * p[1] / p[2]
        r2 = (px * px + py * py) / self.half_diag ** 2
        px, py = px * (1 + self.k1 * r2), py * (1 + self.k1 * r2)
        return np.stack([px + self.width / 2, py + self.height / 2], 1), p[2]

    def lens_up(self) -> np.ndarray:
        """The lens in table mm (x, y, height over the table)."""
        c = self.rot.T @ (-self.centre)
        return np.array([c[0], c[1], -c[2]])

    def sheet_camera(self, on: OnTable, bend_axis: int, bend_mm: float) -> Camera:
        spin = np.eye(3)
        spin[:2, :2] = turn2d(on.turn)
        centre = self.centre + self.rot @ np.array([on.centre[0], on.centre[1], 0.0])
        return Camera(self.width, self.height, self.focal, self.k1, self.rot @ spin, centre,
                      on.sheet.size_mm, bend_axis, bend_mm)


def frame_table(table: FlatTable, outline: np.ndarray, rng: np.random.Generator,
                hard: bool) -> None:
    """Move the camera (``table.centre``) so the sheets' ``outline`` (table mm,
    (N, 2)) fills the frame up to a small random margin, a little off centre."""
    table.centre = np.array([0.0, 0.0, 600.0])
    margin = rng.uniform(0.01, 0.07 if not hard else 0.04) * min(table.width, table.height)
    for _ in range(6):
        pts = table.project(outline[:, 0], outline[:, 1])
        span = pts.max(0) - pts.min(0)
        need = max(span[0] / (table.width - 2 * margin), span[1] / (table.height - 2 * margin))
        table.centre[2] *= need
        pts = table.project(outline[:, 0], outline[:, 1])
        mid = (pts.max(0) + pts.min(0)) / 2
        room = np.maximum(0, (np.array([table.width, table.height]) - 2 * margin
                              - (pts.max(0) - pts.min(0))) / 2)
        target = np.array([table.width, table.height]) / 2 + rng.uniform(-0.4, 0.4, 2) * room
        table.centre[:2] += (target - mid) * table.centre[2] / table.focal
        if abs(need - 1) < 0.005:
            break


def _quarter_poly(pts: np.ndarray) -> np.ndarray:
    return np.round(pts * 4).astype(np.int32)  # quarter-res px in 1/16 fixed point


def draw_sheet_on(image: np.ndarray, cam: Camera, paper: np.ndarray, ppm: float,
                  shadow_px: np.ndarray, shadow_soft_px: float, shadow_depth: float) -> None:
    """Lay the finished sheet ``paper`` (BGR uint8 at ``ppm`` px/mm) into the
    photo ``image`` as ``cam`` sees it, casting a soft shadow (offset
    ``shadow_px``) on whatever lies below; only its region of the photo is touched."""
    height, width = image.shape[:2]
    pts = outline(cam, 16, distort=True)
    pad = int(abs(shadow_px).max() + 3 * shadow_soft_px + 16)
    x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + pad, [width, height])
    if x1 <= x0 or y1 <= y0:
        return
    step = 8
    gw, gh = -(-(x1 - x0) // step) + 1, -(-(y1 - y0) // step) + 1
    gx, gy = np.meshgrid(x0 + np.arange(gw) * step, y0 + np.arange(gh) * step)
    _, _, u, v = cam.sheet_coords(gx.astype(np.float64), gy.astype(np.float64))

    def full(a):  # grid values at x0 + k*step -> every px of the region
        big = cv2.resize(a.astype(np.float32), ((gw - 1) * step + 1, (gh - 1) * step + 1),
                         interpolation=cv2.INTER_LINEAR)
        return big[:y1 - y0, :x1 - x0]

    sx, sy = cv2.convertMaps(full(u * ppm - 0.5), full(v * ppm - 0.5), cv2.CV_16SC2)
    seen = cv2.remap(cv2.merge([*cv2.split(paper), np.full(paper.shape[:2], 255, np.uint8)]),
                     sx, sy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                     borderValue=(0, 0, 0, 0))
    alpha = cv2.extractChannel(seen, 3).astype(np.float32) * (1 / 255)
    region = image[y0:y1, x0:x1]
    # the shadow, computed at a quarter of the resolution
    h, w = region.shape[:2]
    small = cv2.resize(alpha, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), max(0.8, shadow_soft_px / 4))
    small = cv2.warpAffine(small, np.float32([[1, 0, shadow_px[0] / 4], [0, 1, shadow_px[1] / 4]]),
                           small.shape[::-1])
    shade = 1 - shadow_depth * cv2.resize(small, (w, h)) * (1 - alpha)
    below = cv2.multiply(region, cv2.merge([shade] * 3), dtype=cv2.CV_8U)
    region[:] = cv2.blendLinear(below, cv2.cvtColor(seen, cv2.COLOR_BGRA2BGR), 1 - alpha, alpha)


def _darken(image: np.ndarray, poly_px: np.ndarray, soft_px: float, depth: float) -> None:
    """A soft shadow: darken the photo inside ``poly_px`` (px, (N, 2)), blurred."""
    pad = int(3 * soft_px + 4)
    x0, y0 = np.maximum(np.floor(poly_px.min(0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(poly_px.max(0)).astype(int) + pad, image.shape[1::-1])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round((poly_px - [x0, y0]) * 16).astype(np.int32)], 1.0,
                 cv2.LINE_AA, 4)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, soft_px))
    region = image[y0:y1, x0:x1]
    region[:] = cv2.multiply(region, cv2.merge([1 - depth * mask] * 3), dtype=cv2.CV_8U)


def _hull(pts: np.ndarray) -> np.ndarray:
    return cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64)


@dataclass
class Light:
    """The room's main light: where shadows fall (table mm per mm of height)."""

    toward: np.ndarray  # unit vector (x, y, up) from the table to the light

    @property
    def fall(self) -> np.ndarray:
        """Shadow offset on the table (mm, x y) of a point 1 mm high."""
        return -self.toward[:2] / self.toward[2]


def die_shape(centre, turn_deg: float, side: float, base: float):
    """The die's faces: for each face (name, origin, axis a, axis b, outward
    normal), table mm with height; a and b span the face (side mm each)."""
    c = np.array([centre[0], centre[1], base])
    ax = np.array([*turn2d(turn_deg) @ [1, 0], 0.0]) * side
    ay = np.array([*turn2d(turn_deg) @ [0, 1], 0.0]) * side
    up = np.array([0, 0, side])
    o = c - ax / 2 - ay / 2
    return [("top", o + up, ax, ay, np.array([0, 0, 1.0])),
            ("front", o + ay, ax, up, ay / side), ("back", o, ax, up, -ay / side),
            ("left", o, ay, up, -ax / side), ("right", o + ax, ay, up, ax / side)]


def rounded_square(n: int = 10, r: float = 0.14) -> np.ndarray:
    """A unit square with rounded corners (radius ``r``), (4n, 2), in [0, 1]^2."""
    pts = []
    for cx, cy, a0 in ((1 - r, r, -90), (1 - r, 1 - r, 0), (r, 1 - r, 90), (r, r, 180)):
        for a in np.radians(np.linspace(a0, a0 + 90, n)):
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts)


def draw_die(image: np.ndarray, table: FlatTable, centre, turn: float, side: float, base: float,
             colour: str, light: Light, rng: np.random.Generator, scale: float) -> None:
    """A rounded die with pips on its visible faces and its shadow."""
    body, pip = (np.array(c, float) for c in DICE[colour])
    faces = die_shape(centre, turn, side, base)
    lens = table.lens_up()
    corners = np.array([f[1] + f[2] * i + f[3] * j for f in faces for i in (0, 1) for j in (0, 1)])
    # the shadow: base and top corners thrown along the light onto the base plane
    top = corners[corners[:, 2] > base + side / 2]
    thrown = np.vstack([corners[:, :2], top[:, :2] + light.fall * (top[:, 2:3] - base)])
    shadow, _ = table.project_up(thrown[:, 0], thrown[:, 1], np.full(len(thrown), base))
    _darken(image, _hull(shadow), 0.9 * scale, rng.uniform(0.35, 0.55))
    top_value = int(rng.integers(1, 7))
    sides = [v for v in range(1, 7) if v not in (top_value, 7 - top_value)]
    values = {"top": top_value, "front": sides[0], "back": 7 - sides[0], "left": sides[1],
              "right": 7 - sides[1]}
    outline_px, _ = table.project_up(corners[:, 0], corners[:, 1], corners[:, 2])
    hull = _hull(outline_px)
    # the die's silhouette in its rounded-edge colour, then each visible face
    edge = body * rng.uniform(0.55, 0.7)
    cv2.fillPoly(image, [np.round(hull * 16).astype(np.int32)], edge.tolist(), cv2.LINE_AA, 4)
    square = rounded_square()
    for name, origin, a, b, normal in faces:
        middle = origin + (a + b) / 2
        if normal @ (lens - middle) <= 0:
            continue
        shade = 0.5 + 0.5 * max(0.0, float(normal @ light.toward))
        inset = square * 0.94 + 0.03
        pts3 = origin + inset[:, :1] * a + inset[:, 1:] * b
        px, _ = table.project_up(pts3[:, 0], pts3[:, 1], pts3[:, 2])
        cv2.fillPoly(image, [np.round(px * 16).astype(np.int32)],
                     np.clip(body * shade, 0, 255).tolist(), cv2.LINE_AA, 4)
        ring = np.linspace(0, 2 * np.pi, 14, endpoint=False)
        for pu, pv in PIPS[values[name]]:
            cu = pu + 0.085 * np.cos(ring)
            cv = pv + 0.085 * np.sin(ring)
            p3 = origin + cu[:, None] * a + cv[:, None] * b
            ppx, _ = table.project_up(p3[:, 0], p3[:, 1], p3[:, 2])
            cv2.fillPoly(image, [np.round(ppx * 16).astype(np.int32)],
                         np.clip(pip * (0.6 + 0.4 * shade), 0, 255).tolist(), cv2.LINE_AA, 4)


def pen_axis(centre, turn: float, length: float):
    d = turn2d(turn) @ [1.0, 0.0]
    return np.asarray(centre, float) - d * length / 2, np.asarray(centre, float) + d * length / 2


def draw_pen(image: np.ndarray, table: FlatTable, a_mm, b_mm, radius: float, base: float,
             colour: str, light: Light, rng: np.random.Generator, scale: float) -> None:
    """A pen: a shaded cylinder from ``a_mm`` (its cap end) to ``b_mm`` (its
    writing tip, a cone) lying ``base`` mm above the table, and its shadow."""
    lift = base + radius
    # the shadow: the pen's footprint thrown along the light
    d = (b_mm - a_mm) / np.linalg.norm(b_mm - a_mm)
    side = np.array([-d[1], d[0]]) * radius * 0.9
    fall = light.fall * lift
    foot = np.array([a_mm + side, b_mm + side, b_mm - side, a_mm - side]) + fall
    shadow, _ = table.project_up(foot[:, 0], foot[:, 1], np.full(4, base))
    _darken(image, shadow, 1.2 * scale, rng.uniform(0.35, 0.55))
    # the pen, pixel by pixel around its projected axis
    ends, depth = table.project_up(np.array([a_mm[0], b_mm[0]]), np.array([a_mm[1], b_mm[1]]),
                                   np.array([lift, lift]))
    rad_px = table.focal * radius / depth  # at each end
    pad = int(rad_px.max() + 4)
    x0, y0 = np.maximum(np.floor(ends.min(0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(ends.max(0)).astype(int) + pad, image.shape[1::-1])
    if x1 <= x0 or y1 <= y0:
        return
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    axis = (ends[1] - ends[0]).astype(np.float32)
    length = float(np.linalg.norm(axis))
    unit = axis / length
    rx, ry = xs - ends[0][0], ys - ends[0][1]
    t = (rx * unit[0] + ry * unit[1]) / length  # 0 at the cap end, 1 at the tip
    e = rx * -unit[1] + ry * unit[0]  # px across, signed
    tip = rng.uniform(0.08, 0.12)
    r_t = rad_px[0] + (rad_px[1] - rad_px[0]) * np.clip(t, 0, 1)
    taper = np.where(t > 1 - tip, np.clip((1 - t) / tip, 0.12, 1.0) ** 0.9, 1.0)
    r_t = r_t * taper
    cap = np.clip(t * length + 0.5, 0, 1) * np.clip((1 - t) * length + 0.5, 0, 1)
    alpha = np.clip(r_t - np.abs(e) + 0.5, 0, 1) * cap
    q = np.clip(e / np.maximum(r_t, 0.5), -1, 1)  # across the pen -1..1
    # the light across the cylinder: its direction seen in the photo decides the bright side
    lit_side = float(np.sign(-unit[1] * light.toward[0] + unit[0] * light.toward[1]) or 1)
    shade = 0.45 + 0.45 * np.sqrt(1 - q * q) + 0.18 * lit_side * q
    shine = 0.6 * np.exp(-((q + 0.45 * lit_side) / 0.12) ** 2)
    body = np.array(PEN_COLOURS[colour], np.float32)
    colour_map = np.broadcast_to(body, xs.shape + (3,)).copy()
    cone = (t > 1 - tip)[..., None]
    colour_map = np.where(cone, np.array([185, 185, 182], np.float32), colour_map)
    clip_band = ((t > 0.03) & (t < 0.35) & (np.abs(q) < 0.3))[..., None]
    if rng.random() < 0.6:  # a clip along the cap
        colour_map = np.where(clip_band, np.array([200, 200, 198], np.float32) * 0.9, colour_map)
    cap_end = (t < 0.3)[..., None]
    if rng.random() < 0.5:
        colour_map = np.where(cap_end, colour_map * 0.7, colour_map)
    pen = colour_map * shade[..., None] + 255 * shine[..., None]
    region = image[y0:y1, x0:x1].astype(np.float32)
    a = alpha[..., None]
    image[y0:y1, x0:x1] = np.clip(region * (1 - a) + pen * a, 0, 255).astype(np.uint8)


def object_silhouette(table: FlatTable, obj: dict) -> np.ndarray:
    """The photo px outline (convex, (N, 2)) an object covers."""
    if obj["kind"] == "die":
        faces = die_shape(obj["centre_mm"], obj["turn_deg"], obj["side_mm"], obj["base_mm"])
        corners = np.array([f[1] + f[2] * i + f[3] * j for f in faces
                            for i in (0, 1) for j in (0, 1)])
        px, _ = table.project_up(corners[:, 0], corners[:, 1], corners[:, 2])
        return _hull(px)
    a, b = pen_axis(obj["centre_mm"], obj["turn_deg"], obj["length_mm"])
    r = obj["radius_mm"]
    d = (b - a) / np.linalg.norm(b - a)
    side = np.array([-d[1], d[0]])
    ring = np.array([a + side * r - d * 1, b + side * r, b - side * r, a - side * r - d * 1])
    pts = []
    for up in (obj["base_mm"], obj["base_mm"] + 2 * r):
        px, _ = table.project_up(ring[:, 0], ring[:, 1], np.full(4, up))
        pts.append(px)
    return _hull(np.vstack(pts))


def place_objects(table: FlatTable, on_table: list[OnTable], cams: list[Camera],
                  rng: np.random.Generator) -> list[dict]:
    """Pens and dice lying on the sheets (some next to them), each where it hides
    no corner marker, no code and no box's middle (it may cover a box's edge:
    the box core is the box without 2.5 mm along each side); none on another.
    Checked on a quarter-resolution mask of the photo."""
    shape = (table.height // 4 + 1, table.width // 4 + 1)
    forbidden = np.zeros(shape, np.uint8)
    for on, cam in zip(on_table, cams):
        f = on.sheet.furniture
        polys = [rect_poly(r.x - 2, r.y - 2, r.x + r.w + 2, r.y + r.h + 2)
                 for r in (*f.markers, f.code)]
        polys += [rect_poly(b.rect.x + 2.5, b.rect.y + 2.5, b.rect.x + b.rect.w - 2.5,
                            b.rect.y + b.rect.h - 2.5) for b in on.sheet.boxes]
        for poly in polys:
            px = cam.project(poly[:, 0], poly[:, 1])
            cv2.fillConvexPoly(forbidden, _quarter_poly(px), 1, cv2.LINE_8, 4)
    pens = int(rng.choice([0, 1, 2], p=[0.35, 0.45, 0.2]))
    dice = int(rng.choice([0, 1, 2, 3, 4], p=[0.3, 0.25, 0.2, 0.15, 0.1]))
    kinds = ["pen"] * pens + ["die"] * dice
    objects = []
    for kind in kinds:
        for _ in range(100):
            k = int(rng.integers(len(on_table)))
            on, cam = on_table[k], cams[k]
            w, h = on.sheet.size_mm
            if kind == "pen":
                # along the sheet over its totals, hanging off its left edge (a pen
                # is longer than the sheet is wide), or anyhow across an edge
                along = rng.random() < 0.5
                turn = on.turn + (rng.normal(0, 6) + 180 * int(rng.integers(2)) if along
                                  else rng.uniform(0, 360))
                spot = ((rng.uniform(-45, 60), rng.uniform(68, 81)) if along
                        else (rng.uniform(-40, w + 40), rng.uniform(-40, h + 40)))
                obj = {"kind": "pen", "colour": pick(rng, {c: 1.0 for c in PEN_COLOURS}),
                       "length_mm": round(float(rng.uniform(125, 150)), 1),
                       "radius_mm": round(float(rng.uniform(3.8, 5.0)), 2)}
            else:
                turn = rng.uniform(0, 360)
                spot = (rng.uniform(-5, w + 5), rng.uniform(-5, h + 5))
                obj = {"kind": "die", "colour": pick(rng, {"white": 2.0, "red": 1.0, "yellow": 1.0,
                                                           "green": 1.0, "blue": 1.0}),
                       "side_mm": round(float(rng.uniform(12, 16)), 1)}
            inside = 0 <= spot[0] <= w and 0 <= spot[1] <= h
            lift = float(cam.lift(np.array([spot[0]]), np.array([spot[1]]))[0][0]) if inside else 0
            centre = on.to_table([spot])[0]
            obj.update({"centre_mm": [round(float(c), 1) for c in centre],
                        "turn_deg": round(float(turn % 360), 1), "base_mm": round(lift, 2),
                        "on_sheet": k if inside else None, "near_sheet": k})
            sil = object_silhouette(table, obj)
            mask = np.zeros(shape, np.uint8)
            cv2.fillConvexPoly(mask, _quarter_poly(sil), 1, cv2.LINE_8, 4)
            if (mask & forbidden).any() or mask.sum() == 0:
                continue
            if (sil < 0).any() or (sil[:, 0] >= table.width).any() or \
                    (sil[:, 1] >= table.height).any():
                continue  # wholly in the picture
            forbidden |= cv2.dilate(mask, np.ones((9, 9), np.uint8))
            # which boxes' edges it covers (their truth stays what the player marked)
            touched = []
            for j, (o2, c2) in enumerate(zip(on_table, cams)):
                for b in o2.sheet.boxes:
                    r = b.rect
                    px = c2.project(*rect_poly(r.x, r.y, r.x + r.w, r.y + r.h).T)
                    box = np.zeros(shape, np.uint8)
                    lo = np.floor(px.min(0) / 4).astype(int)
                    hi = np.ceil(px.max(0) / 4).astype(int)
                    if (mask[max(0, lo[1]):hi[1] + 1, max(0, lo[0]):hi[0] + 1] == 0).all():
                        continue
                    cv2.fillConvexPoly(box, _quarter_poly(px), 1, cv2.LINE_8, 4)
                    if (box & mask).any():
                        touched.append([j, b.id])
            obj["covers_box_edges"] = touched
            objects.append(obj)
            break
    return objects


def covers_below(upper: Camera, below: list[OnTable], below_cams: list[Camera],
                 table: FlatTable) -> bool:
    """Whether the (bent) sheet ``upper`` hides, in the photo, a marker, the
    code, the letter or a box of a sheet below it (checked at quarter resolution)."""
    shape = (table.height // 4 + 1, table.width // 4 + 1)
    top = np.zeros(shape, np.uint8)
    cv2.fillPoly(top, [_quarter_poly(outline(upper, 16, distort=True))], 1, cv2.LINE_8, 4)
    for on, cam in zip(below, below_cams):
        hidden = np.zeros(shape, np.uint8)
        for r in keep_clear(on.sheet, 0.5):
            cv2.fillConvexPoly(hidden, _quarter_poly(cam.project(r[:, 0], r[:, 1])), 1,
                               cv2.LINE_8, 4)
        if (hidden & top).any():
            return True
    return False


def make_table_photo(seed: int, index: int, hard_share: float) -> tuple[bytes, dict]:
    """One photo of a whole table (2-5 sheets of one game) and its truth; the
    same (seed, index) gives the same photo."""
    rng = np.random.default_rng([seed, index, 9127])
    cv2.setRNGSeed(int(rng.integers(1 << 30)))
    hard = bool(rng.random() < hard_share)
    players = int(rng.choice([2, 3, 4, 5], p=[0.2, 0.3, 0.3, 0.2]))
    game = pick(rng, GAMES)
    if game == "classic":
        letters: list[str | None] = [None] * players
    else:
        letters = [str(c) for c in rng.choice(list("ABCDE"), players, replace=False)]
        if rng.random() < SAME_LETTER_SHARE:  # two players took the same sheet
            letters[int(rng.integers(1, players))] = letters[0]
            rng.shuffle(letters)
    layout = load_layout(game)
    sheets = [layout.sheet(c) for c in letters]
    truths = [play_sheet(s, rng, illegal_share=0.03) for s in sheets]
    styles = [random_style(rng, hard) for _ in sheets]
    on_table, contacts = lay_out(sheets, rng, hard)

    # one camera over the whole table; the photo turned to suit the sheets' spread
    width, height = TABLE_SIZES[int(rng.integers(len(TABLE_SIZES)))]
    focal = max(width, height) * rng.uniform(0.72, 0.95)
    k1 = -(rng.uniform(0.01, 0.04) if hard else rng.uniform(0.0, 0.02))
    tilt = rng.uniform(15, 40) if hard else min(30.0, abs(rng.normal(0, 13)))
    tilt_dir = rng.uniform(0, 360)
    everything = np.vstack([on.outline() for on in on_table])
    hull_mm = _hull(everything)

    def fill(spin: float, portrait: bool) -> float:  # share of the frame the sheets' hull fills
        w, h = (height, width) if portrait else (width, height)
        view = FlatTable(w, h, focal, k1, rotation(tilt, tilt_dir, spin),
                         np.array([0.0, 0.0, 600.0]), (0.0, 0.0), 0, 0.0)
        pts = view.project(hull_mm[:, 0], hull_mm[:, 1])
        span = pts.max(0) - pts.min(0)
        return cv2.contourArea(pts.astype(np.float32)) * min(w / span[0], h / span[1]) ** 2

    # the photographer turns the phone to fit the table into the frame, mostly
    framings = [(rng.uniform(0, 360), bool(rng.random() < 0.5)) for _ in range(8)]
    if rng.random() < 0.85:
        framings.sort(key=lambda f: -fill(*f))
    spin, portrait = framings[0]
    if portrait:
        width, height = height, width
    table = FlatTable(width, height, focal, k1, rotation(tilt, tilt_dir, spin),
                      np.zeros(3), (0.0, 0.0), 0, 0.0)
    frame_table(table, everything, rng, hard)
    bends = [(int(rng.integers(2)), (rng.uniform(0, 5) if hard else rng.uniform(0, 3))
              * (1 if rng.random() < 0.6 else -1)) for _ in sheets]
    cams = [table.sheet_camera(on, axis, bend) for on, (axis, bend) in zip(on_table, bends)]
    # a curled edge stands up and, seen at a slant, reaches further over the
    # sheet below than it lies: such a sheet arches instead (its edges on the table)
    for k in range(1, len(cams)):
        if bends[k][1] > 0 and covers_below(cams[k], on_table[:k], cams[:k], table):
            bends[k] = (bends[k][0], -bends[k][1])
            cams[k] = table.sheet_camera(on_table[k], *bends[k])
    elevation = math.radians(rng.uniform(40, 75))
    azimuth = rng.uniform(0, 2 * np.pi)
    light = Light(np.array([math.cos(azimuth) * math.cos(elevation),
                            math.sin(azimuth) * math.cos(elevation), math.sin(elevation)]))

    # the table top
    gx, gy, full = coarse_grid(width, height)
    u0, v0, _, _ = table.sheet_coords(gx, gy)

    table_kind = pick(rng, {"wood": 0.4, "cloth": 0.25, "dark": 0.2, "pale": 0.15})
    image = seen_table(table_kind, u0, v0, full, rng)
    del u0, v0

    # the sheets, bottom first, each with a soft shadow on what lies below it
    sheet_truths = []
    for k, (sheet, truth, style, on, cam) in enumerate(zip(sheets, truths, styles, on_table,
                                                           cams)):
        scale = max_px_per_mm(cam)
        ppm = float(np.clip(scale, 6.0, BLANK_PX_PER_MM))
        paper, written = draw_sheet(sheet, truth, style, ppm, rng, hard)
        lift = 0.6 + abs(bends[k][1]) * 0.3  # how far its edge stands off what is below (mm)
        centre_px = table.project(*on.centre[:, None])[0]
        fall_px = table.project(*(on.centre + light.fall * lift)[:, None])[0] - centre_px
        draw_sheet_on(image, cam, paper, ppm, fall_px, scale * rng.uniform(0.8, 2.0),
                      rng.uniform(0.15, 0.35))
        del paper
        w, h = sheet.size_mm
        corners = cam.project(np.array([0, w, w, 0.0]), np.array([0, 0, float(h), float(h)]))
        expected = score_sheet(sheet, truth.marked)
        entry = truth.to_json()
        entry.update({
            "score": expected.score_json(), "status": expected.status(),
            "style": style.to_json(), "pen": style.ink,
            "mark_kinds": [style.kind] if truth.marked else [], "occluded_marker": None,
            "corners_px": [[round(float(x), 1), round(float(y), 1)] for x, y in corners],
            "px_per_mm": round(scale, 2), "dots_in_boxes": written["dots_in_boxes"],
            "totals_written": written["totals_written"], "name_written": written["name_written"],
            "print": written["print"], "stack": k,
            "on_table": {"centre_mm": [round(float(c), 1) for c in on.centre],
                         "turn_deg": round(on.turn, 1), **contacts[k]},
            "bend_mm": round(bends[k][1], 2), "bend_axis": "xy"[bends[k][0]],
        })
        sheet_truths.append(entry)

    # pens and dice on the sheets
    objects = place_objects(table, on_table, cams, rng)
    mid_scale = float(np.median([s["px_per_mm"] for s in sheet_truths]))
    for obj in objects:
        if obj["kind"] == "die":
            draw_die(image, table, obj["centre_mm"], obj["turn_deg"], obj["side_mm"],
                     obj["base_mm"], obj["colour"], light, rng, mid_scale)
        else:
            a, b = pen_axis(obj["centre_mm"], obj["turn_deg"], obj["length_mm"])
            draw_pen(image, table, a, b, obj["radius_mm"], obj["base_mm"], obj["colour"], light,
                     rng, mid_scale)

    image, blur_px, sharpened = soften(image, rng, hard)
    field, light_info = light_field((height, width), rng, hard)
    image, wb, noise = develop(image, field, light_info["exposure"], rng, hard)
    del field
    jpeg, quality, orientation = encode_photo(image, rng, hard)

    union = np.zeros((height // 4 + 1, width // 4 + 1), np.uint8)
    for s in sheet_truths:
        cv2.fillConvexPoly(union, _quarter_poly(np.array(s["corners_px"])), 1, cv2.LINE_8, 4)
    photo_truth = {
        "generator": GENERATOR, "seed": seed, "index": index, "size": [width, height],
        "difficulty": "hard" if hard else "normal", "table": True, "game": game,
        "players": players, "letters": letters,
        "same_letter_twice": len(set(letters)) < players and game != "classic",
        "jpeg_quality": quality, "exif_orientation": orientation, "tilt_deg": round(tilt, 1),
        "barrel_k1": round(k1, 4), "coverage": round(float(union.mean()), 3),
        "background": table_kind, "white_balance": wb, "blur_px": round(blur_px, 2),
        "sharpened": sharpened, "noise": round(noise, 2),
        "light_from_deg": [round(math.degrees(azimuth), 1), round(math.degrees(elevation), 1)],
        "objects": objects, **light_info,
    }
    return jpeg, {"file": None, "sheets": sheet_truths, "photo": photo_truth}


def _write_one(job: tuple[Path, int, int, float, bool]) -> float:
    out, seed, index, hard_share, table = job
    t0 = time.perf_counter()
    jpeg, truth = (make_table_photo if table else make_photo)(seed, index, hard_share)
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
    parser.add_argument("--table", action="store_true",
                        help="photos of a whole table: 2-5 sheets of one game, pens, dice")
    args = parser.parse_args()
    if args.count < 1 or args.jobs < 1 or args.start < 0:
        parser.error("--count and --jobs must be at least 1, --start at least 0")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        parser.error(f"cannot create --out {args.out}: {error.strerror}; give a writable folder")
    jobs = [(args.out, args.seed, k, args.hard_share, args.table)
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
