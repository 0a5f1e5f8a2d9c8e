"""The scan of one photo file: decode, find, identify, rectify, read, score.

:func:`scan_photo` never raises for a bad photo: whatever goes wrong with
a file or a sheet becomes a message in the :class:`PhotoResult`, so one
bad photo never stops a batch.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from qwixx_print.errors import ExitCode, PhotoError, QwixxError, SheetNotFoundError
from qwixx_print.layout import CODE_MM, Layout, Sheet, load_builtin_layouts, load_layout
from qwixx_print.rules import SheetScore, score_sheet

from .decode import Picture, iter_pictures
from .find import (CORNER_NAMES, SMALL_MARKER_PX, MarkerGroup, MarkerHit, detect_markers,
                   group_markers, marker_rect_corners_mm, markers_at_the_edge,
                   missing_marker_regions)
from .identify import KnownSheets, pin_fit_at_code, read_code, search_code
from .rectify import (
    MAX_FIT_ERROR_MM,
    RECT_PX_PER_MM,
    SheetFit,
    fit_sheet,
    local_px_per_mm,
    outside_sides,
    rectify,
)
from .settle import Settled, doubt_aware, keep_rule_abiding, settle

#: The id of the corner marker next to the code.
BOTTOM_RIGHT = 2

#: Below this many px per mm on the sheet in the half-size decode, the
#: full-size picture is decoded and used instead (the reader wants detail).
#: Measured on 150 generated 8-12 MP photos (a quarter hard): reading from the
#: half-size decode (6-10 px/mm) gave the same boxes as from the full size,
#: and the full decode costs as much as the rest of the scan.
MIN_SOURCE_PX_PER_MM = 4.5
#: A picture smaller than this (px on its long side) has most likely been
#: shrunk on the way (messaging apps send 1,280-1,600 px, or less): where a
#: sheet in it cannot be read, the message says so. Such pictures are read
#: until the markers get too small (benchmarks/scan_benchmark.py
#: --long-side: 150 independent photos at 1,000 px, 144 sheets exact and
#: none unread; at 800 px, 1 unread).
SMALL_PICTURE_PX = 2000


@dataclass
class SheetResult:
    """One sheet read from a photo: its identity, verdicts, score and status.

    ``corners_px``: where the sheet's trim corners (top-left, top-right,
    bottom-right, bottom-left) are in the photo, in px of the full-size,
    upright picture. ``rectified``: the flat sheet image (BGR,
    RECT_PX_PER_MM px per mm), kept only when asked for (overlays).
    """

    sheet: Sheet
    verdicts: dict[str, Any]
    score: SheetScore
    uncertain: list[str]
    #: Doubtful boxes settled by the player's own marks (see ``own_marks``)
    #: or by the rules (see ``settle``), already in ``verdicts``.
    settled: list[Settled] = field(default_factory=list)
    page: int | None = None
    fit_error_mm: float = 0.0
    corners_px: list[list[float]] = field(default_factory=list)
    rectified: np.ndarray | None = field(default=None, repr=False)

    @property
    def status(self) -> str:
        return self.score.status(self.uncertain)

    @property
    def marked(self) -> list[str]:
        return list(self.score.marked)

    def to_json(self) -> dict[str, Any]:
        out = self.score.to_json(self.uncertain)
        out["settled"] = [s.to_json() for s in self.settled]
        if self.page is not None:
            out["page"] = self.page
        out["corners_px"] = self.corners_px
        return out


@dataclass
class PhotoResult:
    """Everything one photo file gave: sheets read, and what went wrong.

    ``error``: set when no sheet at all could be read (``sheets`` is then
    empty). ``problems``: sheets found in the photo but not read (cut off,
    unknown code), while other sheets of the same photo were.
    """

    file: str
    error: str | None = None
    sheets: list[SheetResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: The scan hit a bug (not the photo's fault); ``error`` says so.
    internal_error: bool = False

    @property
    def exit_code(self) -> ExitCode:
        if self.internal_error:
            return ExitCode.internal
        if self.error or self.problems:
            return ExitCode.bad_input
        if any(s.status != "ok" for s in self.sheets):
            return ExitCode.rule_problem
        return ExitCode.ok

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "error": self.error,
                               "sheets": [s.to_json() for s in self.sheets]}
        if self.problems:
            out["problems"] = list(self.problems)
        return out


def known_layouts(extra: Sequence[str] = ()) -> list[Layout]:
    """The built-in layouts plus the layout files given with ``--layout``."""
    layouts = list(load_builtin_layouts())
    layouts += [load_layout(path) for path in extra]
    return layouts


def scan_photo(path: str | Path, *, layouts: Iterable[Layout] | KnownSheets,
               keep_images: bool = False) -> PhotoResult:
    """Read and score every sheet in one photo file (or every page of a PDF)."""
    known = layouts if isinstance(layouts, KnownSheets) else KnownSheets.from_layouts(layouts)
    result = PhotoResult(file=str(path))
    errors: list[str] = []
    pictures = iter_pictures(path)
    while True:
        try:
            picture = next(pictures)
        except StopIteration:
            break
        except QwixxError as exc:  # the file (or a page of it) cannot be decoded
            errors.append(exc.message)
            break
        prefix = f"page {picture.page}: " if (picture.pages or 1) > 1 else ""
        hint = _small_picture_hint(picture)
        try:
            sheets, problems = _scan_picture(picture, known, keep_images=keep_images)
        except QwixxError as exc:
            errors.append(prefix + exc.message + hint)
            continue
        result.sheets += sheets
        result.problems += [prefix + p + hint for p in problems]
    if not result.sheets:
        messages = errors + result.problems
        result.error = "; ".join(messages) if messages else f"{path}: no sheet found"
        result.problems = []
    else:
        result.problems = errors + result.problems
    return result


def _small_picture_hint(picture: Picture) -> str:
    """What to add to a refusal where the picture itself is small (see
    SMALL_PICTURE_PX), else nothing."""
    height, width = picture.image.shape[:2]
    width, height = round(width / picture.scale), round(height / picture.scale)
    if picture.turn in (6, 8):  # stored a quarter turned: say it as a viewer shows it
        width, height = height, width
    if max(width, height) >= SMALL_PICTURE_PX:
        return ""
    return (f" (this picture is only {width} x {height} pixels: if it was sent through a "
            "messaging app, use the original photo)")


def _scan_picture(picture: Picture, known: KnownSheets, *,
                  keep_images: bool) -> tuple[list[SheetResult], list[str]]:
    name = picture.path.name
    gray = cv2.cvtColor(picture.image, cv2.COLOR_BGR2GRAY)
    height, width = gray.shape

    def where_missing(found: list[MarkerHit], pairs: bool):
        size_mm, groups = _best_grouping(found, known)
        return missing_marker_regions(groups, size_mm, (width, height), pairs=pairs)

    hits = detect_markers(gray, picture.image,
                          enough=lambda found: _every_sheet_framed(found, known),
                          where_missing=where_missing)
    if not hits:
        raise SheetNotFoundError(
            f"no sheet found in {name}: none of the four corner markers is visible; "
            "photograph the whole sheet, in focus, with even light on it")
    size_mm, groups = _best_grouping(hits, known)
    sheets: list[SheetResult] = []
    markers_seen: list[int] = []
    problems: list[str] = []
    at_the_edge: list[MarkerGroup] | None = None  # worked out for a sheet refused, once
    for number, group in enumerate(groups, start=1):
        where = f"{name}" if len(groups) == 1 else f"{name}, sheet {number} of {len(groups)}"
        if len(group.hits) < 3:
            if len(group.hits) == 1 and (sheets or len(groups) > 1):
                continue  # a lone marker next to real sheets: not worth a message
            if at_the_edge is None:
                at_the_edge = group_markers(markers_at_the_edge(gray, hits), size_mm)
            problems.append(_too_few_markers(group, size_mm, (width, height), where,
                                             _with_edge_markers(group, at_the_edge)))
            continue
        try:
            sheets.append(_read_sheet(picture, gray, group, size_mm, known, (width, height), where,
                                      keep_images=keep_images))
            markers_seen.append(len(group.hits))
        except QwixxError as exc:
            problems.append(exc.message)
    sheets, problems = _drop_borrowed_codes(sheets, markers_seen, problems, name)
    sheets.sort(key=lambda s: (s.sheet.letter or "", s.sheet.layout))
    return sheets, problems


def _code_centre_px(result: SheetResult) -> tuple[np.ndarray, float]:
    """Where a read sheet's code is in the photo (px) and the sheet's scale (px per mm)."""
    w, h = result.sheet.size_mm
    trim = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    to_px = cv2.getPerspectiveTransform(trim, np.float32(result.corners_px))
    rect = result.sheet.furniture.code
    centre = cv2.perspectiveTransform(
        np.float32([[[rect.x + rect.w / 2, rect.y + rect.h / 2]]]), to_px)[0, 0]
    corners = np.float32(result.corners_px)
    px_per_mm = float(np.linalg.norm(corners[1] - corners[0]) / w)
    return centre, px_per_mm


def _drop_borrowed_codes(sheets: list[SheetResult], markers_seen: list[int],
                         problems: list[str], name: str) -> tuple[list[SheetResult], list[str]]:
    """Refuse a sheet whose code is another sheet's.

    A sheet fitted to three markers looks for its code around where the fit
    puts it; on overlapping sheets that place can hold the neighbour's code
    while its own is under the neighbour. Two sheets claiming one printed
    code (same text, same place) cannot both be right: the one seen with
    fewer markers is refused rather than read against a borrowed identity.
    """
    keep = [True] * len(sheets)
    codes = [_code_centre_px(s) for s in sheets]
    for i, a in enumerate(sheets):
        for j in range(i + 1, len(sheets)):
            b = sheets[j]
            if a.sheet.code_payload != b.sheet.code_payload or a.page != b.page:
                continue
            (ca, sa), (cb, _) = codes[i], codes[j]
            if np.linalg.norm(ca - cb) > CODE_MM * sa:
                continue  # two prints of one sheet, both seen: not a borrowed code
            loser = j if markers_seen[j] < markers_seen[i] else i
            keep[loser] = False
    for kept in keep:
        if not kept:
            problems.append(f"{name}: a sheet's own code is hidden (the code found where it "
                            "should be belongs to the sheet next to it); uncover it and "
                            "photograph again")
    return [s for s, kept in zip(sheets, keep) if kept], problems


def _every_sheet_framed(hits: list[MarkerHit], known: KnownSheets) -> bool:
    """Enough markers found to stop looking: 3 or more, and no sheet seen by
    two markers only. On a table photo a sheet's own markers can be lost to
    noise or a stroke while the other sheets' are found (hard independent
    table seed 15, photo 1: a dark, noisy photo); the marker search's
    further looks are for that sheet too. A lone marker does not count: one
    more found would still leave its sheet unread."""
    return len(hits) >= 3 and all(len(g.hits) != 2 for g in _best_grouping(hits, known)[1])


def _best_grouping(hits, known: KnownSheets) -> tuple[tuple[float, float], list[MarkerGroup]]:
    best: tuple[float, tuple[float, float], list[MarkerGroup]] | None = None
    for size in known.sizes_mm:
        groups = group_markers(hits, size)
        quality = sum(len(g.hits) ** 2 for g in groups)
        if best is None or quality > best[0]:
            best = (quality, size, groups)
        if all(len(g.hits) >= 3 for g in groups):
            break
    assert best is not None
    return best[1], best[2]


def _with_edge_markers(group: MarkerGroup, at_the_edge: list[MarkerGroup]) -> MarkerGroup:
    """``group`` with the markers at the picture's very edge that belong to
    its sheet (``at_the_edge``: every marker found with the edge allowed,
    grouped; see find.markers_at_the_edge)."""
    for other in at_the_edge:
        if all(any(np.linalg.norm(hit.centre - h.centre) <= 0.5 * hit.side_px
                   for h in other.hits.values()) for hit in group.hits.values()):
            return other if len(other.hits) > len(group.hits) else group
    return group


def _too_few_markers(group: MarkerGroup, size_mm: tuple[float, float],
                     image_size: tuple[int, int], where: str,
                     placed_by: MarkerGroup | None = None) -> str:
    """The message for a sheet seen by too few markers (``group``);
    ``placed_by``: its markers and any at the picture's very edge, which
    tell better where the sheet lies (see find.markers_at_the_edge)."""
    seen = ", ".join(CORNER_NAMES[k] for k in sorted(group.hits))
    if np.mean([h.side_px for h in group.hits.values()]) < SMALL_MARKER_PX:
        # Markers this small are easily missed, and too coarse to tell
        # where the sheet's edges lie: no claim that it is cut off.
        return (f"{where}: only {_markers_visible(len(group.hits))} ({seen}), and "
                f"{'it is' if len(group.hits) == 1 else 'they are'} tiny in the picture: "
                "photograph the sheet from closer, so that it fills at least a fifth of the "
                "picture")
    sides, maybe = _sides_outside_by_markers(placed_by or group, size_mm, image_size)
    if sides:
        return _cut_off_message(where, sides)
    if maybe:
        return (f"{where}: only {_markers_visible(len(group.hits))} ({seen}), and the "
                f"{_sides_named(maybe)} of the sheet may be outside the picture: photograph "
                "the whole sheet with a little table around it, its corners uncovered")
    return (f"{where}: only {_markers_visible(len(group.hits))} ({seen}); at least 3 are "
            "needed: uncover the corners, avoid glare and shadow, and photograph again")


def _sides_outside_by_markers(group: MarkerGroup, size_mm: tuple[float, float],
                              image_size: tuple[int, int]) -> tuple[list[str], list[str]]:
    """The sheet's sides outside the picture as too few markers place it:
    those an affine fit and a perspective one to the markers' corners both
    put there, and those only the perspective fit puts there (said with a
    "may").

    Extrapolated from the markers of one side of a sheet tilted away from
    the camera, the affine fit alone can put the far side well outside a
    picture that holds it whole: on a hard independent photo
    (foreign_photos.py --hard-share 1, seed 64, photo 71: tilted 24 degrees,
    dark, a thumb over one marker, another lost in the noise) it put a
    corner 300 px off, past the right edge, where the two markers' eight
    corners in perspective put it 70 px from the truth, inside. The other
    way round on seed 114, photo 144 (tilted 38 degrees, the frame through
    one marker, a thumb over another): the affine fit put the far corner
    300 px inside the picture, the perspective fit 90 px past the truth,
    outside like it. Two small squares' corners are too few to be sure of
    a perspective, so its word alone is a likelihood.
    """
    mm = np.vstack([marker_rect_corners_mm(k, size_mm) for k in group.hits]).astype(np.float32)
    px = np.vstack([h.corners for h in group.hits.values()]).astype(np.float32)
    sheet_mm = (0, 0, size_mm[0], size_mm[1])
    affine, _ = cv2.estimateAffine2D(mm, px)
    by_affine = [] if affine is None else outside_sides(
        SheetFit(np.vstack([affine, [0, 0, 1]]), 0.0, 0.0, len(group.hits)), sheet_mm,
        image_size, margin_px=-2)
    if len(group.hits) < 2:  # a perspective fit needs more than one square's corners
        return by_affine, []
    perspective, _ = cv2.findHomography(mm, px, 0)
    if perspective is None:
        return by_affine, []
    by_perspective = outside_sides(SheetFit(perspective, 0.0, 0.0, len(group.hits)), sheet_mm,
                                   image_size, margin_px=-2)
    both = [side for side in by_affine if side in by_perspective]
    return both, [side for side in by_perspective if side not in both]


def _markers_visible(count: int) -> str:
    return f"{count} of the 4 corner markers of a sheet {'is' if count == 1 else 'are'} visible"


def _cut_off_message(where: str, sides: list[str]) -> str:
    verb = "is" if len(sides) == 1 else "are"
    return (f"{where}: the {_sides_named(sides)} of the sheet {verb} outside the picture; "
            "photograph the whole sheet with a little table around it")


def _sides_named(sides: list[str]) -> str:
    """["right"] -> "right edge"; ["left", "top"] -> "left and top edges"."""
    if len(sides) == 1:
        return f"{sides[0]} edge"
    return ", ".join(sides[:-1]) + f" and {sides[-1]} edges"


def _read_sheet(picture: Picture, gray: np.ndarray, group: MarkerGroup,
                size_mm: tuple[float, float], known: KnownSheets, image_size: tuple[int, int],
                where: str, *, keep_images: bool) -> SheetResult:
    from .read import read_marks

    fit = fit_sheet(group, size_mm)
    image = picture.image
    full_scale = 1.0 / picture.scale
    # The search around the code's place waits for the full size: most codes
    # not read at the reduced size are read there without it.
    payload, fit = _read_payload(gray, fit, group, size_mm, known,
                                 search=picture.scale == 1.0)
    if payload is None and picture.scale != 1.0:
        image, fit = picture.full(), fit.scaled(full_scale)
        image_size = (image.shape[1], image.shape[0])
        payload, fit = _read_payload(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), fit,
                                     group.scaled(full_scale), size_mm, known, search=True)
    if payload is None:
        unread = (f"{where}: the sheet's code (the square barcode above the bottom-right "
                  "marker) cannot be read")
        if BOTTOM_RIGHT in group.missing:
            # The thumb holding the sheet: the code's corner is where it was
            # placed, and a code looked for from the three far markers on
            # bent paper may lie where nothing finds it.
            raise PhotoError(f"{unread}, and the bottom-right corner marker beside it is hidden; "
                             "uncover that corner (hold the sheet by another one), make sure "
                             "the code is in focus and not in glare, and photograph again")
        raise PhotoError(f"{unread}; make sure it is in focus, not covered and not in glare, "
                         "and photograph again")
    sheet = known.match(payload)
    if sheet.size_mm != size_mm:
        group_fit = fit_sheet(group, sheet.size_mm)
        fit = group_fit.scaled(full_scale) if image is not picture.image else group_fit
    if fit.error_mm > MAX_FIT_ERROR_MM:
        raise PhotoError(
            f"{where}: the corner markers do not line up with a flat sheet (off by "
            f"{fit.error_mm:.1f} mm); flatten the sheet and photograph it from above")
    region = _content_region(sheet)
    sides = outside_sides(fit, region, image_size)
    if sides:
        raise PhotoError(_cut_off_message(where, sides))
    if image is picture.image and picture.scale != 1.0 \
            and local_px_per_mm(fit, sheet.size_mm) < MIN_SOURCE_PX_PER_MM:
        image, fit = picture.full(), fit.scaled(full_scale)
    rectified = rectify(image, fit, sheet.size_mm, px_per_mm=RECT_PX_PER_MM)
    width, height = sheet.size_mm

    def surroundings(margin_mm: float) -> np.ndarray:
        return rectify(image, fit, sheet.size_mm, px_per_mm=RECT_PX_PER_MM,
                       region_mm=(-margin_mm, -margin_mm, width + margin_mm, height + margin_mm))

    read, by_marks = keep_rule_abiding(sheet, read_marks(rectified, sheet,
                                                         px_per_mm=RECT_PX_PER_MM,
                                                         all_markers=fit.markers_used == 4,
                                                         surroundings=surroundings))
    verdicts, by_rules = settle(sheet, read)
    settled = by_marks + by_rules
    marked = [v.box_id for v in verdicts.values() if v.state == "crossed"]
    uncertain = [b.id for b in sheet.boxes
                 if b.id in verdicts and verdicts[b.id].state == "uncertain"]
    score = doubt_aware(score_sheet(sheet, marked), sheet, verdicts)
    return SheetResult(sheet=sheet, verdicts=verdicts, score=score, uncertain=uncertain,
                       settled=settled, page=picture.page, fit_error_mm=fit.error_mm,
                       corners_px=_trim_corners_px(fit, sheet, image is picture.image, picture),
                       rectified=rectified if keep_images else None)


def _trim_corners_px(fit: SheetFit, sheet: Sheet, on_working_image: bool,
                     picture: Picture) -> list[list[float]]:
    """The sheet's trim corners in px of the full-size, upright picture,
    rounded to 0.1 px."""
    if on_working_image and picture.scale != 1.0:
        fit = fit.scaled(1.0 / picture.scale)
    w, h = sheet.size_mm
    corners = picture.upright_points(
        fit.to_px(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)))
    return [[round(float(x), 1), round(float(y), 1)] for x, y in corners]


def _read_payload(image: np.ndarray, fit: SheetFit, group: MarkerGroup,
                  size_mm: tuple[float, float], known: KnownSheets, *,
                  search: bool) -> tuple[str | None, SheetFit]:
    """The code's text (None if unreadable) and the fit to read the sheet with.

    With a marker hidden, the fit to the other three can be off by several mm
    towards the hidden corner. When the code is not read where the fit puts
    it, and ``search``, the code's own finder patterns are looked for around
    there, to find the code and to pin the fit down near it. When the code is
    read anyway, the fit is pinned only with the bottom-right marker hidden:
    other corners are far from the code, and there pinning was found to
    change little, for the better or the worse.
    """
    rects = known.code_rects_mm(size_mm) or [_default_code_rect(size_mm)]
    for rect in rects:
        payloads = known.payloads_with_code_at(size_mm, rect)
        text = read_code(image, fit, rect, size_mm, known_payloads=payloads)
        if text:
            if group.missing == (BOTTOM_RIGHT,):
                # The code sits next to the hidden corner: where the fit is
                # worst, and where the finders pin it down best.
                fit = pin_fit_at_code(image, fit, group, rect, size_mm, payloads) or fit
            return text, fit
    for rect in rects if search else []:
        payloads = known.payloads_with_code_at(size_mm, rect)
        found = search_code(image, fit, rect, size_mm, known_payloads=payloads)
        if found:
            text, finders_px = found
            if fit.markers_used == 3:
                pinned = pin_fit_at_code(image, fit, group, rect, size_mm, payloads,
                                         finders_px=finders_px)
                if pinned is None:
                    continue  # read with the fit off at the code, boxes would be misplaced
                fit = pinned
            return text, fit
    return None, fit


def _default_code_rect(size_mm: tuple[float, float]) -> tuple[float, float, float, float]:
    from qwixx_print.layout import CODE_GAP_MM, CODE_MM, MARKER_INSET_MM, MARKER_MM

    width, height = size_mm
    x0 = width - MARKER_INSET_MM - CODE_MM
    y0 = height - MARKER_INSET_MM - MARKER_MM - CODE_GAP_MM - CODE_MM
    return (x0, y0, x0 + CODE_MM, y0 + CODE_MM)


def _content_region(sheet: Sheet) -> tuple[float, float, float, float]:
    """The part of the sheet that must be in the picture (boxes and code), mm."""
    rects = [b.rect for b in sheet.boxes] + [sheet.furniture.code]
    return (min(r.x for r in rects), min(r.y for r in rects),
            max(r.x + r.w for r in rects), max(r.y + r.h for r in rects))
