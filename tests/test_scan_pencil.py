"""Light pencil crosses the networks cannot decide, read once darkened
(read.DARKER_LOOKS), and only a player's who writes without a pen."""

from __future__ import annotations

from scan_support import independent_photo, independent_photo_sheet

from qwixx_scan.read import DARKER_CROSSED


def _read_exactly(sheet, expected) -> None:
    assert set(sheet.marked) == set(expected["marked"])
    assert sheet.uncertain == []
    assert sheet.status == "ok"


def test_a_light_pencil_slash_is_read_crossed_once_darkened(tmp_path):
    # Independent seed 109, photo 0: a player slashing small and light in
    # pencil; the networks could not decide the yellow 11, and the sheet
    # went to review for it. Darkened, every look reads it crossed.
    sheet, expected = independent_photo_sheet(tmp_path, 109, 0)
    assert expected["style"]["ink"] == "pencil" and "yellow-11" in expected["marked"]
    assert sheet.verdicts["yellow-11"].state == "crossed"
    assert sheet.verdicts["yellow-11"].note == DARKER_CROSSED
    _read_exactly(sheet, expected)


def test_small_thin_pencil_xs_in_a_hard_photo_are_read_crossed_once_darkened(tmp_path):
    # Every photo hard, independent seed 110, photo 92: small X's of a thin
    # pencil; yellow 2 and 8 were doubtful marks.
    sheet, expected = independent_photo_sheet(tmp_path, 110, 92, 1.0)
    assert expected["style"]["ink"] == "pencil"
    for box in ("yellow-2", "yellow-8"):
        assert box in expected["marked"]
        assert (sheet.verdicts[box].state, sheet.verdicts[box].note) == ("crossed",
                                                                          DARKER_CROSSED)
    _read_exactly(sheet, expected)


def test_a_pen_players_doubtful_box_is_not_looked_at_darkened(tmp_path):
    # Independent table seed 79, photo 16, sheet D: a player filling boxes
    # in blue ink left a dot in the empty blue 10, which the networks
    # cannot decide; darkened it would read crossed (0.94 and 0.99), as a
    # pen's stray marks do. A pen's crosses are not faint: it stays doubtful.
    result, truth = independent_photo(tmp_path, 79, 16, table=True)
    (sheet,) = [s for s in result.sheets if s.sheet.letter == "D"]
    (want,) = [t for t in truth["sheets"] if t["letter"] == "D"]
    assert want["style"]["ink"] == "blue" and "blue-10" in want["dots_in_boxes"]
    assert "blue-10" not in want["marked"]
    assert sheet.verdicts["blue-10"].state == "uncertain"
