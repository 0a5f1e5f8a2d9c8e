"""Accuracy, speed and memory of ``qwixx scan`` on generated photos.

    python benchmarks/scan_benchmark.py [--count 300] [--seed 4] [--cache DIR]
                                        [--gen-jobs N] [--size mixed] [--table]
                                        [--photos DIR] [--long-side PX]
                                        [--spoil KIND]

Generates (once; cached in --cache) photos with ``python -m photogen`` (fixed
seed, a quarter of them hard, 8-12 megapixels), scans them one by one in a
child process on one core (cv2.setNumThreads(1)), and prints (``--photos
DIR`` scans a folder of photos with truth files as they are, e.g. a set
made elsewhere):

- box error rate: boxes read crossed that are not, or not crossed that are
  (uncertain boxes are not errors: they go to review; counted apart);
- sheets read exactly (marked == truth, nothing uncertain);
- silent errors: sheets read wrong with status ok (the worst failure);
- correctly read sheets sent to review although the truth would be ok;
- median seconds per photo next to the median time of cv2.imread alone
  on the same photos (interleaved, same load, but in a process of its own
  that does nothing else: in the scanning process imread's time depended
  on what that process held, 0.049-0.059 s against 0.076-0.081 for the
  same photogen photos depending on whether a network session was loaded);
- peak memory of the scanning process (its resident high-water mark:
  numpy and OpenCV buffers included, which tracemalloc would miss).

Targets (issue 4): <= 1 wrong box in 10,000; >= 99.5 % sheets exact; 0
silent errors; <= 5 % of correct sheets to review; median <= 0.25 s per
12 MP photo and <= 2x decode; peak <= 400 MB.

``--long-side PX`` scans copies of the photos shrunk to PX on their long
side and saved again as JPEG (quality 80), as messaging apps send photos
(the truth's pixel positions shrunk with them); made once, next to the
photos' cache folder (or in --cache for --photos).

``--spoil KIND`` scans copies spoilt the way real photos go wrong (glare,
bright, tungsten, motion, smooth, dark, shadow, crease, blocky, noisy: see
spoilt_photos.py), made once next to the photos' cache folder like
``--long-side``'s.

``--table`` (issue 5): photos of a whole table, 2-5 sheets each, 12 MP by
default. Adds: sheets found, photos with every sheet found, median seconds
per photo holding 4 sheets, and the game (``qwixx scan --game``): games
whose scoreboard (letters, totals, ranks) and warnings equal those of the
true sheets.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # photogen lives at the repo root, not installed
DEFAULT_CACHE = REPO / "benchmarks" / ".cache" / "scan-photos"


def ensure_photos(folder: Path, count: int, seed: int, size: str, jobs: int, *,
                  table: bool = False) -> list[Path]:
    """The first ``count`` photos of run ``seed`` in ``folder``, generated if missing."""
    from photogen import GENERATOR_VERSION

    folder.mkdir(parents=True, exist_ok=True)
    stamp = folder / "run.json"
    wanted = {"seed": seed, "size": size, "hard_share": 0.25, "photogen": GENERATOR_VERSION}
    if table:
        wanted["table"] = True
    if stamp.exists():
        held = json.loads(stamp.read_text())
        if held.get("photogen") != GENERATOR_VERSION:
            raise SystemExit(f"{folder} holds photos of an older photogen (version "
                             f"{held.get('photogen', 1)}, now {GENERATOR_VERSION}); delete the "
                             "folder to generate them anew, or scan them as they are with "
                             f"--photos {folder}")
        if held != wanted:
            raise SystemExit(f"{folder} holds photos of another run ({stamp.read_text().strip()}); "
                             "give another --cache folder")
    stamp.write_text(json.dumps(wanted))
    photos = [folder / f"{k:04d}.jpg" for k in range(count)]
    missing = [k for k, p in enumerate(photos)
               if not (p.exists() and p.with_suffix(".json").exists())]
    if missing:
        start = missing[0]
        print(f"generating photos {start}..{count - 1} into {folder} ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "photogen", "--out", str(folder),
                        "--count", str(count - start), "--start", str(start),
                        "--seed", str(seed), "--hard-share", "0.25", "--size", size,
                        "--jobs", str(jobs), *(["--table"] if table else [])],
                       cwd=REPO, check=True)
    return photos


def child_main(paths: list[str]) -> None:
    """Scan every photo on one core; print one JSON line per photo, then the peak."""
    import cv2

    cv2.setNumThreads(1)
    from qwixx_scan.cli import one_blas_thread
    from qwixx_scan.identify import KnownSheets
    from qwixx_scan.pipeline import known_layouts, scan_photo

    one_blas_thread()  # as qwixx scan runs

    known = KnownSheets.from_layouts(known_layouts())
    scan_photo(paths[0], layouts=known)  # warm up: imports, blank sheet references
    decoder = subprocess.Popen([sys.executable, "-c", DECODER], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    for path in paths:
        decoder.stdin.write(path + "\n")
        decoder.stdin.flush()
        decode_s = float(decoder.stdout.readline())
        t1 = time.perf_counter()
        result = scan_photo(path, layouts=known)
        t2 = time.perf_counter()
        # why each doubtful box is doubtful (the verdict's note), sheet by
        # sheet: not in the scan's JSON, which benchmarks/reread_sets.py
        # --doubts tallies
        why = [{box: getattr(sheet.verdicts.get(box), "note", "") for box in sheet.uncertain}
               for sheet in result.sheets]
        print(json.dumps({"path": path, "decode_s": decode_s, "scan_s": t2 - t1,
                          "result": result.to_json(), "why": why}), flush=True)
    decoder.stdin.close()
    decoder.wait()
    print(json.dumps({"peak_mb": _peak_mb()}), flush=True)


#: The decode-only process: for each path read from stdin, the seconds
#: cv2.imread takes on one core.
DECODER = """
import sys, time, cv2
cv2.setNumThreads(1)
for line in sys.stdin:
    t0 = time.perf_counter()
    cv2.imread(line.rstrip("\\n"))
    print(time.perf_counter() - t0, flush=True)
"""


def _peak_mb() -> float:
    """This process's peak resident memory. Linux keeps the larger of a
    parent's high-water mark and the child's in ru_maxrss across fork and
    exec: a run that first made spoilt copies of 150 photos reported 943 MB
    for a scan that peaked at 291. VmHWM is the scan's own memory alone."""
    import resource

    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def compare(truth: dict, result: dict, tally: Counter, examples: list[str]) -> None:
    """Add one photo's comparison to ``tally`` (see module docstring for the measures)."""
    from qwixx_print.layout import load_layout
    from qwixx_print.rules import score_sheet

    difficulty = truth.get("photo", {}).get("difficulty", "?")
    unmatched = list(result["sheets"])
    for want in truth["sheets"]:
        sheet = load_layout(want["layout"]).sheet(want["letter"])
        tally["sheets"] += 1
        tally[f"sheets_{difficulty}"] += 1
        got = nearest_same_sheet(want, unmatched)
        if got is None:
            tally["sheets_not_read"] += 1
            examples.append(f"{truth['file']}: not read: "
                            f"{result['error'] or result.get('problems')}")
            continue
        true_marked = set(want["marked"])
        marked, uncertain = set(got["marked"]), set(got["uncertain"])
        for box in sheet.boxes:
            tally["boxes"] += 1
            if box.id in uncertain:
                tally["boxes_uncertain"] += 1
            elif (box.id in marked) != (box.id in true_marked):
                tally["boxes_wrong"] += 1
        exact = marked == true_marked and not uncertain
        expected_status = score_sheet(sheet, true_marked).status()
        if exact:
            tally["sheets_exact"] += 1
            tally[f"exact_{difficulty}"] += 1
            if got["status"] != expected_status:
                tally["exact_but_review"] += 1
        else:
            wrong = sorted((marked - true_marked) | (true_marked - marked - uncertain))
            note = f"wrong {wrong}" if wrong else ""
            note += f" uncertain {sorted(uncertain)}" if uncertain else ""
            examples.append(f"{truth['file']}: {want['layout']} {want['letter']} status "
                            f"{got['status']}: {note.strip()}")
            if got["status"] == "ok" and marked != true_marked:
                tally["silent_errors"] += 1
                examples[-1] += "   <-- SILENT"


def _centre(corners: list) -> tuple[float, float]:
    return (sum(c[0] for c in corners) / len(corners), sum(c[1] for c in corners) / len(corners))


def nearest_same_sheet(want: dict, candidates: list[dict]) -> dict | None:
    """The read sheet of the same layout and letter nearest to ``want`` in the
    photo (a table photo may show several classic sheets); removed from
    ``candidates`` so that no read sheet counts twice."""
    same = [s for s in candidates if (s["layout"], s["letter"]) == (want["layout"], want["letter"])]
    if "corners_px" in want:
        cx, cy = _centre(want["corners_px"])
        # a read sheet is this one only if it lies where this one lies (within
        # a fifth of the sheet's width), not merely the nearest of its kind
        reach = 0.2 * ((want["corners_px"][1][0] - want["corners_px"][0][0]) ** 2
                       + (want["corners_px"][1][1] - want["corners_px"][0][1]) ** 2) ** 0.5
        same = [s for s in same if ((_centre(s["corners_px"])[0] - cx) ** 2
                                    + (_centre(s["corners_px"])[1] - cy) ** 2) ** 0.5 <= reach]
        same.sort(key=lambda s: (_centre(s["corners_px"])[0] - cx) ** 2
                  + (_centre(s["corners_px"])[1] - cy) ** 2)
    if not same:
        return None
    candidates.remove(same[0])
    return same[0]


def game_board(sheets: list[dict], file: str):
    """The ``qwixx scan --game`` scoreboard of sheet objects (scan-JSON shape)."""
    from qwixx_print.layout import load_layout
    from qwixx_print.rules import score_sheet
    from qwixx_scan.game import ScannedSheet, rank_game

    readings = []
    for i, s in enumerate(sheets):
        score = score_sheet(load_layout(s["layout"]).sheet(s["letter"]), s["marked"])
        uncertain = frozenset(s.get("uncertain", ()))
        readings.append(ScannedSheet(file=file, sheet=i, score=score,
                                     status=score.status(uncertain), uncertain=uncertain,
                                     alone=len(sheets) == 1))
    return rank_game(readings)


def compare_game(truth: dict, result: dict, tally: Counter, examples: list[str]) -> None:
    """Table photos: sheets found, and whether the game comes out as the truth's."""
    want, got = truth["sheets"], result["sheets"]
    tally["table_photos"] += 1
    tally["table_sheets_found"] += min(len(got), len(want))
    if len(got) >= len(want):
        tally["photos_all_found"] += 1

    def board_key(board):
        return (sorted((p.layout, p.letter or "", p.total, p.rank) for p in board.players),
                sorted(w.rule for w in board.warnings))

    true_board, read_board = game_board(want, "t"), game_board(got, "r")
    if board_key(true_board) == board_key(read_board):
        tally["games_right"] += 1
        if not read_board.provisional and not result.get("problems"):
            tally["games_right_final"] += 1
    elif not read_board.provisional and not result.get("error") and not result.get("problems"):
        tally["games_wrong_final"] += 1  # a wrong scoreboard not marked provisional
        examples.append(f"{truth['file']}: game read wrong and not provisional   <-- SILENT")


def main() -> None:
    from spoilt_photos import KINDS, altered_copies, shrink, spoil  # next to this script

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--size", default=None,
                        help="photogen --size (default: mixed = 8-12 MP; 12mp with --table)")
    parser.add_argument("--table", action="store_true",
                        help="photos of a whole table, 2-5 sheets each (issue 5)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--photos", type=Path, default=None,
                        help="scan the photos already in this folder (NNNN.jpg with truth "
                             "NNNN.json) instead of generating them; none are deleted or made")
    parser.add_argument("--long-side", type=int, default=None, metavar="PX",
                        help="scan copies shrunk to PX on the long side (as messaging apps "
                             "send photos)")
    parser.add_argument("--spoil", choices=KINDS, default=None,
                        help="scan copies spoilt this way (see spoilt_photos.py)")
    parser.add_argument("--gen-jobs", type=int, default=2)
    parser.add_argument("--show", type=int, default=15, help="misread sheets to list")
    parser.add_argument("--child", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child_main(args.child)
        return
    size = args.size or ("12mp" if args.table else "mixed")
    if args.photos:
        photos = sorted(p for p in args.photos.glob("*.jpg")
                        if p.with_suffix(".json").exists())[:args.count]
        if not photos:
            raise SystemExit(f"{args.photos} holds no photo with a truth file next to it")
    else:
        folder = args.cache / f"seed{args.seed}-{size}{'-table' if args.table else ''}"
        photos = ensure_photos(folder, args.count, args.seed, size, args.gen_jobs,
                               table=args.table)
    # altered copies go next to the photos' cache folder, named after it
    base = args.cache / args.photos.name if args.photos else folder
    if args.long_side:
        base = base.with_name(f"{base.name}-long{args.long_side}")
        photos = altered_copies(photos, base, lambda image, truth, _: shrink(
            image, truth, args.long_side), quality=80)
    if args.spoil:
        base = base.with_name(f"{base.name}-{args.spoil}")
        photos = altered_copies(photos, base, lambda image, truth, number: spoil(
            image, args.spoil, truth, seed=number))
    proc = subprocess.run([sys.executable, __file__, "--child", *map(str, photos)], cwd=REPO,
                          capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    peak_mb = lines.pop()["peak_mb"]
    tally: Counter = Counter()
    examples: list[str] = []
    decode, scan, scan_four = [], [], []
    for line in lines:
        truth = json.loads(Path(line["path"]).with_suffix(".json").read_text())
        compare(truth, line["result"], tally, examples)
        if args.table:
            compare_game(truth, line["result"], tally, examples)
            if len(truth["sheets"]) == 4:
                scan_four.append(line["scan_s"])
        decode.append(line["decode_s"])
        scan.append(line["scan_s"])
    sheets, boxes = tally["sheets"], max(1, tally["boxes"])
    exact = tally["sheets_exact"]
    print(f"photos {len(lines)}, sheets {sheets} ({tally['sheets_hard']} hard), boxes {boxes}")
    print(f"box error rate        {tally['boxes_wrong'] / boxes:.6f}  "
          f"({tally['boxes_wrong']} wrong; "
          f"target <= 0.0001)")
    print(f"boxes uncertain       {tally['boxes_uncertain'] / boxes:.4%}  "
          f"({tally['boxes_uncertain']})")
    print(f"sheets read exactly   {exact / max(1, sheets):.2%}  (target >= 99.5%; hard "
          f"{tally['exact_hard']}/{tally['sheets_hard']}, normal "
          f"{tally['exact_normal']}/{tally['sheets_normal']})")
    print(f"sheets not read       {tally['sheets_not_read']}")
    print(f"silent errors         {tally['silent_errors']}  (target 0)")
    print(f"exact but to review   {tally['exact_but_review'] / max(1, exact):.2%}  "
          f"({tally['exact_but_review']}; target <= 5%)")
    med_scan, med_decode = statistics.median(scan), statistics.median(decode)
    print(f"median s per photo    {med_scan:.3f}  (cv2.imread alone {med_decode:.3f}; ratio "
          f"{med_scan / med_decode:.2f}; targets <= 0.25 s and <= 2x)")
    print(f"peak memory           {peak_mb:.0f} MB  (target <= 400 MB)")
    if args.table:
        photos_n = tally["table_photos"]
        print(f"sheets found          {tally['table_sheets_found']}/{sheets}; photos with every "
              f"sheet found {tally['photos_all_found']}/{photos_n}")
        if scan_four:
            print(f"median s, 4 sheets    {statistics.median(scan_four):.3f}  "
                  f"({len(scan_four)} photos of 4 sheets)")
        print(f"games right           {tally['games_right']}/{photos_n} (scoreboard and warnings "
              f"as the truth's; {tally['games_right_final']} of them not provisional)")
        print(f"games silently wrong  {tally['games_wrong_final']}  (wrong and not provisional; "
              "target 0)")
    examples.sort(key=lambda line: "SILENT" not in line)  # the worst failures first
    for line in examples[:args.show]:
        print("  " + line)


if __name__ == "__main__":
    main()
