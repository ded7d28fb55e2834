"""A hint on a table whose jokers a player declared (001: two jokers in one set "must be
explicitly declared"): a hint may take a declared joker only with the tile it was declared
to stand for (003: "A joker can be retrieved from a set by placing it with a tile of the same
numerical value and colour it represents"), and is never illegal under the declarations."""

import pytest

from referee import PRESETS, best_move, check_turn, parse_table, parse_tiles
from referee.melds import DeclarationError
from tests.referee.test_hints import brute_best

TABLE, RACK = "J K1 J | K10 B10 O10 R10", "R1 K5 K6"


def legal(table, move, rack, declared):
    return check_turn(table, move.table, rack, rules="sabra", jokers_before=declared).legal


@pytest.mark.parametrize("declared", [None, {0: "R1 B1"}, {"0": "O1 R1"}])
def test_a_joker_standing_for_the_rack_s_tile_may_be_taken_with_it(declared):
    # undeclared, J K1 J's jokers may stand for R1; declared as R1 and another, one does:
    # R1 takes it, and it is laid with K5 K6 (003: "must be used in the player's same turn
    # as part of a new set"): all three rack tiles, the best there is
    move = best_move(TABLE, RACK, "sabra", jokers=declared)
    assert sorted(map(str, move.placed)) == ["K5", "K6", "R1"] and move.exact
    assert legal(TABLE, move, RACK, declared)
    assert move.steps[0].action == "swap"


def test_a_joker_declared_as_other_tiles_is_not_taken_with_the_rack_s_tile():
    # declared B1 and O1: R1 stands for neither, so no joker leaves J K1 J; K5 K6 then have
    # nothing to be laid with. R1 joins the group as its fourth colour (003: "A set
    # containing a joker can have tiles added to it"): one tile, the best there is. The
    # search without the declarations found three, so the hint does not claim to be proven.
    declared = {0: "B1 O1"}
    move = best_move(TABLE, RACK, "sabra", jokers=declared)
    assert legal(TABLE, move, RACK, declared) and not move.exact
    assert all(s.action != "swap" for s in move.steps)
    assert [str(t) for t in move.placed] == ["R1"]
    assert sorted(map(str, move.table.melds[0].tiles)) == ["J", "J", "K1", "R1"]
    # the rest of the table is still used: R6 goes on R3 R4 R5
    table, rack = TABLE + " | R3 R4 R5", RACK + " R6"
    move = best_move(table, rack, "sabra", jokers=declared)
    assert legal(table, move, rack, declared) and not move.exact
    assert sorted(map(str, move.placed)) == ["R1", "R6"]


def test_declared_jokers_exchanged_for_their_own_tiles_and_laid_anew():
    # J K1 J declared B1 and O1, rack B1 O1 R1 R2 R3: B1 and O1 take the jokers they stand
    # for, and both jokers go down with R1 R2 R3 in a new set (003): all five tiles. The
    # search without the declarations also placed five, so this hint is proven best.
    table, rack, declared = "J K1 J | R5 R6 R7", "B1 O1 R1 R2 R3", {0: "B1 O1"}
    move = best_move(table, rack, "sabra", jokers=declared)
    assert len(move.placed) == 5 and move.exact and legal(table, move, rack, declared)
    assert [str(m) for m in move.table.melds if "J" in str(m)] == ["R1 R2 R3 J J"]
    assert [s.text for s in move.steps] == [
        "swap the joker in J K1 J for your B1, then lay it with R1 R2 R3",
        "swap the joker in J K1 J for your O1, then add it to R1 R2 R3 J"]


def test_a_tile_added_beside_a_joker_declared_as_another_colour():
    # K5 B5 J with the joker declared R5: O5 cannot take it (003), but joins the group as
    # its fourth colour; R6 goes on R3 R4 R5. K7 K8 have nothing to go with.
    table, rack, declared = "K5 B5 J | R3 R4 R5", "O5 R6 K7 K8", {0: "R5"}
    move = best_move(table, rack, "sabra", jokers=declared)
    assert sorted(map(str, move.placed)) == ["O5", "R6"] and legal(table, move, rack, declared)


def test_declarations_leave_an_opening_alone():
    # before the initial meld the table is not touched (003), so declarations change nothing
    move = best_move(TABLE, "K11 B11 O11 R1", "sabra", opened=False, jokers={0: "B1 O1"})
    assert sorted(map(str, move.placed)) == ["B11", "K11", "O11"] and move.exact


def test_a_kept_hint_swaps_the_joker_for_the_tile_it_was_declared_as():
    # J K1 J declared R1 and O1, rack B1 O1 R1 R2 R3: the five tiles go down only if O1 takes
    # the joker declared O1 (003: "placing it with a tile of the same numerical value and
    # colour it represents"), which is laid with R1 R2 R3, and B1 joins K1 and the joker still
    # standing for R1. The search reads the jokers as any missing colours, so its own steps
    # could have swapped B1; the steps must say what the declarations allow.
    table, rack, declared = "J K1 J | R5 R6 R7", "B1 O1 R1 R2 R3", {0: "R1 O1"}
    move = best_move(table, rack, "sabra", jokers=declared)
    assert len(move.placed) == 5 and move.exact and legal(table, move, rack, declared)
    swap = move.steps[0]
    assert swap.action == "swap" and swap.args["tiles"] == "O1", swap.text
    assert "your O1" in swap.text and "B1" not in swap.text


@pytest.mark.parametrize("preset, table, rack, declared, placed, after", [
    # 004 (sabra-way): "You can add a tile to a meld containing a Joker, either the fourth
    # tile in a group or to either end of a run", but "A meld containing a Joker may not be
    # manipulated": B9 cannot leave B9 J K9 for B10 B11, and O9 cannot take the joker
    # declared R9; O9 joins the group.
    ("sabra-way", "B9 J K9", "B10 K9 O9 B11", {0: "R9"}, ["O9"], "B9 J K9 O9"),
    # the same beside a run that takes R6: the rest of the table is laid as usual
    ("sabra-way", "R3 R4 R5 | B9 J K9", "B10 K9 O9 B11 R6", {1: "R9"}, ["O9", "R6"],
     "B9 J K9 O9 | R3 R4 R5 R6"),
    # K1 J J declared a run, K1 K2 K3 (003/sabra: joker melds are not taken apart): K4 goes
    # on its end; B1 O1 cannot take K1 from it, nor take its jokers (they stand for K2 K3)
    ("sabra", "K1 J J", "K4 B1 O1", {0: "K2 K3"}, ["K4"], "K1 J J K4"),
    # a run declared from its other end (K5 K4 K3, read by a player across the table): K6
    # goes before it and K2 after it
    ("sabra-way", "K5 J J", "K6 K2 B5 O5", {0: "K4 K3"}, ["K2", "K6"], "K6 K5 J J K2"),
    ("sabra", "J J K5", "K2 K6 B5 O5", {0: "K3 K4"}, ["K2", "K6"], "K2 J J K5 K6"),
    # a joker declared as the tile that rearranges its run (K2 K3 K4, K10 K11 K12): the
    # rack's K1 and K13 go on the run's ends, at the edges of the numbers, and not in
    # exchange for the joker (it stands for K4 / K10, not K1 / K13)
    ("sabra", "J K2 K3 | B1 O1 R1", "K1 B4 O4", {0: "K4"}, ["K1"], "K1 J K2 K3 | B1 O1 R1"),
    ("sabra-way", "K11 K12 J", "K13 B4 O4", {0: "K10"}, ["K13"], "K11 K12 J K13"),
])
def test_rack_tiles_added_at_a_declared_meld_s_ends(preset, table, rack, declared, placed, after):
    # The search without the declarations takes these melds apart or their jokers (K1 J J
    # read as a group gives its jokers to B1 and O1): the hint adds the rack's tiles where
    # the declared meld can take them, the best legal turn (the brute force's)
    move = best_move(table, rack, preset, jokers=declared)
    assert sorted(map(str, move.placed)) == placed
    assert str(move.table) == after
    left = rack.split()
    for t in placed:
        left.remove(t)
    assert sorted(map(str, move.remaining)) == sorted(left)  # what stays on the rack
    assert check_turn(table, move.table, rack, rules=preset, jokers_before=declared).legal
    assert (len(move.placed), move.points) == brute_best(
        parse_table(table), parse_tiles(rack), PRESETS[preset], declared)


@pytest.mark.parametrize("jokers, why", [
    ({3: "B1"}, "names meld 3, but the table has 1 meld"),
    ({0: "B1"}, "J K1 J holds 2 jokers: declare 2 numbered tiles"),
    ({0: "B1 O1 R1"}, "declare 2 numbered tiles"),
    ({0: "J B1"}, "declare 2 numbered tiles"),
    ({0: "K1 O1"}, "J K1 J: its jokers cannot stand for K1 O1"),
])
def test_a_declaration_that_fits_no_meld_is_refused_even_when_the_hint_is_a_draw(jokers, why):
    # K5 K6 cannot go down on J K1 J whatever its jokers are: the hint would be a draw, but
    # the declaration is still checked (a player must learn it is wrong, not see it ignored)
    with pytest.raises(DeclarationError, match=why):
        best_move("J K1 J", "K5 K6", "sabra", jokers=jokers)
    with pytest.raises(DeclarationError, match=why):
        best_move("J K1 J", "B1 O1 R1", "sabra", jokers=jokers)


def test_a_declared_joker_exchanged_for_a_table_tile_where_the_preset_allows():
    # 003 (sabra): "The tile used to replace the joker can come from the player's rack or
    # from the table." J R6 J declared R7 R5: the table's R5 takes the joker declared R5,
    # R3 R4 joins the run, and the joker goes down with the rack's B3 O3 in a new set.
    # Pressman 1998 and sabra-way take a joker only for a tile from the hand (000, 004):
    # there nothing can be played.
    table, rack, declared = "J R6 J | R3 R4 R5", "B3 K6 O3 R1", {0: "R7 R5"}
    move = best_move(table, rack, "sabra", jokers=declared)
    assert sorted(map(str, move.placed)) == ["B3", "O3"]
    assert sorted(str(m) for m in move.table.melds) == ["B3 O3 J", "R3 R4 R5 R6 J"]
    assert check_turn(table, move.table, rack, rules="sabra", jokers_before=declared).legal
    assert [s.text for s in move.steps] == [
        "swap the joker in J R6 J for R5 from R3 R4 R5, then lay it with B3 O3",
        "move R3 R4 from R3 R4 R5 to J R6 J"]
    for preset in ("pressman-1998", "sabra-way"):
        assert best_move(table, rack, preset, jokers=declared).draws
    # J J B10 declared O10 K10: the table's K10 takes the joker declared K10 and lays it with
    # K9 and the rack's R9; K8 joins the rack's B8 R8 (three tiles, 25 points)
    table, rack, declared = "J J B10 | K8 K9 K10", "R8 B8 R9", {0: "O10 K10"}
    move = best_move(table, rack, "sabra", jokers=declared)
    assert (len(move.placed), move.points) == (3, 25)
    assert check_turn(table, move.table, rack, rules="sabra", jokers_before=declared).legal


def test_the_fallback_s_steps_swap_the_joker_for_the_tile_it_was_declared_as():
    # B4 J J declared O4 R4 (004, sabra-way: a joker is taken "in exchange for a tile of the
    # same value from your hand"): O4 takes the joker declared O4, which goes down with B3 B5,
    # and K4 joins the group beside the joker still standing for R4. The search, reading the
    # jokers as any missing colours, lays the same table, but its steps (and a judge's
    # account without the declarations) would swap the joker for K4, which stands for neither.
    table, rack, declared = "B4 J J", "K4 B5 B3 O4", {0: "O4 R4"}
    move = best_move(table, rack, "sabra-way", jokers=declared)
    assert sorted(map(str, move.placed)) == ["B3", "B5", "K4", "O4"]
    assert [s.text for s in move.steps] == [
        "swap the joker in B4 J J for your O4, then lay it with B3 B5", "add K4 to B4 J"]


@pytest.mark.parametrize("preset", ["sabra", "sabra-way", "pressman-1998", "tournament"])
def test_a_declared_meld_beside_a_joker_meld_nobody_declared(preset):
    # K5 B5 J declared R5: O5 cannot take its joker (003: only "a tile of the same numerical
    # value and colour it represents") but joins the group; R3 R4 R5 J keeps its joker, which
    # no R2 or R6 can take, so K9 B9 have no third tile. One tile, the brute force's best.
    # The rest of the table holds a joker, so laying it is itself a joker search.
    table, rack, declared = "K5 B5 J | R3 R4 R5 J", "O5 K9 B9", {0: "R5"}
    move = best_move(table, rack, preset, jokers=declared)
    assert [str(t) for t in move.placed] == ["O5"]
    assert "R3 R4 R5 J" in [str(m) for m in move.table.melds]
    assert check_turn(table, move.table, rack, rules=preset, jokers_before=declared).legal
    assert brute_best(parse_table(table), parse_tiles(rack), PRESETS[preset], declared) == (1, 5)


def test_a_declared_joker_exchanged_and_laid_with_the_rack_s_joker():
    # K10 J O10 declared R10: the rack's R10 takes it (003), and the freed joker goes down
    # with the rack's joker and K12 in a new set, J J K12 (a run of K10 K11 K12 or K12
    # K13 ... as laid); O10 cannot join a group that has one. Three tiles, one of them the
    # rack's joker (counted at the preset's joker value), the brute force's best and proven.
    table, rack, declared = "K10 J O10", "J K12 O10 R10", {0: "R10"}
    move = best_move(table, rack, "sabra", jokers=declared)
    assert sorted(map(str, move.placed)) == ["J", "K12", "R10"] and move.exact
    assert check_turn(table, move.table, rack, rules="sabra", jokers_before=declared).legal
    assert (len(move.placed), move.points) == brute_best(
        parse_table(table), parse_tiles(rack), PRESETS["sabra"], declared)
