"""The order tiles are listed in (``vision.order.reading_order``): row by row from the top,
each row left to right; a new row where the next centre lies more than half a tile's height
below the last; the rows along the tiles' own slant where the tiles agree on it, the
picture's own level where they do not. (Photos read through ``Reader.read`` are in
``test_reader_safeguards.py``: the slanted ones.)"""

from __future__ import annotations

import numpy as np

from vision.geometry import rect_corners
from vision.order import reading_order


def _tile(x: float, y: float, degrees: float = 0.0) -> np.ndarray:
    """A tile 40 x 56 pixels, its centre at (x, y), turned ``degrees`` from square-on."""
    a = np.radians(degrees)
    return rect_corners((x, y), 40, 56, (-np.sin(a), np.cos(a)))


def test_two_tiles_found_right_to_left_are_listed_left_to_right():
    assert reading_order([_tile(200, 100), _tile(150, 100)]) == [1, 0]
    assert reading_order([_tile(150, 100)]) == [0]
    assert reading_order([]) == []


def test_a_tile_more_than_half_a_tile_lower_is_on_the_next_row():
    """Tiles 56 pixels tall: one 30 pixels lower than its neighbour on the right is on the
    next row (listed after it), one exactly 28 pixels lower is on the same row (listed
    before it, from the left)."""
    assert reading_order([_tile(150, 130), _tile(200, 100)]) == [1, 0]
    assert reading_order([_tile(150, 128), _tile(200, 100)]) == [0, 1]


def test_tiles_lying_every_which_way_are_listed_by_the_pictures_own_rows():
    """Six tiles in two rows of three, turned 0, 90 and 45 degrees (no slant they agree
    on: their directions, as lines, average to less than half of what parallel tiles give,
    though they lean to 45 degrees): listed by the picture's rows, left to right."""
    turns = [0, 90, 45, 45, 0, 90]
    tiles = [_tile(100 + 150 * (k % 3), 100 + 150 * (k // 3), turns[k]) for k in range(6)]
    order = [2, 0, 5, 1, 4, 3]                 # found in no particular order
    got = reading_order([tiles[i] for i in order])
    assert [order[i] for i in got] == [0, 1, 2, 3, 4, 5]
