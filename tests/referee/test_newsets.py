"""The new sets a freed joker may go into (referee.newsets), as the hint search lists them.

003: "A joker that has been replaced must be used in the player's same turn as part of a new
set." 000: "The joker must be played that same turn in a set with at least two other tiles
from the player's rack.\""""

from collections import Counter

from referee import parse_tiles
from referee.newsets import new_sets


def _sets(jokers, table, rack, min_rack, melds_of=None, own=frozenset(), rack_jokers=0):
    table_left = Counter(parse_tiles(table))
    rack_left = Counter(parse_tiles(rack))
    if melds_of is None:
        melds_of = {t: frozenset({i}) for i, t in enumerate(table_left)}
    return [" ".join(map(str, s.tiles)) for s in
            new_sets(jokers, rack_jokers, table_left, rack_left, min_rack, melds_of, own)]


def test_a_freed_joker_with_two_rack_tiles_every_place():
    got = _sets(1, "", "K10 K11", 2)
    assert set(got) == {"J K10 K11", "K10 K11 J"}
    assert "K10 J K11" not in got  # K10 and K11 are next to each other: no gap for the joker


def test_the_rack_minimum_and_the_rack_first():
    # K9 only on the table: J K10 K11 K9 ... with min 2 every set needs both rack tiles
    got = _sets(1, "K9", "K10 K11", 2)
    assert "K9 K10 K11 J" in got and "J K9 K10" not in got
    assert got.index("J K10 K11") < got.index("K9 K10 K11 J")  # shorter first, same rack
    # with no minimum a set of table tiles alone may be new (each from a different meld)
    assert "K9 J K11" in _sets(1, "K9", "K11", 0)


def test_no_tile_that_can_only_come_from_the_joker_s_own_set():
    # K9 lies only in meld 0, the joker's own set: a set needing it from the table is out
    got = _sets(1, "K9", "K10 K11", 0, melds_of={parse_tiles("K9")[0]: frozenset({0})},
                own=frozenset({0}))
    assert got and not any("K9" in s for s in got)


def test_two_tiles_from_one_meld_cannot_both_go():
    # K9 and K10 lie together in meld 3 only: a new set cannot hold both from the table
    k9, k10 = parse_tiles("K9 K10")
    got = _sets(1, "K9 K10", "", 0, melds_of={k9: frozenset({3}), k10: frozenset({3})})
    assert not any("K9" in s and "K10" in s for s in got)


def test_groups_and_rack_jokers():
    got = _sets(1, "", "K7 B7", 2)
    assert "K7 B7 J" in got and any(s.startswith("K7 B7") and s.count("J") == 1 and
                                    len(s.split()) == 3 for s in got)
    # a rack joker may join the freed one (two jokers, one numbered tile from the rack)
    assert "R7 J J" in _sets(1, "", "R7", 2, rack_jokers=1)


def test_a_tile_in_two_melds_may_come_from_the_one_that_is_not_the_joker_s_own():
    # K9 lies in meld 0 (the joker's own set) and in meld 1: it can come from meld 1
    k9 = parse_tiles("K9")[0]
    got = _sets(1, "K9", "K10 K11", 0, melds_of={k9: frozenset({0, 1})}, own=frozenset({0}))
    assert "K9 K10 K11 J" in got
    # K9 and K10 each lie in meld 2 and meld 3: one from each
    k10 = parse_tiles("K10")[0]
    got = _sets(1, "K9 K10", "", 0, melds_of={k9: frozenset({2, 3}), k10: frozenset({2, 3})})
    assert "K9 K10 J" in got


def test_runs_stay_between_1_and_13():
    # 003: a run is "three or more consecutive (one after the other) numbers": no tile below
    # 1 or above 13 for the joker to stand for
    assert _sets(1, "", "K1 K2", 2) == ["K1 K2 J"]
    assert _sets(1, "", "K12 K13", 2) == ["J K12 K13"]


def test_every_set_has_three_tiles_and_enough_from_the_rack():
    # even with no rack minimum, two tiles and the joker: a set of three at least
    assert _sets(1, "", "K10 K11", 0) == ["J K10 K11", "K10 K11 J"]
    # 000: "at least two other tiles from the player's rack": K10 alone is not enough
    assert _sets(1, "K9 K11", "K10", 2) == []
    # a group of 7s: every set holds both rack 7s (O7 and R7 lie on the table)
    got = _sets(1, "O7 R7", "K7 B7", 2)
    assert got and all("K7" in s and "B7" in s for s in got), got


def test_the_sets_the_rack_gives_most_to_come_first():
    def from_rack(s, rack):  # the rack's numbered tiles, and its jokers (one joker is freed)
        tiles = s.split()
        return sum(1 for t in tiles if t in rack.split()) + tiles.count("J") - 1

    got = _sets(1, "K9", "K10 K11", 0)
    assert set(got[:2]) == {"J K10 K11", "K10 K11 J"}  # two rack tiles, three long
    assert set(got[2:4]) == {"J K9 K10 K11", "K9 K10 K11 J"}  # two rack tiles, four long
    assert set(got[4:]) == {"J K9 K10", "K9 J K11", "K9 K10 J"}  # one rack tile
    # a rack joker counts as a rack tile: R7 B7 and both jokers first
    got = _sets(1, "", "R7 B7", 2, rack_jokers=1)
    assert got[0] == "B7 R7 J J"
    assert [from_rack(s, "R7 B7") for s in got] == sorted(
        (from_rack(s, "R7 B7") for s in got), reverse=True)


def test_a_limit_on_how_many_sets():
    from referee.newsets import new_sets

    rack = Counter(parse_tiles("K10 K11"))
    assert len(list(new_sets(1, 0, Counter(), rack, 2, {}, frozenset(), limit=2))) == 2
    assert new_sets(1, 0, Counter(), rack, 2, {}, frozenset(), limit=1) is None


def test_groups_of_three_or_four_from_1_to_13():
    # 003: a group is "three or four tiles of the same number but in different colours"
    got = _sets(1, "", "K7 B7 O7 R7", 2)
    assert "K7 B7 O7 J" in got and "K7 B7 J" in got
    assert all(len(s.split()) <= 4 for s in got)
    assert "K1 B1 J" in _sets(1, "", "K1 B1", 2)
    assert "K13 B13 J" in _sets(1, "", "K13 B13", 2)


def test_a_run_holds_its_joker_inside_its_own_window():
    # K8 K9 K10 from the rack, K12 on the table: the joker stands for a number of the run
    got = _sets(1, "K12", "K8 K9 K10", 0)
    assert all(s.count("J") == 1 for s in got)
    assert "K8 K9 K10 J K12" in got and "K8 K9 K10 J" in got
    # four in a row: a window of three of them still holds the joker
    got = _sets(1, "", "K7 K8 K9 K10", 0)
    assert all(s.count("J") == 1 for s in got) and "K8 K9 K10 J" in got


def test_shortest_first_lists_the_same_sets():
    """The hint search lays a deferred place's first freed joker in its sets shortest first
    (``shortest=True``): the same sets as the usual order (a set left out would be a turn
    never tried, a hint worse than the best), each length's sets in the usual order."""
    table = Counter(parse_tiles("K5 K6 B7 O7 R7 B8 B9 O10"))
    rack = Counter(parse_tiles("K7 K8 K9 B10 O9 O11 R6 R8"))
    melds_of = {t: frozenset({i % 3}) for i, t in enumerate(table)}
    args = (1, 1, table, rack, 2, melds_of, frozenset({2}))
    usual = [s.tiles for s in new_sets(*args)]
    short = [s.tiles for s in new_sets(*args, shortest=True)]
    assert len(usual) > 20 and sorted(usual) == sorted(short)
    assert [len(s) for s in short] == sorted(len(s) for s in short)
    for n in {len(s) for s in usual}:
        assert [s for s in short if len(s) == n] == [s for s in usual if len(s) == n]
