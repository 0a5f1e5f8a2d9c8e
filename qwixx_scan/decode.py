"""Reading photo files into images: JPEG, PNG, HEIC/HEIF and PDF pages.

Every image comes back as a :class:`Picture`: BGR uint8 pixels, x right,
y down. Decoding is most of the time a scan takes, so a JPEG is first
decoded at half size (libjpeg scales during the DCT, about twice as fast as
a full decode); the scanner asks for the full-size pixels only when the
sheet is too small in the half size picture (see :meth:`Picture.full`).
A small JPEG (a photo shrunk by a messaging app) is decoded at full size
straight away: its half would be too coarse to find the markers in (see
HALF_SIZE_FROM_PX).
JPEGs are decoded by libjpeg-turbo through simplejpeg where it can (see
:func:`_decode_jpeg`): the same pixels as OpenCV's decoder, sooner.
A JPEG that its EXIF orientation says to turn (a phone held upright or
upside down) is left as stored: the scanner finds sheets at any turn, and
turning the pixels took as long as the rest of the decode; the points it
reports are turned instead (:meth:`Picture.upright_points`). Mirrored
orientations, and other formats, come back upright.

Errors a user can cause (missing, empty, truncated, not an image, too big)
raise :class:`~qwixx_print.errors.PhotoError` with a message that says what
to do next.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from qwixx_print.errors import PhotoError

#: The largest picture we decode (MAX_PIXELS in all): 50 megapixels as cameras count
#: them (a "50 MP" phone saves 8160 x 6120 or 8192 x 6144, 50.3 million).
#: Bigger files are refused before decoding so that a huge image cannot
#: exhaust memory (a 50-megapixel PNG, decoded at full size, peaks at 350 MB).
MAX_SIZE = (8192, 6144)
MAX_PIXELS = MAX_SIZE[0] * MAX_SIZE[1]
#: Resolution at which PDF pages (flatbed scans) are rasterized.
PDF_DPI = 300
#: A JPEG is decoded at half size first only if it is at least this many px
#: on its long side: half of it is then at least as big as the copy markers
#: are looked for in (find.DETECT_LONG_SIDE_PX, 1280). Below that the half
#: loses markers that the full size shows: of 150 independent photos shrunk
#: to 800 px on the long side (as messaging apps send them), 8 sheets went
#: unread at half size and 1 at full size; at 1,000 px 2 and 0 (1,600 px:
#: 0 of 150 either way; 1,600 px tables: 2 of 134 and 0).
HALF_SIZE_FROM_PX = 2560

_HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif")


@dataclass
class Picture:
    """One decoded picture (a photo, or one page of a PDF).

    ``image`` holds the pixels at ``scale`` times the full size (1.0 or 0.5);
    :meth:`full` decodes the full-size pixels when ``image`` is reduced.
    ``page`` is the 1-based PDF page number of ``pages``, None for photos.
    ``turn``: the EXIF orientation (1, 3, 6 or 8) still to apply to see the
    pixels upright; 1 for pixels already upright. ``stored_size``: width
    and height of the full-size pixels as stored.
    """

    path: Path
    image: np.ndarray
    scale: float = 1.0
    page: int | None = None
    pages: int | None = None
    turn: int = 1
    stored_size: tuple[int, int] | None = None
    _full: np.ndarray | None = field(default=None, repr=False)
    #: The JPEG's pixels are wanted as stored (its EXIF orientation, if any,
    #: turns and is left to ``turn``): simplejpeg may decode them.
    _as_stored_jpeg: bool = field(default=False, repr=False)

    def full(self) -> np.ndarray:
        """The full-size BGR pixels (decoded again if ``image`` is reduced),
        turned like ``image``."""
        if self.scale == 1.0:
            return self.image
        if self._full is None:
            flags = cv2.IMREAD_COLOR | (cv2.IMREAD_IGNORE_ORIENTATION if self.turn != 1 else 0)
            full = (_decode_jpeg(self.path, self.stored_size, half=False)
                    if self._as_stored_jpeg else None)
            if full is None:
                full = cv2.imread(str(self.path), flags)
            if full is None:
                raise PhotoError(f"{self.path}: the image could not be decoded at full size")
            self._full = full
        return self._full

    def upright_points(self, points: np.ndarray) -> np.ndarray:
        """Points (n x 2, px of the full-size pixels as stored) where they are
        in the upright picture, the way a photo viewer shows it."""
        points = np.asarray(points, np.float64).reshape(-1, 2)
        if self.turn == 1:
            return points.copy()
        width, height = self.stored_size  # set wherever turn is not 1
        x, y = points[:, 0], points[:, 1]
        if self.turn == 3:  # turned half round
            return np.column_stack([width - 1 - x, height - 1 - y])
        if self.turn == 6:  # stored turned a quarter anticlockwise
            return np.column_stack([height - 1 - y, x])
        return np.column_stack([y, width - 1 - x])  # 8: a quarter clockwise

    def upright(self) -> np.ndarray:
        """``image`` turned upright (see ``turn``)."""
        return _TURN_UPRIGHT[self.turn](self.image)


_TURN_UPRIGHT = {1: lambda image: image,
                 3: lambda image: cv2.rotate(image, cv2.ROTATE_180),
                 6: lambda image: cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE),
                 8: lambda image: cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)}


#: File name endings of the files taken as photos from a folder: every kind
#: the decoder reads (a phone's JPEG, HEIC or WebP, a scanner's TIFF, BMP or PDF).
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".heic", ".heif", ".webp", ".tif", ".tiff", ".bmp",
                  ".pdf")
#: How messages name them.
PHOTO_KINDS = "JPEG, PNG, HEIC, WebP, TIFF, BMP or PDF"


def photos_in_folder(folder: str | Path) -> list[Path]:
    """The photo files directly in ``folder`` (by their ending, any case),
    sorted by name; other files and subfolders are left alone."""
    return sorted((p for p in Path(folder).iterdir()
                   if p.is_file() and p.suffix.lower() in PHOTO_SUFFIXES),
                  key=lambda p: p.name.lower())


def load_pictures(path: str | Path) -> list[Picture]:
    """All pictures of a file at once (see :func:`iter_pictures`)."""
    return list(iter_pictures(path))


def iter_pictures(path: str | Path) -> Iterator[Picture]:
    """Decode a photo file (or each page of a PDF, one at a time, so a long
    scan never holds all its pages in memory) into upright pictures.

    Raises PhotoError for missing, empty, truncated, non-image or oversized files.
    """
    path = Path(path)
    if not path.exists():
        raise PhotoError(f"{path}: no such file; check the path")
    if path.is_dir():
        if not photos_in_folder(path):
            raise PhotoError(f"{path}: is a folder with no photos in it ({PHOTO_KINDS} "
                             "files); check the path")
        raise PhotoError(f"{path}: is a folder; give the photo files inside it")
    try:
        with path.open("rb") as handle:
            head = handle.read(32)
    except OSError as exc:
        raise PhotoError(f"{path}: cannot be read ({exc.strerror}); "
                         "check its permissions") from None
    if not head:
        raise PhotoError(f"{path}: the file is empty (0 bytes); copy the photo again")
    kind = _sniff(head)
    if kind is None:
        raise PhotoError(f"{path}: not an image (expected a {PHOTO_KINDS} file)")
    if kind == "pdf":
        yield from _iter_pdf(path)
    elif kind == "heif":
        yield _load_heif(path)
    else:
        yield _load_raster(path, kind)


def _sniff(head: bytes) -> str | None:
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"%PDF"):
        return "pdf"
    if head[4:8] == b"ftyp" and head[8:12] in _HEIF_BRANDS:
        return "heif"
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return "tiff"
    if head.startswith(b"BM"):
        return "bmp"
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "webp"
    return None


def _check_size(path: Path, width: int, height: int, what: str = "the picture") -> None:
    if width * height > MAX_PIXELS:
        raise PhotoError(
            f"{path}: {what} is {width} x {height} pixels ({width * height / 1e6:.1f} megapixels), "
            f"more than the 50 megapixels qwixx reads ({MAX_SIZE[0]} x {MAX_SIZE[1]}); "
            "save it at a smaller size and scan that"
        )


def _header_size(path: Path, kind: str) -> tuple[int, int]:
    """Width and height (as stored) from the file header, no pixels decoded."""
    return _header(path, kind)[0]


def _header(path: Path, kind: str) -> tuple[tuple[int, int], int]:
    """Width and height (as stored) and the EXIF orientation (1 where none is
    found) from the file header, no pixels decoded. JPEG and PNG headers are
    read here (Pillow takes 0.1 s to import, as long as the rest of a scan);
    other formats, or a header not understood, by Pillow."""
    orientation = 1
    try:
        with path.open("rb") as handle:
            if kind == "jpeg":
                size, orientation = _jpeg_header(handle)
            else:
                size = _png_size(handle) if kind == "png" else None
    except OSError:
        size = None
    return size or _pillow_header_size(path), orientation


#: JPEG frame headers (start of frame, any coding): they hold the size.
_SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
#: Markers that stand alone, without a length: TEM, RST0-7, SOI.
_BARE_MARKERS = frozenset([0x01, *range(0xD0, 0xD9)])


def _jpeg_header(handle) -> tuple[tuple[int, int] | None, int]:
    """(width, height) from a JPEG's frame header, None if not found before
    the image data starts (then Pillow decides); and the EXIF orientation
    of the first Exif segment before it (1 where there is none)."""
    orientation = None
    if handle.read(2) != b"\xff\xd8":
        return None, 1
    while True:
        byte = handle.read(1)
        if byte != b"\xff":
            return None, orientation or 1
        marker = handle.read(1)
        while marker == b"\xff":  # fill bytes before a marker
            marker = handle.read(1)
        if not marker:
            return None, orientation or 1
        code = marker[0]
        if code in _BARE_MARKERS:
            continue
        length = handle.read(2)
        if len(length) < 2 or code == 0xDA:  # the scan starts: no frame header seen
            return None, orientation or 1
        body = int.from_bytes(length, "big") - 2
        if code in _SOF_MARKERS:
            frame = handle.read(5)
            if len(frame) < 5:
                return None, orientation or 1
            height, width = int.from_bytes(frame[1:3], "big"), int.from_bytes(frame[3:5], "big")
            return ((width, height) if width and height else None), orientation or 1
        if code == 0xE1 and orientation is None:
            segment = handle.read(body)
            if segment.startswith(b"Exif\x00\x00"):
                orientation = _exif_orientation(segment[6:])
            continue
        handle.seek(body, io.SEEK_CUR)


def _exif_orientation(tiff: bytes) -> int:
    """The orientation tag (0x0112) of an Exif block's first image directory; 1 if absent."""
    order = {b"II": "little", b"MM": "big"}.get(tiff[:2])
    if order is None or len(tiff) < 8:
        return 1
    at = int.from_bytes(tiff[4:8], order)
    count = int.from_bytes(tiff[at:at + 2], order) if at + 2 <= len(tiff) else 0
    for entry in range(at + 2, min(at + 2 + 12 * count, len(tiff) - 11), 12):
        if int.from_bytes(tiff[entry:entry + 2], order) == 0x0112:
            value = int.from_bytes(tiff[entry + 8:entry + 10], order)
            return value if 1 <= value <= 8 else 1
    return 1


def _png_size(handle) -> tuple[int, int] | None:
    head = handle.read(24)
    if len(head) < 24 or head[12:16] != b"IHDR":
        return None
    width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    return (width, height) if width and height else None


def _pillow_header_size(path: Path) -> tuple[int, int]:
    """Width and height from the file header (Pillow reads no pixels here)."""
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = None  # we enforce MAX_PIXELS ourselves, with a better message
    try:
        with Image.open(path) as im:
            return im.size
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise PhotoError(f"{path}: the image header is damaged; the file is not a readable "
                         "image (copy the photo again)") from None


def _jpeg_is_complete(path: Path) -> bool:
    """True if the JPEG data ends with its end-of-image marker.

    Phones may append data after the image (e.g. motion photos), so a missing
    marker at the very end is checked by a full Pillow decode instead.
    """
    size = path.stat().st_size
    with path.open("rb") as handle:
        handle.seek(max(0, size - 64))
        tail = handle.read().rstrip(b"\x00\r\n ")
    if tail.endswith(b"\xff\xd9"):
        return True
    from PIL import Image, ImageFile

    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with Image.open(path) as im:
            im.load()
    except (OSError, SyntaxError, ValueError):
        return False
    return True


def _load_raster(path: Path, kind: str) -> Picture:
    (width, height), orientation = _header(path, kind)
    _check_size(path, width, height)
    if kind == "jpeg":
        if not _jpeg_is_complete(path):
            raise PhotoError(f"{path}: the JPEG file is truncated (the end of the image is "
                             "missing); copy the photo again")
        # Half size first: enough for most photos, and twice as fast to decode.
        # Turned as stored (see the module's note); mirrored ones upright.
        turn = orientation if orientation in _TURN_UPRIGHT else 1
        half = max(width, height) >= HALF_SIZE_FROM_PX
        flags = ((cv2.IMREAD_REDUCED_COLOR_2 if half else cv2.IMREAD_COLOR)
                 | (cv2.IMREAD_IGNORE_ORIENTATION if turn != 1 else 0))
        # mirrored orientations are applied by OpenCV's decoder
        as_stored = orientation == turn
        image = _decode_jpeg(path, (width, height), half=half) if as_stored else None
        if image is None:
            image = cv2.imread(str(path), flags)
        if image is None:
            raise PhotoError(f"{path}: the JPEG data is damaged and cannot be decoded; "
                             "copy the photo again")
        return Picture(path, image, scale=0.5 if half else 1.0, turn=turn,
                       stored_size=(width, height), _as_stored_jpeg=as_stored)
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise PhotoError(f"{path}: the {kind.upper()} data is damaged or truncated and cannot "
                         "be decoded; copy the file again")
    return Picture(path, image)


def _decode_jpeg(path: Path, stored_size: tuple[int, int], *, half: bool) -> np.ndarray | None:
    """A JPEG's BGR pixels as stored (EXIF orientation not applied;
    ``stored_size``: width and height from its header), at half size where
    ``half``, decoded by libjpeg-turbo through simplejpeg; None
    where it declines (damage libjpeg only warns about, which it refuses),
    for OpenCV's decoder to try. Grey and CMYK JPEGs come out as OpenCV's.

    OpenCV decodes with libjpeg-turbo as well and gives the very same pixels
    (tests/test_scan_decode.py holds the two to it: the reader's thresholds
    were measured on them), but spends longer around the library: on 400
    independent photos of 8-12 MP, every one decoded alike, the half size
    took 10-15 % less time and the full size 35-40 % less.
    """
    try:
        import simplejpeg

        width, height = stored_size
        # libjpeg scales by 1/2 where that still covers the sizes asked for
        return simplejpeg.decode_jpeg(path.read_bytes(), colorspace="BGR",
                                      min_height=height // 2 if half else height,
                                      min_width=width // 2 if half else width)
    except (ImportError, ValueError, OSError):
        return None


def _load_heif(path: Path) -> Picture:
    import pillow_heif
    from PIL import ImageOps

    try:
        heif = pillow_heif.open_heif(str(path), convert_hdr_to_8bit=True)
        _check_size(path, *heif.size)
        pil = heif.to_pillow()
        if pil.mode != "RGB":
            pil = pil.convert("RGB")
        # pillow-heif hands the EXIF over; orientation is applied like a viewer does.
        pil = ImageOps.exif_transpose(pil) or pil
    except PhotoError:
        raise
    except Exception as exc:  # pillow-heif raises plain ValueError/RuntimeError on bad data
        raise PhotoError(f"{path}: the HEIC file cannot be decoded ({exc}); copy it again or "
                         "export it as JPEG") from None
    image = np.ascontiguousarray(np.asarray(pil)[:, :, ::-1])
    return Picture(path, image)


def _iter_pdf(path: Path) -> Iterator[Picture]:
    import pypdfium2 as pdfium

    try:
        data = path.read_bytes()
        document = pdfium.PdfDocument(io.BytesIO(data))
    except Exception as exc:  # pdfium raises PdfiumError for damaged files
        raise PhotoError(f"{path}: the PDF file is damaged and cannot be opened ({exc}); "
                         "save the scan again") from None
    try:
        if len(document) == 0:
            raise PhotoError(f"{path}: the PDF has no pages")
        zoom = PDF_DPI / 72.0
        for index in range(len(document)):
            page = document[index]
            width_pt, height_pt = page.get_size()
            width, height = round(width_pt * zoom), round(height_pt * zoom)
            _check_size(path, width, height, what=f"page {index + 1} at {PDF_DPI} dpi")
            bitmap = page.render(scale=zoom, rev_byteorder=False)
            array = bitmap.to_numpy()
            if array.ndim == 2:
                image = cv2.cvtColor(array, cv2.COLOR_GRAY2BGR)
            else:
                image = np.ascontiguousarray(array[:, :, :3])  # pdfium renders BGR(A)
            yield Picture(path, image, page=index + 1, pages=len(document))
    finally:
        document.close()
