"""The layout model: one validated, immutable description of a sheet.

A layout YAML says *what* is on a sheet (rows, step boxes or chains per
letter, sizes and colours); this module turns it into :class:`Layout` and
its per-letter :class:`Sheet`, which carry the geometry of every box in
millimetres from the sheet's top-left trim corner, y downwards. The PDF
renderer, the scanner and the rules engine all read this one model.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .errors import LayoutError, UnknownLayoutError, UnknownLetterError
from .yamlsource import read_yaml_file

ROWS: tuple[str, ...] = ("red", "yellow", "green", "blue")
VARIANTS: tuple[str, ...] = ("classic", "treden", "kettingen")
PENALTY_COUNT = 4
NUMBERS_PER_ROW = 11
#: How many step boxes / chains the original Connected sheets have.
ORIGINAL_STEPS = 11
ORIGINAL_CHAINS = 6

#: Corner markers: the same on every layout so that the scanner can find a
#: sheet before it knows which layout it is. Square, ``MARKER_MM`` wide, inset
#: ``MARKER_INSET_MM`` from both trim edges of each corner.
MARKER_MM = 9.0
MARKER_INSET_MM = 4.0
#: The machine-readable code (a QR code) is a square of this size, quiet
#: zone included, sitting just above the bottom-right marker.
CODE_MM = 16.0
CODE_GAP_MM = 1.5
#: Modules of white around the QR code inside its square: the sheet keeps
#: more white outside it (CODE_GAP_MM and beyond), so 2 modules inside give
#: bigger modules than the usual 4 while the real quiet zone stays >= 4.
QR_BORDER_MODULES = 2

BUILTIN_DIR_CANDIDATES = (
    Path(__file__).parent / "layouts",  # installed: package data
    Path(__file__).parent.parent / "layouts",  # source checkout
)

_TOP_KEYS = {"name", "title", "subtitle", "variant", "extends", "sheet", "rows", "letters"}
_SHEET_KEYS = {
    "size_mm": "a list of two numbers [width, height]",
    "box_mm": "a number",
    "box_gap_mm": "a number",
    "lock_gap_mm": "a number",
    "rows_top_mm": "a number",
    "row_pitch_mm": "a number",
    "penalty_box_mm": "a number",
}
_ROW_KEYS = {"numbers", "colour", "ink"}
_LETTER_KEYS = {"treden": {"steps"}, "kettingen": {"chains"}, "classic": set()}
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class Rect:
    """A rectangle in mm: top-left corner ``x, y``, size ``w, h``."""

    x: float
    y: float
    w: float
    h: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)


@dataclass(frozen=True)
class Box:
    """A box a player can cross. Geometry in mm, top-left corner ``x, y``."""

    id: str
    kind: str  # "number", "lock" or "penalty"
    rect: Rect
    row: str | None = None
    number: int | None = None
    index: int | None = None  # penalty boxes: 1..4

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.row is not None:
            out["row"] = self.row
        if self.number is not None:
            out["number"] = self.number
        if self.index is not None:
            out["index"] = self.index
        r = self.rect
        out.update(x=_mm(r.x), y=_mm(r.y), w=_mm(r.w), h=_mm(r.h))
        return out


@dataclass(frozen=True)
class RowStyle:
    name: str
    numbers: tuple[int, ...]  # in print order, left to right
    colour: tuple[float, float, float]  # RGB 0..1: the row band
    ink: tuple[float, float, float]  # RGB 0..1: the printed numbers


@dataclass(frozen=True)
class Furniture:
    """Everything printed besides the boxes, in mm (see module docstring)."""

    markers: tuple[Rect, Rect, Rect, Rect]  # top-left, top-right, bottom-right, bottom-left
    code: Rect
    letter: Rect
    title_at: tuple[float, float]  # left end of the title's baseline
    table: Rect
    totals: tuple[tuple[str, Rect], ...]  # (field name, rect), left to right
    name_line: Rect


@dataclass(frozen=True)
class Sheet:
    """One printed sheet: a layout with its letter (None for classic)."""

    layout: str
    variant: str
    letter: str | None
    title: str
    subtitle: str
    size_mm: tuple[float, float]
    rows: tuple[RowStyle, ...]
    boxes: tuple[Box, ...]
    steps: tuple[str, ...]
    chains: tuple[tuple[str, str], ...]
    furniture: Furniture
    _index: dict[str, Box] = field(repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        self._index.update({b.id: b for b in self.boxes})

    def box(self, box_id: str) -> Box:
        return self._index[box_id]

    def has_box(self, box_id: str) -> bool:
        return box_id in self._index

    def row(self, name: str) -> RowStyle:
        return next(r for r in self.rows if r.name == name)

    def row_boxes(self, row: str) -> tuple[Box, ...]:
        """The row's number boxes, left to right (print order)."""
        return tuple(b for b in self.boxes if b.row == row and b.kind == "number")

    def last_number(self, row: str) -> str:
        """Id of the row's last number (the one that locks it)."""
        return self.row_boxes(row)[-1].id

    @property
    def penalty_ids(self) -> tuple[str, ...]:
        return tuple(b.id for b in self.boxes if b.kind == "penalty")

    def geometry_json(self) -> dict[str, Any]:
        """The geometry as documented in INTERFACES.md (``qwixx geometry``)."""
        return {
            "layout": self.layout,
            "letter": self.letter,
            "size_mm": [_mm(self.size_mm[0]), _mm(self.size_mm[1])],
            "boxes": [b.to_json() for b in self.boxes],
            "steps": list(self.steps),
            "chains": [list(c) for c in self.chains],
        }

    @cached_property
    def fingerprint(self) -> str:
        """Eight hex digits that change whenever the geometry changes."""
        canonical = json.dumps(self.geometry_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:8].upper()

    @property
    def code_payload(self) -> str:
        """The text of the sheet's QR code: layout, letter, fingerprint."""
        return code_payload(self.layout, self.letter, self.fingerprint)


def code_payload(layout: str, letter: str | None, fingerprint: str) -> str:
    """``QWIXX:<LAYOUT>:<LETTER or ->:<FINGERPRINT>`` in QR alphanumeric characters."""
    name = re.sub(r"[^A-Z0-9]", "-", layout.upper())[:12]
    return f"QWIXX:{name}:{letter or '-'}:{fingerprint}"


@dataclass(frozen=True)
class Layout:
    """A validated layout with one :class:`Sheet` per letter."""

    name: str
    variant: str
    source: str
    sheets: dict[str | None, Sheet]
    warnings: tuple[str, ...] = ()

    @property
    def letters(self) -> tuple[str | None, ...]:
        return tuple(self.sheets)

    def sheet(self, letter: str | None = None) -> Sheet:
        """The sheet for ``letter``; classic takes None (or no argument)."""
        if letter is not None:
            letter = letter.strip().upper()
        if letter is None and len(self.sheets) == 1:
            return next(iter(self.sheets.values()))
        if letter in self.sheets:
            return self.sheets[letter]
        if None in self.sheets:
            raise UnknownLetterError(
                f"layout '{self.name}' has one sheet and no letters; leave out the letter"
            )
        have = ", ".join(str(k) for k in self.sheets)
        if letter is None:
            raise UnknownLetterError(f"layout '{self.name}' needs a letter: one of {have}")
        raise UnknownLetterError(
            f"layout '{self.name}' has no sheet '{letter}'; its letters are {have}"
        )


# ---------------------------------------------------------------- loading


def builtin_dir() -> Path:
    for candidate in BUILTIN_DIR_CANDIDATES:
        if (candidate / "classic.yaml").is_file():
            return candidate
    raise LayoutError("the built-in layouts are missing from this installation; reinstall qwixx")


def builtin_names() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in builtin_dir().glob("*.yaml")))


def resolve_layout_path(name_or_path: str) -> Path:
    """A built-in layout name or a path to a YAML file -> the file's path."""
    if name_or_path in builtin_names():
        return builtin_dir() / f"{name_or_path}.yaml"
    path = Path(name_or_path)
    if path.is_file():
        return path
    names = ", ".join(builtin_names())
    if path.suffix.lower() in (".yaml", ".yml") or "/" in name_or_path:
        raise UnknownLayoutError(f"layout file '{name_or_path}' does not exist")
    raise UnknownLayoutError(
        f"unknown layout '{name_or_path}': the built-in layouts are {names}, "
        "or give the path of a layout YAML file"
    )


_CACHE: dict[tuple[str, float], Layout] = {}


def load_layout(name_or_path: str) -> Layout:
    """Load and validate a layout by built-in name or file path.

    Raises LayoutError (with ``file:line``) or UnknownLayoutError.
    """
    path = resolve_layout_path(name_or_path).resolve()
    key = (str(path), path.stat().st_mtime)
    if key not in _CACHE:
        data, where = _read_with_extends(path, chain=())
        default_name = path.stem
        _CACHE[key] = _build(data, where, default_name, str(path))
    return _CACHE[key]


def load_builtin_layouts() -> list[Layout]:
    return [load_layout(n) for n in builtin_names()]


Where = dict[tuple[Any, ...], str]


def _read_with_extends(path: Path, chain: tuple[Path, ...]) -> tuple[dict[str, Any], Where]:
    if path in chain:
        raise LayoutError(f"{path}: 'extends' loops back to itself")
    display = _display_name(path)
    source = read_yaml_file(path, display)
    if source.data is None:
        raise LayoutError(f"{display}:1: the layout file is empty")
    if not isinstance(source.data, dict):
        raise LayoutError(f"{display}:1: a layout must be a mapping of keys (name, variant, ...)")
    where = {p: f"{display}:{ln}" for p, ln in source.lines.items()}
    data = source.data
    unknown = [k for k in data if k not in _TOP_KEYS]
    if unknown:
        known = ", ".join(sorted(_TOP_KEYS))
        raise LayoutError(f"{source.where((unknown[0],))}: unknown key '{unknown[0]}' "
                          f"(known: {known})")
    parent_ref = data.get("extends")
    if parent_ref is None:
        return data, where
    if not isinstance(parent_ref, str):
        raise LayoutError(f"{source.where(('extends',))}: 'extends' takes a layout name or "
                          "file path")
    try:
        if parent_ref in builtin_names():
            parent_path = builtin_dir() / f"{parent_ref}.yaml"
        else:
            parent_path = (path.parent / parent_ref).resolve()
            if not parent_path.is_file():
                raise UnknownLayoutError(f"no layout '{parent_ref}'")
    except UnknownLayoutError:
        names = ", ".join(builtin_names())
        raise LayoutError(
            f"{source.where(('extends',))}: cannot extend '{parent_ref}': not a built-in layout "
            f"({names}) nor a file next to this one"
        ) from None
    parent, parent_where = _read_with_extends(parent_path.resolve(), chain + (path,))
    parent = dict(parent)
    parent.pop("name", None)  # a layout is named by its own file, never by its parent's
    return _merge(parent, data), {**parent_where, **where}


def _display_name(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if key == "extends":
            continue
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


class _Checker:
    """Collects the first error (raised) and all warnings, with locations."""

    def __init__(self, where: Where, source: str) -> None:
        self.where = where
        self.source = source
        self.warnings: list[str] = []

    def at(self, path: tuple[Any, ...]) -> str:
        while path not in self.where and path:
            path = path[:-1]
        return self.where.get(path, f"{self.source}:1")

    def fail(self, path: tuple[Any, ...], message: str) -> LayoutError:
        return LayoutError(f"{self.at(path)}: {message}")

    def warn(self, path: tuple[Any, ...], message: str) -> None:
        self.warnings.append(f"{self.at(path)}: warning: {message}")

    def number(self, value: Any, path: tuple[Any, ...], *, minimum: float = 0.0) -> float:
        # name the key, not a list position: size_mm: [abc, 100] -> 'size_mm'
        name = next((p for p in reversed(path) if isinstance(p, str)), "value")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(path, f"'{name}' must be a number, not {_show(value)}")
        if value < minimum:
            raise self.fail(path, f"'{name}' must be at least {minimum:g}, not {value:g}")
        return float(value)

    def text(self, value: Any, path: tuple[Any, ...]) -> str:
        if not isinstance(value, str):
            raise self.fail(path, f"'{path[-1]}' must be text, not {_show(value)}")
        return value


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return repr(value)


def _rgb(value: str) -> tuple[float, float, float]:
    return (int(value[1:3], 16) / 255, int(value[3:5], 16) / 255, int(value[5:7], 16) / 255)


def _build(data: dict[str, Any], where: Where, default_name: str, source: str) -> Layout:
    check = _Checker(where, source)
    name = check.text(data.get("name", default_name), ("name",))
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise check.fail(("name",), f"layout name '{name}' may hold only letters, digits, - _ .")
    variant = data.get("variant")
    if variant is None:
        raise check.fail((), "missing key 'variant' (classic, treden or kettingen)")
    if variant not in VARIANTS:
        raise check.fail(("variant",), f"unknown variant {_show(variant)}: "
                                       "use classic, treden or kettingen")
    title = check.text(data.get("title", "QWIXX"), ("title",))
    subtitle = check.text(data.get("subtitle", ""), ("subtitle",))

    style = _check_sheet_style(data.get("sheet"), check)
    rows = _check_rows(data.get("rows"), check)
    geometry = _geometry(style, rows, variant, check)
    boxes, furniture = geometry

    letters_data = data.get("letters")
    sheets: dict[str | None, Sheet] = {}
    common = dict(layout=name, variant=variant, title=title, subtitle=subtitle,
                  size_mm=style["size_mm"], rows=rows, boxes=boxes, furniture=furniture)
    if variant == "classic":
        if letters_data not in (None, {}):
            raise check.fail(("letters",), "a classic layout has no letters; remove 'letters'")
        sheets[None] = Sheet(letter=None, steps=(), chains=(), **common)
    else:
        if not isinstance(letters_data, dict) or not letters_data:
            raise check.fail(("letters",) if letters_data is not None else (),
                             f"a {variant} layout needs 'letters': A, B, ... each with its "
                             + ("steps" if variant == "treden" else "chains"))
        probe = Sheet(letter=None, steps=(), chains=(), **common)
        for raw_letter, spec in letters_data.items():
            path = ("letters", raw_letter)
            letter = str(raw_letter)
            if not re.fullmatch(r"[A-Z]", letter):
                raise check.fail(path, f"letter '{letter}' must be one capital letter A-Z")
            if not isinstance(spec, dict):
                raise check.fail(path, f"letter {letter} must be a mapping with "
                                 + ("'steps'" if variant == "treden" else "'chains'"))
            allowed = _LETTER_KEYS[variant]
            for key in spec:
                if key not in allowed:
                    raise check.fail(path + (key,), f"unknown key '{key}' for a {variant} letter "
                                     f"(known: {', '.join(sorted(allowed))})")
            steps: tuple[str, ...] = ()
            chains: tuple[tuple[str, str], ...] = ()
            if variant == "treden":
                steps = _check_steps(spec.get("steps"), path + ("steps",), probe, check)
            else:
                chains = _check_chains(spec.get("chains"), path + ("chains",), probe, check)
            sheets[letter] = Sheet(letter=letter, steps=steps, chains=chains, **common)
        _check_letters_differ(sheets, check)
    return Layout(name=name, variant=variant, source=source, sheets=sheets,
                  warnings=tuple(check.warnings))


def _check_sheet_style(value: Any, check: _Checker) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise check.fail(("sheet",), "missing 'sheet' with the sizes in mm "
                                     "(or use extends: classic)")
    for key in value:
        if key not in _SHEET_KEYS:
            raise check.fail(("sheet", key), f"unknown key '{key}' in 'sheet' "
                             f"(known: {', '.join(sorted(_SHEET_KEYS))})")
    for key in _SHEET_KEYS:
        if key not in value:
            raise check.fail(("sheet",), f"'sheet' is missing '{key}' ({_SHEET_KEYS[key]})")
    size = value["size_mm"]
    if not isinstance(size, list) or len(size) != 2:
        raise check.fail(("sheet", "size_mm"), "'size_mm' must be [width, height] in mm")
    width = check.number(size[0], ("sheet", "size_mm", 0), minimum=50)
    height = check.number(size[1], ("sheet", "size_mm", 1), minimum=50)
    style: dict[str, Any] = {"size_mm": (width, height)}
    for key in _SHEET_KEYS:
        if key != "size_mm":
            style[key] = check.number(value[key], ("sheet", key))
    if style["box_mm"] < 9.0:
        check.warn(("sheet", "box_mm"), f"boxes of {style['box_mm']:g} mm are small for a pen "
                   "cross; 9 mm or more is comfortable")
    if style["row_pitch_mm"] < style["box_mm"]:
        raise check.fail(("sheet", "row_pitch_mm"), "'row_pitch_mm' must be at least 'box_mm' "
                         "or the rows overlap")
    return style


def _check_rows(value: Any, check: _Checker) -> tuple[RowStyle, ...]:
    if not isinstance(value, dict):
        raise check.fail(("rows",), "missing 'rows': red, yellow, green and blue")
    for key in value:
        if key not in ROWS:
            raise check.fail(("rows", key), f"unknown row '{key}': "
                                            "the rows are red, yellow, green, blue")
    rows = []
    for name in ROWS:
        spec = value.get(name)
        path = ("rows", name)
        if not isinstance(spec, dict):
            raise check.fail(("rows",) if spec is None else path,
                             f"row '{name}' is missing or not a mapping (numbers, colour, ink)")
        for key in spec:
            if key not in _ROW_KEYS:
                raise check.fail(path + (key,), f"unknown key '{key}' in row '{name}' "
                                 f"(known: {', '.join(sorted(_ROW_KEYS))})")
        order = spec.get("numbers")
        if order == "2-12":
            numbers = tuple(range(2, 13))
        elif order == "12-2":
            numbers = tuple(range(12, 1, -1))
        else:
            raise check.fail(path + ("numbers",), f"row '{name}' numbers must be 2-12 or 12-2, "
                             f"not {_show(order)}")
        colours = []
        for key in ("colour", "ink"):
            hex_value = spec.get(key)
            if not isinstance(hex_value, str) or not _HEX.match(hex_value):
                raise check.fail(path + (key,), f"row '{name}' {key} must be a colour like "
                                 f"\"#d32a32\", not {_show(hex_value)}")
            colours.append(_rgb(hex_value))
        rows.append(RowStyle(name=name, numbers=numbers, colour=colours[0], ink=colours[1]))
    return tuple(rows)


def _geometry(style: dict[str, Any], rows: tuple[RowStyle, ...], variant: str,
              check: _Checker) -> tuple[tuple[Box, ...], Furniture]:
    width, height = style["size_mm"]
    box, gap, lock_gap = style["box_mm"], style["box_gap_mm"], style["lock_gap_mm"]
    pitch, top = style["row_pitch_mm"], style["rows_top_mm"]
    row_width = 12 * box + 10 * gap + lock_gap
    left = (width - row_width) / 2
    if left < 2.0:
        raise check.fail(("sheet", "box_mm"), f"the rows need {row_width + 4:.1f} mm but the sheet "
                         f"is {width:g} mm wide; make the boxes or gaps smaller")
    if top < MARKER_INSET_MM + MARKER_MM + 1.0:
        raise check.fail(("sheet", "rows_top_mm"), "'rows_top_mm' must leave room for the corner "
                         f"markers: at least {MARKER_INSET_MM + MARKER_MM + 1.0:g}")
    boxes: list[Box] = []
    for i, row in enumerate(rows):
        y = top + i * pitch
        for j, number in enumerate(row.numbers):
            rect = Rect(left + j * (box + gap), y, box, box)
            boxes.append(Box(f"{row.name}-{number}", "number", rect, row=row.name, number=number))
        lock_x = left + 10 * (box + gap) + box + lock_gap
        boxes.append(Box(f"{row.name}-lock", "lock", Rect(lock_x, y, box, box), row=row.name))
    rows_bottom = top + 3 * pitch + box
    rows_right = left + row_width

    pen = style["penalty_box_mm"]
    pen_gap = 1.2
    pen_y = rows_bottom + 3.0
    pen_x0 = rows_right - (PENALTY_COUNT * pen + (PENALTY_COUNT - 1) * pen_gap)
    for k in range(PENALTY_COUNT):
        rect = Rect(pen_x0 + k * (pen + pen_gap), pen_y, pen, pen)
        boxes.append(Box(f"penalty-{k + 1}", "penalty", rect, index=k + 1))

    m, s = MARKER_INSET_MM, MARKER_MM
    markers = (Rect(m, m, s, s), Rect(width - m - s, m, s, s),
               Rect(width - m - s, height - m - s, s, s), Rect(m, height - m - s, s, s))
    code = Rect(width - m - CODE_MM, height - m - s - CODE_GAP_MM - CODE_MM, CODE_MM, CODE_MM)
    letter = Rect(width - m - s - 2.5 - 10.0, m - 0.5, 10.0, 10.0)
    table = Rect(left, pen_y, 12 * 5.8, pen)
    field_names = ["red", "yellow", "green", "blue"]
    if variant == "treden":
        field_names.append("steps")
    field_names += ["penalties", "total"]
    field_w, op_w = 11.0, 4.0
    totals_y = pen_y + pen + 3.5
    totals = tuple(
        (fname, Rect(left + k * (field_w + op_w), totals_y, field_w, 9.5))
        for k, fname in enumerate(field_names)
    )
    name_line = Rect(m + s + 4.0, height - m - 6.0, 60.0, 6.0)
    furniture = Furniture(markers=markers, code=code, letter=letter,
                          title_at=(m + s + 3.0, m + 7.5), table=table, totals=totals,
                          name_line=name_line)
    _check_fits(boxes, furniture, width, height, check)
    return tuple(boxes), furniture


def _check_fits(boxes: list[Box], furniture: Furniture, width: float, height: float,
                check: _Checker) -> None:
    parts: list[tuple[str, Rect]] = [(b.id, b.rect) for b in boxes]
    parts += [("the QR code", furniture.code)]
    parts += [(f"the {name} total", rect) for name, rect in furniture.totals]
    parts += [(f"corner marker {k + 1}", r) for k, r in enumerate(furniture.markers)]
    for label, r in parts:
        if r.x < 0 or r.y < 0 or r.x + r.w > width + 1e-9 or r.y + r.h > height + 1e-9:
            raise check.fail(("sheet",), f"{label} does not fit on the {width:g} x {height:g} mm "
                             "sheet; make the sheet larger or the boxes smaller")
    for i, (label_a, a) in enumerate(parts):
        for label_b, b in parts[i + 1:]:
            if a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h:
                raise check.fail(("sheet",), f"{label_a} overlaps {label_b}; change the sizes "
                                 "in 'sheet'")


def _box_id(value: Any, path: tuple[Any, ...], probe: Sheet, check: _Checker, what: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str):
        raise check.fail(path, f"{what} must be a box id like 'red-5', not {_show(value)}")
    if not probe.has_box(value):
        row, _, rest = value.partition("-")
        if row in ROWS:
            nums = probe.row(row).numbers
            lo, hi = min(nums), max(nums)
            raise check.fail(path, f"{what} '{value}' does not exist ({row} holds {lo}..{hi})")
        raise check.fail(path, f"{what} '{value}' does not exist (box ids are like red-5 or "
                         "blue-12)")
    box = probe.box(value)
    if box.kind != "number":
        raise check.fail(path, f"{what} '{value}' is a {box.kind} box; only number boxes can be "
                         f"{what.split()[0]} boxes")
    if value == probe.last_number(box.row or ""):
        raise check.fail(path, f"{what} '{value}' is the row's last number, which locks the row; "
                         "choose another box")
    return value


def _check_steps(value: Any, path: tuple[Any, ...], probe: Sheet,
                 check: _Checker) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise check.fail(path, "'steps' must be a list of box ids like [blue-12, blue-11, ...]")
    steps: list[str] = []
    for i, item in enumerate(value):
        box_id = _box_id(item, path + (i,), probe, check, "step box")
        if box_id in steps:
            raise check.fail(path + (i,), f"step box '{box_id}' is listed twice")
        steps.append(box_id)
    if len(steps) != ORIGINAL_STEPS:
        check.warn(path, f"{len(steps)} step boxes; the original sheets have {ORIGINAL_STEPS}")
    return tuple(steps)


def _check_chains(value: Any, path: tuple[Any, ...], probe: Sheet,
                  check: _Checker) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list) or not value:
        raise check.fail(path, "'chains' must be a list of pairs like [[red-5, yellow-5], ...]")
    chains: list[tuple[str, str]] = []
    used: dict[str, int] = {}
    for i, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2:
            raise check.fail(path + (i,), "each chain must be a pair of box ids like "
                             "[red-5, yellow-5]")
        a = _box_id(pair[0], path + (i, 0), probe, check, "chain end")
        b = _box_id(pair[1], path + (i, 1), probe, check, "chain end")
        if a == b:
            raise check.fail(path + (i,), f"chain joins '{a}' to itself")
        for k, box_id in ((0, a), (1, b)):
            if box_id in used:
                raise check.fail(path + (i, k), f"box '{box_id}' is in two chains "
                                 f"(also chain {used[box_id] + 1})")
            used[box_id] = i
        ba, bb = probe.box(a), probe.box(b)
        rows_apart = abs(ROWS.index(ba.row or "") - ROWS.index(bb.row or ""))
        if rows_apart != 1 or abs(ba.rect.x - bb.rect.x) > 1e-6:
            check.warn(path + (i,), f"chain {a} - {b}: the original chains join the same column "
                       "of two neighbouring rows")
        chains.append((a, b))
    if len(chains) != ORIGINAL_CHAINS:
        check.warn(path, f"{len(chains)} chains; the original sheets have {ORIGINAL_CHAINS}")
    return tuple(chains)


def _check_letters_differ(sheets: dict[str | None, Sheet], check: _Checker) -> None:
    seen: dict[Any, str | None] = {}
    for letter, sheet in sheets.items():
        key = (frozenset(sheet.steps), frozenset(frozenset(c) for c in sheet.chains))
        if key in seen:
            check.warn(("letters", letter), f"sheet {letter} has the same marked boxes as sheet "
                       f"{seen[key]}; players should hold different sheets")
        seen[key] = letter


def _mm(value: float) -> float:
    return round(float(value), 3)
