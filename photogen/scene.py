"""Realistic phone photos of finished Qwixx sheets, from a seed.

A photo is built like a real one: the printed sheet (``sheet_pdf``
rasterized, in the colours some printer makes of it) gets the player's pen
marks, lies on a table (wood, laminate or cloth), gently curved, possibly
with a thumb on one corner, and is seen by a phone camera: perspective
from a tilt of up to ~40 degrees, any rotation, uneven light with shadows,
lens blur, sensor noise, sharpening and JPEG.
Table scenes put 2-5 sheets side by side with pens and dice on them.

Coordinates: sheet mm (origin top-left trim corner, y down), table-plane mm
(where the sheets lie), photo px (x right, y down). Everything is drawn
from one ``numpy`` Generator seeded by the caller's seed: the same seed
gives the same bytes.

Main entry: :func:`generate_photo`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from qwixx_print.layout import Rect, Sheet, load_layout
from qwixx_print.rules import score_sheet

from .play import SheetTruth, play_sheet
from .printer import Printer, print_sheet, random_printer
from .raster import blank_sheet, raster_level
from .strokes import MarkReport, MarkStyle, draw_sheet_marks_detailed, random_style

#: Photo sizes (width, height) in landscape; a photo is portrait half the time.
SIZES: dict[str, tuple[tuple[int, int], ...]] = {
    "12mp": ((4000, 3000), (4032, 3024)),
    "8mp": ((3264, 2448),),
    "mixed": ((4000, 3000), (4032, 3024), (3264, 2448)),
    "small": ((1600, 1200),),
}
#: Layouts a sheet is drawn from, with how often.
LAYOUT_WEIGHTS = {"classic": 0.3, "treden": 0.35, "kettingen": 0.35}
_GRID = 8  # px: the coarse grid on which the warp and the light are computed


@dataclass(frozen=True)
class Profile:
    """Ranges the scene's random settings are drawn from.

    ``fill``: sheet area / photo area (single-sheet photos). ``blur``: lens
    blur sigma in px at 4000 px photo width (scaled with the width).
    ``noise``: sensor noise sd in grey levels. ``gradient``: relative
    brightness change across the photo. ``curl_mm``: paper bulge height.
    """

    name: str
    tilt_deg: tuple[float, float]
    fill: tuple[float, float]
    blur: tuple[float, float]
    noise: tuple[float, float]
    jpeg_quality: tuple[int, int]
    gradient: tuple[float, float]
    exposure: tuple[float, float]
    shadow_chance: float
    shadow_depth: tuple[float, float]
    curl_mm: tuple[float, float]
    thumb_chance: float
    motion_blur_chance: float
    hard_marks: bool
    focus_blur: tuple[float, float] = (0.0, 0.0)  # extra blur on the far side (depth of field)


PROFILES: dict[str, Profile] = {
    "easy": Profile(
        "easy", tilt_deg=(0, 12), fill=(0.35, 0.6), blur=(0.3, 0.7), noise=(1.0, 2.0),
        jpeg_quality=(85, 95), gradient=(0.03, 0.12), exposure=(0.85, 0.97), shadow_chance=0.0,
        shadow_depth=(0.0, 0.0), curl_mm=(0.0, 0.6), thumb_chance=0.0, motion_blur_chance=0.0,
        hard_marks=False),
    "normal": Profile(
        "normal", tilt_deg=(0, 32), fill=(0.2, 0.67), blur=(0.4, 1.3), noise=(1.5, 4.0),
        jpeg_quality=(55, 95), gradient=(0.08, 0.3), exposure=(0.72, 0.97), shadow_chance=0.4,
        shadow_depth=(0.15, 0.4), curl_mm=(0.0, 2.0), thumb_chance=0.15, motion_blur_chance=0.05,
        hard_marks=False, focus_blur=(0.0, 1.0)),
    "hard": Profile(
        "hard", tilt_deg=(18, 40), fill=(0.2, 0.67), blur=(0.9, 2.2), noise=(3.0, 7.0),
        jpeg_quality=(35, 70), gradient=(0.25, 0.5), exposure=(0.55, 0.9), shadow_chance=0.75,
        shadow_depth=(0.3, 0.55), curl_mm=(1.0, 3.5), thumb_chance=0.35, motion_blur_chance=0.25,
        hard_marks=True, focus_blur=(0.5, 2.5)),
}


@dataclass
class Photo:
    """A generated photo: JPEG bytes and the truth in the scan-JSON shape."""

    jpeg: bytes
    truth: dict[str, Any]
    image: np.ndarray | None = None  # BGR before JPEG, only when asked for

    @property
    def size(self) -> tuple[int, int]:
        return tuple(self.truth["photo"]["size"])  # type: ignore[return-value]


@dataclass
class _PlacedSheet:
    """A sheet lying on the table: marks, pose (plane mm) and curl."""

    sheet: Sheet
    truth: SheetTruth
    style: MarkStyle
    angle: float  # radians, rotation of the sheet on the table
    centre: np.ndarray  # mm, sheet centre in table-plane coordinates
    curl: _Curl
    report: MarkReport = field(default_factory=MarkReport)
    thumb_marker: int | None = None
    thumb: dict[str, Any] | None = None

    def to_plane(self) -> np.ndarray:
        """3x3: sheet mm -> table-plane mm."""
        w, h = self.sheet.size_mm
        c, s = np.cos(self.angle), np.sin(self.angle)
        rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
        move = np.array([[1, 0, self.centre[0]], [0, 1, self.centre[1]], [0, 0, 1]])
        to_centre = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]])
        return move @ rot @ to_centre

    def outline_plane(self, inset: float = 0.0) -> np.ndarray:
        w, h = self.sheet.size_mm
        return _apply(self.to_plane(), _rect_pts(Rect(inset, inset, w - 2 * inset, h - 2 * inset)))


@dataclass(frozen=True)
class _Curl:
    """Gentle paper bulge: height ``z = amp * (u/L)^2 + twist * u v`` (mm) along
    axis ``u``; seen by the camera as a displacement ``z * lean`` (mm)."""

    amp: float
    twist: float
    axis: float
    lean: tuple[float, float]
    half_len: float
    centre: tuple[float, float]

    def height_and_slope(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ca, sa = np.cos(self.axis), np.sin(self.axis)
        dx, dy = x - self.centre[0], y - self.centre[1]
        u = (dx * ca + dy * sa) / self.half_len
        v = (-dx * sa + dy * ca) / self.half_len
        z = self.amp * u * u + self.twist * u * v
        slope = (2 * self.amp * u + self.twist * v) / self.half_len
        return z, slope


# ---------------------------------------------------------------- public API


def generate_photo(seed: int, *, profile: str = "normal", size: str = "12mp", table: bool = False,
                   sheets: int | None = None, layout: str | None = None,
                   illegal_share: float = 0.03, style_mix: float = 0.1,
                   printer: Printer | None = None, keep_image: bool = False) -> Photo:
    """One photo from ``seed``: a single sheet, or with ``table`` 2-5 sheets
    (``sheets`` forces the count). ``profile``: easy, normal or hard
    (:data:`PROFILES`). ``size``: a key of :data:`SIZES`. ``layout`` forces a
    layout name; else one is drawn from :data:`LAYOUT_WEIGHTS`.
    ``illegal_share``: chance per sheet of breaking a rule on purpose.
    ``printer`` forces how the sheets were printed (else one is drawn:
    :mod:`photogen.printer`)."""
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(PROFILES)}, not {profile!r}")
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, not {size!r}")
    prof = PROFILES[profile]
    # what the players wrote comes from its own stream, so a seed gives the same
    # sheets and marks at every photo size and profile
    game_rng = np.random.default_rng([seed, 0])
    chosen = _choose_sheets(game_rng, table=table, count=sheets, layout=layout)
    truths = [play_sheet(sheet, game_rng, illegal_share=illegal_share) for sheet in chosen]
    placed = [_style_and_curl(sheet, truth, game_rng, prof, style_mix)
              for sheet, truth in zip(chosen, truths, strict=True)]
    rng = np.random.default_rng([seed, 1])
    width, height = SIZES[size][int(rng.integers(len(SIZES[size])))]
    if rng.random() < 0.5:
        width, height = height, width
    if table:
        _arrange_on_table(placed, rng)
        # the photographer turns the phone so that the table fills the picture
        corners = np.vstack([p.outline_plane() for p in placed])
        wide = np.ptp(corners[:, 0]) >= np.ptp(corners[:, 1])
        if wide != (width >= height):
            width, height = height, width
    objects = _table_objects(placed, rng) if table else []
    cam = _camera(placed, width, height, prof, rng, table=table)
    if not table and rng.random() < prof.thumb_chance:
        _place_thumb(placed[0], rng)
    # the printer has its own stream: the same seed gives the same scene with any printer
    printer = printer or random_printer(np.random.default_rng([seed, 2]))
    image, meta = _render(placed, objects, cam, width, height, prof, rng, printer)
    jpeg_quality = int(rng.integers(prof.jpeg_quality[0], prof.jpeg_quality[1] + 1))
    # phones store a portrait photo as landscape pixels plus an EXIF orientation tag
    orientation = 1
    if height > width and rng.random() < 0.5:
        orientation = int(rng.choice([6, 8]))
    jpeg = encode_jpeg(image, jpeg_quality, orientation=orientation)
    truth = {
        "file": None,
        "sheets": [_sheet_truth(p, cam["H"], width, height) for p in placed],
        "photo": {"seed": seed, "size": [width, height], "difficulty": prof.name,
                  "table": table, "jpeg_quality": jpeg_quality, "exif_orientation": orientation,
                  "tilt_deg": cam["tilt_deg"],
                  "objects": [o["kind"] for o in objects], "printer": printer.to_json(),
                  **meta},
    }
    return Photo(jpeg=jpeg, truth=truth, image=image if keep_image else None)


def encode_jpeg(image: np.ndarray, quality: int, *, orientation: int = 1) -> bytes:
    """JPEG bytes of ``image`` (BGR) as seen upright. With ``orientation`` 3, 6
    or 8 the pixels are stored turned and an EXIF orientation tag says how to
    turn them back, as phones do; a reader must honour the tag."""
    stored = {1: image, 3: cv2.rotate(image, cv2.ROTATE_180),
              6: cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE),
              8: cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)}[orientation]
    ok, buf = cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("OpenCV could not encode the photo as JPEG")
    data = buf.tobytes()
    if orientation == 1:
        return data
    # a minimal EXIF block: little-endian TIFF header, one IFD entry 0x0112 (Orientation)
    tiff = (b"II*\x00" + (8).to_bytes(4, "little") + (1).to_bytes(2, "little")
            + (0x0112).to_bytes(2, "little") + (3).to_bytes(2, "little")
            + (1).to_bytes(4, "little") + orientation.to_bytes(2, "little") + b"\x00\x00"
            + (0).to_bytes(4, "little"))
    app1 = b"Exif\x00\x00" + tiff
    segment = b"\xff\xe1" + (len(app1) + 2).to_bytes(2, "big") + app1
    return data[:2] + segment + data[2:]


# ---------------------------------------------------------------- sheets


def _choose_sheets(rng: np.random.Generator, *, table: bool, count: int | None,
                   layout: str | None) -> list[Sheet]:
    name = layout or str(rng.choice(list(LAYOUT_WEIGHTS), p=list(LAYOUT_WEIGHTS.values())))
    lay = load_layout(name)
    if not table:
        letters = [ltr for ltr in lay.letters]
        return [lay.sheet(letters[int(rng.integers(len(letters)))])]
    n = count or int(rng.choice([2, 3, 4, 5], p=[0.2, 0.3, 0.35, 0.15]))
    letters = list(lay.letters)
    if letters == [None]:
        picked = [None] * n
    elif n <= len(letters) and rng.random() > 0.08:
        picked = list(rng.choice(letters, size=n, replace=False))  # each player a different sheet
    else:
        picked = list(rng.choice(letters, size=n, replace=True))  # sometimes two share a letter
    return [lay.sheet(None if ltr is None else str(ltr)) for ltr in picked]


def _style_and_curl(sheet: Sheet, truth: SheetTruth, rng: np.random.Generator, prof: Profile,
                    style_mix: float) -> _PlacedSheet:
    """The player's pen and way of marking, and how the paper curls."""
    style = random_style(rng, style_mix=style_mix, hard=prof.hard_marks)
    w, h = sheet.size_mm
    lo, hi = prof.curl_mm
    curl = _Curl(amp=float(rng.uniform(lo, hi)) * float(rng.choice([-1, 1], p=[0.25, 0.75])),
                 twist=float(rng.normal(0, hi * 0.25)), axis=float(rng.uniform(0, np.pi)),
                 lean=tuple(rng.normal(0, 0.5, 2)), half_len=max(w, h) / 2, centre=(w / 2, h / 2))
    return _PlacedSheet(sheet=sheet, truth=truth, style=style, angle=0.0,
                        centre=np.zeros(2), curl=curl)


def _arrange_on_table(placed: list[_PlacedSheet], rng: np.random.Generator) -> None:
    """Lay the sheets side by side, each turned toward its player, touching
    or overlapping a little at the edges but never over another sheet's
    markers, boxes or code (those lie at least 2.5 mm inside the trim)."""
    keep_clear = 2.5
    for i, p in enumerate(placed):
        if i == 0:
            p.angle = float(rng.uniform(0, 2 * np.pi))
            continue
        for _ in range(200):
            if rng.random() < 0.75:  # players around a table: roughly square to the table
                p.angle = float(rng.integers(4) * np.pi / 2 + rng.normal(0, 0.2))
            else:
                p.angle = float(rng.uniform(0, 2 * np.pi))
            p.angle += placed[0].angle
            heading = rng.uniform(0, 2 * np.pi)
            direction = np.array([np.cos(heading), np.sin(heading)])
            centroid = np.mean([q.centre for q in placed[:i]], axis=0)
            others = [q.outline_plane() for q in placed[:i]]
            others_inner = [q.outline_plane(keep_clear) for q in placed[:i]]
            touch = _touch_distance(p, centroid, direction, others)
            # from there: a small gap (up to 2 mm) or an overlap of up to 2.5 mm
            p.centre = centroid + direction * (touch + rng.uniform(-2.5, 2.0))
            mine, mine_inner = p.outline_plane(), p.outline_plane(keep_clear)
            clear = all(_overlap(mine_inner, q) <= 0 and _overlap(mine, q_inner) <= 0
                        for q, q_inner in zip(others, others_inner, strict=True))
            if clear:
                break
        else:
            raise RuntimeError("could not lay the sheets on the table without covering one")


def _touch_distance(p: _PlacedSheet, centroid: np.ndarray, direction: np.ndarray,
                    others: list[np.ndarray]) -> float:
    """How far from ``centroid`` along ``direction`` sheet ``p`` first touches
    the ``others`` when slid in from afar (mm, found by bisection)."""
    near, far = 0.0, 400.0
    for _ in range(14):
        mid = (near + far) / 2
        p.centre = centroid + direction * mid
        mine = p.outline_plane()
        if any(_overlap(mine, q) > 0 for q in others):
            near = mid
        else:
            far = mid
    return far


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


def _protected_rects(sheet: Sheet) -> list[Rect]:
    """What must stay visible for a reading: every box, the markers, the code."""
    rects = [b.rect for b in sheet.boxes]
    rects += [Rect(m.x - 1.5, m.y - 1.5, m.w + 3, m.h + 3) for m in sheet.furniture.markers]
    rects.append(sheet.furniture.code)
    return rects


# ---------------------------------------------------------------- objects


def _table_objects(placed: list[_PlacedSheet], rng: np.random.Generator) -> list[dict[str, Any]]:
    """Pens and dice lying on and around the sheets, never over what is read."""
    protected = [_apply(p.to_plane(), _rect_pts(r)) for p in placed
                 for r in _protected_rects(p.sheet)]
    corners = np.vstack([p.outline_plane() for p in placed])
    lo, hi = corners.min(axis=0) - 15, corners.max(axis=0) + 15
    objects: list[dict[str, Any]] = []
    n_pens = int(rng.integers(0, 3))
    n_dice = int(rng.choice([0, 2, 4, 6], p=[0.25, 0.25, 0.2, 0.3]))
    for kind, count in (("pen", n_pens), ("die", n_dice)):
        for _ in range(count):
            for _attempt in range(60):
                centre = rng.uniform(lo, hi)
                angle = rng.uniform(0, np.pi)
                if kind == "pen":
                    length, width = rng.uniform(125, 150), rng.uniform(8, 11)
                else:
                    length = width = rng.uniform(13, 17)
                outline = _rotated_rect(centre, length, width, angle)
                if all(_overlap(outline, q) <= 0 for q in protected) and all(
                        _overlap(outline, o["outline"]) <= 0 for o in objects):
                    objects.append({"kind": kind, "outline": outline, "centre": centre,
                                    "angle": angle, "length": length, "width": width,
                                    "colour": _object_colour(kind, rng),
                                    "face": int(rng.integers(1, 7))})
                    break
    return objects


def _object_colour(kind: str, rng: np.random.Generator) -> tuple[int, int, int]:
    if kind == "die":
        options = [(235, 235, 235), (60, 60, 200), (40, 200, 235), (70, 160, 60), (170, 90, 40)]
    else:
        options = [(160, 70, 20), (30, 30, 30), (40, 40, 190), (200, 200, 200), (40, 150, 230)]
    return options[int(rng.integers(len(options)))]


def _place_thumb(p: _PlacedSheet, rng: np.random.Generator) -> None:
    """A thumb over one corner marker, clear of the boxes and the code."""
    sheet = p.sheet
    w, h = sheet.size_mm
    others = [b.rect for b in sheet.boxes] + [sheet.furniture.code]
    for _ in range(40):
        k = int(rng.integers(4))
        m = sheet.furniture.markers[k]
        corner = np.array([(0, 0), (w, 0), (w, h), (0, h)][k], float)
        inward = np.array([m.x + m.w / 2, m.y + m.h / 2]) - corner
        inward /= np.linalg.norm(inward)
        heading = np.arctan2(inward[1], inward[0]) + rng.normal(0, 0.35)
        along = np.array([np.cos(heading), np.sin(heading)])
        length, width = rng.uniform(34, 46), rng.uniform(17, 22)
        tip = np.array([m.x + m.w / 2, m.y + m.h / 2]) + along * rng.uniform(5, 9)
        centre = tip - along * length / 2
        outline = cv2.ellipse2Poly((int(centre[0] * 100), int(centre[1] * 100)),
                                   (int(length * 50), int(width * 50)),
                                   int(np.degrees(heading)), 0, 360, 10).astype(float) / 100
        marker_pts = _rect_pts(Rect(m.x - 0.8, m.y - 0.8, m.w + 1.6, m.h + 1.6))
        covers = all(cv2.pointPolygonTest(outline.astype(np.float32), tuple(map(float, pt)), False)
                     > 0 for pt in marker_pts)
        if covers and all(_overlap(outline, _rect_pts(r)) <= 0 for r in others):
            p.thumb_marker = k
            p.thumb = {"centre": centre, "length": length, "width": width, "heading": heading,
                       "outline": outline}
            return


# ---------------------------------------------------------------- camera


def _camera(placed: list[_PlacedSheet], width: int, height: int, prof: Profile,
            rng: np.random.Generator, *, table: bool) -> dict[str, Any]:
    """A phone camera over the table: returns H (3x3, plane mm -> photo px)."""
    corners = np.vstack([p.outline_plane() for p in placed])
    centre = corners.mean(axis=0)
    radius = float(np.max(np.linalg.norm(corners - centre, axis=1)))
    f = max(width, height) * rng.uniform(0.7, 0.85)
    dist = f * radius / (0.4 * min(width, height))
    tilt = np.radians(rng.uniform(*prof.tilt_deg))
    azimuth = rng.uniform(0, 2 * np.pi)
    # a table is already turned any way; only a single sheet needs the camera's roll
    roll = rng.normal(0, 0.12) if table else rng.uniform(0, 2 * np.pi)
    axis = np.array([np.cos(azimuth), np.sin(azimuth), 0.0])
    rot_tilt, _ = cv2.Rodrigues(axis * tilt)
    c, s = np.cos(roll), np.sin(roll)
    rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]) @ rot_tilt
    k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]])
    extr = np.column_stack([rot[:, 0], rot[:, 1], [0, 0, dist]])
    shift = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1]])
    hom = k @ extr @ shift
    pts = _apply(hom, corners)
    # scale about the photo centre to the wanted size, then move into the frame
    if table:
        span = pts.max(axis=0) - pts.min(axis=0)
        scale = min(width / span[0], height / span[1]) * rng.uniform(0.72, 0.95)
    else:
        area = cv2.contourArea(pts.astype(np.float32))
        scale = np.sqrt(rng.uniform(*prof.fill) * width * height / area)
    margin = 0.015 * min(width, height)
    for _ in range(60):
        scaled = (pts - (width / 2, height / 2)) * scale + (width / 2, height / 2)
        lo, hi = scaled.min(axis=0), scaled.max(axis=0)
        room_lo = np.array([margin, margin]) - lo
        room_hi = np.array([width - margin, height - margin]) - hi
        if np.all(room_lo <= room_hi):
            break
        scale *= 0.97
    middle = (room_lo + room_hi) / 2
    offset = middle + (room_hi - room_lo) / 2 * rng.uniform(-1, 1, 2) * (0.4 if table else 1.0)
    s2 = np.array([[scale, 0, width / 2 * (1 - scale) + offset[0]],
                   [0, scale, height / 2 * (1 - scale) + offset[1]], [0, 0, 1]])
    hom = s2 @ hom
    return {"H": hom, "tilt_deg": round(float(np.degrees(tilt)), 1),
            "roll_deg": round(float(np.degrees(roll)), 1)}


# ---------------------------------------------------------------- rendering


def _render(placed: list[_PlacedSheet], objects: list[dict[str, Any]], cam: dict[str, Any],
            width: int, height: int, prof: Profile, rng: np.random.Generator,
            printer: Printer) -> tuple[np.ndarray, dict[str, Any]]:
    hom = cam["H"]
    gw, gh = -(-width // _GRID), -(-height // _GRID)
    gx, gy = np.meshgrid(np.arange(gw) * _GRID + (_GRID - 1) / 2,
                         np.arange(gh) * _GRID + (_GRID - 1) / 2)
    image = _background(width, height, rng)
    events: dict[str, bool] = {}
    light = _light_field(gw, gh, prof, rng, events)
    shadows = np.ones((gh, gw), np.float32)  # what lies on top casts shadows on what is below
    sun = rng.normal(0, 1, 2)
    sun = sun / np.linalg.norm(sun) * rng.uniform(1.0, 3.0)  # mm: shadow offset on the table
    paper = 1.0 - np.abs(rng.normal(0, 0.025, 3)) * np.array([1.6, 0.8, 0.2])  # a little warm
    for p in placed:
        to_photo = hom @ p.to_plane()
        outline_px = _apply(to_photo, _rect_pts(Rect(0, 0, *p.sheet.size_mm)))
        ppm_needed = _max_scale(to_photo, p.sheet)
        level = raster_level(ppm_needed)
        printed = print_sheet(blank_sheet(p.sheet, level), printer)
        flat = cv2.multiply(printed, tuple(paper) + (0.0,))
        flat, p.report = draw_sheet_marks_detailed(flat, p.sheet, level, p.truth, p.style, rng)
        _warp_sheet_into(image, flat, level, to_photo, p.curl, gx, gy, outline_px, ppm_needed)
        # the sheet lies on top of earlier shadows and casts its own on what is beneath
        _cast_shadow(shadows, outline_px / _GRID, _apply(hom, p.outline_plane() + sun) / _GRID,
                     depth=float(rng.uniform(0.1, 0.25)), soft=max(0.7, 1.5 * ppm_needed / _GRID))
    for obj in objects:
        _draw_object(image, shadows, obj, hom, sun, rng)
    for p in placed:
        if p.thumb_marker is not None:
            _draw_thumb(image, shadows, p, hom, sun, rng)
    scale = max(width, height) / 4000
    light_u8 = np.clip(light * shadows[..., None] * 128, 0, 255).astype(np.uint8)
    light_full = cv2.resize(light_u8, (width, height), interpolation=cv2.INTER_LINEAR)
    image = cv2.multiply(image, light_full, scale=1 / 128)
    blur = float(rng.uniform(*prof.blur)) * max(scale, 0.4)
    image = cv2.GaussianBlur(image, (0, 0), blur)
    focus = float(rng.uniform(*prof.focus_blur)) * max(scale, 0.4)
    if focus > 0.3:
        image = _depth_of_field(image, focus, rng)
    motion = 0.0
    if rng.random() < prof.motion_blur_chance:
        motion = float(rng.uniform(2, 6)) * max(scale, 0.4)
        image = _motion_blur(image, motion, rng.uniform(0, np.pi))
    noise = float(rng.uniform(*prof.noise))
    image = _sensor_noise(image, noise, rng)
    image = _sharpen(image, amount=float(rng.uniform(0.3, 1.0)))
    meta = {"blur_px": round(blur, 2), "focus_blur_px": round(focus, 2),
            "motion_blur_px": round(motion, 2), "noise": round(noise, 2), **events}
    return image, meta


def _max_scale(to_photo: np.ndarray, sheet: Sheet) -> float:
    """Largest px-per-mm at which the sheet appears anywhere in the photo."""
    w, h = sheet.size_mm
    pts = np.array([(0, 0), (w, 0), (w, h), (0, h)], float)
    best = 0.0
    for x, y in pts:
        a = _apply(to_photo, np.array([(x, y), (x + 1, y), (x, y + 1)], float))
        best = max(best, np.linalg.norm(a[1] - a[0]), np.linalg.norm(a[2] - a[0]))
    return float(best)


def _warp_sheet_into(image: np.ndarray, flat: np.ndarray, level: int, to_photo: np.ndarray,
                     curl: _Curl, gx: np.ndarray, gy: np.ndarray, outline_px: np.ndarray,
                     ppm: float) -> None:
    """Warp the marked flat sheet (``level`` px/mm) into the photo (seen at
    about ``ppm`` px/mm), with its curl and the curl's shading."""
    height, width = image.shape[:2]
    lean = float(np.hypot(*curl.lean))
    pad = 4 * _GRID + ppm * (abs(curl.amp) + abs(curl.twist)) * lean * 1.5
    lo = np.floor((outline_px.min(axis=0) - pad) / _GRID).astype(int)
    hi = np.ceil((outline_px.max(axis=0) + pad) / _GRID).astype(int)
    j0, i0 = max(lo[0], 0), max(lo[1], 0)
    j1, i1 = min(hi[0], gx.shape[1]), min(hi[1], gx.shape[0])
    if j1 <= j0 or i1 <= i0:
        return
    sx, sy = gx[i0:i1, j0:j1], gy[i0:i1, j0:j1]
    inv = np.linalg.inv(to_photo)
    den = inv[2, 0] * sx + inv[2, 1] * sy + inv[2, 2]
    qx = (inv[0, 0] * sx + inv[0, 1] * sy + inv[0, 2]) / den
    qy = (inv[1, 0] * sx + inv[1, 1] * sy + inv[1, 2]) / den
    z, slope = curl.height_and_slope(qx, qy)
    mx = ((qx - z * curl.lean[0]) * level - 0.5).astype(np.float32)
    my = ((qy - z * curl.lean[1]) * level - 0.5).astype(np.float32)
    shade = np.clip(1.0 + 0.35 * slope * np.sign(curl.lean[0] + 1e-9), 0.7, 1.15)
    x0, y0 = j0 * _GRID, i0 * _GRID
    bw, bh = (j1 - j0) * _GRID, (i1 - i0) * _GRID
    mx = cv2.resize(mx, (bw, bh), interpolation=cv2.INTER_LINEAR)
    my = cv2.resize(my, (bw, bh), interpolation=cv2.INTER_LINEAR)
    shade3 = np.repeat((shade * 128).astype(np.float32)[..., None], 3, axis=2)
    shade3 = cv2.resize(shade3, (bw, bh)).astype(np.uint8)
    # paper beyond the trim is replicated, then cut away by the outline mask
    patch = cv2.remap(flat, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    cw, ch = min(bw, width - x0), min(bh, height - y0)
    rgb = cv2.multiply(patch[:ch, :cw], shade3[:ch, :cw], scale=1 / 128)
    mask = np.zeros((ch, cw), np.uint8)
    _fill(mask, _curled_outline(to_photo, curl, flat.shape[1] / level, flat.shape[0] / level)
          - (x0, y0), 255)
    region = image[y0:y0 + ch, x0:x0 + cw]
    cv2.copyTo(rgb, mask, region)


def _curled_outline(to_photo: np.ndarray, curl: _Curl, w: float, h: float) -> np.ndarray:
    """The sheet's trim edge in photo px, following the paper's curl."""
    t = np.linspace(0, 1, 40, endpoint=False)
    edge = np.vstack([np.column_stack([t * w, 0 * t]), np.column_stack([w + 0 * t, t * h]),
                      np.column_stack([w - t * w, h + 0 * t]), np.column_stack([0 * t, h - t * h])])
    return _apply(to_photo, _seen(curl, edge))


def _seen(curl: _Curl, pts: np.ndarray) -> np.ndarray:
    """Where sheet points (mm) appear on the flat sheet plane once the paper curls."""
    z, _ = curl.height_and_slope(pts[:, 0], pts[:, 1])
    return pts + z[:, None] * np.array(curl.lean)[None, :]


def _cast_shadow(shadows: np.ndarray, outline: np.ndarray, shadow_outline: np.ndarray, *,
                 depth: float, soft: float) -> None:
    """On the coarse grid: reset the shadows under ``outline`` (it lies on top)
    and darken what lies under ``shadow_outline`` but not under ``outline``."""
    top = np.zeros(shadows.shape, np.float32)
    _fill(top, outline)
    shade = np.zeros(shadows.shape, np.float32)
    _fill(shade, shadow_outline)
    shade = cv2.GaussianBlur(shade, (0, 0), soft)
    shadows[:] = shadows * (1 - top) + top
    shadows *= 1 - depth * shade * (1 - top)


def _fill(canvas: np.ndarray, poly: np.ndarray, value: float = 1.0) -> None:
    pts = np.round(poly * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillPoly(canvas, [pts], value, cv2.LINE_AA, 4)


def _background(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A table top at quarter resolution, scaled up: wood, laminate or cloth."""
    qw, qh = -(-width // 4), -(-height // 4)
    kind = str(rng.choice(["wood", "laminate", "cloth"], p=[0.5, 0.25, 0.25]))
    yy, xx = np.mgrid[0:qh, 0:qw].astype(np.float32)
    if kind == "wood":
        base = np.array(_WOODS[int(rng.integers(len(_WOODS)))]) * rng.uniform(0.85, 1.1)
        along = xx if rng.random() < 0.5 else yy
        across = yy if along is xx else xx
        period = rng.uniform(12, 40)
        warp = (_smooth_noise((qh, qw), 90, rng) * rng.uniform(15, 50)
                + _smooth_noise((qh, qw), 20, rng) * rng.uniform(2, 6))
        rings = np.sin((across + warp) / period * 2 * np.pi) ** 2 * (
            0.6 + 0.4 * _smooth_noise((qh, qw), 50, rng))
        streaks = _streak_noise((qh, qw), along is xx, rng)
        tone = 1 - 0.1 * rings - 0.14 * streaks + 0.08 * _smooth_noise((qh, qw), 150, rng)
        plank = rng.uniform(120, 300)
        seams = (np.abs(((across + rng.uniform(0, plank)) % plank) - plank / 2) > plank / 2 - 1)
        tone = tone * np.where(seams, 0.55, 1.0)
    elif kind == "laminate":
        base = np.array(_PLAIN[int(rng.integers(len(_PLAIN)))]) * rng.uniform(0.9, 1.05)
        tone = 1 + 0.04 * _smooth_noise((qh, qw), 80, rng) + 0.03 * rng.standard_normal(
            (qh, qw)).astype(np.float32)
    else:
        base = np.array(_CLOTH[int(rng.integers(len(_CLOTH)))]) * rng.uniform(0.85, 1.05)
        period = rng.uniform(3, 6)
        weave = np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
        tone = 1 + 0.06 * weave + 0.05 * _smooth_noise((qh, qw), 40, rng)
        if rng.random() < 0.5:  # gingham
            check = rng.uniform(25, 60)
            bands = ((xx // check) % 2 + (yy // check) % 2) / 2
            tone = tone * (1 - 0.35 * bands)
    small = np.clip(tone[..., None] * base[None, None, :], 0, 255).astype(np.uint8)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)


# Table colours, BGR: oak, pine, walnut, cherry, grey-washed and whitewashed wood.
_WOODS = ((105, 160, 205), (125, 185, 225), (45, 75, 110), (60, 95, 150), (135, 145, 155),
          (185, 200, 210))
# Laminate tops: white, light grey, beige, anthracite, black.
_PLAIN = ((228, 230, 232), (195, 198, 200), (180, 205, 220), (70, 72, 75), (35, 35, 38))
# Table cloths: white, cream, red, navy, sage green, grey.
_CLOTH = ((225, 228, 230), (200, 225, 235), (50, 50, 170), (90, 50, 35), (110, 140, 115),
          (150, 150, 150))


def _smooth_noise(shape: tuple[int, int], cell: float, rng: np.random.Generator) -> np.ndarray:
    """Smooth noise (about -1..1) whose blobs are ``cell`` px wide."""
    h, w = shape
    small = rng.standard_normal((max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)))
    return cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)


def _streak_noise(shape: tuple[int, int], along_x: bool, rng: np.random.Generator) -> np.ndarray:
    """Thin grain streaks running along one axis (wood fibre)."""
    h, w = shape
    if along_x:
        small = rng.random((h, max(2, w // 40))).astype(np.float32)
    else:
        small = rng.random((max(2, h // 40), w)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _light_field(gw: int, gh: int, prof: Profile, rng: np.random.Generator,
                 events: dict[str, bool]) -> np.ndarray:
    """Light on the coarse grid (3 channels, 1.0 = as printed): exposure, a
    gradient across the picture, vignetting, a colour cast and sometimes a
    large soft shadow (a person or the phone between lamp and table), a
    sharper-edged shadow across the picture, or a glare spot. ``events``
    records which of the occasional ones happened."""
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    nx, ny = xx / gw * 2 - 1, yy / gh * 2 - 1
    heading = rng.uniform(0, 2 * np.pi)
    grad = float(rng.uniform(*prof.gradient))
    light = 1 + grad / 2 * (nx * np.cos(heading) + ny * np.sin(heading))
    light *= 1 - rng.uniform(0.05, 0.25) * (nx ** 2 + ny ** 2) / 2
    light *= float(rng.uniform(*prof.exposure))
    if rng.random() < prof.shadow_chance:
        mask = np.zeros((gh, gw), np.float32)
        centre = rng.uniform((0, 0), (gw, gh))
        axes = rng.uniform(0.2, 0.6, 2) * max(gw, gh)
        cv2.ellipse(mask, (int(centre[0]), int(centre[1])), (int(axes[0]), int(axes[1])),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), max(gw, gh) * rng.uniform(0.02, 0.08))
        light *= 1 - float(rng.uniform(*prof.shadow_depth)) * mask
    events["edge_shadow"] = bool(rng.random() < prof.shadow_chance * 0.4)
    if events["edge_shadow"]:  # a hand or the phone over a lamp: a straight, fairly sharp edge
        heading = rng.uniform(0, 2 * np.pi)
        edge = (nx * np.cos(heading) + ny * np.sin(heading)) - rng.uniform(-0.2, 0.6)
        mask = np.clip(edge / rng.uniform(0.01, 0.05), 0, 1)
        light *= 1 - float(rng.uniform(*prof.shadow_depth)) * mask
    events["glare"] = bool(prof.hard_marks and rng.random() < 0.15)
    if events["glare"]:  # a lamp reflected by the paper: a bright, washed-out spot
        cx, cy = rng.uniform(-0.6, 0.6, 2)
        radius = rng.uniform(0.08, 0.2)
        spot = np.exp(-((nx - cx) ** 2 + (ny - cy) ** 2) / (2 * radius ** 2))
        light *= 1 + rng.uniform(0.3, 0.7) * spot
    warmth = rng.normal(0, 0.05)
    cast = np.array([1 - 1.2 * warmth, 1 - 0.3 * warmth, 1 + 0.4 * warmth]) * (1 + rng.normal(
        0, 0.015, 3))
    return (light[..., None] * cast[None, None, :] / cast.max()).astype(np.float32)


def _draw_object(image: np.ndarray, shadows: np.ndarray, obj: dict[str, Any], hom: np.ndarray,
                 sun: np.ndarray, rng: np.random.Generator) -> None:
    """A pen or a die on the table, with its shadow; simple shaded shapes."""
    outline = _apply(hom, obj["outline"])
    shadow = _apply(hom, obj["outline"] + sun * (3.0 if obj["kind"] == "pen" else 5.0))
    _cast_shadow(shadows, outline / _GRID, shadow / _GRID, depth=0.35, soft=1.5)
    colour = np.array(obj["colour"], float)
    if obj["kind"] == "pen":
        c, a, length, width = obj["centre"], obj["angle"], obj["length"], obj["width"]
        along = np.array([np.cos(a), np.sin(a)])
        body = _rotated_rect(c - along * 8, length - 16, width, a)
        side = np.array([-along[1], along[0]]) * width / 2
        cone = c + along * (length / 2 - 16)
        tip = np.array([cone + side, c + along * (length / 2), cone - side])
        _shaded_poly(image, _apply(hom, body), colour, across=_apply(hom, np.array([c, c + side])))
        _shaded_poly(image, _apply(hom, tip), np.array([170, 170, 175.0]), across=None)
        clip = _rotated_rect(c - along * (length / 2 - 30), 40, width * 0.25, a)
        _shaded_poly(image, _apply(hom, clip), colour * 0.6, across=None)
    else:
        _shaded_poly(image, outline, colour, across=None, rounded=True)
        pip = (30, 30, 30) if colour.mean() > 120 else (235, 235, 235)
        c, a, size = obj["centre"], obj["angle"], obj["length"]
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        for dx, dy in _PIPS[obj["face"]]:
            centre = _apply(hom, (c + rot @ (np.array([dx, dy]) * size * 0.27))[None])[0]
            radius = np.linalg.norm(_apply(hom, np.array([c, c + (size * 0.08, 0)]))[1]
                                    - _apply(hom, c[None])[0])
            cv2.circle(image, (int(centre[0] * 16), int(centre[1] * 16)), int(radius * 16), pip,
                       -1, cv2.LINE_AA, 4)


_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _shaded_poly(image: np.ndarray, poly: np.ndarray, colour: np.ndarray,
                 across: np.ndarray | None, rounded: bool = False) -> None:
    """Fill a polygon (photo px) with a colour, lit from one side (a cylinder
    when ``across`` gives its axis point and an edge point)."""
    x0, y0 = np.floor(poly.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    _fill(mask, poly - (x0, y0))
    if rounded:
        mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, 0.06 * (x1 - x0)))
        mask = np.clip((mask - 0.5) * 3 + 0.5, 0, 1)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    if across is not None:
        axis_pt, edge_pt = across
        d = edge_pt - axis_pt
        t = ((xx - axis_pt[0]) * d[0] + (yy - axis_pt[1]) * d[1]) / max(float(d @ d), 1e-6)
        shade = np.clip(1.15 - 0.55 * np.abs(t - 0.25), 0.45, 1.25)
    else:
        cx, cy = poly.mean(axis=0)
        r = np.hypot(xx - cx, yy - cy) / max(x1 - x0, y1 - y0)
        shade = 1.1 - 0.5 * r
    obj = np.clip(shade[..., None] * colour[None, None, :], 0, 255)
    region = image[y0:y1, x0:x1].astype(np.float32)
    a = mask[..., None]
    image[y0:y1, x0:x1] = (region * (1 - a) + obj * a).astype(np.uint8)


def _draw_thumb(image: np.ndarray, shadows: np.ndarray, p: _PlacedSheet, hom: np.ndarray,
                sun: np.ndarray, rng: np.random.Generator) -> None:
    """A skin-coloured thumb over one corner marker, with a nail and a shadow."""
    assert p.thumb is not None
    to_photo = hom @ p.to_plane()
    outline = _apply(to_photo, p.thumb["outline"])
    sun_sheet = np.linalg.inv(p.to_plane()[:2, :2]) @ sun
    shadow = _apply(to_photo, p.thumb["outline"] + sun_sheet * 4)
    _cast_shadow(shadows, outline / _GRID, shadow / _GRID, depth=0.45, soft=2.0)
    skins = [(150, 175, 225), (120, 150, 205), (95, 125, 175), (60, 85, 130)]
    skin = np.array(skins[int(rng.integers(len(skins)))], float)
    _shaded_poly(image, outline, skin, across=None, rounded=True)
    t = p.thumb
    along = np.array([np.cos(t["heading"]), np.sin(t["heading"])])
    nail_c = t["centre"] + along * t["length"] * 0.3
    nail = cv2.ellipse2Poly((int(nail_c[0] * 100), int(nail_c[1] * 100)),
                            (int(t["length"] * 14), int(t["width"] * 28)),
                            int(np.degrees(t["heading"])), 0, 360, 15).astype(float) / 100
    _shaded_poly(image, _apply(to_photo, nail), np.minimum(skin * 1.12 + 15, 255), across=None,
                 rounded=True)


def _depth_of_field(image: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """A tilted camera focuses on one part: blur grows toward one side (up to ``sigma`` px)."""
    h, w = image.shape[:2]
    heading = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:16, 0:16].astype(np.float32) / 15 * 2 - 1
    ramp = np.clip((xx * np.cos(heading) + yy * np.sin(heading)) * 0.8 + rng.uniform(-0.3, 0.3),
                   0, 1)
    weight = cv2.resize(ramp.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    far = cv2.GaussianBlur(image, (0, 0), sigma)
    return cv2.blendLinear(far, image, weight, 1 - weight)


def _motion_blur(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    n = max(3, int(round(length)) | 1)
    kernel = np.zeros((n, n), np.float32)
    c = n // 2
    dx, dy = np.cos(angle) * c, np.sin(angle) * c
    cv2.line(kernel, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)),
             int(round(c + dy))), 1.0, 1, cv2.LINE_AA)
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def _sensor_noise(image: np.ndarray, sd: float, rng: np.random.Generator) -> np.ndarray:
    """Grain like a phone's: luminance noise at half resolution (demosaicing
    and denoising leave it a little blotchy) plus faint colour noise."""
    h, w = image.shape[:2]
    hh, hw = -(-h // 2), -(-w // 2)
    cv2.setRNGSeed(int(rng.integers(2**31 - 1)))
    luma = np.empty((hh, hw), np.uint8)
    cv2.randn(luma, 128, sd * 1.6)
    chroma = np.empty((-(-h // 8), -(-w // 8), 3), np.uint8)
    cv2.randn(chroma, (128, 128, 128), (sd * 0.8,) * 3)
    chroma = cv2.resize(chroma, (hw, hh), interpolation=cv2.INTER_LINEAR)
    noise = cv2.addWeighted(cv2.cvtColor(luma, cv2.COLOR_GRAY2BGR), 1.0, chroma, 1.0, -128)
    noise = cv2.resize(noise, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.addWeighted(image, 1.0, noise, 1.0, -128)


def _sharpen(image: np.ndarray, *, amount: float) -> np.ndarray:
    """The phone's sharpening, a 3x3 unsharp mask (it sharpens the noise too)."""
    kernel = np.array([[0, -1, 0], [-1, 4, -1], [0, -1, 0]], np.float32) * amount / 4
    kernel[1, 1] += 1
    return cv2.filter2D(image, -1, kernel)


# ---------------------------------------------------------------- truth


def _sheet_truth(p: _PlacedSheet, hom: np.ndarray, width: int, height: int) -> dict[str, Any]:
    to_photo = hom @ p.to_plane()
    w, h = p.sheet.size_mm
    corners = np.array([(0, 0), (w, 0), (w, h), (0, h)], float)
    corners_px = _apply(to_photo, _seen(p.curl, corners))
    out = p.truth.to_json()
    expected = score_sheet(p.sheet, p.truth.marked)
    out.update({
        "score": expected.score_json(),
        "status": expected.status(),
        "style": p.style.to_json(),
        "pen": p.style.pen.name,
        "mark_kinds": sorted(set(p.report.kinds.values())),
        "occluded_marker": p.thumb_marker,
        "corners_px": [[round(float(x), 1), round(float(y), 1)] for x, y in corners_px],
        "px_per_mm": round(_max_scale(to_photo, p.sheet), 2),
        "dots_in_boxes": list(p.report.dots_in_boxes),
        "totals_written": dict(p.report.totals_written),
        "name_written": p.report.name_written,
    })
    return out


# ---------------------------------------------------------------- geometry helpers


def _apply(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to Nx2 points."""
    pts = np.asarray(pts, float)
    ones = np.ones((len(pts), 1))
    out = np.hstack([pts, ones]) @ hom.T
    return out[:, :2] / out[:, 2:3]


def _rect_pts(r: Rect) -> np.ndarray:
    return np.array([(r.x, r.y), (r.x + r.w, r.y), (r.x + r.w, r.y + r.h), (r.x, r.y + r.h)],
                    float)


def _rotated_rect(centre: np.ndarray, length: float, width: float, angle: float) -> np.ndarray:
    along = np.array([np.cos(angle), np.sin(angle)]) * length / 2
    across = np.array([-np.sin(angle), np.cos(angle)]) * width / 2
    c = np.asarray(centre, float)
    return np.array([c - along - across, c + along - across, c + along + across,
                     c - along + across])


# ------------------------------------------------- objects beside boxes (training)

#: How far (mm) an object laid by :func:`lay_objects_by_boxes` may reach into
#: a box past its outline; what lies further in stays visible.
OBJECT_INTO_BOX_MM = 0.8


def lay_objects_by_boxes(image: np.ndarray, sheet: Sheet, px_per_mm: float,
                         rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """Lay up to ``count`` dice and pen ends on a flat sheet image (BGR uint8,
    pixel (x, y) = sheet mm times ``px_per_mm``), each beside some box: its
    edge between OBJECT_INTO_BOX_MM inside the box's outline and 2 mm outside
    it, no object over the inside of any box, with a soft shadow. What a
    table photo shows next to a box, for the box networks to learn to look
    past. Returns the outlines (sheet mm, 4 x 2) of those laid."""
    cores = [_rect_pts(Rect(b.rect.x + OBJECT_INTO_BOX_MM, b.rect.y + OBJECT_INTO_BOX_MM,
                            b.rect.w - 2 * OBJECT_INTO_BOX_MM, b.rect.h - 2 * OBJECT_INTO_BOX_MM))
             for b in sheet.boxes]
    laid: list[np.ndarray] = []
    for _ in range(count):
        for _attempt in range(40):
            box = sheet.boxes[int(rng.integers(len(sheet.boxes)))].rect
            kind = "die" if rng.random() < 0.6 else "pen"
            length, width = ((rng.uniform(12, 17),) * 2 if kind == "die"
                             else (rng.uniform(30, 70), rng.uniform(8, 11)))
            angle = rng.uniform(0, np.pi) if kind == "die" else rng.choice([0.0, np.pi / 2]) \
                + rng.normal(0, 0.3)
            side = int(rng.integers(4))  # the object lies above, right of, below, left of the box
            normal = np.array([(0, -1), (1, 0), (0, 1), (-1, 0)][side], float)
            edge = np.array([box.x + box.w / 2, box.y + box.h / 2]) + normal * np.array(
                [box.w / 2, box.h / 2]) - normal * rng.uniform(-2.0, OBJECT_INTO_BOX_MM)
            outline = _rotated_rect(np.zeros(2), length, width, angle)
            reach = float(np.max(outline @ -normal))  # from its centre to its edge facing the box
            centre = edge + normal * reach + np.array([-normal[1], normal[0]]) * rng.uniform(
                -box.w / 2, box.w / 2)
            outline = outline + centre
            if all(_overlap(outline, q) <= 0 for q in cores) and all(
                    _overlap(outline, o) <= 0 for o in laid):
                _lay_object(image, kind, outline, centre, angle, length, px_per_mm, rng)
                laid.append(outline)
                break
    return laid


def boxes_beside(sheet: Sheet, outlines: list[np.ndarray], reach_mm: float) -> np.ndarray:
    """Per box of ``sheet``: whether some outline (sheet mm) comes within
    ``reach_mm`` of its outline (into the window a reader looks at)."""
    out = np.zeros(len(sheet.boxes), bool)
    for k, box in enumerate(sheet.boxes):
        r = box.rect
        near = _rect_pts(Rect(r.x - reach_mm, r.y - reach_mm, r.w + 2 * reach_mm,
                              r.h + 2 * reach_mm))
        out[k] = any(_overlap(near, o) > 0 for o in outlines)
    return out


def _lay_object(image: np.ndarray, kind: str, outline: np.ndarray, centre: np.ndarray,
                angle: float, size: float, px_per_mm: float, rng: np.random.Generator) -> None:
    """Draw one object laid by :func:`lay_objects_by_boxes`, its shadow first."""
    poly = outline * px_per_mm
    offset = rng.uniform(1.0, 3.5, 2) * rng.choice([-1, 1], 2) * px_per_mm
    # The shadow is blurred around the object only (the blur's reach, 4
    # sigma, and a little more), not over the whole page: the same pixels,
    # ten times faster. The object lies beside a box, so on the page.
    sigma = max(1.0, 1.5 * px_per_mm)
    margin = int(np.ceil(4 * sigma)) + 2
    low, high = (poly + offset).min(axis=0), (poly + offset).max(axis=0)
    x0, y0 = max(0, int(np.floor(low[0])) - margin), max(0, int(np.floor(low[1])) - margin)
    x1 = min(image.shape[1], int(np.ceil(high[0])) + margin)
    y1 = min(image.shape[0], int(np.ceil(high[1])) + margin)
    shadow = np.zeros((y1 - y0, x1 - x0), np.float32)
    _fill(shadow, poly + offset - (x0, y0))
    shadow = cv2.GaussianBlur(shadow, (0, 0), sigma)
    patch = image[y0:y1, x0:x1]
    patch[:] = (patch * (1 - rng.uniform(0.2, 0.45) * shadow[..., None])).astype(np.uint8)
    colour = np.array(_object_colour(kind, rng), float)
    if kind == "pen":
        axis = np.array([np.cos(angle), np.sin(angle)])
        side = np.array([-axis[1], axis[0]]) * np.linalg.norm(outline[3] - outline[0]) / 2
        c = centre * px_per_mm
        _shaded_poly(image, poly, colour, across=np.array([c, c + side * px_per_mm]))
        return
    _shaded_poly(image, poly, colour, across=None, rounded=True)
    pip = (30, 30, 30) if colour.mean() > 120 else (235, 235, 235)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    for dx, dy in _PIPS[int(rng.integers(1, 7))]:
        at = (centre + rot @ (np.array([dx, dy]) * size * 0.27)) * px_per_mm
        cv2.circle(image, (int(at[0] * 16), int(at[1] * 16)), int(size * 0.08 * px_per_mm * 16),
                   pip, -1, cv2.LINE_AA, 4)
