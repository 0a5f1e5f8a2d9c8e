"""The rules engine against RULES.md: worked examples, every violation rule
(triggering and not), game checks, and properties over random sheets."""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from qwixx_print.errors import MarksError
from qwixx_print.layout import ROWS, load_layout
from qwixx_print.rules import (
    ChainRule,
    IllegalCrossError,
    SheetInPlay,
    check_game,
    points_for,
    score_sheet,
)

CLASSIC = load_layout("classic").sheet()
TREDEN_C = load_layout("treden").sheet("C")
KETTINGEN_E = load_layout("kettingen").sheet("E")
ALL_SHEETS = [load_layout(n).sheet(letter) for n in ("classic", "treden", "kettingen")
              for letter in load_layout(n).letters]


def row_ids(row: str, *numbers: int | str) -> list[str]:
    return [f"{row}-{n}" for n in numbers]


def penalties(n: int) -> list[str]:
    return [f"penalty-{k}" for k in range(1, n + 1)]


def rules_of(score) -> list[str]:
    return [v.rule for v in score.violations]


# ---------------------------------------------------------- worked examples


def test_table_matches_the_printed_one():
    assert [points_for(n) for n in range(1, 13)] == [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]
    assert points_for(0) == 0
    with pytest.raises(ValueError):
        points_for(-1)


def test_worked_example_63():
    marked = (row_ids("red", 2, 3, 5, 6, 8, 9) + row_ids("yellow", 3, 4, 7, 10)
              + row_ids("green", 12, 11, 9, 8, 7, 6, 5, 3) + row_ids("blue", 11, 8, 6)
              + penalties(2))
    score = score_sheet(CLASSIC, marked)
    assert [score.row(r).points for r in ROWS] == [21, 10, 36, 6]
    assert score.penalties == -10
    assert score.total == 63
    assert score.status() == "ok"
    assert score.score_json() == {"red": 21, "yellow": 10, "green": 36, "blue": 6,
                                  "steps": 0, "penalties": -10, "total": 63}


def test_worked_example_70():
    marked = (row_ids("red", 3, 5, 6, 9) + row_ids("yellow", 2, 6, 8)
              + row_ids("green", 12, 11, 10, 8, 7, 6, 5, 4)
              + row_ids("blue", 11, 9, 8, 6, 4, 2, "lock") + penalties(2))
    score = score_sheet(CLASSIC, marked)
    assert [score.row(r).crosses for r in ROWS] == [4, 3, 8, 7]
    assert [score.row(r).points for r in ROWS] == [10, 6, 36, 28]
    assert score.total == 70
    assert score.violations == ()


def test_six_numbers_and_the_lock_make_28():
    score = score_sheet(CLASSIC, row_ids("red", 3, 4, 6, 8, 10, 12, "lock"))
    assert score.row("red").crosses == 7
    assert score.row("red").points == 28
    assert score.row("red").locked
    assert score.status() == "ok"


def test_full_row_scores_78():
    score = score_sheet(CLASSIC, row_ids("green", *range(12, 1, -1), "lock"))
    assert score.row("green").crosses == 12
    assert score.row("green").points == 78
    assert score.total == 78


def test_treden_fifth_score_counts_steps_over_the_whole_sheet():
    # Sheet C's steps: blue 11 10 9, green 9 8 7, yellow 7 8 9, red 10 11.
    # One step in each of three rows: per row that would be 1 + 1 + 1 = 3;
    # over the whole sheet it is points_for(3) = 6.
    marked = ["red-10", "yellow-7", "green-9"]
    score = score_sheet(TREDEN_C, marked)
    assert score.step_count == 3
    assert score.steps == 6
    # ... and the step boxes count in their rows too.
    assert [score.row(r).crosses for r in ROWS] == [1, 1, 1, 0]
    assert score.total == 3 + 6


def test_treden_all_eleven_steps_score_66_plus_their_rows():
    marked = list(TREDEN_C.steps)
    score = score_sheet(TREDEN_C, marked)
    assert score.step_count == 11
    assert score.steps == 66
    rows = {r: sum(1 for s in TREDEN_C.steps if s.startswith(r + "-")) for r in ROWS}
    assert [score.row(r).crosses for r in ROWS] == [rows[r] for r in ROWS]
    assert score.total == 66 + sum(points_for(n) for n in rows.values())


def test_steps_score_nothing_outside_treden():
    score = score_sheet(CLASSIC, row_ids("red", 2, 3))
    assert score.steps == 0 and score.step_count == 0


def test_a_cross_that_is_not_a_step_does_not_count_as_a_step():
    score = score_sheet(TREDEN_C, ["red-2", "blue-12", "blue-11"])
    assert score.step_count == 1


# ------------------------------------------------------------ violations


def test_lock_needs_five_triggers_with_four_crosses_before_the_last_number():
    score = score_sheet(CLASSIC, row_ids("red", 2, 3, 4, 5, 12, "lock"))
    assert rules_of(score) == ["lock-needs-five"]
    v = score.violations[0]
    assert v.severity == "error" and v.boxes == ("red-12",)
    assert "4 other crosses" in v.message
    assert score.status() == "invalid"


def test_lock_needs_five_quiet_with_five_crosses_before():
    score = score_sheet(CLASSIC, row_ids("blue", 12, 11, 10, 9, 8, 2, "lock"))
    assert rules_of(score) == []


def test_lock_needs_five_ignores_the_lock_box_itself():
    # 4 numbers + the last number + the lock: still only 4 before it.
    score = score_sheet(CLASSIC, row_ids("yellow", 2, 4, 6, 8, 12, "lock"))
    assert "lock-needs-five" in rules_of(score)


def test_lock_without_last_number():
    score = score_sheet(CLASSIC, row_ids("green", 12, 11, "lock"))
    assert rules_of(score) == ["lock-without-last-number"]
    assert score.violations[0].boxes == ("green-lock",)
    assert score.row("green").crosses == 3  # what is on the sheet is counted
    assert not score.row("green").locked


def test_lock_with_last_number_is_no_lock_without_last_number():
    score = score_sheet(CLASSIC, row_ids("green", 12, 11, 10, 9, 8, 2, "lock"))
    assert "lock-without-last-number" not in rules_of(score)


def test_last_number_without_lock_is_a_warning_and_the_lock_still_counts():
    score = score_sheet(CLASSIC, row_ids("red", 2, 3, 4, 5, 6, 12))
    assert rules_of(score) == ["last-number-without-lock"]
    v = score.violations[0]
    assert v.severity == "warning" and v.boxes == ("red-12", "red-lock")
    assert score.row("red").crosses == 7
    assert score.row("red").points == 28
    assert score.status() == "review"


def test_too_many_penalties_when_given_as_a_count():
    score = score_sheet(CLASSIC, penalties(4), penalty_count=5)
    assert rules_of(score) == ["too-many-penalties"]
    assert score.penalties == -25
    assert score.status() == "invalid"


def test_four_penalties_are_allowed():
    score = score_sheet(CLASSIC, penalties(4))
    assert rules_of(score) == []
    assert score.penalty_count == 4 and score.penalties == -20


def test_penalty_count_below_the_marked_boxes_is_a_programming_error():
    with pytest.raises(ValueError):
        score_sheet(CLASSIC, penalties(3), penalty_count=2)


def test_chain_incomplete_names_both_ends():
    # Sheet E chains red-3 with yellow-3.
    score = score_sheet(KETTINGEN_E, ["red-3"])
    assert rules_of(score) == ["chain-incomplete"]
    assert score.violations[0].boxes == ("red-3", "yellow-3")
    assert "yellow-3 is not" in score.violations[0].message


def test_chain_complete_is_fine_and_scores_both_in_their_rows():
    score = score_sheet(KETTINGEN_E, ["red-3", "yellow-3"])
    assert rules_of(score) == []
    assert score.row("red").crosses == 1 and score.row("yellow").crosses == 1


def test_chains_mean_nothing_on_other_layouts():
    assert rules_of(score_sheet(CLASSIC, ["red-3"])) == []


def test_too_many_locks():
    marked = (row_ids("red", 2, 3, 4, 5, 6, 12, "lock") + row_ids("yellow", 2, 3, 4, 5, 6, 12)
              + row_ids("green", 12, 11, 10, 9, 8, 2, "lock"))
    score = score_sheet(CLASSIC, marked)
    assert "too-many-locks" in rules_of(score)
    v = next(v for v in score.violations if v.rule == "too-many-locks")
    assert v.severity == "error" and v.boxes == ("red-12", "yellow-12", "green-2")


def test_two_locks_are_allowed():
    marked = (row_ids("red", 2, 3, 4, 5, 6, 12, "lock")
              + row_ids("blue", 12, 11, 10, 9, 8, 2, "lock"))
    assert rules_of(score_sheet(CLASSIC, marked)) == []


def test_unknown_box_names_the_box_and_what_exists():
    with pytest.raises(MarksError,
                       match=r"'red-13' does not exist .*red-2 \.\. red-12 and red-lock"):
        score_sheet(CLASSIC, ["red-13"])
    with pytest.raises(MarksError, match=r"'penalty-5' .* penalty-1 \.\. penalty-4"):
        score_sheet(CLASSIC, ["penalty-5"])
    with pytest.raises(MarksError, match=r"'purple-3' does not exist"):
        score_sheet(CLASSIC, ["purple-3"])


def test_json_shapes_follow_interfaces():
    score = score_sheet(CLASSIC, row_ids("red", 2, 3, 4, 5, 12))
    out = score.to_json(uncertain=["blue-7"])
    assert list(out) == ["layout", "letter", "marked", "uncertain", "score", "violations",
                         "status"]
    assert out["letter"] is None
    assert out["uncertain"] == ["blue-7"]
    assert out["violations"][0] == {
        "rule": "lock-needs-five", "severity": "error", "boxes": ["red-12"],
        "message": out["violations"][0]["message"]}
    assert out["status"] == "invalid"


def test_uncertain_boxes_force_review():
    score = score_sheet(CLASSIC, ["red-2"])
    assert score.status() == "ok"
    assert score.status(["red-3"]) == "review"


def test_marked_comes_back_in_sheet_order():
    score = score_sheet(CLASSIC, ["penalty-1", "blue-2", "red-5", "red-2"])
    assert score.marked == ("red-2", "red-5", "blue-2", "penalty-1")


# ----------------------------------------------------------- game checks


def _sheet_score(sheet, marked=(), penalty_count=None):
    return score_sheet(sheet, marked, penalty_count=penalty_count)


LOCK_RED = row_ids("red", 2, 3, 4, 5, 6, 12, "lock")
LOCK_YELLOW = row_ids("yellow", 2, 3, 4, 5, 6, 12, "lock")
LOCK_GREEN = row_ids("green", 12, 11, 10, 9, 8, 2, "lock")
LOCK_BLUE = row_ids("blue", 12, 11, 10, 9, 8, 2, "lock")


def game_rules(scores) -> list[str]:
    return [v.rule for v in check_game(scores)]


def test_a_normal_game_has_no_warnings():
    t = load_layout("treden")
    scores = [_sheet_score(t.sheet("A"), LOCK_RED), _sheet_score(t.sheet("B"), LOCK_BLUE),
              _sheet_score(t.sheet("C"))]
    assert game_rules(scores) == []


def test_same_letter_twice():
    t = load_layout("treden")
    scores = [_sheet_score(t.sheet("A"), LOCK_RED), _sheet_score(t.sheet("A"), LOCK_BLUE)]
    found = check_game(scores)
    assert [v.rule for v in found] == ["same-letter-twice"]
    assert found[0].sheets == (0, 1) and found[0].severity == "warning"


def test_classic_players_all_share_one_sheet_without_warning():
    scores = [_sheet_score(CLASSIC, LOCK_RED), _sheet_score(CLASSIC, LOCK_BLUE)]
    assert game_rules(scores) == []


def test_mixed_variants():
    scores = [_sheet_score(TREDEN_C, LOCK_RED), _sheet_score(KETTINGEN_E, LOCK_BLUE)]
    assert game_rules(scores) == ["mixed-variants"]


def test_too_many_locked_colours():
    scores = [_sheet_score(CLASSIC, LOCK_RED + LOCK_YELLOW), _sheet_score(CLASSIC, LOCK_GREEN),
              _sheet_score(CLASSIC, LOCK_BLUE)]
    assert game_rules(scores) == ["too-many-locked-colours"]
    three = scores[:2] + [_sheet_score(CLASSIC, LOCK_GREEN)]
    assert game_rules(three) == []


def test_game_not_ended():
    one_lock = [_sheet_score(CLASSIC, LOCK_RED), _sheet_score(CLASSIC, penalties(3))]
    assert game_rules(one_lock) == ["game-not-ended"]
    four_penalties = [_sheet_score(CLASSIC, LOCK_RED), _sheet_score(CLASSIC, penalties(4))]
    assert game_rules(four_penalties) == []
    # the same colour locked by two players is still one closed row
    same_colour = [_sheet_score(CLASSIC, LOCK_RED), _sheet_score(CLASSIC, LOCK_RED)]
    assert game_rules(same_colour) == ["game-not-ended"]


def test_too_many_players():
    t = load_layout("treden")
    scores = [_sheet_score(t.sheet(letter)) for letter in "ABCDE"]
    scores[0] = _sheet_score(t.sheet("A"), LOCK_RED + LOCK_BLUE)
    assert game_rules(scores) == []
    six = scores + [_sheet_score(t.sheet("A"))]
    assert set(game_rules(six)) == {"too-many-players", "same-letter-twice"}


# ------------------------------------------------------------ properties


def sheets():
    return st.sampled_from(ALL_SHEETS)


@st.composite
def sheet_and_marks(draw):
    sheet = draw(sheets())
    ids = [b.id for b in sheet.boxes]
    return sheet, draw(st.sets(st.sampled_from(ids)))


@settings(max_examples=300, deadline=None)
@given(sheet_and_marks())
def test_total_is_rows_plus_steps_minus_five_per_penalty(case):
    sheet, marked = case
    score = score_sheet(sheet, marked)
    assert score.total == (sum(r.points for r in score.rows) + score.steps
                           - 5 * score.penalty_count)
    assert score.penalty_count == sum(1 for m in marked if m.startswith("penalty-"))
    for r in score.rows:
        assert r.points == points_for(r.crosses)


@settings(max_examples=300, deadline=None)
@given(sheet_and_marks(), st.data())
def test_adding_a_cross_never_lowers_a_rows_points(case, data):
    sheet, marked = case
    extra = data.draw(st.sampled_from([b.id for b in sheet.boxes if b.row is not None]))
    before = score_sheet(sheet, marked)
    after = score_sheet(sheet, marked | {extra})
    for row in ROWS:
        assert after.row(row).points >= before.row(row).points
    assert after.steps >= before.steps


@given(st.integers(min_value=0, max_value=200))
def test_table_is_n_n_plus_1_over_2(n):
    assert points_for(n) == n * (n + 1) // 2
    if n:
        assert points_for(n) - points_for(n - 1) == n  # the n-th cross is worth n


@st.composite
def played_sheet(draw, chain_rule):
    """A sheet filled by legal play: random throws, crossed when allowed."""
    sheet = draw(sheets())
    play = SheetInPlay(sheet, chain_rule=chain_rule)
    numbers = [b.id for b in sheet.boxes if b.kind == "number"]
    for _ in range(draw(st.integers(0, 60))):
        if play.game_over:
            break
        move = draw(st.sampled_from(numbers + ["penalty", "other-closes"] + ["careful"] * 20))
        if move == "careful":
            # a careful player crosses the leftmost open box of a row: rows fill up and lock
            row = draw(st.sampled_from(ROWS))
            open_boxes = [b.id for b in sheet.row_boxes(row) if play.can_cross(b.id)]
            if open_boxes:
                play.cross(open_boxes[0])
        elif move == "penalty":
            play.cross_penalty()
        elif move == "other-closes":
            # another player locks a row now and then
            if draw(st.integers(0, 9)) == 0:
                play.close_row(draw(st.sampled_from(ROWS)))
        elif play.can_cross(move):
            play.cross(move)
    return sheet, play


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(ChainRule)).flatmap(played_sheet))
def test_legal_play_never_yields_a_rule_error(case):
    sheet, play = case
    event(f"{len(play.locked_rows)} locked rows")
    score = score_sheet(sheet, play.marked)
    assert score.errors == (), score.errors
    assert score.warnings == ()  # play always crosses the lock with the last number


@settings(max_examples=200, deadline=None)
@given(played_sheet(ChainRule.FREE))
def test_a_finished_sheet_is_reachable_under_either_house_rule(case):
    """Why the house rule cannot change a finished sheet's score: replaying
    the crosses column by column is legal under the stricter rule too."""
    sheet, play = case
    strict = SheetInPlay(sheet, chain_rule=ChainRule.LAST)
    crossed = [b for b in sheet.boxes if b.kind == "number" and b.id in play.marked]
    for box in sorted(crossed, key=lambda b: sheet.row(b.row).numbers.index(b.number)):
        if box.id not in strict.marked:  # not auto-crossed already
            strict.cross(box.id)  # raises IllegalCrossError if the replay were illegal
    assert strict.marked == {m for m in play.marked if not m.startswith("penalty-")}


def test_play_auto_crosses_the_partner_even_in_a_closed_row():
    play = SheetInPlay(KETTINGEN_E)
    for box in row_ids("yellow", 2, 4, 5, 8, 10, 12):
        play.cross(box)
    assert "yellow-lock" in play.marked and "yellow" in play.closed
    play.cross("red-9")  # chained to yellow-9, left of yellow's last cross, row closed
    assert "yellow-9" in play.marked
    with pytest.raises(IllegalCrossError):
        play.cross("yellow-11")


def test_house_rule_decides_whether_boxes_left_of_the_auto_cross_stay_open():
    free, last = SheetInPlay(KETTINGEN_E), SheetInPlay(KETTINGEN_E, chain_rule=ChainRule.LAST)
    for play in (free, last):
        play.cross("red-9")  # auto-crosses yellow-9
    assert free.can_cross("yellow-4")
    assert not last.can_cross("yellow-4")
    assert last.can_cross("yellow-10")
