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
        lines.append(_line(row.row, _crosses(row.crosses), row.points,
                           "  locked" if row.locked else ""))
    if score.variant == "treden":
        lines.append(_line("steps", _crosses(score.step_count), score.steps))
    lines.append(_line("penalties", str(score.penalty_count), score.penalties))
    lines.append(_line("total", "", score.total))
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


def _line(label: str, count: str, points: int, extra: str = "") -> str:
    unit = "point" if abs(points) == 1 else "points"
    return f"  {label:<10}{count:<12}{points:>4} {unit}{extra}"


def _crosses(n: int) -> str:
    return f"{n} cross" if n == 1 else f"{n} crosses"

