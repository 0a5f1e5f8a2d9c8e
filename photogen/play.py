"""Plausible finished sheets: which boxes a player crossed.

:func:`play_sheet` invents the marks of one finished sheet the way a game
leaves them: per row crosses from left to right with skipped numbers in
between, a row locked only after at least 5 crosses (the lock box crossed
too, now and then forgotten), Kettingen chains crossed at both ends,
0-4 penalties and at most 2 locked rows. A configurable share of sheets
breaks one rule on purpose so the scanner's rule checks get exercised.

Everything is box ids (INTERFACES.md); nothing here knows about pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from qwixx_print.layout import ROWS, Sheet

#: The deliberate rule breaks :func:`play_sheet` can make, with what they
#: mean, named by the rules engine's rule ids.
RULE_BREAKS: dict[str, str] = {
    "lock-needs-five": "a row's last number crossed with fewer than 5 other crosses",
    "lock-without-last-number": "a lock box crossed while the row's last number is not",
    "chain-incomplete": "Kettingen: one end of a chain crossed and the other not",
    "too-many-locks": "three rows locked on one sheet",
}


@dataclass
class SheetTruth:
    """What a generated sheet really shows.

    ``marked`` is exactly the set of boxes that carry a drawn cross (a
    forgotten lock box is not in it). ``skip_lined`` are skipped numbers
    that get a short horizontal line (not a cross). ``legal`` is False
    when ``broken_rules`` names a rule the sheet breaks on purpose.
    """

    layout: str
    letter: str | None
    marked: list[str]
    skip_lined: list[str] = field(default_factory=list)
    forgotten_locks: list[str] = field(default_factory=list)
    broken_rules: list[str] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not self.broken_rules

    def to_json(self) -> dict[str, Any]:
        return {
            "layout": self.layout,
            "letter": self.letter,
            "marked": list(self.marked),
            "skip_lined": list(self.skip_lined),
            "forgotten_locks": list(self.forgotten_locks),
            "legal": self.legal,
            "broken_rules": list(self.broken_rules),
        }


def play_sheet(sheet: Sheet, rng: np.random.Generator, *, illegal_share: float = 0.0,
               forgot_lock_share: float = 0.06, skip_line_share: float = 0.35) -> SheetTruth:
    """Invent the marks of one finished ``sheet``.

    ``illegal_share``: probability that the sheet breaks one rule of
    :data:`RULE_BREAKS` on purpose. ``forgot_lock_share``: probability per
    locked row that the lock box is left empty (legal, a warning).
    ``skip_line_share``: probability that this player draws skip lines at
    all; such a player lines most skipped numbers.
    """
    crossed: set[str] = set()
    locked_rows = int(rng.choice([0, 1, 2], p=[0.45, 0.37, 0.18]))
    lock_rows = set(rng.choice(ROWS, size=locked_rows, replace=False).tolist())
    forgotten: list[str] = []
    for row in ROWS:
        ids = [b.id for b in sheet.row_boxes(row)]
        if row in lock_rows:
            k = int(rng.integers(5, 10))
            crossed.update(_pick_left_to_right(ids[:-1], k, rng))
            crossed.add(ids[-1])
            if rng.random() < forgot_lock_share:
                forgotten.append(f"{row}-lock")
            else:
                crossed.add(f"{row}-lock")
        else:
            k = int(rng.choice(np.arange(0, 10), p=_UNLOCKED_COUNTS))
            crossed.update(_pick_left_to_right(ids[:-1], k, rng))
    for a, b in sheet.chains:
        if (a in crossed) != (b in crossed):
            crossed.update((a, b))  # the partner is crossed at once, always legal
    crossed.update(_penalties(sheet, rng))

    if rng.random() < illegal_share:
        _break_a_rule(sheet, crossed, forgotten, rng)
    broken = broken_rules(sheet, crossed)

    skip_lined = _skip_lines(sheet, crossed, rng, skip_line_share)
    return SheetTruth(layout=sheet.layout, letter=sheet.letter, marked=_ordered(sheet, crossed),
                      skip_lined=skip_lined, forgotten_locks=forgotten, broken_rules=broken)


# How many numbers an unlocked row holds at the end of a game (0..9).
_UNLOCKED_COUNTS = np.array([4, 6, 9, 12, 14, 15, 14, 12, 8, 6], dtype=float)
_UNLOCKED_COUNTS /= _UNLOCKED_COUNTS.sum()


def _pick_left_to_right(ids: list[str], k: int, rng: np.random.Generator) -> list[str]:
    """``k`` of ``ids``; early boxes are a little likelier (players start left)."""
    k = min(k, len(ids))
    weights = np.linspace(1.4, 0.8, len(ids))
    chosen = rng.choice(len(ids), size=k, replace=False, p=weights / weights.sum())
    return [ids[i] for i in sorted(chosen)]


def _penalties(sheet: Sheet, rng: np.random.Generator) -> list[str]:
    n = int(rng.choice(5, p=[0.32, 0.30, 0.20, 0.11, 0.07]))
    ids = list(sheet.penalty_ids)
    if rng.random() < 0.85:
        return ids[:n]  # most players cross penalties from the left
    return [ids[i] for i in sorted(rng.choice(len(ids), size=n, replace=False))]


def broken_rules(sheet: Sheet, crossed: set[str] | list[str]) -> list[str]:
    """The :data:`RULE_BREAKS` that a set of crossed box ids shows (RULES.md errors)."""
    crossed = set(crossed)
    broken = []
    locked = 0
    for row in ROWS:
        ids = [b.id for b in sheet.row_boxes(row)]
        last_crossed = ids[-1] in crossed
        others = sum(box in crossed for box in ids[:-1])
        locked += last_crossed
        if last_crossed and others < 5 and "lock-needs-five" not in broken:
            broken.append("lock-needs-five")
        if (f"{row}-lock" in crossed and not last_crossed
                and "lock-without-last-number" not in broken):
            broken.append("lock-without-last-number")
    if any((a in crossed) != (b in crossed) for a, b in sheet.chains):
        broken.append("chain-incomplete")
    if locked > 2:
        broken.append("too-many-locks")
    return broken


def _break_a_rule(sheet: Sheet, crossed: set[str], forgotten: list[str],
                  rng: np.random.Generator) -> str:
    options = ["lock-needs-five", "lock-without-last-number", "too-many-locks"]
    if sheet.chains:
        options.append("chain-incomplete")
    rule = str(rng.choice(options))
    chain_ends = {box for pair in sheet.chains for box in pair}
    if rule == "chain-incomplete":
        a, b = sheet.chains[int(rng.integers(len(sheet.chains)))]
        crossed.add(a)
        crossed.discard(b)
    elif rule == "lock-needs-five":
        row = str(rng.choice(ROWS))
        ids = [b.id for b in sheet.row_boxes(row)]
        for box in ids[:-1]:
            crossed.discard(box)
        for a, b in sheet.chains:  # keep the chains whole: drop their other ends too
            if a in ids or b in ids:
                crossed.difference_update((a, b))
        keep = [box for box in ids[:-1] if box not in chain_ends]
        crossed.update(_pick_left_to_right(keep, int(rng.integers(1, 4)), rng))
        crossed.update((ids[-1], f"{row}-lock"))
        _drop(forgotten, f"{row}-lock")
    elif rule == "lock-without-last-number":
        row = str(rng.choice(ROWS))
        crossed.discard(sheet.last_number(row))
        crossed.add(f"{row}-lock")
        _drop(forgotten, f"{row}-lock")
    else:  # too-many-locks: every row that is not locked yet gets locked legally
        unlocked = [r for r in ROWS if sheet.last_number(r) not in crossed]
        for row in rng.permutation(unlocked)[: 3 - (4 - len(unlocked))]:
            ids = [b.id for b in sheet.row_boxes(str(row))]
            while sum(box in crossed for box in ids[:-1]) < 5:
                crossed.add(str(rng.choice([b for b in ids[:-1] if b not in crossed])))
            crossed.update((ids[-1], f"{row}-lock"))
    return rule


def _drop(items: list[str], item: str) -> None:
    if item in items:
        items.remove(item)


def _skip_lines(sheet: Sheet, crossed: set[str], rng: np.random.Generator,
                share: float) -> list[str]:
    """Skipped numbers (left of the row's last cross, not crossed) that get a line."""
    if rng.random() >= share:
        return []
    per_box = rng.uniform(0.6, 1.0)
    out = []
    for row in ROWS:
        ids = [b.id for b in sheet.row_boxes(row)]
        last = max((i for i, box in enumerate(ids) if box in crossed), default=-1)
        out += [box for box in ids[:last] if box not in crossed and rng.random() < per_box]
    return out


def _ordered(sheet: Sheet, ids: set[str]) -> list[str]:
    """Box ids in the sheet's own order (rows left to right, then penalties)."""
    return [b.id for b in sheet.boxes if b.id in ids]
