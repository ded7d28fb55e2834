"""What a joker stands for: where it lies, or what a player declared; and identical tiles are never told apart by guessing.

Each verdict is worked out from the rule texts in ../shared/rules/, and the sentence it rests
on is quoted beside it: 000 and 002 retell the 1998 Pressman rules, 001 and 003 the current
Sabra rules, 004 the Sabra Way leaflet and its tournament rule."""

import pytest

from referee import Code, TurnVerdict, check_meld, check_turn
from referee.melds import DeclarationError, meld_readings

ALL = ("sabra", "pressman-1998", "sabra-way", "tournament")


def codes(v):
    return set(v.codes)


def test_position_fixes_a_joker_where_it_can():
    # 004's example: "#4 Blue, Joker (replacing #5 blue), #6 Blue".
    v = check_meld("B4 J B6")
    assert not v.assumed and [str(s) for _, s in v.jokers] == ["B5"]
    # J K1 J cannot be a run as laid, so it is a group; which colours is open
    v = check_meld("J K1 J")
    assert v.kind == "group" and v.assumed
    assert {r.kind for r in meld_readings("K1 J J")} == {"run", "group"}


def test_two_jokers_as_declared():
    # 001: "If you choose to use two jokers in a single combination they must be explicitly
    # declared which tiles they represent."
    v = check_meld("K1 J J", jokers="B1 O1")
    assert v.ok and v.kind == "group" and v.declared and not v.assumed
    assert not check_meld("K1 J J", jokers="B1 K1").ok
    with pytest.raises(DeclarationError):
        check_meld("K1 J J", jokers="B1")
    # Declared a run K1 K2 K3, the K2 joker is taken with K2; declared a group, K2 frees none.
    before, after, rack = "K1 J J", "K1 K2 J | J R5 R6", "K2 R5 R6"
    assert check_turn(before, after, rack, jokers_before={0: "K2 K3"}).legal
    v = check_turn(before, after, rack, jokers_before={0: "B1 O1"})
    assert not v.legal and Code.JOKER_NOT_REPLACED in codes(v)
    # undeclared: some reading of the tiles as laid explains the turn
    assert check_turn(before, after, rack).legal


def test_declarations_are_judged_and_kept_in_the_verdict():
    v = check_turn("", "K10 J J", "K10 J J", opened=False, jokers={0: "B10 O10"})
    assert v.legal and v.initial_points == 30
    v2 = check_turn("", "K10 J J", "K10 J J", opened=False)
    assert v2.initial_points == 33          # undeclared: the run K10 K11 K12, worth most
    back = TurnVerdict.from_dict(v.to_dict())
    assert back == v and back.declared == v.declared
    with pytest.raises(DeclarationError):
        check_turn("", "K10 J J", "K10 J J", jokers={3: "B10 O10"})


def test_identical_tiles_are_interchangeable():
    # Two R5s: the one that replaced the joker came from the rack, the other stays in its
    # group. Whichever R5 the camera saw where, some account explains the turn.
    before = "R3 R4 J | R5 K5 B5"
    after = "R3 R4 R5 | R5 K5 B5 | J K1 K2"
    assert check_turn(before, after, "R5 K1 K2", rules="sabra-way").legal


def test_a_declaration_names_a_meld_of_its_own_table():
    # 001: two jokers "must be explicitly declared which tiles they represent": a declaration
    # belongs to one meld of one table; naming a meld that table lacks is refused, for the
    # table after the turn and for the table before it alike, with the count of its melds
    before, after, rack = "R3 J R5", "R3 J R5 R6", "R6"
    for which in ("jokers", "jokers_before"):
        with pytest.raises(DeclarationError) as one:
            check_turn(before, after, rack, **{which: {1: "R4"}})
        assert str(one.value) == "a declaration names meld 1, but the table has 1 meld"
    with pytest.raises(DeclarationError) as two:
        check_turn("R3 J R5 | K7 B7 O7", "R3 J R5 | K7 B7 O7 R7", "R7", jokers={2: "R4"})
    assert str(two.value) == "a declaration names meld 2, but the table has 2 melds"
    assert check_turn(before, after, rack, jokers={0: "R4"}, jokers_before={0: "R4"}).legal


def test_a_declaration_gives_one_tile_per_joker():
    # 000: the joker assumes "the value of the tile it is being used in place of": one tile
    # for the one joker of R3 J R5 R6; three are refused with the reason, not as a tile count
    with pytest.raises(DeclarationError, match="holds 1 joker"):
        check_turn("R3 J R5", "R3 J R5 R6", "R6", jokers={0: "R4 R4 R4"})


def test_a_new_meld_is_judged_as_its_joker_was_declared():
    # 000: the joker assumes "the value of the tile it is being used in place of"; declared as
    # K4, the joker between R3 and R5 makes neither a run nor a group
    before, after = "K7 B7 O7", "K7 B7 O7 | R3 J R5"
    v = check_turn(before, after, "R3 J R5", jokers={1: "K4"})
    assert not v.legal and v.codes == (Code.INVALID_MELD,)
    assert v.violations[0].melds == ("R3 J R5",)
    # declared as R4, the same meld is a run, and the verdict keeps the declaration
    ok = check_turn(before, after, "R3 J R5", jokers={1: "R4"})
    assert ok.legal and ok.melds[1].declared
    assert [(i, [str(t) for t in tiles]) for i, tiles in ok.declared] == [(1, ["R4"])]
    assert ok.to_dict()["declared"] == {"1": "R4"}


def test_a_meld_invalid_as_declared_before_the_turn_is_not_this_players_fault():
    # 000: "Groups are three or four same-value tiles in distinct colors": K5 B5 J, its joker
    # declared as B5, repeats blue. It lay so before the turn and this player left it alone
    # (R6 went on the run): it is noted, not held against them.
    v = check_turn("K5 B5 J | R3 R4 R5", "K5 B5 J | R3 R4 R5 R6", "R6",
                   jokers={0: "B5"}, jokers_before={0: "B5"})
    assert v.legal, v.summary()
    assert len(v.notes) == 1 and v.notes[0].startswith("K5 B5 J was already invalid")
