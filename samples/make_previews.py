"""Write the README's sheet previews: one PNG per variant, 10 px per mm.

Run from the repository root:  python samples/make_previews.py
Each preview is the blank sheet exactly as `qwixx print` draws it
(rendered from `sheet_pdf`, rasterized with pypdfium2).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pypdfium2 as pdfium

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from qwixx_print.layout import load_layout  # noqa: E402
from qwixx_print.render import sheet_pdf  # noqa: E402

PX_PER_MM = 10
PREVIEWS = (("classic", None), ("treden", "A"), ("kettingen", "A"))


def main() -> None:
    out_dir = Path(__file__).resolve().parent
    for name, letter in PREVIEWS:
        sheet = load_layout(name).sheet(letter)
        page = pdfium.PdfDocument(sheet_pdf(sheet))[0]
        image = page.render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("RGB")
        path = out_dir / f"preview-{name}.png"
        image.save(path, optimize=True)
        print(f"wrote {path.relative_to(ROOT)} ({image.width} x {image.height} px)")


if __name__ == "__main__":
    main()
