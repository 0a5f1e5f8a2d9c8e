"""How the box networks read boxes filled in with a pencil, drawn four ways.

Players fill a box in as well as cross it, and a light pencil fill was the
largest group of independent photos sent to review. This script draws the
same played sheets four ways on the flat blank: the independent
generator's light fill (benchmarks/foreign_photos.py: even strokes with
gaps, inside the outline), photogen's pencil scribble, and photogen's
``shade`` and ``dense-shade`` (the kinds the networks were taught, see
training/train_box_classifier.py ``tune``), degrades each the same way
(the training's wide degradation, without hard shadows, so that the mark
alone differs) and asks the networks about every crossed box.

    python benchmarks/fill_benchmark.py [--sheets 30] [--seed 1000]

Prints per way of drawing: the share of crossed boxes the combined networks
read crossed, doubtful and empty, and per network (a-e) the share it gives
0.9 or more and 0.2 or less (a network sure of an empty box vetoes a cross).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "training"))

import foreign_photos as independent  # noqa: E402
from photogen.play import play_sheet  # noqa: E402
from photogen.strokes import draw_sheet_marks_detailed, random_style  # noqa: E402
from qwixx_print.layout import load_layout  # noqa: E402
from qwixx_scan.blank import blank_reference, render_blank  # noqa: E402
from qwixx_scan.box_model import MEMBERS, box_classifier, combine  # noqa: E402
from qwixx_scan.box_inputs import box_inputs  # noqa: E402
from qwixx_scan.verdict import CROSSED_P, EMPTY_P  # noqa: E402
from reader_benchmark import READ_PX_PER_MM, degrade  # noqa: E402
from train_box_classifier import wide_degradation  # noqa: E402

PPM = 16.0
WAYS = ("independent fill", "photogen scribble", "photogen shade", "photogen dense shade")


def independent_fill(blank: np.ndarray, sheet, marked: list[str],
                     rng: np.random.Generator) -> np.ndarray:
    """The independent generator's pencil fill of ``marked`` on ``blank``."""
    mask = np.zeros(blank.shape[:2], np.float32)
    pen = independent.Pen(mask, PPM, float(rng.uniform(0.28, 0.6)), rng, True)
    style = independent.MarkStyle("fill", "pencil", pen.width, 0.8)
    for box_id in marked:
        independent.draw_cross(pen, sheet.box(box_id).rect, style, rng)
    colour, density = independent.INKS["pencil"]
    coverage = mask * density
    grain = np.empty(mask.shape, np.float32)
    cv2.randu(grain, 0.45, 1.0)
    coverage *= cv2.GaussianBlur(grain, (0, 0), 0.6)
    factor = cv2.merge([1.0 - coverage * (1.0 - c / 255.0) for c in colour])
    return cv2.multiply(blank, factor, dtype=cv2.CV_8U)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sheets", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    sheet = load_layout("kettingen").sheet("B")
    blank = render_blank(sheet, PPM)
    ref = blank_reference(sheet, READ_PX_PER_MM)
    classifier = box_classifier()
    found: dict[str, list[np.ndarray]] = {way: [] for way in WAYS}
    for k in range(args.sheets):
        rng = np.random.default_rng(args.seed + k)
        truth = play_sheet(sheet, rng)
        degradation, _ = wide_degradation(rng)
        degradation = replace(degradation, shadow=1.0)
        images = {"independent fill": independent_fill(blank, sheet, truth.marked, rng)}
        for way, kind in (("photogen scribble", "scribble"), ("photogen shade", "shade"),
                          ("photogen dense shade", "dense-shade")):
            style = random_style(rng, kind=kind, pen="pencil", style_mix=0.0)
            images[way], _ = draw_sheet_marks_detailed(blank.copy(), sheet, PPM, truth, style, rng)
        crossed = np.array([b.id in set(truth.marked) for b in sheet.boxes])
        for way, image in images.items():
            rectified = degrade(image, PPM, degradation, np.random.default_rng(k))
            inputs, _ = box_inputs(rectified, sheet, ref)
            found[way].append(classifier.each_probability(inputs)[:, crossed])
    print(f"{'drawn as':20} {'boxes':>6} {'crossed':>8} {'doubtful':>8} {'empty':>6}   "
          + "  ".join(f"{m}: 0.9+/0.2-" for m in MEMBERS))
    for way, parts in found.items():
        p = np.hstack(parts)
        c = combine(p)
        nets = "  ".join(f"{np.mean(q >= 0.9):5.1%}/{np.mean(q <= 0.2):4.1%}" for q in p)
        print(f"{way:20} {len(c):6} {np.mean(c >= CROSSED_P):8.1%} "
              f"{np.mean((c > EMPTY_P) & (c < CROSSED_P)):8.1%} {np.mean(c <= EMPTY_P):6.1%}   "
              + nets)


if __name__ == "__main__":
    main()
