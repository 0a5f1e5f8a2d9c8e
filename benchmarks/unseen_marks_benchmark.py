"""How the box reader copes with marks drawn unlike anything it learned from.

The box classifier was trained on photogen's hand-like strokes. Players,
and photos made by others, bring marks of other shapes: this script draws
them with a deliberately different, plain renderer (straight OpenCV lines
and ellipses of constant width, pure and odd ink colours, long skip lines
through several skipped numbers at a slant, marker-thick or hair-thin
pens, filled boxes), degrades the flat sheet the way a photo does
(benchmarks/reader_benchmark.py's ``degrade``) and reads it. What matters
most is the silent column: a sheet with a wrong box and no uncertain box
would be reported ``ok``.

    python benchmarks/unseen_marks_benchmark.py [--sheets 20] [--seed 7] [--show N]

Prints per kind of mark: sheets, wrong boxes, uncertain boxes, sheets read
exactly and silent sheets.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from photogen.play import play_sheet  # noqa: E402
from qwixx_print.layout import Rect, Sheet, load_layout  # noqa: E402
from qwixx_scan.blank import render_blank  # noqa: E402
from qwixx_scan.read import read_marks  # noqa: E402
from reader_benchmark import (READ_PX_PER_MM, SHEETS, SOURCE_PX_PER_MM,  # noqa: E402
                              degrade, random_degradation)

PPM = SOURCE_PX_PER_MM
#: Ink colours (BGR): pure blue, navy, black, pure red, dark green, purple,
#: light pencil grey, orange.
INKS = ((255, 0, 0), (110, 30, 10), (20, 20, 20), (0, 0, 220), (30, 110, 20),
        (140, 30, 120), (140, 140, 140), (0, 120, 240))
#: Kinds of crossing mark, each drawn with constant-width straight strokes.
#: (New kinds go last: each kind's sheets keep their seeds.) ``high-slash``:
#: a large, thick slash rising to the right, drawn a sixth to a fifth of
#: the box high, through the top of the box more than its middle;
#: ``light-zigzag``: one thin, light pencil stroke zigzagging down the box.
#: Independent photos showed both read empty with confidence
#: (benchmarks/foreign_photos.py --table, hard seed 35 photo 37 and seed 36
#: photo 24).
KINDS = ("line-x", "small-x", "big-x", "check", "slash", "circle", "fill", "thick-x",
         "thin-x", "turned-x", "plus", "hatch", "high-slash", "light-zigzag")


def _pt(x_mm: float, y_mm: float) -> tuple[int, int]:
    # cv2 drawing with 4 fractional bits: sub-pixel placement
    return round(x_mm * PPM * 16), round(y_mm * PPM * 16)


def _line(img: np.ndarray, a: tuple[float, float], b: tuple[float, float], ink, width_mm):
    cv2.line(img, _pt(*a), _pt(*b), ink, max(1, round(width_mm * PPM)), cv2.LINE_AA, 4)


def draw_mark(img: np.ndarray, r: Rect, kind: str, ink, width_mm: float,
              rng: np.random.Generator) -> None:
    """One crossing mark of ``kind`` in box ``r`` (mm)."""
    cx, cy = r.x + r.w / 2 + rng.normal(0, 0.6), r.y + r.h / 2 + rng.normal(0, 0.6)
    half = r.w / 2 * {"small-x": 0.45, "big-x": 1.3}.get(kind, rng.uniform(0.7, 1.0))
    if kind in ("line-x", "small-x", "big-x", "thick-x", "thin-x"):
        width = {"thick-x": 2.0, "thin-x": 0.18}.get(kind, width_mm)
        _line(img, (cx - half, cy - half), (cx + half, cy + half), ink, width)
        _line(img, (cx - half, cy + half), (cx + half, cy - half), ink, width)
    elif kind in ("turned-x", "plus"):
        # an X drawn turned 20-40 degrees, or a plus (turned 45): one stroke
        # of it may lie almost flat, like a skip line
        turn = np.radians(45 + rng.uniform(-4, 4) if kind == "plus" else
                          rng.choice([-1, 1]) * rng.uniform(20, 40))
        for angle in (np.pi / 4 + turn, -np.pi / 4 + turn):
            dx, dy = half * np.sqrt(2) * np.cos(angle), half * np.sqrt(2) * np.sin(angle)
            _line(img, (cx - dx, cy - dy), (cx + dx, cy + dy), ink, width_mm)
    elif kind == "check":
        _line(img, (cx - half, cy), (cx - half * 0.3, cy + half * 0.8), ink, width_mm)
        _line(img, (cx - half * 0.3, cy + half * 0.8), (cx + half, cy - half), ink, width_mm)
    elif kind == "slash":
        sign = rng.choice([-1, 1])
        _line(img, (cx - half, cy + sign * half), (cx + half, cy - sign * half), ink, width_mm)
    elif kind == "circle":
        axes = (round(half * 1.05 * PPM * 16), round(half * 0.95 * PPM * 16))
        cv2.ellipse(img, _pt(cx, cy), axes, float(rng.uniform(0, 180)), 0, 360, ink,
                    max(1, round(width_mm * PPM)), cv2.LINE_AA, 4)
    elif kind == "fill":
        y = r.y + 1.0
        while y < r.y + r.h - 1.0:  # zigzag hatching over the whole box
            _line(img, (r.x + 1.0, y), (r.x + r.w - 1.0, y + 0.8), ink, max(width_mm, 0.6))
            y += 0.9
    elif kind == "hatch":
        # light parallel diagonal strokes over the box, as a pencil shades it
        step = rng.uniform(0.8, 1.4)
        for k in np.arange(-r.h, r.w, step):
            a = (r.x + 0.8 + max(k, 0), r.y + 0.8 + max(-k, 0))
            length = min(r.w - 1.6 - max(k, 0), r.h - 1.6 - max(-k, 0))
            if length > 0.5:
                _line(img, a, (a[0] + length, a[1] + length), ink, min(width_mm, 0.35))
    elif kind == "high-slash":
        high_cy = r.y + r.h / 2 - r.h * rng.uniform(0.15, 0.22)
        big = r.w / 2 * rng.uniform(1.15, 1.3)
        rise = big * rng.uniform(0.55, 0.75)
        _line(img, (cx - big, high_cy + rise), (cx + big, high_cy - rise), ink,
              rng.uniform(0.8, 1.0))
    elif kind == "light-zigzag":
        pencil = (175, 175, 175)
        step = rng.uniform(1.2, 1.8)
        ys = np.arange(r.y + 1.0, r.y + r.h - 1.0, step / 2)
        xs = [r.x + 1.0 if k % 2 == 0 else r.x + r.w - 1.0 for k in range(len(ys))]
        for a, b in zip(zip(xs, ys), zip(xs[1:], ys[1:])):  # one stroke, to and fro
            _line(img, a, b, pencil, 0.3)
    else:
        raise ValueError(kind)


def draw_skip_lines(img: np.ndarray, sheet: Sheet, skipped: list[str], ink, width_mm: float,
                    rng: np.random.Generator) -> None:
    """One horizontal-ish line through each run of neighbouring skipped numbers."""
    runs: list[list[Rect]] = []
    last = None
    for box_id in skipped:
        box = sheet.box(box_id)
        if last is not None and last.row == box.row and \
                abs(box.rect.x - last.rect.x) < box.rect.w * 1.5:  # next to each other
            runs[-1].append(box.rect)
        else:
            runs.append([box.rect])
        last = box
    for rects in runs:
        x0 = rects[0].x + rects[0].w * rng.uniform(0.15, 0.3)
        x1 = rects[-1].x + rects[-1].w * rng.uniform(0.7, 0.85)
        cy = rects[0].y + rects[0].h / 2 + rng.normal(0, 0.5)
        slope = np.tan(np.radians(rng.uniform(-6, 6)))
        _line(img, (x0, cy - slope * (x1 - x0) / 2), (x1, cy + slope * (x1 - x0) / 2), ink,
              width_mm)


def draw_extras(img: np.ndarray, sheet: Sheet, ink, rng: np.random.Generator) -> None:
    """Totals written in the total fields and a name on the name line (plain font)."""
    for _, rect in sheet.furniture.totals:
        text = str(int(rng.integers(0, 99)))
        cv2.putText(img, text, (round((rect.x + 1.5) * PPM), round((rect.y + rect.h - 2) * PPM)),
                    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 0.11 * PPM, ink, max(1, round(0.4 * PPM)),
                    cv2.LINE_AA)
    line = sheet.furniture.name_line
    cv2.putText(img, "Mia", (round((line.x + 3) * PPM), round((line.y + line.h - 1) * PPM)),
                cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 0.1 * PPM, ink, max(1, round(0.4 * PPM)),
                cv2.LINE_AA)


def run_sheet(seed: int, kind: str, blanks: dict) -> tuple[list[str], list[str], Sheet]:
    """Draw, degrade and read one sheet: its wrong and uncertain box ids, and the sheet."""
    rng = np.random.default_rng(seed)
    layout, letter = SHEETS[seed % len(SHEETS)]
    sheet = load_layout(layout).sheet(letter)
    if (layout, letter) not in blanks:
        blanks[(layout, letter)] = render_blank(sheet, PPM)
    truth = play_sheet(sheet, rng, skip_line_share=0.7)
    ink = tuple(int(c) for c in INKS[int(rng.integers(len(INKS)))])
    width_mm = float(rng.uniform(0.3, 0.8))
    img = blanks[(layout, letter)].copy()
    for box_id in truth.marked:
        draw_mark(img, sheet.box(box_id).rect, kind, ink, width_mm, rng)
    draw_skip_lines(img, sheet, truth.skip_lined, ink, width_mm, rng)
    draw_extras(img, sheet, ink, rng)
    rectified = degrade(img, PPM, random_degradation(rng, hard=rng.random() < 0.25), rng)
    verdicts = read_marks(rectified, sheet, px_per_mm=READ_PX_PER_MM)
    marked = set(truth.marked)
    wrong = [b for b, v in verdicts.items()
             if v.state != "uncertain" and (v.state == "crossed") != (b in marked)]
    uncertain = [b for b, v in verdicts.items() if v.state == "uncertain"]
    return wrong, uncertain, sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sheets", type=int, default=20, help="sheets per kind of mark")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", type=int, default=10, help="misread sheets to list")
    parser.add_argument("--kind", action="append", choices=KINDS,
                        help="only these kinds of mark (repeat; default all)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    blanks: dict = {}
    tally: dict[str, Counter] = defaultdict(Counter)
    examples = []
    for k, kind in enumerate(KINDS):
        if args.kind and kind not in args.kind:
            continue
        for i in range(args.sheets):
            seed = args.seed * 1_000_000 + k * 10_000 + i
            wrong, uncertain, sheet = run_sheet(seed, kind, blanks)
            t = tally[kind]
            t["sheets"] += 1
            t["boxes"] += len(sheet.boxes)
            t["wrong"] += len(wrong)
            t["uncertain"] += len(uncertain)
            t["exact"] += not wrong and not uncertain
            t["silent"] += bool(wrong) and not uncertain
            if wrong or uncertain:
                examples.append(f"{kind} seed {seed} {sheet.layout} {sheet.letter}: wrong {wrong} "
                                f"uncertain {uncertain}" + ("   <-- SILENT" if wrong and not
                                                            uncertain else ""))
    print(f"{'marks':12} {'sheets':>6} {'boxes':>6} {'wrong':>6} {'uncertain':>9} "
          f"{'exact':>6} {'silent':>6}")
    total = Counter()
    for kind in tally:
        t = tally[kind]
        total.update(t)
        print(f"{kind:12} {t['sheets']:6} {t['boxes']:6} {t['wrong']:6} {t['uncertain']:9} "
              f"{t['exact']:6} {t['silent']:6}")
    print(f"{'all':12} {total['sheets']:6} {total['boxes']:6} {total['wrong']:6} "
          f"{total['uncertain']:9} {total['exact']:6} {total['silent']:6}")
    examples.sort(key=lambda line: "SILENT" not in line)
    for line in examples[:args.show]:
        print("  " + line)


if __name__ == "__main__":
    main()
