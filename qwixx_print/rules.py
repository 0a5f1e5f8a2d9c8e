"""The rules engine: score a finished sheet and say which rules it breaks.

Pure: no files, no images, no click. It takes a :class:`~qwixx_print.layout.Sheet`
and the ids of the crossed boxes (``red-5``, ``blue-lock``, ``penalty-2``;
see INTERFACES.md) and returns a :class:`SheetScore`. ``qwixx score`` and
``qwixx scan`` use this same engine. The rules are those of RULES.md.

Scoring, per RULES.md:

* a row scores ``points_for(n)`` for its ``n`` crosses, the lock included.
  A row whose last number is crossed counts its lock even when the lock box
  is not crossed (the player forgot it; warning ``last-number-without-lock``);
* Treden: the crossed step boxes of the *whole sheet* are counted once more,
  together, and looked up in the same table (the fifth score, ``steps``);
  they also count in their own rows;
* each penalty is -5.

The Kettingen house rule (:class:`ChainRule`) matters only when play is
followed move by move (:class:`SheetInPlay`). On the built-in layouts every
chain joins two boxes of the same column, so a set of crosses reachable
under one setting is reachable under the other (cross the boxes column by
column, left to right); the setting therefore never changes a finished
sheet's score or its violations.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .errors import MarksError
from .layout import ROWS, Sheet

PENALTY_POINTS = -5
#: Crosses a row needs *before* its last number may be crossed.
CROSSES_BEFORE_LOCK = 5
#: A sheet has four penalty boxes; the game ends at the fourth.
MAX_PENALTIES = 4
#: A second closed row ends the game, so one sheet shows at most two locks.
MAX_LOCKS_PER_SHEET = 2
#: Distinct colours that can be closed in one game: two closings end it, a
#: third may close in the same action 1.
MAX_LOCKED_COLOURS = 3
#: Five different sheets (A-E) per pad; the publisher says 2-5 players.
MAX_PLAYERS = 5


class ChainRule(Enum):
    """Kettingen house rule: does the auto-crossed chain box become the last
    cross of its row, so that every box left of it is lost?

    The rule sheets leave this to the players. Default: :attr:`FREE`.
    """

    #: Default. The auto-crossed box falls outside the normal rules (the
    #: rule sheet's words), so it does not move your place in its row: boxes
    #: left of it stay open if they are right of your last normal cross.
    FREE = "free"
    #: The auto-crossed box becomes your last cross in its row when it lies
    #: right of your last cross there; everything left of it is lost.
    LAST = "last"


DEFAULT_CHAIN_RULE = ChainRule.FREE


def points_for(crosses: int) -> int:
    """Points for ``crosses`` crosses in a row (or Treden steps): n(n+1)/2."""
    if crosses < 0:
        raise ValueError(f"a cross count cannot be negative: {crosses}")
    return crosses * (crosses + 1) // 2


@dataclass(frozen=True)
class Violation:
    """A rule a sheet (or a game) breaks.

    ``rule`` is a stable kebab-case id, ``severity`` is ``"error"`` (cannot
    be a legal finished sheet) or ``"warning"`` (possible, worth a look).
    ``sheets``: for game checks, the 0-based positions of the sheets
    involved in the sequence given to :func:`check_game`; empty otherwise.
    """

    rule: str
    severity: str
    boxes: tuple[str, ...]
    message: str
    sheets: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "severity": self.severity,
                               "boxes": list(self.boxes), "message": self.message}
        if self.sheets:
            out["sheets"] = list(self.sheets)
        return out


@dataclass(frozen=True)
class RowScore:
    """One colour row: ``crosses`` includes the lock (see module docstring)."""

    row: str
    crosses: int
    points: int
    #: The row's last number is crossed (the row was closed by this player).
    locked: bool


@dataclass(frozen=True)
class SheetScore:
    """The score and violations of one finished sheet."""

    layout: str
    variant: str
    letter: str | None
    #: Crossed box ids in sheet order (rows, their locks, then penalties).
    marked: tuple[str, ...]
    rows: tuple[RowScore, ...]
    #: Crossed step boxes over the whole sheet (Treden; 0 otherwise).
    step_count: int
    #: The Treden fifth score: ``points_for(step_count)``; 0 on other layouts.
    steps: int
    penalty_count: int
    #: Penalty points, zero or negative.
    penalties: int
    total: int
    violations: tuple[Violation, ...]
    chain_rule: ChainRule = DEFAULT_CHAIN_RULE

    def row(self, name: str) -> RowScore:
        return next(r for r in self.rows if r.row == name)

    @property
    def locked_rows(self) -> tuple[str, ...]:
        return tuple(r.row for r in self.rows if r.locked)

    @property
    def errors(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.severity == "error")

    @property
    def warnings(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.severity == "warning")

    def status(self, uncertain: Iterable[str] = ()) -> str:
        """``invalid`` if a rule error, else ``review`` if a warning or an
        uncertain box, else ``ok`` (INTERFACES.md)."""
        if self.errors:
            return "invalid"
        if self.warnings or any(True for _ in uncertain):
            return "review"
        return "ok"

    def score_json(self) -> dict[str, int]:
        """The INTERFACES.md ``score`` object (points)."""
        out = {r.row: r.points for r in self.rows}
        out.update(steps=self.steps, penalties=self.penalties, total=self.total)
        return out

    def violations_json(self) -> list[dict[str, Any]]:
        return [v.to_json() for v in self.violations]

    def to_json(self, uncertain: Sequence[str] = ()) -> dict[str, Any]:
        """The INTERFACES.md sheet object; ``uncertain`` as the reader gives it."""
        return {
            "layout": self.layout,
            "letter": self.letter,
            "marked": list(self.marked),
            "uncertain": list(uncertain),
            "score": self.score_json(),
            "violations": self.violations_json(),
            "status": self.status(uncertain),
        }


def check_box_ids(sheet: Sheet, box_ids: Iterable[str]) -> None:
    """Raise MarksError for the first id that is not a box of ``sheet``."""
    for box_id in box_ids:
        if not isinstance(box_id, str) or not sheet.has_box(box_id):
            raise MarksError(unknown_box_message(sheet, box_id))


def unknown_box_message(sheet: Sheet, box_id: Any) -> str:
    """Why ``box_id`` is not a box of ``sheet``, and which boxes exist."""
    where = sheet.layout + (f" sheet {sheet.letter}" if sheet.letter else "")
    if isinstance(box_id, str):
        row, _, rest = box_id.partition("-")
        if row in ROWS:
            numbers = sheet.row(row).numbers
            return (f"box '{box_id}' does not exist on {where}: {row} holds "
                    f"{row}-{numbers[0]} .. {row}-{numbers[-1]} and {row}-lock")
        if row == "penalty":
            return (f"box '{box_id}' does not exist on {where}: the penalty boxes are "
                    f"penalty-1 .. penalty-{len(sheet.penalty_ids)}")
    return (f"box {box_id!r} does not exist on {where}: box ids are like red-5, "
            "green-12, blue-lock or penalty-1 (rows red, yellow, green, blue)")


def score_sheet(sheet: Sheet, marked: Iterable[str], *,
                chain_rule: ChainRule = DEFAULT_CHAIN_RULE,
                penalty_count: int | None = None) -> SheetScore:
    """Score a finished ``sheet`` whose crossed boxes are ``marked``.

    ``penalty_count`` is for hand-typed sheets that give the penalties as a
    number: it replaces the count of marked penalty boxes, so a count above
    the sheet's four can be reported (rule ``too-many-penalties``) rather
    than lost. ``chain_rule`` is recorded; it does not change a finished
    sheet's score (module docstring). Raises MarksError for an unknown box id.
    """
    wanted = set(marked)
    check_box_ids(sheet, sorted(wanted, key=str))
    order = [b.id for b in sheet.boxes if b.id in wanted]
    violations: list[Violation] = []

    rows: list[RowScore] = []
    for style in sheet.rows:
        rows.append(_score_row(sheet, style.name, wanted, violations))

    # A lock box crossed without its last number is its own error, not a lock.
    locked = [r for r in rows if r.locked]
    if len(locked) > MAX_LOCKS_PER_SHEET:
        names = ", ".join(r.row for r in locked)
        violations.append(Violation(
            "too-many-locks", "error", tuple(sheet.last_number(r.row) for r in locked),
            f"{len(locked)} rows are locked ({names}); the game ends as soon as a second "
            f"row is closed, so one sheet shows at most {MAX_LOCKS_PER_SHEET}"))

    penalty_boxes = tuple(p for p in sheet.penalty_ids if p in wanted)
    if penalty_count is None:
        penalty_count = len(penalty_boxes)
    elif penalty_count < len(penalty_boxes):
        raise ValueError(f"penalty_count {penalty_count} is below the {len(penalty_boxes)} "
                         "marked penalty boxes")
    if penalty_count > MAX_PENALTIES:
        violations.append(Violation(
            "too-many-penalties", "error", penalty_boxes,
            f"{penalty_count} penalties, but a sheet has only {MAX_PENALTIES} penalty boxes "
            "and the game ends at the fourth; recount them"))

    for a, b in sheet.chains:
        if (a in wanted) != (b in wanted):
            crossed, missing = (a, b) if a in wanted else (b, a)
            violations.append(Violation(
                "chain-incomplete", "error", (a, b),
                f"chain {a} - {b}: {crossed} is crossed but {missing} is not; crossing one "
                "end of a chain always crosses the other at once"))

    step_count = sum(1 for s in sheet.steps if s in wanted)
    steps = points_for(step_count) if sheet.variant == "treden" else 0
    penalties = PENALTY_POINTS * penalty_count
    total = sum(r.points for r in rows) + steps + penalties
    return SheetScore(
        layout=sheet.layout, variant=sheet.variant, letter=sheet.letter, marked=tuple(order),
        rows=tuple(rows), step_count=step_count, steps=steps, penalty_count=penalty_count,
        penalties=penalties, total=total, violations=tuple(violations), chain_rule=chain_rule)


def _score_row(sheet: Sheet, row: str, wanted: set[str],
               violations: list[Violation]) -> RowScore:
    last = sheet.last_number(row)
    lock = f"{row}-lock"
    numbers = [b.id for b in sheet.row_boxes(row) if b.id in wanted]
    last_crossed = last in wanted
    lock_crossed = lock in wanted
    crosses = len(numbers) + (1 if last_crossed or lock_crossed else 0)
    label = f"{row} {sheet.box(last).number}"
    if last_crossed:
        others = len(numbers) - 1
        if others < CROSSES_BEFORE_LOCK:
            violations.append(Violation(
                "lock-needs-five", "error", (last,),
                f"{label} is crossed with only {others} other cross"
                f"{'' if others == 1 else 'es'} in {row}; the last number needs at least "
                f"{CROSSES_BEFORE_LOCK} crosses before it in the row"))
        if not lock_crossed:
            violations.append(Violation(
                "last-number-without-lock", "warning", (last, lock),
                f"{label} is crossed but {row}'s lock box is not; the lock still counts as a "
                "cross (the player forgot to mark it)"))
    elif lock_crossed:
        violations.append(Violation(
            "lock-without-last-number", "error", (lock,),
            f"{row}'s lock box is crossed but {label} is not; a row locks only by crossing "
            "its last number"))
    return RowScore(row=row, crosses=crosses, points=points_for(crosses), locked=last_crossed)


# ----------------------------------------------------------------- a game


def check_game(scores: Sequence[SheetScore], *,
               names: Sequence[str] | None = None) -> list[Violation]:
    """Warnings about a whole game: ``scores`` holds every player's sheet.

    Rule ids (all warnings, RULES.md): ``same-letter-twice``,
    ``mixed-variants``, ``too-many-locked-colours``, ``game-not-ended``,
    ``too-many-players``. Each violation's ``sheets`` gives the 0-based
    positions in ``scores`` of the sheets involved. ``names``: how messages
    name each sheet (say the photo it came from); default "sheet 1", ...
    """
    if names is not None and len(names) != len(scores):
        raise ValueError(f"names must name each of the {len(scores)} sheets, not {len(names)}")
    found: list[Violation] = []
    everyone = tuple(range(len(scores)))

    variants = sorted({s.variant for s in scores})
    if len(variants) > 1:
        found.append(Violation(
            "mixed-variants", "warning", (), f"the sheets are of different variants "
            f"({', '.join(variants)}); all players use sheets of one pad", everyone))

    by_letter: dict[tuple[str, str], list[int]] = {}
    for i, s in enumerate(scores):
        if s.letter is not None:
            by_letter.setdefault((s.variant, s.letter), []).append(i)
    for (variant, letter), positions in by_letter.items():
        if len(positions) > 1:
            which = (", ".join(names[p] for p in positions) if names is not None
                     else "sheets " + ", ".join(str(p + 1) for p in positions))
            found.append(Violation(
                "same-letter-twice", "warning", (), f"{which} are all {variant} "
                f"{letter}; every player should have a different letter", tuple(positions)))

    colours = [row for row in ROWS if any(row in s.locked_rows for s in scores)]
    if len(colours) > MAX_LOCKED_COLOURS:
        found.append(Violation(
            "too-many-locked-colours", "warning", (), f"{len(colours)} colours are locked "
            f"({', '.join(colours)}); a game closes at most {MAX_LOCKED_COLOURS}",
            tuple(i for i, s in enumerate(scores) if s.locked_rows)))

    if scores and len(colours) < 2 and not any(s.penalty_count >= MAX_PENALTIES for s in scores):
        found.append(Violation(
            "game-not-ended", "warning", (), f"only {len(colours)} colour"
            f"{'' if len(colours) == 1 else 's'} locked and no sheet has {MAX_PENALTIES} "
            "penalties: the game may not have ended, or a sheet is missing", everyone))

    if len(scores) > MAX_PLAYERS:
        found.append(Violation(
            "too-many-players", "warning", (), f"{len(scores)} sheets; a game has at most "
            f"{MAX_PLAYERS} players (five different letters)", everyone))
    return found


# ------------------------------------------------------- play, move by move


class IllegalCrossError(ValueError):
    """A cross the rules do not allow at this point of the game."""


@dataclass
class SheetInPlay:
    """One player's sheet during a game, following the rules cross by cross.

    Used to reason about (and test) which finished sheets are possible. It
    knows only this sheet: rows closed by other players are passed in with
    :meth:`close_row`.
    """

    sheet: Sheet
    chain_rule: ChainRule = DEFAULT_CHAIN_RULE
    marked: set[str] = field(default_factory=set)
    #: Per row, the print-order index of the last cross that counts for the
    #: left-to-right rule (-1: none yet).
    position: dict[str, int] = field(default_factory=dict)
    closed: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        for row in ROWS:
            self.position.setdefault(row, -1)
        self._partner = {a: b for a, b in self.sheet.chains}
        self._partner.update({b: a for a, b in self.sheet.chains})

    @property
    def penalty_count(self) -> int:
        return sum(1 for p in self.sheet.penalty_ids if p in self.marked)

    @property
    def locked_rows(self) -> tuple[str, ...]:
        return tuple(r for r in ROWS if self.sheet.last_number(r) in self.marked)

    def _index(self, box_id: str) -> int:
        box = self.sheet.box(box_id)
        return self.sheet.row(box.row or "").numbers.index(box.number)

    def can_cross(self, box_id: str) -> bool:
        """May this number box be crossed by a throw now (the normal rules)?"""
        box = self.sheet.box(box_id)
        if box.kind != "number" or box_id in self.marked:
            return False
        row = box.row or ""
        if row in self.closed or self._index(box_id) <= self.position[row]:
            return False
        if box_id == self.sheet.last_number(row):
            crosses = sum(1 for b in self.sheet.row_boxes(row) if b.id in self.marked)
            return crosses >= CROSSES_BEFORE_LOCK
        return True

    def cross(self, box_id: str) -> None:
        """Cross a number box by a throw, with its lock or chain partner."""
        if not self.can_cross(box_id):
            raise IllegalCrossError(f"{box_id} cannot be crossed now")
        row = self.sheet.box(box_id).row or ""
        self.marked.add(box_id)
        self.position[row] = self._index(box_id)
        if box_id == self.sheet.last_number(row):
            self.marked.add(f"{row}-lock")
            self.closed.add(row)
        partner = self._partner.get(box_id)
        if partner is not None and partner not in self.marked:
            # Always crossed, even left of the last cross or in a closed row.
            self.marked.add(partner)
            if self.chain_rule is ChainRule.LAST:
                prow = self.sheet.box(partner).row or ""
                self.position[prow] = max(self.position[prow], self._index(partner))

    def close_row(self, row: str) -> None:
        """Another player locked ``row``: nobody crosses there by a throw."""
        self.closed.add(row)

    def cross_penalty(self) -> None:
        """The active player crossed nothing: the next penalty box."""
        free = [p for p in self.sheet.penalty_ids if p not in self.marked]
        if not free:
            raise IllegalCrossError("all penalty boxes are crossed")
        self.marked.add(free[0])

    @property
    def game_over(self) -> bool:
        """The game has ended: a 4th penalty here, or a 2nd closed row."""
        return self.penalty_count >= MAX_PENALTIES or len(self.closed) >= MAX_LOCKS_PER_SHEET
