"""`qwixx print` and the renderer: pages, page boxes, fonts, reproducibility,
and geometry measured on the rasterized PDF against the layout model.

Measuring: pages are rasterized with pypdfium2; an edge is located to a
fraction of a pixel by integrating the darkness across it (an anti-aliased
edge spreads its coverage over the pixels it cuts). Pixel i covers
[i, i + 1) px; mm = px / scale.
"""

from __future__ import annotations

import base64
import re
import zlib
from pathlib import Path

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from qwixx_print.cli import cli
from qwixx_print.fiducials import ARUCO_DICT, MARKER_IDS, marker_cells
from qwixx_print.imposition import PAPERS_MM, impose
from qwixx_print.layout import Rect, Sheet, load_layout
from qwixx_print.render import choose_letters, pad_pdf, pad_sheets, sheet_pdf
from qwixx_print.sheet_art import BOX_OUTLINE_MM, STEP_FRAME_MM, chain_ring_radius

PT_PER_MM = 72 / 25.4
TOL_MM = 0.1
ALL_SHEETS = [("classic", None)] + [(n, k) for n in ("treden", "kettingen") for k in "ABCDE"]


def raster(pdf: bytes, page: int = 0, px_per_mm: float = 10.0) -> np.ndarray:
    """Grey levels 0 (black) .. 1 (white), row 0 at the page's top."""
    image = pdfium.PdfDocument(pdf)[page].render(scale=px_per_mm / PT_PER_MM).to_pil()
    return np.asarray(image.convert("L"), dtype=np.float64) / 255.0


def edge_rising(profile: np.ndarray, start_px: int) -> float:
    """``profile`` goes light -> dark: where the edge is, in px from ``start_px``'s pixel edge."""
    dark = np.clip((profile[0] - profile) / (profile[0] - profile[-1]), 0, 1)
    return start_px + len(profile) - dark.sum()


def edge_falling(profile: np.ndarray, start_px: int) -> float:
    """``profile`` goes dark -> light."""
    dark = np.clip((profile[-1] - profile) / (profile[-1] - profile[0]), 0, 1)
    return start_px + dark.sum()


def measure_dark_square(img: np.ndarray, rect: Rect, s: float, dx: float = 0.0,
                        dy: float = 0.0) -> Rect:
    """Edges of a black square (a marker) drawn at ``rect`` + (dx, dy) mm, white around,
    measured along a line through its first / last row and column of cells (all black)."""
    x, y = rect.x + dx, rect.y + dy
    cell = rect.w / 6
    row_top = int((y + cell / 2) * s)
    col_left, col_right = int((x + cell / 2) * s), int((x + rect.w - cell / 2) * s)
    a, b = int((x - 1.0) * s), int((x + 0.8) * s)
    left = edge_rising(img[row_top, a:b], a)
    a, b = int((x + rect.w - 0.8) * s), int((x + rect.w + 1.0) * s)
    right = edge_falling(img[row_top, a:b], a)
    a, b = int((y - 1.0) * s), int((y + 0.8) * s)
    top = edge_rising(img[a:b, col_left], a)
    a, b = int((y + rect.h - 0.8) * s), int((y + rect.h + 1.0) * s)
    bottom = edge_falling(img[a:b, col_right], a)
    return Rect(left / s - dx, top / s - dy, (right - left) / s, (bottom - top) / s)


def assert_rect_close(found: Rect, want: Rect, what: str) -> None:
    for name in ("x", "y", "w", "h"):
        got, exp = getattr(found, name), getattr(want, name)
        assert abs(got - exp) <= TOL_MM, f"{what}: {name} {got:.3f} mm, geometry says {exp:.3f}"


@pytest.fixture(scope="module")
def treden_a() -> Sheet:
    return load_layout("treden").sheet("A")


@pytest.fixture(scope="module")
def treden_a_image(treden_a: Sheet) -> tuple[np.ndarray, float]:
    s = 20.0
    return raster(sheet_pdf(treden_a), px_per_mm=s), s


def pdf_page_sizes_mm(pdf: bytes) -> list[tuple[float, float]]:
    doc = pdfium.PdfDocument(pdf)
    return [tuple(round(v / PT_PER_MM, 2) for v in doc[i].get_size()) for i in range(len(doc))]


# ---------------------------------------------------------------- pages and boxes


@pytest.mark.parametrize("paper, per_page", [("a4", 4), ("letter", 4), ("sheet", 1)])
def test_page_count_and_size_per_paper(paper: str, per_page: int) -> None:
    layout = load_layout("classic")
    data, info = pad_pdf(pad_sheets(layout, (None,), 7), paper=paper)
    sizes = pdf_page_sizes_mm(data)
    pages = -(-7 // per_page)
    assert info.pages == len(sizes) == pages
    if paper == "sheet":
        assert set(sizes) == {(132.0, 98.0)}
    else:  # the paper, upright or turned to landscape
        assert set(sizes) in ({PAPERS_MM[paper]}, {PAPERS_MM[paper][::-1]})


def test_default_pad_is_80_sheets_on_20_a4_pages(tmp_path: Path) -> None:
    out = tmp_path / "pad.pdf"
    result = CliRunner().invoke(cli, ["print", "treden", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert len(pdfium.PdfDocument(out.read_bytes())) == 20
    assert "print at 100 %" in result.output and "20 A4 pages" in result.output


def test_sheet_paper_with_bleed_sets_trim_and_bleed_box() -> None:
    layout = load_layout("kettingen")
    data, info = pad_pdf(pad_sheets(layout, ("A",), 2), paper="sheet", bleed_mm=3)
    page = pdfium.PdfDocument(data)[0]
    mm = [round(v / PT_PER_MM, 3) for v in page.get_trimbox()]
    assert mm == [3.0, 3.0, 135.0, 101.0]
    assert [round(v / PT_PER_MM, 3) for v in page.get_bleedbox()] == [0.0, 0.0, 138.0, 104.0]
    assert info.page_mm == (138.0, 104.0)


def test_bleed_extends_the_row_bands_beyond_the_trim() -> None:
    sheet = load_layout("classic").sheet()
    data, _ = pad_pdf([sheet], paper="sheet", bleed_mm=3)
    img = raster(data, px_per_mm=10)
    red_band_y = int((3 + sheet.box("red-2").rect.y + 1) * 10)
    # Left bleed (0..3 mm) and right bleed carry the red band's colour, not white paper.
    assert img[red_band_y, 5] < 0.8 and img[red_band_y, -5] < 0.8
    # Nothing else touches the trim: the top bleed stays white paper.
    assert img[15, :].min() > 0.98


def test_a4_sheets_sit_where_the_imposition_says(treden_a: Sheet) -> None:
    layout = load_layout("treden")
    data, _ = pad_pdf(pad_sheets(layout, ("A", "B"), 2), paper="a4")
    s = 10.0
    img = raster(data, px_per_mm=s)
    imposition = impose(treden_a.size_mm, "a4")
    assert imposition.per_page == 4
    for placement in imposition.placements[:2]:  # the two sheets printed
        for rect in treden_a.furniture.markers:
            found = measure_dark_square(img, rect, s, placement.x, placement.y)
            assert_rect_close(found, rect, f"marker on the A4 page at {placement}")


def test_cut_marks_never_cross_a_sheet() -> None:
    imposition = impose((132.0, 98.0), "a4")
    w, h = imposition.sheet_mm
    for (x0, y0), (x1, y1) in imposition.cut_marks:
        for p in imposition.placements:
            inside_x = max(x0, x1) > p.x and min(x0, x1) < p.x + w
            inside_y = max(y0, y1) > p.y and min(y0, y1) < p.y + h
            assert not (inside_x and inside_y)
        pw, ph = imposition.page_mm
        assert 3 <= min(x0, x1) and max(x0, x1) <= pw - 3 and 3 <= min(y0, y1) <= ph - 3


# ---------------------------------------------------------------- PDF properties


def test_fonts_are_embedded_truetype_subsets_and_no_standard_14() -> None:
    data, _ = pad_pdf(pad_sheets(load_layout("treden"), ("A",), 3), paper="a4")
    base_fonts = re.findall(rb"/BaseFont /([^\s/>]+)", data)
    assert base_fonts, "no fonts found"
    assert all(b"+" in name for name in base_fonts), base_fonts  # subset = embedded
    assert data.count(b"/FontFile2") == len(base_fonts)
    for standard in (b"Helvetica", b"Times", b"Courier", b"Symbol", b"ZapfDingbats"):
        assert standard not in data


def test_metadata_title_and_creator() -> None:
    data, _ = pad_pdf(pad_sheets(load_layout("kettingen"), ("A", "B"), 4), paper="a4")
    assert b"/Title (Qwixx score pad: kettingen A,B, 4 sheets)" in data
    assert re.search(rb"/Creator \(qwixx [0-9.]+\)", data)


def test_same_command_same_bytes(tmp_path: Path) -> None:
    runner = CliRunner()
    outs = []
    for name in ("one.pdf", "two.pdf"):
        out = tmp_path / name
        result = runner.invoke(cli, ["print", "kettingen", "--sheets", "12", "--cmyk",
                                     "-o", str(out)])
        assert result.exit_code == 0, result.output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def _content_streams(data: bytes) -> list[bytes]:
    """Every stream's decoded bytes (reportlab writes ASCII85 + Flate)."""
    streams = []
    for match in re.finditer(rb"/Filter \[ /ASCII85Decode /FlateDecode \]"
                             rb".*?stream\r?\n(.*?)endstream",
                             data, re.S):
        body = match.group(1).strip().removesuffix(b"~>")
        streams.append(zlib.decompress(base64.a85decode(body)))
    return streams


def test_cmyk_draws_every_colour_in_cmyk() -> None:
    layout = load_layout("treden")
    data, _ = pad_pdf(pad_sheets(layout, ("A",), 2), paper="a4", cmyk=True)
    ops = b"\n".join(_content_streams(data))
    assert re.search(rb"\sk\b", ops) and re.search(rb"\sK\b", ops)
    assert not re.search(rb"\s(rg|RG|g|G)\b", ops)
    rgb, _ = pad_pdf(pad_sheets(layout, ("A",), 2), paper="a4")
    assert re.search(rb"\srg\b", b"\n".join(_content_streams(rgb)))


def test_each_sheet_is_one_form_placed_on_every_page() -> None:
    data, _ = pad_pdf(pad_sheets(load_layout("treden"), ("A", "B", "C", "D", "E"), 400),
                      paper="a4")
    assert data.count(b"/Subtype /Form") == 5
    assert len(data) < 1_500_000


# ---------------------------------------------------------------- geometry on the page


def test_markers_drawn_exactly_in_their_rects(treden_a: Sheet, treden_a_image) -> None:
    img, s = treden_a_image
    for rect in treden_a.furniture.markers:
        assert_rect_close(measure_dark_square(img, rect, s), rect, "marker")


def test_markers_are_the_shared_aruco_ids_in_their_corners(treden_a: Sheet) -> None:
    s = 8.0
    img = (raster(sheet_pdf(treden_a), px_per_mm=s) * 255).astype(np.uint8)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT))
    corners, ids, _ = detector.detectMarkers(img)
    found = {int(i): c.reshape(4, 2) / s for i, c in zip(ids.ravel(), corners)}
    assert set(found) == set(MARKER_IDS)
    for marker_id, rect in zip(MARKER_IDS, treden_a.furniture.markers):
        # ArUco's first corner is the marker's top-left as drawn.
        assert np.allclose(found[marker_id][0], (rect.x, rect.y), atol=0.2)
        assert marker_cells(marker_id).shape == (6, 6)


def test_number_and_lock_boxes_found_where_the_geometry_says(treden_a: Sheet,
                                                               treden_a_image) -> None:
    """Every box's light interior starts BOX_OUTLINE_MM inside its rect (the outline
    is drawn inside the rect); step boxes have their wider frame there instead."""
    img, s = treden_a_image
    for box in treden_a.boxes:
        if box.kind == "penalty":
            continue
        inset = STEP_FRAME_MM if box.id in treden_a.steps else BOX_OUTLINE_MM
        r = box.rect
        row = int((r.y + 0.15 * r.h) * s)
        col = int((r.x + 0.15 * r.w) * s)
        a, b = int((r.x + inset / 2) * s), int((r.x + 1.4) * s)
        left = edge_falling(img[row, a:b], a) / s
        a, b = int((r.x + r.w - 1.4) * s), int((r.x + r.w - inset / 2) * s)
        right = edge_rising(img[row, a:b], a) / s
        a, b = int((r.y + inset / 2) * s), int((r.y + 1.4) * s)
        top = edge_falling(img[a:b, col], a) / s
        a, b = int((r.y + r.h - 1.4) * s), int((r.y + r.h - inset / 2) * s)
        bottom = edge_rising(img[a:b, col], a) / s
        want = Rect(r.x + inset, r.y + inset, r.w - 2 * inset, r.h - 2 * inset)
        assert_rect_close(Rect(left, top, right - left, bottom - top), want, box.id)


def test_penalty_boxes_found_where_the_geometry_says(treden_a: Sheet, treden_a_image) -> None:
    img, s = treden_a_image
    for box in treden_a.boxes:
        if box.kind != "penalty":
            continue
        r = box.rect
        row, col = int((r.y + r.h / 2) * s), int((r.x + r.w / 2) * s)
        a, b = int((r.x - 0.6) * s), int((r.x + 0.17) * s)
        left = edge_rising(img[row, a:b], a) / s
        a, b = int((r.x + r.w - 0.17) * s), int((r.x + r.w + 0.6) * s)
        right = edge_falling(img[row, a:b], a) / s
        a, b = int((r.y - 0.6) * s), int((r.y + 0.17) * s)
        top = edge_rising(img[a:b, col], a) / s
        a, b = int((r.y + r.h - 0.17) * s), int((r.y + r.h + 0.6) * s)
        bottom = edge_falling(img[a:b, col], a) / s
        assert_rect_close(Rect(left, top, right - left, bottom - top), r, box.id)


def _darkness_on_frame(img: np.ndarray, rect: Rect, s: float, inset: float) -> float:
    """Mean grey level along the middle of a frame ``inset`` mm wide inside ``rect``."""
    y = int((rect.y + inset / 2) * s)
    xs = slice(int((rect.x + 2.0) * s), int((rect.x + rect.w - 2.0) * s))
    return float(img[y, xs].mean())


@pytest.mark.parametrize("letter", "ABCDE")
def test_step_boxes_framed_where_the_layout_says(letter: str) -> None:
    sheet = load_layout("treden").sheet(letter)
    s = 10.0
    img = raster(sheet_pdf(sheet), px_per_mm=s)
    for box in sheet.boxes:
        if box.kind != "number":
            continue
        level = _darkness_on_frame(img, box.rect, s, STEP_FRAME_MM)
        if box.id in sheet.steps:
            assert level < 0.3, f"step box {box.id} on sheet {letter} has no dark frame"
        else:
            assert level > 0.3, f"{box.id} on sheet {letter} looks like a step box"


@pytest.mark.parametrize("letter", "ABCDE")
def test_chain_boxes_ringed_and_linked_where_the_layout_says(letter: str) -> None:
    sheet = load_layout("kettingen").sheet(letter)
    s = 10.0
    img = raster(sheet_pdf(sheet), px_per_mm=s)
    rgb = np.asarray(pdfium.PdfDocument(sheet_pdf(sheet))[0].render(scale=s / PT_PER_MM)
                     .to_pil().convert("RGB"), dtype=np.float64) / 255.0
    chained = {b for pair in sheet.chains for b in pair}

    def ring_distance(box) -> float:
        """How far the ring positions' colour is from the row colour (RGB, 0..1)."""
        cx, cy = box.rect.centre
        r = chain_ring_radius(box.rect)
        angles = np.deg2rad([200, 235, 305, 340])  # upper half, clear of the link
        seen = np.mean([rgb[int((cy - r * np.sin(t)) * s), int((cx + r * np.cos(t)) * s)]
                        for t in angles], axis=0)
        return float(np.abs(seen - np.array(sheet.row(box.row).colour)).max())

    for box in sheet.boxes:
        if box.kind != "number":
            continue
        if box.id in chained:  # a ring in the row's colour
            assert ring_distance(box) < 0.12, f"chain box {box.id} on {letter} has no ring"
        else:
            assert ring_distance(box) > 0.3, f"{box.id} on {letter} looks like a chain box"
    for a, b in sheet.chains:
        ra, rb = sheet.box(a).rect, sheet.box(b).rect
        upper, lower = (ra, rb) if ra.y < rb.y else (rb, ra)
        gap_mid = (upper.y + upper.h + lower.y) / 2
        x = upper.centre[0]
        # The link is a ring: its two sides, left and right of the centre line, are dark.
        sides = [img[int(gap_mid * s), int((x + dx) * s)] for dx in (-1.15, 1.15)]
        assert max(sides) < 0.4, f"no chain link drawn between {a} and {b}"


@pytest.mark.parametrize("name, letter", ALL_SHEETS)
def test_code_decodes_to_layout_letter_and_fingerprint(name: str, letter: str | None) -> None:
    sheet = load_layout(name).sheet(letter)
    img = (raster(sheet_pdf(sheet), px_per_mm=8) * 255).astype(np.uint8)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(img)
    assert text == sheet.code_payload
    assert text.split(":")[1:3] == [name.upper(), letter or "-"]


# ---------------------------------------------------------------- letters and bad input


def test_letters_cycle_so_neighbours_differ() -> None:
    layout = load_layout("treden")
    sheets = pad_sheets(layout, choose_letters(layout, None), 12)
    assert [s.letter for s in sheets] == list("ABCDEABCDEAB")
    assert choose_letters(layout, "a-c,E") == ("A", "B", "C", "E")
    assert choose_letters(layout, "C,A") == ("C", "A")


@pytest.mark.parametrize("args, code, says", [
    (["nosuchlayout"], 3, "unknown layout"),
    (["treden", "--letters", "F"], 3, "no sheet 'F'"),
    (["treden", "--letters", "A-Z"], 3, "no sheet"),
    (["classic", "--letters", "A"], 3, "no letters"),
    (["treden", "--sheets", "0"], 2, "at least 1"),
    (["treden", "--sheets", "100000"], 2, "more than 2000"),
    (["treden", "--bleed", "50"], 2, "2 to 5 mm"),
    (["treden", "--bleed", "-1"], 2, "0 mm or more"),
])
def test_bad_input_one_line_exit_code_and_no_file(tmp_path: Path, args: list[str], code: int,
                                                  says: str) -> None:
    out = tmp_path / "pad.pdf"
    result = CliRunner().invoke(cli, ["print", *args, "-o", str(out)])
    assert result.exit_code == code, result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("qwixx: ") and says in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_unwritable_output_exit_4_and_old_file_untouched(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["print", "classic", "-o", str(tmp_path / "missing" / "p.pdf")])
    assert result.exit_code == 4 and "does not exist" in result.output
    result = runner.invoke(cli, ["print", "classic", "-o", str(tmp_path)])
    assert result.exit_code == 4 and "folder" in result.output
    old = tmp_path / "pad.pdf"
    old.write_bytes(b"the previous pad")
    result = runner.invoke(cli, ["print", "classic", "--sheets", "0", "-o", str(old)])
    assert result.exit_code == 2
    assert old.read_bytes() == b"the previous pad"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pad.pdf"]


def test_bleed_that_does_not_fit_the_paper_is_refused() -> None:
    with pytest.raises(Exception, match="does not fit"):
        impose((190.0, 270.0), "a4", 5.0)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_actual_size_hint_printed_in_the_top_margin(paper: str) -> None:
    data, _ = pad_pdf(pad_sheets(load_layout("classic"), (None,), 2), paper=paper)
    page = pdfium.PdfDocument(data)[0]
    imposition = impose((132.0, 98.0), paper)
    pw, ph = imposition.page_mm
    margin_bottom = (ph - imposition.top_margin_mm) * PT_PER_MM  # PDF y is up
    text = page.get_textpage().get_text_bounded(0, margin_bottom, pw * PT_PER_MM,
                                                ph * PT_PER_MM)
    assert "Print at 100 % (actual size)" in text and "cut along the marks" in text
