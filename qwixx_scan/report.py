"""What a scan shows a person: the table, the JSON, the overlay pictures.

Pure formatting: functions take :class:`~qwixx_scan.pipeline.PhotoResult`
objects and return text or images; writing files is the CLI's job.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from qwixx_print.layout import ROWS
from qwixx_print.rules import score_sheet

from .game import Scoreboard
from .pipeline import PhotoResult, SheetResult
from .rectify import RECT_PX_PER_MM
from .verdict import DOUBTFUL_SHEET

# Overlay colours, BGR.
CROSSED = (40, 160, 0)
EMPTY = (150, 150, 150)
UNCERTAIN = (0, 140, 255)
RULE_PROBLEM = (200, 0, 200)
STATUS_COLOURS = {"ok": (40, 160, 0), "review": (0, 140, 255), "invalid": (0, 0, 220)}
#: A sheet with this many doubtful boxes or more was often photographed
#: badly (bent paper, a steep angle, a dark or shaken picture): a new photo
#: may help more than checking each box by hand, and the table says so.
MANY_DOUBTS = 5


def results_json(results: Sequence[PhotoResult]) -> str:
    """The INTERFACES.md scan JSON: an array, one object per photo, in order."""
    return json.dumps([r.to_json() for r in results], indent=2)


def game_json(results: Sequence[PhotoResult], board: Scoreboard) -> str:
    """``qwixx scan --game --json``: the per-photo array and the game."""
    return json.dumps({"photos": [r.to_json() for r in results], "game": board.to_json()},
                      indent=2)


def game_table(board: Scoreboard) -> str:
    """The scoreboard: players ranked by total (ties share a rank, shown
    "2="), each sheet's status, then what makes the ranking provisional,
    the game warnings and the notes."""
    players = board.players
    variants = sorted({p.reading.score.variant for p in players})
    count = f"{len(players)} player{'s' * (len(players) != 1)}"
    out = [f"GAME: {count}" + (f" ({', '.join(variants)})" if variants else "")]
    if not players:
        out.append("  no sheet was read")
    labels = [p.label for p in players]
    # The photo column appears where it helps tell players apart or find a
    # player's own photo; when it appears, every player gets theirs.
    helps = any(p.reading.alone or labels.count(p.label) > 1 or p.letter is None
                for p in players)
    photos = [p.reading.source if helps else "" for p in players]
    photo_width = max((len(x) for x in photos), default=0)
    if players:
        head = f"  {'rank':>5}  {'player':<8}"
        if photo_width:
            head += f"  {'photo':<{photo_width}}"
        out.append(head + f"  {'total':>5}  status")
    for player, photo in zip(players, photos, strict=True):
        rank = f"{player.rank}{'=' if player.tied else ''}"
        line = f"  {rank:>5}  {player.label:<8}"
        if photo_width:
            line += f"  {photo:<{photo_width}}"
        out.append(line + f"  {player.total:>5}  {player.status}")
    if any(p.tied for p in players):
        out.append("  (2= : a tie, the same rank)")
    if board.provisional:
        out.append("ranking PROVISIONAL: " + _why_provisional(board))
    if board.warnings:
        out.append("game warnings:")
        out += [f"  {w.rule}: {w.message}" for w in board.warnings]
    if board.notes:
        out.append("notes:")
        out += [f"  {note}" for note in board.notes]
    return "\n".join(out) + "\n"


def _why_provisional(board: Scoreboard) -> str:
    reasons = [f"{p.label} ({p.reading.source}) is {p.status}" for p in board.players
               if p.status != "ok"]
    if board.unread:
        n = len(board.unread)
        reasons.append(f"{n} photo{'s' * (n > 1)} or sheet{'s' * (n > 1)} could not be read")
    return ("; ".join(reasons) + ". Check those sheets (details above), photograph them again "
            "or correct a reading with `qwixx score`.")


def sheet_name(sheet: SheetResult) -> str:
    letter = f" {sheet.sheet.letter}" if sheet.sheet.letter else ""
    page = f" (page {sheet.page})" if sheet.page is not None else ""
    return f"{sheet.sheet.layout}{letter}{page}"


def results_table(results: Sequence[PhotoResult], *,
                  places: dict[tuple[str, int], str] | None = None) -> str:
    """The readable report: per photo its sheets (rows, points, status) or its error.

    ``places``: (file, sheet index) -> where that sheet lies in its photo
    ("top left"), shown after its name so the scoreboard can point at it."""
    blocks = [photo_table(r, places=places or {}) for r in results]
    return "\n\n".join(blocks) + "\n"


def photo_table(result: PhotoResult, *, places: dict[tuple[str, int], str] | None = None) -> str:
    lines = []
    if result.error:
        return f"{result.file}: UNREADABLE\n  {result.error}"
    for index, sheet in enumerate(result.sheets):
        place = (places or {}).get((result.file, index))
        lines.append(sheet_table(result.file + (f" ({place})" if place else ""), sheet))
    for problem in result.problems:
        lines.append(f"{result.file}: a sheet was NOT read\n  {problem}")
    return "\n\n".join(lines)


def sheet_table(file: str, result: SheetResult) -> str:
    score = result.score
    out = [f"{file}: {sheet_name(result)}   status: {result.status.upper()}"]
    out.append(f"  {'':<10}{'crosses':>8}{'points':>8}")
    for row in score.rows:
        lock = "  locked" if row.locked else ""
        out.append(f"  {row.row:<10}{row.crosses:>8}{row.points:>8}{lock}")
    if result.sheet.variant == "treden":
        out.append(f"  {'steps':<10}{score.step_count:>8}{score.steps:>8}")
    out.append(f"  {'penalties':<10}{score.penalty_count:>8}{score.penalties:>8}")
    out.append(f"  {'total':<10}{'':>8}{score.total:>8}")
    for line in needs_a_look(result):
        out.append(f"  look at: {line}")
    if len(result.uncertain) >= MANY_DOUBTS:
        out.append(f"  tip: {len(result.uncertain)} boxes are doubtful: a new photo of the sheet "
                   "lying flat, taken from straight above in even light, often reads them")
    for settled in result.settled:
        out.append(f"  settled: {settled.box_id} taken as {settled.state}: {settled.reason}")
    return "\n".join(out)


def _if_crossed(result: SheetResult, box_id: str) -> str:
    """What the total would be with ``box_id``, the sheet's one doubtful box,
    crossed: a person who looks at the sheet then need not count again."""
    other = score_sheet(result.sheet, set(result.marked) | {box_id})
    if other.errors:
        return "; crossed, it would break a rule"
    return f"; if it is, the total is {other.total}"


def needs_a_look(result: SheetResult) -> list[str]:
    """One line per thing a person should check on this sheet."""
    lines = []
    notes = {getattr(result.verdicts.get(b), "note", "") for b in result.uncertain}
    if len(result.uncertain) == len(result.sheet.boxes) and len(notes) == 1:
        # the whole sheet doubted for one reason: one line, not one per box
        lines.append(f"every box: cannot tell whether it is crossed ({notes.pop()}); "
                     "not counted")
    else:
        # the empty boxes of a sheet with many doubts: one line for all of them
        lost = [b for b in result.uncertain
                if getattr(result.verdicts.get(b), "note", "") == DOUBTFUL_SHEET]
        for box_id in result.uncertain:
            if box_id in lost:
                continue
            note = getattr(result.verdicts.get(box_id), "note", "")
            lines.append(f"{box_id}: cannot tell whether it is crossed"
                         + (f" ({note})" if note else "") + "; not counted"
                         + (_if_crossed(result, box_id) if len(result.uncertain) == 1 else ""))
        if lost:
            lines.append(f"{len(lost)} more boxes ({', '.join(lost)}): cannot tell whether they "
                         f"are crossed ({DOUBTFUL_SHEET}); not counted")
    for v in result.score.violations:
        lines.append(f"{v.severity}: {v.message}")
    return lines


def overlay_stems(files: Sequence[str]) -> list[str]:
    """A file-name stem per photo for its overlays: the photo's name, made unique
    in the batch (photos of the same name in different folders get a number)."""
    stems = [re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(f).stem) or "photo" for f in files]
    out, seen = [], set()
    for stem in stems:
        name, k = stem, 2
        while name in seen:
            name, k = f"{stem}_{k}", k + 1
        seen.add(name)
        out.append(name)
    return out


def overlay_name(stem: str, sheet: SheetResult, taken: set[str]) -> str:
    """File name of a sheet's overlay: photo stem + letter (+ page), unique in ``taken``."""
    parts = [stem]
    if sheet.page is not None:
        parts.append(f"p{sheet.page}")
    parts.append(sheet.sheet.letter or sheet.sheet.layout)
    base = "-".join(parts)
    name, k = f"{base}.png", 2
    while name in taken:
        name, k = f"{base}-{k}.png", k + 1
    taken.add(name)
    return name


#: The letter an overlay writes in a settled box, and its legend.
SETTLED_LETTERS = {"rules": "R", "marks": "M"}
SETTLED_LEGEND = {"rules": "settled by the rules", "marks": "like the player's crosses"}


def overlay_image(result: SheetResult) -> np.ndarray:
    """The rectified sheet with every box outlined by its verdict, and the score.

    Outline colours: green crossed, grey empty, orange uncertain, magenta a
    box named by a rule problem; an orange R marks a doubtful box the rules
    settled (an M one that looks like the player's own crosses). Needs
    ``result.rectified`` (BGR).
    """
    if result.rectified is None:
        raise ValueError("the sheet result holds no rectified image; scan with keep_images=True")
    ppm = RECT_PX_PER_MM
    sheet_img = result.rectified.copy()
    problem_boxes = {b for v in result.score.violations for b in v.boxes}
    settled = {s.box_id: SETTLED_LETTERS[s.by] for s in result.settled}
    for box in result.sheet.boxes:
        verdict = result.verdicts.get(box.id)
        state = getattr(verdict, "state", "empty")
        colour, thick = {"crossed": (CROSSED, 3), "uncertain": (UNCERTAIN, 4)}.get(
            state, (EMPTY, 1))
        r = box.rect
        # outlined where the reader found the box's print (curled paper moves it)
        cx, cy = getattr(verdict, "found_at_mm", None) or r.centre
        p0 = (round((cx - r.w / 2) * ppm), round((cy - r.h / 2) * ppm))
        p1 = (round((cx + r.w / 2) * ppm), round((cy + r.h / 2) * ppm))
        cv2.rectangle(sheet_img, p0, p1, colour, thick, cv2.LINE_AA)
        if box.id in problem_boxes:
            pad = 4
            cv2.rectangle(sheet_img, (p0[0] - pad, p0[1] - pad), (p1[0] + pad, p1[1] + pad),
                          RULE_PROBLEM, 2, cv2.LINE_AA)
        if state == "uncertain":
            cv2.putText(sheet_img, "?", (p1[0] - 14, p0[1] + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                        UNCERTAIN, 2, cv2.LINE_AA)
        elif box.id in settled:
            cv2.putText(sheet_img, settled[box.id], (p1[0] - 16, p0[1] + 18),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.55, UNCERTAIN, 2, cv2.LINE_AA)
    return np.vstack([sheet_img, _score_strip(result, sheet_img.shape[1])])


def _score_strip(result: SheetResult, width: int) -> np.ndarray:
    score = result.score
    strip = np.full((96, width, 3), 255, np.uint8)
    status = result.status
    parts = [f"{row}: {score.row(row).points}" for row in ROWS
             if any(r.row == row for r in score.rows)]
    if result.sheet.variant == "treden":
        parts.append(f"steps: {score.steps}")
    parts.append(f"penalties: {score.penalties}")
    text = "   ".join(parts)
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(strip, f"{sheet_name(result)}   total {score.total}   {status.upper()}", (12, 32),
                font, 0.9, STATUS_COLOURS.get(status, (0, 0, 0)), 2, cv2.LINE_AA)
    cv2.putText(strip, text, (12, 60), font, 0.6, (30, 30, 30), 1, cv2.LINE_AA)
    x = 12
    for label, colour in (("crossed", CROSSED), ("empty", EMPTY), ("uncertain", UNCERTAIN),
                          ("rule problem", RULE_PROBLEM)):
        cv2.rectangle(strip, (x, 72), (x + 16, 88), colour, 3)
        cv2.putText(strip, label, (x + 22, 86), font, 0.5, (30, 30, 30), 1, cv2.LINE_AA)
        x += 40 + 9 * len(label)
    for by in sorted({s.by for s in result.settled}, reverse=True):
        label = SETTLED_LEGEND[by]
        cv2.putText(strip, SETTLED_LETTERS[by], (x, 87), font, 0.55, UNCERTAIN, 2, cv2.LINE_AA)
        cv2.putText(strip, label, (x + 20, 86), font, 0.5, (30, 30, 30), 1, cv2.LINE_AA)
        x += 40 + 9 * len(label)
    return strip
