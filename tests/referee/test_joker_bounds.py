"""Hints whose search skips work by the joker bounds (``referee.joker_bounds``): a pattern's
bound (what each joker stands for, and which are exchanged), or a new set's, is an upper
bound on every turn it rules out. A bound a little too low rules out the best turn and a
weaker hint is then said to be the best, so each case below has a best turn only slightly
better than the next best, worked out by hand from the rule text and held to the brute
force of ``test_hints``.

The rule text for ``pressman-1998`` (``shared/rules/`` 000, the American edition): "A player
with a tile matching the color and value of a joker may replace the joker with that tile.
The joker must be played that same turn in a set with at least two other tiles from the
player's rack."
"""

import pytest

from referee import PRESETS, parse_table
from tests.referee.test_hints import brute_best, hint_beside_worked_out


@pytest.mark.parametrize("table, rack, after, best", [
    # The rack's B2 exchanges the joker of O2 J R2 (it stood for B2 or K2); the joker goes
    # to J K2 K3 with two more rack tiles: 3 tiles, 7 points. The rack's R2 fits nowhere
    # (the group B2 O2 R2 holds the table's R2; no R1 or R3), the joker of J R7 R8 needs an
    # R6 or R9, so no turn lays all four; K2 for the exchange and B2 R2 J for the joker
    # leave the K3 (6 points). The bound of the pattern exchanging the joker counts the
    # rack's B2 it needs: a point short there, and the 6-point turn is called the best.
    ("O2 J R2 | J R7 R8 | K3 K4 K5 K6 | K9 K10 K11 K12", "B2 R2 K2 K3",
     "J K2 K3 | K3 K4 K5 K6 | K9 K10 K11 K12 | J R7 R8 | B2 O2 R2", (3, 7)),
    # B8 and K7 exchange both jokers, which go together to R4 R5 J J (two rack tiles beside
    # them): 4 tiles, 24 points. B6 and K10 fit nowhere (their runs hold a copy already,
    # no group of 6s or 10s can be made, and no joker is left). Turns with one joker only
    # lay three tiles.
    ("B6 B7 J | K6 J K8 K9 K10", "B8 K7 R4 R5 B6 K10",
     "B6 B7 B8 | K6 K7 K8 K9 K10 | R4 R5 J J", (4, 24)),
])
def test_the_best_joker_exchange_is_found_and_proven(table, rack, after, best):
    rules = PRESETS["pressman-1998"]
    assert brute_best(parse_table(table), rack.split(), rules) == best
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == best and move.exact, move.table


@pytest.mark.parametrize("preset, table, rack, after", [
    # K11 exchanges the joker of K9 K10 J, K5 the joker of K2 K3 K4 J K6; both jokers go
    # to J J R7 R8 with the rack's R7 R8: the whole rack (4 tiles, 31 points). The bound
    # of a new set must count the rack tiles that exchanged the jokers at their full weight.
    ("pressman-1998", "K9 K10 J | K2 K3 K4 J K6 | B10 O10 K10 | B10 B11 B12 B13",
     "K11 K5 R7 R8",
     "K9 K10 K11 | K2 K3 K4 K5 K6 | J J R7 R8 | B10 B11 B12 B13 | K10 B10 O10"),
    # tournament: K4 exchanges the joker of K2 K3 J K5 K6, whose K2 joins the rack's O2 R2;
    # B7 K7 J is split, its tiles and the two jokers ending in B7 J R7 and J K6 K7 with the
    # rack's R7 and K6 (one joker freed into a new set, the other staying beside a tile of
    # its meld): the whole rack (5 tiles, 21 points). Many new sets of the freed joker are
    # ruled out by their bounds first; the search must go on to the next one.
    ("tournament", "K2 K3 J K5 K6 | B7 K7 J | R5 O5 K5 | K3 O3 B3", "K4 R7 R2 O2 K6",
     "K3 K4 K5 K6 | B7 J R7 | J K6 K7 | K2 O2 R2 | K3 B3 O3 | K5 O5 R5"),
])
def test_exchanged_jokers_in_new_sets_lay_the_whole_rack(preset, table, rack, after):
    rules = PRESETS[preset]
    move = hint_beside_worked_out(table, rack, rules, after)
    assert sorted(map(str, move.placed)) == sorted(rack.split()) and move.exact, move.table


def test_an_exchange_from_the_rack_beside_a_run_it_lengthens_is_found():
    # R5 exchanges the joker of J R6 R7, which goes to O3 R3 J with two more rack tiles;
    # R4 lengthens R5 R6 R7 and K4 K5 K6 is a run. B13 fits nowhere (no B11, B12 nor other
    # 13), nor does B8 (B4 ... B8 holds one, no B9 nor other 8, and a joker beside it would
    # need two more rack tiles of a set): the other seven, 30 points, are the best.
    table = "J R6 R7 | K11 R11 J O11 | B4 B5 B6 B7 B8"
    rack = "R5 K4 R4 K5 K6 O3 R3 B13 B8"
    rules = PRESETS["pressman-1998"]
    after = "R4 R5 R6 R7 | K11 J O11 R11 | K4 K5 K6 | B4 B5 B6 B7 B8 | O3 R3 J"
    move = hint_beside_worked_out(table, rack, rules, after)
    assert sorted(map(str, move.placed)) == sorted("R5 K4 R4 K5 K6 O3 R3".split()), move.table
    assert move.exact


def test_a_hint_where_a_staying_joker_could_be_a_third_copy_is_at_least_the_turn_worked_out():
    # sabra-way (004: "You may take a Joker from a run or group in exchange for a tile of the
    # same value from your hand. You must use the Joker immediately with 2 more tiles from
    # your hand"): O4 exchanges the joker of K4 B4 J, which goes to J K7 K8; B4 the joker of
    # K4 J R4, which goes to B6 R6 J; O3 splits O1 ... O5 into O1 O2 O3 | O3 O4 O5. That lays
    # 7 tiles, 38 points (K2 K3 would need a K4, each in a group of three). A joker staying
    # as O4 or B4 would be a third copy (two are on the table and the rack), so the proof
    # bounds those patterns again with the joker free: that check must not break the
    # search. The best is not known here (too many tiles for the brute force): the hint is
    # at least this turn.
    table, rack = "K4 B4 J | K4 J R4 | O1 O2 O3 O4 O5", "O4 B4 K7 K8 B6 R6 K2 O3 K3"
    rules = PRESETS["sabra-way"]
    after = "K4 B4 O4 | K4 B4 R4 | J K7 K8 | O1 O2 O3 | O3 O4 O5 | B6 R6 J"
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) >= (7, 38), move.table
