"""Tiles as a reading holds them, placed by hand for the rack and picture tests, and the rows
of the synthetic rack those tests render."""

from __future__ import annotations

import numpy as np

from vision.reading import TileReading

ROWS = [["R1", "R2", "R3", "J", "K13", "B7"], ["B5", "B6", "O9", "K9", "R10", "R11", "K3"]]


def tile_reading(tile, x, y, conf=0.98, w=40.0, h=56.0, upside=False, turn=0.0) -> TileReading:
    """``tile`` read at ``conf`` in a ``w`` x ``h`` outline from (x, y), turned ``turn``
    degrees about the origin, the other way up when ``upside``."""
    c = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
    if turn:
        a = np.radians(turn)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        c = c @ rot.T
    if upside:
        c = c[[2, 3, 0, 1]]
    return TileReading(tile, conf, c, [], upside)
