"""Boundaries of a turn that must be exact: each test breaks when its comparison is changed.

Each verdict is worked out from the rule texts in ../shared/rules/, and the sentence it rests
on is quoted beside it: 000 and 002 retell the 1998 Pressman rules, 001 and 003 the current
Sabra rules, 004 the Sabra Way leaflet and its tournament rule."""


from referee import Code, check_turn

ALL = ("sabra", "pressman-1998", "sabra-way", "tournament")


def codes(v):
    return set(v.codes)


def test_the_timer_allows_exactly_the_limit():
    before, after = "R3 R4 R5", "R3 R4 R5 R6"
    assert check_turn(before, after, "R6", elapsed=60, rules="sabra").legal
    assert not check_turn(before, after, "R6", elapsed=60.5, rules="sabra").legal
    assert check_turn(before, after, "R6", elapsed=120, rules="sabra-way").legal


def test_an_old_invalid_meld_excuses_only_itself():
    # R3 R4 was already broken; a second R3 R4 laid this turn is this player's mistake.
    v = check_turn("R3 R4 | K7 B7 O7", "R3 R4 | R3 R4 | K7 B7 O7", "R3 R4")
    assert not v.legal and v.codes == (Code.INVALID_MELD,)
    assert any("already invalid" in n for n in v.notes)
