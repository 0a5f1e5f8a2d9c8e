"""The tail of a neighbour's large mark reaching into an empty box is no
cross of that box."""

from __future__ import annotations

import cv2
import numpy as np
from scan_support import (PEN, C, boxes_with, independent_photo, no_sheet_sure_of_a_wrong_score,
                          pen_stroke, spoilt_photo_sheet)

from qwixx_print.layout import load_layout
from qwixx_scan.box_model import INPUT_PX
from qwixx_scan.spills import SIDES, neighbour_table, spilt_over


def check(image):
    pen_stroke(C - 10, C, C - 3, C + 9)(image)
    pen_stroke(C - 3, C + 9, C + 12, C - 12)(image)


def circle(image):
    cv2.ellipse(image, (C, C), (13, 13), 0, 0, 360, PEN, 2, cv2.LINE_AA)


#: From inside the box's right edge on past it, as a large check's stroke
#: from the box to the right runs into it.
TAIL = pen_stroke(C + 10, C, INPUT_PX - 1, C + 10)


def spilt(mark, *, ink=0.3, crosses=check, right_crossed=True, right=True,
          washed=False) -> bool:
    """Whether ``mark`` (holding ``ink`` of the ink of the player's crosses),
    with 9 boxes marked ``crosses`` beside it, is taken for the tail of the
    mark in the box to its right (read crossed when ``right_crossed``; no box
    there unless ``right``; the light washing it out if ``washed``)."""
    inputs = boxes_with(mark, *[crosses] * 9)
    crossed = np.ones(10, bool)
    crossed[1] = right_crossed
    neighbours = np.full((10, len(SIDES)), -1)
    if right:
        neighbours[0, list(SIDES).index("right")] = 1
    return bool(spilt_over(inputs, crossed, np.array([10.0 * ink] + [10.0] * 9),
                           neighbours, np.array([washed] + [False] * 9))[0])


def test_a_stroke_running_past_the_edge_toward_a_crossed_box_is_its_tail():
    assert spilt(TAIL)
    assert not spilt(TAIL, right_crossed=False)  # nothing there to overshoot
    assert not spilt(TAIL, right=False)
    assert not spilt(TAIL, ink=0.8)  # as much ink as a cross of theirs
    assert not spilt(TAIL, washed=True)  # glare leaves a cross in pieces
    # a stroke that stops at the box's edge is the box's own
    assert not spilt(pen_stroke(C + 9, C, C + 13, C + 7))
    # ink in the box's middle is a cross of its own, however little
    assert not spilt(lambda im: (TAIL(im), pen_stroke(C - 7, C - 3, C - 7, C + 3)(im)))


def test_a_circling_player_s_arc_along_an_edge_is_not_taken_for_a_tail():
    # A circle round the number leaves the box's middle clean, and a faint
    # one may show as one arc along an edge, running past it.
    assert spilt(TAIL, crosses=check)
    assert not spilt(TAIL, crosses=circle)


def test_each_box_knows_the_boxes_beside_it():
    sheet = load_layout("classic").sheet(None)
    ids = [box.id for box in sheet.boxes]
    table = neighbour_table(sheet.boxes)

    def beside(box_id):
        return {side: ids[k] if k >= 0 else None
                for side, k in zip(SIDES, table[ids.index(box_id)])}

    assert beside("red-7") == {"left": "red-6", "right": "red-8", "above": None,
                               "below": "yellow-7"}
    assert beside("red-12")["right"] == "red-lock"
    assert beside("blue-lock")["right"] is None


def test_the_tail_of_a_large_check_in_an_empty_box_is_doubted(tmp_path):
    # Fresh table 144, photo 6: a player's large black check in red 8 runs
    # on into the empty red 7, where the networks read it crossed at 0.947,
    # and the sheet came out ok with 26 points instead of 20.
    from qwixx_scan.read import SPILT_OVER

    result, truth = independent_photo(tmp_path, 144, 6, table=True)
    (want,) = [t for t in truth["sheets"] if t["style"]["kind"] == "check"]
    assert "red-7" not in want["marked"] and "red-8" in want["marked"]
    sheet = min(result.sheets, key=lambda s: len(set(s.marked) ^ set(want["marked"])))
    assert (sheet.verdicts["red-7"].state, sheet.verdicts["red-7"].note) == ("uncertain",
                                                                             SPILT_OVER)
    assert sheet.status == "review" and sheet.score.total == want["score"]["total"]
    no_sheet_sure_of_a_wrong_score(result, truth)


def test_a_cross_the_glare_leaves_in_pieces_is_no_tail(tmp_path):
    # Independent seed 70, photo 111 under a lamp's glare (spoilt_photos.py's
    # ``glare``): of a thick blue pen's X in yellow 5, washed out, only
    # pieces of its strokes show, along the edge toward yellow 6 (crossed).
    # The light washes the box out, so it is no neighbour's tail.
    sheet, want = spoilt_photo_sheet(tmp_path, 70, 111, "glare")
    assert "yellow-5" in want["marked"]
    assert sheet.verdicts["yellow-5"].state == "crossed"
