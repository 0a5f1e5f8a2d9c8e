"""Read a marks file for ``qwixx score``: which boxes of which sheet are crossed.

Two forms, in YAML or JSON:

* a sheet object as ``qwixx scan --json`` writes it (INTERFACES.md): only
  ``layout``, ``letter`` and ``marked`` are needed; ``uncertain`` is kept
  (those boxes still need a person), other fields (``score``,
  ``violations``, ``status``, ...) are ignored. A whole scan result holding
  exactly one sheet is accepted too;
* a form for typing by hand::

      layout: treden        # built-in name or a layout YAML file
      letter: C             # A-E; leave out for classic
      red: [2, 3, 5, 12, lock]
      yellow: [4, 6]
      blue: [12, 11]        # a row left out has no crosses
      penalties: 2          # how many penalty boxes are crossed

Every problem is a MarksError whose message starts with ``file:line``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import LayoutError, MarksError, QwixxError, UnknownLetterError
from .layout import ROWS, Sheet, builtin_names, load_layout
from .rules import unknown_box_message
from .yamlsource import YamlSource, read_yaml

FRIENDLY_KEYS = ("layout", "letter", *ROWS, "penalties")
#: A penalty count above the sheet's four is kept and reported as the rule
#: error ``too-many-penalties``; above this it is surely a typing mistake.
MAX_PENALTY_COUNT = 20
STDIN = "-"


@dataclass(frozen=True)
class Marks:
    """A sheet and its crosses, as read from a marks file."""

    sheet: Sheet
    marked: tuple[str, ...]
    uncertain: tuple[str, ...] = ()
    #: Penalties given as a number (hand-typed form); None: count the boxes.
    penalty_count: int | None = None
    #: Warnings of a custom layout file, to show the user.
    layout_warnings: tuple[str, ...] = ()


def read_marks_file(path: str, *, stdin_text: str | None = None) -> Marks:
    """Read ``path`` (``-``: the text given as ``stdin_text``) into Marks."""
    if path == STDIN:
        display, text, folder = "<stdin>", stdin_text or "", Path.cwd()
    else:
        display, folder = path, Path(path).parent
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise MarksError(f"{path}: cannot read the marks file: "
                             f"{exc.strerror or exc}") from None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise MarksError(f"{path}: not a text file; a marks file is YAML or JSON "
                             "(see samples/)") from None
    return parse_marks(text, display, folder=folder)


def parse_marks(text: str, file: str, *, folder: Path | None = None) -> Marks:
    """Parse a marks file's ``text``; ``file`` names it in messages.

    ``folder``: where a relative layout file path is looked up first.
    """
    source = _parse(text, file)
    data, base = _one_sheet(source)
    if not isinstance(data, dict):
        raise MarksError(f"{source.where(base)}: a marks file must be a mapping with "
                         "layout, letter and the crossed boxes (see samples/)")
    if "marked" in data:
        return _scan_form(source, data, base, folder)
    return _friendly_form(source, data, base, folder)


def _parse(text: str, file: str) -> YamlSource:
    if not text.strip():
        raise MarksError(f"{file}:1: the marks file is empty; write layout, letter and the "
                         "crossed boxes (see samples/)")
    json_data: Any = None
    is_json = text.lstrip().startswith(("{", "["))
    if is_json:
        try:
            json_data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MarksError(f"{file}:{exc.lineno}: JSON syntax error: {exc.msg}") from None
    try:
        # YAML reads JSON too, and keeps the line of every value for messages
        return read_yaml(text, file)
    except LayoutError as exc:  # the YAML reader speaks of layouts; this is a marks file
        if is_json:  # valid JSON that YAML refuses (tab indentation): no line numbers
            return YamlSource(file=file, data=json_data)
        raise MarksError(exc.message) from None


def _one_sheet(source: YamlSource) -> tuple[Any, tuple[Any, ...]]:
    """The one sheet object in the file, and its path in the document."""
    data: Any = source.data
    base: tuple[Any, ...] = ()
    if isinstance(data, list):
        if len(data) != 1:
            raise MarksError(f"{source.where(())}: the file holds a list of {len(data)} "
                             "items; give one sheet (copy one sheet object into its own file)")
        data, base = data[0], (0,)
    if isinstance(data, dict) and "sheets" in data and "marked" not in data:
        sheets = data["sheets"]
        if not isinstance(sheets, list) or len(sheets) != 1:
            count = len(sheets) if isinstance(sheets, list) else 0
            raise MarksError(f"{source.where(base + ('sheets',))}: the scan result holds "
                             f"{count} sheets; give one sheet object in its own file")
        data, base = sheets[0], base + ("sheets", 0)
    return data, base


def _load_sheet(source: YamlSource, data: dict[str, Any], base: tuple[Any, ...],
                folder: Path | None) -> tuple[Sheet, tuple[str, ...]]:
    layout_ref = data.get("layout")
    if layout_ref is None:
        raise MarksError(f"{source.where(base)}: missing 'layout' (one of "
                         f"{', '.join(builtin_names())}, or a layout YAML file)")
    if not isinstance(layout_ref, str):
        raise MarksError(f"{source.where(base + ('layout',))}: 'layout' must be a layout "
                         f"name ({', '.join(builtin_names())}) or file, not {layout_ref!r}")
    if folder is not None and layout_ref not in builtin_names():
        beside = folder / layout_ref
        if beside.is_file():
            layout_ref = str(beside)
    letter = data.get("letter")
    if letter is not None and not isinstance(letter, str):
        raise MarksError(f"{source.where(base + ('letter',))}: 'letter' must be a letter "
                         f"like C, not {letter!r}")
    try:
        layout = load_layout(layout_ref)
        sheet = layout.sheet(letter)
    except UnknownLetterError as exc:
        raise MarksError(f"{source.where(base + ('letter',))}: {exc.message}") from None
    except QwixxError as exc:  # an unknown layout, or a layout file that is broken
        raise MarksError(f"{source.where(base + ('layout',))}: {exc.message}") from None
    return sheet, layout.warnings


def _scan_form(source: YamlSource, data: dict[str, Any], base: tuple[Any, ...],
               folder: Path | None) -> Marks:
    sheet, warnings = _load_sheet(source, data, base, folder)
    marked = _id_list(source, data, base, "marked", sheet)
    uncertain = _id_list(source, data, base, "uncertain", sheet) if "uncertain" in data else ()
    both = sorted(set(marked) & set(uncertain))
    if both:
        raise MarksError(f"{source.where(base + ('uncertain',))}: '{both[0]}' is both marked "
                         "and uncertain; decide it: keep it in one list only")
    return Marks(sheet=sheet, marked=marked, uncertain=uncertain, layout_warnings=warnings)


def _id_list(source: YamlSource, data: dict[str, Any], base: tuple[Any, ...], key: str,
             sheet: Sheet) -> tuple[str, ...]:
    value = data[key]
    path = base + (key,)
    if not isinstance(value, list):
        raise MarksError(f"{source.where(path)}: '{key}' must be a list of box ids like "
                         "[red-2, blue-lock, penalty-1]")
    seen: list[str] = []
    for i, item in enumerate(value):
        where = source.where(path + (i,))
        if not isinstance(item, str) or not sheet.has_box(item):
            raise MarksError(f"{where}: {unknown_box_message(sheet, item)}")
        if item in seen:
            raise MarksError(f"{where}: '{item}' is listed twice in '{key}'")
        seen.append(item)
    return tuple(seen)


def _friendly_form(source: YamlSource, data: dict[str, Any], base: tuple[Any, ...],
                   folder: Path | None) -> Marks:
    for key in data:
        if key not in FRIENDLY_KEYS:
            raise MarksError(f"{source.where(base + (key,))}: unknown key '{key}' (known: "
                             f"{', '.join(FRIENDLY_KEYS)}; or a scan sheet object with "
                             "'marked')")
    sheet, warnings = _load_sheet(source, data, base, folder)
    marked: list[str] = []
    for row in ROWS:
        if data.get(row) is not None:
            marked += _row_marks(source, data[row], base + (row,), row, sheet)
    penalty_count = None
    if "penalties" in data:
        count = _penalty_count(source, data["penalties"], base + ("penalties",))
        marked += list(sheet.penalty_ids[:count])
        if count > len(sheet.penalty_ids):
            penalty_count = count
    return Marks(sheet=sheet, marked=tuple(marked), penalty_count=penalty_count,
                 layout_warnings=warnings)


def _row_marks(source: YamlSource, value: Any, path: tuple[Any, ...], row: str,
               sheet: Sheet) -> list[str]:
    numbers = sheet.row(row).numbers
    holds = f"{row} holds {numbers[0]}..{numbers[-1]} and lock"
    if not isinstance(value, list):
        raise MarksError(f"{source.where(path)}: '{row}' must be a list of crossed numbers "
                         f"like [2, 5, lock] ({holds})")
    found: list[str] = []
    for i, item in enumerate(value):
        where = source.where(path + (i,))
        if item == "lock":
            box_id = f"{row}-lock"
        elif isinstance(item, int) and not isinstance(item, bool) and item in numbers:
            box_id = f"{row}-{item}"
        else:
            raise MarksError(f"{where}: {row} has no box {item!r} ({holds})")
        if box_id in found:
            raise MarksError(f"{where}: {row} lists {item!r} twice")
        found.append(box_id)
    return found


def _penalty_count(source: YamlSource, value: Any, path: tuple[Any, ...]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MarksError(f"{source.where(path)}: 'penalties' must be the number of crossed "
                         f"penalty boxes, 0 to 4, not {value!r}")
    if value > MAX_PENALTY_COUNT:
        raise MarksError(f"{source.where(path)}: {value} penalties cannot be right: a sheet "
                         "has 4 penalty boxes; count the crossed ones again")
    return value
