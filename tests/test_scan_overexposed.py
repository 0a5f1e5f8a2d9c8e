"""A photo too bright loses light pencil: the boxes where it may be lost are
doubtful, never read empty with confidence; white paper alone is no sign of it,
and neither is a pen's ink made lighter by it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from scan_support import _flat, photo, placement, write_jpeg

from qwixx_print.layout import load_layout
from qwixx_scan.pipeline import scan_photo
from qwixx_scan.verdict import OVEREXPOSED_NOTE

SHEET = load_layout("treden").sheet("B")
SIZE = (1800, 1350)
PENCIL = ("red-2", "red-4", "yellow-3", "green-12", "green-10", "blue-12", "blue-9")
#: crossed so lightly that a photo 30 % too bright turns them white
FAINT = ("red-6", "yellow-8")
#: a blue ballpoint (BGR), 0.33 mm wide at 12 px/mm
BALLPOINT = (200, 90, 40)


def _crossed_sheet(crosses: list[tuple[str, tuple[int, int, int]]], width_px: int) -> np.ndarray:
    image = _flat(SHEET, 12.0).copy()
    for box_id, colour in crosses:
        r = SHEET.box(box_id).rect
        x0, y0, x1, y1 = ((r.x + 1.6) * 12, (r.y + 1.6) * 12, (r.x + r.w - 1.6) * 12,
                          (r.y + r.h - 1.6) * 12)
        for a, b in (((x0, y0), (x1, y1)), ((x1, y0), (x0, y1))):
            cv2.line(image, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])),
                     colour, width_px, cv2.LINE_AA)
    return image


def _photo_of(sheet_image: np.ndarray) -> np.ndarray:
    h = placement(SHEET, SIZE, centre=(900, 675), width_px=1500, angle_deg=3)
    return photo(SIZE, [(sheet_image, h)], seed=5, noise=2.0)


def _too_bright(picture: np.ndarray) -> np.ndarray:
    return np.clip(picture.astype(np.float32) * 1.3, 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def picture() -> np.ndarray:
    return _photo_of(_crossed_sheet([(b, (150, 150, 150)) for b in PENCIL]
                                    + [(b, (195, 195, 195)) for b in FAINT], 5))


def test_light_pencil_on_white_paper_reads_exactly(tmp_path, known, picture):
    path = tmp_path / "sheet.jpg"
    write_jpeg(path, picture, quality=92)
    [sheet] = scan_photo(path, layouts=known).sheets
    assert sorted(sheet.marked) == sorted(PENCIL + FAINT) and sheet.uncertain == []
    assert not any(v.note == OVEREXPOSED_NOTE for v in sheet.verdicts.values())


def test_a_photo_too_bright_for_the_lightest_crosses_sends_the_sheet_to_review(
        tmp_path, known, picture):
    path = tmp_path / "bright.jpg"
    write_jpeg(path, _too_bright(picture), quality=92)
    [sheet] = scan_photo(path, layouts=known).sheets
    assert set(PENCIL) <= set(sheet.marked)
    for box_id in FAINT:  # white now: not readable, never read empty with confidence
        assert sheet.verdicts[box_id].state != "empty"
    assert sheet.status == "review"
    assert any(v.note == OVEREXPOSED_NOTE for v in sheet.verdicts.values())


def test_a_pens_crosses_in_a_photo_too_bright_read_exactly(tmp_path, known):
    # The brightness pales a blue ballpoint's crosses to a darkening a pencil
    # can leave too, but they keep deep ink, which no pencil's do: a cross of
    # theirs would stay in sight, so the sheet's empty boxes are not doubted.
    path = tmp_path / "bright-pen.jpg"
    crosses = PENCIL + FAINT
    write_jpeg(path, _too_bright(_photo_of(_crossed_sheet([(b, BALLPOINT) for b in crosses], 4))),
               quality=92)
    [sheet] = scan_photo(path, layouts=known).sheets
    assert sorted(sheet.marked) == sorted(crosses) and sheet.uncertain == []
    assert sheet.status == "ok"


#: Crossed in pencil, as PENCIL: on the left of the sheet, and on its right,
#: where _right_brighter makes the photo white to the brim.
LEFT = ("red-2", "red-4", "yellow-3", "green-12", "green-10")
RIGHT = ("red-10", "yellow-11", "green-4", "blue-3")
#: crossed as lightly as FAINT, on the right
RIGHT_FAINT = ("red-12", "blue-2")


def _right_brighter(picture: np.ndarray, gain: float) -> np.ndarray:
    """The photo made ``gain`` times brighter from a third of the sheet's
    width right of its middle on (a window's light), rising over 200 px."""
    ramp = np.clip((np.arange(picture.shape[1], dtype=np.float32) - 800) / 200, 0, 1)
    factor = (1 + (gain - 1) * ramp)[None, :, None]
    return np.clip(picture.astype(np.float32) * factor, 0, 255).astype(np.uint8)


def test_empty_boxes_beside_crosses_the_brightness_left_whole_read_empty(tmp_path, known):
    # Lit 12 % brighter on the right, the paper there turns white to the brim,
    # but the pencil crosses there darken their boxes as much as those on the
    # left: a cross of this player stays in sight there, and the empty boxes
    # beside them are read empty, not doubted.
    path = tmp_path / "window.jpg"
    picture = _photo_of(_crossed_sheet([(b, (150, 150, 150)) for b in LEFT + RIGHT], 5))
    write_jpeg(path, _right_brighter(picture, 1.12), quality=92)
    [sheet] = scan_photo(path, layouts=known).sheets
    assert sorted(sheet.marked) == sorted(LEFT + RIGHT) and sheet.uncertain == []
    assert sheet.status == "ok"


def test_crosses_the_brightness_pales_keep_the_doubt_beside_them(tmp_path, known):
    # Lit 30 % brighter on the right: the pencil crosses there lose darkening
    # to it, and the lightest are gone; the boxes there stay doubtful.
    path = tmp_path / "window.jpg"
    crosses = [(b, (150, 150, 150)) for b in LEFT + RIGHT] + [(b, (195, 195, 195))
                                                             for b in RIGHT_FAINT]
    write_jpeg(path, _right_brighter(_photo_of(_crossed_sheet(crosses, 5)), 1.3), quality=92)
    [sheet] = scan_photo(path, layouts=known).sheets
    assert set(LEFT + RIGHT) <= set(sheet.marked)
    for box_id in RIGHT_FAINT:
        assert sheet.verdicts[box_id].state != "empty"
    assert sheet.status == "review"


def test_an_independent_photo_white_to_the_brim_over_whole_crosses_reads_exactly(tmp_path):
    # Hard independent seed 140, photo 88 (benchmarks/foreign_photos.py): a
    # pencil player's sheet, a third of it white to the brim, ten crosses
    # there as dark as the others (0.41 against 0.41). Every empty box of it
    # was doubted (17 for the brightness, the rest for their number).
    from scan_support import independent_photo_sheet

    sheet, expected = independent_photo_sheet(tmp_path, 140, 88, 1.0)
    assert expected["pen"] == "pencil"
    assert sorted(sheet.marked) == sorted(expected["marked"]) and sheet.uncertain == []
    assert sheet.status == "ok"
