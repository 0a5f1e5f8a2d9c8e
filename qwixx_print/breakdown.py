"""A scored sheet as readable text (``qwixx score``, ``qwixx scan``)."""

from __future__ import annotations

from collections.abc import Sequence

from .rules import ChainRule, SheetScore

_STATUS_TEXT = {
    "ok": "ok: no rule broken",
    "review": "review: a person should look at the sheet (warnings or uncertain boxes)",
    "invalid": "invalid: this cannot be a legal finished sheet (rule errors)",
}


def score_breakdown(score: SheetScore, uncertain: Sequence[str] = ()) -> str:
    """Rows, steps, penalties, total, violations and status, one item a line."""
    name = score.layout + (f", sheet {score.letter}" if score.letter else "")
    lines = [name]
    for row in score.rows:
        lock = "  locked" if row.locked else ""
        lines.append(f"  {row.row:<10}{_crosses(row.crosses):<12}{row.points:>4} {_points(row.points)}{lock}")
    if score.variant == "treden":
        lines.append(f"  {'steps':<10}{_crosses(score.step_count):<12}{score.steps:>4} {_points(score.steps)}")
    lines.append(f"  {'penalties':<10}{score.penalty_count:<12}{score.penalties:>4} {_points(score.penalties)}")
    lines.append(f"  {'total':<10}{'':<12}{score.total:>4} {_points(score.total)}")
    if score.variant == "kettingen":
        rule = ("an auto-crossed chain box is not your last cross"
                if score.chain_rule is ChainRule.FREE
                else "an auto-crossed chain box becomes your last cross")
        lines.append(f"  house rule: {rule} (no effect on a finished sheet's score)")
    if uncertain:
        lines.append(f"uncertain boxes (scored as not crossed): {', '.join(uncertain)}")
    if score.violations:
        lines.append("violations:")
        for v in score.violations:
            boxes = f" [{', '.join(v.boxes)}]" if v.boxes else ""
            lines.append(f"  {v.severity:<8}{v.rule}{boxes}: {v.message}")
    lines.append(f"status: {_STATUS_TEXT[score.status(uncertain)]}")
    return "\n".join(lines)


def _crosses(n: int) -> str:
    return f"{n} cross" if n == 1 else f"{n} crosses"


def _points(n: int) -> str:
    return "point" if abs(n) == 1 else "points"
