"""How the box networks read boxes with a die or a pen lying beside them.

At the end of a game the dice and pens lie on the table, and on the sheets:
one at a box's edge is in the window the networks look at. This script
draws played sheets flat (photogen's marks, every pen and kind at photogen's
odds), lays dice and pen ends beside boxes (photogen.scene.
lay_objects_by_boxes: up to 0.8 mm into a box past its outline, never over
its inside), degrades each sheet the training's wide way (no hard shadows)
and asks the networks about every box, once with the objects and once
without them (the same sheet, the same degradation).

    python benchmarks/objects_benchmark.py [--sheets 40] [--seed 3000] [--pen P] [--kind K]

Prints, for the boxes an object lies beside (its outline within the box's
window) and for the same boxes with nothing beside them: the share of
crossed boxes the combined networks read crossed, doubtful and empty (a
miss: the worst, a wrong box unless something else doubts the sheet), and
of empty boxes read crossed and doubtful.
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

from photogen.play import play_sheet  # noqa: E402
from photogen.printer import print_sheet, random_printer  # noqa: E402
from photogen.scene import boxes_beside, lay_objects_by_boxes  # noqa: E402
from photogen.strokes import (EXTRA_KINDS, MARK_KINDS, PENS,  # noqa: E402
                              draw_sheet_marks_detailed, random_style)
from qwixx_scan.blank import blank_reference  # noqa: E402
from qwixx_scan.box_model import box_classifier  # noqa: E402
from qwixx_scan.box_inputs import WINDOW_MM, box_inputs  # noqa: E402
from qwixx_scan.verdict import CROSSED_P, EMPTY_P  # noqa: E402
from reader_benchmark import READ_PX_PER_MM, degrade, drawn_sheet  # noqa: E402
from train_box_classifier import wide_degradation  # noqa: E402

PPM = 16.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sheets", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3000)
    parser.add_argument("--objects", type=int, default=6, help="objects laid per sheet (at most)")
    parser.add_argument("--pen", choices=sorted(PENS), help="every sheet with this pen")
    parser.add_argument("--kind", choices=MARK_KINDS + EXTRA_KINDS,
                        help="every sheet marked this way")
    args = parser.parse_args()
    if args.objects < 1 or args.sheets < 1:
        parser.error("--objects and --sheets must be 1 or more")
    cv2.setNumThreads(1)
    classifier = box_classifier()
    blanks: dict = {}
    rows = {"with": [], "without": []}  # (crossed?, combined p) of boxes beside an object
    for k in range(args.sheets):
        rng = np.random.default_rng(args.seed + k)
        sheet, blank = drawn_sheet(rng, blanks, PPM)
        truth = play_sheet(sheet, rng)
        degradation, hard = wide_degradation(rng)
        degradation = replace(degradation, shadow=1.0)
        style = random_style(rng, hard=hard, style_mix=0.25, pen=args.pen, kind=args.kind)
        printed = print_sheet(blank, random_printer(rng))
        plain, _ = draw_sheet_marks_detailed(printed, sheet, PPM, truth, style, rng)
        laid = plain.copy()
        outlines = lay_objects_by_boxes(laid, sheet, PPM, rng, args.objects)
        near = boxes_beside(sheet, outlines, WINDOW_MM)
        crossed = np.array([b.id in set(truth.marked) for b in sheet.boxes])
        ref = blank_reference(sheet, READ_PX_PER_MM)
        for name, image in (("with", laid), ("without", plain)):
            rectified = degrade(image, PPM, degradation, np.random.default_rng(k))
            inputs, _ = box_inputs(rectified, sheet, ref)
            p = classifier.crossed_probability(inputs[near])
            rows[name] += list(zip(crossed[near], p))
    print(f"{'boxes beside an object':28} {'crossed':>8} {'read: crossed':>14} {'doubtful':>9} "
          f"{'empty':>7}   {'empty':>6} {'read: crossed':>14} {'doubtful':>9}")
    for name, label in (("with", "the object there"), ("without", "nothing there")):
        got = np.array(rows[name], float).reshape(-1, 2)
        c, p = got[:, 0] == 1, got[:, 1]
        doubtful = (p > EMPTY_P) & (p < CROSSED_P)
        print(f"{label:28} {c.sum():8.0f} {np.mean(p[c] >= CROSSED_P):14.1%} "
              f"{np.mean(doubtful[c]):9.1%} {np.mean(p[c] <= EMPTY_P):7.1%}"
              f"   {(~c).sum():6.0f} {np.mean(p[~c] >= CROSSED_P):14.1%} "
              f"{np.mean(doubtful[~c]):9.1%}")


if __name__ == "__main__":
    main()
