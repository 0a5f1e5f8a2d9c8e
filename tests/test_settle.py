"""Doubtful boxes settled by the rules only where the reader leaned the same way."""

from __future__ import annotations

from qwixx_print.layout import load_layout
from qwixx_print.rules import score_sheet
from qwixx_scan.settle import MAX_DOUBTFUL, settle
from qwixx_scan.verdict import BoxVerdict

KETTINGEN_B = load_layout("kettingen").sheet("B")
CLASSIC = load_layout("classic").sheet(None)


def verdicts_for(sheet, crossed, doubtful=None):
    """Every box empty or crossed as given; ``doubtful``: box id -> lean."""
    doubtful = doubtful or {}
    out = {}
    for box in sheet.boxes:
        if box.id in doubtful:
            out[box.id] = BoxVerdict(box.id, "uncertain", 0.3, "doubtful mark",
                                     lean=doubtful[box.id])
        elif box.id in crossed:
            out[box.id] = BoxVerdict(box.id, "crossed", 0.99, "")
        else:
            out[box.id] = BoxVerdict(box.id, "empty", 0.99, "")
    return out


def states(verdicts):
    return {b: v.state for b, v in verdicts.items()}


def test_faint_chain_end_whose_partner_is_crossed_counts_as_crossed():
    a, b = KETTINGEN_B.chains[0]
    verdicts, settled = settle(KETTINGEN_B, verdicts_for(KETTINGEN_B, {a}, {b: "crossed"}))
    assert verdicts[b].state == "crossed"
    assert [(s.box_id, s.state) for s in settled] == [(b, "crossed")]
    assert "chain" in settled[0].reason and a in settled[0].reason
    marked = [x for x, v in verdicts.items() if v.state == "crossed"]
    assert score_sheet(KETTINGEN_B, marked).status([]) == "ok"


def test_chain_end_leaning_empty_stays_doubtful():
    # The rules say crossed, the reader says empty: a person decides.
    a, b = KETTINGEN_B.chains[0]
    before = verdicts_for(KETTINGEN_B, {a}, {b: "empty"})
    verdicts, settled = settle(KETTINGEN_B, before)
    assert settled == [] and states(verdicts) == states(before)


def test_toss_up_without_lean_stays_doubtful():
    a, b = KETTINGEN_B.chains[0]
    verdicts, settled = settle(KETTINGEN_B, verdicts_for(KETTINGEN_B, {a}, {b: ""}))
    assert settled == [] and verdicts[b].state == "uncertain"


def test_lock_box_without_its_last_number_is_empty():
    verdicts, settled = settle(CLASSIC, verdicts_for(CLASSIC, {"red-2", "red-3"},
                                                     {"red-lock": "empty"}))
    assert verdicts["red-lock"].state == "empty"
    assert [s.box_id for s in settled] == ["red-lock"]


def test_lock_box_after_a_crossed_last_number_stays_doubtful():
    # Crossed or forgotten: both are legal, so the rules cannot tell.
    row = ["red-2", "red-3", "red-4", "red-5", "red-6", "red-12"]
    verdicts, settled = settle(CLASSIC, verdicts_for(CLASSIC, set(row), {"red-lock": "empty"}))
    assert settled == [] and verdicts["red-lock"].state == "uncertain"


def test_last_number_without_five_crosses_before_it_is_empty():
    verdicts, settled = settle(CLASSIC, verdicts_for(CLASSIC, {"red-2", "red-3"},
                                                     {"red-12": "empty"}))
    assert verdicts["red-12"].state == "empty" and [s.box_id for s in settled] == ["red-12"]
    assert "5 crosses before it" in settled[0].reason
    verdicts, settled = settle(CLASSIC, verdicts_for(CLASSIC, {"red-2", "red-3"},
                                                     {"red-12": "crossed"}))
    assert settled == [] and verdicts["red-12"].state == "uncertain"


def test_a_third_lock_is_ruled_out():
    locked = {f"{row}-{n}" for row in ("red", "yellow") for n in (2, 3, 4, 5, 6, 7, 12)}
    locked |= {"red-lock", "yellow-lock"}
    green = {f"green-{n}" for n in (12, 11, 10, 9, 8)}
    verdicts, settled = settle(CLASSIC, verdicts_for(CLASSIC, locked | green,
                                                     {"green-2": "empty"}))
    assert verdicts["green-2"].state == "empty"
    assert "at most 2" in settled[0].reason


def test_nothing_is_settled_on_a_sheet_that_breaks_a_rule_anyway():
    (a, b), (c, d) = KETTINGEN_B.chains[:2]
    # c is crossed without its partner d, whatever b turns out to be.
    verdicts, settled = settle(KETTINGEN_B, verdicts_for(KETTINGEN_B, {a, c}, {b: "crossed"}))
    assert settled == [] and verdicts[b].state == "uncertain"


def test_too_many_doubtful_boxes_are_left_to_a_person():
    a, b = KETTINGEN_B.chains[0]
    free = [x.id for x in KETTINGEN_B.boxes if x.kind == "number"
            and x.id not in {p for chain in KETTINGEN_B.chains for p in chain}]
    doubtful = {b: "crossed"} | {x: "empty" for x in free[:MAX_DOUBTFUL]}
    verdicts, settled = settle(KETTINGEN_B, verdicts_for(KETTINGEN_B, {a}, doubtful))
    assert settled == [] and verdicts[b].state == "uncertain"


def test_settled_boxes_are_reported_in_the_json_and_the_table():
    from qwixx_scan.pipeline import SheetResult
    from qwixx_scan.report import sheet_table

    a, b = KETTINGEN_B.chains[0]
    verdicts, settled = settle(KETTINGEN_B, verdicts_for(KETTINGEN_B, {a}, {b: "crossed"}))
    marked = [x for x, v in verdicts.items() if v.state == "crossed"]
    result = SheetResult(sheet=KETTINGEN_B, verdicts=verdicts,
                         score=score_sheet(KETTINGEN_B, marked), uncertain=[], settled=settled)
    out = result.to_json()
    assert out["status"] == "ok" and b in out["marked"] and out["uncertain"] == []
    assert out["settled"] == [{"box": b, "state": "crossed", "reason": settled[0].reason,
                               "by": "rules"}]
    assert f"settled: {b} taken as crossed" in sheet_table("anna.jpg", result)


def test_a_rule_error_that_a_doubtful_box_may_undo_makes_review_not_invalid():
    from qwixx_scan.settle import doubt_aware, legal_reading_exists

    a, b = KETTINGEN_B.chains[0]
    # b leans empty, so it is not settled; crossed, the sheet would be legal.
    verdicts, _ = settle(KETTINGEN_B, verdicts_for(KETTINGEN_B, {a}, {b: "empty"}))
    assert legal_reading_exists(KETTINGEN_B, verdicts)
    score = doubt_aware(score_sheet(KETTINGEN_B, [a]), KETTINGEN_B, verdicts)
    assert score.status([b]) == "review"
    assert [v.severity for v in score.violations] == ["warning"]
    assert b in score.violations[0].message
    # A rule broken whatever the doubtful box is: still invalid.
    (c, d) = KETTINGEN_B.chains[1]
    verdicts, _ = settle(KETTINGEN_B, verdicts_for(KETTINGEN_B, {a, c}, {b: "empty"}))
    assert not legal_reading_exists(KETTINGEN_B, verdicts)
    score = doubt_aware(score_sheet(KETTINGEN_B, [a, c]), KETTINGEN_B, verdicts)
    assert score.status([b]) == "invalid"


def test_a_sheet_with_many_doubtful_boxes_is_advised_to_be_photographed_again():
    from qwixx_scan.pipeline import SheetResult
    from qwixx_scan.report import MANY_DOUBTS, sheet_table

    free = [x.id for x in KETTINGEN_B.boxes if x.kind == "number"]

    def table(n_doubtful):
        doubtful = {x: "empty" for x in free[:n_doubtful]}
        verdicts = verdicts_for(KETTINGEN_B, set(), doubtful)
        return sheet_table("bent.jpg", SheetResult(
            sheet=KETTINGEN_B, verdicts=verdicts, score=score_sheet(KETTINGEN_B, []),
            uncertain=list(doubtful)))

    assert "tip:" not in table(MANY_DOUBTS - 1)
    assert f"tip: {MANY_DOUBTS} boxes are doubtful: a new photo" in table(MANY_DOUBTS)


def test_a_box_taken_like_the_players_crosses_is_doubtful_again_where_it_breaks_a_rule():
    from dataclasses import replace

    from qwixx_scan.settle import keep_rule_abiding

    (a, b), (c, d) = KETTINGEN_B.chains[:2]
    verdicts = verdicts_for(KETTINGEN_B, {b, c, d})
    for box in (b, c):  # both taken as crossed by the player's marks
        verdicts[box] = replace(verdicts[box], settled="like the player's crosses")
    kept, _ = keep_rule_abiding(KETTINGEN_B, verdicts)
    # b crossed without its chain partner a breaks the chain rule; c with d does not
    assert kept[b].state == "uncertain" and kept[b].lean == "crossed" and not kept[b].settled
    assert kept[c].state == "crossed" and kept[c].settled
    assert score_sheet(KETTINGEN_B,
                       [x for x, v in kept.items() if v.state == "crossed"]).errors == ()


def test_a_rule_error_on_a_sheet_read_too_poorly_to_judge_makes_review_not_invalid():
    from qwixx_scan.settle import MAX_ENUMERATED, doubt_aware

    (a, b), (c, d) = KETTINGEN_B.chains[:2]
    # a crossed without b breaks the chain rule; c and d are not near it
    free = [x.id for x in KETTINGEN_B.boxes
            if x.id not in {a, b, c, d} and not x.id.endswith("lock")
            and not x.id.startswith("penalty")]
    for n, status in ((MAX_ENUMERATED, "invalid"), (MAX_ENUMERATED + 1, "review")):
        doubtful = {x: "empty" for x in free[-n:]}
        verdicts = verdicts_for(KETTINGEN_B, {a}, doubtful)
        score = doubt_aware(score_sheet(KETTINGEN_B, [a]), KETTINGEN_B, verdicts)
        assert score.status(list(doubtful)) == status, n


def test_a_sheets_one_doubtful_box_comes_with_the_total_if_it_is_crossed():
    from qwixx_scan.pipeline import SheetResult
    from qwixx_scan.report import sheet_table

    chained = {p for chain in KETTINGEN_B.chains for p in chain}
    red = [x.id for x in KETTINGEN_B.boxes if x.row == "red" and x.kind == "number"
           and x.id not in chained]
    marked = red[:2]

    def table(doubtful_box):
        verdicts = verdicts_for(KETTINGEN_B, set(marked), {doubtful_box: "empty"})
        return sheet_table("anna.jpg", SheetResult(
            sheet=KETTINGEN_B, verdicts=verdicts, score=score_sheet(KETTINGEN_B, marked),
            uncertain=[doubtful_box]))

    # two red crosses (3 points) and a third one doubtful: 6 if it is crossed
    assert score_sheet(KETTINGEN_B, marked).total == 3
    assert f"{red[2]}: cannot tell whether it is crossed" in table(red[2])
    assert "not counted; if it is, the total is 6" in table(red[2])
    # the lock with two crosses in its row: a cross there would break a rule
    assert "red-lock: cannot tell whether it is crossed" in table("red-lock")
    assert "crossed, it would break a rule" in table("red-lock")


def test_a_rule_warning_names_the_doubtful_boxes_of_its_own_rows():
    from qwixx_scan.settle import MAX_ENUMERATED, doubt_aware

    (a, b), _ = KETTINGEN_B.chains[:2]
    rows = {a.rsplit("-", 1)[0], b.rsplit("-", 1)[0]}
    # a crossed without its partner b; many doubtful boxes, most in other rows
    free = [x.id for x in KETTINGEN_B.boxes if x.id not in {a, b} and x.kind == "number"]
    own = [x for x in free if x.rsplit("-", 1)[0] in rows][:3]
    others = [x for x in free if x.rsplit("-", 1)[0] not in rows][:MAX_ENUMERATED]
    doubtful = {x: "empty" for x in own + others}
    verdicts = verdicts_for(KETTINGEN_B, {a}, doubtful)
    score = doubt_aware(score_sheet(KETTINGEN_B, [a]), KETTINGEN_B, verdicts)
    (warning,) = [v for v in score.violations if a in v.boxes]
    named = warning.message.split("read otherwise: ")[1].rstrip(")").split(", ")
    assert set(named) == set(own) and len(own) == 3


def test_the_empty_boxes_of_a_sheet_with_many_doubts_are_listed_on_one_line():
    from qwixx_scan.pipeline import SheetResult
    from qwixx_scan.verdict import DOUBTFUL_SHEET
    from qwixx_scan.report import sheet_table

    numbers = [x.id for x in CLASSIC.boxes if x.kind == "number"]
    verdicts = verdicts_for(CLASSIC, set(), {x: "empty" for x in numbers[:2]})
    lost = numbers[2:5]
    for box in lost:
        verdicts[box] = BoxVerdict(box, "uncertain", 0.3, DOUBTFUL_SHEET, lean="empty")
    table = sheet_table("dark.jpg", SheetResult(
        sheet=CLASSIC, verdicts=verdicts, score=score_sheet(CLASSIC, []),
        uncertain=numbers[:5]))
    assert f"look at: {numbers[0]}: cannot tell whether it is crossed (doubtful mark)" in table
    assert (f"look at: 3 more boxes ({', '.join(lost)}): cannot tell whether they are crossed "
            f"({DOUBTFUL_SHEET}); not counted") in table
    assert f"look at: {lost[0]}:" not in table
