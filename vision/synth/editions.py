"""Tile editions: how the tiles of one set look (face colour, numeral font and weight, ink
colours, joker face), random or named.

:data:`EDITIONS` holds named looks, :func:`editions` lists their names and
:func:`edition` makes one (with the small differences between two boxes of one edition).
``classic`` is close to the white tiles of the real photos; the ``modern-*`` editions are the
modern look: brighter white, saturated inks, bolder or thinner numerals, and other jokers
(a red or black face, a jester, a star). Each named edition has its own font (where the
machine has it; else an OpenCV Hershey font), so holding an edition out of training
(``Edition.random(rng, exclude=(name,))``, ``random_scene(..., exclude=(name,))``) keeps
its numerals unseen.
"""

from __future__ import annotations

import glob
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

# Ink colours (BGR) per colour letter: a range each edition draws from.
INK = {
    "K": [(25, 25, 25), (40, 35, 30), (10, 10, 10), (55, 50, 50)],
    "B": [(170, 90, 20), (190, 110, 30), (140, 60, 10), (200, 130, 60), (150, 80, 40)],
    "O": [(30, 130, 240), (40, 150, 245), (20, 110, 230), (30, 190, 235), (40, 170, 250)],
    "R": [(40, 40, 210), (50, 30, 190), (60, 60, 225), (35, 20, 170)],
}
_HERSHEY = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
            cv2.FONT_HERSHEY_COMPLEX]


@lru_cache(maxsize=1)
def _ttf_fonts() -> tuple[str, ...]:
    """Bold-ish TrueType fonts on this machine (numerals in them look like real tiles)."""
    paths = []
    for pattern in ("/usr/share/fonts/**/*.ttf", "/usr/local/share/fonts/**/*.ttf"):
        paths += glob.glob(pattern, recursive=True)
    try:
        import matplotlib
        paths += glob.glob(f"{matplotlib.get_data_path()}/fonts/ttf/*.ttf")
    except ImportError:
        pass
    keep = [p for p in sorted(set(paths))
            if not any(s in p for s in ("Math", "Symbol", "STIX", "cmex", "cmsy", "Display",
                                        "ExtraLight", "Oblique", "Italic", "cmmi", "cmb10", "cmti"))]
    return tuple(p for p in keep if _draws_numerals(p))


def _draws_numerals(path: str) -> bool:
    """Whether the font draws ten different numerals. A fallback font such as matplotlib's
    LastResortHE draws one placeholder box for every character: tiles drawn with it bear no
    numeral, yet are labelled with one."""
    try:
        from PIL import ImageFont

        font = ImageFont.truetype(path, size=32)
        shapes = {bytes(font.getmask(d)) for d in "0123456789"}
    except (ImportError, OSError):
        return False
    return len(shapes) == 10


@dataclass
class Edition:
    """How one tile edition looks."""

    face: tuple[int, int, int]
    font: object  # Hershey font id (int) or a TTF path (str)
    thickness: float
    number_y: float  # numeral centre, fraction of tile height from the top
    number_h: float  # numeral height, fraction of tile height
    inks: dict
    circle: bool
    bars_69: bool
    logo: bool
    joker_colour: tuple[int, int, int]
    joker_style: int
    corner_r: float
    side: tuple[int, int, int]
    name: str = ""

    @classmethod
    def random(cls, rng: np.random.Generator, classic: bool = False,
               exclude: tuple[str, ...] = ()) -> "Edition":
        """A random edition; ``classic``: close to the white tiles of the real photos.
        ``exclude``: names of :data:`EDITIONS` whose fonts are not used (held out)."""
        if classic:  # close to the white tiles in the real photos
            shade = int(rng.integers(228, 250))
            face = (shade - int(rng.integers(8, 20)), shade - int(rng.integers(0, 6)), shade)
            return cls(face=face, font=_pick_font(rng, bold=True, exclude=exclude),
                       thickness=float(rng.uniform(0.9, 1.2)),
                       number_y=float(rng.uniform(0.34, 0.42)),
                       number_h=float(rng.uniform(0.3, 0.36)),
                       inks={k: v[0] for k, v in INK.items()}, circle=True, bars_69=False,
                       logo=True, joker_colour=(20, 20, 20), joker_style=0,
                       corner_r=0.1, side=tuple(int(c * 0.82) for c in face))
        shade = int(rng.integers(205, 256))
        tint = rng.uniform(0, 1)
        face = (int(shade - tint * rng.integers(5, 35)), int(shade - tint * rng.integers(0, 12)),
                shade)
        inks = {k: v[int(rng.integers(len(v)))] for k, v in INK.items()}
        jc = [(20, 20, 20), (40, 40, 200), (30, 30, 30), (30, 120, 230)][int(rng.integers(4))]
        return cls(face=face, font=_pick_font(rng, exclude=exclude), thickness=float(rng.uniform(0.7, 1.5)),
                   number_y=float(rng.uniform(0.3, 0.56)), number_h=float(rng.uniform(0.26, 0.46)),
                   inks=inks, circle=bool(rng.random() < 0.4), bars_69=bool(rng.random() < 0.5),
                   logo=bool(rng.random() < 0.5), joker_colour=jc,
                   joker_style=int(rng.integers(3)), corner_r=float(rng.uniform(0.04, 0.16)),
                   side=tuple(int(c * rng.uniform(0.7, 0.9)) for c in face))


def _pick_font(rng: np.random.Generator, bold: bool = False, exclude: tuple[str, ...] = ()):
    fonts = _ttf_fonts()
    held = {font_key(EDITIONS[n].font) for n in exclude if n in EDITIONS}
    if held:
        fonts = tuple(f for f in fonts if font_key(f) not in held)
    if bold:
        bolds = [f for f in fonts if "Bold" in f and "Mono" not in f]
        if bolds:
            return bolds[int(rng.integers(len(bolds)))]
    if fonts and rng.random() < 0.65:
        return fonts[int(rng.integers(len(fonts)))]
    hershey = [f for f in _HERSHEY if font_key(f) not in held] or _HERSHEY
    return hershey[int(rng.integers(len(hershey)))]


#: Joker faces (``Edition.joker_style``): an outlined smiling face, a filled face with light
#: features, a jester's hat over a face, a filled face under a filled hat, a star.
JOKER_STYLES = ("smile", "filled", "jester", "hat", "star")


def font_key(font) -> str:
    return Path(font).name if isinstance(font, str) else f"hershey-{font}"


def _font(name: str, fallback: int):
    """The TrueType font of that file name on this machine, else a Hershey font."""
    for f in _ttf_fonts():
        if Path(f).name == name:
            return f
    return fallback


def _named() -> dict[str, Edition]:
    white = (250, 252, 253)
    ivory = (214, 236, 246)
    bright = {"K": (20, 20, 20), "B": (200, 110, 10), "O": (20, 140, 250), "R": (40, 30, 220)}
    deep = {"K": (10, 10, 10), "B": (150, 70, 20), "O": (0, 120, 235), "R": (30, 20, 180)}

    def ed(name, face, font, thickness, number_y, number_h, inks, joker, style, **kw):
        base = dict(circle=False, bars_69=False, logo=False, corner_r=0.1,
                    side=tuple(int(c * 0.85) for c in face))
        base.update(kw)
        return Edition(face=face, font=font, thickness=thickness, number_y=number_y,
                       number_h=number_h, inks=inks, joker_colour=joker,
                       joker_style=JOKER_STYLES.index(style), name=name, **base)

    hs = cv2.FONT_HERSHEY_SIMPLEX
    return {
        "classic": ed("classic", (222, 240, 244), _font("DejaVuSans-Bold.ttf", hs), 1.05, 0.38,
                      0.33, {k: v[0] for k, v in INK.items()}, (20, 20, 20), "smile",
                      circle=True, logo=True),
        "modern-bold": ed("modern-bold", white, _font("LiberationSans-Bold.ttf", hs), 1.6,
                          0.36, 0.42, bright, (40, 30, 220), "filled", bars_69=True),
        "modern-thin": ed("modern-thin", white, _font("LiberationSansNarrow-Regular.ttf",
                                                      cv2.FONT_HERSHEY_PLAIN), 0.7, 0.38,
                          0.4, bright, (15, 15, 15), "hat", corner_r=0.14),
        "modern-condensed": ed("modern-condensed", (246, 250, 252),
                               _font("DejaVuSansCondensed-Bold.ttf", hs), 1.3, 0.4, 0.38, deep,
                               (30, 20, 200), "jester", bars_69=True, logo=True),
        "modern-serif": ed("modern-serif", white, _font("DejaVuSerif-Bold.ttf",
                                                        cv2.FONT_HERSHEY_TRIPLEX), 1.2, 0.37,
                           0.38, bright, (15, 15, 15), "star"),
        "modern-mono": ed("modern-mono", (240, 246, 250), _font("LiberationMono-Bold.ttf",
                                                                cv2.FONT_HERSHEY_DUPLEX),
                          1.4, 0.42, 0.36, deep, (40, 30, 220), "hat", corner_r=0.06),
        "ivory-hershey": ed("ivory-hershey", ivory, cv2.FONT_HERSHEY_COMPLEX, 1.0, 0.45, 0.34,
                            {k: v[1] for k, v in INK.items()}, (30, 120, 230), "jester",
                            circle=True),
    }


EDITIONS: dict[str, Edition] = _named()


def editions() -> list[str]:
    """The names of the named editions (see :data:`EDITIONS`)."""
    return list(EDITIONS)


def edition(name: str, rng: np.random.Generator | None = None) -> Edition:
    """The named edition; with ``rng``, one box of it: the face shade and ink colours moved a
    little, as two boxes of one edition differ."""
    if name not in EDITIONS:
        raise ValueError(f"unknown edition {name!r}; editions: {', '.join(EDITIONS)}")
    e = EDITIONS[name]
    if rng is None:
        return e

    def move(c, by):
        return tuple(int(v) for v in np.clip(np.array(c) + rng.normal(0, by, 3), 0, 255))

    face = move(e.face, 3)
    return replace(e, face=face, inks={k: move(v, 6) for k, v in e.inks.items()},
                   side=tuple(int(c * 0.85) for c in face))
