"""Settle doubtful boxes that the rules leave no choice for.

A finished sheet follows the rules: the two ends of a chain are crossed
together, a lock box goes with its row's last number, the last number needs
five crosses before it, and a sheet shows at most two locks. When the
reader is unsure about a box, but every reading of the doubtful boxes that
keeps the sheet legal gives that box the same state, *and* the reader
already leaned that way, the box takes that state. Typical case: a faint
pencil tick in a chain box whose partner is clearly crossed.

Both must agree, the rules and the reader's own lean, because a player can
break a rule: a sheet that is really illegal with its doubtful box empty is
turned legal only when the reader also saw something like a cross there.
Nothing is settled on a sheet that no reading makes legal, and the settled
boxes are reported (``settled`` in the JSON, a note in the table).

Pure: no images; works on the reader's verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product
from typing import Any

from qwixx_print.layout import Sheet
from qwixx_print.rules import SheetScore, Violation, score_sheet

#: A sheet with more doubtful boxes than this was read poorly: its confident
#: verdicts are not trusted enough to reason from (on a benchmark photo with
#: six doubtful boxes, one of them would have been settled wrongly from a
#: misread last number).
MAX_DOUBTFUL = 2
#: Up to this many doubtful boxes, every reading of them is tried to tell
#: whether the sheet can be legal at all (:func:`legal_reading_exists`); a
#: sheet with more is not shown to break a rule (:func:`doubt_aware`).
MAX_ENUMERATED = 8


@dataclass(frozen=True)
class Settled:
    """A doubtful box settled: its new state and why. ``by``: "rules" (a
    rule left no choice, see :func:`settle`) or "marks" (it looks like the
    player's own crosses on the sheet, see :mod:`qwixx_scan.own_marks`)."""

    box_id: str
    state: str  # "crossed" | "empty"
    reason: str
    by: str = "rules"

    def to_json(self) -> dict[str, Any]:
        return {"box": self.box_id, "state": self.state, "reason": self.reason, "by": self.by}


def settle(sheet: Sheet, verdicts: dict[str, Any]) -> tuple[dict[str, Any], list[Settled]]:
    """The verdicts with every doubtful box the rules settle, and what was settled.

    ``verdicts``: box id -> :class:`qwixx_scan.verdict.BoxVerdict` (``state``,
    ``lean``). Settled boxes get the settled state and keep the rest.
    """
    crossed, doubtful = _crossed_and_doubtful(sheet, verdicts)
    if not doubtful or len(doubtful) > MAX_DOUBTFUL:
        return verdicts, []
    legal = [choice for choice in product((False, True), repeat=len(doubtful))
             if not _errors(sheet, crossed, doubtful, choice)]
    if not legal:
        return verdicts, []
    out = dict(verdicts)
    settled = []
    for i, box_id in enumerate(doubtful):
        values = {choice[i] for choice in legal}
        if len(values) != 1:
            continue
        state = "crossed" if values.pop() else "empty"
        if verdicts[box_id].lean != state:
            continue
        reason = _reason(sheet, crossed, doubtful, legal[0], i)
        out[box_id] = replace(verdicts[box_id], state=state,
                              note=f"settled by the rules: {reason}")
        settled.append(Settled(box_id, state, reason))
    return out, settled


def keep_rule_abiding(sheet: Sheet, verdicts: dict[str, Any]
                      ) -> tuple[dict[str, Any], list[Settled]]:
    """``verdicts`` with every box settled by the player's own marks (``settled``
    set by the reader) that a broken rule names doubtful again, and the boxes
    that stay settled that way. The likeness of a mark is not enough where
    the rules object (a printed chain ring off its place looked like a
    player's red cross); such a box leans crossed."""
    taken = {b for b, v in verdicts.items() if getattr(v, "settled", "")}
    if not taken:
        return verdicts, []
    crossed = {b for b, v in verdicts.items() if v.state == "crossed"}
    named = {b for e in score_sheet(sheet, crossed).errors for b in e.boxes} & taken
    out = {b: replace(v, state="uncertain", settled="", lean="crossed",
                      note="looks like the player's crosses, but crossed it breaks a rule")
           if b in named else v for b, v in verdicts.items()}
    return out, [Settled(b, out[b].state, out[b].settled, by="marks")
                 for b in verdicts if b in taken - named]


def legal_reading_exists(sheet: Sheet, verdicts: dict[str, Any]) -> bool:
    """Whether some reading of the doubtful boxes (crossed or empty each)
    makes the sheet legal. Then a rule error of the sheet as read is only a
    consequence of how the doubt is resolved, not a sign that the sheet
    breaks a rule. False with more than MAX_ENUMERATED doubtful boxes."""
    return _legal_reading(sheet, *_crossed_and_doubtful(sheet, verdicts))


def _legal_reading(sheet: Sheet, crossed: set[str], doubtful: list[str]) -> bool:
    if len(doubtful) > MAX_ENUMERATED:
        return False
    return any(not _errors(sheet, crossed, doubtful, choice)
               for choice in product((False, True), repeat=len(doubtful)))


def doubt_aware(score: SheetScore, sheet: Sheet, verdicts: dict[str, Any]) -> SheetScore:
    """``score`` (of the crossed boxes in ``verdicts``) with its rule errors
    turned into warnings when some reading of the doubtful boxes makes the
    sheet legal: the sheet needs a look (``review``), it is not shown to
    break a rule (``invalid``). So are they on a sheet with more than
    MAX_ENUMERATED doubtful boxes: read that poorly (a steep, bent sheet
    whose fit is a row off at one end), a rule error says more about the
    reading than about the player."""
    if not score.errors:
        return score
    crossed, doubtful = _crossed_and_doubtful(sheet, verdicts)
    if len(doubtful) <= MAX_ENUMERATED and not _legal_reading(sheet, crossed, doubtful):
        return score
    violations = tuple(
        replace(v, severity="warning", message=f"{v.message} (unless a doubtful box is read "
                f"otherwise: {', '.join(_doubtful_near(v, doubtful))})")
        if v.severity == "error" else v
        for v in score.violations)
    return replace(score, violations=violations)


def _doubtful_near(violation: Violation, doubtful: list[str]) -> list[str]:
    """The doubtful boxes in the rows of the boxes a rule error names, or all
    of them where none is: on a sheet read poorly a list of forty says less."""
    rows = {box.rsplit("-", 1)[0] for box in violation.boxes}
    return [b for b in doubtful if b.rsplit("-", 1)[0] in rows] or doubtful


def _crossed_and_doubtful(sheet: Sheet, verdicts: dict[str, Any]) -> tuple[set[str], list[str]]:
    crossed = {b for b, v in verdicts.items() if v.state == "crossed"}
    doubtful = [b.id for b in sheet.boxes
                if b.id in verdicts and verdicts[b.id].state == "uncertain"]
    return crossed, doubtful


def _errors(sheet: Sheet, crossed: set[str], doubtful: list[str],
            choice: tuple[bool, ...]) -> tuple:
    marked = crossed | {b for b, on in zip(doubtful, choice) if on}
    return score_sheet(sheet, marked).errors


def _reason(sheet: Sheet, crossed: set[str], doubtful: list[str],
            legal: tuple[bool, ...], i: int) -> str:
    """Why box ``doubtful[i]`` cannot take the other state: the rule error
    that flipping it in a legal reading causes."""
    flipped = list(legal)
    flipped[i] = not flipped[i]
    errors = _errors(sheet, crossed, doubtful, tuple(flipped))
    named = [e for e in errors if doubtful[i] in e.boxes] or list(errors)
    return f"the reader leaned that way, and otherwise {named[0].message}"
