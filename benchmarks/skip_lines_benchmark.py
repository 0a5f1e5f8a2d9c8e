"""How the box networks read lines through skipped numbers, by their tilt.

Players strike through the numbers they skip; the rules even advise it. Such
a line is not a cross, but a steep one looks like a slash, which is. This
script draws played sheets flat, every player lining every skipped number
(photogen's marks otherwise, every pen and kind at photogen's odds), the
lines tilted evenly up to --max-tilt degrees either way
(photogen.strokes.draw_sheet_marks_detailed's ``skip_tilt_deg``), degrades
each sheet the training's wide way (no hard shadows) and asks the networks about every box.

    python benchmarks/skip_lines_benchmark.py [--sheets 60] [--seed 7000] [--max-tilt 30]

Prints, per band of tilt, the share of lined boxes the combined networks
read crossed (a wrong box: the worst), doubtful and empty, with the
reader's doubt of crosses that look like such lines on a sheet whose
player's crosses do not (qwixx_scan.their_crosses.SKIP_LIKE_TILT_DEG,
RISING_SKIP_INK) and without it, and below them how the sheets' crossed
boxes read (they must not suffer for it).
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
from photogen.strokes import draw_sheet_marks_detailed, random_style  # noqa: E402
from qwixx_scan.blank import blank_reference  # noqa: E402
from qwixx_scan.box_model import box_classifier  # noqa: E402
from qwixx_scan.box_inputs import box_inputs  # noqa: E402
from qwixx_scan.skip_lines import paper_grain  # noqa: E402
from qwixx_scan.their_crosses import read_crossed, skip_like_crosses  # noqa: E402
from qwixx_scan.verdict import CROSSED_P, EMPTY_P  # noqa: E402
from reader_benchmark import READ_PX_PER_MM, degrade, drawn_sheet  # noqa: E402
from train_box_classifier import wide_degradation  # noqa: E402

PPM = 16.0
BAND_DEG = 5.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sheets", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--max-tilt", type=float, default=30.0,
                        help="lines tilted evenly up to this many degrees either way")
    args = parser.parse_args()
    if args.sheets < 1:
        parser.error("--sheets must be 1 or more")
    if not 0 < args.max_tilt <= 45:
        parser.error("--max-tilt must be above 0 and at most 45 degrees")
    cv2.setNumThreads(1)
    classifier = box_classifier()
    blanks: dict = {}
    tilts, lined_p, crossed_p, lined_like, crossed_like = [], [], [], [], []
    for k in range(args.sheets):
        rng = np.random.default_rng(args.seed + k)
        sheet, blank = drawn_sheet(rng, blanks, PPM)
        truth = play_sheet(sheet, rng, skip_line_share=1.0)
        degradation, hard = wide_degradation(rng)
        degradation = replace(degradation, shadow=1.0)  # a hard shadow's edge is another matter
        style = random_style(rng, hard=hard, style_mix=0.25)
        printed = print_sheet(blank, random_printer(rng))
        image, report = draw_sheet_marks_detailed(printed, sheet, PPM, truth, style, rng,
                                                  skip_tilt_deg=args.max_tilt)
        rectified = degrade(image, PPM, degradation, np.random.default_rng(k))
        inputs, ink_mm2 = box_inputs(rectified, sheet, blank_reference(sheet, READ_PX_PER_MM))
        p = classifier.crossed_probability(inputs)
        like = skip_like_crosses(inputs, read_crossed(p), ink_mm2[:, 0],
                                 np.array([b.kind == "number" for b in sheet.boxes]), p,
                                 grain=paper_grain(inputs, p <= EMPTY_P))
        ids = [b.id for b in sheet.boxes]
        for box_id, tilt in report.skip_tilts.items():
            tilts.append(abs(tilt))
            lined_p.append(p[ids.index(box_id)])
            lined_like.append(like[ids.index(box_id)])
        crossed_p += [p[ids.index(box_id)] for box_id in truth.marked]
        crossed_like += [like[ids.index(box_id)] for box_id in truth.marked]
    tilts, lined_p, crossed_p = map(np.array, (tilts, lined_p, crossed_p))
    lined_like, crossed_like = np.array(lined_like, bool), np.array(crossed_like, bool)
    print(f"{'lines tilted':16} {'lines':>6} {'read: crossed':>14} {'doubtful':>9} {'empty':>7}"
          f"   {'networks alone: crossed':>23}")
    for lo in np.arange(0.0, args.max_tilt, BAND_DEG):
        hi = min(lo + BAND_DEG, args.max_tilt)
        band = (tilts >= lo) & (tilts < hi)
        if band.any():
            print(f"{lo:4.0f}-{hi:2.0f} degrees    {np.count_nonzero(band):6d} "
                  + _states(lined_p[band], lined_like[band])
                  + f"   {np.mean(lined_p[band] >= CROSSED_P):23.1%}")
    print(f"{'crossed boxes':16} {len(crossed_p):6d} " + _states(crossed_p, crossed_like)
          + f"   {np.mean(crossed_p >= CROSSED_P):23.1%}")


def _states(p: np.ndarray, skip_like: np.ndarray) -> str:
    """The shares of boxes read crossed, doubtful and empty, a cross that
    looks like a line through a skipped number counted doubtful."""
    crossed = (p >= CROSSED_P) & ~skip_like
    empty = p <= EMPTY_P
    return f"{np.mean(crossed):14.1%} {np.mean(~crossed & ~empty):9.1%} {np.mean(empty):7.1%}"


if __name__ == "__main__":
    main()
