"""``qwixx scan --game`` on generated photos of a whole table (photogen)."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from qwixx_print.cli import cli

photogen = pytest.importorskip("photogen.scene")

#: (seed, sheets): small table photos on which every sheet is found.
TABLES = [(22, 4), (24, 3)]


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tables")
    out = []
    for seed, count in TABLES:
        generated = photogen.generate_photo(seed, size="small", table=True, sheets=count)
        path = folder / f"table{seed}.jpg"
        path.write_bytes(generated.jpeg)
        out.append((str(path), generated.truth["sheets"]))
    return out


def scan(*args):
    return CliRunner().invoke(cli, ["scan", "--game", *args])


def assert_ranking_follows_totals(players):
    totals = [p["total"] for p in players]
    assert totals == sorted(totals, reverse=True)
    for p in players:
        assert p["rank"] == 1 + sum(t > p["total"] for t in totals)


@pytest.mark.parametrize("which", [0, 1])
def test_one_table_photo_is_one_game(tables, which):
    path, truth = tables[which]
    result = scan(path, "--json")
    assert result.exit_code in (0, 1), result.output
    out = json.loads(result.stdout)
    [photo] = out["photos"]
    assert photo["file"] == path and photo["error"] is None
    players = out["game"]["players"]
    assert sorted((p["layout"], p["letter"]) for p in players) == \
        sorted((s["layout"], s["letter"]) for s in truth)
    assert all(p["file"] == path for p in players)
    assert_ranking_follows_totals(players)
    # each player is one sheet of the photo, with its total and status
    for p in players:
        sheet = photo["sheets"][p["sheet"]]
        assert (sheet["letter"], sheet["score"]["total"], sheet["status"]) == \
            (p["letter"], p["total"], p["status"])
    assert isinstance(out["game"]["warnings"], list)


def test_two_photos_make_one_game_and_a_photo_taken_twice_counts_once(tables, tmp_path):
    (first, truth1), (second, truth2) = tables
    again = tmp_path / "again.jpg"
    shutil.copy(first, again)
    result = scan(first, second, str(again), "--json")
    out = json.loads(result.stdout)
    players = out["game"]["players"]
    assert len(out["photos"]) == 3
    assert len(players) == len(truth1) + len(truth2)
    assert_ranking_follows_totals(players)
    from_first = [p for p in players if p["file"] == first]
    assert len(from_first) == len(truth1)
    assert all(d["file"] == str(again) for p in from_first for d in p["duplicates"])
    assert all(len(p["duplicates"]) == 1 for p in from_first)
    assert len(out["game"]["notes"]) == len(truth1)
    # the two photos hold the same variant or not: the warning says so exactly when they differ
    variants = {s["layout"] for s in truth1 + truth2}
    rules = [w["rule"] for w in out["game"]["warnings"]]
    assert ("mixed-variants" in rules) == (len(variants) > 1)


def test_the_scoreboard_table(tables):
    path, truth = tables[0]
    result = scan(path)
    text = result.stdout
    board = text[text.index("GAME:"):]
    assert f"GAME: {len(truth)} players" in board
    lines = board.splitlines()
    head = next(i for i, line in enumerate(lines) if line.split()[:2] == ["rank", "player"])
    rows = [line.split() for line in lines[head + 1:head + 1 + len(truth)]]
    letters = sorted(s["letter"] or s["layout"] for s in truth)
    assert sorted(r[1] for r in rows) == letters
    totals = [int(r[-2]) for r in rows]
    assert totals == sorted(totals, reverse=True)
    expected_code = 0 if all(r[-1] == "ok" for r in rows) and "game warnings" not in board else 1
    assert result.exit_code == expected_code
    assert ("PROVISIONAL" in board) == any(r[-1] != "ok" for r in rows)


def test_an_unreadable_photo_in_a_game_gives_exit_3_and_a_provisional_board(tables, tmp_path):
    path, truth = tables[1]
    bad = tmp_path / "bad.jpg"
    bad.write_text("not a photo")
    result = scan(path, str(bad), "--json")
    assert result.exit_code == 3
    game = json.loads(result.stdout)["game"]
    assert len(game["players"]) == len(truth)
    assert game["provisional"] and len(game["unread"]) == 1
