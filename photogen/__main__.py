"""``python -m photogen``: write generated photos with their truth.

    python -m photogen --out DIR --count N --seed S [--hard-share 0.25]
                       [--easy-share 0] [--table] [--size 12mp|8mp|mixed|small]
                       [--illegal-share 0.03] [--layout NAME] [--jobs N]

Writes ``NNNN.jpg`` and ``NNNN.json`` (the truth in the scan-JSON shape of
INTERFACES.md: ``file`` and ``sheets`` with ``layout``, ``letter``,
``marked``, plus the generator's own fields) and prints a progress line per
photo on stderr. Photo ``k`` depends only on ``--seed`` and ``k``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from .scene import PROFILES, SIZES, generate_photo


def photo_seed(seed: int, index: int) -> int:
    """The seed of photo ``index`` in a run started with ``seed``."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


def photo_profile(seed: int, index: int, hard_share: float, easy_share: float) -> str:
    """easy, normal or hard for photo ``index``, drawn from its own stream."""
    u = np.random.default_rng([seed, index, 7]).random()
    if u < hard_share:
        return "hard"
    if u < hard_share + easy_share:
        return "easy"
    return "normal"


def _one(job: tuple[Path, int, dict]) -> tuple[str, float, int]:
    out, index, opts = job
    started = time.perf_counter()
    profile = photo_profile(opts["seed"], index, opts["hard_share"], opts["easy_share"])
    photo = generate_photo(photo_seed(opts["seed"], index), profile=profile, size=opts["size"],
                           table=opts["table"], layout=opts["layout"],
                           illegal_share=opts["illegal_share"])
    name = f"{index:04d}.jpg"
    photo.truth["file"] = name
    photo.truth["photo"]["index"] = index
    (out / name).write_bytes(photo.jpeg)
    (out / f"{index:04d}.json").write_text(json.dumps(photo.truth, indent=1) + "\n")
    return name, time.perf_counter() - started, len(photo.truth["sheets"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m photogen", description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, type=Path, help="folder to write into")
    parser.add_argument("--count", type=int, default=10, help="how many photos")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole run")
    parser.add_argument("--start", type=int, default=0, help="index of the first photo")
    parser.add_argument("--hard-share", type=float, default=0.25, help="share of hard photos")
    parser.add_argument("--easy-share", type=float, default=0.0, help="share of easy photos")
    parser.add_argument("--table", action="store_true", help="2-5 sheets per photo")
    parser.add_argument("--size", choices=sorted(SIZES), default="12mp")
    parser.add_argument("--illegal-share", type=float, default=0.03,
                        help="share of sheets that break a rule on purpose")
    parser.add_argument("--layout", default=None, help="only this layout (default: a mix)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to use")
    args = parser.parse_args(argv)
    if not 0 <= args.hard_share + args.easy_share <= 1:
        parser.error("--hard-share plus --easy-share must lie between 0 and 1")
    if set(PROFILES) != {"easy", "normal", "hard"}:
        raise RuntimeError("photogen profiles changed; update __main__")
    args.out.mkdir(parents=True, exist_ok=True)
    opts = {"seed": args.seed, "hard_share": args.hard_share, "easy_share": args.easy_share,
            "size": args.size, "table": args.table, "layout": args.layout,
            "illegal_share": args.illegal_share}
    jobs = [(args.out, i, opts) for i in range(args.start, args.start + args.count)]
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = pool.map(_one, jobs)
            _report(results, args.count, started)
    else:
        _report(map(_one, jobs), args.count, started)
    return 0


def _report(results, count: int, started: float) -> None:
    for done, (name, seconds, sheets) in enumerate(results, 1):
        print(f"photogen: {done}/{count} {name} ({sheets} sheet{'s' * (sheets > 1)}, "
              f"{seconds:.2f} s)", file=sys.stderr, flush=True)
    total = time.perf_counter() - started
    print(f"photogen: wrote {count} photos in {total:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
