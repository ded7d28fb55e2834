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
         "text": "add R6 to R4 R5"},
        {"action": "lay", "tiles": ["R1", "R2"], "meld": None, "target": "R1 R2 R3",
         "text": "lay R1 R2 R3 (R3 from R3 R4 R5)"}]


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
         "text": "lay K9 B9 O9"}]
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
         "text": "swap the joker in B3 B4 J for your B5, then lay it with R7 O7"}]


def test_a_joker_swapped_for_a_table_tile():
    # 003: "The tile used to replace the joker can come from the player's rack or from the
    # table." R5 leaves the group of four for the joker's place; the joker goes with K9 K11.
    before, after = "R4 J R6 | K5 B5 O5 R5", "R4 R5 R6 | K5 B5 O5 | K9 J K11"
    v = check_turn(before, after, "K9 K11", rules="sabra")
    assert v.legal, v.summary()
    # one step: the swap moves the R5; no second "move R5" step repeats it
    assert texts(before, after, v) == ["swap the joker in R4 J R6 for R5 from K5 B5 O5 R5, "
                                       "then lay it with K9 K11"]
