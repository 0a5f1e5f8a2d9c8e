"""benchmarks/reread_sets.py: what a change of the reader changed, sheet by sheet."""

from __future__ import annotations

import json

from benchmarks.reread_sets import changes, doubt_kinds, tally


def _sheet(marked, uncertain=(), status="ok", x=0.0):
    corners = [[x, 0.0], [x + 100.0, 0.0], [x + 100.0, 70.0], [x, 70.0]]
    return {"layout": "classic", "letter": None, "marked": list(marked),
            "uncertain": list(uncertain), "status": status, "corners_px": corners}


def test_a_changed_reading_is_listed_for_its_own_sheet_of_several_alike(tmp_path):
    # Two classic sheets side by side (no letter tells them apart): each read
    # sheet is the truth's sheet lying where it lies.
    photo = tmp_path / "set" / "0000.jpg"
    photo.parent.mkdir()
    left, right = _sheet(["red-2", "red-3"]), _sheet(["blue-12"], x=500.0)
    truth = {"file": "0000.jpg", "photo": {"difficulty": "normal"},
             "sheets": [{**left, "status": None}, {**right, "status": None}]}
    photo.with_suffix(".json").write_text(json.dumps(truth))
    path = str(photo)
    before = {path: {"file": path, "error": None, "sheets": [right, left]}}
    after = {path: {"file": path, "error": None,
                    "sheets": [_sheet(["blue-12", "blue-11"], x=500.0),
                               _sheet(["red-2"], ["red-3"], "review")]}}
    listed = changes(before, after)
    assert listed == [
        "set/0000.jpg classic (sheet 1): ok  ->  review, doubtful ['red-3']",
        "set/0000.jpg classic (sheet 2): ok  ->  ok, wrong ['blue-11']",
    ]
    assert changes(before, before) == []
    per_set, misread = tally(after)
    assert (per_set["set"]["sheets"], per_set["set"]["sheets_exact"],
            per_set["set"]["boxes_wrong"], per_set["set"]["silent_errors"]) == (2, 0, 1, 1)
    assert any("SILENT" in line and "blue-11" in line for line in misread)


def test_doubtful_boxes_are_tallied_by_what_they_are_and_why(tmp_path):
    # One photo, two classic sheets: the left one doubtful only for a line
    # through a skipped number, the right one for that and a cross.
    photo = tmp_path / "set" / "0000.jpg"
    photo.parent.mkdir()
    left, right = _sheet(["red-2"]), _sheet(["blue-12"], x=500.0)
    truth = {"file": "0000.jpg", "photo": {"difficulty": "normal"},
             "sheets": [{**left, "status": None, "skip_lined": ["red-3"]},
                        {**right, "status": None, "skip_lined": ["blue-11"]}]}
    photo.with_suffix(".json").write_text(json.dumps(truth))
    path = str(photo)
    results = {path: {"file": path, "error": None,
                      "sheets": [_sheet([], ["blue-12", "blue-11"], "review", x=500.0),
                                 _sheet(["red-2"], ["red-3"], "review")]}}
    whys = {path: [{"blue-12": "doubtful mark", "blue-11": "doubtful mark"},
                   {"red-3": "doubtful mark"}]}
    boxes, alone, anywhere = doubt_kinds(results, whys)
    skip, cross = ("skip line", "doubtful mark"), ("crossed", "doubtful mark")
    assert (boxes[skip], alone[skip], anywhere[skip]) == (2, 1, 2)
    assert (boxes[cross], alone[cross], anywhere[cross]) == (1, 0, 1)
    # a dump written before the notes were kept: the reason is unknown
    assert doubt_kinds(results, {})[0][("skip line", "?")] == 2
