"""How fast ``photogen`` makes photos (the scan benchmark generates 300+).

    python benchmarks/photogen_speed.py [--count 10]

For each kind (12 MP single sheet normal / hard, 12 MP table of 4 sheets,
small 2 MP single sheet) it first makes a few photos to fill the blank-sheet
cache, then times ``count`` more and prints the median wall-clock and CPU
seconds per photo. CPU time counts OpenCV's worker threads too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from photogen.scene import generate_photo  # noqa: E402

KINDS = {
    "12mp normal": {"size": "12mp", "profile": "normal"},
    "12mp hard": {"size": "12mp", "profile": "hard"},
    "12mp table of 4": {"size": "12mp", "table": True, "sheets": 4},
    "small normal": {"size": "small", "profile": "normal"},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10)
    args = parser.parse_args()
    for name, kwargs in KINDS.items():
        for seed in range(1000, 1012):  # warm the cache with every layout and letter
            generate_photo(seed, **kwargs)
        walls, cpus = [], []
        for seed in range(args.count):
            wall, cpu = time.perf_counter(), time.process_time()
            generate_photo(seed, **kwargs)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        print(f"{name:18s} median {statistics.median(walls):.2f} s wall, "
              f"{statistics.median(cpus):.2f} s CPU per photo ({args.count} photos)")


if __name__ == "__main__":
    main()
