"""Image bombs and formats: what a stranger's file can cost before it is refused, and that a
phone's photo still reads (reduced, fast). The bombs are made here, byte by byte."""

from __future__ import annotations

import io
import os
import resource
import struct
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from vision.imageio import (MAX_PIXELS, ImageError, check_image, load_image,  # noqa: E402
                            open_image)
from vision.synth import render_table  # noqa: E402

from tests.conftest import REPO
from tests.vision.bombs import app_padding, jpeg_bomb, png_bomb, small_jpeg, tiff_bomb, with_size


def test_the_bombs_are_real():
    """The TIFF and PNG builders make files a decoder accepts (small versions decode white and
    black); the JPEG's padding is legal and its frame header is found behind it."""
    white = cv2.imdecode(np.frombuffer(tiff_bomb(64, 200), np.uint8), cv2.IMREAD_GRAYSCALE)
    assert white.shape == (200, 64) and white.min() == 255
    black = cv2.imdecode(np.frombuffer(png_bomb(64, 200), np.uint8), cv2.IMREAD_GRAYSCALE)
    assert black.shape == (200, 64) and black.max() == 0
    padded = small_jpeg()[:2] + app_padding() + small_jpeg()[2:]
    assert cv2.imdecode(np.frombuffer(padded, np.uint8), cv2.IMREAD_COLOR).shape == (16, 16, 3)
    assert 9_000 < len(tiff_bomb()) < 25_000 and 100_000 < len(png_bomb()) < 120_000
    assert (1 << 20) < len(jpeg_bomb()) < (1 << 20) + 70_000


@pytest.fixture(scope="module")
def bombs(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("bombs")
    files = {"tiff": d / "bomb.tif", "jpeg": d / "padded.jpg", "png": d / "bomb.png"}
    files["tiff"].write_bytes(tiff_bomb())
    files["jpeg"].write_bytes(jpeg_bomb())
    files["png"].write_bytes(png_bomb())
    return files


def _run_limited(args: list[str], tmp: Path, max_bytes: int) -> tuple[int, str, float, float]:
    """Run a command with its address space capped; returns (exit code, stderr, wall seconds,
    peak resident memory in MB)."""
    err = tmp / "stderr.txt"

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (max_bytes, max_bytes))

    t0 = time.perf_counter()
    with open(err, "w") as ferr:
        proc = subprocess.Popen(args, cwd=REPO, stdout=subprocess.DEVNULL, stderr=ferr,
                                preexec_fn=cap)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, err.read_text(), time.perf_counter() - t0, usage.ru_maxrss / 1024


def test_the_issues_bombs_get_one_line_each_and_exit_1_without_gigabytes(bombs, tmp_path):
    """`rummiref read` on the three files of the report: one line each, exit 1, and the whole
    process (models loaded) stays far below the gigabytes that decoding them would take."""
    code, err, wall, peak_mb = _run_limited(
        [sys.executable, "-m", "referee", "read", str(bombs["tiff"]), str(bombs["jpeg"]),
         str(bombs["png"])], tmp_path, 3 << 30)
    lines = err.strip().splitlines()
    assert code == 1, err
    assert len(lines) == 3 and "Traceback" not in err, err
    assert str(bombs["tiff"]) in lines[0] and "a TIFF file; send a JPEG, PNG or WebP" in lines[0]
    assert str(bombs["jpeg"]) in lines[1] and "900 megapixels" in lines[1]
    assert str(bombs["png"]) in lines[2] and "900 megapixels" in lines[2]
    assert peak_mb < 400, f"peak memory {peak_mb:.0f} MB"
    assert wall < 60


@pytest.mark.parametrize("kind", ["tiff", "jpeg", "png"])
def test_each_bomb_is_refused_in_milliseconds(bombs, kind):
    data = bombs[kind].read_bytes()
    check_image(small_jpeg())  # Pillow's plugins loaded
    t0 = time.perf_counter()
    with pytest.raises(ImageError):
        open_image(data, kind)
    assert time.perf_counter() - t0 < 0.5


def test_a_frame_header_behind_padding_is_still_found():
    """Padding is no way round the size check: a small image behind 1 MB of padding reads, a
    large one behind it is refused by its size."""
    small = small_jpeg(40, 30)
    assert open_image(small[:2] + app_padding() + small[2:]).image.shape == (30, 40, 3)
    big = with_size(small, 9000, 6000)
    with pytest.raises(ImageError, match="9000x6000 pixels .54 megapixels.; the reader takes "
                                         "photos of up to 50 megapixels"):
        open_image(big[:2] + app_padding() + big[2:], "x.jpg")


def test_junk_bytes_before_the_frame_header_are_refused_quickly():
    """A megabyte of 0xFF fill bytes is legal JPEG that a header parser reads one byte at a
    time: refused after a few thousand, whatever size it hides."""
    small = small_jpeg()
    t0 = time.perf_counter()
    with pytest.raises(ImageError, match="padded with junk bytes"):
        check_image(small[:2] + b"\xff" * (1 << 20) + small[2:], "fill.jpg")
    assert time.perf_counter() - t0 < 0.2
    assert check_image(small[:2] + b"\xff" * 100 + small[2:]).width == 16  # a little is fine


def test_the_pixel_limit_is_exact():
    side = int(MAX_PIXELS ** 0.5)
    assert check_image(png_bomb(side, side)[:60]).width == side
    with pytest.raises(ImageError, match=f"{side + 1}x{side + 1} pixels"):
        check_image(png_bomb(side + 1, side + 1)[:60])


def _heic_header() -> bytes:
    return struct.pack(">I", 24) + b"ftypheic" + b"\x00\x00\x00\x00mif1heic" + b"\x00" * 64


@pytest.mark.parametrize("what, data", [
    ("a TIFF file", b"II*\x00" + b"\x00" * 100),
    ("a TIFF file", b"MM\x00*" + b"\x00" * 100),
    ("a GIF file", b"GIF89a" + b"\x01\x00\x01\x00" + b"\x00" * 100),
    ("a BMP file", b"BM" + b"\x00" * 100),
    ("a HEIC/HEIF or AVIF photo", _heic_header()),
    ("a PDF document", b"%PDF-1.7\n" + b"\x00\xff" * 50),
])
def test_only_what_a_phone_sends_is_accepted(what, data):
    with pytest.raises(ImageError, match=f"x: {what}; send a JPEG, PNG or WebP photo"):
        check_image(data, "x")


def test_gif_and_bmp_that_opencv_could_decode_are_still_refused():
    ok, bmp = cv2.imencode(".bmp", np.zeros((10, 10, 3), np.uint8))
    assert ok and cv2.imdecode(bmp, cv2.IMREAD_COLOR) is not None
    with pytest.raises(ImageError, match="a BMP file"):
        load_image(bmp.tobytes())


@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp"])
def test_jpeg_png_and_webp_read(ext):
    img = np.zeros((30, 40, 3), np.uint8)
    img[:, :20] = (0, 0, 255)
    ok, data = cv2.imencode(ext, img)
    pic = open_image(data.tobytes())
    assert pic.info.format == {".jpg": "JPEG", ".png": "PNG", ".webp": "WEBP"}[ext]
    assert pic.image.shape == (30, 40, 3) and pic.size == (40, 30) and pic.scale == 1.0
    assert pic.image[15, 5, 2] > 200 and pic.image[15, 35, 2] < 50


def test_the_cameras_orientation_is_applied_and_reported():
    from PIL import Image

    rgb = np.zeros((300, 400, 3), np.uint8)
    im = Image.fromarray(rgb)
    exif = im.getexif()
    exif[0x0112] = 6  # turned a quarter: stored 400x300, shown 300x400
    buf = io.BytesIO()
    im.save(buf, "JPEG", exif=exif.tobytes())
    pic = open_image(buf.getvalue())
    assert pic.info.width == 400 and pic.image.shape[:2] == (400, 300) and pic.size == (300, 400)


@pytest.fixture(scope="module")
def phone_photo() -> tuple[bytes, list]:
    """A 4032x3024 JPEG (a 12-megapixel phone photo) of a synthetic table, with its labels in
    its own pixels."""
    img, labels = render_table("R7 R8 R9 | K5 B5 O5 J | B10 B11 B12 B13", seed=4, size=(1008, 756),
                               classic=True, upside_down=0.0, angle=0.0)
    big = cv2.resize(img, (4032, 3024), interpolation=cv2.INTER_CUBIC)
    big = cv2.add(big, np.random.default_rng(1).integers(0, 8, big.shape, dtype=np.uint8))
    ok, jpg = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return jpg.tobytes(), [(t, c * 4) for t, c in labels]


def test_a_12_megapixel_phone_photo_decodes_at_half_size(phone_photo):
    data, _ = phone_photo
    pic = open_image(data, max_side=2048)
    assert pic.image.shape == (1512, 2016, 3) and pic.scale == 0.5 and pic.size == (4032, 3024)
    assert open_image(data).image.shape == (3024, 4032, 3)  # in full when asked
    # A photo just under twice the working size is not halved: it would lose too much.
    ok, jpg = cv2.imencode(".jpg", np.zeros((2000, 3000, 3), np.uint8))
    pic = open_image(jpg.tobytes(), max_side=2048)
    assert pic.image.shape == (1365, 2048, 3) and pic.scale == pytest.approx(2048 / 3000)


def test_a_12_megapixel_phone_photo_reads_in_its_own_pixels(phone_photo):
    from vision.reader import Reader

    data, labels = phone_photo
    reader = Reader()
    reader.read(data)
    t0 = time.perf_counter()
    reading = reader.read(data)
    elapsed = time.perf_counter() - t0
    assert str(reading.table) == "R7 R8 R9 | K5 B5 O5 J | B10 B11 B12 B13"
    assert reading.image_size == (4032, 3024)
    # Corners are in the photo's own pixels, not the reduced copy's.
    where = {str(t): c.mean(0) for t, c in labels}  # every tile is on the table once
    assert len(reading.tiles) == len(where)
    for tile in reading.tiles:
        assert np.abs(tile.corners.mean(0) - where[tile.tile]).max() < 40
    assert elapsed < 1.5  # bench/vision.py measures it: about 0.1-0.2 s
