"""Rebuild ``kettingen-C.heic``: run from the repo root whenever the printed
sheet's look changes (``python tests/resources/scan/make_heic.py``).

A fixture file rather than made in the test, because encoding HEVC takes
seconds.
"""

from pathlib import Path

import pillow_heif
from PIL import Image

from qwixx_print.layout import load_layout
from scan_support import flat_sheet, photo, placement

CROSSES = ("red-5", "yellow-5", "blue-8", "penalty-1")
SIZE = (1200, 900)


def main() -> None:
    sheet = load_layout("kettingen").sheet("C")
    h = placement(sheet, SIZE, centre=(600, 450), width_px=880, angle_deg=172)
    picture = photo(SIZE, [(flat_sheet(sheet, CROSSES), h)], seed=5)
    pillow_heif.register_heif_opener()
    out = Path(__file__).with_name("kettingen-C.heic")
    Image.fromarray(picture[:, :, ::-1]).save(out, format="HEIF", quality=90)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
