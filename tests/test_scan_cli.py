"""``qwixx scan`` as a user runs it: table, JSON, overlays, batches, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import pytest
from click.testing import CliRunner
from scan_support import flat_sheet, photo, placement, write_jpeg

from qwixx_print.cli import cli
from qwixx_print.layout import load_layout
from qwixx_scan.rectify import RECT_PX_PER_MM

SIZE = (1800, 1350)
TREDEN_D = load_layout("treden").sheet("D")
CLASSIC = load_layout("classic").sheet()
GOOD_MARKS = ("red-2", "red-4", "yellow-8", "green-11", "blue-9", "blue-8", "penalty-1")
# yellow-12 crossed with no other yellow cross: a rule error (lock needs five).
BROKEN_MARKS = ("red-3", "yellow-12", "yellow-lock")


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    folder = tmp_path_factory.mktemp("photos")
    good = folder / "anna.jpg"
    write_jpeg(good, photo(SIZE, [(flat_sheet(TREDEN_D, GOOD_MARKS),
                                   placement(TREDEN_D, SIZE, centre=(900, 680), width_px=1400,
                                             angle_deg=5))]))
    broken = folder / "ben.jpg"
    write_jpeg(broken, photo(SIZE, [(flat_sheet(CLASSIC, BROKEN_MARKS),
                                     placement(CLASSIC, SIZE, centre=(900, 680), width_px=1400,
                                               angle_deg=-3))]))
    cut = folder / "cut.jpg"
    write_jpeg(cut, photo(SIZE, [(flat_sheet(TREDEN_D),
                                  placement(TREDEN_D, SIZE, centre=(250, 680), width_px=1300))]))
    empty = folder / "empty.jpg"
    empty.write_bytes(b"")
    text = folder / "notes.jpg"
    text.write_text("not a photo")
    return {"good": str(good), "broken": str(broken), "cut": str(cut), "empty": str(empty),
            "text": str(text)}


def run(*args):
    return CliRunner().invoke(cli, ["scan", *args])


def test_one_good_sheet_json_and_exit_0(photos):
    result = run(photos["good"], "--json")
    assert result.exit_code == 0, result.output
    [entry] = json.loads(result.stdout)
    assert entry["file"] == photos["good"] and entry["error"] is None
    [sheet] = entry["sheets"]
    assert set(sheet) >= {"layout", "letter", "marked", "uncertain", "score", "violations",
                          "status"}
    assert (sheet["layout"], sheet["letter"], sheet["status"]) == ("treden", "D", "ok")
    assert sorted(sheet["marked"]) == sorted(GOOD_MARKS)
    # red 2 crosses (3), yellow 1 (1), green 1 (1), blue 2 (3); of treden D's step boxes
    # yellow-8 and blue-9 are crossed (2 steps: 3); one penalty (-5).
    assert sheet["score"] == {"red": 3, "yellow": 1, "green": 1, "blue": 3, "steps": 3,
                              "penalties": -5, "total": 6}


def test_table_shows_rows_points_and_status(photos):
    result = run(photos["good"])
    assert result.exit_code == 0
    out = result.stdout
    assert "treden D" in out and "status: OK" in out
    assert "red" in out and "steps" in out and "penalties" in out
    assert out.splitlines()[-1].split() == ["total", "6"]  # the total closes the table


def test_rule_error_is_invalid_and_exit_1(photos):
    result = run(photos["broken"], "--json")
    assert result.exit_code == 1
    [sheet] = json.loads(result.stdout)[0]["sheets"]
    assert sheet["status"] == "invalid"
    assert any(v["severity"] == "error" and "yellow-12" in v["boxes"] for v in sheet["violations"])
    table = run(photos["broken"]).stdout
    assert "status: INVALID" in table and "look at: error:" in table


def test_batch_with_bad_files_keeps_order_and_goes_on(photos):
    order = [photos["empty"], photos["good"], photos["text"], photos["cut"], photos["broken"]]
    result = run(*order, "--json")
    assert result.exit_code == 3  # an unreadable photo wins over a sheet to review
    entries = json.loads(result.stdout)
    assert [e["file"] for e in entries] == order
    errors = [e["error"] for e in entries]
    assert "empty" in errors[0]
    assert errors[1] is None and entries[1]["sheets"][0]["status"] == "ok"
    assert "not an image" in errors[2]
    assert "the left edge of the sheet is outside the picture" in errors[3]
    assert errors[4] is None and entries[4]["sheets"][0]["status"] == "invalid"
    for entry in entries:
        if entry["error"]:
            assert entry["sheets"] == []
    table = run(*order).stdout
    assert "UNREADABLE" in table and "the left edge of the sheet is outside the picture" in table


def test_jobs_give_the_same_answer(photos):
    order = [photos["good"], photos["text"], photos["broken"]]
    one = run(*order, "--json")
    two = run(*order, "--json", "--jobs", "2")
    assert one.exit_code == two.exit_code == 3
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_overlay_png_per_sheet(photos, tmp_path):
    folder = tmp_path / "overlays"
    result = run(photos["good"], photos["broken"], "--overlay", str(folder))
    assert result.exit_code == 1
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["anna-D.png", "ben-classic.png"]
    image = cv2.imread(str(folder / "anna-D.png"))
    w, h = TREDEN_D.size_mm
    assert image.shape[1] == round(w * RECT_PX_PER_MM)
    assert image.shape[0] > round(h * RECT_PX_PER_MM)  # the score strip below the sheet
    # A crossed box is outlined green (BGR 40,160,0) in the overlay.
    r = TREDEN_D.box("red-2").rect
    y = round((r.y + r.h / 2) * RECT_PX_PER_MM)
    x = round(r.x * RECT_PX_PER_MM)
    assert tuple(int(v) for v in image[y, x]) == (40, 160, 0)


def test_unknown_layout_file_option_is_checked_first(photos, tmp_path):
    result = run(photos["good"], "--layout", str(tmp_path / "missing.yaml"))
    assert result.exit_code == 3
    assert "does not exist" in result.output


def test_help_documents_exit_codes():
    result = run("--help")
    assert result.exit_code == 0
    for line in ("0  every sheet read with status ok", "1  some sheet needs review",
                 "3  some photo"):
        assert line in result.output


def test_a_crash_on_one_photo_is_reported_and_the_rest_go_on(photos, monkeypatch):
    import qwixx_scan.read

    real = qwixx_scan.read.read_marks

    def crash_on_classic(rectified, sheet, **kwargs):
        if sheet.layout == "classic":
            raise RuntimeError("injected failure")
        return real(rectified, sheet, **kwargs)

    monkeypatch.setattr(qwixx_scan.read, "read_marks", crash_on_classic)
    result = run(photos["broken"], photos["good"], "--json")
    assert result.exit_code == 10
    first, second = json.loads(result.stdout)
    assert "internal error" in first["error"] and "injected failure" in first["error"]
    assert second["error"] is None and second["sheets"][0]["status"] == "ok"


def test_a_folder_is_read_photo_by_photo_in_name_order(photos, tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    for name, key in (("B.JPG", "broken"), ("a.jpg", "good")):
        (folder / name).write_bytes(Path(photos[key]).read_bytes())
    (folder / "a.expected.json").write_text("{}")  # not a photo: left alone
    (folder / "old").mkdir()  # nor a subfolder
    result = run(str(folder), "--json")
    assert [entry["file"] for entry in json.loads(result.stdout)] == [
        str(folder / "a.jpg"), str(folder / "B.JPG")]
    assert result.exit_code == 1  # B.JPG is invalid; nothing unreadable


def test_a_folder_takes_every_kind_of_picture_the_scanner_reads(photos, tmp_path):
    # A flatbed scanner's TIFF or BMP and a photo shared as WebP sit beside the JPEG.
    folder = tmp_path / "mixed"
    folder.mkdir()
    picture = cv2.imread(photos["good"])
    cv2.imwrite(str(folder / "a.jpg"), picture)
    cv2.imwrite(str(folder / "b.TIF"), picture)
    cv2.imwrite(str(folder / "c.webp"), picture, [cv2.IMWRITE_WEBP_QUALITY, 90])
    cv2.imwrite(str(folder / "d.bmp"), picture)
    result = run(str(folder), "--json")
    entries = json.loads(result.stdout)
    assert [Path(e["file"]).name for e in entries] == ["a.jpg", "b.TIF", "c.webp", "d.bmp"]
    assert {e["sheets"][0]["score"]["total"] for e in entries} == {
        entries[0]["sheets"][0]["score"]["total"]}
    assert all(e["error"] is None for e in entries) and result.exit_code == 0


def test_a_folder_without_photos_is_reported_and_the_rest_read(photos, tmp_path):
    result = run(str(tmp_path), photos["good"], "--json")
    assert result.exit_code == 3
    first, second = json.loads(result.stdout)
    assert "no photos in it" in first["error"] and second["error"] is None
    assert "BMP" in first["error"]  # the message names every kind a folder takes


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_opencvs_own_log_lines_stay_off_the_terminal(tmp_path, jobs):
    # Every photo hard, independent table 68, photo 7: OpenCV, handed a
    # damaged QR code to try, printed "[ERROR:0@1.2] ... QRcode mode 9 is
    # not supported!" among the results (in the scanning process, and in
    # each worker with --jobs).
    from benchmarks.foreign_photos import make_table_photo

    data, _ = make_table_photo(68, 7, 1.0)
    paths = [tmp_path / "table-1.jpg", tmp_path / "table-2.jpg"]
    for path in paths:
        path.write_bytes(data)
    done = subprocess.run([sys.executable, "-c", "from qwixx_print.cli import cli; cli()", "scan",
                           "--jobs", jobs, *map(str, paths)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("status: OK") == 8
    assert done.stderr == ""


def test_the_scan_keeps_numpy_s_matrix_library_to_one_thread():
    # Its helper threads spin on a core between the scan's few matrix
    # products: a quarter more processor time alone, a fifth more wall
    # time with --jobs 2 (see cli.one_blas_thread).
    code = ("from threadpoolctl import threadpool_info\n"
            "from qwixx_scan.cli import one_blas_thread\n"
            "one_blas_thread()\n"
            "print(sorted({i['num_threads'] for i in threadpool_info()\n"
            "              if i['user_api'] == 'blas'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[1]"
