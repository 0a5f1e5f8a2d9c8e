"""PDF output: one blank sheet (:func:`sheet_pdf`) and whole pads (:func:`write_pad`).

Each letter's sheet is drawn once as a form XObject and placed on every page
where it appears, so a 400-sheet pad stays small and fast. Output is
reproducible (reportlab's invariant mode: no dates, fixed ids), every font
is an embedded TrueType subset (Bitstream Vera, shipped with reportlab),
and ``cmyk=True`` draws every colour in CMYK with reportlab's colour-space
guard on.

Page coordinates in this module: reportlab points, origin bottom-left; the
imposition hands over mm from the top-left, converted in one place
(:func:`_place_sheet`).
"""

from __future__ import annotations

import io
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from . import __version__
from .colours import BLACK, TEXT_GREY, Ink
from .errors import OutputError, UnknownLetterError
from .imposition import PAPER_NAMES, Imposition, Placement, PrintOptionError, impose
from .layout import Layout, Sheet
from .sheet_art import FONT, draw_sheet, register_fonts, sheet_space

DEFAULT_SHEETS = 80
#: Upper limit for one file: 2000 sheets are 25 pads of 80; more is almost
#: certainly a typo, and the file would only be printed in parts anyway.
MAX_SHEETS = 2000
PRINT_HINT = "Print at 100 % (actual size), not \u201cfit to page\u201d"
CUT_HINT = " \u00b7 cut along the marks"


@dataclass(frozen=True)
class PadInfo:
    """What was written: for the summary line and for tests."""

    layout: str
    letters: tuple[str | None, ...]
    sheets: int
    pages: int
    per_page: int
    paper: str
    page_mm: tuple[float, float]
    bleed_mm: float
    cmyk: bool
    size_bytes: int = 0

    def summary(self, path: str) -> str:
        letters = _letters_text(self.letters)
        what = f"{self.sheets} {self.layout}{' ' + letters if letters else ''} sheet" + (
            "s" if self.sheets != 1 else "")
        w, h = self.page_mm
        if self.paper == "sheet":
            where = f"{self.pages} page{'s' if self.pages != 1 else ''} of {w:g} x {h:g} mm"
            if self.bleed_mm:
                where += f" (trim + {self.bleed_mm:g} mm bleed; TrimBox and BleedBox set)"
            else:
                where += " (trim size; TrimBox set)"
        else:
            where = (f"{self.pages} {self.paper.upper() if self.paper == 'a4' else 'Letter'} "
                     f"page{'s' if self.pages != 1 else ''}, {self.per_page} per page")
        colour = ", CMYK" if self.cmyk else ""
        return (f"wrote {path}: {what} on {where}{colour}; "
                "print at 100 % / actual size, not 'fit to page'")


def choose_letters(layout: Layout, spec: str | None) -> tuple[str | None, ...]:
    """The letters to print: ``None`` means all of the layout's letters.

    ``spec`` is a comma list of letters and ranges: ``A,C``, ``A-E``, ``b-d,a``.
    Raises UnknownLetterError naming the letters the layout has.
    """
    have = [k for k in layout.letters if k is not None]
    if spec is None:
        return tuple(layout.letters)
    if not have:
        raise UnknownLetterError(f"layout '{layout.name}' has one sheet and no letters; "
                                 "leave out --letters")
    chosen: list[str] = []
    for token in (t.strip().upper() for t in spec.split(",")):
        match = re.fullmatch(r"([A-Z])(?:\s*-\s*([A-Z]))?", token)
        if not match:
            raise UnknownLetterError(f"cannot read --letters '{spec}': use letters and ranges "
                                     f"like A,C or A-E (layout '{layout.name}' has "
                                     f"{', '.join(have)})")
        first, last = match.group(1), match.group(2) or match.group(1)
        if first > last:
            raise UnknownLetterError(f"--letters range '{token}' runs backwards; write "
                                     f"{last}-{first}")
        for code in range(ord(first), ord(last) + 1):
            letter = chr(code)
            if letter not in have:
                raise UnknownLetterError(f"layout '{layout.name}' has no sheet '{letter}'; "
                                         f"its letters are {', '.join(have)}")
            if letter not in chosen:
                chosen.append(letter)
    return tuple(chosen)


def check_sheet_count(sheets: int) -> int:
    if sheets < 1:
        raise PrintOptionError(f"--sheets must be at least 1, not {sheets}")
    if sheets > MAX_SHEETS:
        raise PrintOptionError(f"--sheets {sheets} is more than {MAX_SHEETS} (25 pads of 80) "
                               "in one file; write a smaller file and print it several times")
    return sheets


def sheet_pdf(sheet: Sheet, *, cmyk: bool = False) -> bytes:
    """A one-page PDF of one blank sheet, the page exactly its trim size (``size_mm``)."""
    data, _ = pad_pdf([sheet], paper="sheet", cmyk=cmyk, title=_sheet_title(sheet))
    return data


def pad_pdf(sheets: list[Sheet], *, paper: str = "a4", bleed_mm: float = 0.0,
            cmyk: bool = False, cut_marks: bool = True,
            title: str | None = None) -> tuple[bytes, PadInfo]:
    """A pad: ``sheets`` in order, imposed on ``paper`` (a4, letter or sheet)."""
    if not sheets:
        raise PrintOptionError("a pad needs at least one sheet")
    if paper not in PAPER_NAMES:
        raise PrintOptionError(f"unknown paper '{paper}': use {', '.join(PAPER_NAMES)}")
    size = sheets[0].size_mm
    imposition = impose(size, paper, bleed_mm)
    ink = Ink(cmyk=cmyk)
    register_fonts()
    buffer = io.BytesIO()
    pw, ph = imposition.page_mm
    boxes = {}
    if paper == "sheet":
        x0, y0, x1, y1 = imposition.trim_box_mm
        boxes = dict(trimBox=(x0 * mm, y0 * mm, x1 * mm, y1 * mm),
                     bleedBox=(0, 0, pw * mm, ph * mm))
    canvas = Canvas(buffer, pagesize=(pw * mm, ph * mm), invariant=1, pageCompression=1,
                    initialFontName=FONT, enforceColorSpace="cmyk" if cmyk else None, **boxes)
    layout_name = sheets[0].layout
    letters = tuple(dict.fromkeys(s.letter for s in sheets))
    canvas.setTitle(title or f"Qwixx score pad: {layout_name} "
                    f"{_letters_text(letters)}".strip() + f", {len(sheets)} sheets")
    canvas.setCreator(f"qwixx {__version__}")
    canvas.setAuthor("qwixx")
    canvas.setSubject("Score sheets for the dice game Qwixx; print at actual size")

    forms: dict[tuple[str, str | None], str] = {}
    for sheet in sheets:
        key = (sheet.layout, sheet.letter)
        if key not in forms:
            forms[key] = f"sheet{len(forms)}"
            _define_sheet_form(canvas, forms[key], sheet, ink, imposition.bleed_mm)

    per_page = imposition.per_page
    pages = (len(sheets) + per_page - 1) // per_page
    for page in range(pages):
        chunk = sheets[page * per_page:(page + 1) * per_page]
        for sheet, placement in zip(chunk, imposition.placements):
            _place_sheet(canvas, forms[(sheet.layout, sheet.letter)], imposition, placement)
        if paper != "sheet":
            if cut_marks:
                _draw_cut_marks(canvas, imposition, ink)
            hint = PRINT_HINT + (CUT_HINT if cut_marks else "")
            _draw_margin_text(canvas, imposition, ink, hint, f"qwixx {layout_name} \u00b7 "
                              f"page {page + 1} of {pages}")
        canvas.showPage()
    canvas.save()
    data = buffer.getvalue()
    info = PadInfo(layout=layout_name, letters=letters, sheets=len(sheets), pages=pages,
                   per_page=per_page, paper=paper, page_mm=(pw, ph),
                   bleed_mm=imposition.bleed_mm, cmyk=cmyk, size_bytes=len(data))
    return data, info


def pad_sheets(layout: Layout, letters: tuple[str | None, ...], count: int) -> list[Sheet]:
    """``count`` sheets, the letters cycling (A, B, C, D, E, A, ...) so that
    neighbouring sheets differ."""
    check_sheet_count(count)
    chosen = [layout.sheet(letter) for letter in letters]
    return [chosen[i % len(chosen)] for i in range(count)]


def write_pad(path: str | os.PathLike[str], layout: Layout, *, letters: str | None = None,
              sheets: int = DEFAULT_SHEETS, paper: str = "a4", bleed_mm: float = 0.0,
              cmyk: bool = False, cut_marks: bool = True) -> PadInfo:
    """Render a pad and write it to ``path`` atomically (never a half-written file)."""
    chosen = choose_letters(layout, letters)
    data, info = pad_pdf(pad_sheets(layout, chosen, sheets), paper=paper, bleed_mm=bleed_mm,
                         cmyk=cmyk, cut_marks=cut_marks)
    write_atomically(Path(path), data)
    return info


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file next to ``path``, then rename it into
    place, so ``path`` is either the old file or the complete new one."""
    if path.is_dir():
        raise OutputError(f"cannot write {path}: it is a folder; give a file name like pad.pdf")
    folder = path.parent if str(path.parent) else Path()
    if not folder.is_dir():
        raise OutputError(f"cannot write {path}: the folder {folder} does not exist; "
                          "create it or choose another -o")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        Path(tmp).chmod(0o666 & ~_umask())
        Path(tmp).replace(path)
        tmp = None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise OutputError(f"cannot write {path}: {reason}; choose another -o") from None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _define_sheet_form(canvas: Canvas, name: str, sheet: Sheet, ink: Ink, bleed: float) -> None:
    w, h = sheet.size_mm
    canvas.beginForm(name, -bleed * mm, -bleed * mm, (w + bleed) * mm, (h + bleed) * mm)
    canvas.saveState()
    sheet_space(canvas, h)
    draw_sheet(canvas, sheet, ink, bleed_mm=bleed)
    canvas.restoreState()
    canvas.endForm()


def _place_sheet(canvas: Canvas, form: str, imposition: Imposition, placement: Placement) -> None:
    """Put a sheet's form at ``placement`` (mm from the page's top-left, y down)."""
    page_h = imposition.page_mm[1]
    h = imposition.sheet_mm[1]
    canvas.saveState()
    canvas.translate(placement.x * mm, (page_h - placement.y - h) * mm)
    canvas.doForm(form)
    canvas.restoreState()


def _draw_cut_marks(canvas: Canvas, imposition: Imposition, ink: Ink) -> None:
    page_h = imposition.page_mm[1]
    canvas.saveState()
    canvas.setStrokeColor(ink(BLACK))
    canvas.setLineWidth(0.3)
    for (x0, y0), (x1, y1) in imposition.cut_marks:
        canvas.line(x0 * mm, (page_h - y0) * mm, x1 * mm, (page_h - y1) * mm)
    canvas.restoreState()


def _draw_margin_text(canvas: Canvas, imposition: Imposition, ink: Ink, hint: str,
                      footer: str) -> None:
    """The print-at-actual-size hint in the top margin, the page number in the bottom one.

    Both sit just outside the grid of sheets, where every printer prints (the
    paper's outer few mm may not print), starting 4 mm in from the grid's
    left edge so they stay clear of the cut marks in line with the cuts."""
    pw, ph = imposition.page_mm
    margin = imposition.top_margin_mm
    if margin < 5:
        return
    x0 = min(p.x for p in imposition.placements) + 4.0
    canvas.saveState()
    canvas.setFillColor(ink(TEXT_GREY))
    canvas.setFont(FONT, 7)
    canvas.drawString(x0 * mm, (ph - margin + 1.5) * mm, hint)
    canvas.setFont(FONT, 6)
    canvas.drawString(x0 * mm, (margin - 1.5) * mm - 5, footer)
    canvas.restoreState()


def _letters_text(letters: tuple[str | None, ...]) -> str:
    real = [k for k in letters if k]
    if not real:
        return ""
    if len(real) > 2 and all(ord(b) - ord(a) == 1 for a, b in zip(real, real[1:])):
        return f"{real[0]}-{real[-1]}"
    return ",".join(real)


def _sheet_title(sheet: Sheet) -> str:
    return f"Qwixx sheet: {sheet.layout}" + (f" {sheet.letter}" if sheet.letter else "")
