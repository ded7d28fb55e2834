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
