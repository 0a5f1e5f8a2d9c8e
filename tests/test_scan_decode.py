"""Reading photo files: formats, orientation, and every bad file a user can give."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image
from scan_support import flat_sheet, photo, placement, write_jpeg

from qwixx_print.errors import PhotoError
from qwixx_print.layout import load_layout
from qwixx_scan.decode import HALF_SIZE_FROM_PX, MAX_PIXELS, load_pictures
from qwixx_scan.pipeline import scan_photo

RESOURCES = Path(__file__).parent / "resources" / "scan"
SHEET = load_layout("kettingen").sheet("C")
CROSSES = ("red-5", "yellow-5", "blue-8", "penalty-1")
SIZE = (1800, 1350)


@pytest.fixture(scope="module")
def picture() -> np.ndarray:
    h = placement(SHEET, SIZE, centre=(900, 675), width_px=1400, angle_deg=-8, tilt=0.1)
    return photo(SIZE, [(flat_sheet(SHEET, CROSSES), h)], seed=3)


@pytest.fixture(scope="module")
def phone_picture(picture) -> np.ndarray:
    """``picture`` as big as a phone photo's long side must be for the
    half-size first decode (HALF_SIZE_FROM_PX), the path 8-12 MP photos take."""
    factor = HALF_SIZE_FROM_PX / SIZE[0] * 1.05
    return cv2.resize(picture, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)


def _read_ok(result) -> None:
    assert result.error is None, result.error
    [sheet] = result.sheets
    assert (sheet.sheet.layout, sheet.sheet.letter) == ("kettingen", "C")
    assert sorted(sheet.marked) == sorted(CROSSES)


def test_png(tmp_path, picture, known):
    path = tmp_path / "sheet.png"
    cv2.imwrite(str(path), picture)
    _read_ok(scan_photo(path, layouts=known))


@pytest.mark.parametrize("name, save", [
    # a flatbed scanner's grey mode, a phone's black-and-white filter
    ("grey.jpg", lambda path, im: cv2.imwrite(path, cv2.cvtColor(im, cv2.COLOR_BGR2GRAY))),
    ("grey16.png", lambda path, im: cv2.imwrite(
        path, cv2.cvtColor(im, cv2.COLOR_BGR2GRAY).astype(np.uint16) * 257)),
    ("colour16.png", lambda path, im: cv2.imwrite(path, im.astype(np.uint16) * 257)),
    ("alpha.png", lambda path, im: cv2.imwrite(path, cv2.cvtColor(im, cv2.COLOR_BGR2BGRA))),
    # print-minded editors save CMYK JPEGs
    ("cmyk.jpg", lambda path, im: Image.fromarray(im[:, :, ::-1]).convert("CMYK").save(
        path, quality=92)),
    # photos shared from some phones and apps, a flatbed scanner's TIFF or BMP
    ("shared.webp", lambda path, im: cv2.imwrite(path, im, [cv2.IMWRITE_WEBP_QUALITY, 90])),
    ("scan.tiff", lambda path, im: cv2.imwrite(path, im)),
    ("scan.bmp", lambda path, im: cv2.imwrite(path, im)),
])
def test_grey_cmyk_16_bit_and_alpha_pictures(tmp_path, picture, known, name, save):
    path = str(tmp_path / name)
    save(path, picture)
    _read_ok(scan_photo(path, layouts=known))


#: How each EXIF orientation stores an upright picture (what a phone writes).
STORED = {2: lambda im: im[:, ::-1], 3: lambda im: cv2.rotate(im, cv2.ROTATE_180),
          6: lambda im: cv2.rotate(im, cv2.ROTATE_90_COUNTERCLOCKWISE),
          8: lambda im: cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE)}


@pytest.fixture(scope="module")
def upright_corners(tmp_path_factory, phone_picture, known) -> np.ndarray:
    path = tmp_path_factory.mktemp("upright") / "upright.jpg"
    Image.fromarray(phone_picture[:, :, ::-1]).save(path, quality=90)
    [sheet] = scan_photo(path, layouts=known).sheets
    return np.float64(sheet.corners_px)


@pytest.mark.parametrize("orientation", [3, 6, 8, 2])
def test_jpeg_exif_orientation_is_honoured(tmp_path, phone_picture, known, upright_corners,
                                           orientation):
    # Stored turned (or mirrored), with the EXIF orientation that says how to view it.
    pil = Image.fromarray(np.ascontiguousarray(STORED[orientation](phone_picture))[:, :, ::-1])
    exif = pil.getexif()
    exif[0x0112] = orientation
    path = tmp_path / "phone.jpg"
    pil.save(path, quality=90, exif=exif)
    [decoded] = load_pictures(path)
    # Seen upright: landscape like the original picture (half size, JPEG fast path).
    height, width = phone_picture.shape[:2]
    assert decoded.upright().shape[:2] == (height // 2, width // 2)
    assert decoded.full().shape[:2] == tuple(2 * n for n in decoded.image.shape[:2])
    result = scan_photo(path, layouts=known)
    _read_ok(result)
    # The sheet's corners are reported in the upright picture, as a viewer shows it.
    assert np.abs(np.float64(result.sheets[0].corners_px) - upright_corners).max() < 1.5


def test_turned_jpeg_is_read_as_stored_with_points_turned_upright(tmp_path, picture):
    # Turning the pixels costs as much as the rest of the decode: a turned
    # photo is kept as stored and only the points are turned.
    pil = Image.fromarray(np.ascontiguousarray(STORED[6](picture))[:, :, ::-1])
    exif = pil.getexif()
    exif[0x0112] = 6
    path = tmp_path / "phone.jpg"
    pil.save(path, quality=90, exif=exif)
    [decoded] = load_pictures(path)
    assert decoded.turn == 6 and decoded.image.shape[0] > decoded.image.shape[1]
    height, width = picture.shape[:2]
    stored = np.float64([[0, 0], [height - 1, 0], [10, 20]])  # stored: height x width turned
    assert decoded.upright_points(stored).tolist() == [[width - 1, 0], [width - 1, height - 1],
                                                       [width - 1 - 20, 10]]


def test_heic(known):
    # A fixture file: encoding HEVC in the test would take many seconds.
    result = scan_photo(RESOURCES / "kettingen-C.heic", layouts=known)
    _read_ok(result)


def test_pdf_pages_are_photos(tmp_path, picture, known):
    path = tmp_path / "scan.pdf"
    pages = [Image.fromarray(picture[:, :, ::-1]), Image.new("RGB", (800, 600), "white")]
    pages[0].save(path, save_all=True, append_images=pages[1:], resolution=200)
    assert len(load_pictures(path)) == 2
    result = scan_photo(path, layouts=known)
    _read_ok(result)
    assert result.sheets[0].page == 1
    assert result.to_json()["sheets"][0]["page"] == 1
    # The blank second page is reported, without hiding the sheet of page 1.
    assert any("page 2" in p and "no sheet found" in p for p in result.problems)


@pytest.mark.parametrize("content, message", [
    (b"", "the file is empty"),
    (b"hello, this is a text file\n", "not an image"),
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, "damaged"),
])
def test_bad_files_say_what_is_wrong(tmp_path, known, content, message):
    path = tmp_path / "bad.jpg"
    path.write_bytes(content)
    with pytest.raises(PhotoError, match=message):
        load_pictures(path)
    result = scan_photo(path, layouts=known)
    assert result.sheets == [] and message in result.error


def test_truncated_jpeg(tmp_path, picture, known):
    ok, data = cv2.imencode(".jpg", picture)
    path = tmp_path / "cut.jpg"
    path.write_bytes(data.tobytes()[: len(data) * 2 // 3])
    result = scan_photo(path, layouts=known)
    assert result.sheets == []
    assert "truncated" in result.error


def test_truncated_png(tmp_path, picture, known):
    ok, data = cv2.imencode(".png", picture)
    path = tmp_path / "cut.png"
    path.write_bytes(data.tobytes()[: len(data) // 2])
    result = scan_photo(path, layouts=known)
    assert result.sheets == []
    assert "damaged or truncated" in result.error


def test_missing_file_and_folder(tmp_path, known):
    assert "no such file" in scan_photo(tmp_path / "nope.jpg", layouts=known).error
    assert "is a folder" in scan_photo(tmp_path, layouts=known).error


def test_huge_image_is_refused_before_decoding(tmp_path, known):
    # 8000 x 6500 = 52 megapixels; a 1-bit PNG of it is small on disk.
    path = tmp_path / "huge.png"
    Image.new("1", (8000, 6500), 1).save(path)
    assert 8000 * 6500 > MAX_PIXELS
    result = scan_photo(path, layouts=known)
    assert result.sheets == []
    assert "52.0 megapixels" in result.error and "smaller" in result.error


def test_a_50_megapixel_camera_picture_is_read(tmp_path, known):
    # "50 MP" phones save 8192 x 6144 (50.3 million pixels): decoded and
    # looked at like any photo (a blank page: no sheet in it).
    path = tmp_path / "camera.png"
    Image.new("1", (8192, 6144), 1).save(path)
    result = scan_photo(path, layouts=known)
    assert "no sheet found" in result.error and "megapixels" not in result.error


def test_huge_pdf_page_is_refused(tmp_path, known):
    # A 1 x 1 m page would be 140 megapixels at 300 dpi.
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(2834, 2834))
    c.showPage()
    c.save()
    path = tmp_path / "poster.pdf"
    path.write_bytes(buffer.getvalue())
    result = scan_photo(path, layouts=known)
    assert "megapixels" in result.error


def test_a_phone_sized_jpeg_decodes_at_half_size_first(tmp_path, phone_picture):
    path = tmp_path / "p.jpg"
    write_jpeg(path, phone_picture)
    [decoded] = load_pictures(path)
    assert decoded.scale == 0.5
    assert decoded.image.shape[:2] == (phone_picture.shape[0] // 2, phone_picture.shape[1] // 2)


def test_a_small_jpeg_decodes_at_full_size(tmp_path, picture):
    # A photo shrunk by a messaging app: its half would lose the markers.
    path = tmp_path / "p.jpg"
    write_jpeg(path, picture)
    [decoded] = load_pictures(path)
    assert decoded.scale == 1.0
    assert decoded.image.shape[:2] == picture.shape[:2]


def test_huge_jpeg_is_refused_before_decoding(tmp_path, known):
    # 8000 x 6500 = 52 megapixels; one colour, so small on disk.
    path = tmp_path / "huge.jpg"
    Image.new("RGB", (8000, 6500), (250, 250, 250)).save(path, quality=50)
    result = scan_photo(path, layouts=known)
    assert result.sheets == []
    assert "8000 x 6500" in result.error and "52.0 megapixels" in result.error


def test_jpeg_size_read_past_big_metadata_segments(tmp_path, phone_picture):
    # Phones put EXIF (with a thumbnail), ICC profiles and XMP before the
    # frame header, and a marker may be preceded by fill bytes.
    from qwixx_scan.decode import _header_size

    picture = phone_picture
    ok, data = cv2.imencode(".jpg", picture)
    data = data.tobytes()
    segments = b"".join(b"\xff" + bytes([code]) + (len(body) + 2).to_bytes(2, "big") + body
                        for code, body in ((0xE1, b"Exif\x00\x00" + bytes(60000)),
                                           (0xE2, b"ICC_PROFILE\x00" + bytes(3000)),
                                           (0xE1,
                                            b"http://ns.adobe.com/xap/1.0/\x00" + bytes(500))))
    path = tmp_path / "phone.jpg"
    path.write_bytes(data[:2] + segments + b"\xff\xff" + data[2:])
    height, width = picture.shape[:2]
    assert _header_size(path, "jpeg") == (width, height)
    with Image.open(path) as im:
        assert im.size == (width, height)
    [decoded] = load_pictures(path)
    assert decoded.image.shape[:2] == (height // 2, width // 2)


def test_jpeg_pixels_are_those_opencv_decodes(tmp_path, phone_picture):
    # The reader's thresholds were measured on OpenCV's pixels: the faster
    # decoder must give exactly those, at half size and at full size.
    path = tmp_path / "p.jpg"
    write_jpeg(path, phone_picture)
    [decoded] = load_pictures(path)
    assert np.array_equal(decoded.image, cv2.imread(str(path), cv2.IMREAD_REDUCED_COLOR_2))
    assert np.array_equal(decoded.full(), cv2.imread(str(path)))


def test_jpeg_with_damage_libjpeg_only_warns_about_is_read(tmp_path, picture, known):
    # Stray bytes before the end-of-image marker: simplejpeg refuses the
    # file, OpenCV's decoder reads it with a warning, and so does the scan.
    ok, data = cv2.imencode(".jpg", picture)
    data = data.tobytes()
    path = tmp_path / "damaged.jpg"
    path.write_bytes(data[:-2] + bytes(40) + data[-2:])
    [decoded] = load_pictures(path)
    assert np.array_equal(decoded.image, cv2.imread(str(path)))
    _read_ok(scan_photo(path, layouts=known))
