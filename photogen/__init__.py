"""Realistic test photos of finished Qwixx score sheets, from fixed seeds.

Used by the scanner's tests and benchmarks (import from the repo root; not
installed). Modules, each usable on its own:

``photogen.play``
    ``play_sheet(sheet, rng, *, illegal_share=0.0) -> SheetTruth``: a
    plausible finished sheet (``marked``, ``skip_lined``,
    ``forgotten_locks``, ``broken_rules``). ``broken_rules(sheet, crossed)``.
``photogen.strokes``
    ``random_style(rng, *, style_mix=0.1, hard=False, kind=None, pen=None)
    -> MarkStyle`` and ``draw_sheet_marks(image_bgr, sheet, px_per_mm,
    truth, style, rng, *, extras=True) -> image`` on a flat sheet image
    (``draw_sheet_marks_detailed`` also returns a ``MarkReport``).
``photogen.printer``
    ``random_printer(rng) -> Printer`` and ``print_sheet(blank, printer)``:
    the blank as a home printer renders it (paler, greyer, colours shifted).
``photogen.raster``
    ``blank_sheet(sheet, px_per_mm) -> image``: ``sheet_pdf`` rasterized,
    cached.
``photogen.scene``
    ``generate_photo(seed, *, profile="normal", size="12mp", table=False,
    sheets=None, layout=None, illegal_share=0.03, style_mix=0.1,
    printer=None) -> Photo``
    with ``.jpeg`` (bytes) and ``.truth`` (scan-JSON shape plus extras).

Command line: ``python -m photogen --out DIR --count N --seed S``.
"""

#: Bumped whenever the same seed starts giving other photos, so that caches
#: of generated photos (benchmarks/.cache) know they are stale.
GENERATOR_VERSION = 2
