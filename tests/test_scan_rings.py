"""A drink's ring through an empty box is doubted, not read as a cross
(read.RIM_DOUBT, box_model.RimLook)."""

from __future__ import annotations

from scan_support import spoilt_photo_sheet

from qwixx_scan.read import RIM_DOUBT


def test_a_drink_rings_rim_through_an_empty_box_is_doubted(tmp_path):
    # Independent seed 257, photo 37, with a cup's ring on the sheet
    # (scan_benchmark.py --spoil stain): the rim runs through the empty
    # green 6 of a Treden D sheet, a thin brown line every box network read
    # crossed, and the sheet came out ok with a wrong score.
    sheet, want = spoilt_photo_sheet(tmp_path, 257, 37, "stain")
    assert "green-6" not in want["marked"]
    assert sheet.verdicts["green-6"].state == "uncertain"
    assert sheet.verdicts["green-6"].note == RIM_DOUBT
    assert sheet.status == "review"
    crossed = {b for b, v in sheet.verdicts.items() if v.state == "crossed"}
    assert crossed <= set(want["marked"])
