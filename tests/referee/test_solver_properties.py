"""The exact solver held to a brute force: arrange, best_move and the opening agree with it on
random tile sets, and the fast paths with the plain search on game-sized tables."""

import doctest
import itertools
import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import referee
from referee import (
    ImpossibleTilesError,
    Tile,
    all_tiles,
    check_meld,
    get_rules,
    meld_points,
    parse_table,
    parse_tiles,
)
from referee import search as solver
from referee.hints import best_move
from referee.opening import rack_weights
from referee.solver import TableUnsolvableError, arrange

# RUMMIREF_SOLVER_EXAMPLES=5000 runs a deeper, random (not derandomized) search
_DEEP = int(os.environ.get("RUMMIREF_SOLVER_EXAMPLES", "0"))
PROPS = settings(max_examples=_DEEP or 120, deadline=None, derandomize=not _DEEP,
                 suppress_health_check=[HealthCheck.too_slow])
from tests.referee.oracles import assert_sound, brute_arrangeable, brute_best_move, brute_opening


@st.composite
def tile_sets(draw, max_tiles=9, numbers=(3, 8), colours="KBOR"):
    """A small multiset of tiles (at most 2 of each, at most 2 jokers) from a narrow window of
    numbers and colours, so that melds are likely."""
    lo = draw(st.integers(1, 13 - (numbers[1] - numbers[0])))
    span = draw(st.integers(2, numbers[1] - numbers[0]))
    cols = draw(st.sampled_from([colours[:k] for k in range(1, len(colours) + 1)] +
                                ["KB", "BO", "KR"]))
    universe = [Tile.parse(f"{c}{n}") for c in cols for n in range(lo, min(13, lo + span) + 1)]
    universe += [referee.JOKER]
    picks = draw(st.lists(st.sampled_from(universe), max_size=max_tiles * 2))
    out, counts = [], {}
    for t in picks:
        if counts.get(t, 0) < 2 and len(out) < max_tiles:
            counts[t] = counts.get(t, 0) + 1
            out.append(t)
    return out


@PROPS
@given(tile_sets())
def test_arrange_agrees_with_brute_force(tiles):
    table = arrange(tiles)
    assert (table is not None) == brute_arrangeable(tiles), tiles
    if table is not None:
        assert_sound(table, tiles)


@PROPS
@given(tile_sets(max_tiles=12, numbers=(4, 12)))
def test_every_arrangement_is_valid_and_complete(tiles):
    table = arrange(tiles)
    if table is not None:
        assert_sound(table, tiles)


@PROPS
@given(tile_sets(max_tiles=6), tile_sets(max_tiles=5), st.sampled_from([0, 30]))
def test_best_move_agrees_with_brute_force(table_tiles, rack, joker_penalty):
    both = {}
    for t in table_tiles + rack:
        both[t] = both.get(t, 0) + 1
    if any(k > 2 for k in both.values()):
        with pytest.raises(ImpossibleTilesError):
            best_move([table_tiles], rack)
        return
    rules = get_rules().replace(joker_penalty=joker_penalty)
    expected = brute_best_move(table_tiles, rack, rules)
    if expected is None:
        with pytest.raises(TableUnsolvableError):
            best_move([table_tiles], rack, rules)
        return
    move = best_move([table_tiles], rack, rules)
    assert (len(move.placed), move.points) == expected, (table_tiles, rack)
    # never loses a table tile, places only rack tiles, leaves a valid table
    assert sorted(move.table.tiles) == sorted(table_tiles + list(move.placed))
    assert sorted(list(move.placed) + list(move.remaining)) == sorted(rack)
    assert all(check_meld(m, rules).ok for m in move.table.melds)


@PROPS
@given(tile_sets(max_tiles=7, numbers=(4, 12)), st.sampled_from([10, 20, 30, 31]),
       st.booleans(), st.booleans())
def test_opening_agrees_with_brute_force(rack, threshold, single_set, joker_zero):
    rules = get_rules().replace(initial_meld_points=threshold, initial_meld_single_set=single_set,
                                initial_meld_joker_value="zero" if joker_zero else "represented")
    table = parse_table("K1 K2 K3 | B9 O9 R9")
    assume(all(list(table.tiles).count(t) + rack.count(t) <= 2 for t in rack))
    move = best_move(table, rack, rules, opened=False)
    assert (len(move.placed), move.points) == brute_opening(rack, rules), rack
    # the existing melds stay as they were, in front; the new ones use rack tiles only
    assert move.table.melds[:2] == table.melds
    new = move.table.melds[2:]
    assert sorted(t for m in new for t in m) == sorted(move.placed)
    assert all(check_meld(m, rules).ok for m in new)
    if move.placed:
        values = [meld_points(m, rules, for_initial_meld=True) for m in new]
        assert move.initial_points == sum(values)
        if single_set:
            assert max(values) >= threshold
        else:
            assert sum(values) >= threshold
    else:
        assert move.draws and move.table == table


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.randoms(use_true_random=False), st.integers(20, 90), st.integers(1, 14))
def test_best_move_on_game_sized_tables(rnd, table_size, rack_size):
    tiles = list(all_tiles())
    rnd.shuffle(tiles)
    table = arrange(tiles[:table_size])
    if table is None:
        return
    rack = tiles[table_size:table_size + rack_size]
    move = best_move(table, rack)
    assert sorted(move.table.tiles) == sorted(list(table.tiles) + list(move.placed))
    assert sorted(list(move.placed) + list(move.remaining)) == sorted(rack)
    assert all(check_meld(m).ok for m in move.table.melds)
    # nothing better exists: no tile left on the rack can be added to the new table
    for t in set(move.remaining):
        assert arrange(list(move.table.tiles) + [t]) is None


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.randoms(use_true_random=False), st.integers(6, 30), st.integers(0, 8),
       st.integers(0, 2))
def test_fast_paths_agree_with_the_plain_search(rnd, table_size, rack_size, jokers):
    """The relaxed search (jokers optional, fitted in afterwards), the two reading directions
    and the tile-count bars must give what the plain search gives, on mid-sized inputs."""
    numbered = [t for t in all_tiles() if not t.is_joker]
    rnd.shuffle(numbered)
    tiles = numbered[:table_size + rack_size] + [referee.JOKER] * jokers
    rnd.shuffle(tiles)
    table_tiles, rack = tiles[:table_size], tiles[table_size:]
    n, zero = 13, [[0] * 4 for _ in range(13)]
    grid, j = solver._count_grid(table_tiles + rack)
    plain = solver._Search(n, grid, grid, zero, j, 0, 0).solve()[0]
    assert (arrange(table_tiles + rack) is not None) == (plain is not None)
    must, must_j = solver._count_grid(table_tiles)
    rack_grid, rack_j = solver._count_grid(rack)
    avail = [[must[v][c] + rack_grid[v][c] for c in range(4)] for v in range(n)]
    weight, wj = rack_weights(n, get_rules())
    plain = solver._Search(n, must, avail, weight, must_j, rack_j, wj).solve()[0]
    if plain is None:
        with pytest.raises(TableUnsolvableError):
            best_move([table_tiles], rack)
        return
    move = best_move([table_tiles], rack)
    assert (len(move.placed), move.points) == divmod(plain, solver._BIG)


# Dense tables that can be laid only with their jokers in particular places.
DENSE_CASES = [
    "K1 K1 K2 K3 K3 K4 K4 K5 K5 K6 K7 K8 K9 K9 K11 K12 K12 K13 B1 B1 B2 B3 B3 B4 B5 B6 B7 B9 "
    "B10 B10 B12 B13 O1 O2 O3 O3 O4 O5 O5 O6 O7 O8 O8 O9 O9 O10 O10 O11 O11 O12 O12 O13 R1 R1 "
    "R3 R3 R4 R4 R6 R6 R7 R7 R8 R9 R9 R10 R10 R11 R12 R12 R13 J",
    "K1 K1 K2 K2 K3 K4 K4 K5 K5 K6 K6 K7 K7 K8 K8 K9 K9 K11 K12 K13 K13 B1 B1 B3 B3 B5 B6 B6 "
    "B7 B7 B8 B8 B9 B9 B10 B10 B11 B12 B12 B13 B13 O1 O1 O2 O3 O4 O4 O5 O7 O8 O9 O10 O11 O12 "
    "O13 O13 R1 R1 R2 R2 R3 R3 R4 R5 R7 R7 R8 R9 R9 R10 R11 R12 R13 R13 J J",
]


@pytest.mark.parametrize("text", DENSE_CASES)
def test_dense_tables_that_need_their_jokers(text):
    tiles = parse_tiles(text)
    table = arrange(tiles)
    assert table is not None
    assert_sound(table, tiles)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.randoms(use_true_random=False), st.integers(55, 95))
def test_dense_tables_agree_with_the_plain_search(rnd, size):
    """Dense random tables: the hardest to prove impossible, where every fast path (the
    relaxed search, both reading directions, the budgets) is used."""
    tiles = rnd.sample(list(all_tiles()), size)
    n, zero = 13, [[0] * 4 for _ in range(13)]
    grid, j = solver._count_grid(tiles)
    plain = solver._Search(n, grid, grid, zero, j, 0, 0).solve()[0]
    table = arrange(tiles)
    assert (table is not None) == (plain is not None)
    if table is not None:
        assert_sound(table, tiles)


def test_module_examples():
    from referee import solver as arranging
    from referee import steps
    for module in (arranging, steps, solver):
        assert doctest.testmod(module).failed == 0


def _rests_of_one_table(rnd, size: int, jokers: int):
    """A table's tiles half on the table, half on the rack, and 12 rests of it a few tiles
    away from each other, as the hint search solves them (tiles taken out, a place holding
    them, or come back): (n, must, available, weight, must_j, opt_j, joker weight), each
    solvable; the rests' weights are the rack's under the default preset."""
    numbered = [t for t in all_tiles() if not t.is_joker]
    tiles = rnd.sample(numbered, size)
    must, _ = solver._count_grid(tiles[:size // 2])
    rack, _ = solver._count_grid(tiles[size // 2:])
    n = 13
    weight, wj = rack_weights(n, get_rules())
    for _ in range(12):
        m = [row[:] for row in must]
        a = [[must[v][c] + rack[v][c] for c in range(4)] for v in range(n)]
        for _ in range(rnd.randint(1, 4)):
            v, c = rnd.randrange(n), rnd.randrange(4)
            if a[v][c] and rnd.random() < 0.7:
                a[v][c] -= 1
                m[v][c] = min(m[v][c], a[v][c])
            elif a[v][c] < 2:
                a[v][c] += 1
        opt_j = rnd.randint(0, jokers)
        must_j = jokers - opt_j
        if solver._dead_must(n, m, a, jokers):
            continue
        a = solver._prune_optional(n, m, a, jokers)
        yield n, m, a, weight, must_j, opt_j, wj


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.randoms(use_true_random=False), st.integers(8, 40), st.integers(0, 2))
def test_a_series_of_solves_sharing_their_memo_answers_as_each_alone(rnd, size, jokers):
    """The hint search solves many rests of one table, each a few tiles away from the others,
    and they share what they proved about equal ends of the numbers (the memo, the bounds, the
    moves). Each must still answer as a solve of its own: the same best value (or none), and
    valid melds of its own tiles."""
    shared = solver.Leaning()
    for n, m, a, weight, must_j, opt_j, wj in _rests_of_one_table(rnd, size, jokers):
        floor = None if rnd.random() < 0.5 else rnd.randint(0, 6) * solver._BIG
        alone = solver._lay_valued(n, m, a, weight, must_j, opt_j, wj, floor)
        series = solver._lay_valued(n, m, a, weight, must_j, opt_j, wj, floor, shared)
        assert series[0] == alone[0]
        for value, melds in (alone, series):
            if melds is not None:
                laid = solver._count_grid([t for meld in melds for t in meld.tiles])[0]
                assert all(check_meld(meld).ok for meld in melds)
                assert all(m[v][c] <= laid[v][c] <= a[v][c] for v in range(n) for c in range(4))


@pytest.mark.parametrize("reverse", [False, True])
def test_a_solve_in_a_series_sees_the_tiles_two_numbers_on(reverse):
    """The moves at a number depend on the tiles there and at the next two numbers (a run
    started must find its next two tiles): two solves of a series that differ only two
    numbers on must not share them. K1 K1 B1 O1 K2 K2 B2 O2 lays 6 tiles (two groups); with
    K3 too, all 9 (K1 K2 K3 beside the groups). Mirrored (K13 ... K11), for the reading from
    13 down."""
    n = 13
    weight, wj = rack_weights(n, get_rules())
    zero = [[0] * 4 for _ in range(n)]

    def rack(text):
        tiles = parse_tiles(text)
        if reverse:
            tiles = [Tile(t.colour, 14 - t.number) for t in tiles]
        return solver._count_grid(tiles)[0]

    shared = solver.Leaning(reverse=reverse)
    values = []
    for text in ("K1 K1 B1 O1 K2 K2 B2 O2", "K1 K1 B1 O1 K2 K2 B2 O2 K3"):
        avail = rack(text)
        alone = solver._lay_valued(n, zero, avail, weight, 0, 0, wj)[0]
        assert solver._lay_valued(n, zero, avail, weight, 0, 0, wj, None, shared)[0] == alone
        values.append(divmod(alone, solver._BIG)[0])
    assert values == [6, 9]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.randoms(use_true_random=False), st.integers(8, 40), st.integers(0, 2))
def test_a_bound_that_stops_at_its_first_value_above_the_floor(rnd, size, jokers):
    """The hint search's bounds are only compared with the best turn found, so their solves
    stop at the first value above it (``_beats_floor``). It must say None exactly when the
    full search finds nothing above the floor, and otherwise give a value above the floor
    that the full search reaches or beats. Those solves share their memo with full ones (a
    series, as in the hint search): a value they stop at must never be remembered as a
    most, which the full solves after them would then give."""
    shared = solver.Leaning()
    for n, m, a, weight, must_j, opt_j, wj in _rests_of_one_table(rnd, size, jokers):
        most = solver._lay_valued(n, m, a, weight, must_j, opt_j, wj)[0]
        # far below the most (the first value found is then seldom the most), at random,
        # just below the most and at it
        floors = [-1, rnd.randint(0, 8) * solver._BIG + rnd.randint(0, 40)]
        if most is not None:
            floors += [most - 1, most]
        for floor in floors:
            got = solver._beats_floor(n, m, a, weight, must_j, opt_j, wj, floor, shared)
            if most is None or most <= floor:
                assert got is None
            else:
                assert got is not None and floor < got <= most
            # a full solve of the same series afterwards still gives the most
            assert solver._lay_valued(n, m, a, weight, must_j, opt_j, wj, None,
                                      shared)[0] == most


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.randoms(use_true_random=False), st.integers(10, 60), st.integers(1, 30),
       st.integers(0, 2))
def test_a_first_solve_that_keeps_its_memo_answers_as_one_alone(rnd, table_size, rack_size,
                                                                jokers):
    """``best_move`` solves the free move with a ``Leaning(even=True)``, so that the joker
    search after it reuses its memo: it must come back with the very melds a solve alone
    gives (which of equally good arrangements comes back decides whether the free move is
    already a legal turn), and leave the leaning to the series."""
    numbered = [t for t in all_tiles() if not t.is_joker]
    rnd.shuffle(numbered)
    table_tiles = numbered[:table_size] + [referee.JOKER] * jokers
    rack = numbered[table_size:table_size + rack_size]
    n = 13
    must, must_j = solver._count_grid(table_tiles)
    rack_grid, rack_j = solver._count_grid(rack)
    avail = [[must[v][c] + rack_grid[v][c] for c in range(4)] for v in range(n)]
    if solver._dead_must(n, must, avail, must_j + rack_j):
        return
    avail = solver._prune_optional(n, must, avail, must_j + rack_j)
    weight, wj = rack_weights(n, get_rules())
    alone = solver._lay(n, must, avail, weight, must_j, rack_j, wj)
    leaning = solver.Leaning(reverse=True, even=True)
    kept = solver._lay(n, must, avail, weight, must_j, rack_j, wj, None, leaning)
    assert (None if alone is None else [str(m) for m in alone]) == \
        (None if kept is None else [str(m) for m in kept])
    assert leaning.shared and leaning.reverse  # the memo is kept; the leaning left as set


def _in_some_meld(avail, jokers, v, c):
    """Is there a meld of three (a run or a group) holding the tile (v, c) whose other two
    tiles are there, or jokers in their place?"""
    shapes = [[(w, c) for w in range(s, s + 3)] for s in range(max(0, v - 2), min(v, 10) + 1)]
    shapes += [[(v, d) for d in ds] for ds in itertools.combinations(range(4), 3) if c in ds]
    return any(sum(1 for w, d in shape if (w, d) != (v, c) and not avail[w][d]) <= jokers
               for shape in shapes)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.sampled_from([0, 0, 0, 0, 1, 2, 3]), min_size=4, max_size=4),
                min_size=13, max_size=13),
       st.lists(st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=4, max_size=4),
                min_size=13, max_size=13),
       st.integers(0, 3))
def test_tiles_that_fit_in_no_meld_are_left_out(avail, must, jokers):
    """Before every solve, optional tiles that fit in no meld of three (the other two there,
    or jokers) are dropped until none is left, and a tile that must be laid but fits in none
    answers at once (two jokers make a group with any tile: nothing is dropped then); by
    grid (``_prune_optional``, ``_dead_must``) and by flat list of cells (``_prune_cells``,
    the cells dropped listed)."""
    must = [[min(m, a) for m, a in zip(rm, ra)] for rm, ra in zip(must, avail)]
    want = [row[:] for row in avail]
    changed = True
    while changed:
        changed = False
        for v in range(13):
            for c in range(4):
                if want[v][c] > must[v][c] and not _in_some_meld(want, jokers, v, c):
                    want[v][c], changed = must[v][c], True
    assert solver._prune_optional(13, must, avail, jokers) == want
    dead = any(must[v][c] and not _in_some_meld(avail, jokers, v, c)
               for v in range(13) for c in range(4))
    assert solver._dead_must(13, must, avail, jokers) == dead
    # the same two steps at once on flat lists by cell (the hint search's solves and bounds)
    flat = [[k for row in grid for k in row] for grid in (must, avail, want)]
    got = solver._prune_cells(13, flat[0], flat[1], jokers)
    if dead:
        assert got is None
    else:
        assert got[0] == flat[2]
        assert sorted(got[1]) == [at for at in range(52) if flat[2][at] != flat[1][at]]
