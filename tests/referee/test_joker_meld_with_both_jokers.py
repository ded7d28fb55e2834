"""The joker hint search on a meld that holds both jokers, one of them exchanged.

The places the search tries for a joker meld keep the meld whole: one meld that holds a tile
of it and, for each joker, the joker or the tile it was exchanged for. A meld holding both
jokers can also end the turn split in two, the joker that stays in one part and the tile that
freed the other joker in the other. Only the search's relaxed answer, with its staying joker
put back beside a tile of its old meld, finds such a turn. Each answer below is argued from
the rule texts; the first two lay the whole rack, so no turn can beat them, and the others
were held to the brute force of ``test_hints``. Each hint must say it is the best.
"""
import pytest

from referee import PRESETS, best_move, check_turn, parse_table, parse_tiles

from tests.referee.test_joker_hints_first_best import best_held, whole_rack_proven


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_run_with_both_jokers_split_once_one_joker_is_exchanged(preset):
    # J B10 B11 B12 J: the jokers stand for B9 and B13. The rack's B13 takes the second one
    # (000: "replace the joker with that tile"; 003: "placing it with a tile of the same
    # numerical value and colour it represents"; 004: "in exchange for a tile of the same
    # value from your hand"), and that joker is used at once with two rack tiles, O7 O8 J
    # (004: "with 2 more tiles from your hand"). Once a joker is taken the meld may be
    # rearranged (004: "After a Joker has been taken from a meld ..., the meld may be
    # manipulated"; 003: "A set containing a joker can ... be split apart"): J B10 B11 and
    # B10 B11 B12 B13 with the rack's B10 B11. Every rack tile is laid, 49 points.
    whole_rack_proven(preset, "J B10 B11 B12 J", "B13 O7 O8 B10 B11", 49)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_one_joker_of_a_long_run_exchanged_beside_a_run_holding_the_same_tiles(preset):
    # B7 J B9 J B11 B12 B13: the jokers stand for B8 and B10. The rack's B10 takes the joker
    # standing for B10 (the rule texts quoted above), and that joker makes a new set with
    # the rack's B7 B8 (J B7 B8, two rack tiles, as 000 and 004 ask). B10 B11 B12 B13 stays
    # as it lies. Every rack tile is laid, 25 points. (Both B10s are on the table and the
    # rack already, so where the search counts the joker standing for B10 as staying, its
    # relaxed answer holds a third B10, which must become the joker again in every turn it
    # judges, whichever of the two jokers is exchanged.)
    whole_rack_proven(preset, "B7 J B9 J B11 B12 B13 | B10 B11 B12 B13", "B8 B7 B10", 25)


@pytest.mark.parametrize("preset", ["sabra", "tournament"])
def test_both_jokers_of_a_group_exchanged_and_laid_together_is_proven(preset):
    # J B6 O6 J: the jokers stand for R6 and K6, both on the rack, so both can be exchanged
    # (003: "placing it with a tile of the same numerical value and colour it represents"),
    # and each must then be used "as part of a new set": together, K12 R12 J J with the
    # rack's K12 R12. The group may then give up its O6 to the orange run ("A set
    # containing a joker can ... have tiles removed from it"), but the rack's O7 still has
    # no place: the run holds an O7, no other 7 lies on the table, and a joker beside it
    # would need a second tile that is not from the joker's own set nor a second one from
    # the run. 4 tiles, 36 points, the most there is (the brute force agrees), and the
    # search must say so.
    move = best_held(preset, "J B6 O6 J | B9 R9 K9 | O7 O8 O9 O10 O11",
                     "R6 K6 K12 R12 O7", (4, 36))
    assert move.exact is True


@pytest.mark.parametrize("preset", ["pressman-1998", "sabra-way"])
def test_a_joker_run_split_after_its_first_joker_is_exchanged_with_a_tile_from_a_group(
        preset):
    # J K9 K10 K11 J K13: the jokers stand for K8 and K12. The rack's K8 takes the first
    # (000: "A player with a tile matching the color and value of a joker may replace the
    # joker with that tile"; 004: "in exchange for a tile of the same value from your hand"),
    # and that joker is played with two rack tiles, K12 O12 J (000: "in a set with at least
    # two other tiles from the player's rack"; 004: "with 2 more tiles from your hand").
    # The run may then be split (000: "Splitting a run"; 004: "After a Joker has been taken
    # from a meld ..., the meld may be manipulated"): K7, harvested from the group of four,
    # K8 K9 K10 K11 | the rack's K11, the joker still K12, K13. The rack's O5 O6 split the
    # orange run: O4 O5 O6 | O5 O6 O7. Six tiles, 54 points; B9 finds no meld (no B8 or B10
    # anywhere, and the only other 9 is the run's K9), so no turn lays the whole rack. The
    # brute force of test_hints agrees (held to it once: 4 minutes for the two presets, too
    # slow to run here), and the search must prove it.
    rules = PRESETS[preset]
    table = parse_table("J K9 K10 K11 J K13 | R1 R2 R3 | O4 O5 O6 O7 | K7 R7 O7 B7")
    rack = parse_tiles("K8 K12 O12 O5 O6 K11 B9")
    move = best_move(table, rack, rules, cpu_limit=None)
    assert check_turn(table, move.table, rack, rules=rules).legal
    assert (len(move.placed), move.points) == (6, 54) and move.exact is True


def test_a_group_with_both_jokers_split_under_the_sabra_way_after_one_is_exchanged():
    # The Sabra Way (004): K6 J J R6, the jokers standing for B6 and O6; rack B6 B7 B8 R6
    # K6. The rack's B6 takes the joker standing for B6 ("in exchange for a tile of the same
    # value from your hand"), which is used at once "with 2 more tiles from your hand":
    # J B7 B8. "After a Joker has been taken from a meld ..., the meld may be manipulated":
    # K6 B6 R6 and, with the rack's K6 R6, K6 J R6 (the other joker still O6). The whole
    # rack, 33 points. (Leaving both jokers in the two groups, K6 J R6 | K6 J R6 | B6 B7 B8,
    # splits a meld holding a joker before any joker is taken, which 004 forbids: the search
    # must try the staying joker at the other B6 of its relaxed answer, not only beside a
    # tile of its old meld.)
    whole_rack_proven("sabra-way", "K6 J J R6", "B6 B7 B8 R6 K6", 33)
