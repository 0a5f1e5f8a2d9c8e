"""The sheet's QR code as a grid of modules: what ``qwixx print`` draws and
what the scanner compares a photographed code with."""

from __future__ import annotations

import numpy as np


def qr_modules(payload: str) -> np.ndarray:
    """The QR code of ``payload`` (error correction M) as a square bool array,
    True = dark module, without the quiet zone."""
    # Imported here: reportlab takes 0.3 s to import, and a scan whose codes
    # are cached never needs it.
    from reportlab.graphics.barcode import qrencoder

    qr = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    qr.addData(payload)
    qr.make()
    n = qr.getModuleCount()
    return np.array([[bool(qr.isDark(r, c)) for c in range(n)] for r in range(n)])
