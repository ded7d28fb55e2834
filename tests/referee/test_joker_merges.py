"""Hints with two jokers on the table, in two melds that *meet*: one meld after the turn is the
place of both (it holds a tile of each and each joker, or the tile that exchanged it), or a
freed joker lies in the other joker meld's place, its new set. The hint search tried each
joker meld's place apart and laid freed jokers in the rest only, so it said "draw" (marked
unproven) where such a turn was the only play. Under the tournament rule, likewise, the two
missing colours that free a group of three's joker may end in two melds (the group split
after the exchange); with one joker on the table that hint said "draw" and called it proven.
Each hint is compared with the brute force of ``test_hints`` (every layout of the table and a
part of the rack, judged by ``check_turn``). Under ``sabra-way`` and ``pressman-1998`` (the
joker's tile from the rack only, two more rack tiles beside a freed joker) no such miss was
found; their property tests guard the same search.

What the rule texts in ``shared/rules/`` say (the current rules, text 003, for ``sabra`` and
``tournament``):

- "A joker can be retrieved from a set by placing it with a tile of the same numerical value
  and colour it represents. The tile used to replace the joker can come from the player's
  rack or from the table. In the case of a group of 3, the joker can be replaced by the tile
  of either the missing colours."
- "A joker that has been replaced must be used in the player's same turn as part of a new
  set. A set containing a joker can have tiles added to it, be split apart or have tiles
  removed from it."
- text 004, the tournament rule: "Under tournament rules, a Joker taken from a group of three
  tiles must be replaced with both missing tiles."

A *new set* is, as the README's rules section defines it, a meld holding no numbered tile of
the joker's own set and no two numbered tiles that lay in one meld before the turn.
"""

from collections import Counter

import pytest

from referee import COLOURS, JOKER, PRESETS, Tile, parse_table
from tests.referee.test_hints import (PRESET_NAMES, brute_best, hint_beside_worked_out,
                                     drawn_hints_held_to_brute_force)


@pytest.mark.parametrize("preset, table, rack, after, best", [
    # The O4 exchanges the joker of O3 J O5 O6 (003: from the rack), which keeps O5 O6 with
    # it; that meld's O3 completes O1 O2 O3; the other joker stays (O4, beside its own O3,
    # 003: a set holding a joker "can ... be split apart") and the freed joker joins it:
    # O3 J J, a new set for the freed joker (no tile of O3 J O5 O6 in it).
    ("tournament", "O3 J O5 O6 | O1 O2 O3 J", "O4", "J J O3 | O1 O2 O3 | O4 O5 O6", (1, 4)),
    ("sabra", "O3 J O5 O6 | O1 O2 O3 J", "O4", "J J O3 | O1 O2 O3 | O4 O5 O6", (1, 4)),
    # Each joker exchanged for a tile of the other group, from the table (003); under the
    # tournament rule each group of three gets both its missing colours (004): B11 K11 O11
    # R11 holds them all. Both freed jokers then make a new set with the O9.
    ("sabra", "K11 R11 J | J B11 O11", "O9", "B11 K11 O11 R11 | J J O9", (1, 9)),
    ("tournament", "K11 R11 J | J B11 O11", "O9", "B11 K11 O11 R11 | J J O9", (1, 9)),
    # The joker of J K4 K5 (a K3) exchanged for the K3 of K3 K4 J (003: from the table);
    # the other joker stays a K5, beside its meld's K4, with the freed joker and the K7:
    # K4 J J K7, a new set for the freed joker (its K4 is the other meld's).
    ("sabra", "J K4 K5 | K3 K4 J", "K7 B4", "K3 K4 K5 | K4 J J K7", (1, 7)),
    # Each joker exchanged for the other meld's tile (K8 for the joker of K6 K7 J, K7 for
    # the joker of K5 K6 J K8), all three in K6 K7 K8; the freed jokers in two new sets.
    ("sabra", "K6 K7 J | K5 K6 J K8", "K3 R1 O6", "K6 K7 K8 | K3 J K5 | K6 O6 J", (2, 9)),
    # The same turn at the ends of the numbers: the meld the two jokers' tiles meet in is
    # K1 K2 K3 (the K1 of K1 J K3 K4 exchanges the joker of J K2 K3, its K2 the other
    # joker), or K11 K12 K13 (the K13 of K10 K11 J K13 and the K12 of K11 K12 J); the freed
    # jokers in two new sets with the rack's tiles. The R8 (the R1) fits nowhere but with
    # both jokers, which would leave the other two rack tiles on the rack.
    ("sabra", "J K2 K3 | K1 J K3 K4", "K6 R8 O3", "K1 K2 K3 | K4 J K6 | K3 O3 J", (2, 9)),
    ("sabra", "K11 K12 J | K10 K11 J K13", "K8 R1 O11", "K11 K12 K13 | K8 J K10 | K11 O11 J",
     (2, 19)),
    # R7 exchanges the joker of the group of four J B7 K7 O7 (one colour missing: 004's rule
    # for groups of three does not apply); its B7 starts B7 B8 B9 with the run's B8 B9, and
    # the freed joker joins the run's B10 and the joker that stays: J B10 J, a new set (no
    # tile of J B7 K7 O7 in it). The run's place is then the freed joker's new set.
    ("tournament", "B8 B9 B10 J | J B7 K7 O7", "R7", "J B10 J | K7 O7 R7 | B7 B8 B9", (1, 7)),
    # The same turn at the ends of the numbers: the joker that stays stands for B1 (for
    # B13), so the place of its meld with the freed joker, J B2 J (J B12 J), can only be
    # B1 B2 B3 (B11 B12 B13).
    ("tournament", "J B2 B3 B4 | J B5 K5 O5", "R5", "J B2 J | K5 O5 R5 | B3 B4 B5", (1, 5)),
    ("sabra", "J B2 B3 B4 | J B5 K5 O5", "R5", "J B2 J | K5 O5 R5 | B3 B4 B5", (1, 5)),
    ("tournament", "B10 B11 B12 J | J B9 K9 O9", "R9", "J B12 J | K9 O9 R9 | B9 B10 B11",
     (1, 9)),
    ("sabra", "B10 B11 B12 J | J B9 K9 O9", "R9", "J B12 J | K9 O9 R9 | B9 B10 B11", (1, 9)),
    # The R7 of the group of three B7 J R7 exchanges the joker of the group of four
    # B7 O7 K7 J (003: from the table; one colour missing, so 004's rule does not apply);
    # the rack's R7 takes its place beside that group's B7 and its joker, which stays, and
    # the freed joker joins them: J B7 J R7, a new set for it (one tile of the other joker
    # meld, the rack's R7, no tile of B7 O7 K7 J). The group's place is the new set.
    ("tournament", "B7 O7 K7 J | B7 J R7", "R7", "K7 B7 O7 R7 | J B7 J R7", (1, 7)),
    ("sabra", "B7 O7 K7 J | B7 J R7", "R7", "K7 B7 O7 R7 | J B7 J R7", (1, 7)),
])
def test_turns_where_two_joker_melds_meet_are_hinted(preset, table, rack, after, best):
    rules = PRESETS[preset]
    move = hint_beside_worked_out(table, rack, rules, after)
    assert not move.draws, f"{table} + {rack}: draw, though {after} is legal"
    assert (len(move.placed), move.points) == best == brute_best(
        parse_table(table), rack.split(), rules), move.table
    assert move.exact


@pytest.mark.parametrize("table, rack, after, best", [
    # The joker of J R13 O13 (a B13 or a K13) is taken under the tournament rule by adding
    # both missing colours (004: "Under tournament rules, a Joker taken from a group of
    # three tiles must be replaced with both missing tiles"), here from the group of four
    # (003: the tile "can come from the player's rack or from the table"): B13 K13 R13 O13.
    # That group may then be split (003: a set holding a joker "can ... be split apart"),
    # K13 joining the R13 O13 left behind: B13 O13 R13 | K13 O13 R13. The joker makes a new
    # set with the rack's B10 B12. The hint said "draw", proven best.
    ("B11 R11 K11 | B13 K13 R13 O13 | J R13 O13", "B10 B12",
     "B11 R11 K11 | B13 O13 R13 | K13 O13 R13 | B10 J B12", (2, 22)),
    # the same with a second joker meld, whose joker (a K11 or an O11) stays beside its R11
    # and the rack's O11, the freed joker in B10 B11 J (the first group's B11)
    ("B11 R11 J | B13 K13 R13 O13 | J R13 O13", "O11 K12 B10",
     "B10 B11 J | B13 O13 R13 | O11 R11 J | K13 O13 R13", (2, 21)),
])
def test_both_missing_colours_may_end_in_two_melds_under_the_tournament_rule(
        table, rack, after, best):
    rules = PRESETS["tournament"]
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == best == brute_best(
        parse_table(table), rack.split(), rules), move.table


def _near(rng, colour, number):
    """A run of ``colour`` through ``number`` or a group of ``number`` holding ``colour``."""
    if rng.random() < 0.5:
        length = rng.choice((3, 3, 4))
        lo = rng.randint(max(1, number - length + 1), min(number, 14 - length))
        return [Tile(colour, n) for n in range(lo, lo + length)]
    others = rng.sample([c for c in COLOURS if c != colour], rng.choice((2, 2, 3)))
    return [Tile(colour, number)] + [Tile(c, number) for c in others]


def meeting_case(rng, most_table_tiles=10):
    """Two or three melds around one tile (runs of its colour, groups of its number, most of
    them), two of them holding a joker each, and a rack of 1-3 tiles nearby; None when the
    draw is no such table."""
    colour, number = rng.choice(COLOURS), rng.randint(1, 13)
    used, melds = Counter(), []
    for _ in range(rng.choice((2, 2, 3))):
        c = colour if rng.random() < 0.6 else rng.choice(COLOURS)
        meld = _near(rng, c, max(1, min(13, number + rng.randint(-2, 2))))
        if all(used[t] + k <= 2 for t, k in Counter(meld).items()):
            melds.append(meld)
            used.update(meld)
    if len(melds) < 2 or sum(len(m) for m in melds) > most_table_tiles:
        return None
    for meld in rng.sample(melds, 2):
        i = rng.randrange(len(meld))
        used[meld[i]] -= 1
        meld[i] = JOKER
    lo, hi = max(1, number - 3), min(13, number + 3)
    pool = [Tile(c, n) for c in COLOURS for n in range(lo, hi + 1)
            for _ in range(2 - used[Tile(c, n)])]
    rack = rng.sample(pool, rng.randint(1, 3))
    return parse_table([" ".join(map(str, m)) for m in melds]), rack


def _compare(preset, seed, count):
    # never "draw" (nor less) when a legal play exists, proven or not
    drawn_hints_held_to_brute_force(meeting_case, preset, seed, count, lambda table, rack: True)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_hints_on_small_tables_with_two_joker_melds_are_the_best_legal_turn(preset):
    _compare(preset, f"merges-{preset}", 50)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_hints_on_small_tables_with_two_joker_melds_are_the_best_legal_turn_many(preset):
    _compare(preset, f"merges-many-{preset}", 2000)


def test_joker_melds_that_could_meet_with_both_jokers_staying_under_sabra_way():
    # sabra-way: R3 J R5 and J R7 R8 could become one run, R3 to R8, both jokers staying
    # (R4, R6), but a meld holding a joker may only be added to (004: "A meld containing a
    # Joker may not be manipulated"), and nothing on the rack adds to either (no R2, R6, R9),
    # nor takes a joker (no R4 or R6). O3 O4 needs O2 or O5, B3 O3 a third 3 (the only one
    # on the table, R3, lies in a joker meld); R10 alone is no meld. The hint is to draw.
    table, rack, rules = "R3 J R5 | J R7 R8", "O4 B3 O3 R10", PRESETS["sabra-way"]
    assert brute_best(parse_table(table), rack.split(), rules) == (0, 0)
    move = hint_beside_worked_out(table, rack, rules, table)
    assert move.draws and move.table == parse_table(table), move.table


def test_two_joker_groups_of_one_number_that_may_not_be_touched_leave_a_draw():
    # The Sabra Way (004): "You may not take a tile away from a meld which includes a Joker"
    # and "A meld containing a Joker may not be manipulated"; a joker is taken only "in
    # exchange for a tile of the same value from your hand". The rack holds no 11, so
    # neither joker can be taken and no 11 added; K10 K12 and O10 O12 would each need the
    # K11 or the O11 of those groups. Nothing can be laid: the hint is to draw. The search
    # still asks whether the two groups could become one meld holding both jokers (they
    # cannot: each must stay whole, and their four colours and two jokers make six tiles).
    rules = PRESETS["sabra-way"]
    table, rack = "K11 R11 J | J B11 O11", "K10 K12 O10 O12"
    assert brute_best(parse_table(table), rack.split(), rules) == (0, 0)
    move = hint_beside_worked_out(table, rack, rules, table)
    assert move.draws, move.table


def test_two_joker_runs_merged_around_both_jokers_free_a_tile_of_each():
    # pressman-1998 (000): played sets "may be manipulated to allow more tiles to be
    # played"; a joker is replaced only by "a tile matching the color and value" from the
    # rack, and the rack holds no R8, R11 or R12, so both jokers stay. The runs R11 J R13
    # (a R12) and R9 R10 J (a R11) become one, R10 J J R13, each keeping a tile and its
    # joker; that frees R9 for K9 O9 R9 and R11 for K11 O11 R11: 4 tiles, 40 points. B10
    # and O10 would need that R10 (or a joker, none of which can be taken); O9 O10 O11
    # alone lay 3.
    rules = PRESETS["pressman-1998"]
    table, rack = "R11 J R13 | R9 R10 J", "O11 K11 O9 K9 B10 O10"
    assert brute_best(parse_table(table), rack.split(), rules) == (4, 40)
    move = hint_beside_worked_out(table, rack, rules, "R10 J J R13 | K9 O9 R9 | K11 O11 R11")
    assert (len(move.placed), move.points) == (4, 40), move.table



@pytest.mark.parametrize("table, rack, after, best", [
    # The Sabra Way (004): the R1 takes the joker of J R2 R3 R4 ("in exchange for a tile of
    # the same value from your hand"), which goes "with 2 more tiles from your hand":
    # B5 O5 J. "After a Joker has been taken from a meld ... the meld may be manipulated":
    # its R3 and R4 join O3 B3 and O4 K4, and R1 R2 go to the other run's end ("You can
    # add a tile to ... either end of a run"; J R4 R5, its joker a R3, stays whole):
    # R1 R2 J R4 R5. 7 tiles, 25 points; K2 O2 would need that R2.
    ("J R2 R3 R4 | J R4 R5", "R1 K2 O2 O3 B3 O5 B5 O4 K4",
     "R1 R2 J R4 R5 | B3 O3 R3 | K4 O4 R4 | B5 O5 J", (7, 25)),
    # The same at the top of the numbers: R9 R10 J (a R11) stays whole and takes R12 R13
    # at its end; the freed joker goes with K12 O12: 7 tiles, 79 points (O9 B9 left).
    ("R10 R11 R12 J | R9 R10 J", "R13 K12 O12 O11 B11 O9 B9 O10 K10",
     "R9 R10 J R12 R13 | K10 O10 R10 | B11 O11 R11 | K12 O12 J", (7, 79)),
])
def test_a_run_freed_of_its_joker_joins_the_end_of_a_joker_run_under_the_sabra_way(
        table, rack, after, best):
    rules = PRESETS["sabra-way"]
    assert brute_best(parse_table(table), rack.split(), rules) == best
    move = hint_beside_worked_out(table, rack, rules, after)
    assert (len(move.placed), move.points) == best, move.table
