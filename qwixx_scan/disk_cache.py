"""What the scanner derives from the layouts, kept on disk between runs.

Before it reads a sheet, the scanner needs the sheet's blank image (its PDF
drawn and rasterized, with what the reader derives from it) and the module
grid of every code that may stand where the sheet's code is (QR encoding in
pure Python). Made in every new process, that cost a single-photo scan more
time than reading the photo: a second or more, and again in every worker of
``--jobs``. Kept on disk, a later run loads them in milliseconds.

Where: ``$QWIXX_CACHE_DIR``, else ``$XDG_CACHE_HOME/qwixx``, else
``~/.cache/qwixx``; ``QWIXX_CACHE_DIR=off`` turns the cache off. Entries
live in a folder named by a hash of the scanner's and the printer's own
source and the versions of the libraries that draw and rasterize the sheet,
so a new version of any of them makes new entries and never reads stale ones
(folders of other versions that no run used for PRUNE_DAYS are removed). Within it,
an entry is named by a hash of its recipe (the sheet's whole definition, or
the code's text). An entry is written to a temporary file and renamed into
place, so a run stopped half-way or two workers writing at once never leave
a broken entry; an entry that cannot be read is made again, and a cache that
cannot be written (a read-only home, a full disk) only costs the time.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import cv2
import numpy as np

ENV = "QWIXX_CACHE_DIR"
OFF = "off"
#: Folders of other versions unused for this many days are removed.
PRUNE_DAYS = 30
#: The sources whose change must change every entry: the scanner (how the
#: blank is derived, how codes are encoded) and the printer (how sheets are drawn).
_PACKAGES = ("qwixx_scan", "qwixx_print")
_LIBRARIES = ("reportlab", "pypdfium2")

_version_dir: Path | None = None


def cache_root() -> Path | None:
    """The cache folder for all versions, or None when turned off."""
    configured = os.environ.get(ENV)
    if configured is not None:
        return None if configured.strip().lower() in (OFF, "") else Path(configured).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "qwixx"
    try:
        return Path.home() / ".cache" / "qwixx"
    except RuntimeError:  # no home directory (a service account): no cache
        return None


def cached_arrays(kind: str, recipe: str,
                  make: Callable[[], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The arrays ``make()`` returns for ``recipe``, from the cache when there;
    made and stored otherwise. ``kind`` names the entry's family (a file name
    prefix); ``recipe`` must say everything the arrays depend on besides the
    source and library versions."""
    path = _entry_path(kind, recipe)
    if path is not None and path.exists():
        try:
            with np.load(path, allow_pickle=False) as stored:
                return {name: stored[name] for name in stored.files}
        except Exception:  # damaged or cut short: a zip error, a bad header
            pass  # made again below, and written whole
    arrays = make()
    if path is not None:
        _store(path, arrays)
    return arrays


def _entry_path(kind: str, recipe: str) -> Path | None:
    folder = _version_folder()
    if folder is None:
        return None
    return folder / f"{kind}-{hashlib.sha256(recipe.encode()).hexdigest()[:24]}.npz"


def _version_folder() -> Path | None:
    """This version's folder inside the cache root (None when turned off)."""
    global _version_dir
    root = cache_root()
    if root is None:
        return None
    if _version_dir is None or _version_dir.parent != root:
        _version_dir = root / _version_hash()
        try:  # in use: not pruned by other versions (see _prune)
            os.utime(_version_dir)
        except OSError:
            pass
    return _version_dir


def _version_hash() -> str:
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent.parent
    for package in _PACKAGES:
        for source in sorted((here / package).glob("*.py")):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    for library in _LIBRARIES:  # looked up, not imported (reportlab takes 0.3 s)
        try:
            digest.update(f"{library}={metadata.version(library)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{library}=none".encode())
    digest.update(f"cv2={cv2.__version__} numpy={np.__version__}".encode())
    return digest.hexdigest()[:16]


def _store(path: Path, arrays: dict[str, np.ndarray]) -> None:
    try:
        new_folder = not path.parent.exists()
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".", suffix=".npz", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                np.savez_compressed(out, **arrays)
            Path(temporary).chmod(0o644)  # readable like any file made here (mkstemp: 0600)
            Path(temporary).replace(path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        if new_folder:
            _prune(path.parent)
    except OSError:
        pass  # cannot write here: the scan goes on, only slower next time


def _prune(keep: Path) -> None:
    """Remove other versions' folders that no run used for PRUNE_DAYS (a run
    touches its own folder when it starts using it)."""
    limit = time.time() - PRUNE_DAYS * 86400
    for folder in keep.parent.iterdir():
        if folder != keep and folder.is_dir() and folder.stat().st_mtime < limit:
            shutil.rmtree(folder, ignore_errors=True)
