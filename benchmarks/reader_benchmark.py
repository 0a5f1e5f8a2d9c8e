"""Accuracy and speed of the box reader (``qwixx_scan.read.read_marks``).

For many sheets (fixed seeds): render the blank sheet, let ``photogen``
play a game on it and draw the marks with hand-like strokes, then degrade
the flat image the way rectifying a phone photo leaves it (residual
misregistration: a small affine error plus a smooth warp of up to ~1.5 mm;
a lighting gradient, a soft shadow and a colour cast; resampling through a
photo resolution of 4..20 px/mm; optical blur, sensor noise, JPEG), bring
it back to 8 px/mm and read it.

Prints: box error rate (a crossed box read as not crossed or the reverse;
uncertain boxes are not errors), share of sheets read exactly, silent
errors (a wrong box on a sheet with no uncertain box: it would be reported
``ok``), the share of correctly read sheets sent to review, and the
reading time per sheet.

    python benchmarks/reader_benchmark.py [--sheets 300] [--hard 0.25] [--seed 1]
                                          [--show-errors DIR]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from photogen.play import play_sheet  # noqa: E402
from photogen.strokes import draw_sheet_marks_detailed, random_style  # noqa: E402
from qwixx_print.layout import load_layout  # noqa: E402
from qwixx_scan.blank import render_blank  # noqa: E402
from qwixx_scan.read import read_marks  # noqa: E402

READ_PX_PER_MM = 8.0
SOURCE_PX_PER_MM = 16.0
SHEETS = [("classic", None)] + [("treden", x) for x in "ABCDE"] + \
         [("kettingen", x) for x in "ABCDE"]


def drawn_sheet(rng: np.random.Generator, blanks: dict, ppm: float):
    """One of SHEETS, drawn by ``rng``, and its blank at ``ppm`` px/mm (BGR;
    rendered once into ``blanks``)."""
    layout, letter = SHEETS[int(rng.integers(len(SHEETS)))]
    sheet = load_layout(layout).sheet(letter)
    if (layout, letter) not in blanks:
        blanks[(layout, letter)] = render_blank(sheet, ppm)
    return sheet, blanks[(layout, letter)]


@dataclass(frozen=True)
class Degradation:
    """How much the simulated photo and rectification spoil the flat sheet."""

    photo_px_per_mm: float
    misregistration_mm: float  # peak of the smooth warp
    affine_mm: float  # translation error
    rotation_deg: float
    blur_px: float  # optical blur sigma, in photo pixels
    noise: float  # sensor noise sigma, 0..255 units at mid grey
    jpeg_quality: int
    gradient: float  # darkest corner's light, relative to the brightest
    shadow: float  # light under the shadow (1 = none)
    shadow_softness_mm: float
    cast: tuple[float, float, float]  # BGR gains (white balance error)
    #: Noise in blotches GRAIN_PX photo pixels wide, per channel, 0..255
    #: units: a phone's grain in dim light, brightened by its gain and
    #: spread by demosaicing (colour speckle that the reader's downsampling
    #: does not average away as it does pixel noise).
    grain: float = 0.0


#: Blotch width of Degradation.grain (photo pixels).
GRAIN_PX = 3


def random_degradation(rng: np.random.Generator, hard: bool) -> Degradation:
    shadow = rng.random() < (0.5 if hard else 0.25)
    return Degradation(
        photo_px_per_mm=float(rng.uniform(4.0, 7.0) if hard else rng.uniform(6.0, 20.0)),
        misregistration_mm=float(rng.uniform(0.4, 1.5) if hard else rng.uniform(0.1, 0.9)),
        affine_mm=float(rng.uniform(0.0, 0.6)),
        rotation_deg=float(rng.normal(0, 0.25)),
        blur_px=float(rng.uniform(0.6, 1.6) if hard else rng.uniform(0.3, 1.0)),
        noise=float(rng.uniform(3, 9) if hard else rng.uniform(1, 4)),
        jpeg_quality=int(rng.integers(35, 70) if hard else rng.integers(60, 95)),
        gradient=float(rng.uniform(0.45, 0.75) if hard else rng.uniform(0.7, 1.0)),
        shadow=float(rng.uniform(0.45, 0.75)) if shadow else 1.0,
        shadow_softness_mm=float(rng.uniform(3, 15)),
        cast=tuple(float(g) for g in rng.uniform(0.8, 1.05, 3)),
    )


def smooth_field(rng: np.random.Generator, shape: tuple[int, int], amplitude: float,
                 cells: int = 4) -> np.ndarray:
    """A smooth random field (cubic upsampling of a coarse grid) peaking near +-amplitude."""
    coarse = rng.normal(0, 1, (cells, cells)).astype(np.float32)
    field = cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    return field * (amplitude / max(float(np.abs(field).max()), 1e-6))


def degrade(flat: np.ndarray, src_ppm: float, d: Degradation,
            rng: np.random.Generator) -> np.ndarray:
    """Simulate photo + rectification of a flat sheet image (BGR uint8 at src_ppm).

    Returns the rectified image at READ_PX_PER_MM.
    """
    h_mm, w_mm = flat.shape[0] / src_ppm, flat.shape[1] / src_ppm
    ppm = d.photo_px_per_mm
    ph, pw = round(h_mm * ppm), round(w_mm * ppm)
    # Light: gradient, shadow, colour cast, applied on the paper (multiplicative).
    light = _lighting(rng, (ph, pw), ppm, d)
    # Photo pixel (u, v) sees sheet mm (u/ppm, v/ppm) displaced by the local
    # misregistration: this is what the rectified image carries as error.
    yy, xx = np.mgrid[0:ph, 0:pw].astype(np.float32)
    xm, ym = xx / ppm, yy / ppm
    theta = np.deg2rad(d.rotation_deg)
    cx, cy = w_mm / 2, h_mm / 2
    shift = rng.normal(0, 1, 2) * d.affine_mm / np.sqrt(2)
    ax = cx + np.cos(theta) * (xm - cx) - np.sin(theta) * (ym - cy) + shift[0]
    ay = cy + np.sin(theta) * (xm - cx) + np.cos(theta) * (ym - cy) + shift[1]
    ax += smooth_field(rng, (ph, pw), d.misregistration_mm)
    ay += smooth_field(rng, (ph, pw), d.misregistration_mm)
    source = flat
    if ppm < src_ppm:  # anti-alias like a sensor integrating over its pixels
        sigma = 0.5 * src_ppm / ppm
        source = cv2.GaussianBlur(flat, (0, 0), sigma)
    photo = cv2.remap(source, (ax * src_ppm).astype(np.float32),
                      (ay * src_ppm).astype(np.float32), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    photo *= light
    if d.blur_px > 0:
        photo = cv2.GaussianBlur(photo, (0, 0), d.blur_px)
    noise_sigma = d.noise * np.sqrt(np.clip(photo, 1, 255) / 128.0)
    photo += rng.normal(0, 1, photo.shape).astype(np.float32) * noise_sigma
    if d.grain > 0:
        blotches = rng.normal(0, d.grain, (max(ph // GRAIN_PX, 1), max(pw // GRAIN_PX, 1), 3))
        photo += cv2.resize(blotches.astype(np.float32), (pw, ph), interpolation=cv2.INTER_LINEAR)
    photo = np.clip(photo, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, d.jpeg_quality])
    photo = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    out_w, out_h = round(w_mm * READ_PX_PER_MM), round(h_mm * READ_PX_PER_MM)
    interp = cv2.INTER_AREA if ppm > READ_PX_PER_MM else cv2.INTER_LINEAR
    return cv2.resize(photo, (out_w, out_h), interpolation=interp)


def _lighting(rng: np.random.Generator, shape: tuple[int, int], ppm: float,
              d: Degradation) -> np.ndarray:
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = np.cos(angle) * xx / w + np.sin(angle) * yy / h
    ramp = (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1e-6)
    light = d.gradient + (1 - d.gradient) * ramp
    if d.shadow < 1.0:
        mask = np.zeros((h, w), np.float32)
        pts = np.array([[rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h]
                        for _ in range(4)], np.int32)
        cv2.fillPoly(mask, [cv2.convexHull(pts)], 1.0)
        mask = cv2.GaussianBlur(mask, (0, 0), d.shadow_softness_mm * ppm / 2)
        light = light * (1 - (1 - d.shadow) * mask)
    light = light[..., None] * np.array(d.cast, np.float32)
    return light * 0.97  # exposure leaves paper a little below full scale


@dataclass
class SheetResult:
    seed: int
    hard: bool
    wrong: list[str]
    uncertain: list[str]
    boxes: int
    seconds: float


def run_one(seed: int, hard: bool, blanks: dict, show_dir: Path | None) -> SheetResult:
    rng = np.random.default_rng(seed)
    layout, letter = SHEETS[seed % len(SHEETS)]
    sheet = load_layout(layout).sheet(letter)
    key = (layout, letter)
    if key not in blanks:
        blanks[key] = render_blank(sheet, SOURCE_PX_PER_MM)
    truth = play_sheet(sheet, rng)
    style = random_style(rng, hard=hard)
    flat, _ = draw_sheet_marks_detailed(blanks[key], sheet, SOURCE_PX_PER_MM, truth, style, rng)
    d = random_degradation(rng, hard)
    rectified = degrade(flat, SOURCE_PX_PER_MM, d, rng)
    t0 = time.perf_counter()
    verdicts = read_marks(rectified, sheet, px_per_mm=READ_PX_PER_MM)
    seconds = time.perf_counter() - t0
    marked = set(truth.marked)
    wrong, uncertain = [], []
    for box_id, v in verdicts.items():
        if v.state == "uncertain":
            uncertain.append(box_id)
        elif (v.state == "crossed") != (box_id in marked):
            wrong.append(box_id)
    if show_dir and (wrong or uncertain):
        show_dir.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(show_dir / f"sheet{seed}.png"), _overlay(rectified, sheet, verdicts,
                                                                 marked))
        print(f"  seed {seed} {layout} {letter} {style.kind}/{style.pen.name} hard={hard} "
              f"ppm={d.photo_px_per_mm:.1f} warp={d.misregistration_mm:.2f}: "
              f"wrong {[(b, verdicts[b].note) for b in wrong]} "
              f"uncertain {[(b, verdicts[b].note) for b in uncertain]}")
    return SheetResult(seed, hard, wrong, uncertain, len(verdicts), seconds)


def _overlay(image: np.ndarray, sheet, verdicts, marked) -> np.ndarray:
    out = image.copy()
    colours = {"crossed": (0, 160, 0), "empty": (200, 200, 200), "uncertain": (0, 140, 255)}
    for box in sheet.boxes:
        v = verdicts[box.id]
        r = box.rect
        p = READ_PX_PER_MM
        wrong = v.state != "uncertain" and (v.state == "crossed") != (box.id in marked)
        colour = (0, 0, 255) if wrong else colours[v.state]
        cv2.rectangle(out, (round(r.x * p), round(r.y * p)),
                      (round((r.x + r.w) * p), round((r.y + r.h) * p)), colour, 2)
        if v.note:
            cv2.putText(out, v.note[:10], (round(r.x * p), round((r.y + r.h) * p) + 8),
                        cv2.FONT_HERSHEY_PLAIN, 0.7, colour, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sheets", type=int, default=300)
    parser.add_argument("--hard", type=float, default=0.25, help="share of hard sheets")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--show-errors", type=Path, default=None,
                        help="write an overlay PNG of every sheet with a wrong or uncertain box")
    args = parser.parse_args()
    blanks: dict = {}
    results = []
    for k in range(args.sheets):
        seed = args.seed + k
        hard = (k % 100) < round(args.hard * 100)
        results.append(run_one(seed, hard, blanks, args.show_errors))
    report(results)


def report(results: list[SheetResult]) -> None:
    boxes = sum(r.boxes for r in results)
    wrong = sum(len(r.wrong) for r in results)
    exact = sum(not r.wrong and not r.uncertain for r in results)
    silent = sum(bool(r.wrong) and not r.uncertain for r in results)
    right_sheets = [r for r in results if not r.wrong]
    review_of_right = sum(bool(r.uncertain) for r in right_sheets)
    n = len(results)
    times = np.array([r.seconds for r in results]) * 1000
    print(f"sheets {n} ({sum(r.hard for r in results)} hard), boxes {boxes}")
    print(f"box error rate        {wrong / boxes:.6f}  ({wrong} wrong boxes; target <= 0.0001)")
    print(f"uncertain boxes       {sum(len(r.uncertain) for r in results)}")
    print(f"sheets read exactly   {exact / n:.2%}  (target >= 99.5%)")
    print(f"silent errors         {silent}  (sheets wrong with no uncertain box; target 0)")
    print(f"review share of sheets read right  {review_of_right / max(1, len(right_sheets)):.2%}"
          "  (target <= 5%)")
    print(f"read time per sheet   median {np.median(times):.1f} ms, max {times.max():.1f} ms")
    for label, subset in (("easy", [r for r in results if not r.hard]),
                          ("hard", [r for r in results if r.hard])):
        if subset:
            print(f"  {label}: {len(subset)} sheets, exact "
                  f"{sum(not r.wrong and not r.uncertain for r in subset) / len(subset):.2%}, "
                  f"wrong boxes {sum(len(r.wrong) for r in subset)}, "
                  f"sheets with uncertain {sum(bool(r.uncertain) for r in subset)}")


if __name__ == "__main__":
    main()
