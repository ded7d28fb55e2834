"""Hints where two jokers, freed from two melds, each end the turn in a new set of its own.

Each rack tile that exchanges a joker frees it, and a freed joker must end the turn in a new
set. When the rack's other tiles make two sets that each need a joker (``O9 J O11`` and
``R5 J R7``: no one set holds both pairs), the best turn lays one freed joker in each; one
set holding both jokers lays fewer tiles. The hint search tries, one joker at a time, every
pair of sets first and then the sets holding both jokers (``referee.joker_sets``); no other
test reached the search of pairs.

What the rule text for ``pressman-1998`` (``shared/rules/`` 000, the American edition) says:
"A player with a tile matching the color and value of a joker may replace the joker with
that tile. The joker must be played that same turn in a set with at least two other tiles
from the player's rack." The current rules (text 003, ``sabra`` and ``tournament``): "A
joker that has been replaced must be used in the player's same turn as part of a new set";
the replacing tile "can come from the player's rack or from the table".
"""

from collections import Counter

import pytest

from referee import PRESETS, parse_table
from tests.referee.test_hints import brute_best, hint_beside_worked_out


@pytest.mark.parametrize("preset, table, rack, after", [
    # K10 exchanges the joker of K7 K8 K9 J, B12 the joker of B11 J B13; the freed jokers
    # go to O9 J O11 and R5 J R7, two rack tiles beside each: the whole rack (54 points).
    ("pressman-1998", "K7 K8 K9 J | B11 J B13 | B3 B4 B5 | R8 R9 R10 R11 R12", "K10 B12 R5 R7 O9 O11",
     "K7 K8 K9 K10 | B11 B12 B13 | O9 J O11 | R5 J R7 | B3 B4 B5 | R8 R9 R10 R11 R12"),
    # R10 exchanges the run's joker, R1 the group's (it stood for O1 or R1); the jokers go
    # to J K11 K12 (a K10 or a K13) and K12 B12 J: the whole rack (58 points).
    ("pressman-1998", "J R11 R12 R13 | K1 J B1 | R10 O10 K10", "R10 R1 K11 K12 K12 B12",
     "R10 R11 R12 R13 | K1 B1 R1 | J K11 K12 | K10 O10 R10 | K12 B12 J"),
    # K7 and K13 exchange the two jokers; one goes to J O12 O13, the other to B2 R2 J; the
    # rack's K8 O8 take the B8 off B5 B6 B7 B8 (three stay): the whole rack (65 points).
    ("pressman-1998", "K5 K6 J | J R13 O13 B13 | O2 B2 K2 | B5 B6 B7 B8", "K7 K13 O12 O13 O8 K8 R2 B2",
     "K5 K6 K7 | K13 B13 O13 R13 | J O12 O13 | B2 R2 J | B5 B6 B7 | K2 B2 O2 | K8 B8 O8"),
    # 003: the O10 of O7 O8 J O10 exchanges the joker of O8 O9 J O11 O12 from the table, the
    # rack's O9 the other joker (O9 O10 refill O7 O8: O7 O8 O9 O10); the jokers go to
    # J K2 K3 and B8 J B10: the whole rack (42 points).
    ("sabra", "O8 O9 J O11 O12 | O7 O8 J O10 | O4 R4 K4", "O10 O9 B8 B10 K2 K3",
     "O8 O9 O10 O11 O12 | O7 O8 O9 O10 | J K2 K3 | B8 J B10 | K4 O4 R4"),
    # B13 and B6 exchange the jokers; one goes to J O6 O7, the other to K4 J K6 K7 (the K6
    # off K6 K7 K8 K9 K10, whose K7 joins the B7 of B5 J B7 and the rack's O7): the whole
    # rack (54 points). No group of three gives up its joker, so 004 adds nothing here.
    ("tournament", "B9 B10 B11 B12 J | B5 J B7 | K6 K7 K8 K9 K10", "B13 B6 O6 O7 O7 K7 K4 B4",
     "B9 B10 B11 B12 B13 | B4 B5 B6 | J O6 O7 | K4 J K6 K7 | K8 K9 K10 | K7 B7 O7"),
    # the B8 of B6 B7 B8 exchanges the joker of B7 J B9 B10 (the rack's B8 takes its place),
    # O13 the joker of O11 O12 J (a run: 004 is about groups); the jokers go to B1 J B3 and
    # B1 R1 J, and R9 O9 B9 make a group: the whole rack (54 points).
    ("tournament", "B7 J B9 B10 | O11 O12 J | O2 R2 B2 | B6 B7 B8", "B8 O13 B1 B3 B1 R1 R9 O9 B9",
     "B7 B8 B9 B10 | O11 O12 O13 | B1 J B3 | B6 B7 B8 | B1 R1 J | B2 O2 R2 | B9 O9 R9"),
    # K4 exchanges the joker of J B4 R4 O4, K13 that of O13 J R13 B13; the jokers go to
    # O5 J O7 and O10 R10 J, and O11 O12 take the O13 off K13 B13 O13 R13 (three stay):
    # the whole rack (72 points).
    ("pressman-1998", "J B4 R4 O4 | O13 J R13 B13 | R8 R9 R10 R11",
     "K4 K13 O11 O12 O5 O7 O10 R10",
     "K4 B4 O4 R4 | K13 B13 R13 | O5 J O7 | O10 R10 J | O11 O12 O13 | R8 R9 R10 R11"),
    # 004: the joker of the group of three B13 J R13 goes for both missing colours, the
    # rack's K13 and the O13 of O10 O11 O12 O13; the R9 of R6 R7 R8 R9 exchanges the
    # joker of the group of four K9 J O9 B9 (003: from the table). The jokers go to R3 J R5
    # and K7 R7 J: the whole rack (35 points).
    ("tournament", "B13 J R13 | K9 J O9 B9 | R6 R7 R8 R9 | O10 O11 O12 O13",
     "K13 R3 R5 K7 R7",
     "K13 B13 O13 R13 | K9 B9 O9 R9 | R3 J R5 | O10 O11 O12 | R6 R7 R8 | K7 R7 J"),
    # Both jokers stand for R8 and the rack has both R8s: one exchanges each. The jokers go
    # to K9 O9 R9 J and K11 O11 R11 J: the whole rack (76 points).
    ("pressman-1998", "J O8 B8 K8 | J R9 R10 | O7 O8 O9", "R8 R8 K11 O11 R9 R11 K9 O9",
     "K8 B8 O8 R8 | R8 R9 R10 | O7 O8 O9 | K9 O9 R9 J | K11 O11 R11 J"),
    # 003: R12 exchanges the joker of B12 O12 J (one missing colour is enough outside the
    # tournament rule), O6 that of J O7 O8 O9 O10; the jokers go to B5 O5 J and
    # O1 O2 J O4 O5: the whole rack (40 points). The rack's many tiles make more new sets
    # than the proof lists (``PROOF_SETS``): the pattern freeing both jokers is then not
    # proven by them, and its places are still tried.
    ("sabra", "B12 O12 J | J O7 O8 O9 O10 | O3 R3 K3", "R12 O6 O5 B5 O1 O2 O4 O5",
     "B12 O12 R12 | O6 O7 O8 O9 O10 | O1 O2 J O4 O5 | K3 O3 R3 | B5 O5 J"),
])
def test_two_freed_jokers_each_in_a_new_set_lay_the_whole_rack(preset, table, rack, after):
    rules = PRESETS[preset]
    move = hint_beside_worked_out(table, rack, rules, after)
    assert Counter(map(str, move.placed)) == Counter(rack.split()), move.table
    assert move.exact


def test_two_freed_jokers_each_in_a_new_set_leave_only_what_fits_nowhere():
    # O1 exchanges the joker of R1 B1 K1 J, K7 that of K5 K6 J; the jokers go to J R9 R10
    # and O11 R11 J (one set of both, J J R9 R10 R11, leaves O11). B4 fits nowhere: no B3,
    # B5 nor other 4, and B4 J J would hold one rack tile beside the jokers. So the best
    # lays the other six: 49 points.
    table, rack, rules = "R1 B1 K1 J | K5 K6 J", "O1 K7 R9 R10 O11 R11 B4", PRESETS["pressman-1998"]
    after = "K1 B1 O1 R1 | K5 K6 K7 | J R9 R10 | O11 R11 J"
    assert brute_best(parse_table(table), rack.split(), rules) == (6, 49)
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == (6, 49) and move.exact, move.table



def test_two_freed_jokers_in_sets_of_their_own_beside_a_tile_that_needs_a_third():
    # sabra: R13 exchanges the joker of B13 K13 O13 J, K4 the joker of R4 O4 J; the jokers
    # go to O6 R6 J and J K12 K13 (the K13 off the group of four). O2 would need a third
    # joker (O2 J O4 takes the O4 whose group then keeps its joker, and O6 R6 need one
    # too), so no turn lays all six; the other five, 41 points, are the best.
    table, rack, rules = "B13 K13 O13 J | R4 O4 J | K8 K9 K10 K11 K12", "R13 K4 O6 R6 K12 O2", \
        PRESETS["sabra"]
    after = "B13 O13 R13 | K4 O4 R4 | O6 R6 J | J K12 K13 | K8 K9 K10 K11 K12"
    move = hint_beside_worked_out(table, rack, rules, after)
    assert sorted(map(str, move.placed)) == sorted("R13 K4 O6 R6 K12".split()), move.table
    assert move.exact


def test_one_joker_freed_where_the_search_also_tries_a_set_for_each_joker():
    # tournament: R3 exchanges the joker of the group of four O3 J K3 B3 (it stands for R3;
    # 004 asks both missing colours only of a group of three). The freed joker takes a B3
    # of the group of three beside the rack's B4 (J B3 B4: a new set, no tile of its own
    # meld); the group of three keeps its joker with the other O3 (J B3 O3), and K3 O3 R3
    # is the group R3 went to: 2 tiles, 7 points. R5 fits nowhere (R3 R4 R5 would need an
    # R4 or a joker, and R3 frees one only beside O3 K3 B3); O1 needs O1 J O3, and then no
    # joker is left for B4 (R3 O1: 4 points). Both jokers are never freed: the group of
    # three's needs K3 and R3 both (004), and the other's R3 is the only one. The brute
    # force agrees.
    table, rack, rules = "B3 J O3 | O3 J K3 B3", "R3 B4 O1 R5", PRESETS["tournament"]
    after = "J B3 O3 | K3 O3 R3 | J B3 B4"
    assert brute_best(parse_table(table), rack.split(), rules) == (2, 7)
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == (2, 7), move.table


def test_two_freed_jokers_found_in_one_set_among_places_tried_in_the_second_pass():
    # The Sabra Way (004): "You may take a Joker from a run or group in exchange for a tile
    # of the same value from your hand. You must use the Joker immediately with 2 more tiles
    # from your hand to make another meld"; "After a Joker has been taken from a meld [...],
    # the meld may be manipulated." R3 and K4 exchange both jokers, which go together into
    # J B8 J B10 (B7-B10, the rack's B8 and B10 beside them); the K run, its joker taken,
    # gives up its K5, which with the rack's B5 splits the 5s in two groups of three: the
    # whole rack (30 points), nothing better exists. The long runs have more places than
    # the search's first pass tries (six a pattern): the places that lay the whole rack are
    # deferred in the later pass, sorted behind a place of the same bound whose new sets the
    # first pass tried (settled); that one must be passed over, not end the new-set search.
    table = "R1 R2 J R4 R5 R6 R7 | K2 K3 J K5 K6 K7 K8 | B5 K5 R5 O5"
    rack = "R3 K4 B8 B10 B5"
    after = "R1 R2 R3 R4 R5 R6 R7 | K2 K3 K4 | J B8 J B10 | K6 K7 K8 | K5 B5 O5 | K5 B5 R5"
    move = hint_beside_worked_out(table, rack, PRESETS["sabra-way"], after)
    assert sorted(map(str, move.placed)) == sorted(rack.split())
    assert move.points == 30 and move.exact


def test_two_freed_jokers_in_groups_whose_tiles_lie_on_both_the_table_and_the_rack():
    # The Sabra Way (004): a joker is taken "in exchange for a tile of the same value from
    # your hand", and must be used "immediately with 2 more tiles from your hand to make
    # another meld"; "A meld containing a Joker may not be manipulated." O6 and B5 exchange
    # the two jokers; one goes to B5 O5 J, the other to B3 R3 J, two rack tiles beside each:
    # 6 tiles, 27 points. R6 fits nowhere else: no R7 exists and R2-R6 holds the only R4 R5,
    # so R6 needs the group J O6 R6 (taking the O6 that frees a joker) or a second run R3 J
    # J R6 (taking both jokers); either way B5 O5 or B3 R3 is left without a third tile, so
    # a turn that lays R6 lays fewer tiles. B3 and R3 (and B5)
    # lie on the table and the rack: the search meets a pair of sets whose turn, better than
    # the best found, the judge refuses, and notes the same sets with tiles from the rack as
    # not tried (the only test that reaches that note); the hint is legal and the best.
    table = "J O7 O8 O9 O10 | B3 B4 J | R2 R3 R4 R5 R6 | R8 K8 O8 B8"
    rack = "O6 B5 B5 O5 B3 R6 R3"
    after = "O6 O7 O8 O9 O10 | B3 B4 B5 | B3 R3 J | B5 O5 J | R2 R3 R4 R5 R6 | K8 B8 O8 R8"
    move = hint_beside_worked_out(table, rack, PRESETS["sabra-way"], after)
    assert (len(move.placed), move.points) == (6, 27)
    assert "R6" not in map(str, move.placed)
