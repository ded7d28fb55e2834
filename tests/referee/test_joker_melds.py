"""What may be done to a meld holding a joker: added to everywhere; split, shifted or taken from except under the Sabra Way, until its joker is taken.

Each verdict is worked out from the rule texts in ../shared/rules/, and the sentence it rests
on is quoted beside it: 000 and 002 retell the 1998 Pressman rules, 001 and 003 the current
Sabra rules, 004 the Sabra Way leaflet and its tournament rule."""

import pytest

from referee import Code, check_turn

ALL = ("sabra", "pressman-1998", "sabra-way", "tournament")


def codes(v):
    return set(v.codes)


def test_sabra_way_joker_meld_may_be_added_to_but_not_split_until_its_joker_is_taken():
    # 004: "You can add a tile to a meld containing a Joker ... A meld containing a Joker may
    # not be manipulated. After a Joker has been taken from a meld as shown above, the meld
    # may be manipulated." 003: "A set containing a joker can have tiles added to it, be split
    # apart or have tiles removed from it."
    before = "R3 R4 J R6 R7 R8"
    split = "R3 R4 J | R6 R7 R8 R9"
    assert check_turn(before, split, "R9", rules="sabra").legal
    v = check_turn(before, split, "R9", rules="sabra-way")
    assert codes(v) == {Code.JOKER_MELD_MANIPULATED}
    assert check_turn(before, "R3 R4 J R6 R7 R8 R9", "R9", rules="sabra-way").legal
    taken_then_split = "R3 R4 R5 | R6 R7 R8 | J K5 K6"
    assert check_turn(before, taken_then_split, "R5 K5 K6", rules="sabra-way").legal


def test_a_joker_that_stays_may_change_neighbours():
    # 003: a set containing a joker "can ... be split apart": the joker stays R5 in a piece.
    v = check_turn("R3 R4 J R6 R7 R8", "R3 R4 R5 | J R6 R7 R8", "R5", rules="sabra")
    assert v.legal and not any(f.taken for f in v.jokers), v.summary()


@pytest.mark.parametrize("preset,legal", [("sabra", True), ("pressman-1998", True),
                                          ("sabra-way", False), ("tournament", True)])
def test_taking_a_tile_from_a_joker_meld_under_each_preset(preset, legal):
    # 003: "A set containing a joker can have tiles added to it, be split apart or have tiles
    # removed from it." 000: "During a player's turn, sets of tiles that have already been
    # played may be manipulated to allow more tiles to be played." 004: "You may not take a
    # tile away from a meld which includes a Joker." R8 leaves R5 J R7 R8 for K8 B8 + rack O8.
    v = check_turn("R5 J R7 R8 | K8 B8 O8 R8", "R5 J R7 | K8 B8 O8 R8 | R8 K8 B8",
                   "K8 B8", rules=preset)
    assert v.legal is legal, v.summary()
    if not legal:
        assert codes(v) == {Code.JOKER_MELD_MANIPULATED}


@pytest.mark.parametrize("preset", ALL)
def test_a_wrong_tile_on_a_meld_with_a_joker_is_the_fault_not_the_joker(preset):
    # 000: "At the end of the turn, all played tiles must be in valid sets": R7 does not
    # continue R3 R4 J, so the turn fails for that meld alone. The joker never left its set
    # (R3 R4 lie beside it still), so it was not taken: the joker rules ("Joker
    # substitution") have nothing to say, and the verdict must not claim it was taken.
    v = check_turn("R3 R4 J | K7 B7 O7", "R3 R4 J R7 | K7 B7 O7", "R7", rules=preset)
    assert v.codes == (Code.INVALID_MELD,), v.summary()
    assert v.violations[0].melds == ("R3 R4 J R7",)
    assert [f.taken for f in v.jokers] == [False]
    # the same with a tile of another colour, and with the joker in the middle of a run
    v = check_turn("R3 J R5", "R3 J R5 K9", "K9", rules=preset)
    assert v.codes == (Code.INVALID_MELD,), v.summary()


def test_a_joker_meld_added_to_beside_its_twin_is_legal_however_the_copies_are_counted():
    # 004 (the Sabra Way): "You can add a tile to a meld containing a Joker, either the
    # fourth tile in a group or to either end of a run. ... A meld containing a Joker may
    # not be manipulated." O7 is added to the end of O1 O2 J O4 O5 O6. The run beside it
    # holds the other copy of each of its tiles, so the camera cannot tell which O1, O2,
    # O4, O5, O6 stayed where (32 accounts, one of which leaves the joker meld whole): the
    # turn is legal, in whichever order the melds are laid.
    joker_run, twin = "O1 O2 J O4 O5 O6", "O1 O2 O3 O4 O5 O6"
    for before in (f"{joker_run} | {twin}", f"{twin} | {joker_run}"):
        for after in (f"{joker_run} O7 | {twin}", f"{twin} | {joker_run} O7"):
            v = check_turn(before, after, "O7", rules="sabra-way")
            assert v.legal, (before, after, v.violations)
            (fate,) = v.jokers
            assert not fate.taken and str(fate.stands_for) == "O3"
