"""The layout loader's messages (with file:line) and the built-in geometry."""

from __future__ import annotations

import itertools
import textwrap

import pytest

from qwixx_print.errors import LayoutError, UnknownLayoutError, UnknownLetterError
from qwixx_print.layout import (
    MARKER_MM,
    ROWS,
    Rect,
    builtin_names,
    load_layout,
)

BUILTIN_SHEETS = [(name, letter) for name in ("classic", "treden", "kettingen")
                  for letter in load_layout(name).letters]


def write(tmp_path, monkeypatch, text: str, name: str = "mine.yaml") -> str:
    """Write a layout file into a fresh folder and work from there."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return name


def load_error(tmp_path, monkeypatch, text: str) -> str:
    path = write(tmp_path, monkeypatch, text)
    with pytest.raises(LayoutError) as info:
        load_layout(path)
    return info.value.message


# --------------------------------------------------------------- messages


def test_step_box_that_does_not_exist_names_file_line_and_the_row(tmp_path, monkeypatch):
    message = load_error(tmp_path, monkeypatch, """
        # A custom Treden layout: sheet C gets a different staircase.
        #
        # (lines of comment so that the bad box sits on line 14,
        # as in the issue's example)
        #
        #
        #
        name: mine
        extends: treden
        letters:
          C:
            steps: [blue-11, blue-10, blue-9, green-9, green-8, green-7,
                    yellow-7, yellow-8, yellow-9, red-10,
                    red-13]
        """)
    assert message == "mine.yaml:14: step box 'red-13' does not exist (red holds 2..12)"


def test_yaml_syntax_error(tmp_path, monkeypatch):
    message = load_error(tmp_path, monkeypatch, """
        extends: treden
        letters:
          C:
            steps: [red-3, red-4
          D: x
        """)
    assert message.startswith("mine.yaml:5: YAML syntax error:")


def test_unknown_top_level_key(tmp_path, monkeypatch):
    message = load_error(tmp_path, monkeypatch, """
        extends: classic
        title: MINE
        colour: red
        """)
    assert message.startswith("mine.yaml:3: unknown key 'colour' (known: extends, letters,")


def test_unknown_key_in_a_letter(tmp_path, monkeypatch):
    message = load_error(tmp_path, monkeypatch, """
        extends: treden
        letters:
          C:
            steps: [red-3]
            chains: []
        """)
    assert message == "mine.yaml:5: unknown key 'chains' for a treden letter (known: steps)"


def test_wrong_type_for_a_size(tmp_path, monkeypatch):
    message = load_error(tmp_path, monkeypatch, """
        extends: classic
        sheet:
          box_mm: big
        """)
    assert message == "mine.yaml:3: 'box_mm' must be a number, not 'big'"


def test_wrong_type_inside_a_list_names_the_key(tmp_path, monkeypatch):
    message = load_error(tmp_path, monkeypatch, """
        extends: classic
        sheet:
          size_mm: [wide, 105]
        """)
    assert message == "mine.yaml:3: 'size_mm' must be a number, not 'wide'"


def test_wrong_type_for_a_step(tmp_path, monkeypatch):
    message = load_error(tmp_path, monkeypatch, """
        extends: treden
        letters:
          C:
            steps: [red-3, 5]
        """)
    assert message == "mine.yaml:4: step box must be a box id like 'red-5', not 5"


def test_duplicate_letters(tmp_path, monkeypatch):
    message = load_error(tmp_path, monkeypatch, """
        extends: treden
        letters:
          C:
            steps: [red-3]
          C:
            steps: [red-4]
        """)
    assert message == "mine.yaml:5: duplicate key 'C'"


def test_a_letter_must_be_a_capital(tmp_path, monkeypatch):
    message = load_error(tmp_path, monkeypatch, """
        variant: treden
        extends: classic
        letters:
          a:
            steps: [red-3]
        """)
    assert message == "mine.yaml:4: letter 'a' must be one capital letter A-Z"


def test_box_in_two_chains(tmp_path, monkeypatch):
    message = load_error(tmp_path, monkeypatch, """
        extends: kettingen
        letters:
          C:
            chains: [[red-3, yellow-3],
                     [yellow-3, green-9]]
        """)
    assert message == "mine.yaml:5: box 'yellow-3' is in two chains (also chain 1)"


@pytest.mark.parametrize(("end", "kind"), [("red-lock", "lock"), ("penalty-2", "penalty")])
def test_chain_end_on_lock_or_penalty(tmp_path, monkeypatch, end, kind):
    message = load_error(tmp_path, monkeypatch, f"""
        extends: kettingen
        letters:
          C:
            chains: [[green-3, {end}]]
        """)
    assert message == (f"mine.yaml:4: chain end '{end}' is a {kind} box; only number boxes "
                       "can be chain boxes")


def test_step_on_the_last_number_is_refused(tmp_path, monkeypatch):
    message = load_error(tmp_path, monkeypatch, """
        extends: treden
        letters:
          C:
            steps: [blue-2]
        """)
    assert message.startswith("mine.yaml:4: step box 'blue-2' is the row's last number")


def test_counts_differing_from_the_originals_warn_but_load(tmp_path, monkeypatch):
    path = write(tmp_path, monkeypatch, """
        extends: kettingen
        letters:
          C:
            chains: [[red-3, yellow-3], [green-3, blue-3]]
        """)
    layout = load_layout(path)
    assert layout.sheet("C").chains == (("red-3", "yellow-3"), ("green-3", "blue-3"))
    assert "mine.yaml:4: warning: 2 chains; the original sheets have 6" in layout.warnings

    path = write(tmp_path, monkeypatch, """
        extends: treden
        letters:
          B:
            steps: [red-3, red-4, red-5]
        """, name="three.yaml")
    layout = load_layout(path)
    assert layout.sheet("B").steps == ("red-3", "red-4", "red-5")
    assert "three.yaml:4: warning: 3 step boxes; the original sheets have 11" in layout.warnings


def test_extends_a_builtin_and_changes_one_letter(tmp_path, monkeypatch):
    builtin = load_layout("treden")
    new_c = ["blue-12", "blue-11", "green-11", "green-10", "green-9", "yellow-5", "yellow-6",
             "yellow-7", "red-7", "red-8", "red-9"]
    path = write(tmp_path, monkeypatch, f"""
        extends: treden
        subtitle: Mijn treden
        letters:
          C:
            steps: [{", ".join(new_c)}]
        """)
    mine = load_layout(path)
    assert mine.name == "mine"
    assert mine.variant == "treden"
    assert mine.letters == builtin.letters
    assert mine.sheet("C").steps == tuple(new_c)
    assert mine.sheet("C").subtitle == "Mijn treden"
    for letter in "ABDE":
        assert mine.sheet(letter).steps == builtin.sheet(letter).steps
    # the geometry is the built-in one; only the code's name changes
    assert mine.sheet("A").boxes == builtin.sheet("A").boxes
    assert mine.sheet("C").code_payload.startswith("QWIXX:MINE:C:")
    assert mine.warnings == ()


def test_unknown_layout_and_letter():
    with pytest.raises(UnknownLayoutError, match="unknown layout 'tredn': the built-in layouts "
                       "are classic, kettingen, treden"):
        load_layout("tredn")
    with pytest.raises(UnknownLetterError, match="has no sheet 'F'; its letters are A, B, C, D, E"):
        load_layout("treden").sheet("F")
    with pytest.raises(UnknownLetterError, match="needs a letter"):
        load_layout("kettingen").sheet(None)
    with pytest.raises(UnknownLetterError, match="no letters; leave out the letter"):
        load_layout("classic").sheet("A")


# --------------------------------------------------------------- geometry


def _parts(sheet) -> list[tuple[str, Rect]]:
    f = sheet.furniture
    parts = [(b.id, b.rect) for b in sheet.boxes]
    parts += [(f"marker {k}", r) for k, r in enumerate(f.markers)]
    parts += [("code", f.code), ("letter", f.letter), ("table", f.table),
              ("name line", f.name_line)]
    parts += [(f"{name} total", r) for name, r in f.totals]
    return parts


def _overlap(a: Rect, b: Rect, margin: float = 0.0) -> bool:
    return (a.x < b.x + b.w + margin and b.x < a.x + a.w + margin
            and a.y < b.y + b.h + margin and b.y < a.y + a.h + margin)


@pytest.mark.parametrize(("name", "letter"), BUILTIN_SHEETS)
def test_nothing_overlaps_and_everything_is_inside_the_sheet(name, letter):
    sheet = load_layout(name).sheet(letter)
    width, height = sheet.size_mm
    parts = _parts(sheet)
    for label, r in parts:
        assert r.x >= 0 and r.y >= 0 and r.x + r.w <= width and r.y + r.h <= height, label
    for (la, a), (lb, b) in itertools.combinations(parts, 2):
        assert not _overlap(a, b), f"{la} overlaps {lb}"


@pytest.mark.parametrize(("name", "letter"), BUILTIN_SHEETS)
def test_markers_keep_their_clear_margin(name, letter):
    sheet = load_layout(name).sheet(letter)
    markers = sheet.furniture.markers
    for k, marker in enumerate(markers):
        assert marker.w == marker.h == MARKER_MM
        for label, r in _parts(sheet):
            if r in markers:
                continue
            assert not _overlap(marker, r, margin=1.5 - 1e-6), f"{label} is near marker {k}"


@pytest.mark.parametrize(("name", "letter"), BUILTIN_SHEETS)
def test_number_boxes_run_left_to_right_in_print_order(name, letter):
    sheet = load_layout(name).sheet(letter)
    for row in sheet.rows:
        boxes = sheet.row_boxes(row.name)
        assert tuple(b.number for b in boxes) == row.numbers
        xs = [b.rect.x for b in boxes]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)
        assert len({b.rect.y for b in boxes}) == 1
        lock = sheet.box(f"{row.name}-lock")
        assert lock.rect.x > boxes[-1].rect.x + boxes[-1].rect.w
        assert sheet.last_number(row.name) == boxes[-1].id
    ys = [sheet.row_boxes(r)[0].rect.y for r in ROWS]
    assert ys == sorted(ys)  # red on top, blue at the bottom
    assert min(b.rect.w for b in sheet.boxes if b.kind == "number") >= 9.0


def test_treden_c_geometry_counts():
    geometry = load_layout("treden").sheet("C").geometry_json()
    kinds = [b["kind"] for b in geometry["boxes"]]
    assert kinds.count("number") == 44
    assert kinds.count("lock") == 4
    assert kinds.count("penalty") == 4
    assert len(geometry["steps"]) == 11
    assert geometry["chains"] == []
    assert geometry["size_mm"] == [132.0, 98.0]
    ids = {b["id"] for b in geometry["boxes"]}
    assert set(geometry["steps"]) <= ids


def test_kettingen_e_has_six_chains_of_same_column_neighbours():
    sheet = load_layout("kettingen").sheet("E")
    assert len(sheet.chains) == 6
    ends = [end for pair in sheet.chains for end in pair]
    assert len(set(ends)) == 12  # no box in two chains
    for a, b in sheet.chains:
        ba, bb = sheet.box(a), sheet.box(b)
        assert abs(ROWS.index(ba.row) - ROWS.index(bb.row)) == 1
        assert ba.rect.x == pytest.approx(bb.rect.x)


@pytest.mark.parametrize("name", ["treden", "kettingen"])
def test_each_letter_marks_different_boxes(name):
    layout = load_layout(name)
    assert layout.letters == ("A", "B", "C", "D", "E")
    marks = [frozenset(s.steps) | frozenset(frozenset(c) for c in s.chains)
             for s in layout.sheets.values()]
    assert len(set(marks)) == 5
    assert len({s.code_payload for s in layout.sheets.values()}) == 5
    for sheet in layout.sheets.values():
        marked = list(sheet.steps) + [e for c in sheet.chains for e in c]
        for box_id in marked:
            box = sheet.box(box_id)
            assert box.kind == "number" and box_id != sheet.last_number(box.row)


def test_treden_steps_climb_through_all_four_rows():
    for sheet in load_layout("treden").sheets.values():
        assert len(sheet.steps) == 11
        assert {sheet.box(s).row for s in sheet.steps} == set(ROWS)


def test_builtin_names():
    assert builtin_names() == ("classic", "kettingen", "treden")
