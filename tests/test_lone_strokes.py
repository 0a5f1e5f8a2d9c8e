"""A lone steep stroke of the player's pen in a box read empty, or a short
one the print mostly hides, is a small slash the networks missed, not an
empty box."""

from __future__ import annotations

import numpy as np
from scan_support import (C, boxes_with, independent_photo, no_sheet_sure_of_a_wrong_score,
                          pen_stroke, sheet_read_at, verdict_of)

from qwixx_scan.box_model import box_classifier
from qwixx_scan.lone_strokes import Strokes, lone_strokes
from qwixx_scan.verdict import LONE_STROKE, SHORT_STROKE


SLASH = pen_stroke(C - 7, C + 7, C + 7, C - 7)  # 45 degrees through the middle


def x_mark(image):
    SLASH(image)
    pen_stroke(C - 7, C - 7, C + 7, C + 7)(image)


def strokes(box: np.ndarray, *, ink=0.6, deep=0.6, their_deep=1.0, empty=True) -> Strokes:
    """What lone_strokes makes of ``box`` (a network input) holding ``ink``
    and ``deep`` of the ink and dark ink of the player's middle cross (9
    X's beside it, holding ``their_deep`` mm^2 of dark ink each), read
    empty if ``empty``."""
    inputs = np.concatenate([box[None], boxes_with(*[x_mark] * 9)])
    crossed = np.array([not empty] + [True] * 9)
    return lone_strokes(inputs, crossed, ~crossed, np.array([4.0 * ink] + [4.0] * 9),
                        np.array([their_deep * deep] + [their_deep] * 9), box_classifier())


def taken(mark, **kwargs) -> bool:
    """Whether ``mark`` (see :func:`strokes`) is taken for a lone stroke of
    the player's pen."""
    return bool(strokes(boxes_with(mark)[0], **kwargs).lone[0])


def doubted_in_photo(tmp_path, photo: tuple, which, box: str, note: str) -> None:
    """In the independent generator's ``photo`` (seed, index, hard share,
    table), the sheet ``which`` picks out of the truth has ``box`` crossed,
    and it is read doubtful for ``note``: the sheet is not ``ok``, and no
    sheet of the photo is sure of a wrong score."""
    seed, index, hard_share, table = photo
    result, truth = independent_photo(tmp_path, seed, index, hard_share, table=table)
    (want,) = [t for t in truth["sheets"] if which(t)]
    assert box in want["marked"]
    sheet = sheet_read_at(result, want)
    verdict = sheet.verdicts[box]
    assert (verdict.state, verdict.note) == ("uncertain", note)
    assert sheet.status != "ok"
    no_sheet_sure_of_a_wrong_score(result, truth)


def test_a_steep_stroke_through_an_empty_box_s_middle_is_doubted():
    assert taken(SLASH)
    assert taken(pen_stroke(C - 4, C + 8, C + 4, C - 8))  # nearly upright
    assert not taken(SLASH, empty=False)  # read crossed: nothing to doubt


def test_a_flat_line_through_a_skipped_number_is_no_such_pen_stroke():
    assert not taken(pen_stroke(C - 10, C + 1, C + 10, C - 1))


def test_a_hurried_line_through_a_skipped_number_is_left_empty(tmp_path):
    # Hard table 145, photo 36: a blue line through a skipped red 9 rising
    # 25 degrees through the box's middle, with 0.7 of the player's dark
    # ink; a stroke that slanted is doubted only where some network leans
    # toward a cross, and none gives this line more than 0.001.
    result, truth = independent_photo(tmp_path, 145, 36, hard_share=1.0, table=True)
    (want,) = [t for t in truth["sheets"] if "red-9" in t["skip_lined"]]
    sheet = sheet_read_at(result, want)
    assert sheet.verdicts["red-9"].state == "empty"
    no_sheet_sure_of_a_wrong_score(result, truth)


def test_strokes_off_the_middle_or_too_light_are_left_alone():
    # the edge of a pen lying over the box, or a digit at its side
    assert not taken(pen_stroke(C - 13, C - 8, C - 13, C + 8))
    assert not taken(SLASH, ink=0.3)  # far less ink than the player's crosses
    assert not taken(SLASH, deep=0.3)  # far less of their pen's dark ink
    assert not taken(SLASH, their_deep=0.05)  # a pencil leaves none to compare with
    assert not taken(x_mark)  # two strokes: no lone line (the networks' to read)


def test_a_lone_stroke_makes_a_box_read_empty_doubtful():
    verdict = verdict_of("green-12", 0.0006, 1.2, 0.28, lone_stroke=True)
    assert (verdict.state, verdict.note, verdict.lean) == ("uncertain", LONE_STROKE, "empty")
    assert verdict_of("green-12", 0.0006, 1.2, 0.28).state == "empty"


def test_a_small_slash_every_network_read_empty_is_doubted(tmp_path):
    # Table 140, photo 37: a player slashing small (a third of the box) in
    # blue struck green 12 with a slash at 46 degrees, 0.6 of the ink of
    # their middle cross, which every network read empty (0.0006), so the
    # sheet came out ok with 121 points instead of 130.
    doubted_in_photo(tmp_path, (140, 37, 0.25, True), lambda t: t["letter"] == "A", "green-12",
                     LONE_STROKE)


def test_a_slanted_small_slash_some_network_leans_to_is_doubted(tmp_path):
    # Hard seed 168, photo 77: a black slash over blue 11 at 21 degrees,
    # as slanted as a hurried line through a skipped number, read empty on
    # the deciders' median while three networks gave it 0.22-0.45.
    doubted_in_photo(tmp_path, (168, 77, 1.0, False), lambda t: True, "blue-11", LONE_STROKE)


def test_a_short_stroke_the_number_mostly_hides_is_doubted():
    # between the digits only a few px of it show: no line to measure
    box = boxes_with(pen_stroke(C - 4, C + 2, C + 4, C - 2), two_digits=True)[0]
    found = strokes(box)
    assert found.short[0] and not found.lone[0]
    assert not strokes(box, empty=False).short[0]  # read crossed: nothing to doubt
    assert not strokes(box, ink=0.3).short[0]  # far less ink than the player's crosses
    assert not strokes(box, deep=0.3).short[0]
    assert not strokes(box, their_deep=0.05).short[0]  # a pencil's sheet
    beside = boxes_with(pen_stroke(C + 8, C + 4, C + 12, C - 2), two_digits=True)[0]  # 11 px off
    assert not strokes(beside).short[0]


def test_a_short_stroke_makes_a_box_read_empty_doubtful():
    verdict = verdict_of("green-12", 0.002, 1.0, 0.4, short_stroke=True)
    assert (verdict.state, verdict.note, verdict.lean) == ("uncertain", SHORT_STROKE, "empty")


def test_a_slash_between_the_digits_of_a_number_is_doubted(tmp_path):
    # Hard table 155, photo 23: a player slashing small (a third of the
    # box) in blue struck green 12 between its 1 and its 2; the print hides
    # most of the slash, the 29 px that show are no line, every network
    # read it empty (the most doubtful 0.2) and the sheet came out ok with
    # 68 points instead of 75.
    doubted_in_photo(tmp_path, (155, 23, 1.0, True), lambda t: t["style"]["kind"] == "slash",
                     "green-12", SHORT_STROKE)


def test_a_short_line_through_a_skipped_number_is_left_empty(tmp_path):
    # Hard seed 176, photo 0: a line through a skipped blue 12 that shows
    # between the digits only (8 px long, 0.6 of the player's ink and dark
    # ink) reads empty to every network, sure of it: left empty.
    result, truth = independent_photo(tmp_path, 176, 0, hard_share=1.0)
    (want,) = truth["sheets"]
    assert "blue-12" in want["skip_lined"]
    (sheet,) = result.sheets
    assert sheet.verdicts["blue-12"].state == "empty"
