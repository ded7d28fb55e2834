"""Reading images safely: a clear message for every file that is not a usable photo.

The size in the file header is checked before anything is decoded, so a 20000x20000 image
costs neither gigabytes nor minutes: JPEGs that large are decoded at 1/2, 1/4 or 1/8 scale
by the JPEG decoder itself, other formats are refused with a message.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

#: Largest image decoded at full size (pixels). Larger JPEGs are decoded reduced.
MAX_PIXELS = 40_000_000
#: Largest image accepted at all (pixels, after any reduced decoding).
HARD_MAX_PIXELS = 400_000_000
#: Largest file read (bytes).
MAX_FILE_BYTES = 200 * 1024 * 1024
#: Images are worked on with their longer side at most this many pixels.
WORK_MAX_SIDE = 2048


class ImageError(ValueError):
    """An input that is not a usable image; the message says what is wrong."""


def probe_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG, JPEG, GIF, BMP or WebP header; None if not recognised."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return w, h
    if data[:2] == b"BM" and len(data) >= 26:
        w, h = struct.unpack("<ii", data[18:26])
        return abs(w), abs(h)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        chunk = data[12:16]
        if chunk == b"VP8X":
            w = int.from_bytes(data[24:27], "little") + 1
            h = int.from_bytes(data[27:30], "little") + 1
            return w, h
        if chunk == b"VP8 " and len(data) >= 30:
            w, h = struct.unpack("<HH", data[26:30])
            return w & 0x3FFF, h & 0x3FFF
        if chunk == b"VP8L" and len(data) >= 25:
            b = data[21:25]
            w = 1 + (((b[1] & 0x3F) << 8) | b[0])
            h = 1 + (((b[3] & 0xF) << 10) | (b[2] << 2) | ((b[1] & 0xC0) >> 6))
            return w, h
        return None
    if data[:2] == b"\xff\xd8":
        i = 2
        n = len(data)
        while i + 4 <= n:
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
                i += 1 if marker == 0xFF else 2
                continue
            if i + 4 > n:
                break
            seg = struct.unpack(">H", data[i + 2:i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB,
                          0xCD, 0xCE, 0xCF):
                if i + 9 <= n:
                    h, w = struct.unpack(">HH", data[i + 5:i + 9])
                    return w, h
                return None
            i += 2 + seg
        return None
    return None


def _kind(data: bytes) -> str:
    head = data[:64]
    if not head.strip():
        return "an empty file" if not data else "blank bytes"
    try:
        head.decode("utf-8")
        return "text, not an image"
    except UnicodeDecodeError:
        return "not an image OpenCV can decode (corrupt, truncated or an unknown format)"


def decode_image(data: bytes, name: str = "image", notes: list | None = None) -> np.ndarray:
    """Decode image bytes to a BGR array, or raise :class:`ImageError` saying why not.

    Problems that still leave an image (a truncated JPEG, a reduced decode) are appended to
    ``notes``."""
    import cv2

    if not data:
        raise ImageError(f"{name}: the file is empty (0 bytes)")
    size = probe_size(data[:1 << 20])
    flags = cv2.IMREAD_COLOR
    if size is not None:
        w, h = size
        if w <= 0 or h <= 0:
            raise ImageError(f"{name}: the header says the image is {w}x{h} pixels")
        pixels = w * h
        if pixels > MAX_PIXELS:
            if data[:2] == b"\xff\xd8":
                for factor, flag in ((2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4),
                                     (8, cv2.IMREAD_REDUCED_COLOR_8)):
                    if pixels / factor ** 2 <= MAX_PIXELS:
                        flags = flag
                        break
                else:
                    raise ImageError(
                        f"{name}: the image is {w}x{h} pixels, too large to read even at 1/8 "
                        f"scale; downscale it below {MAX_PIXELS // 1_000_000} megapixels")
            else:
                raise ImageError(
                    f"{name}: the image is {w}x{h} pixels ({pixels / 1e6:.0f} MP); the reader "
                    f"takes up to {MAX_PIXELS // 1_000_000} MP in this format (JPEGs larger "
                    f"than that are read reduced); downscale it first")
    elif len(data) > MAX_FILE_BYTES:
        raise ImageError(f"{name}: {len(data) / 1e6:.0f} MB is too large for an image file")
    buf = np.frombuffer(data, dtype=np.uint8)
    try:
        img = cv2.imdecode(buf, flags)
    except cv2.error as exc:  # OpenCV refuses some headers outright
        raise ImageError(f"{name}: cannot decode the image ({str(exc).strip().splitlines()[-1]})")
    if img is None:
        if data[:2] == b"\xff\xd8" and b"\xff\xd9" not in data[-4096:]:
            raise ImageError(f"{name}: the JPEG file is corrupt or truncated (it ends before "
                             f"the image does) and cannot be decoded")
        if data[:8] == b"\x89PNG\r\n\x1a\n" and b"IEND" not in data[-64:]:
            raise ImageError(f"{name}: the PNG file is corrupt or truncated (it ends before "
                             f"the image does) and cannot be decoded")
        raise ImageError(f"{name}: {_kind(data)}")
    if notes is not None:
        if data[:2] == b"\xff\xd8" and b"\xff\xd9" not in data[-4096:]:
            notes.append("the JPEG file is truncated: part of the image may be missing")
        if flags != cv2.IMREAD_COLOR:
            notes.append(f"the image is {size[0]}x{size[1]} pixels: read at reduced size")
    if img.size == 0:
        raise ImageError(f"{name}: the image has no pixels")
    return img


def load_image(source, name: str | None = None, notes: list | None = None) -> np.ndarray:
    """A BGR uint8 image from a path, bytes or an array; :class:`ImageError` if unusable.

    Arrays may be grey (HxW), BGR (HxWx3) or BGRA (HxWx4); they are not copied when they
    are already BGR uint8.
    """
    import cv2

    if isinstance(source, np.ndarray):
        img = source
        label = name or "image array"
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
        return img
    if isinstance(source, (bytes, bytearray, memoryview)):
        return decode_image(bytes(source), name or "image bytes", notes)
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
        raise ImageError(f"{label}: {size / 1e6:.0f} MB is too large for an image file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError(f"{label}: cannot read ({exc.strerror or exc})") from None
    return decode_image(data, label, notes)


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
