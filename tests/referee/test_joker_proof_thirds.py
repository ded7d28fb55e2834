"""A hint proven best on a table where a pattern is *overfull*: both jokers stay standing for
one tile (O6) of which the rack holds a copy, so one of them counts as a third copy
(``referee.joker_proof``, ``_overfull``). Such a pattern is ruled out by its own bound, that
joker counted as a third copy of O6 (``referee.joker_bounds``, ``Bounds.pattern``; the exact
search lays such a copy), which is not above the best found, so the proof holds. (Until the
pattern was bounded again with that joker laid anywhere, and that bound was asked for no best
at all, the best hint was left unproven.)

Sabra rules (text 003): "A joker can be retrieved from a set by placing it with a tile of the
same numerical value and colour it represents. [...] In the case of a group of 3, the joker
can be replaced by the tile of either the missing colours. A joker that has been replaced
must be used in the player's same turn as part of a new set. A set containing a joker can
have tiles added to it, be split apart or have tiles removed from it." The best turn is worked out by hand and held to the brute force of
``test_hints`` (1 s).
"""

from referee import PRESETS, parse_table
from tests.referee.test_hints import brute_best, hint_beside_worked_out


def test_a_best_hint_beside_an_overfull_pattern_is_proven():
    # J R6 K6 (the joker B6 or O6), O5 J O7 (the joker O6), O4 K4 R4; rack O6 R7 O8 B5.
    # O6 takes the group's joker (K6 O6 R6); the joker goes to a new set with B5 and the
    # run's O5 (B5 O5 J); the run, its joker staying as O6, becomes J O7 O8 with the rack's
    # O8. R7 fits nowhere: no R5, R8 or other 7 to lay beside it but O7, which the run
    # needs. 3 tiles, 6 + 5 + 8 = 19 points; the brute force gives the same.
    rules = PRESETS["sabra"]
    table, rack = "J R6 K6 | O5 J O7 | O4 K4 R4", "O6 R7 O8 B5"
    assert brute_best(parse_table(table.split("|")), rack.split(), rules) == (3, 19)
    move = hint_beside_worked_out(table, rack, rules,
                                  "J O7 O8 | K4 O4 R4 | B5 O5 J | K6 O6 R6")
    assert (len(move.placed), move.points) == (3, 19), move.table
    assert move.exact
