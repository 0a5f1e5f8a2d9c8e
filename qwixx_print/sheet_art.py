"""Drawing one sheet with reportlab, from the :class:`~qwixx_print.layout.Sheet` model only.

Every position comes from the model (boxes, markers, code, furniture); this
module only decides how things look. :func:`draw_sheet` draws in a
coordinate system set up by :func:`sheet_space`: millimetres from the
sheet's top-left trim corner, x right, y down, exactly as ``qwixx geometry``
reports them.

Looks: each row is a band of its colour running from trim edge to trim edge
(extended into the bleed when there is one), holding light boxes with big
bold numbers in the row's ink colour; the lock box shows a padlock. Treden
step boxes get a dark frame on their edge and are joined into a staircase;
Kettingen chain boxes get a ring in their row colour and a drawn link to their partner.
Box interiors stay light so pen ink stands out for the scanner.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import reportlab
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from .colours import (
    BLACK,
    BOX_TINT,
    MARK_DARK,
    RGB,
    RULE_GREY,
    TEXT_DARK,
    TEXT_GREY,
    WHITE,
    Ink,
    tint,
)
from .fiducials import MARKER_IDS, marker_cells
from .layout import QR_BORDER_MODULES, Rect, Sheet
from .qr import qr_modules

FONT = "QwixxVera"
FONT_BOLD = "QwixxVeraBold"
_FONT_FILES = {FONT: "Vera.ttf", FONT_BOLD: "VeraBd.ttf"}
#: Height of Vera's digits and capitals, as a fraction of the font size.
CAP_HEIGHT = 0.729
PT = 25.4 / 72  # one point in mm

#: Row bands reach this far above and below their boxes (mm); the rest of
#: the gap between rows stays white so the rows read as separate bands.
BAND_PAD_MM = 0.6
BOX_RADIUS_MM = 0.9
BOX_OUTLINE_MM = 0.3
NUMBER_PT = 13.0
STEP_FRAME_MM = 0.8
CHAIN_RING_MM = 0.7
#: The ring's outer edge stays this far inside the box edge.
CHAIN_RING_INSET_MM = 0.2


def register_fonts() -> None:
    """Register reportlab's bundled Bitstream Vera TTFs (embedded and subset in the PDF)."""
    folder = Path(reportlab.__file__).parent / "fonts"
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, filename in _FONT_FILES.items():
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(folder / filename)))


def sheet_space(canvas: Canvas, height_mm: float) -> None:
    """Make the current origin (the sheet's bottom-left trim corner, points, y up)
    into sheet space: mm from the top-left trim corner, y down."""
    canvas.translate(0, height_mm * mm)
    canvas.scale(mm, -mm)


def draw_sheet(canvas: Canvas, sheet: Sheet, ink: Ink, *, bleed_mm: float = 0.0) -> None:
    """Draw ``sheet`` in sheet space (see :func:`sheet_space`).

    ``bleed_mm``: artwork that touches the trim edge (the row bands) is
    extended this far beyond it.
    """
    art = _SheetArt(canvas, sheet, ink, bleed_mm)
    art.draw()


class _SheetArt:
    def __init__(self, canvas: Canvas, sheet: Sheet, ink: Ink, bleed_mm: float) -> None:
        self.c = canvas
        self.sheet = sheet
        self.ink = ink
        self.bleed = bleed_mm
        self.width, self.height = sheet.size_mm

    # ------------------------------------------------------------ helpers

    def fill(self, rgb: RGB) -> None:
        self.c.setFillColor(self.ink(rgb))

    def stroke(self, rgb: RGB, width_mm: float) -> None:
        self.c.setStrokeColor(self.ink(rgb))
        self.c.setLineWidth(width_mm)

    def text(self, x: float, y: float, s: str, *, font: str = FONT, size: float = 8.0,
             rgb: RGB = TEXT_DARK, anchor: str = "start") -> None:
        """Text with its baseline at ``y`` (mm, y down); ``anchor`` start, middle or end."""
        c = self.c
        c.saveState()
        c.translate(x, y)
        c.scale(PT, -PT)
        c.setFont(font, size)
        self.fill(rgb)
        if anchor == "middle":
            c.drawCentredString(0, 0, s)
        elif anchor == "end":
            c.drawRightString(0, 0, s)
        else:
            c.drawString(0, 0, s)
        c.restoreState()

    def centred_text(self, rect: Rect, s: str, *, font: str, size: float, rgb: RGB) -> None:
        """Text centred on ``rect``, optically: digits and capitals centred on their height."""
        cx, cy = rect.centre
        self.text(cx, cy + CAP_HEIGHT * size * PT / 2, s, font=font, size=size, rgb=rgb,
                  anchor="middle")

    @staticmethod
    def text_width(s: str, font: str, size: float) -> float:
        return pdfmetrics.stringWidth(s, font, size) * PT

    def box_shape(self, rect: Rect, fill: RGB, outline: RGB | None,
                  outline_mm: float = BOX_OUTLINE_MM, radius: float = BOX_RADIUS_MM) -> None:
        """A rounded box whose *outer* edge is exactly ``rect``: the outline is inset
        by half its width, so the box measures what the geometry says."""
        self.fill(fill)
        self.c.roundRect(rect.x, rect.y, rect.w, rect.h, radius, stroke=0, fill=1)
        if outline is not None:
            half = outline_mm / 2
            self.stroke(outline, outline_mm)
            self.c.roundRect(rect.x + half, rect.y + half, rect.w - outline_mm,
                             rect.h - outline_mm, max(radius - half, 0), stroke=1, fill=0)

    # ------------------------------------------------------------ the sheet

    def draw(self) -> None:
        self.c.setLineJoin(1)
        self.c.setLineCap(1)
        self.row_bands()
        self.number_and_lock_boxes()
        if self.sheet.steps:
            self.staircase()
        if self.sheet.chains:
            self.chain_links()
        self.penalty_boxes()
        self.points_table()
        self.totals()
        self.title_and_letter()
        self.name_line()
        self.markers()
        self.code()

    def row_bands(self) -> None:
        for row in self.sheet.rows:
            boxes = [b for b in self.sheet.boxes if b.row == row.name]
            top = min(b.rect.y for b in boxes) - BAND_PAD_MM
            bottom = max(b.rect.y + b.rect.h for b in boxes) + BAND_PAD_MM
            # The bands run from trim edge to trim edge, so they bleed.
            x0, x1 = -self.bleed, self.width + self.bleed
            self.fill(row.colour)
            self.c.rect(x0, top, x1 - x0, bottom - top, stroke=0, fill=1)
            self.direction_arrow(boxes[0].rect, top, bottom, row.colour)

    def direction_arrow(self, first: Rect, top: float, bottom: float, colour: RGB) -> None:
        """A light chevron left of the first box: rows are crossed left to right."""
        room = first.x
        if room < 4.0:
            return
        h = (bottom - top) * 0.42
        cx, cy = room / 2 + 0.4, (top + bottom) / 2
        p = self.c.beginPath()
        p.moveTo(cx - h * 0.45, cy - h / 2)
        p.lineTo(cx + h * 0.45, cy)
        p.lineTo(cx - h * 0.45, cy + h / 2)
        p.close()
        self.fill(tint(colour, 0.25))
        self.c.drawPath(p, stroke=0, fill=1)

    def number_and_lock_boxes(self) -> None:
        for row in self.sheet.rows:
            light = tint(row.colour, BOX_TINT)
            for box in self.sheet.boxes:
                if box.row != row.name:
                    continue
                self.box_shape(box.rect, light, row.ink)
                if box.kind == "number":
                    self.centred_text(box.rect, str(box.number), font=FONT_BOLD, size=NUMBER_PT,
                                      rgb=row.ink)
                else:
                    self.padlock(box.rect, row.colour, row.ink)

    def padlock(self, rect: Rect, colour: RGB, ink: RGB) -> None:
        """A padlock drawn with vector paths, centred in ``rect``: outlines in the
        row's ink, the body a mid tint of the row colour, so the box still reads light."""
        s = min(rect.w, rect.h) * 0.82
        cx, cy = rect.centre
        body_w, body_h = 0.52 * s, 0.38 * s
        body_top = cy - 0.04 * s
        shackle_r = 0.16 * s
        c = self.c
        self.stroke(ink, 0.075 * s)
        c.setLineCap(0)
        p = c.beginPath()
        arc_centre_y = body_top - 0.12 * s
        p.moveTo(cx - shackle_r, body_top + 0.02 * s)
        p.lineTo(cx - shackle_r, arc_centre_y)
        # y points down here, so sweeping 180 -> 360 degrees bulges upwards.
        p.arcTo(cx - shackle_r, arc_centre_y - shackle_r, cx + shackle_r, arc_centre_y + shackle_r,
                startAng=180, extent=180)
        p.lineTo(cx + shackle_r, body_top + 0.02 * s)
        c.drawPath(p, stroke=1, fill=0)
        c.setLineCap(1)
        self.fill(tint(colour, 0.5))
        self.stroke(ink, 0.05 * s)
        c.roundRect(cx - body_w / 2, body_top, body_w, body_h, 0.07 * s, stroke=1, fill=1)
        self.fill(ink)
        key_y = body_top + body_h * 0.42
        c.circle(cx, key_y, 0.05 * s, stroke=0, fill=1)
        c.rect(cx - 0.02 * s, key_y, 0.04 * s, 0.11 * s, stroke=0, fill=1)

    # ------------------------------------------------------------ Connected marks

    def staircase(self) -> None:
        """Treden: a dark frame on each step box's edge, and bars joining
        consecutive steps so the path reads as one staircase."""
        steps = [self.sheet.box(i) for i in self.sheet.steps]
        self.fill(MARK_DARK)
        for a, b in zip(steps, steps[1:]):
            self.step_connector(a.rect, b.rect)
        for box in steps:
            r = box.rect
            half = STEP_FRAME_MM / 2
            self.stroke(MARK_DARK, STEP_FRAME_MM)
            self.c.roundRect(r.x + half, r.y + half, r.w - STEP_FRAME_MM, r.h - STEP_FRAME_MM,
                             max(BOX_RADIUS_MM - half, 0.1), stroke=1, fill=0)

    def step_connector(self, a: Rect, b: Rect) -> None:
        f = STEP_FRAME_MM
        gap_x = max(b.x - (a.x + a.w), a.x - (b.x + b.w))
        gap_y = max(b.y - (a.y + a.h), a.y - (b.y + b.h))
        overlap_x = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
        overlap_y = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
        if overlap_y > 3.0 and 0 <= gap_x <= 3.0:  # side by side in a row
            left, right = (a, b) if a.x < b.x else (b, a)
            y0 = max(a.y, b.y) + overlap_y * 0.30
            self.c.rect(left.x + left.w - f, y0, gap_x + 2 * f, overlap_y * 0.40, stroke=0, fill=1)
        elif overlap_x > 3.0 and 0 <= gap_y <= 4.0:  # straight up
            upper, lower = (a, b) if a.y < b.y else (b, a)
            x0 = max(a.x, b.x) + overlap_x * 0.30
            self.c.rect(x0, upper.y + upper.h - f, overlap_x * 0.40, gap_y + 2 * f,
                        stroke=0, fill=1)
        elif 0 <= gap_x <= 3.0 and 0 <= gap_y <= 4.0:  # up and one column over
            # Corner to corner; the ends stop inside the frames, which are drawn on top.
            upper, lower = (a, b) if a.y < b.y else (b, a)
            right = upper.x > lower.x
            e = 0.6 * f
            ux = upper.x + e if right else upper.x + upper.w - e
            lx = lower.x + lower.w - e if right else lower.x + e
            self.stroke(MARK_DARK, 1.3)
            self.c.setLineCap(0)
            self.c.line(lx, lower.y + e, ux, upper.y + upper.h - e)
            self.c.setLineCap(1)

    def chain_links(self) -> None:
        """Kettingen: a ring in the row colour inside each chain box, a link between the pair."""
        for a_id, b_id in self.sheet.chains:
            a, b = self.sheet.box(a_id).rect, self.sheet.box(b_id).rect
            ra = chain_ring_radius(a)
            rb = chain_ring_radius(b)
            (ax, ay), (bx, by) = a.centre, b.centre
            dist = math.hypot(bx - ax, by - ay)
            if dist > ra + rb:
                self.chain_link((ax, ay), (bx, by), ra, rb)
            # Each ring in its own row's colour, not black: a pen circle drawn
            # over the ring must stay visible to the scanner.
            for box_id, (cx, cy), radius in ((a_id, (ax, ay), ra), (b_id, (bx, by), rb)):
                row = self.sheet.row(self.sheet.box(box_id).row or "")
                self.stroke(row.colour, CHAIN_RING_MM)
                self.c.circle(cx, cy, radius, stroke=1, fill=0)

    def chain_link(self, a: tuple[float, float], b: tuple[float, float], ra: float,
                   rb: float) -> None:
        """An oval link from ring ``a`` to ring ``b``, overlapping both a little."""
        (ax, ay), (bx, by) = a, b
        dist = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / dist, (by - ay) / dist
        start, end = ra - 1.6, dist - rb + 1.6
        length, width = end - start, 2.6
        mx, my = ax + ux * (start + end) / 2, ay + uy * (start + end) / 2
        c = self.c
        c.saveState()
        c.translate(mx, my)
        c.rotate(math.degrees(math.atan2(uy, ux)))
        self.stroke(MARK_DARK, 0.7)
        c.roundRect(-length / 2, -width / 2, length, width, width / 2, stroke=1, fill=0)
        c.restoreState()

    # ------------------------------------------------------------ the rest

    def penalty_boxes(self) -> None:
        boxes = [b for b in self.sheet.boxes if b.kind == "penalty"]
        for box in boxes:
            self.box_shape(box.rect, WHITE, RULE_GREY, outline_mm=0.35)
        first = min(boxes, key=lambda b: b.rect.x).rect
        right = first.x - 1.8
        table_right = self.sheet.furniture.table.x + self.sheet.furniture.table.w
        room = right - table_right - 1.5
        size = self.fit_size("penalties", FONT_BOLD, 7.0, room)
        cy = first.y + first.h / 2
        self.text(right, cy - 0.4, "penalties", font=FONT_BOLD, size=size, rgb=TEXT_DARK,
                  anchor="end")
        self.text(right, cy + 2.6, "\u22125 each", size=size, rgb=TEXT_GREY, anchor="end")

    def fit_size(self, s: str, font: str, size: float, room_mm: float) -> float:
        width = self.text_width(s, font, size)
        return size if width <= room_mm else size * room_mm / width

    def points_table(self) -> None:
        t = self.sheet.furniture.table
        n = 12
        cell = t.w / n
        mid = t.y + t.h * 0.45
        c = self.c
        self.fill(tint(RULE_GREY, 0.18))
        c.roundRect(t.x, t.y, t.w, t.h, 0.9, stroke=0, fill=1)
        self.fill(WHITE)
        c.rect(t.x + 0.3, mid, t.w - 0.6, t.y + t.h - 0.3 - mid, stroke=0, fill=1)
        self.stroke(RULE_GREY, 0.25)
        c.roundRect(t.x + 0.125, t.y + 0.125, t.w - 0.25, t.h - 0.25, 0.8, stroke=1, fill=0)
        self.stroke(RULE_GREY, 0.18)
        for k in range(1, n):
            c.line(t.x + k * cell, t.y + 0.5, t.x + k * cell, t.y + t.h - 0.5)
        for k in range(n):
            count = k + 1
            x = t.x + (k + 0.5) * cell
            self.text(x, mid - 1.0, f"{count}\u00d7", size=5.6, rgb=TEXT_GREY, anchor="middle")
            self.text(x, t.y + t.h - 1.35, str(count * (count + 1) // 2), font=FONT_BOLD,
                      size=7.6, rgb=TEXT_DARK, anchor="middle")

    def totals(self) -> None:
        fields = self.sheet.furniture.totals
        labels = {"steps": "steps", "penalties": "penalties", "total": "total"}
        for k, (name, rect) in enumerate(fields):
            if name in ("red", "yellow", "green", "blue"):
                row = self.sheet.row(name)
                self.box_shape(rect, tint(row.colour, BOX_TINT), row.colour, outline_mm=0.7)
            elif name == "steps":
                self.box_shape(rect, WHITE, MARK_DARK, outline_mm=STEP_FRAME_MM)
            elif name == "total":
                self.box_shape(rect, WHITE, TEXT_DARK, outline_mm=1.0)
            else:
                self.box_shape(rect, WHITE, RULE_GREY, outline_mm=0.5)
            self.text(rect.x + rect.w / 2, rect.y + rect.h + 2.4, labels.get(name, name),
                      size=5.2, rgb=TEXT_GREY, anchor="middle")
            if k + 1 < len(fields):
                nxt_name, nxt = fields[k + 1]
                op = {"penalties": "\u2212", "total": "="}.get(nxt_name, "+")
                gap = Rect(rect.x + rect.w, rect.y, nxt.x - rect.x - rect.w, rect.h)
                self.centred_text(gap, op, font=FONT_BOLD, size=10, rgb=TEXT_DARK)

    def title_and_letter(self) -> None:
        sheet, f = self.sheet, self.sheet.furniture
        x, y = f.title_at
        # Title and subtitle shrink together to end 3 mm before the letter box
        # (or the top-right marker), whatever their length.
        right = (f.letter.x if sheet.letter else f.markers[1].x) - 3.0
        natural = self.text_width(sheet.title, FONT_BOLD, 17)
        if sheet.subtitle:
            natural += 2.5 + self.text_width(sheet.subtitle, FONT, 12)
        scale = min(1.0, (right - x) / natural)
        self.text(x, y, sheet.title, font=FONT_BOLD, size=17 * scale, rgb=TEXT_DARK)
        if sheet.subtitle:
            x += self.text_width(sheet.title, FONT_BOLD, 17 * scale) + 2.5 * scale
            self.text(x, y, sheet.subtitle, size=12 * scale, rgb=TEXT_GREY)
        if sheet.letter:
            r = f.letter
            self.box_shape(r, WHITE, TEXT_DARK, outline_mm=0.6, radius=1.6)
            self.centred_text(r, sheet.letter, font=FONT_BOLD, size=24, rgb=TEXT_DARK)

    def name_line(self) -> None:
        r = self.sheet.furniture.name_line
        base = r.y + r.h - 0.6
        self.text(r.x, base - 0.4, "name", size=6.5, rgb=TEXT_GREY)
        x0 = r.x + self.text_width("name", FONT, 6.5) + 1.5
        self.stroke(RULE_GREY, 0.25)
        self.c.line(x0, base, r.x + r.w, base)

    # ------------------------------------------------------------ machine-readable

    def markers(self) -> None:
        """The four ArUco markers as one filled path each (no seams between cells)."""
        self.fill(BLACK)
        for rect, marker_id in zip(self.sheet.furniture.markers, MARKER_IDS):
            cells = marker_cells(marker_id)
            self.cell_path(rect, cells.tolist())

    def code(self) -> None:
        """The QR code (error correction M) filling ``furniture.code``."""
        grid = np.pad(qr_modules(self.sheet.code_payload), QR_BORDER_MODULES).tolist()
        self.fill(BLACK)
        self.cell_path(self.sheet.furniture.code, grid)

    def cell_path(self, rect: Rect, cells: list[list[bool]]) -> None:
        """Fill the True cells of a square grid laid over ``rect`` as one path,
        merging runs along each row to keep the file small."""
        rows = len(cells)
        step_x, step_y = rect.w / len(cells[0]), rect.h / rows
        p = self.c.beginPath()
        for r, line in enumerate(cells):
            col = 0
            while col < len(line):
                if not line[col]:
                    col += 1
                    continue
                start = col
                while col < len(line) and line[col]:
                    col += 1
                p.rect(rect.x + start * step_x, rect.y + r * step_y, (col - start) * step_x, step_y)
        self.c.drawPath(p, stroke=0, fill=1)



def chain_ring_radius(rect: Rect) -> float:
    """Radius (mm, to the middle of the stroke) of a chain box's ring."""
    return min(rect.w, rect.h) / 2 - CHAIN_RING_INSET_MM - CHAIN_RING_MM / 2
