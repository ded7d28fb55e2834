"""Hints whose search bounds the new set of an exchanged joker (``referee.joker_bounds``)
while the rack holds the other joker. The bound must count that rack joker as free to lie
anywhere besides the set: counted as gone, or as less than a tile, the bound rules out the
set of the best turn, and a weaker turn is called the best. The best turn is worked out by
hand from the rule text and held to the brute force of ``test_hints``.

The rule text for ``pressman-1998`` (``shared/rules/`` 000, the American edition): "A player
with a tile matching the color and value of a joker may replace the joker with that tile.
The joker must be played that same turn in a set with at least two other tiles from the
player's rack."
"""

from referee import PRESETS, parse_table
from tests.referee.test_hints import brute_best, hint_beside_worked_out


def test_an_exchanged_joker_in_a_new_set_beside_the_racks_own_joker():
    # R11 R12 is a piece (a meld misread) that needs an R10, R13 or a joker. The rack's R8
    # exchanges the joker of R7 J R9 R10, which goes to K5 J K7 with two rack tiles; the
    # rack's R11 lengthens R7 R8 R9 R10 R11 and the rack's joker completes R11 R12 J: 5 tiles,
    # 61 points. B10 is left: it needs a joker too (B4 ... B8 J B10), and the freed joker
    # can go nowhere else with two rack tiles, so no turn lays all six; laying B10 instead of
    # R11 (the R10 completing R10 R11 R12) gives 60 points.
    table, rack = "R7 J R9 R10 | R11 R12 | B4 B5 B6 B7 B8", "R8 K5 K7 R11 B10 J"
    rules = PRESETS["pressman-1998"]
    assert brute_best(parse_table(table), rack.split(), rules) == (5, 61)
    after = "R7 R8 R9 R10 R11 | K5 J K7 | B4 B5 B6 B7 B8 | R11 R12 J"
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == (5, 61) and move.exact, move.table
