"""Where sheets go on a printed page: pure layout maths, no drawing.

All lengths in mm; positions are from the page's top-left corner, x right,
y down. A placement's ``x, y`` is the top-left corner of the sheet's trim
box on the page.

Home printing (``a4``, ``letter``): as many whole sheets as fit at 100 %,
centred, in a grid. Neighbouring sheets share a cut line when there is no
bleed (one cut separates them); with a bleed they sit ``2 * bleed`` apart
so each sheet's bleed has room. The grid keeps :data:`MIN_MARGIN_MM` of
paper around it: home printers cannot print right up to the paper edge
(Letter printers keep 6.35 mm, most A4 printers 3-5 mm) and the cut marks
need room. The built-in sheets (132 x 98 mm) go four to a page on both A4
and Letter.

Print shop (``sheet``): one sheet per page, the page being the trim size
plus the bleed on every side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import ExitCode, QwixxError

PAPERS_MM: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}
PAPER_NAMES = ("a4", "letter", "sheet")
#: Paper kept clear around the grid of sheets on home paper (see module docstring).
MIN_MARGIN_MM = 6.0
#: Cut marks start this far outside the trim (plus the bleed) and are this long.
CUT_MARK_OFFSET_MM = 1.0
CUT_MARK_LENGTH_MM = 3.0
#: Print shops ask for 2-5 mm; more than this is a typo, not a bleed.
MAX_BLEED_MM = 10.0


class PrintOptionError(QwixxError):
    """A print option that cannot work (sheet count, bleed): a usage error."""

    exit_code = ExitCode.usage


@dataclass(frozen=True)
class Placement:
    """One sheet on a page: the top-left corner of its trim box, in mm."""

    x: float
    y: float


@dataclass(frozen=True)
class Imposition:
    """How sheets of ``sheet_mm`` go onto pages of ``page_mm``."""

    page_mm: tuple[float, float]
    sheet_mm: tuple[float, float]
    bleed_mm: float
    placements: tuple[Placement, ...]
    #: Cut marks as line segments ((x0, y0), (x1, y1)) in mm, all outside every sheet.
    cut_marks: tuple[tuple[tuple[float, float], tuple[float, float]], ...]
    #: Top margin (mm) free for the printing hint; 0 on print-shop pages.
    top_margin_mm: float

    @property
    def per_page(self) -> int:
        return len(self.placements)

    @property
    def trim_box_mm(self) -> tuple[float, float, float, float]:
        """Print-shop pages: the trim box as (x0, y0, x1, y1) from the bottom-left."""
        b = self.bleed_mm
        w, h = self.sheet_mm
        return (b, b, b + w, b + h)


def check_bleed(bleed_mm: float) -> float:
    if not math.isfinite(bleed_mm) or bleed_mm < 0:
        raise PrintOptionError(f"--bleed must be 0 mm or more, not {bleed_mm:g}")
    if bleed_mm > MAX_BLEED_MM:
        raise PrintOptionError(f"a bleed of {bleed_mm:g} mm is more than {MAX_BLEED_MM:g} mm; "
                               "print shops ask for 2 to 5 mm (--bleed 3)")
    return float(bleed_mm)


def impose(sheet_mm: tuple[float, float], paper: str, bleed_mm: float = 0.0) -> Imposition:
    """The imposition of ``sheet_mm`` sheets on ``paper`` (a4, letter or sheet)."""
    bleed = check_bleed(bleed_mm)
    if paper == "sheet":
        return impose_single(sheet_mm, bleed)
    if paper not in PAPERS_MM:
        raise PrintOptionError(f"unknown paper '{paper}': use a4, letter or sheet")
    return impose_grid(sheet_mm, PAPERS_MM[paper], bleed, paper)


def impose_single(sheet_mm: tuple[float, float], bleed: float) -> Imposition:
    w, h = sheet_mm
    return Imposition(page_mm=(w + 2 * bleed, h + 2 * bleed), sheet_mm=(w, h), bleed_mm=bleed,
                      placements=(Placement(bleed, bleed),), cut_marks=(), top_margin_mm=0.0)


def grid_count(page_mm: tuple[float, float], footprint: tuple[float, float],
               gutter: float, margin: float) -> tuple[int, int]:
    """Columns and rows of ``footprint`` (mm) that fit on ``page_mm`` with
    ``gutter`` between them and ``margin`` all round."""
    pw, ph = page_mm
    fw, fh = footprint
    cols = max(0, math.floor((pw - 2 * margin + gutter) / (fw + gutter) + 1e-9))
    rows = max(0, math.floor((ph - 2 * margin + gutter) / (fh + gutter) + 1e-9))
    return cols, rows


def impose_grid(sheet_mm: tuple[float, float], paper_mm: tuple[float, float], bleed: float,
                paper_name: str = "the paper") -> Imposition:
    """Most whole sheets per page, centred."""
    w, h = sheet_mm
    gutter = 2 * bleed
    margin = MIN_MARGIN_MM + bleed
    # Sheets stay upright (they read the same way as the hint); the page turns
    # to landscape when that fits more, or as many with a larger top margin,
    # where the hint goes. Turning the sheets instead could never fit more.
    best: tuple[int, float, tuple[float, float], int, int] | None = None
    portrait = (min(paper_mm), max(paper_mm))
    for page in (portrait, portrait[::-1]):
        cols, rows = grid_count(page, (w, h), gutter, margin)
        top = (page[1] - rows * h - (rows - 1) * gutter) / 2
        if best is None or (cols * rows, top) > best[:2]:
            best = (cols * rows, top, page, cols, rows)
    assert best is not None
    count, _, page, cols, rows = best
    if count == 0:
        raise PrintOptionError(
            f"a {w:g} x {h:g} mm sheet with a {bleed:g} mm bleed does not fit on {paper_name} "
            f"with {MIN_MARGIN_MM:g} mm margins; use a smaller --bleed or --paper sheet")
    fw, fh = w, h
    block_w = cols * fw + (cols - 1) * gutter
    block_h = rows * fh + (rows - 1) * gutter
    x0 = (page[0] - block_w) / 2
    y0 = (page[1] - block_h) / 2
    placements = tuple(
        Placement(round(x0 + c * (fw + gutter), 4), round(y0 + r * (fh + gutter), 4))
        for r in range(rows) for c in range(cols)
    )
    xs = sorted({p.x for p in placements} | {round(p.x + fw, 4) for p in placements})
    ys = sorted({p.y for p in placements} | {round(p.y + fh, 4) for p in placements})
    marks = cut_marks(xs, ys, (x0, y0, x0 + block_w, y0 + block_h), bleed)
    return Imposition(page_mm=page, sheet_mm=(w, h), bleed_mm=bleed, placements=placements,
                      cut_marks=marks, top_margin_mm=y0)


def cut_marks(xs: list[float], ys: list[float], block: tuple[float, float, float, float],
              bleed: float) -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
    """Short lines in the margin, in line with every cut, never over a sheet.

    ``xs``/``ys``: the x of every vertical cut and the y of every horizontal
    one; ``block``: the grid's outer edges (x0, y0, x1, y1)."""
    bx0, by0, bx1, by1 = block
    start = CUT_MARK_OFFSET_MM + bleed
    end = start + CUT_MARK_LENGTH_MM
    marks = []
    for x in xs:
        marks.append(((x, by0 - end), (x, by0 - start)))
        marks.append(((x, by1 + start), (x, by1 + end)))
    for y in ys:
        marks.append(((bx0 - end, y), (bx0 - start, y)))
        marks.append(((bx1 + start, y), (bx1 + end, y)))
    return tuple(marks)
