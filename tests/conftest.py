"""Shared test setup."""

from __future__ import annotations

import pytest

from qwixx_scan.identify import KnownSheets
from qwixx_scan.pipeline import known_layouts


@pytest.fixture(scope="session", autouse=True)
def _own_scan_cache(tmp_path_factory):
    """The suite keeps the scanner's disk cache (qwixx_scan.disk_cache) to
    itself: it neither reads nor fills the user's ~/.cache/qwixx. Photos the
    CLI scans in a subprocess inherit the setting."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("QWIXX_CACHE_DIR", str(tmp_path_factory.mktemp("qwixx-cache")))
        yield


@pytest.fixture(scope="module")
def known() -> KnownSheets:
    """The built-in sheets, as the scanner knows them (made once per test module)."""
    return KnownSheets.from_layouts(known_layouts())
