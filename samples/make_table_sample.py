"""Write samples/table.jpg: a generated photo of a game table with four
finished Treden sheets (A-E letters, any rotation, pens and dice), for
``qwixx scan --game samples/table.jpg``.

    python samples/make_table_sample.py

Fixed seed, so the same picture every time (as long as the sheet artwork
and photogen do not change). 8 megapixels at JPEG quality 80: about 1 MB.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # photogen lives at the repo root, not installed

from photogen.scene import encode_jpeg, generate_photo  # noqa: E402

SEED = 6
JPEG_QUALITY = 80


def main() -> None:
    photo = generate_photo(SEED, size="8mp", table=True, sheets=4, layout="treden",
                           profile="normal", illegal_share=0.0, keep_image=True)
    target = HERE / "table.jpg"
    target.write_bytes(encode_jpeg(photo.image, JPEG_QUALITY))
    letters = ", ".join(s["letter"] for s in photo.truth["sheets"])
    print(f"wrote {target} (treden {letters}; {target.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
