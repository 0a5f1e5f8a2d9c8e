"""A lamp reflected by the paper washes a cross out: never read as empty with confidence."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from qwixx_scan.identify import KnownSheets
from qwixx_scan.pipeline import scan_photo
from qwixx_scan.read import WASHED_OUT_NOTE

ANNA = Path(__file__).resolve().parent.parent / "samples" / "photos" / "anna.jpg"


def _with_glare_over(box_id: str, known: KnownSheets, target: Path) -> int:
    """anna.jpg with a bright spot (90 % white at its middle) over ``box_id``;
    returns the sheet's total as read without it."""
    [sheet] = scan_photo(ANNA, layouts=known).sheets
    w, h = sheet.sheet.size_mm
    to_px = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]),
                                        np.float32(sheet.corners_px))
    box = next(b for b in sheet.sheet.boxes if b.id == box_id)
    centre = cv2.perspectiveTransform(
        np.float32([[[box.rect.x + box.rect.w / 2, box.rect.y + box.rect.h / 2]]]), to_px)[0, 0]
    px_per_mm = np.linalg.norm(np.float32(sheet.corners_px[1]) - np.float32(sheet.corners_px[0])) / w
    radius = 1.5 * box.rect.w * px_per_mm
    image = cv2.imread(str(ANNA)).astype(np.float32)
    yy, xx = np.mgrid[0:image.shape[0], 0:image.shape[1]]
    spot = 0.9 * np.exp(-(((xx - centre[0]) / radius) ** 2 + ((yy - centre[1]) / (0.6 * radius)) ** 2))
    glared = image + (255 - image) * spot[..., None]
    cv2.imwrite(str(target), np.clip(glared, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 90])
    return sheet.score.total


@pytest.mark.parametrize("box_id", ["red-7", "blue-11"])
def test_a_cross_under_a_glare_spot_is_doubtful_not_empty(tmp_path, known, box_id):
    path = tmp_path / "glare.jpg"
    _with_glare_over(box_id, known, path)
    [sheet] = scan_photo(path, layouts=known).sheets
    # the cross is too washed out to see; the sheet must not come out ok without it
    assert sheet.verdicts[box_id].state == "uncertain"
    assert sheet.verdicts[box_id].note == WASHED_OUT_NOTE
    assert sheet.status == "review"


def test_boxes_of_an_evenly_lit_sheet_are_not_washed_out(known):
    [sheet] = scan_photo(ANNA, layouts=known).sheets
    assert not any(v.note == WASHED_OUT_NOTE for v in sheet.verdicts.values())
