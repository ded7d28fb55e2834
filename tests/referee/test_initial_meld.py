"""The initial meld: which melds are the player's new ones, what they count, and the words of
a verdict that refuses them.

Each verdict is worked out from the rule texts in ../shared/rules/, and the sentence it rests
on is quoted beside it: 000 and 002 retell the 1998 Pressman rules, 001 and 003 the current
Sabra rules, 004 the Sabra Way leaflet."""

from referee import Code, TurnKind, check_turn


def test_an_opening_may_lay_a_copy_of_a_meld_already_on_the_table():
    # 000: "For a player's first move, he must play a set with a value of at least 30 points",
    # and "Each combination of color and number is represented twice": R10 R11 R12 from the
    # rack is the player's own set, even when the other copy of it lies on the table
    for preset in ("sabra", "pressman-1998"):
        v = check_turn("R10 R11 R12", "R10 R11 R12 | R10 R11 R12", "R10 R11 R12",
                       opened=False, rules=preset)
        assert v.legal and v.kind is TurnKind.OPENING, (preset, v.summary())
        assert v.initial_points == 33 and v.opened


def test_identical_melds_on_the_table_are_not_the_players_opening():
    # 004: the initial meld's points "must come from tiles in the hand only, and not from tiles
    # already on the table"; 002: "A player may not use other players' tiles to make the
    # "initial meld"". Two K1 K2 K3 lie on the table (two copies of each tile exist) and stay.
    table = "K1 K2 K3 | K1 K2 K3"
    low = check_turn(table, table + " | B7 B8 B9", "B7 B8 B9", opened=False, rules="sabra")
    assert not low.legal and low.codes == (Code.INITIAL_MELD_TOO_LOW,)
    assert low.initial_points == 24 and low.violations[0].melds == ("B7 B8 B9",)
    # 003: "During the initial meld sets on the table may not be manipulated": they were not
    ok = check_turn(table, table + " | B10 B11 B12", "B10 B11 B12", opened=False, rules="sabra")
    assert ok.legal and ok.initial_points == 33, ok.summary()


def test_changing_one_of_two_identical_melds_before_opening_is_named():
    # 003: "During the initial meld sets on the table may not be manipulated or built upon
    # with tiles from player's rack": one R3 R4 R5 was built upon, the other was not
    v = check_turn("R3 R4 R5 | R3 R4 R5", "R3 R4 R5 | R3 R4 R5 R6 | K10 K11 K12",
                   "R6 K10 K11 K12", opened=False, rules="sabra")
    assert v.codes == (Code.TABLE_TOUCHED_BEFORE_OPENING,)
    assert v.violations[0].melds == ("R3 R4 R5",)
    assert v.violations[0].message == (
        "before the initial meld a player may not change the melds on the table: "
        "R3 R4 R5 changed")
    assert not v.opened and v.restore


def test_every_meld_changed_before_opening_is_named():
    # 003, as above: R6 built onto the run, R7 onto the group, beside a new set worth 33
    v = check_turn("R3 R4 R5 | K7 B7 O7", "R3 R4 R5 R6 | K7 B7 O7 R7 | B10 B11 B12",
                   "R6 R7 B10 B11 B12", opened=False, rules="sabra")
    assert v.codes == (Code.TABLE_TOUCHED_BEFORE_OPENING,)
    assert v.violations[0].melds == ("R3 R4 R5", "K7 B7 O7")
    assert v.violations[0].message.endswith(": R3 R4 R5, K7 B7 O7 changed")


def test_too_low_an_opening_says_its_worth_how_it_was_counted_and_the_threshold():
    after, rack = "K5 K6 K7 | B8 B9 B10", "K5 K6 K7 B8 B9 B10"     # 18 + 27
    # 000: "he must play a set with a value of at least 30 points": the best single set, 27
    single = check_turn("", after, rack, opened=False, rules="pressman-1998")
    assert single.codes == (Code.INITIAL_MELD_TOO_LOW,)
    assert single.violations[0].message == (
        "the initial meld is worth 27 in a single set; Pressman 1998 (US) needs at least 30")
    assert single.violations[0].melds == ("K5 K6 K7", "B8 B9 B10")
    # 004: "an initial meld of 50 points in one or more sets": together, 45
    sets = check_turn("", after, rack, opened=False, rules="sabra-way")
    assert sets.codes == (Code.INITIAL_MELD_TOO_LOW,)
    assert sets.violations[0].message == (
        "the initial meld is worth 45 from the new sets together; The Sabra Way (50-point "
        "opening) needs at least 50")
    assert sets.violations[0].melds == ("K5 K6 K7", "B8 B9 B10")


def test_a_player_who_draws_before_opening_has_no_initial_meld_count():
    # 003: "If unable to do an initial meld, or player chooses to delay initial meld, a tile
    # must be taken from the pool and this concludes the player's turn."
    v = check_turn("R3 R4 R5", "R3 R4 R5", "K1", opened=False, rules="sabra")
    assert v.legal and v.kind is TurnKind.DRAW and not v.opened
    assert v.initial_points is None and v.to_dict()["initial_points"] is None
