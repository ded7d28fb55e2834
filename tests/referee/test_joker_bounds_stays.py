"""Hints whose search bounds a new set or a place with the other joker meld relaxed
(``referee.joker_bounds.Bounds.fixed``): a joker that stays counts as the tile it stands
for, beside the table's own copies of that tile. Counted as the only copy there, the bound
is too low and rules out the best turn. Each best turn is worked out by hand from the rule
text and held to the brute force of ``test_hints`` (in the test where it takes a second; the
slower one was run once by hand and its answer is quoted).

The rule text for ``sabra`` and ``tournament`` (``shared/rules/`` 003): "A joker can be
retrieved from a set by placing it with a tile of the same numerical value and colour it
represents. The tile used to replace the joker can come from the player's rack or from the
table. [...] A joker that has been replaced must be used in the player's same turn as part
of a new set. A set containing a joker can have tiles added to it, be split apart or have
tiles removed from it."
"""

import pytest

from referee import PRESETS, parse_table
from tests.referee.test_hints import brute_best, hint_beside_worked_out


@pytest.mark.parametrize("preset", ["sabra", "tournament"])
def test_a_joker_freed_by_a_table_tile_beside_a_staying_joker_of_the_same_tile(preset):
    # B4 fits only as B4 B5 B6 (no B2, B3 nor other 4), and there is no B5: a joker must
    # stand for it. The B9 of B6 B7 J B9 replaces the joker of B6 B7 B8 J (standing for
    # B9), which goes to the new set B4 J B6 with that meld's B6; B7 B8 B9 and B6 B7 J
    # (its joker staying as B8) are left: 1 tile, 4 points. The bound of that new set
    # counts the staying joker as a B8 beside the table's B8.
    table, rack = "B6 B7 B8 J | B6 B7 J B9", "B4"
    rules = PRESETS[preset]
    assert brute_best(parse_table(table), rack.split(), rules) == (1, 4)
    move = hint_beside_worked_out(table, rack, rules, "B7 B8 B9 | B6 B7 J | B4 J B6")
    assert (len(move.placed), move.points) == (1, 4) and move.exact, move.table


@pytest.mark.parametrize("preset", ["sabra", "tournament"])
def test_a_staying_joker_beside_a_group_holding_a_copy_of_its_tile(preset):
    # O5 is a piece (a meld misread). B13 from the rack replaces the joker of
    # B9 B10 B11 B12 J, which goes to the new set K12 O12 J with two rack tiles; the joker of
    # J O2 O3 O4 stays as O1 in J O2 O3, its O4 going with the piece O5 and the rack's O3,
    # O6, O7 to O3 O4 O5 O6 O7: 6 tiles, 53 points. B3 B4 would need a joker too (no B2 nor
    # B5, and the table's 3s and 4s are all in runs that need them). The bound of the B
    # run's place counts the other meld's staying joker as an O1 beside the O1 of
    # K1 O1 R1; counted as the only O1, one of those two melds cannot be laid, the place is
    # ruled out and a 5-tile, 50-point turn is the hint. The brute force of test_hints gives
    # (6, 53) for tournament (55 s: run once by hand, too slow for this test).
    table = "B9 B10 B11 B12 J | J O2 O3 O4 | K1 O1 R1 | O5"
    rack = "B13 O12 K12 B3 B4 O6 O3 O7"
    after = "B9 B10 B11 B12 B13 | J O2 O3 | O3 O4 O5 O6 O7 | K1 O1 R1 | K12 O12 J"
    move = hint_beside_worked_out(table, rack, PRESETS[preset], after)
    assert (len(move.placed), move.points) == (6, 53), move.table
