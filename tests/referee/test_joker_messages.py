"""What the verdict says when a joker rule is broken: the tile the joker wanted, and why the
meld it went to is no new set. The rule each message rests on is quoted beside it from the
rule texts in ../shared/rules/ (000 retells the 1998 Pressman rules, 003 the current Sabra
rules)."""

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
