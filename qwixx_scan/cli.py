"""``qwixx scan``: the command line of the scanner (all its click code).

:func:`register` adds the command to the ``qwixx`` group of
:mod:`qwixx_print.cli`.
"""

from __future__ import annotations

import multiprocessing
import sys
import traceback
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import click
import cv2
from threadpoolctl import threadpool_limits

from qwixx_print.errors import ExitCode, OutputError

from .decode import photos_in_folder
from .game import Scoreboard, scoreboard
from .identify import KnownSheets
from .pipeline import PhotoResult, known_layouts, scan_photo
from .report import (
    game_json,
    game_table,
    overlay_image,
    overlay_name,
    overlay_stems,
    results_json,
    results_table,
)

_WORKER_KNOWN: KnownSheets | None = None


def quiet_opencv() -> None:
    """Keep OpenCV's own log lines (say, a QR code's symbol mode it cannot
    decode while the scanner tries a damaged code) off the user's terminal:
    the scanner reports what went wrong with a photo in its own words."""
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


def one_blas_thread() -> None:
    """Keep numpy's BLAS to one thread. The scan's one sizeable matrix
    product (the bent-paper field over a sheet, locate.resample_along_field,
    0.2 ms) is too small to share out, and the BLAS's helper threads spin
    on a core while they wait for the next: scanning 60 independent photos
    took 9.4 s of processor time for 6.8 s of wall time with them and 6.8
    for 6.5 without; with --jobs 2, 100 photos 7.6-7.7 s instead of 6.3,
    the two processes' spinning threads taking turns with the work. The
    results are the same either way."""
    threadpool_limits(limits=1, user_api="blas")


def _init_worker(layout_files: Sequence[str]) -> None:
    global _WORKER_KNOWN
    quiet_opencv()
    one_blas_thread()
    cv2.setNumThreads(1)  # the pool already uses the cores
    _WORKER_KNOWN = KnownSheets.from_layouts(known_layouts(layout_files))


def _scan_in_worker(path: str, overlay_dir: str | None, stem: str) -> PhotoResult:
    assert _WORKER_KNOWN is not None
    return _scan_and_draw(path, _WORKER_KNOWN, overlay_dir, stem)


def _scan_and_draw(path: str, known: KnownSheets, overlay_dir: str | None,
                   stem: str) -> PhotoResult:
    """Scan one photo; write its overlays (named from ``stem``); drop the images.

    A bug met on one photo is reported for that photo; the batch goes on.
    """
    try:
        result = scan_photo(path, layouts=known, keep_images=overlay_dir is not None)
    except Exception as exc:  # a bug, not the photo's fault: say so, keep the batch going
        traceback.print_exc()
        return PhotoResult(file=path, error=f"internal error while reading this photo ({exc!r}); "
                           "please report it with the traceback above", internal_error=True)
    if overlay_dir is not None:
        taken: set[str] = set()
        for sheet in result.sheets:
            target = Path(overlay_dir) / overlay_name(stem, sheet, taken)
            if not cv2.imwrite(str(target), overlay_image(sheet)):
                raise OutputError(f"cannot write the overlay {target}; check the folder")
            sheet.rectified = None
    return result


def scan_all(paths: Sequence[str], layout_files: Sequence[str], *, jobs: int,
             overlay_dir: str | None) -> Iterator[PhotoResult]:
    """Scan ``paths`` in order, in ``jobs`` processes; yields results in order."""
    stems = overlay_stems(paths)
    if jobs <= 1 or len(paths) <= 1:
        known = KnownSheets.from_layouts(known_layouts(layout_files))
        for path, stem in zip(paths, stems, strict=True):
            yield _scan_and_draw(path, known, overlay_dir, stem)
        return
    # "spawn", not fork: a forked child inherits OpenCV's thread pool in a
    # state that can deadlock it.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                             initializer=_init_worker, initargs=(tuple(layout_files),)) as pool:
        yield from pool.map(_scan_in_worker, paths, [overlay_dir] * len(paths), stems)


def expand_folders(paths: Sequence[str]) -> list[str]:
    """``paths`` with each folder replaced by the photos in it (see
    :func:`~qwixx_scan.decode.photos_in_folder`); a folder without any stays,
    for the scan to report."""
    out: list[str] = []
    for path in paths:
        inside = photos_in_folder(path) if Path(path).is_dir() else []
        out += [str(p) for p in inside] or [path]
    return out


def exit_code_for(results: Sequence[PhotoResult]) -> ExitCode:
    """10 if the scan of some photo hit a bug, else 3 if any photo (or a sheet
    in it) could not be read, else 1 if any sheet needs review or is invalid,
    else 0."""
    codes = {r.exit_code for r in results}
    for code in (ExitCode.internal, ExitCode.bad_input, ExitCode.rule_problem):
        if code in codes:
            return code
    return ExitCode.ok


def game_exit_code(results: Sequence[PhotoResult], board: Scoreboard) -> ExitCode:
    """As :func:`exit_code_for`, but 1 is decided by the game: a player's
    sheet that is not ok, or a game warning. A second photo of a sheet
    (counted once) does not count; its best reading does."""
    codes = {r.exit_code for r in results}
    for code in (ExitCode.internal, ExitCode.bad_input):
        if code in codes:
            return code
    if board.warnings or any(p.status != "ok" for p in board.players):
        return ExitCode.rule_problem
    return ExitCode.ok


@click.command("scan")
@click.argument("photos", nargs=-1, required=True, type=click.Path(dir_okay=True))
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON (INTERFACES.md).")
@click.option("--overlay", "overlay_dir", metavar="DIR", type=click.Path(file_okay=False),
              help="Write one PNG per sheet into DIR: the flattened sheet with each box "
                   "outlined by its reading, and the score.")
@click.option("--game", "as_game", is_flag=True,
              help="Every sheet in the photos is one game: print a scoreboard ranked by "
                   "total, with the game's rule warnings.")
@click.option("--jobs", "-j", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Photos scanned at once (processes).")
@click.option("--layout", "layout_files", metavar="FILE", multiple=True,
              help="A layout YAML file the sheets may be printed from, besides the built-in "
                   "layouts (repeatable).")
def scan_command(photos: tuple[str, ...], as_json: bool, overlay_dir: str | None,
                 as_game: bool, jobs: int, layout_files: tuple[str, ...]) -> None:
    """Read photographed score sheets and score them.

    PHOTO is a JPEG, PNG or HEIC photo (WebP, TIFF and BMP too), or a PDF
    from a scanner (every page is read), or a folder: every such file in it,
    by name. A photo may hold several sheets. Each sheet is identified by
    the code printed on it, read box by box and scored with the rules; a box
    the reader cannot decide is reported as uncertain and the sheet is sent
    to review, never guessed.

    \b
    Status per sheet:
      ok       read with confidence, no rule broken
      review   a box is uncertain or a rule warning: a person should look
      invalid  a rule error: not a legal finished sheet (often a misread box)

    With --game, every sheet found in all the photos is one player's sheet
    of one game (one photo of the whole table works, or one photo per
    player): after the sheets comes a scoreboard ranked by total, ties
    sharing a rank, each sheet's status, and the game warnings (two players
    on one letter, mixed variants, more than 3 locked colours, a game that
    may not have ended, more than 5 players). A sheet photographed twice
    (same letter, same marks, two photos) counts once, with a note. While a
    sheet is not ok or could not be read, the ranking is provisional.
    With --json the output is {"photos": [...], "game": {"players": [...],
    "warnings": [...]}}.

    \b
    Exit codes:
      0  every sheet read with status ok (--game: and no game warning)
      1  some sheet needs review or is invalid (--game: some player's
         sheet, or a game warning)
      3  some photo (or a sheet in it) could not be read: not an image,
         empty or truncated, no sheet found, sheet cut off, unknown layout;
         3 wins over 1, since a photo must be taken again first
     10  an internal error on some photo (a bug; the others are still read)

    \b
    Each kind of sheet's blank is kept in ~/.cache/qwixx (or
    $XDG_CACHE_HOME/qwixx, or $QWIXX_CACHE_DIR; QWIXX_CACHE_DIR=off: not
    kept), so that later runs start at once.
    """
    if overlay_dir is not None:
        try:
            Path(overlay_dir).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot create the overlay folder {overlay_dir} ({exc.strerror})") \
                from None
    known_layouts(layout_files)  # a bad --layout file stops here, before any photo
    quiet_opencv()
    one_blas_thread()
    results: list[PhotoResult] = []
    photos = tuple(expand_folders(photos))
    stream = scan_all(list(photos), layout_files, jobs=jobs, overlay_dir=overlay_dir)
    if sys.stderr.isatty() and len(photos) > 1:
        with click.progressbar(stream, length=len(photos), label="scanning",
                               file=sys.stderr) as bar:
            results.extend(bar)
    else:
        results.extend(stream)
    if as_game:
        board = scoreboard(results)
        if as_json:
            click.echo(game_json(results, board))
        else:
            places = {(r.file, r.sheet): r.where for p in board.players
                      for r in (p.reading, *p.duplicates) if r.where}
            click.echo(results_table(results, places=places) + "\n" + game_table(board), nl=False)
        click.get_current_context().exit(int(game_exit_code(results, board)))
    if as_json:
        click.echo(results_json(results))
    else:
        click.echo(results_table(results), nl=False)
    click.get_current_context().exit(int(exit_code_for(results)))


def register(group: click.Group) -> None:
    """Add ``qwixx scan`` to the ``qwixx`` command group."""
    group.add_command(scan_command)
