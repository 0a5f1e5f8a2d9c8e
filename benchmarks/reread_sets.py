"""Read benchmark sets again and say, sheet by sheet, what a change of the reader changed.

    python benchmarks/reread_sets.py DIR... --out NEW.jsonl [--jobs 2] [--against OLD.jsonl]
    python benchmarks/reread_sets.py --tally NEW.jsonl [--against OLD.jsonl] [--doubts]

A change to the reader (a rule, a threshold, tuned networks) moves
borderline boxes either way, so it is judged on every set at hand read
again, not on the photo that prompted it. DIR is a folder of photos with
their truth (NNNN.jpg beside NNNN.json: benchmarks/foreign_photos.py,
``python -m photogen``). Every photo is scanned on one core per process
(scan_benchmark.py's child), ``--jobs`` processes at once, and its result
kept as one JSON line in ``--out`` (written whole at the end, so an
interrupted run leaves no half dump). Printed per folder and in all: sheets,
sheets read exactly, wrong boxes, doubtful boxes, sheets wrong but ``ok``
and sheets not read; then every sheet read wrong. With ``--against`` (a
dump of the same photos by other code): the same tallies of that dump, and
every sheet whose reading changed, with what was wrong or doubtful on
either side. ``--tally`` prints from a dump without scanning. ``--doubts``:
every box left doubtful, by what the truth says it is (crossed, empty, a
line through a skipped number, a stray dot) and why the reader doubted it
(its verdict's note), with the sheets whose doubts are all of that one
kind: what reading those boxes right would gain.

Reading the independent generator's 2,785 sheets of seeds 55-66 and tables
35-41 (2,080 photos) took about 9 minutes with 2 jobs on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scan_benchmark import compare, nearest_same_sheet  # noqa: E402

SCAN_BENCHMARK = Path(__file__).resolve().parent / "scan_benchmark.py"
#: The tallies printed (scan_benchmark.compare's names) and their headings.
COLUMNS = {"sheets": "sheets", "sheets_exact": "exact", "boxes_wrong": "wrong boxes",
           "boxes_uncertain": "doubtful", "silent_errors": "wrong, ok",
           "sheets_not_read": "not read"}


def photos_in(folders: list[Path]) -> list[Path]:
    """Every photo with a truth file beside it, folder by folder, by name."""
    photos = []
    for folder in folders:
        found = sorted(p for p in folder.glob("*.jpg") if p.with_suffix(".json").exists())
        if not found:
            raise SystemExit(f"{folder} holds no photo with a truth file (NNNN.jpg, NNNN.json)")
        photos += found
    return photos


def scan(photos: list[Path], jobs: int, out: Path
         ) -> tuple[dict[str, dict], dict[str, list[dict[str, str]]]]:
    """Scan ``photos`` in ``jobs`` child processes; write their results to
    ``out``. Returns them, and why their doubtful boxes are doubtful (see
    :func:`read_dump`)."""
    shares = [photos[k::jobs] for k in range(jobs) if photos[k::jobs]]
    print(f"reading {len(photos)} photos in {len(shares)} processes ...", file=sys.stderr)
    results: dict[str, dict] = {}
    whys: dict[str, list] = {}
    with tempfile.TemporaryDirectory() as scratch:
        # Each child writes to a file, not a pipe: a pipe read only after
        # the first child ends fills up and stalls the others.
        logs = [Path(scratch) / f"{k}.jsonl" for k in range(len(shares))]
        children = []
        for share, log in zip(shares, logs):
            with log.open("w") as stream:
                children.append(subprocess.Popen(
                    [sys.executable, str(SCAN_BENCHMARK), "--child", *map(str, share)],
                    stdout=stream))
        failed = [child.wait() for child in children]
        if any(failed):
            raise SystemExit(f"a scanning process failed (exit {max(failed)})")
        for log in logs:
            for record in map(json.loads, log.read_text().splitlines()):
                if "path" in record:
                    results[record["path"]] = record["result"]
                    whys[record["path"]] = record.get("why", [])
    ordered = {str(p): results[str(p)] for p in photos}
    out.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.")
    try:
        with os.fdopen(handle, "w") as stream:
            for path, result in ordered.items():
                stream.write(json.dumps({"path": path, "result": result,
                                         "why": whys[path]}) + "\n")
        Path(partial).replace(out)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    return ordered, whys


def load(dump: Path) -> dict[str, dict]:
    """A dump's results by photo path."""
    return read_dump(dump)[0]


def read_dump(dump: Path) -> tuple[dict[str, dict], dict[str, list[dict[str, str]]]]:
    """A dump's results by photo path, and its notes of the doubtful boxes:
    per sheet read, box -> why it is doubtful (none in dumps written before
    they were kept)."""
    try:
        lines = dump.read_text().splitlines()
    except OSError as exc:
        raise SystemExit(f"cannot read the dump {dump}: {exc.strerror}") from None
    records = list(map(json.loads, lines))
    return ({r["path"]: r["result"] for r in records},
            {r["path"]: r.get("why", []) for r in records})


def truth_of(path: str) -> dict:
    return json.loads(Path(path).with_suffix(".json").read_text())


def tally(results: dict[str, dict]) -> tuple[dict[str, Counter], list[str]]:
    """Per folder the scan benchmark's tallies, and every sheet not read exactly."""
    per_folder: dict[str, Counter] = defaultdict(Counter)
    misread: list[str] = []
    for path, result in results.items():
        examples: list[str] = []
        compare(truth_of(path), result, per_folder[Path(path).parent.name], examples)
        misread += [f"{Path(path).parent.name}/{line}" for line in examples]
    return per_folder, misread


def print_tallies(title: str, per_folder: dict[str, Counter]) -> None:
    print(f"{title}\n{'set':14s}" + "".join(f"{heading:>12s}" for heading in COLUMNS.values()))
    total: Counter = Counter()
    for name in sorted(per_folder):
        total.update(per_folder[name])
        print(f"{name:14s}" + "".join(f"{per_folder[name][c]:12d}" for c in COLUMNS))
    print(f"{'all':14s}" + "".join(f"{total[c]:12d}" for c in COLUMNS))


def sheet_readings(path: str, result: dict) -> list[tuple[str, str, tuple]]:
    """Per true sheet of a photo: its name, and what was read wrong, doubtful and its status."""
    out = []
    unmatched = list(result["sheets"])
    for number, want in enumerate(truth_of(path)["sheets"], start=1):
        name = f"{want['layout']} {want['letter'] or ''} (sheet {number})".replace("  ", " ")
        got = nearest_same_sheet(want, unmatched)
        if got is None:
            out.append((name, "not read", ((), (), "-")))
            continue
        truth, marked, doubtful = set(want["marked"]), set(got["marked"]), set(got["uncertain"])
        wrong = tuple(sorted((marked - truth) | (truth - marked - doubtful)))
        out.append((name, "", (wrong, tuple(sorted(doubtful)), got["status"])))
    return out


def doubt_kinds(results: dict[str, dict], whys: dict[str, list[dict[str, str]]]
                ) -> tuple[Counter, Counter, Counter]:
    """Every doubtful box by (what it truly is, why it was doubted): the boxes
    of each kind, the sheets whose doubts are all of it and the sheets with
    any of it."""
    boxes: Counter = Counter()
    alone: Counter = Counter()
    anywhere: Counter = Counter()
    for path, result in results.items():
        why = whys.get(path) or [{} for _ in result["sheets"]]
        unmatched = list(result["sheets"])
        for want in truth_of(path)["sheets"]:
            got = nearest_same_sheet(want, unmatched)
            if got is None or not got["uncertain"]:
                continue
            notes = why[result["sheets"].index(got)]
            pairs = [(_truly(want, box), notes.get(box, "").split(" (")[0] or "?")
                     for box in got["uncertain"]]
            boxes.update(pairs)
            kinds = set(pairs)
            anywhere.update(kinds)
            if len(kinds) == 1:
                alone.update(kinds)
    return boxes, alone, anywhere


def _truly(want: dict, box: str) -> str:
    if box in want["marked"]:
        return "crossed"
    if box in want.get("skip_lined", ()):
        return "skip line"
    if box in want.get("dots_in_boxes", ()):
        return "dot"
    return "empty"


def print_doubts(results: dict[str, dict], whys: dict[str, list[dict[str, str]]]) -> None:
    boxes, alone, anywhere = doubt_kinds(results, whys)
    print(f"\ndoubtful boxes by what they are and why: boxes, sheets with only these, "
          f"sheets with any\n{'boxes':>7s}{'only':>6s}{'any':>6s}  truly     why")
    for kind, count in boxes.most_common():
        print(f"{count:7d}{alone[kind]:6d}{anywhere[kind]:6d}  {kind[0]:9s} {kind[1]}")


def changes(old: dict[str, dict], new: dict[str, dict]) -> list[str]:
    """Every sheet whose reading differs between two dumps of the same photos."""
    lines = []
    for path in new:
        if path not in old:
            continue
        for (name, _, before), (_, _, after) in zip(sheet_readings(path, old[path]),
                                                   sheet_readings(path, new[path])):
            if before != after:
                lines.append(f"{Path(path).parent.name}/{Path(path).name} {name}: "
                             f"{_describe(before)}  ->  {_describe(after)}")
    return lines


def _describe(reading: tuple) -> str:
    wrong, doubtful, status = reading
    return (f"{status}" + (f", wrong {list(wrong)}" if wrong else "")
            + (f", doubtful {list(doubtful)}" if doubtful else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, metavar="DIR")
    parser.add_argument("--out", type=Path, help="the dump to write (one JSON line a photo)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--against", type=Path, help="a dump of the same photos to compare with")
    parser.add_argument("--tally", type=Path, help="print from this dump instead of scanning")
    parser.add_argument("--doubts", action="store_true",
                        help="also tally the doubtful boxes by what they are and why")
    args = parser.parse_args()
    if args.tally:
        new, whys = read_dump(args.tally)
    elif args.folders and args.out:
        new, whys = scan(photos_in(args.folders), max(1, args.jobs), args.out)
    else:
        parser.error("give folders and --out, or --tally DUMP")
    per_folder, misread = tally(new)
    old = load(args.against) if args.against else None
    if old is not None:
        print_tallies(f"against: {args.against}", tally({p: old[p] for p in new if p in old})[0])
        print()
    print_tallies("read now" if old is not None else "read", per_folder)
    wrong = [line for line in misread if "wrong" in line or "not read" in line]
    if wrong:
        print("\nsheets read wrong (or not read):")
        for line in sorted(wrong, key=lambda line: "SILENT" not in line):
            print("  " + line)
    if args.doubts:
        print_doubts(new, whys)
    if old is not None:
        changed = changes(old, new)
        print(f"\nsheets read differently: {len(changed)}")
        for line in changed:
            print("  " + line)


if __name__ == "__main__":
    main()
