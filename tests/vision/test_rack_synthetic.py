"""Synthetic racks and close-ups of every edition for training: deterministic, labelled row
by row, with strong perspective and a tile filling the asked share of the picture."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from tests.vision.rack_tiles import ROWS  # noqa: E402
from vision.synth import (EDITIONS, edition, editions, random_scene, render_closeup,  # noqa: E402
                          render_rack, render_scene)


def test_synthetic_racks_are_deterministic_and_labelled_row_by_row():
    a, la = render_rack(ROWS, seed=4, size=(1000, 750))
    b, lb = render_rack(ROWS, seed=4, size=(1000, 750))
    assert np.array_equal(a, b) and a.shape == (750, 1000, 3)
    assert [t for t, _ in la] == ROWS[0] + ROWS[1]
    assert la.racks == la.melds == [list(range(6)), list(range(6, 13))]
    assert all(0 <= h <= 1 / 3 for h in la.hidden[:6]) and la.hidden[6:] == [0.0] * 7
    for _, c in la:  # whole tiles in the picture
        assert (c >= -1).all() and (c[:, 0] <= 1001).all() and (c[:, 1] <= 751).all()
    # the back row stands behind (above) the front row, hidden up to the asked share
    _, lh = render_rack(ROWS, seed=4, size=(1000, 750), hidden=1 / 3, perspective=0.0)
    back, front = lh[0][1], lh[6][1]
    height = float(back[3, 1] - back[0, 1])
    assert back[3, 1] - front[0, 1] == pytest.approx(height / 3, rel=0.15)


def test_strong_perspective_narrows_the_far_row():
    _, labels = render_rack(ROWS, seed=2, size=(1000, 750), perspective=0.45)
    widths = [float(np.hypot(*(c[1] - c[0]))) for _, c in labels]
    assert np.mean(widths[:6]) < np.mean(widths[6:])


def test_a_closeup_tile_covers_the_asked_share_of_the_picture():
    img, labels = render_closeup("R3 K6 J", seed=1, size=(1000, 750), fraction=0.2)
    assert 1 <= len(labels) <= 3
    c = labels[0][1]
    x, y = c[:, 0], c[:, 1]
    area = 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))
    assert area / (1000 * 750) == pytest.approx(0.2, rel=0.35)


def test_editions_are_listed_and_render_every_kind_of_scene():
    names = editions()
    assert "classic" in names and sum(n.startswith("modern") for n in names) >= 4
    assert len({EDITIONS[n].font for n in names}) == len(names)  # each its own numerals
    assert {EDITIONS[n].joker_colour for n in names if n.startswith("modern")} >= {
        (40, 30, 220), (15, 15, 15)}  # red and black joker faces
    for kind in ("table", "rack", "closeup"):
        img, labels = render_scene("modern-thin", seed=3, kind=kind)
        assert img.ndim == 3 and len(labels) >= 1
    with pytest.raises(ValueError, match="unknown edition"):
        edition("no-such")
    with pytest.raises(ValueError, match="unknown scene kind"):
        render_scene("classic", kind="shelf")


def test_random_scenes_mix_racks_and_closeups_and_can_hold_editions_out():
    kinds = [bool(random_scene(s, size=(320, 240))[1].racks) for s in range(20)]
    assert 2 <= sum(kinds) <= 16
    from vision.synth.editions import Edition, font_key

    held = ("modern-serif", "modern-mono")
    rng = np.random.default_rng(0)
    fonts = {font_key(Edition.random(rng, exclude=held).font) for _ in range(300)}
    assert not fonts & {font_key(EDITIONS[n].font) for n in held}


def test_every_font_the_synthetic_editions_draw_from_bears_numerals():
    """A synthetic tile is labelled with its number, so its font must draw it: a fallback
    font that draws one placeholder box for every character (matplotlib ships one,
    LastResortHE) made 7 of the 150 synthetic edition photos of seed 9 tiles with no numeral
    on them, 117 of their 136 number errors."""
    from PIL import ImageFont

    from vision.synth.editions import _ttf_fonts

    for path in _ttf_fonts():
        font = ImageFont.truetype(path, size=32)
        assert len({bytes(font.getmask(d)) for d in ("1", "3", "8")}) == 3, path
