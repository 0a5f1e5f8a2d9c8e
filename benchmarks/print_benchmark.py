"""Time `qwixx print` for a 400-sheet pad: seconds, pages and file size.

Targets (issue 3): at most 2 s and 1.5 MB. Run from the repository root:

    python benchmarks/print_benchmark.py [--sheets 400] [--repeat 3]

Times the library call that renders and writes the file (the same one the
CLI makes), best of --repeat runs, after one warm-up run that also pays
for font loading; the cold first run is printed too.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from qwixx_print.layout import load_layout  # noqa: E402
from qwixx_print.render import write_pad  # noqa: E402

CASES = (
    ("treden", "a4", 0.0, False),
    ("kettingen", "letter", 0.0, False),
    ("classic", "sheet", 3.0, True),
)
TARGET_S, TARGET_MB = 2.0, 1.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ok = True
    print(f"{'layout':<10} {'paper':<7} {'bleed':>5} {'cmyk':>4} {'sheets':>6} {'pages':>5} "
          f"{'cold s':>7} {'best s':>7} {'MB':>6}")
    with tempfile.TemporaryDirectory() as folder:
        for name, paper, bleed, cmyk in CASES:
            layout = load_layout(name)
            out = Path(folder) / f"{name}-{paper}.pdf"
            times = []
            for _ in range(args.repeat + 1):
                start = time.perf_counter()
                info = write_pad(out, layout, sheets=args.sheets, paper=paper, bleed_mm=bleed,
                                 cmyk=cmyk)
                times.append(time.perf_counter() - start)
            size_mb = out.stat().st_size / 1e6
            best = min(times[1:]) if len(times) > 1 else times[0]
            ok &= best <= TARGET_S and size_mb <= TARGET_MB
            print(f"{name:<10} {paper:<7} {bleed:>5g} {'yes' if cmyk else 'no':>4} "
                  f"{info.sheets:>6} {info.pages:>5} {times[0]:>7.3f} {best:>7.3f} "
                  f"{size_mb:>6.3f}")
    print(f"targets: <= {TARGET_S:g} s and <= {TARGET_MB:g} MB: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
