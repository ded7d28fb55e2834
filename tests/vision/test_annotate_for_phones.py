"""Pictures people can read on a phone: labels sized to the picture, confidence shown only
where there is doubt, uncertain tiles marked without hiding their neighbours."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from tests.vision.rack_tiles import tile_reading as _tile  # noqa: E402
from vision.annotate import LABEL_HEIGHT, annotate, label_px  # noqa: E402
from vision.reading import Reading, TileReading, Uncertain  # noqa: E402


def _white_rows(drawn: np.ndarray, plain: np.ndarray) -> np.ndarray:
    """Rows where white (label text) was drawn."""
    hit = (drawn != plain).any(2) & (drawn.min(2) > 185)  # not the grey outline (160)
    return np.nonzero(hit.any(1))[0]


@pytest.mark.parametrize("size", [(4032, 3024), (1000, 750), (2604, 4624)])
def test_labels_are_sized_to_the_picture_not_its_tiles(size):
    w, h = size
    plain = np.full((h, w, 3), 90, np.uint8)
    tile = _tile("R10", w * 0.4, h * 0.4, w=w * 0.02, h=w * 0.028)
    drawn = annotate(plain, Reading(tiles=[tile], melds=[[0]]))
    rows = _white_rows(drawn, plain)
    text_h = rows.max() - rows.min() + 1
    # capital height LABEL_HEIGHT of the width: on a phone showing the picture across its
    # screen (about 400 points), about 10 points whatever the photo's resolution
    assert text_h == pytest.approx(LABEL_HEIGHT * w, rel=0.25)
    assert label_px((h, w, 3)) >= 12


def test_confidence_is_shown_only_where_there_is_doubt():
    plain = np.full((750, 1000, 3), 90, np.uint8)
    tiles = [_tile("R10", 300, 300, w=60, h=84), _tile("K3", 370, 300, w=60, h=84)]

    def drawn(conf, doubt):
        ts = [TileReading(t.tile, c, t.corners) for t, c in zip(tiles, conf)]
        return annotate(plain, Reading(tiles=ts, melds=[[0], [1]],
                                       uncertain=[Uncertain(i, "") for i in doubt]))

    sure = drawn((0.99, 0.99), [])
    assert np.array_equal(sure, drawn((0.91, 0.8), []))  # no number on a sure tile
    unsure = drawn((0.99, 0.41), [1])
    assert not np.array_equal(unsure, drawn((0.99, 0.62), [1]))  # its confidence is written


def test_an_uncertain_tile_is_marked_inside_its_own_outline():
    plain = np.full((750, 1000, 3), 90, np.uint8)
    tiles = [_tile("R10", 300, 300, w=60, h=84), _tile("K3", 364, 300, w=60, h=84),
             _tile("K4", 428, 300, w=60, h=84)]
    reading = Reading(tiles=tiles, melds=[[0], [1], [2]], uncertain=[Uncertain(1, "")])
    drawn = annotate(plain, reading)
    magenta = (np.abs(drawn.astype(int) - (220, 40, 220)).sum(2) < 60)
    ys, xs = np.nonzero(magenta)
    assert len(xs) > 0
    # the outline stays off its neighbours (R10 ends at x 360, K4 starts at 428); the
    # label's box, across the tile's lower part, may reach a little wider
    outline = magenta.copy()
    label_y = int(300 + 84 * 0.72)
    outline[label_y - 20:label_y + 20] = False
    ys, xs = np.nonzero(outline)
    assert xs.min() > 360 and xs.max() < 428
