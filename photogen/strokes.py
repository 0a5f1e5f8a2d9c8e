"""Hand-like pen marks drawn onto a flat sheet image.

The image is a rectified sheet: pixel (0, 0) is the sheet's top-left trim
corner, x right, y down, ``px_per_mm`` pixels per millimetre, so a box's
rect in mm times ``px_per_mm`` is its rect in pixels. Marks are drawn
with curved strokes of varying width and pressure, anti-aliased, and
composited like ink (multiplicative: ink darkens the print beneath it).

Main entry: :func:`draw_sheet_marks`. One :class:`MarkStyle` per sheet (one
pen, one way of crossing), made by :func:`random_style`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from qwixx_print.layout import Rect, Sheet
from qwixx_print.rules import score_sheet

from .play import SheetTruth

MARK_KINDS = ("x", "check", "slash", "scribble", "circle")
#: How often each kind is a player's habit (X is by far the most common).
KIND_WEIGHTS = (0.62, 0.12, 0.12, 0.07, 0.07)
#: Drawn only when asked for (training data): "shade", a box shaded in with
#: even, parallel strokes inside its outline, gaps between them; "dense-shade"
#: the same with the strokes about as far apart as they are wide, so that a
#: pencil leaves an almost even grey over the box; "zigzag" one stroke drawn
#: to and fro down the box a few times, wide apart (a quick, loose fill).
EXTRA_KINDS = ("shade", "dense-shade", "zigzag")
_SHADES = {"shade": (1.2, 1.9), "dense-shade": (0.95, 1.25)}  # stroke spacing / width


@dataclass(frozen=True)
class Pen:
    """A writing tool: ink colour (BGR 0..255), line width (mm), opacity 0..1."""

    name: str
    ink_bgr: tuple[int, int, int]
    width_mm: tuple[float, float]
    opacity: tuple[float, float]
    grain: float = 0.0  # 0 = even ink; pencil-like graininess up to 1
    pressure_shading: float = 0.3  # how much the ink lightens where pressure drops


PENS: dict[str, Pen] = {
    "blue-ballpoint": Pen("blue-ballpoint", (150, 62, 22), (0.30, 0.50), (0.70, 0.92)),
    "black-ballpoint": Pen("black-ballpoint", (48, 42, 40), (0.30, 0.50), (0.72, 0.92)),
    "felt-pen": Pen("felt-pen", (38, 32, 30), (0.75, 1.40), (0.90, 0.98), pressure_shading=0.08),
    "pencil": Pen("pencil", (95, 95, 98), (0.35, 0.70), (0.38, 0.62), grain=0.65,
                  pressure_shading=0.45),
    "red-pen": Pen("red-pen", (40, 38, 190), (0.32, 0.55), (0.72, 0.92)),
}
#: How often each pen is used.
PEN_WEIGHTS = {"blue-ballpoint": 0.38, "black-ballpoint": 0.27, "felt-pen": 0.13,
               "pencil": 0.12, "red-pen": 0.10}
#: Each pen's ink colour is scaled per channel by a factor in this range.
INK_JITTER = (0.75, 1.3)
#: Felt pens come in other dark colours too.
_FELT_COLOURS = ((38, 32, 30), (38, 32, 30), (120, 40, 20), (90, 30, 110))


@dataclass(frozen=True)
class MarkStyle:
    """One player's way of marking, constant over a sheet.

    ``size``: mark half-extent relative to the box's half-size (1.0 reaches
    the box edge; above it overshoots). ``offset``: standard deviation of the
    mark centre's offset, in box sizes. ``second_kind`` is used for a share
    ``second_share`` of the marks (a player who mostly crosses but sometimes
    ticks); None for one kind only.
    """

    kind: str
    pen: Pen
    ink_bgr: tuple[int, int, int]
    width_mm: float
    opacity: float
    size: float
    size_jitter: float
    offset: float
    slant_deg: float
    wobble: float
    second_kind: str | None = None
    second_share: float = 0.0
    skip_line_len: float = 0.6  # skip line length in box widths

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "pen": self.pen.name, "width_mm": round(self.width_mm, 3),
                "size": round(self.size, 3), "second_kind": self.second_kind}


def random_style(rng: np.random.Generator, *, style_mix: float = 0.1, hard: bool = False,
                 kind: str | None = None, pen: str | None = None) -> MarkStyle:
    """A player's style. ``style_mix``: chance the player uses a second kind
    of mark now and then. ``hard`` widens sizes, offsets and wobble.
    ``kind``/``pen`` force one of :data:`MARK_KINDS` / :data:`PENS`."""
    kind = kind or str(rng.choice(MARK_KINDS, p=KIND_WEIGHTS))
    pen_obj = PENS[pen or str(rng.choice(list(PEN_WEIGHTS), p=list(PEN_WEIGHTS.values())))]
    ink = pen_obj.ink_bgr
    if pen_obj.name == "felt-pen":
        ink = _FELT_COLOURS[int(rng.integers(len(_FELT_COLOURS)))]
    second, share = None, 0.0
    if rng.random() < style_mix:
        second = str(rng.choice([k for k in MARK_KINDS if k != kind and k != "scribble"]))
        share = float(rng.uniform(0.05, 0.3))
    size_lo, size_hi = (0.45, 1.25) if hard else (0.6, 1.08)
    style = MarkStyle(
        kind=kind, pen=pen_obj, ink_bgr=tuple(int(c) for c in ink),
        width_mm=float(rng.uniform(*pen_obj.width_mm)),
        opacity=float(rng.uniform(*pen_obj.opacity)) * (0.8 if hard and rng.random() < 0.4 else 1),
        size=float(rng.uniform(size_lo, size_hi)),
        size_jitter=float(rng.uniform(0.03, 0.12)),
        offset=float(rng.uniform(0.02, 0.12 if hard else 0.07)),
        slant_deg=float(rng.normal(0, 6)),
        wobble=float(rng.uniform(0.01, 0.05 if hard else 0.03)),
        second_kind=second, second_share=share,
        skip_line_len=float(rng.uniform(0.45, 0.95)),
    )
    # No two pens of a kind have quite the same ink: navy to bright blue,
    # brownish to bluish black (drawn last, so the other choices of a seed stay).
    ink = np.clip(np.array(ink, float) * rng.uniform(*INK_JITTER, 3), 0, 255)
    return replace(style, ink_bgr=tuple(int(c) for c in ink))


@dataclass
class MarkReport:
    """What :func:`draw_sheet_marks_detailed` drew besides the crosses.

    ``kinds``: box id -> mark kind drawn there. ``dots_in_boxes``: boxes that
    got a stray dot (not a cross). ``totals_written``: field -> number written.
    ``skip_tilts``: box id -> how far its skip line is tilted (degrees, + is
    anticlockwise on the sheet).
    """

    kinds: dict[str, str] = field(default_factory=dict)
    dots_in_boxes: list[str] = field(default_factory=list)
    stray_dots: int = 0
    totals_written: dict[str, int] = field(default_factory=dict)
    name_written: str | None = None
    skip_tilts: dict[str, float] = field(default_factory=dict)


def draw_sheet_marks(image_bgr: np.ndarray, sheet: Sheet, px_per_mm: float, truth: SheetTruth,
                     style: MarkStyle, rng: np.random.Generator, *, extras: bool = True
                     ) -> np.ndarray:
    """Draw the truth's crosses (and, with ``extras``, skip lines, stray dots,
    totals and a name) on a copy of a flat sheet image (BGR uint8, origin at
    the sheet's top-left trim corner, ``px_per_mm`` pixels per mm)."""
    return draw_sheet_marks_detailed(image_bgr, sheet, px_per_mm, truth, style, rng,
                                     extras=extras)[0]


def draw_sheet_marks_detailed(image_bgr: np.ndarray, sheet: Sheet, px_per_mm: float,
                              truth: SheetTruth, style: MarkStyle, rng: np.random.Generator,
                              *, extras: bool = True, skip_tilt_deg: float | None = None
                              ) -> tuple[np.ndarray, MarkReport]:
    """Like :func:`draw_sheet_marks`, also returning a :class:`MarkReport`.
    ``skip_tilt_deg``: skip lines tilted evenly up to this far either way and
    bowed a little (see :meth:`_InkWriter.skip_line`), not nearly level."""
    if image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or image_bgr.dtype != np.uint8:
        raise ValueError(f"image_bgr must be an HxWx3 uint8 array, not {image_bgr.shape} "
                         f"{image_bgr.dtype}")
    out = image_bgr.copy()
    ink = _InkWriter(out, px_per_mm, style, rng)
    report = MarkReport()
    for box_id in truth.marked:
        kind = style.kind
        if style.second_kind and rng.random() < style.second_share:
            kind = style.second_kind
        ink.mark(sheet.box(box_id).rect, kind)
        report.kinds[box_id] = kind
    if not extras:
        return out, report
    for box_id in truth.skip_lined:
        report.skip_tilts[box_id] = ink.skip_line(sheet.box(box_id).rect, skip_tilt_deg)
    report.stray_dots = int(rng.choice(4, p=[0.55, 0.25, 0.13, 0.07]))
    empty = [b for b in sheet.boxes if b.id not in set(truth.marked) | set(truth.skip_lined)]
    for _ in range(report.stray_dots):
        if empty and rng.random() < 0.4:
            box = empty[int(rng.integers(len(empty)))]
            r = box.rect
            x = r.x + r.w * rng.uniform(0.15, 0.85)
            y = r.y + r.h * rng.uniform(0.15, 0.85)
            report.dots_in_boxes.append(box.id)
        else:
            x = rng.uniform(5, sheet.size_mm[0] - 5)
            y = rng.uniform(5, sheet.size_mm[1] - 5)
        ink.dot(x, y)
    if rng.random() < 0.6:
        for name, value in _totals(sheet, truth).items():
            rect = dict(sheet.furniture.totals)[name]
            ink.number(rect, value)
            report.totals_written[name] = value
    if rng.random() < 0.5:
        report.name_written = str(rng.choice(_NAMES))
        ink.text(sheet.furniture.name_line, report.name_written, script=True)
    return out, report


_NAMES = ("Anna", "Tim", "Sanne", "Joost", "Eva", "Lars", "Mia", "Noor", "Pieter", "Ingrid",
          "Bram", "Sofie", "Kari", "Ole", "Opa", "Femke", "Jan")


def _totals(sheet: Sheet, truth: SheetTruth) -> dict[str, int]:
    """The numbers a player writes in the total fields: the rules engine's
    score (penalties as the positive number the printed minus sign expects)."""
    points = score_sheet(sheet, truth.marked).score_json()
    points["penalties"] = -points["penalties"]
    names = {name for name, _ in sheet.furniture.totals}
    return {k: v for k, v in points.items() if k in names}


class _InkWriter:
    """Draws strokes into small local patches and composites them as ink."""

    def __init__(self, image: np.ndarray, px_per_mm: float, style: MarkStyle,
                 rng: np.random.Generator) -> None:
        self.image = image
        self.ppm = px_per_mm
        self.style = style
        self.rng = rng
        # transmittance of the ink per channel: 1 - alpha * (1 - T) multiplies the paper
        self.absorb = 1.0 - np.array(style.ink_bgr, np.float32) / 255.0

    # ---------------------------------------------------------------- marks
    def mark(self, rect: Rect, kind: str) -> None:
        s, rng = self.style, self.rng
        half = 0.5 * min(rect.w, rect.h)
        size = half * max(0.3, s.size * (1 + rng.normal(0, s.size_jitter)))
        if kind in _SHADES:  # fills the box whatever the player's size of mark
            size = half * rng.uniform(0.96, 1.04)
        cx = rect.x + rect.w / 2 + rng.normal(0, s.offset) * rect.w
        cy = rect.y + rect.h / 2 + rng.normal(0, s.offset) * rect.h
        angle = np.deg2rad(s.slant_deg + rng.normal(0, 4))
        if kind in _SHADES:  # even strokes, spaced as _SHADES says for the kind
            strokes = _shade_shape(rng, s.width_mm * rng.uniform(*_SHADES[kind]) / half)
        else:
            strokes = _MARK_SHAPES[kind](rng)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        placed = []
        for pts in strokes:
            pts = np.asarray(pts, float) + rng.normal(0, 0.04, (len(pts), 2))
            placed.append((pts * size) @ rot.T + (cx, cy))
        self._draw(placed, rounding=1 if kind == "scribble" else 0 if kind in _SHADES else 3)

    def skip_line(self, rect: Rect, tilt_deg: float | None = None) -> float:
        """A line through a skipped number: nearly level (3.4 degrees typical),
        or with ``tilt_deg`` tilted evenly up to that far and bowed by up to
        a twentieth of its length, as hurried hands draw it. Returns its tilt
        (degrees, + anticlockwise)."""
        rng = self.rng
        length = rect.w * self.style.skip_line_len * rng.uniform(0.85, 1.15)
        cx = rect.x + rect.w / 2 + rng.normal(0, 0.05) * rect.w
        cy = rect.y + rect.h / 2 + rng.normal(0, 0.06) * rect.h
        tilt = rng.normal(0, 0.06) * length
        bow = 0.0
        if tilt_deg is not None:  # drawn after the usual draws: without it, a seed's lines stay
            tilt = float(np.tan(np.deg2rad(rng.uniform(-tilt_deg, tilt_deg)))) * length
            bow = float(rng.uniform(-0.05, 0.05)) * length
        a = np.array([cx - length / 2, cy + tilt / 2])
        b = np.array([cx + length / 2, cy - tilt / 2])
        if rng.random() < 0.5:
            a, b = b, a
        if bow:
            across = np.array([-(b - a)[1], (b - a)[0]]) / length
            self._draw([np.array([a, (a + b) / 2 + across * bow, b])])
        else:
            self._draw([np.array([a, b])])
        return float(np.degrees(np.arctan(tilt / length)))

    def dot(self, x_mm: float, y_mm: float) -> None:
        r = self.style.width_mm * self.rng.uniform(0.5, 1.1)
        pts = np.array([[x_mm, y_mm], [x_mm + r * 0.6, y_mm + r * 0.3]])
        self._draw([pts], width_scale=1.4)

    def number(self, rect: Rect, value: int) -> None:
        """A handwritten number in ``rect`` (mm), drawn stroke by stroke."""
        rng = self.rng
        text = str(value)
        height = rect.h * rng.uniform(0.45, 0.7)
        width = height * rng.uniform(0.5, 0.65)
        gap = width * rng.uniform(0.15, 0.35)
        span = len(text) * width + (len(text) - 1) * gap
        if span > rect.w * 0.9:
            shrink = rect.w * 0.9 / span
            height, width, gap, span = height * shrink, width * shrink, gap * shrink, span * shrink
        x = rect.x + (rect.w - span) * rng.uniform(0.2, 0.8)
        y = rect.y + (rect.h - height) * rng.uniform(0.3, 0.7)
        slant = rng.uniform(0.0, 0.25)
        for ch in text:
            for stroke in _DIGITS[ch]:
                pts = np.asarray(stroke, float) + rng.normal(0, 0.03, (len(stroke), 2))
                px = x + (pts[:, 0] + slant * (1 - pts[:, 1])) * width
                py = y + pts[:, 1] * height
                self._draw([np.column_stack([px, py])], rounding=2)
            x += width + gap * rng.uniform(0.8, 1.2)

    def text(self, rect: Rect, text: str, *, script: bool = False) -> None:
        """Handwritten-looking text fitted into ``rect`` (mm)."""
        rng = self.rng
        font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX if script else cv2.FONT_HERSHEY_SIMPLEX
        thick_px = max(1, int(round(self.style.width_mm * self.ppm * 1.1)))
        (tw, th), base = cv2.getTextSize(text, font, 1.0, 1)
        height_mm = rect.h * rng.uniform(0.5, 0.8)
        scale = height_mm * self.ppm / max(th, 1)
        width_px = tw * scale
        if width_px > rect.w * self.ppm * 0.65:
            scale *= rect.w * self.ppm * 0.65 / width_px
        pad = int(thick_px * 3 + 4)
        w = int(tw * scale) + 2 * pad
        h = int((th + base) * scale) + 2 * pad
        patch8 = np.zeros((h, w), np.uint8)  # putText draws only into 8-bit images
        cv2.putText(patch8, text, (pad, pad + int(th * scale)), font, scale, 255, thick_px,
                    cv2.LINE_AA)
        patch = patch8.astype(np.float32) / 255.0
        shear = rng.uniform(-0.25, 0.05)
        rot = rng.normal(0, 0.04)
        m = np.array([[np.cos(rot), -np.sin(rot) + shear, 0], [np.sin(rot), np.cos(rot), 0]],
                     np.float32)
        m[:, 2] = np.array([w / 2, h / 2]) - m[:, :2] @ np.array([w / 2, h / 2])
        patch = cv2.warpAffine(patch, m, (w, h), flags=cv2.INTER_LINEAR)
        # the name line's rect starts with the printed label "name": write after it
        x0 = (rect.x + rect.w * rng.uniform(0.15, 0.3)) * self.ppm - pad
        y0 = (rect.y + rect.h * 0.5) * self.ppm - h / 2 + rng.normal(0, 0.05) * rect.h * self.ppm
        self._composite(patch * self.style.opacity, int(round(x0)), int(round(y0)))

    # ---------------------------------------------------------------- strokes
    def _draw(self, strokes: list[np.ndarray], *, rounding: int = 3,
              width_scale: float = 1.0) -> None:
        """Render strokes given in mm (sheet coordinates) and composite them."""
        s, rng, ppm = self.style, self.rng, self.ppm
        width_px = s.width_mm * ppm * width_scale
        # supersample thin pens so their edges stay smooth and their width exact
        ss = 1 if width_px >= 4 else (2 if width_px >= 2 else 4)
        margin_mm = s.width_mm * 2 + 0.5
        allpts = np.vstack(strokes)
        x0 = int(np.floor((allpts[:, 0].min() - margin_mm) * ppm))
        y0 = int(np.floor((allpts[:, 1].min() - margin_mm) * ppm))
        x1 = int(np.ceil((allpts[:, 0].max() + margin_mm) * ppm))
        y1 = int(np.ceil((allpts[:, 1].max() + margin_mm) * ppm))
        w, h = (x1 - x0) * ss, (y1 - y0) * ss
        alpha = np.zeros((h, w), np.float32)
        for pts in strokes:
            px = (pts * ppm - (x0, y0)) * ss
            path = _smooth_path(px, wobble=s.wobble * np.ptp(px, axis=0).max(), rng=rng,
                                step=max(0.7, width_px * ss * 0.25), rounding=rounding)
            layer = np.zeros_like(alpha)
            n = len(path)
            t = np.linspace(0, 1, n)
            pressure = _pressure(t, rng)
            radius = 0.5 * width_px * ss * (0.7 + 0.4 * pressure)
            shade = 1 - s.pen.pressure_shading * (1 - pressure)
            if s.pen.name.endswith("ballpoint") or s.pen.name == "red-pen":
                shade = shade * _ballpoint_skips(n, rng)
            for (x, y), r, v in zip(path, radius, shade, strict=True):
                cv2.circle(layer, (int(x * 16), int(y * 16)), max(1, int(r * 16)), float(v), -1,
                           cv2.LINE_AA, 4)
            np.maximum(alpha, layer, out=alpha)
        if ss > 1:
            alpha = cv2.resize(alpha, (w // ss, h // ss), interpolation=cv2.INTER_AREA)
        if s.pen.grain > 0:
            grain = rng.random(alpha.shape, dtype=np.float32)
            grain = cv2.GaussianBlur(grain, (0, 0), 0.6)
            alpha *= np.clip(1 - s.pen.grain + s.pen.grain * 2.2 * grain, 0, 1)
        elif s.pen.name == "felt-pen":
            alpha = cv2.GaussianBlur(alpha, (0, 0), max(0.3, 0.04 * width_px))
        self._composite(alpha * s.opacity, x0, y0)

    def _composite(self, alpha: np.ndarray, x0: int, y0: int) -> None:
        """Multiply the image under ``alpha`` (0..1, patch at x0, y0 px) by the ink."""
        img = self.image
        h, w = alpha.shape
        ix0, iy0 = max(0, x0), max(0, y0)
        ix1, iy1 = min(img.shape[1], x0 + w), min(img.shape[0], y0 + h)
        if ix1 <= ix0 or iy1 <= iy0:
            return
        a = np.clip(alpha[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0], 0, 1)[..., None]
        region = img[iy0:iy1, ix0:ix1].astype(np.float32)
        region *= 1.0 - a * self.absorb
        img[iy0:iy1, ix0:ix1] = np.clip(region + 0.5, 0, 255).astype(np.uint8)


def _smooth_path(points: np.ndarray, *, wobble: float, rng: np.random.Generator,
                 step: float, rounding: int = 3) -> np.ndarray:
    """A smooth, slightly trembling path through ``points`` (px), resampled
    every ``step`` px. Two-point strokes get a gentle bow like a real hand;
    ``rounding`` corner-cutting passes round the corners (fewer: sharper)."""
    pts = np.asarray(points, float)
    if len(pts) == 2:
        a, b = pts
        d = b - a
        normal = np.array([-d[1], d[0]])
        mid = (a + b) / 2 + normal * rng.normal(0, 0.06)
        pts = np.array([a, mid, b])
    for _ in range(rounding):  # Chaikin corner cutting keeps the ends and rounds the corners
        q = 0.75 * pts[:-1] + 0.25 * pts[1:]
        r = 0.25 * pts[:-1] + 0.75 * pts[1:]
        mids = np.empty((2 * len(q), 2))
        mids[0::2], mids[1::2] = q, r
        pts = np.vstack([pts[:1], mids, pts[-1:]])
    seg = np.hypot(*np.diff(pts, axis=0).T)
    dist = np.concatenate([[0], np.cumsum(seg)])
    n = max(2, int(dist[-1] / step) + 1)
    t = np.linspace(0, dist[-1], n)
    path = np.column_stack([np.interp(t, dist, pts[:, 0]), np.interp(t, dist, pts[:, 1])])
    if n > 3 and wobble > 0:
        tangent = np.gradient(path, axis=0)
        tangent /= np.maximum(np.hypot(*tangent.T), 1e-6)[:, None]
        normal = np.column_stack([-tangent[:, 1], tangent[:, 0]])
        u = t / max(t[-1], 1e-6)
        tremble = sum(rng.normal(0, 1) * np.sin(np.pi * f * u + rng.uniform(0, 6.3)) / f
                      for f in (1.0, 2.3, 4.1))
        path += normal * (wobble * 0.6 * tremble)[:, None]
    return path


def _pressure(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Pen pressure 0..1 along a stroke: lands, presses, lifts off."""
    attack = rng.uniform(0.05, 0.2)
    release = rng.uniform(0.1, 0.3)
    p = np.minimum(1, np.minimum(t / attack, (1 - t) / release) * 0.6 + 0.4)
    p = p * (1 + 0.12 * np.sin(2 * np.pi * (t * rng.uniform(0.5, 2) + rng.uniform(0, 1))))
    return np.clip(p, 0.25, 1.0)


def _ballpoint_skips(n: int, rng: np.random.Generator) -> np.ndarray:
    """Ballpoints skip a little: short lighter stretches along the stroke."""
    shade = np.ones(n)
    for _ in range(int(rng.poisson(0.8))):
        at, length = int(rng.integers(n)), int(rng.integers(2, max(3, n // 12)))
        shade[at:at + length] *= rng.uniform(0.35, 0.8)
    return shade


# Mark shapes: strokes in box half-size units, centre (0, 0), y down.
def _x_shape(rng: np.random.Generator) -> list[list[tuple[float, float]]]:
    a = [(-0.85, -0.85), (0.85, 0.85)]
    b = [(0.85, -0.85), (-0.85, 0.85)]
    if rng.random() < 0.3:
        b = b[::-1]
    return [a, b] if rng.random() < 0.7 else [b, a]


def _check_shape(rng: np.random.Generator) -> list[list[tuple[float, float]]]:
    return [[(-0.75, 0.05), (-0.25, 0.7), (0.85, -0.9)]]


def _slash_shape(rng: np.random.Generator) -> list[list[tuple[float, float]]]:
    if rng.random() < 0.8:
        return [[(0.8, -0.85), (-0.8, 0.85)]]
    return [[(-0.8, -0.85), (0.8, 0.85)]]


def _scribble_shape(rng: np.random.Generator) -> list[list[tuple[float, float]]]:
    passes = int(rng.integers(7, 22))  # from loose zigzags to a box filled edge to edge
    ys = np.linspace(-0.8, 0.8, passes)
    pts = []
    for i, y in enumerate(ys):
        x = -0.95 if i % 2 == 0 else 0.95
        pts.append((x + rng.normal(0, 0.08), y + rng.normal(0, 0.05)))
    return [pts]


def _zigzag_shape(rng: np.random.Generator) -> list[list[tuple[float, float]]]:
    passes = int(rng.integers(4, 8))
    reach = rng.uniform(0.75, 1.0)
    ys = np.linspace(-0.85, 0.85, passes) + rng.normal(0, 0.04, passes)
    start = -1 if rng.random() < 0.5 else 1
    return [[(start * (-1) ** i * reach + rng.normal(0, 0.06), y) for i, y in enumerate(ys)]]


def _shade_shape(rng: np.random.Generator, step: float) -> list[list[tuple[float, float]]]:
    """Even strokes ``step`` apart (box half-size units) within the outline."""
    passes = max(4, int(round(1.64 / step)) + 1)
    reach = rng.uniform(0.72, 0.9)
    ys = np.linspace(-0.82, 0.82, passes)
    pts = []
    for i, y in enumerate(ys):
        x = -reach if i % 2 == 0 else reach
        pts.append((x + rng.normal(0, 0.025), y + rng.normal(0, 0.015)))
    return [pts]


def _circle_shape(rng: np.random.Generator) -> list[list[tuple[float, float]]]:
    start = rng.uniform(0, 2 * np.pi)
    sweep = 2 * np.pi * rng.uniform(1.02, 1.18)
    a = np.linspace(start, start + sweep, 14)
    rx, ry = rng.uniform(0.75, 0.95), rng.uniform(0.75, 0.95)
    return [[(rx * np.cos(v), ry * np.sin(v)) for v in a]]


# Handwritten digits: strokes in a unit box (x right, y down), as people write them.
_DIGITS: dict[str, list[list[tuple[float, float]]]] = {
    "0": [[(0.5, 0.0), (0.12, 0.2), (0.08, 0.75), (0.5, 1.0), (0.9, 0.75), (0.88, 0.2),
           (0.5, 0.0), (0.4, 0.05)]],
    "1": [[(0.25, 0.25), (0.6, 0.0), (0.6, 1.0)]],
    "2": [[(0.1, 0.25), (0.35, 0.0), (0.75, 0.02), (0.88, 0.28), (0.1, 1.0), (0.95, 0.98)]],
    "3": [[(0.1, 0.1), (0.5, 0.0), (0.85, 0.2), (0.45, 0.47), (0.9, 0.72), (0.55, 1.0),
           (0.08, 0.88)]],
    "4": [[(0.6, 0.0), (0.05, 0.68), (0.95, 0.68)], [(0.7, 0.3), (0.68, 1.0)]],
    "5": [[(0.85, 0.0), (0.22, 0.02)], [(0.22, 0.02), (0.15, 0.45), (0.6, 0.38), (0.92, 0.65),
                                        (0.6, 1.0), (0.08, 0.9)]],
    "6": [[(0.8, 0.03), (0.3, 0.25), (0.1, 0.72), (0.45, 1.0), (0.88, 0.75), (0.55, 0.48),
           (0.12, 0.65)]],
    "7": [[(0.05, 0.02), (0.95, 0.0), (0.4, 1.0)]],
    "8": [[(0.55, 0.47), (0.15, 0.25), (0.5, 0.0), (0.85, 0.22), (0.5, 0.47), (0.1, 0.75),
           (0.5, 1.0), (0.9, 0.75), (0.55, 0.47)]],
    "9": [[(0.85, 0.3), (0.5, 0.5), (0.12, 0.3), (0.5, 0.0), (0.88, 0.25), (0.78, 1.0)]],
    "-": [[(0.1, 0.55), (0.9, 0.5)]],
}

_MARK_SHAPES = {"x": _x_shape, "check": _check_shape, "slash": _slash_shape,
                "scribble": _scribble_shape, "circle": _circle_shape, "zigzag": _zigzag_shape}
