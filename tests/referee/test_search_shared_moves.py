"""The solver's moves are computed once per process for each local situation of one colour at
one number and shared by every later search that meets the same situation
(``referee.search._Search._steps``). What a situation's moves are depends on more than the
tiles nearby: whether a joker may start a run there (the relaxed search allows it only near
the top: ``J K12 K13`` cannot be laid the other way round, as ``K12 K13 J``), which number it
is when the initial meld counts points, and whether a joker counts its tile's number or
nothing. Two searches, or two places of one search, that differ only in that must not be
handed each other's moves.

Each answer is worked out from the rule texts (shared/rules/), and held to the brute force of
``tests/referee/oracles.py``:

003: "A “run” is a set of three or more consecutive (one after the other) numbers, which are
all of the same colour." and "Note: number 1 is always played as the lowest number and may not
follow number 13." (so a joker beside K12 K13 can only be K11). "A “group” is a is a set of
either three or four tiles of the same number but in different colours." "Players must place
sets, valued at least 30 points ( add up the set numbers), onto the table in the first move."
004: "A joker may be substituted for any tile and its point value is the same as the tile it
represents when melding"; the house variant where a joker counts nothing toward the initial
meld is ``initial_meld_joker_value="zero"``.
"""

import pytest

from referee import arrange, best_move, get_rules, parse_tiles, search

from .oracles import assert_sound, brute_arrangeable, brute_opening

SABRA = get_rules("sabra")  # 30 points, in one or more sets, a joker counts its tile
ZERO = SABRA.replace(initial_meld_joker_value="zero")  # the same, a joker counts 0


@pytest.fixture(autouse=True)
def _moves_computed_afresh():
    """Start with no moves shared, so that what each test's first search computes is what
    its second one meets (whatever the tests before it left in the cache)."""
    search._drop_moves()
    yield


def _melds(table):
    return sorted(str(m) for m in table.melds)


def _opening(rack, rules):
    """(melds laid, what they count toward the initial meld), or None for a draw."""
    move = best_move("", rack, rules, opened=False)
    if move.draws:
        return None
    return sorted(str(m) for m in move.table.melds), move.initial_points


def test_a_joker_before_the_last_two_numbers_where_lower_the_same_tiles_need_none():
    """K5 K6 K7 is a run; K12 K13 needs the joker, which can only be K11 (not K14: 13 is the
    highest number), so the only arrangement is K5 K6 K7 | J K12 K13. Reading upward, K at 4
    (none there, K5 and K6 next) looks like K at 11 (none there, K12 and K13 next), but at 4
    a joker never needs to start a run (K5 K6 J does as well as J K5 K6) and at 11 it must."""
    tiles = parse_tiles("K5 K6 K7 K12 K13 J")
    assert brute_arrangeable(tiles)
    table = arrange(tiles)
    assert table is not None
    assert_sound(table, tiles)
    assert _melds(table) == ["J K12 K13", "K5 K6 K7"]


def test_a_joker_before_the_last_two_numbers_after_a_search_with_none_needed_at_9():
    """Two arrangements in one process: K10 K11 J (the joker K9 or K12), then K12 K13 J, where
    the joker can only be K11. K at 9 in the first (none there, K10 and K11 next) looks like K
    at 11 in the second (none there, K12 and K13 next); only at 11 must a joker start the run."""
    first = parse_tiles("K10 K11 J")
    assert brute_arrangeable(first)
    table = arrange(first)
    assert table is not None
    assert_sound(table, first)
    second = parse_tiles("K12 K13 J")
    assert brute_arrangeable(second)
    table = arrange(second)
    assert table is not None
    assert_sound(table, second)
    assert _melds(table) == ["J K12 K13"]


def test_an_opening_counts_the_numbers_where_it_is_laid_after_one_lower_down():
    """Two initial melds in one process, 30 points in one or more sets (003). B2 O2 J is at
    most the group B2 O2 J, 2 + 2 + 2 = 6: a draw. Then K1 K2 K4 K5 B11 O11 J: the one joker
    goes either into K1 K2 J K4 K5 (1 + 2 + 3 + 4 + 5 = 15, the most tiles, but under 30) or
    into B11 O11 J (11 + 11 + 11 = 33, the joker counting the 11 it stands for, 004); the K
    tiles cannot be laid without it. So the opening is B11 O11 J, 33 points. The group at 2 in
    the first rack is the same situation as the group at 11 in the second, but worth less."""
    first = "B2 O2 J"
    assert brute_opening(parse_tiles(first), SABRA) == (0, 0)
    assert _opening(first, SABRA) is None
    second = "K1 K2 K4 K5 B11 O11 J"
    assert brute_opening(parse_tiles(second), SABRA) == (3, 11 + 11 + 30)
    assert _opening(second, SABRA) == (["B11 O11 J"], 33)


def test_a_joker_counts_toward_the_opening_under_one_rule_and_not_the_next():
    """The same rack under two rules in one process. K1 K2 K4 K5 B12 O12 J: the joker goes
    into K1 K2 J K4 K5 (the most tiles: 15 points, 12 with the joker counting nothing) or into
    B12 O12 J. With the joker counting its tile (004) that group is 36 and opens; counting 0 it
    is 24, and nothing reaches 30: a draw. Asked with the joker counting 0, then counting its
    tile, then 0 again: each answer its own rule's."""
    rack = "K1 K2 K4 K5 B12 O12 J"
    tiles = parse_tiles(rack)
    assert brute_opening(tiles, ZERO) == (0, 0)
    assert brute_opening(tiles, SABRA) == (3, 12 + 12 + 30)
    assert _opening(rack, ZERO) is None
    assert _opening(rack, SABRA) == (["B12 O12 J"], 36)
    assert _opening(rack, ZERO) is None
