"""Finding the calibration grid among the finder's finds, when the finder is imperfect: a box
across two tiles' edge, a tile found twice, a find lying across the grid, a tile not found at
the end of a row, rows laid a little shifted. The finds are made by hand (no model), so each
test says exactly what the finder gave.

A wrong place is worse than a refusal: calibration would learn a tile under another tile's
name. So every test checks each tile's place, not only that a grid was found."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration_grid import GRID, GridError, locate_grid

PITCH, SHORT, LONG = 64.0, 60.0, 84.0
ROW_GAP = 110.0


def _find(x: float, y: float, *, turn: float = 0.0, scale: float = 1.0, score: float = 0.99,
          angle: float = 0.0) -> dict:
    """One find of the finder: a tile's centre, size and its way down, in the photo's pixels
    after turning the whole grid by ``angle`` degrees about the origin (``turn``: the find's
    own extra turn)."""
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    b = np.radians(angle + turn)
    return {"centre": (rot @ np.array([x, y])).astype(np.float32) + np.float32(500),
            "short": SHORT * scale, "long": LONG * scale,
            "down": np.array([-np.sin(b), np.cos(b)], np.float32), "score": score}


def _grid(*, shift=(0.0, 0.0, 0.0, 0.0), leave_out=(), angle: float = 0.0):
    """The finds of a perfect grid (rows shifted by ``shift`` tiles, tiles ``leave_out`` not
    found), with each find's true tile and the number a reader reads on it."""
    finds, truth = [], []
    for r, row in enumerate(GRID):
        for c, tile in enumerate(row):
            if tile in leave_out and tile != "J":
                continue
            x = (c + (shift[r] if r < 4 else 0.0)) * PITCH
            finds.append(_find(x, r * ROW_GAP, angle=angle))
            truth.append(tile)
    return finds, truth


def _placed(grid) -> dict[tuple[int, int], str]:
    """Where each located tile lies (rounded centre), and its tile."""
    return {tuple(np.round(g.corners.mean(0)).astype(int)): g.tile for g in grid}


def _expected(finds, truth) -> dict[tuple[int, int], str]:
    return {tuple(np.round(f["centre"]).astype(int)): t for f, t in zip(finds, truth)}


@pytest.mark.parametrize("angle", [0.0, 7.0, 180.0])
def test_a_clean_grid_gives_every_tile_its_place_at_any_turn(angle):
    finds, truth = _grid(angle=angle)
    assert _placed(locate_grid(finds)) == _expected(finds, truth)


def test_a_box_across_two_tiles_edge_is_left_out_not_named():
    finds, truth = _grid()
    # the finder's box across the edge of K12 and K13, besides both tiles
    across = _find(11.5 * PITCH, 0.0)
    grid = locate_grid(finds + [across])
    assert _placed(grid) == _expected(finds, truth)


def test_a_tile_found_only_as_a_box_across_its_edge_leaves_its_place_empty():
    # K13 not found; a box between K12 and K13 instead. Naming that box K13 would teach
    # calibration half of K12 as K13; shifting the row would teach every black tile wrong.
    finds, truth = _grid(leave_out=("K13",))
    grid = locate_grid(finds + [_find(11.5 * PITCH, 0.0)], truth + ["K12"])
    assert _placed(grid) == _expected(finds, truth)
    assert "K13" not in [g.tile for g in grid]


def test_a_box_across_the_last_two_tiles_found_neither_is_named_neither():
    # K12 and K13 not found, only a box across their edge: it is half of each
    finds, truth = _grid(leave_out=("K12", "K13"))
    grid = locate_grid(finds + [_find(11.5 * PITCH, 0.0)], truth + ["K12"])
    assert _placed(grid) == _expected(finds, truth)


def test_a_tile_found_twice_gets_one_place():
    finds, truth = _grid()
    twice = _find(4.08 * PITCH, 2 * ROW_GAP)  # O5 again, a little off
    grid = locate_grid(finds + [twice])
    placed = _placed(grid)
    assert sorted(placed.values()) == sorted(truth)
    assert [g.tile for g in grid].count("O5") == 1


def test_finds_lying_across_the_grid_or_of_another_size_are_no_tiles_of_it():
    finds, truth = _grid()
    strays = [_find(13 * PITCH, 3 * ROW_GAP, turn=90.0),      # beyond R13, lying across
              _find(-1 * PITCH, 1 * ROW_GAP, scale=1.9),      # before B1, two tiles as one
              _find(6.5 * PITCH, 1.5 * ROW_GAP, scale=0.45)]  # a speck between two rows
    assert _placed(locate_grid(finds + strays)) == _expected(finds, truth)


def test_jokers_with_a_box_across_their_edge_are_both_jokers():
    finds, truth = _grid()
    between = _find(0.5 * PITCH, 4 * ROW_GAP)
    grid = locate_grid(finds + [between])
    assert _placed(grid) == _expected(finds, truth)


@pytest.mark.parametrize("missing", ["K13", "K1"])
def test_the_reader_tells_which_end_of_a_shifted_row_misses_its_tile(missing):
    # The black row laid 0.6 of a tile to the right of the others: against the other rows'
    # columns, K1..K12 (K13 not found) would look like K2..K13.
    finds, truth = _grid(shift=(0.6, 0.0, 0.0, 0.0), leave_out=(missing,))
    read = list(truth)
    read[2] = "K8"  # a reader of a new edition misreads a few
    read[7] = "B1" if missing == "K13" else "K3"
    assert _placed(locate_grid(finds, read)) == _expected(finds, truth)


def test_without_readings_a_row_missing_an_end_tile_is_placed_against_the_other_rows():
    finds, truth = _grid(shift=(0.2, 0.0, -0.1, 0.0), leave_out=("B1",))
    assert _placed(locate_grid(finds)) == _expected(finds, truth)
    # readings that settle nothing (none, or a tie) leave the same answer
    unsure = [None] * len(finds)
    assert _placed(locate_grid(finds, unsure)) == _expected(finds, truth)


def test_a_row_wider_than_thirteen_places_is_refused():
    finds, truth = _grid()
    beyond = _find(14 * PITCH, 1 * ROW_GAP)  # a tile two places beyond B13
    with pytest.raises(GridError, match="blue row is wider than 13 tiles"):
        locate_grid(finds + [beyond])


def test_a_row_missing_too_many_tiles_is_refused_by_name():
    finds, _ = _grid(leave_out=("O3", "O5", "O8", "O11"))
    with pytest.raises(GridError, match="found only 9 of the 13 orange tiles"):
        locate_grid(finds)


def test_rows_laid_side_by_side_are_refused():
    # the red row laid on the right of the orange row, a hand apart, with the jokers under
    # the orange row
    finds = [_find(c * PITCH, r * ROW_GAP) for r in range(3) for c in range(13)]
    finds += [_find((16 + c) * PITCH, 2 * ROW_GAP + 9) for c in range(13)]
    finds += [_find(c * PITCH, 3 * ROW_GAP) for c in range(2)]
    with pytest.raises(GridError, match="side by side.*lay the tiles out in five rows"):
        locate_grid(finds)


def test_a_few_misread_colours_and_numbers_are_not_a_wrong_grid():
    finds, truth = _grid()
    read = list(truth)
    read[0:3] = ["B1", "B2", "O8"]      # the black row: three misread
    read[26:29] = ["R1", "R2", "R3"]    # the orange row: orange read as red, three times
    assert _placed(locate_grid(finds, read)) == _expected(finds, truth)


def test_rows_laid_in_another_colour_order_are_refused():
    finds, truth = _grid()
    # blue laid first, black second: the reader reads the rows' colours
    read = [t if t == "J" else {"K": "B", "B": "K"}.get(t[0], t[0]) + t[1:] for t in truth]
    with pytest.raises(GridError, match="the black row reads as blue tiles"):
        locate_grid(finds, read)


def test_a_row_laid_from_13_down_to_1_is_refused():
    finds, truth = _grid()
    read = list(truth)
    read[13:26] = [f"B{14 - n}" for n in range(1, 14)]
    with pytest.raises(GridError, match="the blue row reads 13 to 1"):
        locate_grid(finds, read)
