"""Toss-ups on a pen player's sheet that hold none of their pen's ink (qwixx_scan.pen_toss_ups)."""

from __future__ import annotations

import numpy as np
from scan_support import independent_photo_sheet, spoilt_photo_sheet

from qwixx_scan.pen_toss_ups import PENLESS_EMPTY, penless_toss_ups
from qwixx_scan.verdict import DOUBTFUL_MARK, BoxVerdict

CROSSES = 6
TOSS_UP = CROSSES  # the box after the crosses


def _sheet(deep_of_crosses: float, toss_up_deep: float, toss_up_dark: int = 10):
    """Verdicts, deep ink and darkened paper of a sheet: CROSSES boxes read
    crossed, each holding ``deep_of_crosses`` mm^2 of deep ink and 100
    darkened pixels, one toss-up and three boxes read empty."""
    verdicts = ([BoxVerdict(f"red-{k + 2}", "crossed", 1.0, "") for k in range(CROSSES)]
                + [BoxVerdict("red-8", "uncertain", 0.5, DOUBTFUL_MARK)]
                + [BoxVerdict(f"red-{k}", "empty", 1.0, "") for k in (9, 10, 11)])
    deep = np.array([deep_of_crosses] * CROSSES + [toss_up_deep, 0.0, 0.0, 0.0])
    dark = np.array([100] * CROSSES + [toss_up_dark, 0, 0, 0])
    return verdicts, deep, dark


def test_a_toss_up_without_the_pens_ink_is_empty():
    verdicts, deep, dark = _sheet(4.0, 0.1)
    out = penless_toss_ups(verdicts, deep, dark, np.zeros(len(verdicts), bool))
    assert (out[TOSS_UP].state, out[TOSS_UP].note) == ("empty", PENLESS_EMPTY)
    assert out[:TOSS_UP] == verdicts[:TOSS_UP] and out[TOSS_UP + 1:] == verdicts[TOSS_UP + 1:]


def test_a_toss_up_is_left_alone_where_it_may_be_a_mark():
    washed = np.zeros(CROSSES + 4, bool)
    washed[TOSS_UP] = True
    cases = [
        (*_sheet(0.5, 0.0), np.zeros(CROSSES + 4, bool)),  # a pencil's crosses: no deep ink to miss
        (*_sheet(4.0, 1.0), np.zeros(CROSSES + 4, bool)),  # a quarter of the pen's deep ink
        (*_sheet(4.0, 0.1, 60), np.zeros(CROSSES + 4, bool)),  # darkened like a lighter pen's mark
        (*_sheet(4.0, 0.0), washed),  # the light may wash a cross out
    ]
    verdicts, deep, dark = _sheet(4.0, 0.1)
    deep[0] = 0.6  # a cross over dark print: the pen's deep ink is not in every cross
    cases.append((verdicts, deep, dark, np.zeros(CROSSES + 4, bool)))
    for verdicts, deep, dark, light in cases:
        assert penless_toss_ups(verdicts, deep, dark, light)[TOSS_UP] == verdicts[TOSS_UP]


def test_a_clean_box_in_a_grainy_photo_is_not_a_toss_up(tmp_path):
    # Every photo hard, independent seed 312 photo 81 (dark, grainy): the
    # empty green 7 of a blue pen's X's shows nothing but grain, which the
    # pencil network reads crossed (0.95) and the others empty: a toss-up,
    # the only doubt on the sheet. It holds none of the pen's deep ink.
    sheet, want = independent_photo_sheet(tmp_path, 312, 81, 1.0)
    assert "green-7" not in want["marked"]
    assert (sheet.verdicts["green-7"].state, sheet.verdicts["green-7"].note) == ("empty",
                                                                               PENLESS_EMPTY)
    assert sheet.uncertain == [] and set(sheet.marked) == set(want["marked"])
    assert sheet.status == want["status"] == "ok"


def test_a_toss_up_stays_on_a_sheet_where_a_cross_holds_no_pens_ink(tmp_path):
    # Every photo hard, independent seed 262 photo 5 with a drink's ring: the
    # rim runs through the empty blue 5, read crossed, without any of the
    # pen's deep ink. Taking the sheet's toss-up (blue lock) as empty would
    # leave it ok with that wrong cross.
    sheet, want = spoilt_photo_sheet(tmp_path, 262, 5, "stain", 1.0)
    assert "blue-5" not in want["marked"]
    assert "blue-lock" in sheet.uncertain
    assert sheet.status != "ok"
