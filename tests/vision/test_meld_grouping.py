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


def _as_sets(melds, names=None):
    names = list(range(sum(map(len, melds)))) if names is None else names
    return sorted(sorted(int(names[i]) for i in m) for m in melds)


def test_the_melds_do_not_depend_on_the_order_the_tiles_were_found_in():
    """Rows laid by hand: each tile a little turned, off the line, with gaps of up to 0.45 of
    a tile. The finder lists tiles in no particular order; the same table must give the same
    melds however they are listed (a pair's fit was once measured from whichever tile came
    first, and 766 of 3,000 such tables changed their melds with the order)."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        tiles = []
        for row in range(int(rng.integers(1, 3))):
            x, y = 100.0, 100.0 + 120 * row
            for _k in range(int(rng.integers(2, 6))):
                w, h = 40 * rng.uniform(0.9, 1.1), 56 * rng.uniform(0.9, 1.1)
                turn = np.radians(rng.normal(0, 8))
                tiles.append(rect_corners((x, y + rng.normal(0, 6)), w, h,
                                          (-np.sin(turn), np.cos(turn))))
                x += w * rng.uniform(1.0, 1.45)
        listed = _as_sets(group_melds(tiles))
        for _p in range(3):
            order = rng.permutation(len(tiles))
            again = group_melds([tiles[i] for i in order])
            assert _as_sets(again, order) == listed, [t.round(1).tolist() for t in tiles]


def _ring(n, centre=(1000.0, 1000.0), w=70, h=97, spacing=1.02):
    """n tiles pushed round in a closed ring, each touching the next (centres ``spacing``
    widths apart), each foot away from the ring's middle."""
    radius = spacing * w / (2 * np.sin(np.pi / n))
    out = []
    for k in range(n):
        a = 2 * np.pi * k / n
        out.append(rect_corners((centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a)),
                                w, h, (np.cos(a), np.sin(a))))
    return out


def test_a_ring_of_tiles_elsewhere_does_not_change_how_the_rest_of_the_table_groups():
    """Two tiles are one meld by how they lie to each other alone (the module's rule: side
    by side, near, lined up, turned alike). A closed ring of 24 touching tiles (no meld;
    tiles pushed round a circle, 15 degrees between neighbours) is the one layout where a
    pair of neighbours can close a loop, as its last pair does; the melds laid elsewhere,
    each of them looser than the ring (gaps of 0.15 and 0.25 widths), must still be read
    whole: a pair that closes a loop is passed over, not the end of the grouping (were it
    the end, every pair after it would be lost and those tiles read alone). What the ring
    itself reads as is not asserted."""
    ring = _ring(24)
    run = [rect_corners((100 + 1.15 * 70 * k, 100), 70, 97, (0, 1)) for k in range(3)]
    group = [rect_corners((100 + 1.25 * 70 * k, 400), 70, 97, (0, 1)) for k in range(4)]
    for tiles, run_at, group_at in ((ring + run + group, 24, 27),
                                    (run + group + ring, 0, 3)):
        melds = group_melds(tiles)
        assert list(range(run_at, run_at + 3)) in melds
        assert list(range(group_at, group_at + 4)) in melds


def test_two_melds_laid_closer_than_max_gap_on_one_row_stay_two():
    """Melds on a row lie apart while a meld's own tiles are pushed together: two melds of
    touching tiles (gaps up to 0.06 of a tile, each tile a little turned and out of line) a
    third of a tile apart, under MAX_GAP, are two melds, however the tiles are listed. A
    row whose tiles are all spaced alike (a rack, or tiles laid loosely) stays one line."""
    rng = np.random.default_rng(11)
    for _ in range(200):
        tiles, want = [], []
        x = 100.0
        for size in rng.integers(3, 6, 2):
            want.append(list(range(len(tiles), len(tiles) + int(size))))
            for _k in range(int(size)):
                turn = np.radians(rng.normal(0, 2))
                tiles.append(rect_corners((x, 100 + rng.normal(0, 2)), 40, 56,
                                          (-np.sin(turn), np.cos(turn))))
                x += 40 * (1 + rng.uniform(0, 0.06))
            x += 40 * rng.uniform(0.25, 0.38)
        order = rng.permutation(len(tiles))
        melds = group_melds([tiles[i] for i in order])
        assert _as_sets(melds, order) == sorted(want)
    for spacing in (0.0, 0.15, 0.3):
        row = [rect_corners((100 + 40 * (1 + spacing) * k + rng.normal(0, 0.5), 100), 40, 56,
                            (0, 1)) for k in range(7)]
        assert group_melds(row) == [list(range(7))]


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


def _turned(x, y, tile, degrees, conf=0.99, upside_down=False):
    """A tile turned ``degrees`` from square-on, read upside down or not."""
    a = np.radians(degrees)
    down = np.array([np.sin(a), np.cos(a)]) * (-1 if upside_down else 1)
    c = rect_corners((x, y), 70, 97, down)
    return TileReading(tile, conf, c, [], upside_down=upside_down)


def test_two_tiles_side_by_side_are_one_meld_in_laid_order():
    """A meld being laid (two tiles so far) is grouped; listed right to left, it is still
    ordered as laid."""
    tiles = [_tile_at(172, 100, "R5"), _tile_at(100, 100, "R4")]
    assert group_melds([t.corners for t in tiles]) == [[1, 0]]


def test_a_tile_out_of_line_by_a_third_of_its_height_joins_by_half_it_does_not():
    """Hand-laid tiles are not in a perfect line: up to MAX_ACROSS (0.35) tile heights of
    misalignment is one meld; half a tile height out of line is another row."""
    near = [_tile_at(100, 100, "R4"), _tile_at(172, 100 + 0.3 * 97, "R5")]
    assert group_melds([t.corners for t in near]) == [[0, 1]]
    far = [_tile_at(100, 100, "R4"), _tile_at(172, 100 + 0.5 * 97, "R5")]
    assert sorted(group_melds([t.corners for t in far])) == [[0], [1]]
    # at most MAX_ACROSS: 35 pixels out of line for tiles 100 pixels tall still joins
    edge = [rect_corners((100, 100), 70, 100, (0, 1)), rect_corners((172, 135), 70, 100, (0, 1))]
    assert group_melds(edge) == [[0, 1]]


@pytest.mark.parametrize("turn, melds", [(-15.0, [[0], [1]]), (15.0, [[0, 1]])])
def test_a_neighbour_is_lined_up_as_seen_from_each_of_the_two_tiles(turn, melds):
    """A square-on tile and one turned 15 degrees, 0.3 of a tile height lower: from the
    square-on tile the other lies within MAX_ACROSS of its line either way; from the turned
    tile, turned one way, it does too (one meld), turned the other, it lies half a tile height
    off its line (two melds)."""
    a = np.radians(turn)
    tiles = [rect_corners((100, 100), 70, 97, (0, 1)),
             rect_corners((172, 100 + 0.3 * 97), 70, 97, (-np.sin(a), np.cos(a)))]
    assert sorted(group_melds(tiles)) == melds
    assert _as_sets(group_melds(tiles[::-1]), [1, 0]) == melds     # listed the other way


def test_tiles_set_about_a_tile_apart_are_melds_of_their_own():
    """A gap wider than MAX_GAP (0.4 tile widths) is no join: two tiles a whole tile apart,
    or three spaced evenly 0.9 of a tile apart (so no gap stands out to cut at), are each a
    meld of its own."""
    assert group_melds([_tile_at(100, 100).corners, _tile_at(240, 100).corners]) == [[0], [1]]
    row = [_tile_at(100 + 70 * 1.9 * k, 100).corners for k in range(3)]
    assert group_melds(row) == [[0], [1], [2]]


def test_a_tile_out_of_line_keeps_its_place_in_the_meld_beside_a_stray_find():
    """R3 R4 R5 with R5 laid a quarter of a tile height out of line, and a stray find in
    line over the join of R3 and R4: the stray is no neighbour (R4 touches R3 more nearly),
    and finding it out does not stop R5 joining the meld."""
    tiles = [_tile_at(100, 100, "R3"), _tile_at(172, 100, "R4"),
             _tile_at(244, 100 + 0.25 * 97, "R5"), _tile_at(100 + 0.8 * 70, 100 + 0.02 * 97, "K1")]
    melds = group_melds([t.corners for t in tiles])
    assert sorted([tiles[i].tile for i in m] for m in melds) == [["K1"], ["R3", "R4", "R5"]]


def test_a_row_of_touching_tiles_is_one_meld_when_some_outlines_overlap():
    """The finder draws an outline a little big or small: neighbours 0.95 and 1.05 tile
    widths apart are both side by side, and the row is one meld, in order."""
    tiles = [_tile_at(100, 100, "R3"), _tile_at(100 + 0.95 * 70, 100, "R4"),
             _tile_at(100 + 2.0 * 70, 100, "R5")]
    assert group_melds([t.corners for t in tiles]) == [[0, 1, 2]]


@pytest.mark.parametrize("join", [0, 1])
@pytest.mark.parametrize("stray_first", [False, True])
@pytest.mark.parametrize("along, across", [(0.8, 0.3), (0.8, 0.02), (0.3, 0.0)])
def test_a_find_over_the_join_of_two_tiles_does_not_join_the_meld_between_them(
        join, stray_first, along, across):
    """Each tile has one neighbour on each side: a stray find partly over two tiles of a meld
    (a shadow, a tile's edge), over either join, out of line or in line with the meld, listed
    before or after the meld's tiles, stays on its own and the meld keeps its order: of two
    finds on one side of a tile, the one nearest to touching it is its neighbour (``along``,
    ``across``: the stray's offset from the tile left of the join, in tile widths and
    heights)."""
    meld = [_tile_at(100 + 72 * k, 100, t) for k, t in enumerate(["R3", "R4", "R5"])]
    stray = _tile_at(100 + 72 * join + along * 70, 100 + across * 97, "K1")
    tiles = [stray] + meld if stray_first else meld + [stray]
    melds = group_melds([t.corners for t in tiles])
    assert sorted([tiles[i].tile for i in m] for m in melds) == [["K1"], ["R3", "R4", "R5"]]


def test_melds_are_listed_top_to_bottom_then_left_to_right():
    """The table reads as it lies: the melds of the top row left to right, then the row
    below, whatever order the finder found their tiles in."""
    spots = {"B5 B6 B7": (100, 300), "R3 R4 R5": (400, 100), "K9 K10 K11": (100, 100)}
    tiles = []
    for text, (x, y) in spots.items():
        tiles += [_tile_at(x + 72 * k, y, t) for k, t in enumerate(text.split())]
    melds = group_melds([t.corners for t in tiles])
    assert [" ".join(tiles[i].tile for i in m) for m in melds] == [
        "K9 K10 K11", "R3 R4 R5", "B5 B6 B7"]


@pytest.mark.parametrize("upside_down", [False, True])
def test_a_meld_is_ordered_the_way_most_of_its_tiles_are_read(upside_down):
    """Tiles laid by hand, each a few degrees out of line, the middle one misread the other
    way up, listed in no order: the meld is ordered as the majority of its tiles read (from
    the camera's right to left when they lie upside down for it)."""
    def meld_of(names, misread, listed):
        xs = dict(zip(names, range(100, 100 + 72 * len(names), 72)[::-1 if upside_down else 1]))
        tiles = [_turned(xs[t], 100, t, 4.0 - 3.0 * k, upside_down=(upside_down != (t in misread)))
                 for k, t in enumerate(listed)]
        [meld] = group_melds([t.corners for t in tiles])
        return [tiles[i].tile for i in meld]

    three = ["R3", "R4", "R5"]
    assert meld_of(three, {"R4"}, ["R5", "R3", "R4"]) == three
    assert meld_of(three, {"R4"}, ["R4", "R5", "R3"]) == three      # the misread one first
    five = ["R3", "R4", "R5", "R6", "R7"]                             # two misread of five
    assert meld_of(five, {"R4", "R6"}, five) == five
    assert meld_of(five, {"R4", "R6"}, ["R4", "R7", "R3", "R6", "R5"]) == five


@pytest.mark.parametrize("names, upside_down", [
    (["R3", "R4", "R5", "R6"], {"R3", "R5"}),     # the leftmost tile upside down
    (["R3", "R4", "R5", "R6"], {"R4", "R6"}),
    (["R3", "R4", "R5", "R6"], {"R3", "R4"}),
    (["K7", "B7"], {"K7"}),                        # a meld being laid, one tile each way
    (["K7", "B7"], {"B7"}),
])
def test_a_meld_with_as_many_tiles_each_way_up_is_listed_as_the_photo_is_read(names,
                                                                               upside_down):
    """Half of a meld's tiles read upside down: no way up is the meld's (it is laid one way,
    and half its tiles are misread, which half nothing says), so it is listed as the photo is
    read, left to right, whichever tile was found first and whichever tiles lie which way."""
    import itertools

    xs = dict(zip(names, range(100, 100 + 72 * len(names), 72)))
    for listed in itertools.permutations(names):
        tiles = [_turned(xs[t], 100, t, 4.0 - 3.0 * k, upside_down=t in upside_down)
                 for k, t in enumerate(listed)]
        [meld] = group_melds([t.corners for t in tiles])
        assert [tiles[i].tile for i in meld] == names, listed


def _rows(*rows):
    """A reading of melds laid in rows 200 px apart: each row a list of (tile, confidence,
    alternatives[, upside down])."""
    tiles = []
    for r, row in enumerate(rows):
        for k, spec in enumerate(row):
            t, conf, alts, *up = spec
            down = (0, -1) if up and up[0] else (0, 1)
            tiles.append(_tile_at(100 + 72 * k, 100 + 200 * r, t, conf, alts, down=down))
    reading = Reading(tiles=tiles)
    reading.melds = group_melds([t.corners for t in tiles])
    assert len(reading.melds) == len(rows)
    return reading


def test_sanity_check_looks_at_every_meld_whatever_comes_before():
    """A valid meld, then a pair, then a meld with a doubtful tile and one turned round: the
    later melds are checked too."""
    r = _rows([("K5", 0.99, []), ("B5", 0.99, []), ("O5", 0.99, [])],
              [("K1", 0.99, []), ("K2", 0.99, [])],
              [("R6", 0.99, []), ("R8", 0.6, [("R7", 0.35)]), ("R8", 0.99, [], True)])
    flags = {u.index: u for u in sanity_check(r)}
    assert set(flags) == {6, 7}
    assert flags[6].reason.startswith("R8 read at 0.60; as R7 the run would be valid")
    assert flags[7].reason == "R8 lies the other way up from the rest of its meld"


def test_sanity_check_names_a_run_with_a_joker_a_run():
    """B7 R8 J with B7 in doubt, R7 its runner-up: as R7 it is a run (R7 R8 and a joker for
    R9 or R6), and the suggestion says run."""
    r = _rows([("B7", 0.6, [("R7", 0.3)]), ("R8", 0.99, []), ("J", 0.99, [])])
    [u] = sanity_check(r)
    assert u.index == 0 and u.alternatives == ["R7"]
    assert u.reason.startswith("B7 read at 0.60; as R7 the run would be valid")


def test_sanity_check_second_guesses_only_tiles_read_below_097():
    """A tile read at 0.97 or more stands, even where its runner-up would make the meld
    valid; below that, a runner-up at 0.02 or more is offered."""
    sure = _rows([("R6", 0.99, []), ("R8", 0.97, [("R7", 0.02)]), ("R8", 0.99, [])])
    assert sanity_check(sure) == []
    sure = _rows([("R6", 0.99, []), ("R8", 0.98, [("R7", 0.02)]), ("R8", 0.99, [])])
    assert sanity_check(sure) == []
    doubt = _rows([("R6", 0.99, []), ("R8", 0.9, [("R9", 0.08), ("R7", 0.02)]),
                   ("R8", 0.99, [])])
    [u] = sanity_check(doubt)
    assert (u.index, u.alternatives) == (1, ["R7"])


def test_sanity_check_follows_the_rules_it_is_given():
    """With runs that must lie in order (``meld_order="as-laid"``: "a run's tiles must already
    lie in sequence"; shared/rules 003: "A “run” is a set of three or more consecutive (one
    after the other) numbers, which are all of the same colour"), R8 R6 R7 as laid is not a
    run, and the doubtful R8 is suggested as R5; B9 B6 B7 is mended by B5, not by B8."""
    from dataclasses import replace

    from referee import get_rules

    as_laid = replace(get_rules(), meld_order="as-laid")
    r = _rows([("R8", 0.6, [("R5", 0.35)]), ("R6", 0.99, []), ("R7", 0.99, [])],
              [("B9", 0.6, [("B8", 0.3), ("B5", 0.05)]), ("B6", 0.99, []), ("B7", 0.99, [])])
    flags = {u.index: u for u in sanity_check(r, as_laid)}
    assert flags[0].reason.startswith("R8 read at 0.60; as R5 the run would be valid")
    assert flags[0].alternatives == ["R5"]
    assert flags[3].reason.startswith("B9 read at 0.60; as B5 the run would be valid")
    assert flags[3].alternatives == ["B5"]
    # under the default rules (any order) R8 R6 R7 is a run: only its doubt is flagged
    flags = {u.index: u for u in sanity_check(r)}
    assert flags[0].reason == "R8 read at 0.60"
    assert flags[3].alternatives[0] == "B8"


def test_the_tile_turned_from_the_majority_of_its_meld_is_flagged():
    """Five tiles with two turned round: the two are flagged; three with two turned round:
    the third is."""
    r = _rows([("R3", 0.99, []), ("R4", 0.99, [], True), ("R5", 0.99, []),
               ("R6", 0.99, [], True), ("R7", 0.99, [])],
              [("K3", 0.99, [], True), ("K4", 0.99, [], True), ("K5", 0.99, [])])
    flags = {u.index: u.reason for u in sanity_check(r)}
    assert flags == {1: "R4 lies the other way up from the rest of its meld",
                     3: "R6 lies the other way up from the rest of its meld (upside down it "
                        "reads R9)",
                     7: "K5 lies the other way up from the rest of its meld"}


def test_in_a_meld_with_as_many_tiles_each_way_up_every_tile_is_flagged():
    """Four tiles, two read upside down: each lies the other way up from two of the three
    others, and which two are misread nothing says, so a person is asked to look at all four
    (a 6 or a 9 with what it reads upside down); in a meld of five with two turned round the
    three that agree are not flagged."""
    r = _rows([("R6", 0.99, [], True), ("R7", 0.99, []), ("R8", 0.99, [], True),
               ("R9", 0.99, [])],
              [("K3", 0.99, [], True), ("K4", 0.99, []), ("K5", 0.99, []),
               ("K6", 0.99, [], True), ("K7", 0.99, [])])
    flags = {u.index: (u.reason, u.alternatives) for u in sanity_check(r)}
    way = "lies the other way up from the rest of its meld"
    assert flags == {0: (f"R6 {way} (upside down it reads R9)", ["R9"]),
                     1: (f"R7 {way}", []),
                     2: (f"R8 {way}", []),
                     3: (f"R9 {way} (upside down it reads R6)", ["R6"]),
                     4: (f"K3 {way}", []),
                     7: (f"K6 {way} (upside down it reads K9)", ["K9"])}


def test_a_tile_read_at_the_doubt_threshold_is_not_in_doubt():
    """``uncertain_below``: a tile read below it is listed, at it, it is not; the two likeliest
    other readings are offered."""
    alts = [("K3", 0.1), ("K8", 0.05), ("K2", 0.03)]
    r = _rows([("K5", 0.75, alts)], [("K6", 0.7499, alts)])
    [u] = sanity_check(r, uncertain_below=0.75)
    assert u.index == 1 and u.reason == "K6 read at 0.75" and u.alternatives == ["K3", "K8"]


def test_a_third_copy_is_offered_its_two_likeliest_other_readings():
    specs = [("K5", 0.99, []), ("K5", 0.98, []), ("K5", 0.8, [("K3", 0.1), ("K8", 0.05),
                                                              ("K2", 0.03)])]
    tiles = [_tile_at(100 + 300 * k, 100, t, c, a) for k, (t, c, a) in enumerate(specs)]
    r = Reading(tiles=tiles, melds=[[i] for i in range(3)])
    [u] = sanity_check(r)
    assert u.index == 2 and u.alternatives == ["K3", "K8"]


def _line(gaps, width=40.0, outline=1.0):
    """Tiles in a row, ``gaps`` (tile widths) between neighbours; ``outline``: the outlines'
    width over the tiles' (a finder's outlines a little too wide overlap their neighbours)."""
    x, tiles = 100.0, []
    for k in range(len(gaps) + 1):
        tiles.append(rect_corners((x, 100), width * outline, width * 1.4, (0, 1)))
        if k < len(gaps):
            x += width * (1 + gaps[k])
    return tiles


@pytest.mark.parametrize("gaps, melds", [
    # a meld of touching tiles laid a little loosely in one place stays whole
    ((0.0, 0.12, 0.0), [[0, 1, 2, 3]]),
    # three tiles: two pushed together, one set apart, are two melds
    ((0.0, 0.3), [[0, 1], [2]]),
    ((0.3, 0.0), [[0], [1, 2]]),
    # a tile set apart, then a meld with one loose gap of its own: one cut only
    ((0.3, 0.0, 0.15), [[0], [1, 2, 3]]),
])
def test_a_line_is_cut_only_where_one_gap_stands_out_by_a_fifth_of_a_tile(gaps, melds):
    assert group_melds(_line(gaps)) == melds


def test_outlines_overlapping_their_neighbours_do_not_make_a_small_gap_stand_out():
    """The finder's outlines can be a little wider than the tiles, so touching tiles'
    outlines overlap (gaps below 0): a gap of 0.15 tile widths stands out from them by more
    than a fifth of a tile, yet is no wider than a loosely laid meld's, and cuts nothing."""
    tiles = _line((0.0, 0.0, 0.25, 0.0), outline=1.1)
    assert group_melds(tiles) == [[0, 1, 2, 3, 4]]
