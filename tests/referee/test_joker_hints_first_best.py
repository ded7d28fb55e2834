"""The joker hint search on tables where leaving every joker meld as it lies gives no turn.

A table read (or laid) with a piece that is no meld (`O8` alone, `B11 B12`) is accepted by the
hint when the rack can make it whole. With each joker meld as it lies the rest may then not be
laid at all, so the search starts with no best turn: its first best must come from a pattern
that changes a joker meld, and a later turn must never replace a better one found earlier.
Every expected answer is argued from the rule texts and, where the table is small enough, held
to the brute force of ``test_hints``.
"""
import pytest

from referee import PRESETS, best_move, check_turn, parse_table, parse_tiles

from tests.referee.test_hints import held_to_brute_force, hint_beside_worked_out


def best_held(preset, table, rack, best):
    """The hint under ``preset``, legal and equal to the brute force's best, which is
    ``best`` (tiles placed, points): the answer worked out from the rule texts."""
    move, brute = held_to_brute_force(preset, parse_table(table), parse_tiles(rack),
                                      must_be_best=True)
    assert brute == best and (len(move.placed), move.points) == best
    return move


def whole_rack_proven(preset, table, rack, points):
    """The hint under ``preset`` lays every rack tile, ``points`` in all, legally, and says
    it is the best: no turn can lay more than the whole rack, so no bound is needed."""
    rules, table, rack = PRESETS[preset], parse_table(table), parse_tiles(rack)
    move = best_move(table, rack, rules, cpu_limit=None)
    assert check_turn(table, move.table, rack, rules=rules).legal
    assert sorted(map(str, move.placed)) == sorted(map(str, rack)) and move.points == points
    assert move.exact is True


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_lone_tile_joins_a_joker_run_when_no_turn_leaves_the_joker_melds_as_they_lie(preset):
    # O8 lies alone. No tile of the rack (O8 B9 R10) makes a meld with it away from the two
    # orange joker runs (no other 8 but the rack's O8: a group needs three colours), so every
    # turn adds to a joker meld; 004: "You can add a tile to a meld containing a Joker, ...
    # to either end of a run". The table's O8 goes before J O10 O11 O12 and the rack's O8
    # before O9 J O11: one tile, 8 points, under every preset (B9 and R10 find no meld).
    table, rack = "O9 J O11 | J O10 O11 O12 | O8", "O8 B9 R10"
    move = best_held(preset, table, rack, (1, 8))
    assert [str(t) for t in move.placed] == ["O8"]


@pytest.mark.parametrize("preset, best", [
    # 001/003: the joker of B6 J O6 R6 (there it can only be K6) is retrieved with the rack's
    # K6 and used at once in a new set: K6 J R6 (or K6 J J, as the free rules allow), both
    # rack tiles, 12 points.
    ("pressman-1998", (2, 12)), ("sabra", (2, 12)), ("tournament", (2, 12)),
    # 004: the freed joker must be used "with 2 more tiles from your hand", and the hand
    # holds only R6 after the exchange, so K6 cannot be laid (J O6 K6 has a K6). R6 is added
    # as the fourth tile of J O6 K6 ("You can add a tile to a meld containing a Joker,
    # either the fourth tile in a group"): one tile, 6 points.
    ("sabra-way", (1, 6)),
])
def test_a_joker_group_takes_a_fourth_tile_when_the_exchange_cannot_be_used(preset, best):
    table, rack = "J O6 K6 | B6 J O6 R6", "R6 K6"
    best_held(preset, table, rack, best)


def test_a_run_read_in_pieces_is_mended_by_taking_its_neighbours_joker():
    # The Sabra Way (004), table J B6 B7 B8 B9 B10 | B11 B12 (a piece) | B1-B5 | K2 K3 K4,
    # rack B5 K13 O13 R12 R13 B8. "You may take a Joker from a run or group in exchange for
    # a tile of the same value from your hand" (the joker before B6 stands for B5: the rack's
    # B5), "After a Joker has been taken from a meld ... the meld may be manipulated" (B5 B6
    # B7 B8 with the rack's B8, and B8 B9 B10 B11 B12 mends the piece), and "You must use the
    # Joker immediately with 2 more tiles from your hand": K13 O13 R13 J. Five tiles, 52
    # points. No better: R12 can lie only with the freed joker (no R11, no third 12 but B12
    # and the joker), as R12 R13 J (then K13 and O13 find no third 13) or B12 R12 J (one tile
    # from the hand, not two); so all six cannot be laid, and of five, only B5 K13 O13 R13 B8
    # leaves R12 out. Without the joker nothing mends B11 B12 (no B13, and B10 leaves its run
    # only once that run may be manipulated).
    table = "J B6 B7 B8 B9 B10 | B11 B12 | B1 B2 B3 B4 B5 | K2 K3 K4"
    rack = "B5 K13 O13 R12 R13 B8"
    after = "B5 B6 B7 B8 | B8 B9 B10 B11 B12 | B1 B2 B3 B4 B5 | K2 K3 K4 | K13 O13 R13 J"
    move = hint_beside_worked_out(parse_table(table), parse_tiles(rack), PRESETS["sabra-way"],
                                  after)
    assert sorted(str(t) for t in move.placed) == ["B5", "B8", "K13", "O13", "R13"]
    assert move.points == 52
    assert move.exact is True


@pytest.mark.parametrize("preset, best", [
    # 003 (sabra): "A joker can be retrieved from a set by placing it with a tile of the same
    # numerical value and colour it represents": K1 O1 J stands for B1 or R1, so the rack's
    # B1 frees it, and it "must be used in the player's same turn as part of a new set":
    # R4 R5 J with the rack's R4 (and the lone R5). Both tiles, 5 points.
    ("sabra", (2, 5)),
    # 000 (pressman-1998): "The joker must be played that same turn in a set with at least
    # two other tiles from the player's rack", and 004 (sabra-way): "with 2 more tiles from
    # your hand"; 004 under tournament rules: "a Joker taken from a group of three tiles must
    # be replaced with both missing tiles" (no R1). So the joker stays, B1 is the group's
    # fourth tile and R5 ends R2 J R4: one tile, 1 point (R4 finds no meld: R2 J R4 holds
    # one).
    ("pressman-1998", (1, 1)), ("sabra-way", (1, 1)), ("tournament", (1, 1)),
])
def test_a_rest_that_cannot_be_laid_is_remembered_before_and_after_the_first_best(preset, best):
    # R5 lies alone, so the first solves (before any best, with no floor) find rests that
    # cannot be laid at all; the search meets those rests again once it has a best (with a
    # floor), and must take them as unlaid still, neither crash nor solve them as new.
    table, rack = "R2 J R4 | K1 O1 J | R5", "B1 R4"
    best_held(preset, table, rack, best)


def test_a_hint_to_draw_is_proven_where_a_lone_tile_waits_beside_a_joker_run():
    # The Sabra Way (004), table R5-R9 J | R4 (a piece) | O12 B12 K12 R12 | R6-R10, rack
    # R10 R4 B12. The joker stands for R10, and the rack's R10 may take it, but then "You
    # must use the Joker immediately with 2 more tiles from your hand": R4 and B12 make no
    # meld with it. "A meld containing a Joker may not be manipulated", so R10 cannot lie
    # after the joker either (the joker would have to move); "You can add a tile to a meld
    # containing a Joker, ... to either end of a run": R4 may go before R5, but the table's
    # lone R4 then has no place (one R4 starts the run; no R3, no other 4s), and the group of
    # four 12s takes no fifth. No rack tile can be laid: the hint is to draw, and with one
    # joker on the table the search covers every turn, so it is proven. (Under sabra and
    # tournament the freed joker makes B12 O12 J: 2 tiles; a brute force of these 24 tiles
    # takes seconds, so it is not run here.)
    table = "R5 R6 R7 R8 R9 J | R4 | O12 B12 K12 R12 | R6 R7 R8 R9 R10"
    move = best_move(parse_table(table), parse_tiles("R10 R4 B12"), PRESETS["sabra-way"],
                     cpu_limit=None)
    assert not move.placed and str(move.table) == table
    assert move.exact is True


def test_a_hint_to_draw_is_proven_where_both_jokers_could_only_be_taken_for_nothing():
    # The Sabra Way (004), table R6 R7 R8 J | O5 J R5 B5 | R10 R11 (a piece), rack K5 K7 K4
    # B9. The run's joker stands for R9 and no R9 is on the rack; the group's stands for K5,
    # and the rack's K5 may take it ("in exchange for a tile of the same value from your
    # hand"), but then "You must use the Joker immediately with 2 more tiles from your hand":
    # K4 K7 B9 make no meld with one joker (K4 J K6 or K5 K6 K7 would need a K6). Nothing
    # else fits: no other 5 for a new group, no 4, 7 or 9 of three colours, and "A meld
    # containing a Joker may not be manipulated", so no rack tile joins the joker melds and
    # R10 R11 stays a piece. Only drawing is legal, and the search proves it.
    table, rack = "R6 R7 R8 J | O5 J R5 B5 | R10 R11", "K5 K7 K4 B9"
    assert best_held("sabra-way", table, rack, (0, 0)).exact is True


@pytest.mark.parametrize("preset, best", [
    # 003 (sabra) and 004's tournament rule: a joker may be replaced "from the player's rack
    # or from the table", so the O7 of the first group frees the second's joker (it stands
    # for O7), which makes O8 R8 J with two rack tiles: 2 tiles, 16 points.
    ("sabra", (2, 16)), ("tournament", (2, 16)),
    # 000 (pressman-1998): "During a player's turn, sets of tiles that have already been
    # played may be manipulated": a group of four gives up its O7 for O6 O7 O8, and the two
    # jokers, each still standing for the 7 it stood for, lie together in K7 B7 J J: O6 and
    # O8, 14 points (no joker is exchanged, so none must be used again).
    ("pressman-1998", (2, 14)),
    # 004 (the Sabra Way): "A meld containing a Joker may not be manipulated" and a joker is
    # taken only "in exchange for a tile of the same value from your hand" (no 7 on the rack):
    # both groups stay as they lie, and no meld takes a rack tile (O6 O8 with no O7, R8 O8
    # with no third 8): the hint is to draw.
    ("sabra-way", (0, 0)),
])
def test_two_whole_joker_groups_and_a_rack_that_only_fits_with_a_tile_of_theirs(preset, best):
    table, rack = "J K7 B7 O7 | B7 R7 K7 J", "O8 K9 R8 O6"
    best_held(preset, table, rack, best)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_hint_that_lays_the_whole_rack_is_proven(preset):
    # R4 and O7 free the jokers of the two long runs (each stands for the rack's tile); the
    # 9s and 10s the runs give up make K9 O9 R9 and B10 O10 R10, and the freed jokers a new
    # set with the rack's O9 O11 (the layout differs by preset: 004 allows no tile to leave
    # a joker meld before its joker does). Every rack tile is laid, 50 points: no turn can
    # lay more, so the search needs no proof by bounds and must say the hint is the best.
    table = "R2 R3 J R5 R6 R7 R8 R9 R10 | O5 O6 J O8 O9 O10 O11 O12 O13"
    whole_rack_proven(preset, table, "R4 O7 K9 O9 O11 B10", 50)


@pytest.mark.parametrize("preset, best", [
    # 000 (pressman-1998): "sets of tiles that have already been played may be manipulated",
    # and 003 likewise: the run gives up its end B6 (B3 B4 J, its joker still B5) for a
    # group B6 R6 J with the rack's R6 and joker: 2 tiles, 6 + 30 points (B1 and the joker
    # before B3 would make 31).
    ("pressman-1998", (2, 36)), ("sabra", (2, 36)), ("tournament", (2, 36)),
    # 004: "You may not take a tile away from a meld which includes a Joker", but "You can
    # add a tile to a meld containing a Joker, ... to either end of a run": B1 and the rack's
    # joker (as B2) before B3 B4 J B6: 2 tiles, 1 + 30 points.
    ("sabra-way", (2, 31)),
])
def test_the_rack_joker_and_one_more_tile_at_a_joker_run(preset, best):
    best_held(preset, "B3 B4 J B6", "B1 R6 K7 K4 J", best)


@pytest.mark.parametrize("preset", ["pressman-1998", "sabra", "tournament"])
def test_two_joker_runs_that_give_up_both_jokers_for_the_whole_rack(preset):
    # Both jokers of R3 J R5 R6 and R3 R4 J can be exchanged (000: "A player with a tile
    # matching the color and value of a joker may replace the joker with that tile"; 003:
    # "from the player's rack or from the table"), and each freed joker then goes into a new
    # set with rack tiles (K4 B4 R4 J, or B5 O5 J and K3 B3 R3 J): the whole rack of 7, 28
    # points, which no turn can beat, so the hint is proven. (Under the Sabra Way the melds
    # with a joker may not give up tiles first: not the whole rack.)
    table = "R3 J R5 R6 | R3 R4 J"
    whole_rack_proven(preset, table, "R4 B5 O5 B4 K4 K3 B3", 28)


def test_a_fourth_tile_for_one_of_two_joker_groups_is_proven():
    # The Sabra Way (004): B1 J K1 and O1 J R1, rack O1 B2. "You can add a tile to a meld
    # containing a Joker, either the fourth tile in a group": O1 joins B1 J K1 (its joker
    # then R1). The second group's joker stands for B1 or K1, neither on the rack; B2 has no
    # B1 or B3 to lie with (the groups' B1 may not leave a meld with a joker). One tile, 1
    # point, and the search proves it (the brute force agrees).
    move = best_held("sabra-way", "B1 J K1 | O1 J R1", "O1 B2", (1, 1))
    assert [str(t) for t in move.placed] == ["O1"] and move.exact is True
