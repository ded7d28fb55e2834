"""Meld grouping from tile outlines (rows, gaps, angles) and the rules as a sanity check that
suggests, never fixes."""

from __future__ import annotations


import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from vision.geometry import flip_corners, rect_corners  # noqa: E402
from vision.melds import group_melds, sanity_check  # noqa: E402
from vision.reader import Reading, TileReading  # noqa: E402



def _tile_at(x, y, tile="R1", conf=0.99, alts=(), down=(0, 1), w=70, h=97):
    c = rect_corners((x, y), w, h, down)
    return TileReading(tile, conf, c, list(alts), upside_down=down[1] < 0)


def test_group_melds_rows_gaps_and_angles():
    row1 = [_tile_at(100 + 72 * k, 100) for k in range(4)]             # touching
    row2 = [_tile_at(100 + 85 * k, 300) for k in range(3)]             # small gaps
    lone = [_tile_at(100 + 72 * 4 + 70, 100)]                          # a tile width away
    d = np.array([np.sin(0.5), np.cos(0.5)])                           # turned about 29 deg
    r = np.array([d[1], -d[0]])
    rot = [TileReading("K1", 0.99, rect_corners(np.array([600, 500]) - r * 72 * k, 70, 97, -d))
           for k in range(3)]
    tiles = row1 + row2 + lone + rot
    melds = group_melds([t.corners for t in tiles])
    as_sets = sorted(sorted(m) for m in melds)
    assert as_sets == sorted([[0, 1, 2, 3], [4, 5, 6], [7], [8, 9, 10]])
    # laid order follows the tiles' reading direction (these lie turned and upside down:
    # in image terms the meld runs leftwards and up, as its tiles are read it starts at 8)
    assert [m for m in melds if 8 in m][0] == [8, 9, 10]
    assert [m for m in melds if 0 in m][0] == [0, 1, 2, 3]


def test_flip_corners_round_trip():
    c = rect_corners((10, 20), 7, 10, (0, 1))
    assert np.allclose(flip_corners(flip_corners(c)), c)
    assert np.allclose(flip_corners(c)[0], c[2])


def _reading(specs):
    tiles = [_tile_at(100 + 72 * k, 100, t, conf, alts) for k, (t, conf, alts) in enumerate(specs)]
    r = Reading(tiles=tiles)
    r.melds = group_melds([t.corners for t in tiles])
    return r


def test_sanity_check_suggests_but_never_fixes():
    r = _reading([("R6", 0.99, []), ("R8", 0.58, [("R7", 0.40), ("B8", 0.01)]),
                  ("R8", 0.98, [])])
    r.uncertain = sanity_check(r)
    assert r.meld_tiles == [["R6", "R8", "R8"]]          # unchanged
    assert str(r.table) == "R6 R8 R8"
    [u] = r.uncertain
    assert u.index == 1 and r.tiles[u.index].tile == "R8"
    assert "R8 read at 0.58; as R7 the run would be valid" in u.reason
    assert u.alternatives == ["R7"]


def test_sanity_check_leaves_a_confident_mistake_a_mistake():
    r = _reading([("R6", 0.99, [("R5", 0.005)]), ("R8", 0.995, [("R7", 0.004)]),
                  ("R9", 0.99, [])])
    assert sanity_check(r) == []                        # invalid, and nobody guesses it valid


def test_sanity_check_flags_third_copies_and_jokers():
    specs = [("K5", 0.99, []), ("K5", 0.97, []), ("K5", 0.8, [("K3", 0.15)]),
             ("J", 0.99, []), ("J", 0.99, []), ("J", 0.9, [("R1", 0.05)])]
    tiles = [_tile_at(100 + 300 * k, 100, t, c, a) for k, (t, c, a) in enumerate(specs)]
    r = Reading(tiles=tiles, melds=[[i] for i in range(6)])
    flags = {u.index: u for u in sanity_check(r)}
    assert set(flags) == {2, 5}
    assert "3 copies of K5" in flags[2].reason
    assert "3 jokers" in flags[5].reason
