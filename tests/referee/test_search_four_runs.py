"""Four runs of one colour through one number: both copies of a tile and both jokers standing
for it, each in a run of its own. The search's bounds count a joker that stays as the tile it
stands for (``referee.joker_bounds``), so the exact search must be able to lay four runs of a
colour through one number (``referee.search._options``: up to four run slots filled at once).

Pressman 1998 (shared/rules 000): "Splitting a run : Players may split long runs and insert the
corresponding tiles in the middle. Thus, if blue 6, 7, 8, 9, and 10 are already a run, the
player may insert his own 8 to make two runs: 6, 7, 8 and 8, 9, 10." and "Joker substitution :
A player with a tile matching the color and value of a joker may replace the joker with that
tile. The joker must be played that same turn in a set with at least two other tiles from the
player's rack." The best turn is held to the brute force of ``tests/referee/test_hints.py``
(every layout of table and rack, judged by ``check_turn``).
"""

from referee import PRESETS, parse_table, parse_tiles

from .test_hints import brute_best, hint_beside_worked_out


def test_both_copies_split_two_runs_whose_jokers_stand_for_them():
    """pressman-1998: each of K3 K4 J K6 K7 (the joker K5) is split by a rack K5, as 000's
    blue 8 splits 6-10: K3 K4 J | K5 K6 K7, twice. Both rack tiles go down, 5 + 5 = 10
    points: the most the rack holds. A K5 cannot instead take a joker's place, since the
    freed joker would need two other rack tiles and only one K5 is left; so the jokers stay
    K5, and the table ends with four runs of black through 5."""
    table, rack, rules = "K3 K4 J K6 K7 | K3 K4 J K6 K7", "K5 K5", PRESETS["pressman-1998"]
    assert brute_best(parse_table(table), parse_tiles(rack), rules) == (2, 10)
    move = hint_beside_worked_out(table, rack, rules,
                                  "K3 K4 J | K5 K6 K7 | K3 K4 J | K5 K6 K7")
    assert (len(move.placed), move.points, move.exact) == (2, 10, True), move.table
