"""Reading images safely: a clear message for every file that is not a usable photo.

Every path that turns bytes or a file into pixels goes through one function:

    open_image(source, name=None, *, max_side=None) -> Picture

``source`` is a path, bytes or an array. Only what a phone sends is accepted: JPEG, PNG and
WebP. The pixel size is read from the file's header (Pillow's lazy ``Image.open``, wherever in
the file the header sits) before anything is decoded, and an image over :data:`MAX_PIXELS` is
refused, so a small file that claims 30000x30000 pixels costs neither gigabytes nor seconds.
With ``max_side`` the picture comes back with its longer side at most that many pixels: a JPEG
is then decoded at 1/2, 1/4 or 1/8 scale by the JPEG decoder itself wherever that still keeps
nine tenths of ``max_side`` (a 12-megapixel phone photo decodes at half size, about twice as
fast). :class:`Picture` says how to map its pixels back to the whole image (``scale``).
Anything unusable raises :class:`ImageError` with one sentence that names the file.

    check_image(data, name="image") -> ImageInfo

reads the header only (format, width, height) with the same checks and decodes nothing: call it
before storing image bytes that will be decoded later, and decode them later with
``open_image`` all the same. ``load_image`` and ``decode_image`` are ``open_image(...).image``
at full size, for callers that want the array only.
"""

from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from struct import error as struct_error  # Pillow raises it for some short headers

import numpy as np

#: The formats read; anything else is refused with a message that says what to send.
FORMATS = ("JPEG", "PNG", "WEBP")
#: Largest image accepted (pixels, from the header): a 50-megapixel phone photo.
MAX_PIXELS = 50_000_000
#: Largest file read (bytes).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Images are worked on with their longer side at most this many pixels.
WORK_MAX_SIDE = 2048
#: A JPEG is decoded reduced only while its longer side keeps this share of ``max_side``.
REDUCED_KEEP = 0.9
#: Reads Pillow may make to find the size in a header. A phone's JPEG needs a few dozen; a
#: header padded with megabytes of junk bytes (read one at a time) is refused instead.
HEADER_READS_MAX = 4096

#: Formats that are refused by name (first bytes, what they are).
_REFUSED = ((b"II*\x00", "a TIFF file"), (b"MM\x00*", "a TIFF file"), (b"GIF8", "a GIF file"),
            (b"BM", "a BMP file"), (b"%PDF", "a PDF document"), (b"\x00\x00\x01\x00", "an icon"))
_HEIF_BRANDS = re.compile(rb"ftyp(heic|heix|hevc|hevx|heim|heis|mif1|msf1|avif|avis)")


class ImageError(ValueError):
    """An input that is not a usable image; the message says what is wrong."""


@dataclass(frozen=True)
class ImageInfo:
    """What a file's header says: ``format`` (``"JPEG"``, ``"PNG"`` or ``"WEBP"``; ``"array"``
    for arrays) and the stored ``width`` and ``height`` in pixels."""

    format: str
    width: int
    height: int


@dataclass
class Picture:
    """A decoded image: ``image`` (BGR uint8), ``size`` (width, height) of the whole image as
    shown, with the camera's orientation applied, and ``scale``, the pixels of ``image`` per
    pixel of ``size`` (1.0 unless it was decoded reduced or scaled down to ``max_side``): a
    point (x, y) of ``image`` is (x / scale, y / scale) of the whole image. ``notes``: problems
    that still left an image (a truncated JPEG)."""

    image: np.ndarray
    info: ImageInfo
    size: tuple[int, int]
    scale: float = 1.0
    notes: list[str] = field(default_factory=list)


class _CountedReads(io.BytesIO):
    """Bytes that may be read at most ``HEADER_READS_MAX`` times (see there)."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.reads = 0

    def read(self, size: int | None = -1) -> bytes:
        self.reads += 1
        if self.reads > HEADER_READS_MAX:
            raise _PaddedHeader()
        return super().read(size)


class _PaddedHeader(Exception):
    pass


def _what_else(data: bytes) -> str:
    """What a file that is none of :data:`FORMATS` seems to be, for the message."""
    for magic, what in _REFUSED:
        if data.startswith(magic):
            return what
    if _HEIF_BRANDS.match(data, 4):
        return "a HEIC/HEIF or AVIF photo"
    head = data[:64]
    if not head.strip():
        return "blank bytes"
    try:
        head.decode("utf-8")
        return "text, not an image"
    except UnicodeDecodeError:
        return "not an image (corrupt, truncated or an unknown format)"


def _too_large(name: str, what: str) -> ImageError:
    return ImageError(f"{name}: {what}; the reader takes photos of up to "
                      f"{MAX_PIXELS // 1_000_000} megapixels: downscale it first")


def check_image(data: bytes, name: str = "image") -> ImageInfo:
    """The format and pixel size from the header of image bytes, without decoding any
    pixels; :class:`ImageError` (naming ``name``) for an empty, oversized, unreadable or
    refused file (not JPEG, PNG or WebP; over :data:`MAX_PIXELS`)."""
    from PIL import Image, UnidentifiedImageError

    if not data:
        raise ImageError(f"{name}: the file is empty (0 bytes)")
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(f"{name}: {len(data) / 1e6:.0f} MB is too large for an image file "
                         f"({MAX_FILE_BYTES // (1024 * 1024)} MiB at most)")
    fp = _CountedReads(data)
    try:
        with warnings.catch_warnings():
            # Pillow warns from 89 megapixels; the size is checked below, and more strictly.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(fp, formats=FORMATS) as im:
                info = ImageInfo(im.format, int(im.size[0]), int(im.size[1]))
    except Image.DecompressionBombError as exc:  # beyond Pillow's own, looser limit
        pixels = re.search(r"\((\d+) pixels\)", str(exc))
        raise _too_large(name, f"the image is {int(pixels[1]) / 1e6:.0f} megapixels"
                         if pixels else "the image is far too large") from None
    except _PaddedHeader:
        raise ImageError(f"{name}: the file's header is padded with junk bytes, which no "
                         f"camera writes; save the photo again as JPEG or PNG") from None
    except UnidentifiedImageError:
        what = _what_else(data)
        if what.startswith(("a ", "an ")):
            raise ImageError(f"{name}: {what}; send a JPEG, PNG or WebP photo") from None
        raise ImageError(f"{name}: {what}") from None
    except (OSError, SyntaxError, ValueError, struct_error) as exc:
        raise ImageError(f"{name}: the image header is corrupt ({exc})") from None
    if info.width <= 0 or info.height <= 0:
        raise ImageError(f"{name}: the header says the image is {info.width}x{info.height} "
                         f"pixels")
    if info.width * info.height > MAX_PIXELS:
        raise _too_large(name, f"the image is {info.width}x{info.height} pixels "
                               f"({info.width * info.height / 1e6:.0f} megapixels)")
    return info


def _reduction(info: ImageInfo, max_side: int | None) -> int:
    """1, 2, 4 or 8: how much smaller the JPEG decoder may decode this image."""
    if info.format != "JPEG" or not max_side:
        return 1
    longer = max(info.width, info.height)
    for factor in (8, 4, 2):
        if longer / factor >= REDUCED_KEEP * max_side:
            return factor
    return 1


def _decode(data: bytes, info: ImageInfo, name: str, max_side: int | None) -> Picture:
    import cv2

    factor = _reduction(info, max_side)
    flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
             8: cv2.IMREAD_REDUCED_COLOR_8}[factor]
    truncated = info.format == "JPEG" and b"\xff\xd9" not in data[-4096:]
    try:
        img = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flags)
    except cv2.error as exc:  # OpenCV refuses some headers outright
        raise ImageError(f"{name}: cannot decode the image "
                         f"({str(exc).strip().splitlines()[-1]})") from None
    if img is None or img.size == 0:
        if truncated:
            raise ImageError(f"{name}: the JPEG file is corrupt or truncated (it ends before "
                             f"the image does) and cannot be decoded")
        if info.format == "PNG" and b"IEND" not in data[-64:]:
            raise ImageError(f"{name}: the PNG file is corrupt or truncated (it ends before "
                             f"the image does) and cannot be decoded")
        raise ImageError(f"{name}: the {info.format} file is corrupt and cannot be decoded")
    h, w = img.shape[:2]
    # The camera's orientation (EXIF) may have turned the image a quarter turn.
    turned = (w >= h) != (info.width >= info.height) and info.width != info.height
    size = (info.height, info.width) if turned else (info.width, info.height)
    pic = Picture(img, info, size, w / size[0])
    if truncated:
        pic.notes.append("the JPEG file is truncated: part of the image may be missing")
    if max_side:
        pic.image, k = work_copy(img, max_side)
        pic.scale *= k
    return pic


def _from_array(img: np.ndarray, label: str, max_side: int | None) -> Picture:
    import cv2

    if img.size == 0 or img.ndim not in (2, 3):
        raise ImageError(f"{label}: the array is empty or not an image (shape {img.shape})")
    if img.dtype != np.uint8:
        if np.issubdtype(img.dtype, np.floating):
            scale = 255.0 if float(np.nanmax(img)) <= 1.0 else 1.0
            img = np.clip(np.nan_to_num(img) * scale, 0, 255).astype(np.uint8)
        else:
            img = np.clip(img, 0, 255).astype(np.uint8)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.shape[2] == 4:
        img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    elif img.shape[2] == 1:
        img = cv2.cvtColor(img[:, :, 0], cv2.COLOR_GRAY2BGR)
    elif img.shape[2] != 3:
        raise ImageError(f"{label}: {img.shape[2]} channels; give a BGR image")
    h, w = img.shape[:2]
    pic = Picture(img, ImageInfo("array", w, h), (w, h))
    if max_side:
        pic.image, pic.scale = work_copy(img, max_side)
    return pic


def open_image(source, name: str | None = None, *, max_side: int | None = None) -> Picture:
    """A :class:`Picture` from a path, image bytes or an array; :class:`ImageError` (naming
    ``name``, or the path) if it is not a usable JPEG, PNG or WebP photo.

    ``max_side``: the longer side of ``Picture.image`` at most (JPEGs decode reduced where
    that keeps enough pixels); None: full size. Arrays may be grey (HxW), BGR (HxWx3) or BGRA
    (HxWx4); they are not copied when they are already BGR uint8 and small enough."""
    if isinstance(source, np.ndarray):
        return _from_array(source, name or "image array", max_side)
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        label = name or "image bytes"
    else:
        path = Path(source)
        label = name or str(path)
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            raise ImageError(f"{label}: no such file") from None
        except OSError as exc:
            raise ImageError(f"{label}: cannot open ({exc.strerror or exc})") from None
        if path.is_dir():
            raise ImageError(f"{label}: is a folder, not an image")
        if size > MAX_FILE_BYTES:
            raise ImageError(f"{label}: {size / 1e6:.0f} MB is too large for an image file "
                             f"({MAX_FILE_BYTES // (1024 * 1024)} MiB at most)")
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ImageError(f"{label}: cannot read ({exc.strerror or exc})") from None
    info = check_image(data, label)
    return _decode(data, info, label, max_side)


def load_image(source, name: str | None = None, notes: list | None = None) -> np.ndarray:
    """``open_image(source, name).image``: the whole image, BGR uint8. Problems that still
    leave an image are appended to ``notes``."""
    pic = open_image(source, name)
    if notes is not None:
        notes.extend(pic.notes)
    return pic.image


def decode_image(data: bytes, name: str = "image", notes: list | None = None) -> np.ndarray:
    """``load_image`` for image bytes."""
    return load_image(bytes(data), name, notes)


def work_copy(img: np.ndarray, max_side: int = WORK_MAX_SIDE) -> tuple[np.ndarray, float]:
    """The image scaled so its longer side is at most ``max_side``; returns (image, scale)."""
    import cv2

    h, w = img.shape[:2]
    s = max(h, w)
    if s <= max_side:
        return img, 1.0
    scale = max_side / s
    small = cv2.resize(img, (max(1, round(w * scale)), max(1, round(h * scale))),
                       interpolation=cv2.INTER_AREA)
    return small, scale
