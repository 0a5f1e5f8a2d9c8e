"""The game scoreboard (qwixx_scan.game): ranking, ties, a sheet photographed
twice, same letter twice, and each game warning both ways."""

from __future__ import annotations

from qwixx_print.layout import load_layout
from qwixx_print.rules import score_sheet
from qwixx_scan.game import ScannedSheet, places_in_picture, rank_game

TREDEN = load_layout("treden")
KETTINGEN = load_layout("kettingen")
CLASSIC = load_layout("classic").sheet()


def row_ids(row, *items):
    return tuple(f"{row}-{i}" for i in items)


LOCK_RED = row_ids("red", 2, 3, 4, 5, 6, 12, "lock")            # 7 crosses: 28
LOCK_BLUE = row_ids("blue", 12, 11, 10, 9, 8, 2, "lock")        # 7 crosses: 28
FOUR_PENALTIES = tuple(f"penalty-{k}" for k in range(1, 5))     # -20


def reading(sheet, marked=(), *, file="p.jpg", index=0, uncertain=(), alone=True, where=""):
    score = score_sheet(sheet, marked)
    return ScannedSheet(file=file, sheet=index, score=score,
                        status=score.status(uncertain), uncertain=frozenset(uncertain),
                        alone=alone, where=where, layout_sheet=sheet)


def finished_game(*extra):
    """Three treden sheets, red and blue locked: a game that ended cleanly."""
    return [reading(TREDEN.sheet("A"), LOCK_RED, file="a.jpg"),
            reading(TREDEN.sheet("B"), LOCK_BLUE + ("red-2",), file="b.jpg"),
            reading(TREDEN.sheet("C"), ("green-12", "green-9"), file="c.jpg"), *extra]


def test_players_ranked_by_total_highest_first():
    board = rank_game(finished_game())
    totals = [p.total for p in board.players]
    assert totals == sorted(totals, reverse=True)
    assert [p.letter for p in board.players] == ["B", "A", "C"]
    assert [p.rank for p in board.players] == [1, 2, 3]
    assert not any(p.tied for p in board.players)
    assert board.warnings == () and not board.provisional


def test_equal_totals_share_a_rank_and_the_next_rank_is_skipped():
    sheets = [reading(TREDEN.sheet("A"), ("red-2", "red-3"), file="a.jpg"),
              reading(TREDEN.sheet("B"), ("yellow-2", "yellow-3"), file="b.jpg"),
              reading(TREDEN.sheet("C"), LOCK_RED, file="c.jpg"),
              reading(TREDEN.sheet("D"), (), file="d.jpg")]
    # make the two-cross sheets equal in total: neither may touch a step box
    assert sheets[0].score.total == sheets[1].score.total
    board = rank_game(sheets)
    assert [(p.letter, p.rank, p.tied) for p in board.players] == [
        ("C", 1, False), ("A", 2, True), ("B", 2, True), ("D", 4, False)]


def test_the_same_sheet_in_two_photos_counts_once_with_a_note():
    again = reading(TREDEN.sheet("A"), LOCK_RED, file="a-again.jpg")
    board = rank_game(finished_game(again))
    assert [p.letter for p in board.players] == ["B", "A", "C"]
    a = board.players[1]
    assert [d.file for d in a.duplicates] == ["a-again.jpg"]
    assert len(board.notes) == 1 and "a.jpg" in board.notes[0] and "a-again.jpg" in board.notes[0]
    assert "same-letter-twice" not in [w.rule for w in board.warnings]


def test_a_second_photo_with_an_uncertain_box_is_still_the_same_sheet_and_the_sure_one_counts():
    doubtful = reading(TREDEN.sheet("A"), LOCK_RED[1:], file="first.jpg", uncertain=("red-2",))
    sure = reading(TREDEN.sheet("A"), LOCK_RED, file="second.jpg")
    board = rank_game([doubtful, sure])
    [player] = board.players
    assert player.reading.file == "second.jpg" and player.status == "ok"
    assert [d.file for d in player.duplicates] == ["first.jpg"]


def test_two_photos_each_doubtful_somewhere_else_are_read_together():
    # yellow-2 doubtful in the first photo, green-12 in the second: each decided
    # by the other, so together every box is told and the sheet is ok.
    sheet = TREDEN.sheet("A")
    marks = LOCK_RED + LOCK_BLUE + ("yellow-2", "green-12")
    first = reading(sheet, [m for m in marks if m != "yellow-2"], file="first.jpg",
                    uncertain=("yellow-2",))
    second = reading(sheet, [m for m in marks if m != "green-12"], file="second.jpg",
                     uncertain=("green-12",))
    assert first.status == second.status == "review"
    board = rank_game([first, second])
    [player] = board.players
    assert player.status == "ok" and not board.provisional
    assert player.total == score_sheet(sheet, marks).total
    assert sorted(player.reading.score.marked) == sorted(marks)
    assert [d.file for d in player.duplicates] == ["second.jpg"]
    [note] = board.notes
    assert "first.jpg" in note and "second.jpg" in note and "together" in note


def test_a_box_doubtful_in_every_photo_keeps_the_sheet_in_review():
    sheet = TREDEN.sheet("A")
    first = reading(sheet, LOCK_RED, file="first.jpg", uncertain=("yellow-2", "blue-3"))
    second = reading(sheet, LOCK_RED, file="second.jpg", uncertain=("yellow-2",))
    board = rank_game([first, second])
    [player] = board.players
    assert player.reading.file == "second.jpg" and player.status == "review"
    assert board.provisional and "as read in second.jpg" in board.notes[0]


def test_two_different_sheets_with_one_letter_are_both_counted_and_reported():
    other = reading(TREDEN.sheet("A"), ("yellow-2",), file="d.jpg")
    board = rank_game(finished_game(other))
    assert len(board.players) == 4 and board.notes == ()
    [warning] = [w for w in board.warnings if w.rule == "same-letter-twice"]
    named = [board.players[i].reading.file for i in warning.sheets]
    assert sorted(named) == ["a.jpg", "d.jpg"]
    assert "a.jpg" in warning.message and "d.jpg" in warning.message


def test_two_sheets_in_one_picture_are_two_sheets_even_with_equal_marks():
    left = reading(CLASSIC, LOCK_RED, file="table.jpg", index=0, alone=False, where="left")
    right = reading(CLASSIC, LOCK_RED, file="table.jpg", index=1, alone=False, where="right")
    board = rank_game([left, right, reading(CLASSIC, LOCK_BLUE, file="x.jpg")])
    assert len(board.players) == 3 and board.notes == ()


def test_review_or_invalid_sheets_stay_on_the_board_and_make_it_provisional():
    broken = reading(TREDEN.sheet("D"), ("yellow-12", "yellow-lock"), file="d.jpg")  # lock needs 5
    doubtful = reading(TREDEN.sheet("E"), ("red-2",), file="e.jpg", uncertain=("red-3",))
    board = rank_game(finished_game(broken, doubtful))
    statuses = {p.letter: p.status for p in board.players}
    assert statuses["D"] == "invalid" and statuses["E"] == "review"
    assert board.provisional
    assert not rank_game(finished_game()).provisional
    assert rank_game(finished_game(), unread=["x.jpg: no sheet found"]).provisional


def rules_of(sheets):
    return [w.rule for w in rank_game(sheets).warnings]


def test_mixed_variants_both_ways():
    assert "mixed-variants" not in rules_of(finished_game())
    assert "mixed-variants" in rules_of(finished_game(reading(KETTINGEN.sheet("D"), file="k.jpg")))


def test_too_many_locked_colours_both_ways():
    yellow = row_ids("yellow", 2, 3, 4, 5, 6, 12, "lock")
    green = row_ids("green", 12, 11, 10, 9, 8, 2, "lock")
    three = finished_game(reading(TREDEN.sheet("D"), yellow, file="d.jpg"))
    assert "too-many-locked-colours" not in rules_of(three)
    four = three + [reading(TREDEN.sheet("E"), green, file="e.jpg")]
    assert "too-many-locked-colours" in rules_of(four)


def test_game_not_ended_both_ways():
    one_lock = [reading(TREDEN.sheet("A"), LOCK_RED, file="a.jpg"),
                reading(TREDEN.sheet("B"), ("blue-12",), file="b.jpg")]
    assert "game-not-ended" in rules_of(one_lock)
    assert "game-not-ended" not in rules_of(finished_game())
    fourth_penalty = [one_lock[0], reading(TREDEN.sheet("B"), FOUR_PENALTIES, file="b.jpg")]
    assert "game-not-ended" not in rules_of(fourth_penalty)


def test_too_many_players_both_ways():
    five = [reading(CLASSIC, LOCK_RED + row_ids("yellow", k), file=f"{k}.jpg")
            for k in range(2, 7)] + [reading(CLASSIC, LOCK_BLUE, file="b.jpg")]
    assert len(rank_game(five[:5]).players) == 5
    assert "too-many-players" not in rules_of(five[:5])
    assert "too-many-players" in rules_of(five)


def test_players_json_has_the_documented_fields():
    board = rank_game(finished_game())
    out = board.to_json()
    assert set(out) >= {"players", "warnings"}
    for player in out["players"]:
        assert set(player) >= {"letter", "layout", "file", "total", "rank", "status"}
    assert [p["rank"] for p in out["players"]] == [1, 2, 3]


def test_places_in_picture_name_where_each_sheet_lies():
    def box(cx, cy):
        return [[cx - 10, cy - 5], [cx + 10, cy - 5], [cx + 10, cy + 5], [cx - 10, cy + 5]]

    grid = places_in_picture([box(0, 0), box(100, 0), box(0, 100), box(100, 100)])
    assert grid == ["top left", "top right", "bottom left", "bottom right"]
    assert places_in_picture([box(0, 0), box(50, 2), box(100, 0)]) == ["left", "middle", "right"]
    assert places_in_picture([box(0, 0), box(0, 0)]) == ["middle 1", "middle 2"]
