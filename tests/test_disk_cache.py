"""The scanner's disk cache: later runs start at once, and never read a wrong entry."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from qwixx_print.layout import load_layout
from qwixx_print.qr import qr_modules
from qwixx_scan import blank, identify
from qwixx_scan.blank import blank_reference, build_reference, render_blank
from qwixx_scan.disk_cache import cache_root

SHEET = load_layout("treden").sheet("B")
PPM = 4.0  # small: quick to render
SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "photos" / "anna.jpg"


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    """An empty cache folder of its own, and nothing made yet in this process."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("QWIXX_CACHE_DIR", str(folder))
    blank._cache.clear()
    identify.code_modules.cache_clear()
    yield folder
    blank._cache.clear()
    identify.code_modules.cache_clear()


def _entries(folder: Path, kind: str) -> list[Path]:
    return sorted(folder.glob(f"*/{kind}-*.npz"))


def _same(a, b) -> bool:
    return all(np.array_equal(getattr(a, name), getattr(b, name))
               for name in ("image", "darkest", "flat", "gray_half", "gray_quarter"))


def test_blank_kept_on_disk_is_the_blank_made_afresh(cache):
    made = blank_reference(SHEET, PPM)
    (entry,) = _entries(cache, "blank")
    blank._cache.clear()
    loaded = blank_reference(SHEET, PPM)
    assert _same(loaded, made)
    assert _same(loaded, build_reference(render_blank(SHEET, PPM), PPM))
    # and it did come from the disk: an entry changed there is what a new process sees
    with np.load(entry) as stored:
        arrays = {name: stored[name] for name in stored.files}
    arrays["image"] = np.zeros_like(arrays["image"])
    np.savez_compressed(entry, **arrays)
    blank._cache.clear()
    assert not blank_reference(SHEET, PPM).image.any()


def test_each_sheet_and_resolution_has_its_own_entry(cache):
    blank_reference(SHEET, PPM)
    blank_reference(load_layout("treden").sheet("C"), PPM)
    blank_reference(SHEET, PPM * 2)
    assert len(_entries(cache, "blank")) == 3


def test_a_damaged_entry_is_made_again(cache):
    blank_reference(SHEET, PPM)
    (entry,) = _entries(cache, "blank")
    entry.write_bytes(entry.read_bytes()[:100])  # a copy cut short
    blank._cache.clear()
    assert _same(blank_reference(SHEET, PPM), build_reference(render_blank(SHEET, PPM), PPM))
    with np.load(entry) as stored:  # and written whole again
        assert set(stored.files) == {"image", "darkest", "flat", "gray_half", "gray_quarter"}


def test_code_grids_kept_on_disk(cache):
    payload = SHEET.code_payload
    made = identify.code_modules(payload)
    assert len(_entries(cache, "code")) == 1
    identify.code_modules.cache_clear()
    assert np.array_equal(identify.code_modules(payload), made)
    assert np.array_equal(made, qr_modules(payload))
    assert made.dtype == bool and made.shape[0] == made.shape[1] >= 21


def test_off_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("QWIXX_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    blank._cache.clear()
    assert cache_root() is None
    blank_reference(SHEET, PPM)
    blank._cache.clear()
    assert not any(tmp_path.rglob("*.npz"))


def test_default_place_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.delenv("QWIXX_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_root() == tmp_path / "qwixx"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_root() == tmp_path / ".cache" / "qwixx"


def test_a_cache_that_cannot_be_written_only_costs_time(tmp_path, monkeypatch):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("in the way")
    monkeypatch.setenv("QWIXX_CACHE_DIR", str(not_a_folder))
    blank._cache.clear()
    try:
        assert _same(blank_reference(SHEET, PPM),
                     build_reference(render_blank(SHEET, PPM), PPM))
    finally:
        blank._cache.clear()


def _scan_json(env_cache: str) -> list:
    env = {"QWIXX_CACHE_DIR": env_cache, "PATH": "/usr/bin:/bin"}
    run = "from qwixx_print.cli import main; main()"
    done = subprocess.run([sys.executable, "-c", run, "scan", "--json", str(SAMPLE)],
                          capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_scan_from_the_cache_reads_the_same(tmp_path):
    folder = str(tmp_path / "cache")
    first = _scan_json(folder)  # fills the cache
    assert _entries(Path(folder), "blank") and _entries(Path(folder), "code")
    assert _scan_json(folder) == first == _scan_json("off")


def test_other_versions_unused_for_a_month_are_removed(cache):
    import os
    import time

    old, recent = cache / "0123456789abcdef", cache / "fedcba9876543210"
    for folder, days in ((old, 40), (recent, 3)):
        folder.mkdir(parents=True)
        (folder / "blank-x.npz").write_bytes(b"from another version")
        when = time.time() - days * 86400
        os.utime(folder, (when, when))
    blank_reference(SHEET, PPM)  # this version's first entry
    assert not old.exists() and recent.exists()
    assert _entries(cache, "blank")
