"""The proof by new sets (``referee.joker_proof``) refuses a pattern only where a joker that
*stays* would be a third copy of its tile (``PatternProof._overfull``: "Does a joker that
stays stand for a tile whose two copies are on the table and the rack already?"). A joker
that is *exchanged* is no copy of anything once it leaves its meld, so both copies of its
tile in reach (one to take its place, one more on the rack) must not stop the proof.

On a table with two joker melds the places the hint search tries do not cover every turn,
so only that proof says the hint is the best (``test_joker_proof``). The expected answers
come from the rule texts of ``shared/rules/`` and are held to the brute force of
``test_hints``.
"""

import pytest

from referee import PRESETS, best_move, check_turn, parse_table
from tests.referee.test_hints import brute_best


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_draw_is_proven_where_both_copies_of_the_exchanged_jokers_tile_are_on_the_rack(preset):
    # The joker of R4 K4 J O4 can only be B4, and the rack holds both B4s. Either may take
    # its place (003, sabra: "A joker can be retrieved from a set by placing it with a tile
    # of the same numerical value and colour it represents"; 000 and 004 alike; the
    # tournament rule of 004 is for "a group of three tiles", and this one has four), but
    # then "A joker that has been replaced must be used in the player's same turn as part of
    # a new set" (003), "in a set with at least two other tiles from the player's rack"
    # (000), "with 2 more tiles from your hand" (004). Beside the other B4 the joker has no
    # third tile: no B2, B3, B5 or B6 for a run; the other 4s lie in the joker's own group; R3
    # and K3 lie together in the other joker meld (and make no meld with B4). Without the
    # exchange, B4 fits nowhere (the group of 4s has all four colours; R3 K3 J's joker is B3
    # or O3, neither on the rack). So every preset's hint is to draw, and with two joker melds
    # only the proof by new sets can say so: it must, two B4s on the rack or not.
    table, rack = "R3 K3 J | R4 K4 J O4", "B4 B4"
    rules = PRESETS[preset]
    assert brute_best(parse_table(table), rack.split(), rules) == (0, 0)
    move = best_move(table, rack, rules, cpu_limit=None)
    assert check_turn(table, move.table, rack, rules=rules).legal
    assert move.draws and move.exact is True, move.table


def test_a_draw_is_proven_where_the_exchanged_jokers_tile_also_lies_on_the_table():
    # pressman-1998 (000): the group O9 R9 B9 J's joker is K9, and the rack's K9 may take its
    # place ("A player with a tile matching the color and value of a joker may replace the
    # joker with that tile"); the other K9 lies in K9 K10 K11. But "The joker must be played
    # that same turn in a set with at least two other tiles from the player's rack", and the
    # rack holds only K11 and R10 besides: K11 R10 J is no meld. The run's joker (R8 or R11)
    # has no tile on the rack; K11 cannot join K9 K10 K11 (it holds one) and R10 cannot join
    # J R9 R10; R10 K10 and a third 10 would need the middle of K9 K10 K11 or the end of a
    # joker run ("A meld containing a Joker may not be manipulated" in 004; in 000 a joker
    # is only taken by the tile it stands for). Nothing can be laid: the hint is to draw,
    # proven so by the new sets.
    table, rack, preset = "J R9 R10 | O9 R9 B9 J | K9 K10 K11", "K11 K9 R10", "pressman-1998"
    rules = PRESETS[preset]
    assert brute_best(parse_table(table), rack.split(), rules) == (0, 0)
    move = best_move(table, rack, rules, cpu_limit=None)
    assert check_turn(table, move.table, rack, rules=rules).legal
    assert move.draws and move.exact is True, move.table
