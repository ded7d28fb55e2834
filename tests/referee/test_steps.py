"""A turn told as steps a person can follow (the hint's steps, the dispute view's words).

Each turn is one of the manipulations the rule texts in ../shared/rules/ describe, quoted
beside it (000 retells the 1998 Pressman rules, 003 the current Sabra rules); the steps are
what a person does to make it, in the words of ``referee.steps``' docstring."""

from referee import check_turn
from referee.steps import describe


def texts(before, after, verdict=None):
    return [s.text for s in describe(before, after, verdict)]


def test_shifting_a_run():
    # 000: "If red 3, 4, and 5 have already been played, a player may add the red 6 to the
    # end and remove the 3 for use elsewhere." The R3 goes into a new run with R1 R2.
    steps = describe("R3 R4 R5", "R4 R5 R6 | R1 R2 R3")
    assert [s.to_dict() for s in steps] == [
        {"action": "add", "tiles": ["R6"], "meld": "R3 R4 R5", "target": "R4 R5 R6",
         "text": "add R6 to R4 R5", "phrase": "add", "args": {"tiles": "R6", "meld": "R4 R5"}},
        {"action": "lay", "tiles": ["R1", "R2"], "meld": None, "target": "R1 R2 R3",
         "text": "lay R1 R2 R3 (R3 from R3 R4 R5)", "phrase": "lay-with",
         "args": {"meld": "R1 R2 R3", "moved": [["R3", "R3 R4 R5"]]}}]


def test_splitting_a_run_names_a_long_run_by_its_ends():
    # 000: "if blue 6, 7, 8, 9, and 10 are already a run, the player may insert his own 8 to
    # make two runs: 6, 7, 8 and 8, 9, 10."
    steps = describe("B6 B7 B8 B9 B10", "B6 B7 B8 | B8 B9 B10")
    assert [(s.action, s.text) for s in steps] == [("split", "split B6…B10 at B8"),
                                                   ("add", "add B8 to B6 B7")]
    assert (steps[0].tiles, steps[0].meld, steps[0].target) == (("B8",), "B6 B7 B8 B9 B10",
                                                                 None)
    # split in the middle of a longer run, and a rack tile added to another meld
    assert texts("R3 R4 R5 R6 R7 R8 R9 | K1 K2 K3", "R3 R4 R5 | R6 R7 R8 R9 | K1 K2 K3 K4") \
        == ["split R3…R9 at R6", "add K4 to K1 K2 K3"]


def test_substituting_in_a_group_and_removing_from_a_group_of_four():
    # 000: "If blue 6, red 6, and orange 6 are already a group, the player may add the black 6
    # and remove any one of the other three for use elsewhere."
    assert texts("K6 B6 O6", "K6 B6 R6 | O6 O7 O8") == [
        "add R6 to K6 B6", "lay O6 O7 O8 (O6 from K6 B6 O6)"]
    # 000: "Any one tile may be removed from a four-tile group."
    assert texts("K6 B6 O6 R6", "K6 B6 O6 | R6 R7 R8") == ["lay R6 R7 R8 (R6 from K6 B6 O6 R6)"]


def test_a_new_meld_and_a_meld_added_to():
    # 000: "play one or more tiles from his rack, making or adding to groups and/or runs"
    steps = describe("R3 R4 R5", "R3 R4 R5 | K9 B9 O9")
    assert [s.to_dict() for s in steps] == [
        {"action": "lay", "tiles": ["K9", "B9", "O9"], "meld": None, "target": "K9 B9 O9",
         "text": "lay K9 B9 O9", "phrase": "lay", "args": {"meld": "K9 B9 O9"}}]
    # a rack joker added last, after the numbered tiles
    assert texts("R3 R4 R5 | K7 B7 O7", "R3 R4 R5 R6 J | K7 B7 O7") == ["add R6 J to R3 R4 R5"]
    # a table tile moved from one meld to another that stays
    assert texts("R3 R4 R5 R6 | K6 B6 O6", "R3 R4 R5 | K6 B6 O6 R6") == [
        "move R6 from R3 R4 R5 R6 to K6 B6 O6"]


def test_a_joker_swapped_for_the_rack_s_tile_and_laid_anew():
    # 000: "if blue 3, blue 4, joker is an existing run, a player holding a blue 5, a red 7 and
    # an orange 7 may replace the joker with his blue 5 and play the joker with the two sevens
    # as a new group."
    before, after = "B3 B4 J", "B3 B4 B5 | J R7 O7"
    v = check_turn(before, after, "B5 R7 O7", rules="pressman-1998")
    assert v.legal, v.summary()
    steps = describe(before, after, v)
    assert [s.to_dict() for s in steps] == [
        {"action": "swap", "tiles": ["B5"], "meld": "B3 B4 J", "target": "J R7 O7",
         "text": "swap the joker in B3 B4 J for your B5, then lay it with R7 O7",
         "phrase": "swap-lay", "args": {"meld": "B3 B4 J", "tiles": "B5", "rest": "R7 O7"}}]


def test_both_jokers_of_a_meld_swapped_and_laid_together_in_one_new_set():
    # 000: "A player with a tile matching the color and value of a joker may replace the joker
    # with that tile. The joker must be played that same turn in a set with at least two other
    # tiles from the player's rack." J O1 R1 J with the rack's K1 and B1: both jokers freed,
    # then laid with the rack's O2 O3 (two rack tiles beside each joker). The hint once told a
    # split of J O1 R1 J and failed on the jokers' piece (StopIteration).
    before, after, rack = "J O1 R1 J", "K1 B1 O1 R1 | J O2 O3 J", "O2 B1 O3 K1"
    v = check_turn(before, after, rack, rules="pressman-1998")
    assert v.legal, v.summary()
    told = ["swap the joker in J O1 R1 J for your K1, then lay it with O2 O3",
            "swap the joker in J O1 R1 J for your B1, then add it to O2 O3 J"]
    assert texts(before, after, v) == told
    from referee import best_move

    move = best_move(before, rack, "pressman-1998")
    assert sorted(map(str, move.placed)) == sorted(rack.split())
    assert check_turn(before, move.table, rack, rules="pressman-1998").legal
    assert [s.action for s in move.steps] == ["swap", "swap"]
    assert all(s.meld == "J O1 R1 J" for s in move.steps)


def test_both_jokers_of_a_group_with_one_numbered_tile_laid_anew():
    # 003: "A joker that has been replaced must be used in the player's same turn as part of
    # a new set." J K1 J's jokers, exchanged for B1 and O1, go down with R1 R2 R3: the group
    # stays where its K1 is (two jokers left it, but they were exchanged, not the group
    # moved), and R1 R2 R3 J J is a new set. The steps once told it as a group laid anew
    # and "add R1 R2 R3 to J J".
    before, after, rack = "J K1 J | R5 R6 R7", "B1 K1 O1 | R5 R6 R7 | R1 R2 R3 J J", "B1 O1 R1 R2 R3"
    v = check_turn(before, after, rack, rules="sabra")
    assert v.legal, v.summary()
    assert texts(before, after, v) == [
        "swap the joker in J K1 J for your B1, then lay it with R1 R2 R3",
        "swap the joker in J K1 J for your O1, then add it to R1 R2 R3 J"]


def test_melds_joined_into_one_are_told_as_a_move():
    # 000: "Players may add the appropriate tile to either end of a run": a whole run laid
    # against another is a move a player makes, and the steps must say it (they once said
    # nothing, so a hint taking R5 from R3 R4 R5 for a joker left R3 R4 lying alone)
    assert texts("R6 R7 R8 | R3 R4 R5", "R3 R4 R5 R6 R7 R8 R9") == [
        "move R3 R4 R5 from R3 R4 R5 to R6 R7 R8", "add R9 to R6 R7 R8"]
    before, after, rack = "J R6 J | R3 R4 R5", "R3 R4 R5 R6 J | B3 O3 J", "B3 O3"
    v = check_turn(before, after, rack, rules="sabra", jokers_before={0: "R7 R5"})
    assert v.legal, v.summary()
    assert texts(before, after, v) == [
        "swap the joker in J R6 J for R5 from R3 R4 R5, then lay it with B3 O3",
        "move R3 R4 from R3 R4 R5 to J R6 J"]


def test_a_joker_swapped_for_a_table_tile():
    # 003: "The tile used to replace the joker can come from the player's rack or from the
    # table." R5 leaves the group of four for the joker's place; the joker goes with K9 K11.
    before, after = "R4 J R6 | K5 B5 O5 R5", "R4 R5 R6 | K5 B5 O5 | K9 J K11"
    v = check_turn(before, after, "K9 K11", rules="sabra")
    assert v.legal, v.summary()
    # one step: the swap moves the R5; no second "move R5" step repeats it
    assert texts(before, after, v) == ["swap the joker in R4 J R6 for R5 from K5 B5 O5 R5, "
                                       "then lay it with K9 K11"]


def test_a_long_run_is_named_by_its_ends_only_when_both_ends_are_numbered():
    # a joker at an end would leave "R3…J" unreadable: such a run is named in full
    assert texts("R3 R4 R5 J R7", "R3 R4 R5 J R7 R8") == ["add R8 to R3…R7"]
    assert texts("R3 J R5 R6 R7", "R3 J R5 R6 R7 R8") == ["add R8 to R3…R7"]
    assert texts("R3 R4 R5 R6 J", "R2 R3 R4 R5 R6 J") == ["add R2 to R3 R4 R5 R6 J"]
    assert texts("J R4 R5 R6 R7", "J R4 R5 R6 R7 R8") == ["add R8 to J R4 R5 R6 R7"]


def test_a_joker_left_in_its_meld_is_no_swap():
    # 000: "he can ... play one or more tiles from his rack, making or adding to groups and/or
    # runs": R7 added to R4 J R6, the joker stays (no swap told)
    v = check_turn("R4 J R6", "R4 J R6 R7", "R7", rules="sabra")
    assert v.legal and texts("R4 J R6", "R4 J R6 R7", v) == ["add R7 to R4 J R6"]
    # one joker stays, the other is swapped: the swap is told
    before, after = "K5 J O5 | R4 J R6", "K5 J O5 | R4 R5 R6 | K9 J K11"
    v = check_turn(before, after, "R5 K9 K11", rules="sabra")
    assert v.legal and texts(before, after, v) == [
        "swap the joker in R4 J R6 for your R5, then lay it with K9 K11"]


def test_a_swap_and_another_copy_of_the_same_tile_added():
    # two R5s from the rack: one takes the joker's place (told by the swap), the other is
    # added to the group, and a later meld is still told
    before, after = "R4 J R6 | K5 B5 O5", "R4 R5 R6 | J K9 K10 | K5 B5 O5 R5"
    v = check_turn(before, after, "R5 R5 K9 K10", rules="sabra")
    assert v.legal, v.summary()
    assert texts(before, after, v) == [
        "swap the joker in R4 J R6 for your R5, then lay it with K9 K10",
        "add R5 to K5 B5 O5"]


def test_a_joker_moved_into_a_meld_that_was_there_is_told_as_a_move():
    # 003: "A joker that has been replaced must be used in the player's same turn as part of a
    # new set": into K5 B5 O5 it is no new set, so the turn is not valid; the steps still
    # say what was done, for the dispute
    before, after = "R4 J R6 | K5 B5 O5", "R4 R5 R6 | K5 B5 O5 J"
    v = check_turn(before, after, "R5", rules="sabra")
    assert not v.legal
    assert texts(before, after, v) == ["swap the joker in R4 J R6 for your R5",
                                       "move J from R4 J R6 to K5 B5 O5"]


def test_tiles_moved_onto_another_meld_are_a_move_not_a_split():
    # R6 R7 R8 leave R3…R8 for the run R9 R10 R11: one piece stays, the other joins a meld
    # that was there
    steps = describe("R3 R4 R5 R6 R7 R8 | R9 R10 R11", "R3 R4 R5 | R6 R7 R8 R9 R10 R11")
    assert [s.to_dict() for s in steps] == [
        {"action": "move", "tiles": ["R6", "R7", "R8"], "meld": "R3 R4 R5 R6 R7 R8",
         "target": "R6 R7 R8 R9 R10 R11", "text": "move R6 R7 R8 from R3…R8 to R9 R10 R11",
         "phrase": "move", "args": {"tiles": "R6 R7 R8", "meld": "R3…R8", "target": "R9 R10 R11"}}]


def test_a_split_is_told_at_the_first_tile_of_the_upper_piece():
    # the pieces in either order on the table: the split is where the upper one begins
    assert texts("B6 B7 B8 B9 B10", "B8 B9 B10 | B6 B7 B8")[0] == "split B6…B10 at B9"
    # the rack's R4 begins the upper piece: the split is at the table's R5, and R4 is added
    assert texts("R1 R2 R3 R4 R5 R6", "R1 R2 R3 R4 | R4 R5 R6") == [
        "split R1…R6 at R5", "add R4 to R5 R6"]


def test_new_melds_say_where_their_table_tiles_came_from():
    assert texts("R3 R4 R5", "R3 R4 R5 | K9 B9 O9 | K1 K2 K3") == ["lay K9 B9 O9",
                                                                   "lay K1 K2 K3"]
    assert texts("R3 R4 R5 R6 | K7 B7 O7 R7", "R3 R4 R5 | K7 B7 O7 | R6 R7 R8") == [
        "lay R6 R7 R8 (R6 from R3 R4 R5 R6; R7 from K7 B7 O7 R7)"]
    # copies of a tile stay with their melds however the melds are ordered after
    assert texts("R5 R6 R7 | K5 B5 R5", "K5 B5 R5 O5 | R5 R6 R7 R8") == [
        "add O5 to K5 B5 R5", "add R8 to R5 R6 R7"]


def test_tables_a_camera_may_misread_or_clear():
    # a third R7 (a misreading) is told all the same; a table cleared has no steps
    assert texts("R7 R7 R7", "R7 R7 R7 | K1 K2 K3") == ["lay K1 K2 K3"]
    assert texts("R3 R4 R5", "") == []


def test_a_joker_of_a_group_of_three_swapped_for_both_missing_tiles_from_the_table():
    # 004: "Under tournament rules, a Joker taken from a group of three tiles must be
    # replaced with both missing tiles." Both come off the ends of runs on the table.
    before = "K5 B5 J | O5 O6 O7 O8 | R5 R6 R7 R8"
    after = "K5 B5 O5 R5 | O6 O7 O8 | R6 R7 R8 | J K9 K10"
    v = check_turn(before, after, "K9 K10", rules="tournament")
    assert v.legal, v.summary()
    assert texts(before, after, v) == [
        "swap the joker in K5 B5 J for O5 R5 from O5 O6 O7 O8, R5 R6 R7 R8, then lay it "
        "with K9 K10"]


def test_each_meld_is_followed_to_where_most_of_its_tiles_went():
    # the module's rule: a meld of the table before goes to the meld after holding most of
    # its numbered tiles, then most of its tiles, the first on a tie; a meld none of whose
    # tiles lie after goes nowhere
    assert texts("R3 R4 R5 R6 R7 | K1 K2 K3", "R3 R4 R5 R6 R7 R8") == ["add R8 to R3…R7"]
    assert texts("R5 B5 K5", "R3 R4 R5 | B5 B6 B7 | K5 K6 K7") == [
        "add R3 R4 to R5", "lay B5 B6 B7 (B5 from R5 B5 K5)", "lay K5 K6 K7 (K5 from R5 B5 K5)"]


def test_a_run_split_with_a_piece_joined_to_another_run_is_told_as_a_split():
    # 001: "Rearrange tiles on the table as you wish, as long as the table stays valid."
    # R1…R7 is split at R4 and R4 R5 R6 R7 joined to R8 R9 R10, which gains R11 from the
    # rack: R1 R2 R3 is what is left of R1…R7, not a meld laid new
    before, after = "R1 R2 R3 R4 R5 R6 R7 | R8 R9 R10", "R1 R2 R3 | R4 R5 R6 R7 R8 R9 R10 R11"
    v = check_turn(before, after, "R11", rules="sabra")
    assert v.legal, v.summary()
    steps = texts(before, after, v)
    assert steps[0] == "split R1…R7 at R4"
    assert not any(s.startswith("lay") for s in steps), steps


def test_two_copies_of_a_tile_from_the_rack_each_free_a_joker():
    # 003: "A joker can be retrieved from a set by placing it with a tile of the same
    # numerical value and colour it represents ... A joker that has been replaced must be
    # used in the player's same turn as part of a new set." The two R5s of the game, both
    # on the rack, free the jokers of two runs R4 J R6; each R5 is told by its swap
    before = "R4 J R6 | R4 J R6 | K1 K2 K3"
    after = "R4 R5 R6 | R4 R5 R6 | K1 K2 K3 | J K9 K10 | J O9 O10"
    v = check_turn(before, after, "R5 R5 K9 K10 O9 O10", rules="sabra")
    assert v.legal, v.summary()
    assert texts(before, after, v) == [
        "swap the joker in R4 J R6 for your R5, then lay it with K9 K10",
        "swap the joker in R4 J R6 for your R5, then lay it with O9 O10"]


def test_a_run_split_after_its_jokers_is_split_where_the_numbers_part():
    # 000: "Splitting a run: Players may split long runs and insert the corresponding tiles
    # in the middle." J J R7 R8 R9 R10 R11 (the jokers R5 R6) is split between R8 and R9 and
    # the rack's R8 goes to one piece: J J R7 R8 and R8 R9 R10 R11. Which R8 came from the rack
    # is not told by the tiles, so the steps may name either; each sequence, done, gives the
    # table after. The piece that starts with the jokers starts at 5, below the other's 8: a
    # split "at R7" would part R7 from the jokers that stand for R5 R6.
    before = "J J R7 R8 R9 R10 R11"
    for after, told in (("J J R7 R8 | R8 R9 R10 R11",
                         ["split J J R7 R8 R9 R10 R11 at R8", "add R8 to J J R7"]),
                        ("R8 R9 R10 R11 | J J R7 R8",
                         ["split J J R7 R8 R9 R10 R11 at R9", "add R8 to R9 R10 R11"])):
        v = check_turn(before, after, "R8", rules="sabra")
        assert v.legal, v.summary()
        assert texts(before, after, v) == told


def test_a_tile_swapped_for_a_joker_is_told_once_and_its_twin_moved():
    # 003: "A joker can be retrieved from a set by placing it with a tile of the same
    # numerical value and colour it represents. The tile used to replace the joker can come
    # from the player's rack or from the table." A camera misread the table before as holding
    # R7 R7 B7 K7 (two R7s in one meld: no set). One R7 takes the joker's place in
    # R5 R6 J R8 R9 (the joker R7), which is split at R8; the other R7 joins R8 R9. Each R7
    # is told: the first by the swap, the second by a move of its own.
    before = "R5 R6 J R8 R9 | R7 R7 B7 K7"
    after = "R5 R6 R7 | R7 R8 R9 | B7 K7 O7 | J K1 K2"
    v = check_turn(before, after, "O7 K1 K2", rules="sabra")
    assert texts(before, after, v) == [
        "swap the joker in R5…R9 for R7 from R7 R7 B7 K7, then lay it with K1 K2",
        "split R5…R9 at R8", "move R7 from R7 R7 B7 K7 to R5…R9", "add O7 to B7 K7"]


def test_a_tile_whose_twin_comes_from_the_rack_stays_with_its_own_meld_beside_jokers():
    # the module's rule: copies of one tile go back to the meld they most likely stayed
    # with, by the tiles each meld before shares with each meld after (two jokers and one
    # joker share one). 003: "A joker that has been replaced must be used in the player's
    # same turn as part of a new set."
    # R4 R5 R6 J keeps R4 R5 R6 and gains R7; J R6 J is new, its R6 the rack's (it shares
    # only R6 and one joker with R4 R5 R6 J, against R4 R5 R6): no split is told
    before, after = "R4 R5 R6 J | K1 K2 K3", "R4 R5 R6 R7 | K1 K2 K3 | J R6 J"
    v = check_turn(before, after, "R7 R6 J", rules="sabra")
    assert v.legal, v.summary()
    assert texts(before, after, v) == ["add R7 to R4 R5 R6", "lay J R6 J (J from R4 R5 R6 J)"]
    # both jokers of R3 R4 R5 J J swapped for the rack's R6 and R7 and laid in new sets;
    # K5 O5 R5 J shares R5 and one joker with R3 R4 R5 J J, less than R3 R4 R5 R6 R7 does
    # (R3 R4 R5): the run keeps its R5, the rack's R5 goes to the new set
    before = "R3 R4 R5 J J | B1 B2 B3"
    after = "R3 R4 R5 R6 R7 | K5 O5 R5 J | K9 K10 J | B1 B2 B3"
    v = check_turn(before, after, "R6 R7 R5 K5 O5 K9 K10", rules="sabra")
    assert v.legal, v.summary()
    assert texts(before, after, v) == [
        "swap the joker in R3 R4 R5 J J for your R6, then lay it with K5 O5 R5",
        "swap the joker in R3 R4 R5 J J for your R7, then lay it with K9 K10"]
