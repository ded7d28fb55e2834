"""A joker is taken only in exchange for the tile it stands for: which tile, how many, from where, and not before the initial meld.

Each verdict is worked out from the rule texts in ../shared/rules/, and the sentence it rests
on is quoted beside it: 000 and 002 retell the 1998 Pressman rules, 001 and 003 the current
Sabra rules, 004 the Sabra Way leaflet and its tournament rule."""

import pytest

from referee import Code, check_turn, get_rules

ALL = ("sabra", "pressman-1998", "sabra-way", "tournament")


def codes(v):
    return set(v.codes)


@pytest.mark.parametrize("preset", ALL)
def test_a_joker_moved_with_nothing_in_its_place_is_refused(preset):
    # 003: "A joker can be retrieved from a set by placing it with a tile of the same numerical
    # value and colour it represents." Nothing from the rack, no R6 anywhere: not retrieved.
    v = check_turn("R3 R4 R5 J | K7 K8 K9", "R3 R4 R5 | K7 K8 K9 J", "", rules=preset)
    assert not v.legal and Code.JOKER_NOT_REPLACED in codes(v), v.summary()


def test_one_tile_frees_one_joker():
    # 003 (as above): each joker is taken by placing the tile it represents. K5 K6 J J: the
    # jokers are K7 and K8; K7 alone frees only the K7 joker.
    before = "K5 K6 J J | R10 R11 R12"
    after = "K5 K6 K7 | O1 O2 J | B9 O9 J | R10 R11 R12"
    v = check_turn(before, after, "K7 O1 O2 B9 O9", rules="sabra")
    assert not v.legal and Code.JOKER_NOT_REPLACED in codes(v)
    after = "K5 K6 K7 K8 | O1 O2 J | B9 O9 J | R10 R11 R12"
    v = check_turn(before, after, "K7 K8 O1 O2 B9 O9", rules="sabra")
    assert v.legal, v.summary()
    assert sorted(str(t) for f in v.jokers for t in f.replaced_by) == ["K7", "K8"]


@pytest.mark.parametrize("preset", ("pressman-1998", "sabra-way", "sabra", "tournament"))
def test_taking_one_of_two_jokers_frees_only_that_one(preset):
    # 000: "A player with a tile matching the color and value of a joker may replace the joker
    # with that tile. The joker must be played that same turn in a set with at least two other
    # tiles from the player's rack." R4 J J R7: R5 frees the R5 joker; the R6 joker stays.
    # 004: "After a Joker has been taken from a meld as shown above, the meld may be manipulated."
    v = check_turn("R4 J J R7", "R4 R5 J R7 | J K9 B9", "R5 K9 B9", rules=preset)
    assert v.legal, v.summary()
    taken = [f for f in v.jokers if f.taken]
    assert len(taken) == 1 and str(taken[0].stood_for) == "R5"


def test_group_of_three_either_missing_colour_frees_the_joker():
    # 003: "In the case of a group of 3, the joker can be replaced by the tile of either the
    # missing colours."
    for tile in ("O10", "R10"):
        v = check_turn("K10 B10 J", f"K10 B10 {tile} | K1 K2 J", f"{tile} K1 K2", rules="sabra")
        assert v.legal, (tile, v.summary())
    v = check_turn("K10 B10 J", "K10 B10 K1 | K2 K3 J", "K1 K2 K3", rules="sabra")
    assert not v.legal


def test_tournament_rule_is_for_groups_of_three_only():
    # 004: "Under tournament rules, a Joker taken from a group of three tiles must be replaced
    # with both missing tiles." A group of four lacks one colour: that one frees its joker.
    v = check_turn("K10 B10 O10 J", "K10 B10 O10 R10 | J R1 R2", "R10 R1 R2",
                   rules="tournament")
    assert v.legal, v.summary()
    v = check_turn("K10 B10 J", "K10 B10 O10 | J R1 R2", "O10 R1 R2", rules="tournament")
    assert codes(v) == {Code.JOKER_GROUP_NEEDS_BOTH}


def test_both_missing_colours_come_from_the_hand_where_the_rules_say_so():
    # 004: "You may take a Joker from a run or group in exchange for a tile of the same value
    # from your hand. ... Under tournament rules, a Joker taken from a group of three tiles
    # must be replaced with both missing tiles." Both from the hand: R10 taken from the run
    # R10 R11 R12 R13 as the second does not do (nor would it as the first).
    leaflet = get_rules("sabra-way").replace(joker_group_needs_both_missing=True)
    before = "K10 B10 J | R10 R11 R12 R13"
    from_run = "K10 B10 O10 R10 | R11 R12 R13 | J K1 K2"
    v = check_turn(before, from_run, "O10 K1 K2", rules=leaflet)
    assert [(x.code, x.melds, x.tiles) for x in v.violations] == [
        (Code.JOKER_REPLACEMENT_FROM_TABLE, ("K10 B10 J",), ("R10",))]
    v = check_turn(before, "K10 B10 O10 R10 | R10 R11 R12 R13 | J K1 K2", "O10 R10 K1 K2",
                   rules=leaflet)
    assert v.legal, v.summary()
    # 003: "The tile used to replace the joker can come from the player's rack or from the
    # table": under the tournament preset (the Sabra rules with 004's tournament rule) it may
    assert check_turn(before, from_run, "O10 K1 K2", rules="tournament").legal


def test_replacement_from_the_table_under_sabra_only_from_the_hand_under_sabra_way():
    # 003: "The tile used to replace the joker can come from the player's rack or from the
    # table." 004: "You may take a Joker from a run or group in exchange for a tile of the same
    # value from your hand." (Pressman, 000: "A player with a tile matching ...")
    before = "R3 R4 J R6 | R5 O5 B5 K5"
    after = "R3 R4 R5 R6 | O5 B5 K5 | J K8 K9"
    assert check_turn(before, after, "K8 K9", rules="sabra").legal
    for preset in ("sabra-way", "pressman-1998"):
        v = check_turn(before, after, "K8 K9", rules=preset)
        assert Code.JOKER_REPLACEMENT_FROM_TABLE in codes(v), preset


@pytest.mark.parametrize("preset", ALL)
def test_no_joker_before_the_initial_meld_under_every_preset(preset):
    # 003: "A joker may not be retrieved before the initial meld." 000: "The initial meld
    # cannot build on previously played tiles (for example, a joker on the table cannot be
    # retrieved before the initial meld)." 004: "These points must come from tiles in the
    # hand only, and not from tiles already on the table."
    v = check_turn("R3 R4 J", "R3 R4 R5 | K10 K11 K12 J", "R5 K10 K11 K12", rules=preset,
                   opened=False)
    assert not v.legal and Code.JOKER_BEFORE_OPENING in codes(v), v.summary()
    # the same turn once opened keeps every preset's joker rules (K10 K11 K12 from the rack)
    v = check_turn("R3 R4 J", "R3 R4 R5 | K10 K11 K12 J", "R5 K10 K11 K12", rules=preset)
    assert v.legal, v.summary()


@pytest.mark.parametrize("preset,legal", [("sabra", True), ("pressman-1998", True),
                                          ("sabra-way", True), ("tournament", False)])
def test_group_of_three_one_missing_colour_under_each_preset(preset, legal):
    # 003: "In the case of a group of 3, the joker can be replaced by the tile of either the
    # missing colours." 000: "A player with a tile matching the color and value of a joker may
    # replace the joker with that tile." 004: "in exchange for a tile of the same value from
    # your hand"; its tournament rule: "a Joker taken from a group of three tiles must be
    # replaced with both missing tiles." K1 K2 from the rack meet the two-tile presets.
    for tile in ("O10", "R10"):
        v = check_turn("K10 B10 J", f"K10 B10 {tile} | K1 K2 J", f"{tile} K1 K2", rules=preset)
        assert v.legal is legal, (tile, v.summary())
        if not legal:  # read as the colour added, both were needed; as the other, none came
            assert codes(v) <= {Code.JOKER_GROUP_NEEDS_BOTH, Code.JOKER_NOT_REPLACED}
    # both missing colours free it under every preset
    v = check_turn("K10 B10 J", "K10 B10 O10 R10 | K1 K2 J", "O10 R10 K1 K2", rules=preset)
    assert v.legal, v.summary()


def test_a_legal_exchange_found_among_many_accounts():
    # 003: "A joker can be retrieved from a set by placing it with a tile of the same
    # numerical value and colour it represents. The tile used to replace the joker can come
    # from the player's rack or from the table. ... A joker that has been replaced must be
    # used in the player's same turn as part of a new set." O3 from the rack frees the
    # joker of O1 O2 J O4 O5, which goes to K7 B7 J. The two groups K7 B7 O7 R7 look alike,
    # so K7 and B7 may have come one from each: a new set. The camera cannot tell which
    # copy of K7, B7, O1, O2, O3, O4, O5 went where (128 accounts); the turn is legal if
    # one of them keeps the rules, however far down the list it comes.
    before = "K7 B7 O7 R7 | K7 B7 O7 R7 | O1 O2 J O4 O5 | O1 O2 O3 O4 O5"
    for after in ("B7 O7 R7 | K7 O7 R7 | O1 O2 O3 O4 O5 | O1 O2 O3 O4 O5 | K7 B7 J",
                  "K7 O7 R7 | B7 O7 R7 | O1 O2 O3 O4 O5 | O1 O2 O3 O4 O5 | B7 K7 J"):
        for reasons in (True, False):
            v = check_turn(before, after, "O3", rules="sabra", reasons=reasons)
            assert v.legal, (after, v.violations)
            (fate,) = v.jokers
            assert fate.taken and [str(t) for t in fate.replaced_by] == ["O3"]
            # the two O3s look alike: the rack's, or O1 O2 O3 O4 O5's (meld 3) with the rack's
            # in its place
            assert fate.replaced_from in ((None,), (3,)) and fate.after_meld == 4


def test_a_legal_exchange_among_many_accounts_beside_a_joker_that_stays():
    # as above, and 003: "A set containing a joker can have tiles added to it": R12 joins
    # R9 J R11, whose joker stays (R10); the other is exchanged for O3 and goes to K7 B7 J
    before = "K7 B7 O7 R7 | K7 B7 O7 R7 | O1 O2 J O4 O5 | O1 O2 O3 O4 O5 | R9 J R11"
    for after in ("B7 O7 R7 | K7 O7 R7 | O1 O2 O3 O4 O5 | O1 O2 O3 O4 O5 | R9 J R11 R12 | "
                  "K7 B7 J",
                  "K7 O7 R7 | B7 O7 R7 | O1 O2 O3 O4 O5 | O1 O2 O3 O4 O5 | R9 J R11 R12 | "
                  "B7 K7 J"):
        v = check_turn(before, after, "O3 R12", rules="sabra")
        assert v.legal, (after, v.violations)
        assert [(f.before_meld, f.after_meld, f.taken) for f in v.jokers] == [
            (2, 5, True), (4, 4, False)]
        # in K7 B7 J the joker is either missing colour; in R9 J R11 R12 still R10
        assert str(v.jokers[0].stands_for) in ("O7", "R7")
        assert str(v.jokers[1].stands_for) == "R10"


def test_a_legal_exchange_with_two_rack_tiles_among_many_accounts():
    # 000: "A player with a tile matching the color and value of a joker may replace the
    # joker with that tile. The joker must be played that same turn in a set with at least
    # two other tiles from the player's rack." 004: "You may take a Joker from a run or
    # group in exchange for a tile of the same value from your hand. You must use the Joker
    # immediately with 2 more tiles from your hand to make another meld ... After a Joker
    # has been taken from a meld as shown above, the meld may be manipulated." O3 from the
    # hand frees the joker of O1 O2 J O4 O5; it goes to K5 K6 J K8 K9 with K8 K9 from the
    # hand. The twin runs K1..K6 look alike, so K5 and K6 may have come one from each (a
    # new set); 128 accounts, the legal ones late in the list.
    before = "K1 K2 K3 K4 K5 K6 | K1 K2 K3 K4 K5 K6 | O1 O2 J O4 O5 | O1 O2 O3 O4 O5"
    for after in ("K1 K2 K3 K4 K5 K6 | K1 K2 K3 K4 | O1 O2 O3 O4 O5 | O1 O2 O3 O4 O5 | "
                  "K5 K6 J K8 K9",
                  "K1 K2 K3 K4 | K1 K2 K3 K4 K5 K6 | O1 O2 O3 O4 O5 | O1 O2 O3 O4 O5 | "
                  "K5 K6 J K8 K9"):
        for preset in ("pressman-1998", "sabra-way", "sabra"):
            v = check_turn(before, after, "O3 K8 K9", rules=preset)
            assert v.legal, (after, preset, v.violations)
            (fate,) = v.jokers
            assert (fate.taken, fate.after_meld, str(fate.stands_for)) == (True, 4, "K7")
            assert [str(t) for t in fate.replaced_by] == ["O3"]


def test_a_rack_joker_is_one_of_the_two_rack_tiles_among_many_accounts():
    # as above (000, 004: "with at least two other tiles from the player's rack" / "with 2
    # more tiles from your hand"): the player's own joker and K9 are the two, in
    # K5 K6 J J K9; the freed joker is one of the two jokers there (K7 or K8)
    before = "K1 K2 K3 K4 K5 K6 | K1 K2 K3 K4 K5 K6 | O1 O2 J O4 O5 | O1 O2 O3 O4 O5"
    for after in ("K1 K2 K3 K4 K5 K6 | K1 K2 K3 K4 | O1 O2 O3 O4 O5 | O1 O2 O3 O4 O5 | "
                  "K5 K6 J J K9",
                  "K1 K2 K3 K4 | K1 K2 K3 K4 K5 K6 | O1 O2 O3 O4 O5 | O1 O2 O3 O4 O5 | "
                  "K5 K6 J J K9"):
        for preset in ("pressman-1998", "sabra-way"):
            v = check_turn(before, after, "O3 J K9", rules=preset)
            assert v.legal, (after, preset, v.violations)
            (fate,) = v.jokers
            assert fate.taken and fate.after_meld == 4
            assert str(fate.stands_for) in ("K7", "K8")


def test_which_copy_of_a_tile_from_two_joker_melds_went_where_decides_the_exchange():
    # 003: "A joker can be retrieved from a set by placing it with a tile of the same
    # numerical value and colour it represents. The tile used to replace the joker can come
    # from the player's rack or from the table. In the case of a group of 3, the joker can be
    # replaced by the tile of either the missing colours. A joker that has been replaced must
    # be used in the player's same turn as part of a new set. A set containing a joker can
    # have tiles added to it, be split apart or have tiles removed from it."
    # K5 J K7 (the joker K6) and K5 B5 J (the joker O5 or R5) each hold a K5. Both jokers are
    # freed: K6 joins K4 K5 K6 and R5 joins K5 B5 R5, each with a K5. If the K5 beside K6 is
    # the one from K5 J K7 (and the other from K5 B5 J), each replacing tile lies with a tile
    # of its joker's set: legal. The two K5s look alike, so the referee must try both ways;
    # told the other way round, K6 would lie with no tile of its set. Both orders of the melds.
    before = "K5 J K7 | K5 B5 J"
    rack = "K4 K6 R5 O7 R7 R10 R11 B10 B11"
    for after in ("K4 K5 K6 | K5 B5 R5 | K7 O7 R7 | R10 R11 J | B10 B11 J",
                  "K5 B5 R5 | K4 K5 K6 | K7 O7 R7 | R10 R11 J | B10 B11 J"):
        v = check_turn(before, after, rack, rules="sabra")
        assert v.legal, (after, v.violations)
        assert sorted(str(f.stood_for) for f in v.jokers if f.taken) in (
            ["K6", "O5"], ["K6", "R5"])


def test_which_copy_of_a_tile_from_the_rack_went_to_the_freed_joker_s_new_set():
    # 000: "A player with a tile matching the color and value of a joker may replace the
    # joker with that tile. The joker must be played that same turn in a set with at least
    # two other tiles from the player's rack." R7 from the rack frees the joker of R5 R6 J;
    # one K5 comes from the group of four K5 O5 B5 R5 (003: "Any one tile may be removed from
    # a four-tile group", 000), the other from the rack. K5 K6 K7 K8 J (with the rack's own
    # joker) is the run K6 K7 K8 added to, no new set; K5 O5 J is new, and with the rack's
    # K5 in it holds two rack tiles (K5 and O5): legal. The two K5s look alike, so the
    # referee must try both ways; told the other way round, the new set would hold only O5.
    before = "R5 R6 J | K5 O5 B5 R5 | K6 K7 K8"
    for after in ("R5 R6 R7 | O5 B5 R5 | K5 K6 K7 K8 J | K5 O5 J",
                  "R5 R6 R7 | O5 B5 R5 | K5 O5 J | K5 K6 K7 K8 J"):
        v = check_turn(before, after, "R7 K5 O5 J", rules="pressman-1998")
        assert v.legal, (after, v.violations)
        (freed,) = [f for f in v.jokers if f.taken]
        assert str(freed.stood_for) == "R7" and [str(t) for t in freed.replaced_by] == ["R7"]
