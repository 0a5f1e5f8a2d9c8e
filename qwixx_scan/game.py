"""A whole game: every player's scanned sheet on one ranked scoreboard.

Pure: no files, no images, no click. :func:`scoreboard` takes the
:class:`~qwixx_scan.pipeline.PhotoResult` objects of one ``qwixx scan
--game`` run (every sheet found in them belongs to the game) and returns a
:class:`Scoreboard`: the players ranked by total, the game warnings of
RULES.md (:func:`qwixx_print.rules.check_game`), notes about sheets
photographed twice, and what could not be read.

Decisions, in one place:

* **The same sheet twice.** Two sheets of the same layout and letter, in
  two different pictures, whose readings agree on every box both decided
  (they may differ only where one of them is uncertain), are one player's
  sheet photographed twice: counted once, with a note. The most certain
  reading is kept (status ok before review before invalid, then fewer
  uncertain boxes, then the first given); but where every box one reading
  left uncertain another one decided (a doubtful sheet photographed
  again), the readings are put together, each box as the photo that could
  tell read it, and scored anew. Two sheets in one picture are always two
  sheets, even with equal marks.
* **Ranking.** By total, highest first; equal totals share a rank and the
  next rank is skipped ("1, 2, 2, 4"). The rules name no tie-breaker.
* **Provisional.** The ranking is provisional while any player's sheet is
  not ``ok`` or any sheet in the photos could not be read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from qwixx_print.rules import SheetScore, Violation, check_game, score_sheet

if TYPE_CHECKING:
    from qwixx_print.layout import Sheet

    from .pipeline import PhotoResult

#: Better first: the reading kept when one sheet was photographed twice.
_STATUS_ORDER = {"ok": 0, "review": 1, "invalid": 2}


@dataclass(frozen=True)
class ScannedSheet:
    """One sheet as one picture showed it.

    ``file``: the photo as given; ``sheet``: the sheet's index in that
    photo's ``sheets`` list; ``page``: the PDF page, else None.
    ``alone``: the only sheet read in its picture (the file then names the
    player). ``where``: its place among the picture's sheets ("top left"),
    empty when alone. ``status`` as in INTERFACES.md. ``layout_sheet``: the
    sheet's geometry, to score readings put together (see the module
    docstring); without it they are not.
    """

    file: str
    sheet: int
    score: SheetScore
    status: str
    uncertain: frozenset[str] = frozenset()
    page: int | None = None
    alone: bool = True
    where: str = ""
    layout_sheet: Sheet | None = None

    @property
    def picture(self) -> tuple[str, int | None]:
        return (self.file, self.page)

    @property
    def identity(self) -> tuple[str, str | None]:
        return (self.score.layout, self.score.letter)

    @property
    def source(self) -> str:
        """The photo (and page, and place in it) this reading came from."""
        name = self.file if self.page is None else f"{self.file} page {self.page}"
        return name if self.alone or not self.where else f"{name} ({self.where})"

    def same_sheet_as(self, other: ScannedSheet) -> bool:
        """Same layout and letter, and the readings differ only in boxes that
        one of them left uncertain (see the module docstring)."""
        if self.identity != other.identity:
            return False
        differ = set(self.score.marked) ^ set(other.score.marked)
        return differ <= (self.uncertain | other.uncertain)


@dataclass(frozen=True)
class Player:
    """One player of the game: a sheet, its rank, and its other photos."""

    reading: ScannedSheet
    rank: int
    tied: bool
    #: Other readings of the same sheet (photographed again), not counted.
    duplicates: tuple[ScannedSheet, ...] = ()

    @property
    def letter(self) -> str | None:
        return self.reading.score.letter

    @property
    def layout(self) -> str:
        return self.reading.score.layout

    @property
    def total(self) -> int:
        return self.reading.score.total

    @property
    def status(self) -> str:
        return self.reading.status

    @property
    def label(self) -> str:
        """The letter, or the layout name where sheets have no letter (classic)."""
        return self.letter or self.layout

    def to_json(self) -> dict[str, Any]:
        r = self.reading
        out: dict[str, Any] = {"letter": self.letter, "layout": self.layout, "file": r.file,
                               "total": self.total, "rank": self.rank, "status": self.status,
                               "tied": self.tied, "sheet": r.sheet}
        if r.page is not None:
            out["page"] = r.page
        if r.where:
            out["where"] = r.where
        out["duplicates"] = [{"file": d.file, "sheet": d.sheet,
                              **({"page": d.page} if d.page is not None else {})}
                             for d in self.duplicates]
        return out


@dataclass(frozen=True)
class Scoreboard:
    """The game: players best first, warnings, notes, unread sheets.

    ``warnings``: game-level rule warnings; each one's ``sheets`` are
    positions in ``players``. ``unread``: one message per photo or sheet
    that could not be read (the game may miss a player).
    """

    players: tuple[Player, ...]
    warnings: tuple[Violation, ...]
    notes: tuple[str, ...] = ()
    unread: tuple[str, ...] = ()

    @property
    def provisional(self) -> bool:
        return bool(self.unread) or any(p.status != "ok" for p in self.players)

    def to_json(self) -> dict[str, Any]:
        return {"players": [p.to_json() for p in self.players],
                "warnings": [w.to_json() for w in self.warnings],
                "notes": list(self.notes), "provisional": self.provisional,
                "unread": list(self.unread)}


def scoreboard(results: Sequence[PhotoResult]) -> Scoreboard:
    """Every sheet read in ``results`` as one game (see the module docstring)."""
    readings: list[ScannedSheet] = []
    unread: list[str] = []
    for result in results:
        if result.error:
            unread.append(f"{result.file}: {result.error}")
        unread += [f"{result.file}: {p}" for p in result.problems]
        by_picture: dict[int | None, list[int]] = {}
        for i, s in enumerate(result.sheets):
            by_picture.setdefault(s.page, []).append(i)
        for indices in by_picture.values():
            places = places_in_picture([result.sheets[i].corners_px for i in indices])
            alone = len(indices) == 1 and not result.problems
            for i, where in zip(indices, places, strict=True):
                s = result.sheets[i]
                readings.append(ScannedSheet(
                    file=result.file, sheet=i, score=s.score, status=s.status,
                    uncertain=frozenset(s.uncertain), page=s.page, alone=alone,
                    where="" if alone else where, layout_sheet=s.sheet))
    return rank_game(readings, unread=unread)


def rank_game(readings: Sequence[ScannedSheet], *, unread: Sequence[str] = ()) -> Scoreboard:
    """Rank the sheets of one game; a sheet photographed twice counts once."""
    clusters = _same_sheet_clusters(readings)
    kept = []
    notes = []
    for cluster in clusters:
        best = min(cluster, key=lambda r: (_STATUS_ORDER.get(r.status, 3), len(r.uncertain)))
        others = tuple(r for r in cluster if r is not best)
        together = _put_together(best, others)
        kept.append((together or best, others))
        if others:
            name = " ".join(x for x in (best.score.layout, best.score.letter) if x)
            where = ", ".join(r.source for r in cluster)
            how = ("read from them together (each box where it could be told)" if together
                   else f"as read in {best.source}")
            notes.append(f"{name}: the same sheet (same letter and marks) in {where}; "
                         f"counted once, {how}")
    kept.sort(key=lambda k: (-k[0].score.total, k[0].score.letter or "", k[0].file, k[0].sheet))
    totals = [best.score.total for best, _ in kept]
    players = tuple(
        Player(reading=best, rank=1 + sum(t > best.score.total for t in totals),
               tied=totals.count(best.score.total) > 1, duplicates=others)
        for best, others in kept)
    warnings = check_game([p.reading.score for p in players],
                          names=[p.reading.source for p in players])
    return Scoreboard(players=players, warnings=tuple(warnings), notes=tuple(notes),
                      unread=tuple(unread))


def _put_together(best: ScannedSheet, others: Sequence[ScannedSheet]) -> ScannedSheet | None:
    """One reading from several of one sheet, where together they decide
    every box that ``best`` left uncertain and no box stays uncertain in all
    of them; else None. They agree on every box two of them decided (see
    :meth:`ScannedSheet.same_sheet_as`), so a box is crossed where any of
    them read it crossed."""
    if not best.uncertain or not others or best.layout_sheet is None:
        return None
    if frozenset.intersection(best.uncertain, *(r.uncertain for r in others)):
        return None
    marked = set(best.score.marked).union(*(r.score.marked for r in others))
    score = score_sheet(best.layout_sheet, marked)
    return replace(best, score=score, status=score.status(), uncertain=frozenset())


def _same_sheet_clusters(readings: Sequence[ScannedSheet]) -> list[list[ScannedSheet]]:
    """Group readings of one physical sheet: each cluster holds at most one
    reading per picture, and all its readings agree with each other."""
    clusters: list[list[ScannedSheet]] = []
    for reading in readings:
        for cluster in clusters:
            if all(r.picture != reading.picture and r.same_sheet_as(reading) for r in cluster):
                cluster.append(reading)
                break
        else:
            clusters.append([reading])
    return clusters


def places_in_picture(corners: Sequence[Sequence[Sequence[float]]]) -> list[str]:
    """Words for where each sheet lies among the others in one picture.

    ``corners``: per sheet its trim corners in px (x right, y down). Each
    sheet's centre is placed in thirds of the span of all centres: "top
    left", "middle", "bottom right"... Sheets that would get the same words
    get a number too ("left 1", "left 2", in reading order).
    """
    if not corners:
        return []
    centres = np.array([np.mean(np.asarray(c, float), axis=0) if len(c) else (0.0, 0.0)
                        for c in corners])
    low, span = centres.min(axis=0), np.ptp(centres, axis=0)
    # a spread smaller than a fifth of the other one is no spread: sheets in a row
    span = np.where(span > 0.2 * span.max(), span, 0.0)
    words = []
    for cx, cy in centres:
        parts = []
        for value, lo, extent, names in ((cy, low[1], span[1], ("top", "middle", "bottom")),
                                         (cx, low[0], span[0], ("left", "middle", "right"))):
            if extent > 0:
                parts.append(names[min(2, int(3 * (value - lo) / extent))])
        text = " ".join(p for p in parts if p != "middle") or "middle"
        words.append(text)
    for text in set(words):
        same = [i for i, w in enumerate(words) if w == text]
        if len(same) > 1:
            same.sort(key=lambda i: (centres[i][1], centres[i][0]))
            for n, i in enumerate(same, start=1):
                words[i] = f"{text} {n}"
    return words
