"""qwixx: print Qwixx score pads and score photographed sheets.

``qwixx_print`` holds the sheet: the layout model and its geometry, the
rules engine and the PDF renderer. ``qwixx_scan`` reads photos of sheets
printed by it.
"""

__version__ = "0.1.0"
