"""The sample photos the README scans first read as their expected results,
and so do the same photos shrunk the way messaging apps send them."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from qwixx_scan.identify import KnownSheets
from qwixx_scan.pipeline import scan_photo

PHOTOS = Path(__file__).resolve().parent.parent / "samples" / "photos"
NAMES = sorted(p.stem for p in PHOTOS.glob("*.jpg"))


def _reads_as_expected(path: Path, name: str, known: KnownSheets) -> None:
    expected = json.loads((PHOTOS / f"{name}.expected.json").read_text())
    result = scan_photo(path, layouts=known)
    assert result.error is None, result.error
    [sheet] = result.to_json()["sheets"]
    assert (sheet["layout"], sheet["letter"]) == (expected["layout"], expected["letter"])
    assert sorted(sheet["marked"]) == sorted(expected["marked"])
    assert sheet["uncertain"] == []
    assert sheet["score"] == expected["score"]
    assert sheet["status"] == expected["status"]


def test_there_are_samples():
    assert len(NAMES) >= 5


@pytest.mark.parametrize("name", NAMES)
def test_sample_photo_reads_as_expected(name, known):
    _reads_as_expected(PHOTOS / f"{name}.jpg", name, known)


@pytest.mark.parametrize("name", NAMES)
def test_sample_photo_shrunk_by_a_messaging_app_reads_the_same(tmp_path, name, known):
    # 640 px on the long side at JPEG quality 75 (a messenger's small size):
    # decoded at half size, dirk's three visible markers were too small to find.
    image = cv2.imread(str(PHOTOS / f"{name}.jpg"))
    factor = 640 / max(image.shape[:2])
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    path = tmp_path / f"{name}.jpg"
    cv2.imwrite(str(path), small, [cv2.IMWRITE_JPEG_QUALITY, 75])
    _reads_as_expected(path, name, known)


def test_a_photo_shrunk_too_far_says_so_and_does_not_call_the_sheet_cut_off(tmp_path, known):
    image = cv2.imread(str(PHOTOS / "dirk.jpg"))
    factor = 240 / max(image.shape[:2])
    path = tmp_path / "tiny.jpg"
    cv2.imwrite(str(path), cv2.resize(image, None, fx=factor, fy=factor,
                                      interpolation=cv2.INTER_AREA), [cv2.IMWRITE_JPEG_QUALITY, 75])
    result = scan_photo(path, layouts=known)
    assert result.sheets == []
    assert ("tiny in the picture" in result.error
            and "photograph the sheet from closer" in result.error)
    assert "outside the picture" not in result.error
    height, width = (round(n * factor) for n in image.shape[:2])
    assert f"this picture is only {width} x {height} pixels" in result.error
