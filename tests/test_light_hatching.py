"""A box hatched too lightly for the networks to see is doubted on the
sheet of a pencil player who hatches, and only there, and only where its
shade lies in parallel strokes."""

from __future__ import annotations

import cv2
import numpy as np
from scan_support import (boxes_with, independent_photo, no_sheet_sure_of_a_wrong_score,
                          sheet_read_at)

from qwixx_scan.light_hatching import (HATCHING_COHERENCE, LIGHT_HATCHING, MIN_HATCHING_STROKES,
                                       light_hatching_doubted, parallel_strokes)
from qwixx_scan.own_marks import paper_pixels
from qwixx_scan.verdict import BoxVerdict

LIGHT = 0.9  # a light pencil stroke's grey (paper 1): 10 % darker than the paper


def hatched(image):
    """Light flat strokes across the box, 4 px apart."""
    for y in range(10, 40, 4):
        cv2.line(image, (9, y), (38, y + 1), LIGHT, 1)


def one_line(image):
    cv2.line(image, (9, 24), (38, 25), LIGHT, 2)


def shadow_corner(image):
    cv2.fillPoly(image, [np.array([[8, 8], [30, 8], [8, 30]], np.int32)], LIGHT)


def test_parallel_strokes_are_told_from_one_line_and_from_a_shadow():
    coherence, strokes = parallel_strokes(boxes_with(hatched, one_line, shadow_corner))
    assert coherence[0] >= HATCHING_COHERENCE and strokes[0] >= MIN_HATCHING_STROKES
    assert strokes[1] < MIN_HATCHING_STROKES  # a line through a skipped number
    assert strokes[2] < MIN_HATCHING_STROKES  # the edge of a shadow


def test_boxes_hatched_too_lightly_for_the_networks_are_doubtful(tmp_path):
    # An independent table photo (foreign_photos.py --table, seed 266,
    # photo 2; JPEG 95, blur 1 px): the player of Treden D hatches boxes
    # with light flat pencil strokes; red 10 and yellow 8 were read empty by
    # every network (0.014, 0.001) and close up, darkening 18 and 31 pixels
    # against their fills' 226, and the sheet came out ok with a wrong
    # score (qwixx_scan.light_hatching).
    result, truth = independent_photo(tmp_path, 266, 2, table=True)
    (sheet,) = [s for s in result.sheets if s.sheet.letter == "D"]
    (want,) = [t for t in truth["sheets"] if t["letter"] == "D"]
    assert {"red-10", "yellow-8"} <= set(want["marked"])
    for box in ("red-10", "yellow-8"):
        assert (sheet.verdicts[box].state, sheet.verdicts[box].note) == ("uncertain",
                                                                         LIGHT_HATCHING)
    assert sheet.status == "review" and set(sheet.uncertain) == {"red-10", "yellow-8"}
    no_sheet_sure_of_a_wrong_score(result, truth)


def filled(image):
    """Light flat strokes 2 px apart: a fill, which darkens the paper as one band."""
    for y in range(9, 40, 2):
        cv2.line(image, (9, y), (38, y), LIGHT, 1)


def three_bands(image):
    """Three broad light strokes: a fill whose strokes ran together in a grainy photo."""
    for y in (12, 22, 32):
        cv2.line(image, (9, y), (38, y), LIGHT, 5)


def test_a_box_shaded_as_fully_as_the_fills_is_doubtful_unless_the_player_circles():
    inputs = boxes_with(*([filled] * 6 + [three_bands] + [lambda image: None] * 6))
    verdicts = ([BoxVerdict(f"red-{k + 2}", "crossed", 1.0, "") for k in range(6)]
                + [BoxVerdict(f"red-{k + 8}", "empty", 1.0, "") for k in range(7)])
    paper = paper_pixels(inputs)
    assert parallel_strokes(inputs[6:7], paper[6:7])[1][0] < MIN_HATCHING_STROKES
    out = light_hatching_doubted(verdicts, inputs, paper)
    assert (out[6].state, out[6].note) == ("uncertain", LIGHT_HATCHING)
    assert out[:6] == verdicts[:6] and out[7:] == verdicts[7:]
    # a circle player's circles shade the paper as much: not asked there
    assert light_hatching_doubted(verdicts, inputs, paper, circling=True) == verdicts


def test_a_fill_in_a_dim_grainy_photo_is_doubtful(tmp_path):
    # Every photo hard, independent table seed 319 photo 32 (dim, grainy):
    # the pencil player of Treden B fills boxes with light flat strokes; the
    # step box yellow 8 was read empty by every network (0.00-0.01), its
    # paper shaded about as much as their fills' but the grain shading
    # every empty box too; the sheet came out ok with a wrong score (79 for
    # 92).
    result, truth = independent_photo(tmp_path, 319, 32, 1.0, table=True)
    (want,) = [t for t in truth["sheets"] if t["letter"] == "B"]
    assert "yellow-8" in want["marked"]
    sheet = sheet_read_at(result, want)
    assert (sheet.verdicts["yellow-8"].state, sheet.verdicts["yellow-8"].note) == (
        "uncertain", LIGHT_HATCHING)
    assert sheet.status != "ok"
    no_sheet_sure_of_a_wrong_score(result, truth)
