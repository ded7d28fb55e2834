"""What changed between two tables (``diff_tables``, ``same_table``): the live view's
"added / moved" lines and the reader's "same table as before" check rest on it.

Each table pair is one of the manipulations the rule texts in ../shared/rules/ describe,
quoted beside it (000 retells the 1998 Pressman rules); what counts as added, taken, moved,
broken and kept is the definition in ``TableDiff``'s docstring."""

from referee import diff_tables, same_table


def strs(xs):
    return [str(x) for x in xs]


def test_shifting_a_run_breaks_it_and_moves_its_tiles():
    # 000: "If red 3, 4, and 5 have already been played, a player may add the red 6 to the
    # end and remove the 3 for use elsewhere." The R3 goes to a new run with the rack's R1 R2.
    d = diff_tables("R3 R4 R5 | K7 B7 O7", "R4 R5 R6 | R1 R2 R3 | K7 B7 O7")
    assert strs(d.added) == ["R1", "R2", "R6"] and d.taken == ()
    assert strs(d.broken) == ["R3 R4 R5"] and strs(d.kept) == ["K7 B7 O7"]
    assert strs(d.moved) == ["R3", "R4", "R5"]
    assert not d.unchanged


def test_splitting_a_run_moves_each_tile_once():
    # 000: "if blue 6, 7, 8, 9, and 10 are already a run, the player may insert his own 8 to
    # make two runs: 6, 7, 8 and 8, 9, 10." Two B8s lie after; only the table's one moved.
    d = diff_tables("B6 B7 B8 B9 B10", "B6 B7 B8 | B8 B9 B10")
    assert strs(d.added) == ["B8"] and d.taken == ()
    assert strs(d.broken) == ["B6 B7 B8 B9 B10"] and d.kept == ()
    assert strs(d.moved) == ["B6", "B7", "B8", "B9", "B10"]


def test_adding_to_a_meld_keeps_it():
    # 000: "he can, on each turn, play one or more tiles from his rack, making or adding to
    # groups and/or runs." A meld added to is not broken, and nothing moved.
    d = diff_tables("R3 R4 R5 | K7 B7 O7", "R3 R4 R5 R6 | K7 B7 O7 R7")
    assert strs(d.added) == ["R6", "R7"]
    assert strs(d.kept) == ["R3 R4 R5", "K7 B7 O7"] and d.broken == () and d.moved == ()
    # two runs joined by the rack's R6 are both still whole in the long run
    d = diff_tables("R3 R4 R5 | R7 R8 R9", "R3 R4 R5 R6 R7 R8 R9")
    assert strs(d.kept) == ["R3 R4 R5", "R7 R8 R9"] and d.broken == () and d.moved == ()


def test_two_equal_melds_are_kept_one_for_one():
    # Two copies of every tile: two K7 B7 O7 groups may lie. One kept whole, the other
    # grown by R7; the two copies of the group are each counted once.
    d = diff_tables("K7 B7 O7 | K7 B7 O7", "K7 B7 O7 | K7 B7 O7 R7")
    assert strs(d.kept) == ["K7 B7 O7", "K7 B7 O7"] and d.broken == () and d.moved == ()
    # 000: "Any one tile may be removed from a four-tile group": of two equal melds before,
    # one whole after and one split across two melds, one is kept and one broken.
    d = diff_tables("K7 B7 O7 | K7 B7 O7", "K7 B7 O7 | K7 B7 | O7 O8 O9")
    assert strs(d.kept) == ["K7 B7 O7"] and strs(d.broken) == ["K7 B7 O7"]
    # the broken group's tiles that lie after: all three (one O7 of each group lies after)
    assert strs(d.moved) == ["K7", "B7", "O7"]
    assert strs(d.added) == ["O8", "O9"]


def test_tiles_taken_off_the_table_are_taken_not_moved():
    # 000: "At the end of the turn, all played tiles must be in valid sets": a tile gone
    # from the table is *taken* (the referee's not-from-rack complaint), and it did not move.
    d = diff_tables("R3 R4 R5 R6 | K7 B7 O7", "R3 R4 R5 | K7 B7 O7")
    assert strs(d.taken) == ["R6"] and d.added == ()
    assert strs(d.broken) == ["R3 R4 R5 R6"]
    assert strs(d.moved) == ["R3", "R4", "R5"]
    assert d.to_dict() == {"added": [], "taken": ["R6"], "moved": ["R3", "R4", "R5"],
                           "broken": ["R3 R4 R5 R6"], "kept": ["K7 B7 O7"],
                           "melds_before": ["R3 R4 R5 R6", "K7 B7 O7"],
                           "melds_after": ["R3 R4 R5", "K7 B7 O7"]}


def test_the_same_melds_in_another_order_are_the_same_table():
    assert diff_tables("R3 R4 R5 | K7 B7 O7", "O7 K7 B7 | R3 R4 R5").unchanged
    assert same_table("R3 R4 R5 | K7 B7 O7", "k7 b7 o7 | r5 r4 r3")
    # the same tiles grouped otherwise are not the same table
    assert not same_table("R3 R4 R5 | R6 R7 R8", "R3 R4 R5 R6 | R7 R8")
    assert not diff_tables("R3 R4 R5 | R6 R7 R8", "R3 R4 R5 R6 | R7 R8").unchanged


def test_melds_kept_whole_are_matched_before_melds_added_to():
    # the same two melds in the other order: nothing broken, nothing moved (the smaller one
    # must not be counted as added to the larger one, leaving the larger one broken)
    d = diff_tables("K7 B7 O7 | K7 B7 O7 R7", "K7 B7 O7 R7 | K7 B7 O7")
    assert d.unchanged and d.broken == () and d.moved == ()
    assert strs(d.kept) == ["K7 B7 O7", "K7 B7 O7 R7"]
    # two runs pushed together as they are: both still whole in the long run
    d = diff_tables("R3 R4 R5 | R6 R7 R8", "R3 R4 R5 R6 R7 R8")
    assert strs(d.kept) == ["R3 R4 R5", "R6 R7 R8"] and d.moved == ()


def test_a_misread_table_is_compared_all_the_same():
    # a reading may hold a third copy of a tile until it is corrected; comparing it to the
    # table before must not fail
    d = diff_tables("R7 R8 R9", "R7 R8 R9 | R7 R7")
    assert strs(d.added) == ["R7", "R7"] and d.to_dict()["added"] == ["R7", "R7"]
    assert same_table("R7 R7 R7", "R7 R7 R7") and not same_table("R7 R7 R7", "R7 R7")
    assert diff_tables("R7 R7 R7", "R7 R7 R7").unchanged
