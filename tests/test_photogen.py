"""The photo generator that feeds the scanner's tests and benchmarks.

What the scanner's tests rely on: the same seed gives the same photo,
sheets asked to be legal are legal by the rules engine (and broken ones
are broken), marks land in the crossed boxes and nowhere else, and the
truth file has the scan-JSON shape.
"""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from photogen.__main__ import main as photogen_main
from photogen.play import play_sheet
from photogen.raster import blank_sheet
from photogen.scene import encode_jpeg, generate_photo
from photogen.strokes import MARK_KINDS, PENS, draw_sheet_marks, random_style
from qwixx_print.layout import load_layout
from qwixx_print.rules import score_sheet

SHEETS = [("classic", None), ("treden", "C"), ("kettingen", "A"), ("kettingen", "D")]


def test_same_seed_same_photo_bytes() -> None:
    a = generate_photo(11, size="small", profile="hard")
    b = generate_photo(11, size="small", profile="hard")
    c = generate_photo(12, size="small", profile="hard")
    assert a.jpeg == b.jpeg
    assert a.truth == b.truth
    assert a.jpeg != c.jpeg


def test_a_seed_gives_the_same_sheets_at_every_size_and_profile() -> None:
    small = generate_photo(8, size="small", profile="easy", table=True)
    large = generate_photo(8, size="8mp", profile="hard", table=True)
    assert [(s["layout"], s["letter"], s["marked"]) for s in small.truth["sheets"]] == [
        (s["layout"], s["letter"], s["marked"]) for s in large.truth["sheets"]]


@pytest.mark.parametrize("layout,letter", SHEETS)
def test_legal_sheets_pass_the_rules_engine(layout: str, letter: str | None) -> None:
    sheet = load_layout(layout).sheet(letter)
    for seed in range(300):
        truth = play_sheet(sheet, np.random.default_rng(seed))
        score = score_sheet(sheet, truth.marked)
        assert truth.legal
        assert not score.errors, (seed, truth.marked, score.violations)
        locked = [row for row in ("red", "yellow", "green", "blue")
                  if sheet.last_number(row) in truth.marked]
        assert len(locked) <= 2
        assert sum(p in truth.marked for p in sheet.penalty_ids) <= 4
        for a, b in sheet.chains:
            assert (a in truth.marked) == (b in truth.marked)
        assert not set(truth.skip_lined) & set(truth.marked)


@pytest.mark.parametrize("layout,letter", SHEETS)
def test_broken_sheets_are_errors_for_the_rules_engine(layout: str, letter: str | None) -> None:
    sheet = load_layout(layout).sheet(letter)
    for seed in range(100):
        truth = play_sheet(sheet, np.random.default_rng(seed), illegal_share=1.0)
        assert truth.broken_rules
        errors = {v.rule for v in score_sheet(sheet, truth.marked).errors}
        assert set(truth.broken_rules) <= errors


@pytest.mark.parametrize("kind,pen", list(zip(MARK_KINDS, PENS, strict=True)))
def test_marks_land_in_the_crossed_boxes_only(kind: str, pen: str) -> None:
    sheet = load_layout("kettingen").sheet("B")
    ppm = 8
    blank = blank_sheet(sheet, ppm)
    rng = np.random.default_rng(len(kind) * 7 + len(pen))
    truth = play_sheet(sheet, rng)
    style = random_style(rng, kind=kind, pen=pen, style_mix=0.0)
    marked = draw_sheet_marks(blank, sheet, ppm, truth, style, rng, extras=False)
    ink = cv2.absdiff(marked, blank).max(axis=2) > 20
    for box in sheet.boxes:
        r = box.rect
        # the inner 60 % of the box: a neighbour's overshoot never reaches it
        x0, x1 = int((r.x + 0.2 * r.w) * ppm), int((r.x + 0.8 * r.w) * ppm)
        y0, y1 = int((r.y + 0.2 * r.h) * ppm), int((r.y + 0.8 * r.h) * ppm)
        whole = ink[int(r.y * ppm):int((r.y + r.h) * ppm), int(r.x * ppm):int((r.x + r.w) * ppm)]
        if box.id in truth.marked:
            assert whole.mean() > 0.03, f"{kind}/{pen}: no ink in crossed {box.id}"
        else:
            assert not ink[y0:y1, x0:x1].any(), f"{kind}/{pen}: ink in empty {box.id}"


def test_photo_truth_has_the_scan_json_shape_and_the_sheet_in_frame() -> None:
    photo = generate_photo(3, size="small", table=True, sheets=3)
    image = cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    height, width = image.shape[:2]
    assert [width, height] == photo.truth["photo"]["size"]
    assert width * height >= 1.9e6
    assert len(photo.truth["sheets"]) == 3
    for sheet in photo.truth["sheets"]:
        assert {"layout", "letter", "marked", "score", "status", "skip_lined", "pen",
                "style", "occluded_marker", "corners_px"} <= set(sheet)
        corners = np.array(sheet["corners_px"])
        assert (corners >= 0).all() and (corners[:, 0] < width).all()
        assert (corners[:, 1] < height).all()


def test_command_line_writes_photos_and_truth(tmp_path, capsys) -> None:
    assert photogen_main(["--out", str(tmp_path), "--count", "2", "--seed", "4",
                          "--size", "small", "--hard-share", "0.5"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "0000.jpg", "0000.json", "0001.jpg", "0001.json"]
    truth = json.loads((tmp_path / "0001.json").read_text())
    assert truth["file"] == "0001.jpg"
    assert truth["sheets"][0]["layout"] in ("classic", "treden", "kettingen")
    assert "photogen: 2/2" in capsys.readouterr().err


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_exif_orientation_turns_the_stored_pixels_back_upright(orientation: int) -> None:
    upright = np.zeros((60, 90, 3), np.uint8)
    upright[:20, :30] = 255  # a white top-left corner shows which way is up
    data = encode_jpeg(upright, 95, orientation=orientation)
    shown = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    stored = cv2.imdecode(np.frombuffer(data, np.uint8),
                          cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    assert shown.shape == upright.shape
    assert np.abs(shown.astype(int) - upright).mean() < 3
    assert stored.shape[:2] == (upright.shape[:2] if orientation == 3 else upright.shape[1::-1])
    assert np.abs(stored.astype(int) - cv2.resize(upright, stored.shape[1::-1])).mean() > 20


def test_printers_render_the_designed_colours_their_own_way() -> None:
    from photogen.printer import EXACT, Printer, print_sheet, random_printer

    blank = blank_sheet(load_layout("treden").sheet("A"), 4)
    assert print_sheet(blank, EXACT) is blank
    grey = print_sheet(blank, Printer("grey", grey=True))
    assert (np.array_equal(grey[:, :, 0], grey[:, :, 1])
            and np.array_equal(grey[:, :, 1], grey[:, :, 2]))
    faded = print_sheet(blank, Printer("faded", strength=(0.5, 0.5, 0.5)))
    # paler everywhere ink is, paper stays paper
    assert (faded.astype(int) >= blank.astype(int) - 1).all()
    assert faded.mean() > blank.mean() + 5
    assert (faded[blank == 255] == 255).all()
    kinds = {random_printer(np.random.default_rng(s)).kind for s in range(60)}
    assert kinds == {"exact", "inkjet", "faded", "grey", "cast"}


def test_the_printer_is_drawn_apart_from_the_scene_and_recorded() -> None:
    from photogen.printer import Printer

    drawn = generate_photo(5, size="small")
    forced = generate_photo(5, size="small", printer=Printer("grey", grey=True))
    assert drawn.truth["photo"]["printer"]["kind"] in {"exact", "inkjet", "faded", "grey", "cast"}
    assert forced.truth["photo"]["printer"]["grey"] is True
    # same sheets, marks and camera: only the print differs
    assert drawn.truth["sheets"] == forced.truth["sheets"]
    assert drawn.jpeg != forced.jpeg


def _crossed_insides_inked(sheet, seed: int, style_for, *, ink_level: int, inset: float):
    """Per box a player crossed on a blank ``sheet`` (8 px/mm) in the style
    ``style_for(rng)`` gives: its id and which pixels of its inside (``inset``
    of its size in from each edge) the marks darkened by more than ``ink_level``."""
    ppm = 8
    blank = blank_sheet(sheet, ppm)
    rng = np.random.default_rng(seed)
    truth = play_sheet(sheet, rng)
    style = style_for(rng)
    marked = draw_sheet_marks(blank, sheet, ppm, truth, style, rng, extras=False)
    ink = cv2.absdiff(marked, blank).max(axis=2) > ink_level
    for box_id in truth.marked:
        r = sheet.box(box_id).rect
        yield box_id, ink[int((r.y + inset * r.h) * ppm):int((r.y + (1 - inset) * r.h) * ppm),
                          int((r.x + inset * r.w) * ppm):int((r.x + (1 - inset) * r.w) * ppm)]


@pytest.mark.parametrize("kind", ["shade", "dense-shade"])
def test_shading_covers_the_box_inside_its_outline_with_gaps(kind) -> None:
    # "shade" and "dense-shade" (training data only): a box shaded in with
    # even strokes, as players fill a box lightly with a pencil; the
    # networks read it poorly.
    def pencil(rng):
        return random_style(rng, kind=kind, pen="pencil", style_mix=0.0)

    for box_id, inner in _crossed_insides_inked(load_layout("kettingen").sheet("B"), 5, pencil,
                                                 ink_level=12, inset=0.15):
        assert 0.3 < inner.mean() < 0.97, f"{box_id}: {inner.mean():.2f} of the box inked"
        assert inner.any(axis=0).mean() > 0.9, f"{box_id}: not shaded across"


def test_zigzag_runs_to_and_fro_across_the_box_loosely() -> None:
    # "zigzag" (training data only): one stroke to and fro down the box, a
    # quick loose fill: across the box and down it, most of it left bare.
    def centred_zigzag(rng):
        return replace(random_style(rng, kind="zigzag", pen="black-ballpoint", style_mix=0.0),
                       offset=0.0, size=0.9)

    for box_id, inner in _crossed_insides_inked(load_layout("treden").sheet("A"), 7,
                                                 centred_zigzag, ink_level=40, inset=0.1):
        assert inner.any(axis=0).mean() > 0.6, f"{box_id}: not across the box"
        assert inner.any(axis=1).mean() > 0.6, f"{box_id}: not down the box"
        assert inner.mean() < 0.45, f"{box_id}: {inner.mean():.2f} inked, not a loose fill"


def test_objects_laid_beside_boxes_leave_every_box_inside_visible():
    # Training data for the box networks: dice and pens at boxes' edges,
    # never over what a box holds (its inside, 0.8 mm in from the outline).
    from photogen.scene import OBJECT_INTO_BOX_MM, lay_objects_by_boxes
    from qwixx_print.layout import load_layout

    sheet = load_layout("treden").sheet("C")
    ppm = 4.0
    blank = np.full((round(sheet.size_mm[1] * ppm), round(sheet.size_mm[0] * ppm), 3), 250,
                    np.uint8)
    for seed in range(4):
        image = blank.copy()
        outlines = lay_objects_by_boxes(image, sheet, ppm, np.random.default_rng(seed), 6)
        assert len(outlines) >= 3 and (image != blank).any()
        for outline in outlines:
            poly = outline.astype(np.float32)
            windows = inside = 0
            for box in sheet.boxes:
                r, m = box.rect, OBJECT_INTO_BOX_MM + 0.01
                core = np.float32([[r.x + m, r.y + m], [r.x + r.w - m, r.y + m],
                                   [r.x + r.w - m, r.y + r.h - m], [r.x + m, r.y + r.h - m]])
                near = np.float32([[r.x - 2.1, r.y - 2.1], [r.x + r.w + 2.1, r.y - 2.1],
                                   [r.x + r.w + 2.1, r.y + r.h + 2.1],
                                   [r.x - 2.1, r.y + r.h + 2.1]])
                inside += cv2.intersectConvexConvex(poly, core)[0] > 0
                windows += cv2.intersectConvexConvex(poly, near)[0] > 0
            assert inside == 0 and windows >= 1


def _skip_line_angles(skip_tilt_deg: float | None) -> tuple[np.ndarray, np.ndarray]:
    """The tilt (degrees, + anticlockwise) of every line drawn through a
    number on a white sheet, from the principal axis of its ink, and as the
    generator reports it."""
    from photogen.play import SheetTruth
    from photogen.strokes import draw_sheet_marks_detailed

    sheet = load_layout("classic").sheet(None)
    ppm = 12.0
    white = np.full((round(sheet.size_mm[1] * ppm), round(sheet.size_mm[0] * ppm), 3), 255,
                    np.uint8)
    lined = [b.id for b in sheet.boxes if b.kind == "number"]
    truth = SheetTruth("classic", None, marked=[], skip_lined=lined)
    angles, reported = [], []
    for seed in range(3):
        rng = np.random.default_rng(seed)
        style = random_style(rng, kind="x", pen="black-ballpoint")
        image, report = draw_sheet_marks_detailed(white, sheet, ppm, truth, style, rng,
                                                  skip_tilt_deg=skip_tilt_deg)
        for box_id in lined:
            r = sheet.box(box_id).rect
            inside = image[round(r.y * ppm):round((r.y + r.h) * ppm),
                           round(r.x * ppm):round((r.x + r.w) * ppm)].min(axis=2) < 128
            ys, xs = np.nonzero(inside)
            (vx, vy), *_ = np.linalg.svd(np.cov(np.vstack([xs, ys])))[0].T
            angles.append(-np.degrees(np.arctan(vy / vx)))  # image y runs down
            reported.append(report.skip_tilts[box_id])
    return np.array(angles), np.array(reported)


def test_skip_lines_lie_nearly_level_or_as_tilted_as_asked():
    # Training data: lines through skipped numbers, tilted as far as some
    # players draw them, must stay lines (not slashes: those lie at 45
    # degrees, give or take 10) so that the networks learn where one ends.
    level, level_reported = _skip_line_angles(None)
    tilted, tilted_reported = _skip_line_angles(15.0)
    assert len(level) == len(tilted) >= 100
    # what the benchmark sorts the lines by is what was drawn (give or take
    # the hand's wobble, which bends a few lines)
    for drawn, reported in ((level, level_reported), (tilted, tilted_reported)):
        off = np.abs(drawn - reported)
        assert np.median(off) < 1 and np.mean(off < 3) > 0.9
    level, tilted = np.abs(level), np.abs(tilted)
    assert level.max() < 12 and np.median(level) < 4
    assert tilted.max() < 18 and np.median(tilted) > 5 and np.mean(tilted > 10) > 0.2
