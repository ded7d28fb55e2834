"""What the verdict says when a joker rule is broken: the tile the joker wanted, and why the
meld it went to is no new set. The rule each message rests on is quoted beside it from the
rule texts in ../shared/rules/ (000 retells the 1998 Pressman rules, 003 the current Sabra
rules)."""

import signal

from referee import Code, check_turn


def message(v, code):
    (m,) = [x.message for x in v.violations if x.code == code]
    return m


def test_a_joker_of_a_group_of_three_wants_either_missing_colour():
    # 003: "In the case of a group of 3, the joker can be replaced by the tile of either the
    # missing colours." Nothing took its place: both colours are named.
    v = check_turn("K5 B5 J | R1 R2 R3", "K5 B5 | J K9 K10 | R1 R2 R3", "K9 K10", rules="sabra")
    assert message(v, Code.JOKER_NOT_REPLACED) == (
        "the joker in K5 B5 J was taken, but O5 or R5 was not put in its place: a joker is "
        "taken only in exchange for the tile it stands for")
    # a joker of a run wants the one tile it stood for
    v = check_turn("R4 J R6 | K7 B7 O7", "R4 R6 | J K7 B7 O7", "", rules="sabra")
    (x,) = [x for x in v.violations if x.code == Code.JOKER_NOT_REPLACED]
    assert x.melds == ("R4 J R6",)
    assert message(v, Code.JOKER_NOT_REPLACED).startswith(
        "the joker in R4 J R6 was taken, but R5 was not put in its place")


def test_why_the_meld_a_freed_joker_went_to_is_no_new_set():
    # 003: "A joker that has been replaced must be used in the player's same turn as part of
    # a new set."
    v = check_turn("R4 J R6", "R4 R5 R6 J", "R5", rules="sabra")
    assert message(v, Code.JOKER_NOT_REUSED) == (
        "the joker taken from R4 J R6 must be played again this turn in a new set; it was put "
        "in R4 R5 R6 J, which holds tiles of the set the joker was taken from (not a new set)")
    v = check_turn("R4 J R6 | K7 B7 O7", "R4 R5 R6 | J K7 B7 | O7 O8 O9", "R5 O8 O9",
                   rules="sabra")
    assert message(v, Code.JOKER_NOT_REUSED).endswith(
        "it was put in J K7 B7, which holds tiles that lay together in K7 B7 O7 before the "
        "turn (not a new set)")
    # 000: "The joker must be played that same turn in a set with at least two other tiles
    # from the player's rack."
    v = check_turn("R4 J R6 | K1 K2 K3", "R4 R5 R6 | J K9 | K1 K2 K3", "R5 K9",
                   rules="pressman-1998")
    assert message(v, Code.JOKER_NOT_REUSED) == (
        "the joker taken from R4 J R6 must be played again this turn in a new set with at "
        "least 2 other tiles from the rack; it was put in J K9, with 1 tile from the rack "
        "beside it")


def test_a_verdict_asked_without_reasons_is_the_same_verdict():
    # the hint search asks check_turn(..., reasons=False): a broken joker rule is found all
    # the same, only not explained by the account closest to legal
    turns = [("K5 B5 J | R1 R2 R3", "K5 B5 | J K9 K10 | R1 R2 R3", "K9 K10", "sabra"),
             ("R4 J R6", "R4 R5 R6 J", "R5", "sabra"),
             ("R4 J R6 | K1 K2 K3", "R4 R5 R6 | J K9 | K1 K2 K3", "R5 K9", "pressman-1998"),
             ("R4 J R6", "R4 R5 R6 | J K9 K10", "R5 K9 K10", "sabra")]
    for before, after, rack, preset in turns:
        full = check_turn(before, after, rack, rules=preset)
        quick = check_turn(before, after, rack, rules=preset, reasons=False)
        assert quick.legal is full.legal, (before, after)
        assert bool(quick.violations) is (not full.legal)
        if not full.legal:
            assert {Code.JOKER_NOT_REPLACED, Code.JOKER_NOT_REUSED} & set(quick.codes)


def test_no_new_set_when_its_tiles_lay_together_or_none_came_from_the_rack():
    # 003 (as above): R5 R6 lay together in the first meld of the table: no new set
    v = check_turn("R1 R2 R3 R4 R5 R6 | K4 J K6", "R1 R2 R3 R4 | K4 K5 K6 | J R5 R6", "K5",
                   rules="sabra")
    assert message(v, Code.JOKER_NOT_REUSED).endswith(
        "it was put in J R5 R6, which holds tiles that lay together in R1 R2 R3 R4 R5 R6 "
        "before the turn (not a new set)")
    # 000 (as above): K4 and O4 came from two melds of the table, none from the rack
    v = check_turn("R4 J R6 | K1 K2 K3 K4 | O4 O5 O6 O7",
                   "R4 R5 R6 | K1 K2 K3 | O5 O6 O7 | J K4 O4", "R5", rules="pressman-1998")
    assert message(v, Code.JOKER_NOT_REUSED).endswith(
        "it was put in J K4 O4, with 0 tiles from the rack beside it")


# The joker fates the verdict lists (``TurnVerdict.jokers``, ``to_dict()["jokers"]``), which
# the live page shows players: where each joker of the table before went, what it stood for
# and stands for, and which tile took its place, from where.

def fates(v):
    return v.to_dict()["jokers"]


def test_a_joker_exchanged_for_a_tile_from_the_rack():
    # 003: "A joker can be retrieved from a set by placing it with a tile of the same
    # numerical value and colour it represents. The tile used to replace the joker can come
    # from the player's rack or from the table. ... A joker that has been replaced must be
    # used in the player's same turn as part of a new set." R5 from the rack takes the place
    # of the joker of R4 J R6; the joker stands for K10 in the new set K9 J K11.
    v = check_turn("R4 J R6 | K1 K2 K3", "R4 R5 R6 | K1 K2 K3 | K9 J K11", "R5 K9 K11",
                   rules="sabra")
    assert v.legal
    assert fates(v) == [{"before_meld": 0, "before_position": 1, "stood_for": "R5",
                         "after_meld": 2, "after_position": 1, "stands_for": "K10",
                         "taken": True, "replaced_by": ["R5"], "replaced_from": [None]}]


def test_a_joker_exchanged_for_a_tile_from_the_table():
    # 003 (as above): the tile can come from the table. R5 leaves the group R5 K5 B5 O5
    # (meld 1 before; K5 B5 O5 is still a group) for the joker's place.
    v = check_turn("R4 J R6 | R5 K5 B5 O5", "R4 R5 R6 | K5 B5 O5 | K9 J K11", "K9 K11",
                   rules="sabra")
    assert v.legal
    (fate,) = fates(v)
    assert (fate["taken"], fate["replaced_by"], fate["replaced_from"]) == (True, ["R5"], [1])
    assert (fate["after_meld"], fate["after_position"], fate["stands_for"]) == (2, 1, "K10")
    # 000: "A player with a tile matching the color and value of a joker may replace the
    # joker with that tile": from the player's own tiles (the preset reads it so), not the
    # table; K9 K11 are the two other tiles from the rack its new set needs.
    v = check_turn("R4 J R6 | R5 K5 B5 O5", "R4 R5 R6 | K5 B5 O5 | K9 J K11", "K9 K11",
                   rules="pressman-1998")
    assert [(x.code, x.melds, x.tiles) for x in v.violations] == [
        (Code.JOKER_REPLACEMENT_FROM_TABLE, ("R4 J R6",), ("R5",))]
    assert v.violations[0].message == (
        "the joker in R4 J R6 was replaced by R5 from the table; under Pressman 1998 (US) the "
        "replacing tile must come from the player's rack")
    (fate,) = fates(v)
    assert (fate["replaced_by"], fate["replaced_from"]) == (["R5"], [1])


def test_a_joker_that_stays_with_its_set():
    # 003: "A set containing a joker can have tiles added to it, be split apart or have
    # tiles removed from it." R3 R4 J R6 R7 R8 split into R3 R4 J and R6 R7 R8: the joker
    # still stands for R5, beside R3 R4 of its set; it was not taken.
    v = check_turn("R3 R4 J R6 R7 R8", "R3 R4 J | R6 R7 R8", "", rules="sabra")
    assert v.legal
    assert fates(v) == [{"before_meld": 0, "before_position": 2, "stood_for": "R5",
                         "after_meld": 0, "after_position": 2, "stands_for": "R5",
                         "taken": False, "replaced_by": [], "replaced_from": []}]
    # 004 (the Sabra Way): "A meld containing a Joker may not be manipulated. After a Joker
    # has been taken from a meld as shown above, the meld may be manipulated." The same
    # split, its joker not taken, is against those rules.
    v = check_turn("R3 R4 J R6 R7 R8", "R3 R4 J | R6 R7 R8", "", rules="sabra-way")
    assert [(x.code, x.melds) for x in v.violations] == [
        (Code.JOKER_MELD_MANIPULATED, ("R3 R4 J R6 R7 R8",))]
    assert v.violations[0].message == (
        "R3 R4 J R6 R7 R8 holds a joker: under The Sabra Way (50-point opening) it may only be "
        "added to, not split, rearranged or taken from, until its joker is retrieved")
    assert [f["taken"] for f in fates(v)] == [False]


def test_a_joker_taken_before_the_initial_meld():
    # 003: "A joker may not be retrieved before the initial meld." 000: "The initial meld
    # cannot build on previously played tiles (for example, a joker on the table cannot be
    # retrieved before the initial meld)."
    v = check_turn("R4 J R6 | K1 K2 K3", "R4 R5 R6 | K1 K2 K3 | K9 J K11", "R5 K9 K11",
                   rules="sabra", opened=False)
    (x,) = [x for x in v.violations if x.code == Code.JOKER_BEFORE_OPENING]
    assert x.message == ("the joker in R4 J R6 was taken before the player's initial meld; a "
                         "joker may not be retrieved before the initial meld")
    assert x.melds == ("R4 J R6",)
    (fate,) = fates(v)
    assert {k: fate[k] for k in ("before_meld", "before_position", "stood_for", "after_meld",
                                 "after_position", "stands_for", "taken")} == {
        "before_meld": 0, "before_position": 1, "stood_for": "R5", "after_meld": 2,
        "after_position": 1, "stands_for": "K10", "taken": True}


def test_a_joker_of_a_group_of_three_under_the_tournament_rule():
    # 004: "Under tournament rules, a Joker taken from a group of three tiles must be
    # replaced with both missing tiles." O5 alone is not enough...
    v = check_turn("K5 B5 J | R1 R2 R3", "K5 B5 O5 | R1 R2 R3 | K9 J K11", "O5 K9 K11",
                   rules="tournament")
    assert [(x.code, x.melds, x.tiles) for x in v.violations] == [
        (Code.JOKER_GROUP_NEEDS_BOTH, ("K5 B5 J",), ("O5",))]
    assert v.violations[0].message == (
        "the joker in the group K5 B5 J may only be taken by adding both missing colours "
        "(O5 R5)")
    # ... O5 and R5 together free it, and both are the tiles that replaced it
    v = check_turn("K5 B5 J | R1 R2 R3", "K5 B5 O5 R5 | R1 R2 R3 | K9 J K11", "O5 R5 K9 K11",
                   rules="tournament")
    assert v.legal
    (fate,) = fates(v)
    assert fate["taken"] and sorted(fate["replaced_by"]) == ["O5", "R5"]
    assert fate["replaced_from"] == [None, None]
    assert (fate["after_meld"], fate["stands_for"]) == (2, "K10")
    # 003: "In the case of a group of 3, the joker can be replaced by the tile of either the
    # missing colours": one is enough under the current rules
    v = check_turn("K5 B5 J | R1 R2 R3", "K5 B5 O5 | R1 R2 R3 | K9 J K11", "O5 K9 K11",
                   rules="sabra")
    assert v.legal
    (fate,) = fates(v)
    assert (fate["stood_for"], fate["replaced_by"], fate["replaced_from"]) == (
        "O5", ["O5"], [None])


def test_a_joker_from_the_rack_counts_as_a_rack_tile_beside_a_freed_joker():
    # 000: "The joker must be played that same turn in a set with at least two other tiles
    # from the player's rack." The player's own joker is one of them: K9 and the rack's
    # joker are two other tiles from the rack beside the freed joker in K9 J J.
    v = check_turn("R4 J R6 | K1 K2 K3", "K9 J J | R4 R5 R6 | K1 K2 K3", "R5 K9 J",
                   rules="pressman-1998")
    assert v.legal, v.violations
    (fate,) = fates(v)
    assert (fate["taken"], fate["after_meld"], fate["replaced_by"]) == (True, 0, ["R5"])
    # with K10 from the table in place of K9, the rack's joker alone is one tile too few
    v = check_turn("R4 J R6 | K7 K8 K9 K10", "R4 R5 R6 | K7 K8 K9 | K10 J J", "R5 J",
                   rules="pressman-1998")
    assert message(v, Code.JOKER_NOT_REUSED).endswith(
        "it was put in K10 J J, with 1 tile from the rack beside it")
    (x,) = [x for x in v.violations if x.code == Code.JOKER_NOT_REUSED]
    assert x.melds == ("K10 J J",)


def test_every_joker_of_the_table_has_its_fate():
    # 003: "A set containing a joker can have tiles added to it" (R7 beside R4 J R6: its
    # joker stays, still R5) "... A joker can be retrieved from a set by placing it with a
    # tile of the same numerical value and colour it represents" (K10 frees the joker of
    # K9 J K11, which goes to the new set O1 O2 J as O3).
    v = check_turn("R4 J R6 | K9 J K11", "R4 J R6 R7 | K9 K10 K11 | O1 O2 J",
                   "R7 K10 O1 O2", rules="sabra")
    assert v.legal, v.violations
    assert fates(v) == [
        {"before_meld": 0, "before_position": 1, "stood_for": "R5", "after_meld": 0,
         "after_position": 1, "stands_for": "R5", "taken": False, "replaced_by": [],
         "replaced_from": []},
        {"before_meld": 1, "before_position": 1, "stood_for": "K10", "after_meld": 2,
         "after_position": 2, "stands_for": "O3", "taken": True, "replaced_by": ["K10"],
         "replaced_from": [None]}]


def test_a_joker_that_left_the_table():
    # 000: "a tile that is "harvested" from an existing set must be played during the turn;
    # it cannot be kept": the joker of J R5 R6 R7 went back to the rack. It was taken (it
    # lies nowhere on the table); the other joker stays in K9 J K11, which gains K12.
    v = check_turn("J R5 R6 R7 | K9 J K11", "R5 R6 R7 | K9 J K11 K12", "K12", rules="sabra")
    assert not v.legal
    assert fates(v) == [
        {"before_meld": 0, "before_position": 0, "stood_for": "R4", "after_meld": None,
         "after_position": None, "stands_for": None, "taken": True, "replaced_by": [],
         "replaced_from": []},
        {"before_meld": 1, "before_position": 1, "stood_for": "K10", "after_meld": 1,
         "after_position": 1, "stands_for": "K10", "taken": False, "replaced_by": [],
         "replaced_from": []}]


def test_two_jokers_taken_before_the_initial_meld_are_two_faults():
    # 003: "A joker may not be retrieved before the initial meld": each joker taken is named
    v = check_turn("R4 J R6 | K9 J K11", "R4 R5 R6 | K9 K10 K11 | O1 O2 J J",
                   "R5 K10 O1 O2", rules="sabra", opened=False)
    assert [x.melds for x in v.violations if x.code == Code.JOKER_BEFORE_OPENING] == [
        ("R4 J R6",), ("K9 J K11",)]
    assert [f["taken"] for f in fates(v)] == [True, True]


def test_one_joker_taken_does_not_free_another_meld_holding_a_joker():
    # 004: "A meld containing a Joker may not be manipulated. After a Joker has been taken
    # from a meld as shown above, the meld may be manipulated." The joker of R4 J R6 is
    # exchanged for R5 and played with O1 O2 from the hand; K3 K4 J K6 K7 K8 keeps its
    # joker, so splitting it is still a fault.
    v = check_turn("R4 J R6 | K3 K4 J K6 K7 K8", "R4 R5 R6 | K3 K4 J | K6 K7 K8 | O1 O2 J",
                   "R5 O1 O2", rules="sabra-way")
    assert [(x.code, x.melds) for x in v.violations] == [
        (Code.JOKER_MELD_MANIPULATED, ("K3 K4 J K6 K7 K8",))]


def test_a_joker_replacement_that_left_the_table_is_no_replacement():
    # 003: "A joker can be retrieved from a set by placing it with a tile of the same
    # numerical value and colour it represents." R5, taken off the table with R1, was not
    # placed with the tiles of R1 R2 R3 R4 J.
    v = check_turn("R1 R2 R3 R4 J | R5 K5 B5 O5", "R2 R3 R4 | K5 B5 O5 | K9 J K11", "K9 K11",
                   rules="sabra")
    (x,) = [x for x in v.violations if x.code == Code.JOKER_NOT_REPLACED]
    assert x.melds == ("R1 R2 R3 R4 J",)
    assert x.message.startswith("the joker in R1 R2 R3 R4 J was taken, but R5 was not put in "
                                "its place")


def test_the_replacing_tile_must_lie_with_the_jokers_set():
    # 003: "A joker can be retrieved from a set by placing it with a tile of the same
    # numerical value and colour it represents." R5 went to the group K5 B5 O5, not to
    # R2 R3 R4: the joker was not replaced.
    v = check_turn("R2 R3 R4 J | K5 B5 O5", "R2 R3 R4 | K5 B5 O5 R5 | K9 J K11", "R5 K9 K11",
                   rules="sabra")
    assert [(x.code, x.melds) for x in v.violations] == [
        (Code.JOKER_NOT_REPLACED, ("R2 R3 R4 J",))]
    # with the other R5 from the rack beside R4 R6 as well, it was
    v = check_turn("R4 J R6 | K5 B5 O5", "K5 B5 O5 R5 | R4 R5 R6 | K9 J K11", "R5 R5 K9 K11",
                   rules="sabra")
    assert v.legal, v.violations
    (fate,) = fates(v)
    assert (fate["replaced_by"], fate["replaced_from"], fate["after_meld"]) == (
        ["R5"], [None], 2)


def test_one_tile_replaces_one_joker():
    # 003 (as above): each joker is retrieved by placing a tile it represents with it. Both
    # jokers stood for R5 (R4 J R6, and J R6 R7 R8 as laid); the one R5 from the rack frees
    # one of them, whichever R6 went where.
    v = check_turn("R4 J R6 | J R6 R7 R8", "R4 R5 R6 | R6 R7 R8 | K9 J K11 | O1 O2 J",
                   "R5 K9 K11 O1 O2", rules="sabra")
    assert [x.code for x in v.violations] == [Code.JOKER_NOT_REPLACED]
    assert sorted(len(f["replaced_by"]) for f in fates(v)) == [0, 1]


def test_a_tile_taken_off_a_meld_holding_a_joker_is_a_manipulation():
    # 004: "You may not take a tile away from a meld which includes a Joker." R3 left the
    # table (its own fault) and left R3 R4 J R6 R7 besides.
    v = check_turn("R3 R4 J R6 R7", "R4 J R6 R7", "", rules="sabra-way")
    assert [(x.code, x.melds) for x in v.violations if x.code.value.startswith("joker")] == [
        (Code.JOKER_MELD_MANIPULATED, ("R3 R4 J R6 R7",))]


def test_a_joker_that_changed_what_it_stands_for_did_not_stay():
    # 003: "A joker that has been replaced must be used in the player's same turn as part of
    # a new set." K10 took the place of the joker of K9 J K11, which now stands for K12 (or
    # K8) in K9 K10 K11 J: replaced, but not in a new set. (The other joker left the table.)
    v = check_turn("J R5 R6 R7 | K9 J K11", "R5 R6 R7 | K9 K10 K11 J", "K10", rules="sabra")
    assert [(x.code, x.melds) for x in v.violations if x.code.value.startswith("joker")] == [
        (Code.JOKER_NOT_REUSED, ("K9 K10 K11 J",))]
    assert [f["taken"] for f in fates(v)] == [True, True]


def test_both_missing_colours_are_two_colours_not_one_colour_twice():
    # 004: "Under tournament rules, a Joker taken from a group of three tiles must be
    # replaced with both missing tiles." K5 B5 J lacks O5 and R5; the player splits it into
    # two groups with K5 B5 from the rack, each beside an O5: R5 is still missing.
    v = check_turn("K5 B5 J | R1 R2 R3", "K5 O5 B5 | B5 O5 K5 | R1 R2 R3 | K9 J K11",
                   "O5 O5 K5 B5 K9 K11", rules="tournament")
    assert [(x.code, x.melds) for x in v.violations] == [
        (Code.JOKER_GROUP_NEEDS_BOTH, ("K5 B5 J",))]
    # with O5 in one and R5 in the other, both were added
    v = check_turn("K5 B5 J | R1 R2 R3", "K5 O5 B5 | B5 R5 K5 | R1 R2 R3 | K9 J K11",
                   "O5 R5 K5 B5 K9 K11", rules="tournament")
    assert v.legal, v.violations
    (fate,) = fates(v)
    assert sorted(fate["replaced_by"]) == ["O5", "R5"]


def test_a_joker_of_a_group_of_four_is_wanted_as_the_one_tile_it_stood_for():
    # 001: "If you choose to use two jokers in a single combination they must be explicitly
    # declared which tiles they represent." 003: "A joker can be retrieved from a set by
    # placing it with a tile of the same numerical value and colour it represents." K5 B5 J J
    # is declared K5 B5 O5 R5: one joker leaves for J K9 K10 with nothing in its place; the
    # other stays in K5 B5 J. The words name the one tile the joker taken stood for; "either
    # missing colour" is for a group of three only (003: "In the case of a group of 3, the
    # joker can be replaced by the tile of either the missing colours").
    for declared in ({0: "O5 R5"}, None):
        v = check_turn("K5 B5 J J | R1 R2 R3", "K5 B5 J | R1 R2 R3 | J K9 K10", "K9 K10",
                       rules="sabra", jokers_before=declared)
        assert message(v, Code.JOKER_NOT_REPLACED) in (
            f"the joker in K5 B5 J J was taken, but {t} was not put in its place: a joker is "
            f"taken only in exchange for the tile it stands for" for t in ("O5", "R5"))


def test_an_illegal_turn_among_millions_of_accounts_is_explained_at_once():
    # 003: "A joker can be retrieved from a set by placing it with a tile of the same
    # numerical value and colour it represents. [...] A joker that has been replaced must be
    # used in the player's same turn as part of a new set." Both jokers leave the twin runs
    # K1-K12 J and B1-B12 J (the jokers K13 and B13) for O3 O4 O5 and R3 R4 R5, sets already on
    # the table, and no K13 or B13 is laid: each joker is taken with nothing in its place and
    # joins no new set, however the tiles went. The runs are split in halves, and each of the 24
    # kinds may have come from either twin: 2^24 accounts of where the tiles went. The
    # referee judges a turn while the players wait, so it weighs a few of them for its
    # explanation, not every one (all of them took over an hour).
    def run(colour, a, b):
        return " ".join(f"{colour}{i}" for i in range(a, b + 1))

    before = " | ".join([run("K", 1, 12) + " J", run("K", 1, 12), run("B", 1, 12) + " J",
                         run("B", 1, 12), "O3 O4 O5", "R3 R4 R5"])
    after = " | ".join([run("K", 1, 6), run("K", 7, 12)] * 2 + [run("B", 1, 6), run("B", 7, 12)] * 2
                       + ["O3 O4 O5 J", "R3 R4 R5 J"])

    def too_long(*_):
        raise TimeoutError("the explanation took over 20 s")

    old = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(20)
    try:
        v = check_turn(before, after, "", rules="sabra")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert not v.legal
    assert sorted(x.message for x in v.violations if x.code == Code.JOKER_NOT_REPLACED) == [
        f"the joker in {run(c, 1, 12)} J was taken, but {c}13 was not put in its place: a joker "
        "is taken only in exchange for the tile it stands for" for c in "BK"]
    assert len([x for x in v.violations if x.code == Code.JOKER_NOT_REUSED]) == 2


def test_an_illegal_turn_is_explained_by_its_likeliest_account():
    # 004 (The Sabra Way): "A meld containing a Joker may not be manipulated. After a Joker
    # has been taken from a meld as shown above, the meld may be manipulated." The joker of
    # K7 R7 J is taken with nothing in its place (004: "You may take a Joker from a run or
    # group in exchange for a tile of the same value from your hand") and put on one of the
    # twin groups of 10s. K4 J K6 K7
    # lies as it lay, so the explanation names no manipulation of it: its K7 stayed. (K7 R7
    # holds the other K7; with the 10s' twins that makes 32 accounts, and the one where the
    # two K7s crossed came first.) Both orders of the melds after.
    def explained(before, afters, rack, *codes):
        for after in afters:
            v = check_turn(before, after, rack, rules="sabra-way")
            assert not v.legal
            assert sorted(str(x.code) for x in v.violations) == sorted(map(str, codes)), \
                (after, v.violations)

    explained("K7 R7 J | B10 O10 K10 R10 | K4 J K6 K7 | B10 O10 K10 R10",
              ("K4 J K6 K7 | K7 R7 | K10 B10 O10 R10 | K10 B10 O10 R10 J",
               "K7 R7 | K4 J K6 K7 | K10 B10 O10 R10 J | K10 B10 O10 R10"), "",
              Code.INVALID_MELD, Code.INVALID_MELD, Code.JOKER_NOT_REPLACED, Code.JOKER_NOT_REUSED)
    # the same with the other K7 from the rack, in K7 K8 K9, and the joker of R5 R6 R7 J
    # (the R8) taken with nothing in its place: K4 J K6 K7, the first meld, kept its own K7
    explained("K4 J K6 K7 | B10 O10 K10 R10 | B10 O10 K10 R10 | R5 R6 R7 J",
              ("K4 J K6 K7 | K7 K8 K9 | K10 B10 O10 R10 | K10 B10 O10 R10 J | R5 R6 R7",
               "K7 K8 K9 | K4 J K6 K7 | K10 B10 O10 R10 J | K10 B10 O10 R10 | R5 R6 R7"),
              "K7 K8 K9", Code.INVALID_MELD, Code.JOKER_NOT_REPLACED, Code.JOKER_NOT_REUSED)
