"""The calibration grid photo that several test modules use, drawn once a test run.

Drawing it takes seconds: ``vision.editions.grid_photo`` draws a layout again until its rows
stand apart (28 times for this edition and seed). Each caller gets its own copy of the image.
"""

from __future__ import annotations

from functools import lru_cache

#: The held-out edition (an index into ``vision.editions.HELD_OUT``) and the grid's seed.
EDITION_INDEX, SEED = 2, 3


@lru_cache(maxsize=1)
def _drawn():
    from vision.editions import HELD_OUT, grid_photo

    return grid_photo(HELD_OUT[EDITION_INDEX], seed=SEED)


def held_out_grid():
    """``(bgr_image, labels)`` of the grid of ``HELD_OUT[EDITION_INDEX]`` drawn with ``SEED``."""
    image, labels = _drawn()
    return image.copy(), labels
