"""The result of a game as a PNG picture (Pillow), to send to the family chat: the title, who
won, and every player's total, best first.

The words come in already translated (``Words``); names are drawn with a font that has the
common scripts (DejaVu Sans where the system has it, else Pillow's own), right-to-left names in
their own direction when Pillow has its text-layout library.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

WIDTH = 720
MARGIN = 36
ROW = 64
GOLD, INK, MUTED, GREEN, PLUS, MINUS = ("#ffd54f", "#1d1d1d", "#5f5f5f", "#1b5e20", "#1b7a2a",
                                       "#b3261e")

#: Fonts tried in turn (Pillow looks the bare names up in the system's font folders).
FONTS = {True: ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "Arial Bold.ttf",
                "arialbd.ttf", "/System/Library/Fonts/Supplemental/Arial Bold.ttf"),
         False: ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "Arial.ttf", "arial.ttf",
                 "/System/Library/Fonts/Supplemental/Arial.ttf")}


@dataclass(frozen=True)
class Line:
    rank: int
    name: str
    total: str      # signed, as the sheet shows it
    sign: int       # -1, 0, 1: the colour of the total
    won: bool


@dataclass(frozen=True)
class Words:
    title: str      # the game's title, or its players
    headline: str   # "Ann wins" / "After 3 rounds"
    detail: str     # "8 rounds · played to 200 points"
    footer: str     # "rummiref · 23 Nov 2026"


@lru_cache(maxsize=16)
def font(size: int, bold: bool = False):
    from PIL import ImageFont

    for name in FONTS[bold]:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size)


def fit(text: str, fnt, width: float) -> str:
    """``text``, cut with an ellipsis where it would be wider than ``width``."""
    if fnt.getlength(text) <= width:
        return text
    while text and fnt.getlength(text + "\u2026") > width:
        text = text[:-1]
    return text + "\u2026"


def draw_png(words: Words, lines: Sequence[Line]) -> bytes:
    from PIL import Image, ImageDraw

    height = MARGIN * 2 + 150 + ROW * len(lines) + 56
    img = Image.new("RGB", (WIDTH, height), "#eef2ee")
    d = ImageDraw.Draw(img)
    inner = WIDTH - 2 * MARGIN
    d.rounded_rectangle((MARGIN - 16, MARGIN - 16, WIDTH - MARGIN + 16, height - MARGIN + 8),
                        radius=24, fill="#ffffff")
    y = MARGIN
    d.text((MARGIN, y), fit(words.title, font(26), inner), font=font(26), fill=MUTED)
    y += 42
    d.text((MARGIN, y), fit(words.headline, font(44, True), inner), font=font(44, True),
           fill=GREEN)
    y += 60
    d.text((MARGIN, y), fit(words.detail, font(24), inner), font=font(24), fill=MUTED)
    y += 48
    for line in lines:
        if line.won:
            d.rounded_rectangle((MARGIN - 8, y - 6, WIDTH - MARGIN + 8, y + ROW - 10),
                                radius=12, fill="#fff3c4")
        cx, cy, r = MARGIN + 22, y + (ROW - 16) // 2, 22
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD if line.rank == 1 else "#e6e6e6")
        d.text((cx, cy), str(line.rank), font=font(24, True), fill=INK, anchor="mm")
        total_font = font(32, True)
        total_w = total_font.getlength(line.total)
        d.text((WIDTH - MARGIN, cy), line.total, font=total_font, anchor="rm",
               fill=PLUS if line.sign > 0 else MINUS if line.sign < 0 else INK)
        name_x = MARGIN + 60
        name = fit(line.name, font(30, line.won), WIDTH - MARGIN - total_w - 24 - name_x)
        d.text((name_x, cy), name, font=font(30, line.won), fill=INK, anchor="lm")
        y += ROW
    d.text((MARGIN, height - MARGIN - 20), words.footer, font=font(20), fill=MUTED)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()
