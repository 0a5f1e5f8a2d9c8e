"""The whole scan on realistic generated photos (photogen, small size, fixed seeds).

What must hold on every photo, whatever the reader's accuracy: each sheet
is found and identified (layout and letter), and a sheet whose reading is
wrong is never reported as ``ok``. Accuracy over many photos is measured
by benchmarks/scan_benchmark.py, not here.
"""

from __future__ import annotations

import pytest

from qwixx_scan.pipeline import scan_photo

photogen = pytest.importorskip("photogen.scene")

CASES = [  # (seed, profile, table)
    (11, "normal", False),
    (12, "normal", False),
    (13, "hard", False),
    (14, "normal", True),
]


@pytest.mark.parametrize("seed, profile, table", CASES)
def test_generated_photo_is_identified_and_never_silently_wrong(tmp_path, known, seed, profile,
                                                                table):
    generated = photogen.generate_photo(seed, profile=profile, size="small", table=table,
                                        sheets=2 if table else None)
    path = tmp_path / f"photo{seed}.jpg"
    path.write_bytes(generated.jpeg)
    result = scan_photo(path, layouts=known)
    truth = generated.truth["sheets"]
    assert result.error is None, result.error
    found = sorted((s.sheet.layout, s.sheet.letter) for s in result.sheets)
    assert found == sorted((t["layout"], t["letter"]) for t in truth)
    by_identity = {(t["layout"], t["letter"]): set(t["marked"]) for t in truth}
    for sheet in result.sheets:
        true_marked = by_identity[(sheet.sheet.layout, sheet.sheet.letter)]
        if sheet.status == "ok":
            assert set(sheet.marked) == true_marked
