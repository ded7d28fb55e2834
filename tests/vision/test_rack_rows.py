"""A photo of a rack is read as a rack: tiles in rows (back row first, left to right), with
the rack's checks flagging doubt instead of refusing the photo."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from tests.vision.rack_tiles import tile_reading as _tile  # noqa: E402
from vision.rack import as_rack, rows_notation  # noqa: E402
from vision.reading import Reading, Uncertain  # noqa: E402


def test_rows_come_back_row_first_left_to_right_whatever_order_they_were_found_in():
    front = [_tile(t, 5 + 45 * k, 110 + 3 * k) for k, t in enumerate(["K5", "K6", "K7"])]
    back = [_tile(t, 10 + 45 * k, 60 - 2 * k) for k, t in enumerate(["R1", "J", "B9", "O2"])]
    mixed = [front[2], back[1], front[0], back[3], back[0], front[1], back[2]]
    rack = as_rack(Reading(tiles=mixed, melds=[[i] for i in range(7)]))
    assert rows_notation(rack) == ["R1 J B9 O2", "K5 K6 K7"]
    assert sorted(i for row in rack.melds for i in row) == list(range(7))
    assert any("2 rows" in n for n in rack.notes)


def test_rows_of_a_photo_taken_turned_follow_the_tiles():
    tiles = [_tile(t, 5 + 45 * k, 110) for k, t in enumerate(["K5", "K6", "K7"])] + \
            [_tile(t, 5 + 45 * k, 50) for k, t in enumerate(["R1", "R2"])]
    for turn in (90.0, -90.0, 30.0):
        turned = [_tile(t.tile, *t.corners[0], turn=0) for t in tiles]
        a = np.radians(turn)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        for t in turned:
            t.corners = t.corners @ rot.T
        assert rows_notation(as_rack(Reading(tiles=turned))) == ["R1 R2", "K5 K6 K7"], turn


def test_a_third_copy_or_joker_flags_every_copy_and_refuses_nothing():
    tiles = [_tile("R10", 0, 0), _tile("R10", 45, 0, 0.9), _tile("J", 90, 0),
             _tile("R10", 0, 60), _tile("J", 45, 60), _tile("J", 90, 60), _tile("K3", 135, 60)]
    rack = as_rack(Reading(tiles=tiles))
    doubted = {u.index: u.reason for u in rack.uncertain}
    assert sorted(doubted) == [0, 1, 2, 3, 4, 5]
    assert "3 copies of R10 on the rack; a set has 2" in doubted[0]
    assert "3 jokers on the rack" in doubted[2]
    assert rows_notation(rack) == ["R10 R10 J", "R10 J J K3"]
    # two copies are fine
    ok = as_rack(Reading(tiles=[_tile("R10", 0, 0), _tile("R10", 45, 0), _tile("J", 90, 0)]))
    assert ok.uncertain == []


def test_the_tables_meld_checks_do_not_apply_to_a_rack_but_low_confidence_does():
    tiles = [_tile("R1", 0, 0), _tile("K9", 45, 0), _tile("B4", 90, 0, conf=0.6)]
    reading = Reading(tiles=tiles, melds=[[0, 1, 2]],
                      uncertain=[Uncertain(1, "K9 read at 0.98; as R2 the run would be valid")])
    rack = as_rack(reading)
    assert [(u.index, u.reason) for u in rack.uncertain] == [(2, "B4 read at 0.60")]


def test_a_six_standing_the_other_way_up_from_the_rack_is_doubted():
    tiles = [_tile("R1", 0, 0), _tile("K2", 45, 0), _tile("B9", 90, 0, upside=True),
             _tile("O6", 135, 0)]
    rack = as_rack(Reading(tiles=tiles))
    assert [u.index for u in rack.uncertain] == [2]
    assert rack.uncertain[0].alternatives == ["B6"]


def test_part_of_a_big_tile_found_again_is_dropped_with_a_note():
    big = [_tile("B3", 100, 100, w=300, h=420), _tile("O11", 410, 100, w=300, h=420)]
    half = _tile("B1", 120, 110, conf=0.4, w=150, h=200)
    rack = as_rack(Reading(tiles=[big[0], half, big[1]]))
    assert rows_notation(rack) == ["B3 O11"]
    assert any("B1 at 0.40" in n and "inside a bigger tile" in n for n in rack.notes)
    # neighbours touching on a rack are all kept, back row included
    tiles = [_tile(t, 45 * k, 60) for k, t in enumerate(["K5", "K6", "K7"])] + \
            [_tile(t, 45 * k, 15) for k, t in enumerate(["R1", "R2"])]
    assert rows_notation(as_rack(Reading(tiles=tiles))) == ["R1 R2", "K5 K6 K7"]


def test_tiles_without_outlines_stay_one_row_in_their_order():
    rack = as_rack(Reading.from_table("R5 K13 | J"))
    assert rows_notation(rack) == ["R5 K13 J"]
    assert as_rack(Reading()).melds == [] and as_rack(Reading()).notes == []
