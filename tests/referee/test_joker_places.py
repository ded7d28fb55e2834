"""Hints where a joker from the rack goes into the meld of a joker already on the table: the
hint search lists each joker meld's places (``referee.joker_places``), filling a tile that is
on neither the table nor the rack with a rack joker; no other test laid a rack joker there.
Each best turn is worked out by hand from the rule texts in ``shared/rules/`` and held to the
brute force of ``test_hints``.

- The Sabra Way (text 004): "You can add a tile to a meld containing a Joker, either the
  fourth tile in a group or to either end of a run. [...] A meld containing a Joker may not
  be manipulated."
- The tournament rule (004): "a Joker taken from a group of three tiles must be replaced
  with both missing tiles"; the current rules (003): "A set containing a joker can have
  tiles added to it, be split apart or have tiles removed from it."
"""

import pytest

from referee import PRESETS, parse_table
from tests.referee.test_hints import brute_best, hint_beside_worked_out


@pytest.mark.parametrize("preset, table, rack, after, best", [
    # The rack's joker goes to an end of the run O5 O6 O7 J (004: a tile may be added to
    # either end; the table's joker may not move). K8 and B7 fit nowhere: 1 tile, the joker
    # (30 points).
    ("sabra-way", "O5 O6 O7 J", "K8 B7 J", "O5 O6 O7 J J", (1, 30)),
    # K13 and the rack's joker join the 13s; the joker of R13 J O13 cannot be taken (both
    # missing colours are needed, and no B13 is there), so B8, which would need two more
    # tiles of a set, fits nowhere: 2 tiles, 43 points.
    ("tournament", "R13 J O13 | O10 O11 O12", "B8 K13 J", "K13 R13 J O13 | O10 O11 O12 J",
     (2, 43)),
])
def test_a_joker_from_the_rack_joins_a_joker_meld(preset, table, rack, after, best):
    rules = PRESETS[preset]
    assert brute_best(parse_table(table), rack.split(), rules) == best
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == best, move.table


def test_a_run_whose_joker_was_exchanged_may_be_split_under_the_sabra_way():
    # 004: "A meld containing a Joker may not be manipulated. After a Joker has been taken
    # from a meld as shown above, the meld may be manipulated"; the joker is taken "in
    # exchange for a tile of the same value from your hand" and used "with 2 more tiles from
    # your hand". B6 takes the joker of B4 B5 J B7 B8 B9; the run, joker-free, gives its B4
    # to O4 R4; the joker goes to K10 B10 J. The group O10 R10 J K10 keeps its joker (no
    # O10/R10/K10 to spare for it). The whole rack: 5 tiles, 34 points. Kept whole, the run
    # leaves one of O4 R4 or K10 B10 without a third tile: 4 tiles at most.
    rules = PRESETS["sabra-way"]
    table, rack = "B4 B5 J B7 B8 B9 | O10 R10 J K10", "B6 O4 R4 B10 K10"
    assert brute_best(parse_table(table), rack.split(), rules) == (5, 34)
    move = hint_beside_worked_out(
        table, rack, rules, "B5 B6 B7 B8 B9 | O10 R10 J K10 | B4 O4 R4 | K10 B10 J")
    assert (len(move.placed), move.points) == (5, 34), move.table
    assert move.exact
