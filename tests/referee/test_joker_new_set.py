"""A freed joker ends the turn in a new set, with as many other rack tiles as the preset asks.

Each verdict is worked out from the rule texts in ../shared/rules/, and the sentence it rests
on is quoted beside it: 000 and 002 retell the 1998 Pressman rules, 001 and 003 the current
Sabra rules, 004 the Sabra Way leaflet and its tournament rule."""

import pytest

from referee import Code, check_turn

ALL = ("sabra", "pressman-1998", "sabra-way", "tournament")


def codes(v):
    return set(v.codes)


def test_a_freed_joker_in_an_existing_set_is_refused_even_after_a_split():
    # 003: "A joker that has been replaced must be used in the player's same turn as part of a
    # new set." K9 B9 O9 lay on the table already: adding the joker to it is no new set, and
    # splitting the joker's run in the same turn changes nothing.
    before = "R3 R4 J R6 R7 R8 | K9 B9 O9"
    for after in ("R3 R4 R5 | R6 R7 R8 | K9 B9 O9 J", "R3 R4 R5 R6 R7 R8 | K9 B9 O9 J"):
        v = check_turn(before, after, "R5", rules="sabra")
        assert not v.legal and codes(v) == {Code.JOKER_NOT_REUSED}, (after, v.summary())
    # the same exchange, the joker in a set of rack tiles: legal
    v = check_turn(before, "R3 R4 R5 | R6 R7 R8 | K9 B9 O9 | K1 K2 J", "R5 K1 K2",
                   rules="sabra")
    assert v.legal, v.summary()


def test_a_new_set_holds_no_two_tiles_that_lay_together():
    # 003 (as above). The joker, now R6, lies with R7 R8 of its own run: that is its old set
    # shifted, not a new one.
    v = check_turn("R3 R4 J R6 R7 R8", "R3 R4 R5 R6 | J R7 R8", "R5", rules="sabra")
    assert not v.legal and Code.JOKER_NOT_REUSED in codes(v)
    # a set of tiles from different melds is new: K9 from a run, B9 from a group of four
    before = "R3 R4 J | K9 K10 K11 K12 | B9 O9 R9 K9"
    v = check_turn(before, "R3 R4 R5 | K10 K11 K12 | O9 R9 K9 | K9 B9 J", "R5", rules="sabra")
    assert v.legal, v.summary()


@pytest.mark.parametrize("preset,legal", [("pressman-1998", False), ("sabra-way", False),
                                          ("sabra", True), ("tournament", True)])
def test_a_freed_joker_needs_two_rack_tiles_where_the_preset_says(preset, legal):
    # 000: "in a set with at least two other tiles from the player's rack"; 004: "You must use
    # the Joker immediately with 2 more tiles from your hand to make another meld"; 003 asks
    # only for a new set. K9 comes from the group of four, B9 from the rack.
    before = "R3 R4 J | K9 O9 R9 B9"
    after = "R3 R4 R5 | O9 R9 B9 | K9 B9 J"
    v = check_turn(before, after, "R5 B9", rules=preset)
    assert v.legal is legal, v.summary()
    if not legal:
        assert codes(v) == {Code.JOKER_NOT_REUSED} and "2 other tiles" in v.violations[0].message


@pytest.mark.parametrize("preset", ALL)
def test_a_freed_joker_added_to_a_set_already_on_the_table_is_refused(preset):
    # 003: "A joker that has been replaced must be used in the player's same turn as part of a
    # new set." 000: "The joker must be played that same turn in a set with at least two other
    # tiles from the player's rack." 004: "You must use the Joker immediately with 2 more tiles
    # from your hand to make another meld onto the table." K9 B9 O9 lay there already: with
    # the joker it is an old set added to, not a new one.
    v = check_turn("R3 R4 J | K9 B9 O9", "R3 R4 R5 | K9 B9 O9 J", "R5", rules=preset)
    assert not v.legal and Code.JOKER_NOT_REUSED in codes(v), v.summary()
    # into a set of its own with K10 K11 from the rack: a new set under every preset
    v = check_turn("R3 R4 J | K9 B9 O9", "R3 R4 R5 | K9 B9 O9 | J K10 K11", "R5 K10 K11",
                   rules=preset)
    assert v.legal, v.summary()


@pytest.mark.parametrize("preset", ALL)
def test_a_freed_joker_left_off_the_table_is_refused(preset):
    # 001: "The Joker does not return to the player’s hand for later use but must be used
    # immediately and re-melded." 004: "You may not hold the Joker to use at a later time."
    v = check_turn("R3 R4 J | K9 B9 O9", "R3 R4 R5 | K9 B9 O9", "R5", rules=preset)
    assert not v.legal and Code.TILES_TAKEN in codes(v), v.summary()
