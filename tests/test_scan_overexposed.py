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
from qwixx_scan.read import OVEREXPOSED_NOTE

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
