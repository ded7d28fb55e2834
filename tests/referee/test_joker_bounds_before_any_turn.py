"""A hint whose search bounds the joker patterns (``referee.joker_bounds``) before it knows
any legal turn. The search first tries the turn that leaves each meld holding a joker as it
lies and lays the rest of the table; that fails where a piece of the table (a meld misread,
or half laid) can only be completed with a joker meld's help. The bounds are then asked with
no best turn to beat, and the hint must still be the best turn, worked out by hand from the
rule text and held to the brute force of ``test_hints``.

The rule text for ``sabra-way`` (``shared/rules/`` 004): "You can add a tile to a meld
containing a Joker, either the fourth tile in a group or to either end of a run. [...] You
may take a Joker from a run or group in exchange for a tile of the same value from your
hand. You must use the Joker immediately with 2 more tiles from your hand to make another
meld onto the table."
"""

from referee import PRESETS, parse_table
from tests.referee.test_hints import brute_best, hint_beside_worked_out


def test_a_piece_only_a_joker_meld_completes_leaves_no_turn_known_before_the_bounds():
    # R8 R9 is no meld, and nothing completes it but the run R5 J R7 (no R10, no joker on
    # the rack): left as it lies, that run leaves no legal turn. Keeping the joker, R8 R9
    # join its end and the 3s lay as a group: 4 tiles, 12 points (the R6 fits nowhere).
    # The rack's R6 exchanges the joker instead (R5 R6 R7 R8 R9), which goes with K3 B3 O3
    # from the hand to K3 B3 O3 J: 4 tiles, 15 points, the R3 left (its group is full, no R2
    # nor R4); no turn lays all five, the joker needing two more hand tiles beside the group.
    table, rack = "R5 J R7 | R8 R9", "R6 K3 B3 O3 R3"
    rules = PRESETS["sabra-way"]
    assert brute_best(parse_table(table), rack.split(), rules) == (4, 15)
    move = hint_beside_worked_out(table, rack, rules, "R5 R6 R7 R8 R9 | K3 B3 O3 J")
    assert (len(move.placed), move.points) == (4, 15) and move.exact, move.table
