"""The command line: `qwixx layouts`, `geometry` and `score`, through click's
runner, and once as a real subprocess of the installed `qwixx`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from qwixx_print.cli import cli

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def score_file(tmp_path, text: str, *args: str, name: str = "marks.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return run("score", str(path), *args)


# ------------------------------------------------------- layouts, geometry


def test_layouts_lists_the_builtins_with_letters():
    result = run("layouts")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["classic", "kettingen", "treden"]
    assert "letters: A, B, C, D, E" in lines[2]
    assert "(one sheet)" in lines[0]


def test_geometry_prints_the_documented_json():
    result = run("geometry", "treden", "--letter", "C")
    assert result.exit_code == 0
    geometry = json.loads(result.stdout)
    assert list(geometry) == ["layout", "letter", "size_mm", "boxes", "steps", "chains"]
    assert (geometry["layout"], geometry["letter"]) == ("treden", "C")
    red2 = next(b for b in geometry["boxes"] if b["id"] == "red-2")
    assert set(red2) == {"id", "kind", "row", "number", "x", "y", "w", "h"}
    lock = next(b for b in geometry["boxes"] if b["id"] == "blue-lock")
    assert set(lock) == {"id", "kind", "row", "x", "y", "w", "h"}
    penalty = next(b for b in geometry["boxes"] if b["id"] == "penalty-3")
    assert set(penalty) == {"id", "kind", "index", "x", "y", "w", "h"} and penalty["index"] == 3


def test_geometry_of_classic_has_a_null_letter_and_connected_defaults_to_a():
    classic = json.loads(run("geometry", "classic").stdout)
    assert classic["letter"] is None and classic["steps"] == [] and classic["chains"] == []
    kettingen = json.loads(run("geometry", "kettingen").stdout)
    assert kettingen["letter"] == "A" and len(kettingen["chains"]) == 6


@pytest.mark.parametrize(("args", "message"), [
    (["geometry", "tredn"], "qwixx: unknown layout 'tredn'"),
    (["geometry", "treden", "--letter", "F"], "qwixx: layout 'treden' has no sheet 'F'"),
    (["geometry", "classic", "--letter", "A"], "qwixx: layout 'classic' has one sheet"),
    (["geometry", "nothere.yaml"], "qwixx: layout file 'nothere.yaml' does not exist"),
])
def test_geometry_bad_input_is_one_line_and_exit_3(args, message):
    result = run(*args)
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr.startswith(message)
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr


# ------------------------------------------------------------------ score


@pytest.mark.parametrize(("sample", "total"), [("classic-63.yaml", 63), ("classic-70.yaml", 70),
                                               ("treden-C.yaml", 89), ("kettingen-E.yaml", 71)])
def test_samples_score_with_exit_0(sample, total):
    result = run("score", str(SAMPLES / sample), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["score"]["total"] == total
    assert out["status"] == "ok" and out["violations"] == [] and out["uncertain"] == []


def test_breakdown_shows_rows_total_and_status():
    result = run("score", str(SAMPLES / "classic-70.yaml"))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "classic"
    blue = next(line for line in lines if line.strip().startswith("blue"))
    assert "7 crosses" in blue and "28 points" in blue and "locked" in blue
    assert any(line.split()[:2] == ["total", "70"] for line in lines)
    assert lines[-1].startswith("status: ok")


def test_treden_breakdown_has_the_steps_line():
    lines = run("score", str(SAMPLES / "treden-C.yaml")).stdout.splitlines()
    steps = next(line for line in lines if line.strip().startswith("steps"))
    assert "7 crosses" in steps and "28 points" in steps


def test_json_is_the_scan_sheet_object_and_scores_again_to_the_same(tmp_path):
    first = run("score", str(SAMPLES / "treden-C.yaml"), "--json")
    out = json.loads(first.stdout)
    assert list(out) == ["layout", "letter", "marked", "uncertain", "score", "violations",
                         "status"]
    assert list(out["score"]) == ["red", "yellow", "green", "blue", "steps", "penalties",
                                  "total"]
    assert out["score"]["penalties"] == -5
    again = score_file(tmp_path, first.stdout, "--json", name="again.json")
    assert json.loads(again.stdout) == out


def test_broken_sheet_lists_its_violations_and_exits_1():
    result = run("score", str(SAMPLES / "broken-kettingen-A.yaml"), "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert [v["rule"] for v in out["violations"]] == [
        "lock-needs-five", "lock-without-last-number", "last-number-without-lock",
        "chain-incomplete"]
    assert out["status"] == "invalid"
    text = run("score", str(SAMPLES / "broken-kettingen-A.yaml"))
    assert text.exit_code == 1
    assert "error   lock-needs-five [red-12]:" in text.stdout
    assert "warning last-number-without-lock [blue-2, blue-lock]:" in text.stdout
    assert text.stdout.splitlines()[-1].startswith("status: invalid")


def test_a_warning_alone_means_review_and_exit_1(tmp_path):
    result = score_file(tmp_path, "layout: classic\nred: [2, 3, 4, 5, 6, 12]\n")
    assert result.exit_code == 1
    assert "28 points" in result.stdout  # the forgotten lock still counts
    assert result.stdout.splitlines()[-1].startswith("status: review")


def test_five_penalties_are_a_rule_error_not_bad_input(tmp_path):
    result = score_file(tmp_path, "layout: classic\npenalties: 5\n", "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert [v["rule"] for v in out["violations"]] == ["too-many-penalties"]
    assert out["score"]["penalties"] == -25


@pytest.mark.parametrize(("marks", "rule"), [
    ("layout: classic\nred: [2, 3, 4, 5, 12, lock]\n", "lock-needs-five"),
    ("layout: classic\ngreen: [12, 11, lock]\n", "lock-without-last-number"),
    ("layout: classic\nblue: [12, 11, 10, 9, 8, 2]\n", "last-number-without-lock"),
    ("layout: kettingen\nletter: E\nred: [3]\n", "chain-incomplete"),
    ("layout: classic\nred: [2, 3, 4, 5, 6, 12, lock]\nyellow: [2, 3, 4, 5, 6, 12, lock]\n"
     "green: [12, 11, 10, 9, 8, 2, lock]\n", "too-many-locks"),
])
def test_every_sheet_rule_is_flagged_by_the_command(tmp_path, marks, rule):
    result = score_file(tmp_path, marks, "--json")
    assert result.exit_code == 1
    assert rule in [v["rule"] for v in json.loads(result.stdout)["violations"]]


def test_scan_sheet_object_and_whole_scan_result_are_accepted(tmp_path):
    sheet = {"layout": "treden", "letter": "a", "marked": ["red-2", "red-5", "yellow-6",
                                                             "penalty-1"],
             "uncertain": [], "score": {"total": 999}, "status": "ok"}
    result = score_file(tmp_path, json.dumps(sheet), "--json", name="sheet.json")
    assert result.exit_code == 0
    # treden A: yellow-6 is a step, so red 3 + yellow 1 + steps 1 - 5
    assert json.loads(result.stdout)["score"]["total"] == 3 + 1 + 1 - 5
    scan = [{"file": "anna.jpg", "error": None, "sheets": [sheet]}]
    again = score_file(tmp_path, json.dumps(scan), "--json", name="scan.json")
    assert json.loads(again.stdout) == json.loads(result.stdout)


def test_json_indented_with_tabs_is_read(tmp_path):
    # valid JSON that YAML refuses (tabs) must still be read
    text = '{\n\t"layout": "classic",\n\t"marked": ["red-2", "red-3"]\n}\n'
    result = score_file(tmp_path, text, "--json", name="tabs.json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["score"]["red"] == 3


def test_uncertain_boxes_from_a_scan_keep_the_sheet_in_review(tmp_path):
    sheet = {"layout": "classic", "letter": None, "marked": ["red-2"], "uncertain": ["red-3"]}
    result = score_file(tmp_path, json.dumps(sheet), "--json", name="sheet.json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["uncertain"] == ["red-3"] and out["status"] == "review"


def test_stdin_is_read_with_a_dash():
    result = run("score", "-", "--json", stdin="layout: classic\nred: [2, 3]\n")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["score"]["red"] == 3


def test_house_rule_is_accepted_and_does_not_change_the_score():
    sample = str(SAMPLES / "kettingen-E.yaml")
    free = json.loads(run("score", sample, "--json", "--house-rule", "free").stdout)
    last = json.loads(run("score", sample, "--json", "--house-rule", "last").stdout)
    assert free == last
    assert run("score", sample, "--house-rule", "maybe").exit_code == 2


@pytest.mark.parametrize(("text", "message"), [
    ("", "marks.yaml:1: the marks file is empty"),
    ("   \n\n", "marks.yaml:1: the marks file is empty"),
    ("layout: treden\nletter: C\nred: [2\n", "marks.yaml:4: YAML syntax error"),
    ('{"layout": "classic",\n "marked": ["red-2",]}', "marks.yaml:2: JSON syntax error"),
    ("layout: tredn\n", "marks.yaml:1: unknown layout 'tredn'"),
    ("layout: treden\nletter: F\n", "marks.yaml:2: layout 'treden' has no sheet 'F'"),
    ("layout: treden\nred: [2]\n", "marks.yaml:1: layout 'treden' needs a letter"),
    ("layout: classic\nletter: A\n", "marks.yaml:2: layout 'classic' has one sheet and no letters"),
    ("letter: A\nred: [2]\n", "marks.yaml:1: missing 'layout'"),
    ("layout: classic\nred: [2, 13]\n",
     "marks.yaml:2: red has no box 13 (red holds 2..12 and lock)"),
    ("layout: classic\ngreen:\n  - 12\n  - 1\n",
     "marks.yaml:4: green has no box 1 (green holds 12..2"),
    ("layout: classic\nred: [2, 2]\n", "marks.yaml:2: red lists 2 twice"),
    ("layout: classic\nred: 5\n", "marks.yaml:2: 'red' must be a list of crossed numbers"),
    ("layout: classic\npurple: [2]\n", "marks.yaml:2: unknown key 'purple'"),
    ("layout: classic\npenalties: -1\n", "marks.yaml:2: 'penalties' must be the number"),
    ("layout: classic\npenalties: two\n", "marks.yaml:2: 'penalties' must be the number"),
    ("layout: classic\npenalties: 40\n", "marks.yaml:2: 40 penalties cannot be right"),
    ('{"layout": "classic",\n "marked": ["red-2", "red-13"]}',
     "marks.yaml:2: box 'red-13' does not exist on classic: "
     "red holds red-2 .. red-12 and red-lock"),
    ("layout: classic\nmarked: red-2\n", "marks.yaml:2: 'marked' must be a list of box ids"),
    ("layout: classic\nmarked: [red-2]\nuncertain: [red-2]\n", "marks.yaml:3: 'red-2' is both"),
    ("[1, 2]\n", "marks.yaml:1: the file holds a list of 2 items"),
    ("just words\n", "marks.yaml:1: a marks file must be a mapping"),
])
def test_bad_marks_file_is_one_line_with_file_and_line_and_exit_3(tmp_path, text, message):
    result = score_file(tmp_path, text)
    assert result.exit_code == 3, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("qwixx: ")
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_missing_file_exit_3_and_traceback_only_with_verbose():
    quiet = run("score", "no-such-marks.yaml")
    assert quiet.exit_code == 3
    assert quiet.stderr == ("qwixx: no-such-marks.yaml: cannot read the marks file: "
                            "No such file or directory\n")
    loud = run("-v", "score", "no-such-marks.yaml")
    assert loud.exit_code == 3
    assert "Traceback" in loud.stderr and "MarksError" in loud.stderr


def test_a_custom_layout_file_next_to_the_marks_file(tmp_path):
    (tmp_path / "mine.yaml").write_text(
        "extends: treden\nletters:\n  C:\n    steps: [red-2, red-3, red-4]\n", encoding="utf-8")
    result = score_file(tmp_path, "layout: mine.yaml\nletter: C\nred: [2, 3, 4]\n", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["layout"] == "mine"
    assert out["score"]["steps"] == 6 and out["score"]["total"] == 12
    assert "warning: 3 step boxes" in result.stderr  # the layout's warning is shown


# ------------------------------------------------------- the real program


def test_installed_qwixx_runs_from_another_folder(tmp_path):
    exe = Path(sys.executable).parent / "qwixx"
    assert exe.is_file(), f"qwixx is not installed next to {sys.executable}"
    done = subprocess.run([str(exe), "geometry", "treden", "--letter", "C"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    geometry = json.loads(done.stdout)
    kinds = [b["kind"] for b in geometry["boxes"]]
    assert (kinds.count("number"), kinds.count("lock"), kinds.count("penalty")) == (44, 4, 4)
    assert len(geometry["steps"]) == 11
