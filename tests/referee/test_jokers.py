"""Joker turns, each verdict worked out from the rule texts in ../shared/rules/ (the sentence
each case rests on is quoted beside it; 000/002 retell the 1998 Pressman rules, 001 and 003
the current Sabra rules, 004 the Sabra Way leaflet and its tournament rule)."""

import pytest

from referee import Code, TurnVerdict, check_meld, check_turn
from referee.melds import DeclarationError, meld_readings

ALL = ("sabra", "pressman-1998", "sabra-way", "tournament")


def codes(v):
    return set(v.codes)


# --- a joker taken must be replaced by the tile it stands for -------------------------------

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


# --- the freed joker goes into a new set ------------------------------------------------------

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


# --- where the replacing tile may come from -------------------------------------------------

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


def test_no_joker_before_the_initial_meld():
    # 003: "A joker may not be retrieved before the initial meld." 000: "a joker on the table
    # cannot be retrieved before the initial meld".
    v = check_turn("R3 R4 J", "R3 R4 R5 | K10 K11 K12 J", "R5 K10 K11 K12", opened=False)
    assert not v.legal
    assert {Code.JOKER_BEFORE_OPENING, Code.TABLE_TOUCHED_BEFORE_OPENING} <= codes(v)


# --- melds holding a joker under the Sabra Way ----------------------------------------------

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


# --- what a joker stands for: the position, or a declaration --------------------------------

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


# --- the account search does not guess ------------------------------------------------------

def test_identical_tiles_are_interchangeable():
    # Two R5s: the one that replaced the joker came from the rack, the other stays in its
    # group. Whichever R5 the camera saw where, some account explains the turn.
    before = "R3 R4 J | R5 K5 B5"
    after = "R3 R4 R5 | R5 K5 B5 | J K1 K2"
    assert check_turn(before, after, "R5 K1 K2", rules="sabra-way").legal


# --- boundaries that must be exact (each breaks when its comparison is changed) -----------

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


# --- each preset's values come from a rule text, word for word -------------------------------

def _texts():
    from tests.conftest import shared_path
    folder = shared_path("rules")
    return {p.name[:3]: " ".join(p.read_text(encoding="utf-8").split())
            for p in folder.glob("*.txt")}


@pytest.mark.parametrize("preset", ALL)
def test_every_preset_value_cites_its_rule_text_word_for_word(preset):
    from referee import PRESETS
    from referee.rules import DEPARTURES
    rules = PRESETS[preset]
    texts = _texts()
    cites = rules.citations()
    needed = {f for f in rules.to_dict() if f not in ("name", "title", "source")}
    if rules.turn_time_limit is None:
        needed -= {"turn_time_limit", "timeout_penalty", "timeout_draw"}
    if rules.timeout_penalty != "draw":
        needed -= {"timeout_draw"}
    assert needed <= set(cites), sorted(needed - set(cites))
    for field, c in list(cites.items()) + [("departure", c) for c in DEPARTURES.get(preset, ())]:
        assert " ".join(c.quote.split()) in texts[c.text], (field, c)


def test_sabra_says_where_it_departs_from_001():
    from referee import get_rules
    from referee.rules import DEPARTURES
    sabra = get_rules("sabra")
    assert "001" in sabra.source and "2-minute" in sabra.source
    said = " ".join(c.quote for c in DEPARTURES["sabra"])
    assert "2 minutes" in said and "in hand" in said and "moved and rearranged" in said
    assert "at least one combination" in said
