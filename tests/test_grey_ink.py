"""A doubtful box in the player's coloured ink is read once more in grey
(qwixx_scan.grey_ink)."""

from __future__ import annotations

import numpy as np
from scan_support import spoilt_photo_sheet

from qwixx_scan.box_model import INPUT_PX
from qwixx_scan.grey_ink import GREY_INK_REASON, coloured, grey_ink, in_their_colour


def _box(blank_bgr, ink_bgr=None):
    """One box's network input: a flat blank of ``blank_bgr`` (0..1) with a
    printed dark bar in its top rows, and ``ink_bgr`` (darkening per channel)
    over its middle."""
    inputs = np.ones((1, 6, INPUT_PX, INPUT_PX), np.float32)
    inputs[0, 3:6] = np.float32(blank_bgr)[:, None, None]
    inputs[0, 3:6, :3] *= 0.3  # print, which the photo shows as the blank does
    inputs[0, :3] = inputs[0, 3:6]
    if ink_bgr is not None:
        middle = slice(INPUT_PX // 3, 2 * INPUT_PX // 3)
        inputs[0, :3, middle, middle] *= 1 - np.float32(ink_bgr)[:, None, None]
    return inputs


def test_grey_ink_turns_a_coloured_mark_grey_and_leaves_the_print():
    # An orange pen (blue channel gone, green halved, red untouched) on white paper.
    inputs = _box((1.0, 1.0, 1.0), ink_bgr=(0.9, 0.45, 0.0))
    grey = grey_ink(inputs, np.float32([[0.9, 0.45, 0.0]]))
    middle = grey[0, :3, INPUT_PX // 2, INPUT_PX // 2]
    assert np.allclose(middle, middle[0]) and abs(middle[0] - 0.1) < 1e-5  # 90 % dark, grey
    assert np.allclose(grey[0, :3, :3], inputs[0, :3, :3])  # the print as it was
    assert np.array_equal(grey[0, 3:6], inputs[0, 3:6])  # the blank untouched


def test_only_a_coloured_ink_of_the_players_colour_is_asked():
    orange, blue = (0.9, 0.45, 0.0), (0.1, 0.5, 0.8)
    brown, black = (0.4, 0.25, 0.12), (0.6, 0.6, 0.55)
    assert list(coloured(np.float32([orange, brown, black, (0, 0, 0)]))) == \
        [True, True, False, False]
    marks = np.ones(6, bool)
    # An orange player's sheet: their fills, and one in blue.
    colours = np.float32([orange] * 5 + [blue])
    assert list(in_their_colour(colours, marks)) == [True] * 5 + [False]
    # A blue pen's sheet with a drink's brown ring through a box.
    colours = np.float32([blue] * 5 + [brown])
    assert list(in_their_colour(colours, marks)) == [True] * 5 + [False]
    # A pencil player's sheet with the ring: no box is in the player's
    # colour, for the player's is grey.
    colours = np.float32([black] * 5 + [brown])
    assert not in_their_colour(colours, marks).any()


def test_an_orange_pens_fills_are_read_crossed():
    # benchmarks/unseen_marks_benchmark.py's fill sheet of seed 7060000: an
    # orange felt pen filling 21 boxes edge to edge. The networks split on
    # most of them (two sure of a cross, one of an empty box), and with so
    # many doubtful the whole sheet's 52 boxes were doubted. In grey, every
    # network reads each fill crossed.
    from benchmarks.unseen_marks_benchmark import run_sheet

    wrong, uncertain, _ = run_sheet(7060000, "fill", {})
    assert wrong == []
    assert uncertain == []


def test_a_drink_ring_on_a_pencil_players_sheet_is_not_read_in_grey(tmp_path):
    # Independent seed 257, photo 91, with a cup's ring on the sheet
    # (scan_benchmark.py --spoil stain): the brown rim runs through the
    # empty blue 7 of a pencil player's classic sheet, doubted for its mark.
    # In grey the networks read it crossed like a pencil slash; asked, the
    # sheet came out ok with a wrong score.
    sheet, want = spoilt_photo_sheet(tmp_path, 257, 91, "stain")
    assert "blue-7" not in want["marked"]
    assert sheet.verdicts["blue-7"].state == "uncertain"
    assert all(v.settled != GREY_INK_REASON for v in sheet.verdicts.values())
    assert sheet.status == "review"


def test_a_drink_ring_in_a_pens_colour_is_not_read_in_grey(tmp_path):
    # Independent seed 70, photo 86, with a cup's ring on the sheet: the rim
    # runs through the empty blue 7 of a red pen's Treden D sheet (small
    # checks), doubted for its mark, its brown within the colour test of
    # the pen's red (0.97). In grey the networks read it crossed (0.94-1.0);
    # it holds a line's ink (4.9 mm^2) and the network that learned rings
    # reads it 0.03: not taken. (Left a toss-up, it holds none of the red
    # pen's deep ink, and is taken as empty since stop 82: pen_toss_ups.)
    sheet, want = spoilt_photo_sheet(tmp_path, 70, 86, "stain")
    assert "blue-7" not in want["marked"]
    assert want["pen"] == "red"
    assert sheet.verdicts["blue-7"].state != "crossed"
    assert all(v.settled != GREY_INK_REASON for v in sheet.verdicts.values())
    assert set(sheet.marked) == set(want["marked"])
