"""A doubtful box that looks like the player's own crosses on the sheet is a cross.

Pure rule tests on made-up readings (``like_own_crosses``), the ink colour
measured from the reader's inputs, and a whole sheet hatched in light pencil.
"""

from __future__ import annotations

import numpy as np
import pytest

from qwixx_scan.box_model import INPUT_CHANNELS, INPUT_PX
from qwixx_scan.own_marks import like_own_crosses
from qwixx_scan.read import ink_colours

PENCIL = np.array([0.4, 0.4, 0.38])  # mean darkening per BGR channel
SKIN = np.array([0.45, 0.3, 0.05])


def sheet_reading(doubtful_ink=11.0, doubtful_colour=PENCIL, vote=0.7, crosses=6,
                  empty_ink=0.8):
    """``crosses`` confident crosses of 9-14 mm^2, 20 empty boxes holding at
    most ``empty_ink``, and one doubtful box (the last)."""
    n = crosses + 21
    crossed = np.zeros(n, bool)
    crossed[:crosses] = True
    empty = np.zeros(n, bool)
    empty[crosses:-1] = True
    doubtful = np.zeros(n, bool)
    doubtful[-1] = True
    ink = np.r_[np.linspace(9, 14, crosses), np.linspace(0, empty_ink, 20), doubtful_ink]
    colour = np.tile(PENCIL, (n, 1)) * np.where(crossed, 1.0, 0.3)[:, None]
    colour[-1] = doubtful_colour
    votes = np.full(n, np.nan)
    votes[-1] = vote
    return crossed, empty, doubtful, ink, colour, votes


def test_a_doubtful_box_inked_like_the_players_crosses_is_a_cross():
    assert like_own_crosses(*sheet_reading())[-1]


@pytest.mark.parametrize("change, why", [
    (dict(vote=0.3), "the networks lean empty"),
    (dict(doubtful_ink=2.0), "hardly more ink than the empty boxes"),
    (dict(doubtful_ink=40.0), "far more ink than any cross: a thumb or a pen over the box"),
    (dict(doubtful_colour=SKIN), "not the colour of the player's pen"),
    (dict(doubtful_colour=PENCIL * 3), "far darker than the player's pen"),
    (dict(crosses=3), "too few crosses to learn the player's from"),
    (dict(empty_ink=6.0), "empty boxes hold almost as much ink (skip lines, shade)"),
])
def test_a_doubtful_box_stays_doubtful(change, why):
    assert not like_own_crosses(*sheet_reading(**change))[-1], why


def test_only_doubtful_boxes_are_settled():
    crossed, empty, doubtful, ink, colour, votes = sheet_reading()
    like = like_own_crosses(crossed, empty, doubtful, ink, colour, np.full(len(ink), 0.9))
    assert np.flatnonzero(like).tolist() == [len(ink) - 1]


def test_the_ink_colour_is_the_pens_not_the_prints():
    boxes = np.ones((2, INPUT_CHANNELS, INPUT_PX, INPUT_PX), np.float32)
    mid = slice(INPUT_PX // 2 - 4, INPUT_PX // 2 + 4)
    # box 0: a red printed digit (dark in the blank too) under a blue stroke beside it
    boxes[0, :3, mid, mid] = np.array([0.9, 0.5, 0.2])[:, None, None]  # print, BGR
    boxes[0, 3:, mid, mid] = np.array([0.9, 0.5, 0.2])[:, None, None]
    boxes[0, :3, mid, INPUT_PX // 2 + 6: INPUT_PX // 2 + 9] = \
        np.array([0.67, 0.24, 0.08])[:, None, None]  # blue ink on paper
    colours = ink_colours(boxes)
    np.testing.assert_allclose(colours[0], [0.33, 0.76, 0.92], atol=1e-5)
    np.testing.assert_allclose(colours[1], 0.0)  # no ink at all


def test_a_pencil_scribble_the_networks_doubt_is_taken_like_the_players_others():
    from test_read import PX, as_photo, draw

    from qwixx_print.layout import load_layout
    from qwixx_scan.read import read_marks

    sheet = load_layout("classic").sheet(None)
    rng = np.random.default_rng(30)
    marked = [b.id for b in sheet.boxes if rng.random() < 0.4]
    image, _ = draw(sheet, marked, kind="scribble", pen="pencil", seed=30)
    verdicts = read_marks(as_photo(image, 30, blur=1.4, noise=4.0, gamma=0.8), sheet,
                          px_per_mm=PX)
    settled = [b for b, v in verdicts.items() if v.settled]
    assert settled == ["green-lock"] and "green-lock" in marked
    assert verdicts["green-lock"].state == "crossed"
    assert {b for b, v in verdicts.items() if v.state == "crossed"} == set(marked)
