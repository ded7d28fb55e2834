"""Hints whose exchanged jokers are laid in new sets after every place had its first try
(``referee.joker_sets``): the places kept aside are settled best bound first, a pattern
proven unable to beat the best is passed over (not the end of the list), and a set whose
tiles the rack holds too is tried again from the rack before a bound is left unsettled.
Each best turn is worked out by hand from the rule texts and held to the brute force of
``test_hints`` (in the test where it takes a second or two; where it takes longer, it was
run once by hand and its answer is quoted).

The rule texts: ``pressman-1998`` (``shared/rules/`` 000): "A player with a tile matching
the color and value of a joker may replace the joker with that tile. The joker must be
played that same turn in a set with at least two other tiles from the player's rack."
``sabra`` (003): "A joker can be retrieved from a set by placing it with a tile of the same
numerical value and colour it represents. The tile used to replace the joker can come from
the player's rack or from the table. [...] A joker that has been replaced must be used in
the player's same turn as part of a new set."
"""

import pytest

from referee import PRESETS, parse_table
from tests.referee.test_hints import brute_best, hint_beside_worked_out


def test_both_jokers_exchanged_into_one_set_after_a_proven_pattern_is_passed_over():
    # R6 exchanges the joker of J R7 R8, B9 the joker of O9 K9 J R9 (the group's missing
    # blue); both jokers go to J J K11 K12 K13 with three rack tiles: the whole rack, 5
    # tiles, 51 points. Keeping J R7 R8 as it lies leaves R6 out (4 tiles, 45 points).
    table = "J R7 R8 | O9 K9 J R9 | R11 K11 O11 B11"
    rack = "R6 B9 K12 K13 K11"
    rules = PRESETS["pressman-1998"]
    assert brute_best(parse_table(table), rack.split(), rules) == (5, 51)
    after = "R6 R7 R8 | K9 B9 O9 R9 | J J K11 K12 K13 | K11 B11 O11 R11"
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == (5, 51) and move.exact, move.table


def test_a_freed_joker_whose_set_could_take_a_tile_from_the_rack_or_its_own_run():
    # B11 exchanges the joker of B5 ... B10 J, which must go to a new set: K6 O6 J, two
    # rack tiles, gives 3 tiles, 23 points, the most. B5 O5 J would need the run's B5 (a
    # tile of the set the joker left: not a new set) or the rack's B5, which leaves only
    # B5 O5 beside the joker (21 points); K10 fits nowhere. The hint is proven: the same set
    # from the rack's tiles was tried, not left unsettled.
    table, rack = "B5 B6 B7 B8 B9 B10 J", "B11 O6 K6 O5 K10 B5"
    rules = PRESETS["sabra"]
    assert brute_best(parse_table(table), rack.split(), rules) == (3, 23)
    move = hint_beside_worked_out(table, rack, rules, "B5 B6 B7 B8 B9 B10 B11 | K6 O6 J")
    assert (len(move.placed), move.points) == (3, 23) and move.exact, move.table


def test_two_exchanged_jokers_together_in_a_run_with_two_hand_tiles_proven_best():
    # sabra-way (004): "You must use the Joker immediately with 2 more tiles from your hand
    # to make another meld onto the table." K11 exchanges the joker of K10 J K12 K13, O12
    # the joker of O10 O11 J; both go to R7 J J R10 with two hand tiles; O2 leaves
    # O2 O3 O4 O5 for the group K2 O2 R2: 6 tiles, 44 points. K7 is left: each joker needs
    # two hand tiles beside it, and with K7 R7 J and K2 R2 J instead the R10 fits nowhere
    # (41 points). The brute force of test_hints gives (6, 44) (100 s: run once by hand,
    # too slow for this test). The hint is proven: the pairs of sets, one joker in each,
    # were all tried, none left unsettled.
    table = "K10 J K12 K13 | O10 O11 J | R8 R9 R10 | O2 O3 O4 O5"
    rack = "K11 O12 R7 K7 R2 K2 R10"
    after = "K10 K11 K12 K13 | O10 O11 O12 | R7 J J R10 | O3 O4 O5 | R8 R9 R10 | K2 O2 R2"
    move = hint_beside_worked_out(table, rack, PRESETS["sabra-way"], after)
    assert (len(move.placed), move.points) == (6, 44) and move.exact, move.table


def test_a_freed_jokers_set_takes_the_racks_copy_of_a_tile_its_own_run_holds_too():
    # pressman-1998: B6 exchanges the joker of B4 B5 J B7 ... B11, which must go to a set
    # with two rack tiles: K11 B11 J with the rack's K11 and B11 (22 points), or J R9 R10
    # (19 points). The run splits into B4 ... B9 and B9 B10 B11 with the rack's B9: 4 tiles,
    # 37 points. R9 R10 and K11 each need the one joker, so no turn lays five. K11 B11 J is
    # legal only with the rack's B11 (the run's B11 beside the joker is no new set with two
    # rack tiles): the set must be tried again with the tile the rack holds too, or the
    # 34-point turn is called the best. The brute force of test_hints gives (4, 37) (9 s at
    # rest, 30 s under load: run once by hand, not in this test).
    table = "B4 B5 J B7 B8 B9 B10 B11 | O6 O7 O8 O9 O10"
    rack = "B6 K11 B11 R9 R10 B9"
    rules = PRESETS["pressman-1998"]
    after = "B4 B5 B6 B7 B8 B9 | K11 B11 J | B9 B10 B11 | O6 O7 O8 O9 O10"
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == (4, 37) and move.exact, move.table


def test_two_exchanged_jokers_each_in_a_set_of_its_own_proven_best():
    # pressman-1998: R12 exchanges the joker of K12 O12 B12 J (the group's missing red),
    # B10 the joker of O10 J K10; the jokers go to J R5 R6 and K9 B9 J, two rack tiles each;
    # K1 leaves R1 K1 B1 O1 for K1 K2 K3 with the rack's K2 K3: 8 tiles, 56 points. O5, O1
    # and O3 are left: R5 R6, K9 B9, O1 O3 and O5 R5 each fit only beside a joker (no R4,
    # R7, third 9, O2, O4, nor a 5 or 6 that can leave its run), so two of them at most are
    # laid, K9 B9 and R5 R6 the most points (worked out by hand: the brute force of
    # test_hints did not finish in 15 minutes on 11 rack tiles). The hint is proven: no pair
    # of new sets, one joker in each, is left unsettled when none beats it.
    table = "K12 O12 B12 J | O10 J K10 | K5 K6 K7 | R1 K1 B1 O1"
    rack = "R12 B10 K2 K3 O5 R5 K9 B9 O1 O3 R6"
    after = ("K12 B12 O12 R12 | K10 B10 O10 | J R5 R6 | K9 B9 J | K1 K2 K3 | K5 K6 K7 | "
             "B1 O1 R1")
    move = hint_beside_worked_out(table, rack, PRESETS["pressman-1998"], after)
    assert (len(move.placed), move.points) == (8, 56) and move.exact, move.table


def test_a_freed_jokers_set_takes_a_table_tile_beside_the_racks_copies_of_the_others():
    # pressman-1998 (000): B7 replaces the joker of B6 J B8 B9 B10 ("A player with a tile
    # matching the color and value of a joker may replace the joker with that tile"), and
    # "The joker must be played that same turn in a set with at least two other tiles from
    # the player's rack": B10 B11 J B13 (the joker as B12) with the rack's B10 and B13 and
    # the B11 of the group of four 11s ("Any one tile may be removed from a four-tile
    # group"); B8 splits the run into B6 B7 B8 and B8 B9 B10 ("Splitting a run"): 4 tiles,
    # 38 points. B13 lies only beside the joker (no B12 anywhere, no other 13), in a set
    # with two rack tiles: with the run's B10 it would hold one. R8 R9 need the same joker
    # (no R7 or R10) or both groups R8 O8 B8 and R9 O9 B9 (O8 alone would leave O9 on its
    # own), which take the run's only B9 and strand its B10; so no turn lays five, and of
    # four, J R8 R9 with B7 and B8 or B10 brings 34 points at most. The set holds a tile
    # only the table has (B11) and one the run and the rack both hold (B10): tried with
    # the table's copies first it is no legal set, and tried again it must take only the
    # rack's B10 from the rack, B11 still from the table, or the 32-point J R8 R9 turn is
    # the hint. The brute force of test_hints gives (4, 38) (21 s under load: run once by
    # hand, not in this test).
    table = "B6 J B8 B9 B10 | O5 O6 O7 O8 O9 | B11 O11 R11 K11"
    rack = "B7 R8 R9 B8 B10 B13"
    after = "B6 B7 B8 | B8 B9 B10 | B10 B11 J B13 | O5 O6 O7 O8 O9 | K11 O11 R11"
    move = hint_beside_worked_out(table, rack, PRESETS["pressman-1998"], after)
    assert (len(move.placed), move.points) == (4, 38) and move.exact, move.table


def test_a_freed_jokers_set_laid_on_its_retry_leaves_nothing_unsettled():
    # pressman-1998 (000), the table of the test before and a B11 more on the rack: B7
    # replaces the joker, which goes to B10 B11 J B13 (the joker as B12) with two rack
    # tiles, the rack's B10 and B13 ("in a set with at least two other tiles from the
    # player's rack"); B8 splits the run (B6 B7 B8 and B8 B9 B10) and the rack's B11 ends
    # B8 B9 B10 B11; the group's B11 (or the rack's) lies in the set: 5 tiles, 49 points.
    # B13 lies only beside the joker; R8 R9 need it too, or both groups R8 O8 B8 and
    # R9 O9 B9, which take the run's only B9 and leave a B10 and a B11 with no run (no
    # B12 but the joker), as does R9 O9 B9 alone; so with B13 no R8 or R9, and without it
    # J R8 R9, B7 and two of B8 B10 B11 (43 points at most: the rack's B10 and B11
    # together need the joker beside them). The set's tiles lie on the table and the rack
    # both, so it is tried again with the rack's copies, and that try lays this turn:
    # nothing is left unsettled and the hint is proven. The brute force of test_hints gives
    # (5, 49) (84 s under load: run once by hand, not in this test).
    table = "B6 J B8 B9 B10 | O5 O6 O7 O8 O9 | B11 O11 R11 K11"
    rack = "B7 R8 R9 B8 B10 B13 B11"
    after = "B6 B7 B8 | B8 B9 B10 B11 | B10 B11 J B13 | O5 O6 O7 O8 O9 | K11 O11 R11"
    move = hint_beside_worked_out(table, rack, PRESETS["pressman-1998"], after)
    assert (len(move.placed), move.points) == (5, 49) and move.exact, move.table


def test_two_freed_jokers_each_in_a_set_of_its_own_when_the_proof_lists_no_second_set():
    # sabra (003): R6 takes the place of the joker of R3 R4 R5 J R7 and B10 that of
    # B7 B8 B9 J ("A joker can be retrieved from a set by placing it with a tile of the
    # same numerical value and colour it represents"), and each "must be used in the
    # player's same turn as part of a new set": J O9 O10 with the rack's O9 O10, and
    # B7 J B9 with the run's B7 and the rack's B9 (a tile from another meld). The red tiles
    # make R3 R4 R5 R6 R7 R8 and R3 R4 R5, the blue ones B4 B5 B6 and B8 B9 B10, the
    # orange run stays: 9 tiles, 64 points; the rack's R7 is left. Worked out by hand (10
    # rack tiles: the brute force of test_hints would not finish): no third colour of any
    # number 3-10 is on the table or the rack but beside a joker, so each colour lies in
    # runs or in a group with a joker. The red tiles hold two R7s and one R6, the blue ones
    # two B9s (beside one B8 and one B10), the orange ones two O10s (beside one O9 and one
    # O11): each colour needs a joker of its own, and the two jokers serve two colours at
    # most (B9 O9 J leaves the second O10 alone, B10 O10 J the second B9, R7 B7 J breaks
    # the blue runs), so the whole rack cannot be laid. Of nine, only leaving the rack's R7
    # spares a colour its joker (leaving R3, R4, R5, R6 or R8 keeps two R7s), so 64 points
    # (71 less 7) is the most; leaving B9 or O10 lays 62 or 61.
    table = "B7 B8 B9 J | R3 R4 R5 J R7 | B4 B5 B6 | O10 O11 O12 O13"
    rack = "B10 R6 O9 O10 R4 R5 R7 R8 B9 R3"
    after = ("B8 B9 B10 | R3 R4 R5 R6 R7 R8 | J O9 O10 | B7 J B9 | B4 B5 B6 | O10 O11 O12 O13 | "
             "R3 R4 R5")
    move = hint_beside_worked_out(table, rack, PRESETS["sabra"], after)
    assert (len(move.placed), move.points) == (9, 64) and move.exact, move.table


@pytest.mark.parametrize("preset", ["sabra", "tournament"])
def test_two_freed_jokers_each_in_a_set_of_its_own_lay_the_whole_rack_past_the_lists_caps(preset):
    # The table of the test before with R9 R10 R11 more: the rack's R7 R8 now lie before
    # it (R7 R8 R9 R10 R11), so the whole rack is laid, 10 tiles, 71 points, the most any
    # turn can lay. R6 and B10 take the jokers' places and each joker ends in a new set
    # (003: "The tile used to replace the joker can come from the player's rack or from the
    # table. [...] A joker that has been replaced must be used in the player's same turn as
    # part of a new set"; the tournament rule of 004 is for "a group of three tiles"):
    # J O9 O10 and B7 J B9. Each freed joker has more than 100 new sets here (and both
    # together more than 300), so no list made before the pairs of sets holds all of the
    # first joker's: the pairs must still list them from the table's melds.
    table = "B7 B8 B9 J | R3 R4 R5 J R7 | B4 B5 B6 | O10 O11 O12 O13 | R9 R10 R11"
    rack = "B10 R6 O9 O10 R4 R5 R7 R8 B9 R3"
    after = ("B8 B9 B10 | R3 R4 R5 R6 R7 | J O9 O10 | B7 J B9 | B4 B5 B6 | O10 O11 O12 O13 | "
             "R3 R4 R5 | R7 R8 R9 R10 R11")
    move = hint_beside_worked_out(table, rack, PRESETS[preset], after)
    assert sorted(map(str, move.placed)) == sorted(rack.split()) and move.points == 71
    assert move.exact is True


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_freed_jokers_set_holding_the_rack_joker_on_its_retry_keeps_to_two_jokers(preset):
    # B7 replaces the joker of B6 J B8 B9 B10 (000: "A player with a tile matching the color
    # and value of a joker may replace the joker with that tile"; 003 and 004 alike). B13
    # lies only beside both jokers (no B11 or B12 anywhere, no other 13): J J B13 or
    # B10 J J B13; R8 R9 need a joker (no R7 or R10) or both groups R8 O8 B8 and R9 O9 B9
    # (O8 alone would leave O9 on its own), which take the run's only B9. So the whole
    # rack cannot be laid: with both jokers at B13, the groups leave a B8 or a B10 of the
    # blue tiles with no run. Of six, dropping B13 (the jokers then in B8 J B10, the freed
    # one with two rack tiles, 000: "in a set with at least two other tiles from the
    # player's rack", and in R8 R9 J) lays 72 points (the joker counts 30). Dropping
    # another tile instead leaves the same clash (R8 or the rack's B8: B13 with both jokers
    # beside the groups), strands O9 (R9: R8's group alone), lays no B13 (the rack's joker:
    # B13 needs both), puts the run's B10 beside its own joker (the rack's B10: B10 J J B13
    # would hold a tile of the joker's own meld, no new set, 003: "part of a new set") or
    # frees no joker (B7). So 6 tiles, 72 points, under every preset. The search tries the
    # freed joker's set B10 J J B13 (with the rack's joker) again with the rack's B10, and
    # must solve the rest with no joker left, not with one more than the game has. The
    # brute force of test_hints gives (6, 72) under each preset (1.4-2.9 s under load: run
    # once by hand, not in this test).
    table, rack = "B6 J B8 B9 B10 | O5 O6 O7 O8 O9", "B7 R8 R9 B8 B10 B13 J"
    after = "B6 B7 B8 B9 B10 | B8 J B10 | O5 O6 O7 O8 O9 | R8 R9 J"
    move = hint_beside_worked_out(table, rack, PRESETS[preset], after)
    assert (len(move.placed), move.points) == (6, 72), move.table


@pytest.mark.parametrize("preset", ["pressman-1998", "sabra-way"])
def test_a_freed_jokers_set_no_better_than_the_best_laid_leaves_nothing_unsettled(preset):
    # K5 replaces the joker of J R5 O5 B5 (the group's missing black five; 000: "A player
    # with a tile matching the color and value of a joker may replace the joker with that
    # tile"), and "The joker must be played that same turn in a set with at least two other
    # tiles from the player's rack" (000; 004, the Sabra Way: "with 2 more tiles from your
    # hand"): of the rack's others (B11 B12 K13) only B11 B12 make a set with one joker
    # (B11 B12 J, the joker as B10 or B13): 3 tiles, 28 points. K13 lies only beside the
    # joker (no K12, no other 13), and K11 J K13 (the K11 freed by B11 in the group of 11s)
    # holds one rack tile; without the exchange K5 fits nowhere (the group is full) and
    # B11 B12 need a third blue tile: B11 alone (the group of 11s). So (3, 28), the most;
    # the brute force of test_hints agrees (under a second). The freed joker's set lies
    # in two shapes (J B11 B12, B11 B12 J) with the same tiles, which the table's run holds
    # too: the first is laid (its B11 and B12 counted as the rack's), and the second, the
    # same rest and no better than that turn, needs no try with the rack's copies: nothing
    # is left unsettled, and the hint is proven.
    table, rack, rules = "J R5 O5 B5 | B9 B10 B11 B12 | K11 R11 O11", "K5 B11 B12 K13", PRESETS[preset]
    assert brute_best(parse_table(table), rack.split(), rules) == (3, 28)
    after = "K5 B5 O5 R5 | B11 B12 J | B9 B10 B11 B12 | K11 O11 R11"
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == (3, 28) and move.exact, move.table
