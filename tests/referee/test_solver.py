"""The exact solver: arrange, best_move, max_score.

The property tests compare the solver with a brute-force search written to be obviously
right rather than fast: it tries every way to split the tiles into melds, judging each meld
with referee.check_meld (the same judge a player's table faces).
"""

import doctest
import itertools
import os
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import referee
from referee import (ImpossibleTilesError, NotationError, RummirefError, Table, Tile,
                     all_tiles, check_meld, get_rules, meld_points, parse_table, parse_tiles)
from referee import search as solver
from referee.hints import Move, best_move
from referee.opening import rack_weights
from referee.solver import TableUnsolvableError, arrange, max_score, max_score_counts

AS_LAID = get_rules().replace(meld_order="as-laid")
# RUMMIREF_SOLVER_EXAMPLES=5000 runs a deeper, random (not derandomized) search
_DEEP = int(os.environ.get("RUMMIREF_SOLVER_EXAMPLES", "0"))
PROPS = settings(max_examples=_DEEP or 120, deadline=None, derandomize=not _DEEP,
                 suppress_health_check=[HealthCheck.too_slow])


# --- brute force --------------------------------------------------------------------------------

def _key(tiles):
    return tuple(sorted(str(t) for t in tiles))


@lru_cache(maxsize=None)
def _partitions(key):
    """Every way to lay all these tiles (a sorted tuple of tokens) as valid melds: a list of
    meld lists. The first tile goes in some meld with some of the others."""
    if not key:
        return [[]]
    first, rest = key[0], key[1:]
    out = []
    seen = set()
    for size in range(2, len(rest) + 1):
        for idx in itertools.combinations(range(len(rest)), size):
            meld = (first,) + tuple(rest[i] for i in idx)
            if meld in seen:
                continue
            seen.add(meld)
            if not check_meld(list(meld)).ok:
                continue
            left = tuple(t for i, t in enumerate(rest) if i not in idx)
            out += [[meld] + more for more in _partitions(left)]
    return out


def brute_arrangeable(tiles):
    return bool(_partitions(_key(tiles)))


def _sub_multisets(tiles):
    tiles = sorted(tiles, key=str)
    seen = set()
    for r in range(len(tiles) + 1):
        for idx in itertools.combinations(range(len(tiles)), r):
            sub = tuple(tiles[i] for i in idx)
            k = _key(sub)
            if k not in seen:
                seen.add(k)
                yield list(sub)


def _rack_points(tiles, rules):
    return sum(rules.joker_penalty if t.is_joker else t.number for t in tiles)


def brute_best_move(table_tiles, rack, rules):
    """(tiles placed, points) of the best move with the table open, or None if even the whole
    rack cannot make the table valid."""
    if not any(brute_arrangeable(table_tiles + sub) for sub in _sub_multisets(rack)):
        return None
    best = max((len(sub), _rack_points(sub, rules)) for sub in _sub_multisets(rack)
               if brute_arrangeable(table_tiles + sub))
    return best


def _opening_value(meld, rules):
    """What a meld can count toward the initial meld: its best reading (jokers' places)."""
    return max(meld_points(list(p), rules, for_initial_meld=True)
               for p in set(itertools.permutations(meld)) if check_meld(list(p), rules).ok)


def brute_opening(rack, rules):
    """(tiles placed, points) of the best initial meld from rack tiles alone, (0, 0) if none."""
    best = (0, 0)
    for sub in _sub_multisets(rack):
        if not sub or (len(sub), _rack_points(sub, rules)) <= best:
            continue
        for melds in _partitions(_key(sub)):
            values = [_opening_value(m, rules) for m in melds]
            ok = (max(values) >= rules.initial_meld_points if rules.initial_meld_single_set
                  else sum(values) >= rules.initial_meld_points)
            if ok:
                best = (len(sub), _rack_points(sub, rules))
                break
    return best


# --- strategies -------------------------------------------------------------------------------

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


def _assert_sound(table, tiles):
    assert isinstance(table, Table)
    assert sorted(table.tiles) == sorted(tiles)
    for meld in table.melds:
        assert check_meld(meld).ok, str(meld)
        # laid in natural order: runs ascending with each joker in its place, groups jokers last
        assert check_meld(meld, AS_LAID).ok, f"{meld} is not in natural order"
        if check_meld(meld).kind == "group":
            real = [t for t in meld if not t.is_joker]
            assert list(meld.tiles) == real + [referee.JOKER] * (len(meld) - len(real))


# --- properties -------------------------------------------------------------------------------

@PROPS
@given(tile_sets())
def test_arrange_agrees_with_brute_force(tiles):
    table = arrange(tiles)
    assert (table is not None) == brute_arrangeable(tiles), tiles
    if table is not None:
        _assert_sound(table, tiles)


@PROPS
@given(tile_sets(max_tiles=12, numbers=(4, 12)))
def test_every_arrangement_is_valid_and_complete(tiles):
    table = arrange(tiles)
    if table is not None:
        _assert_sound(table, tiles)


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
    _assert_sound(table, tiles)


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
        _assert_sound(table, tiles)


def test_module_examples():
    from referee import solver as arranging, steps
    for module in (arranging, steps, solver):
        assert doctest.testmod(module).failed == 0


# --- examples ---------------------------------------------------------------------------------

def test_empty_input_gives_an_empty_table():
    assert arrange("") == Table()
    assert arrange([]) == Table()
    move = best_move("", "")
    assert move.placed == () and move.table == Table() and move.points == 0


@pytest.mark.parametrize("tiles", ["J", "J J", "R5 J", "K1 B1", "R12 R13 R1", "R13 R1 R2",
                                   "R1 R2 R3 R5", "K5 B5 O5 R5 J", "R7 R7 R8"])
def test_not_arrangeable(tiles):
    assert arrange(tiles) is None


def test_no_wrap_after_13_but_a_joker_below():
    table = arrange("R12 R13 J")
    assert str(table) == "J R12 R13"
    table = arrange("R11 R12 R13 J")
    assert str(table) == "J R11 R12 R13"


def test_full_set_and_joker_only_corner_cases():
    _assert_sound(arrange(all_tiles()), list(all_tiles()))
    # groups of four with a spare joker: the joker must go in a run instead
    tiles = parse_tiles("K5 B5 O5 R5 K6 B6 O6 R6 K7 B7 O7 R7 J")
    _assert_sound(arrange(tiles), tiles)
    # two jokers split a group of four into two groups of three
    tiles = parse_tiles("K5 B5 O5 R5 J J")
    _assert_sound(arrange(tiles), tiles)
    # a joker standing for a third copy of a tile
    tiles = parse_tiles("R4 R5 R6 R4 R5 R6 J R7 R8")
    _assert_sound(arrange(tiles), tiles)


def test_arrange_accepts_text_tokens_tiles_and_tables():
    assert str(arrange("r3 R1 r2")) == "R1 R2 R3"
    assert str(arrange(["R1", "R2", "R3"])) == "R1 R2 R3"
    assert str(arrange(parse_tiles("K7 B7 O7"))) == "K7 B7 O7"
    assert str(arrange(parse_table("R3 R2 | R1 K7 B7 O7"))) == "R1 R2 R3 | K7 B7 O7"


@pytest.mark.parametrize("bad", ["R14", "X3", "R0", "R", "7R"])
def test_bad_notation_raises(bad):
    with pytest.raises(NotationError) as err:
        arrange(f"R1 R2 {bad}")
    assert err.value.token == bad
    with pytest.raises(NotationError):
        best_move("R1 R2 R3", bad)


def test_impossible_tiles_raise():
    with pytest.raises(ImpossibleTilesError) as err:
        arrange("R7 R7 R7")
    assert err.value.token == "R7"
    with pytest.raises(ImpossibleTilesError):
        arrange("J J J R1")
    with pytest.raises(ImpossibleTilesError) as err:
        best_move("R7 R8 R9 | R7 B7 K7", "R7")
    assert "table and the rack" in str(err.value)


def test_unsolvable_table_raises_a_clear_error():
    with pytest.raises(TableUnsolvableError) as err:
        best_move("R1 R2 | K9", "B4")
    assert isinstance(err.value, RummirefError)
    assert "cannot all be laid" in str(err.value)
    # fragments the rack can complete are fine
    move = best_move("R5 | R6 R7", "R4 R8")
    assert len(move.placed) == 2 and str(move.table) == "R4 R5 R6 R7 R8"


def test_best_move_prefers_tiles_then_points():
    move = best_move("R4 R5 R6", "R7 R3 B1")
    assert [str(t) for t in move.placed] == ["R3", "R7"] and move.points == 10
    assert [str(t) for t in move.remaining] == ["B1"]
    # same number of tiles: the joker (30 on the rack) beats R7 (7)
    move = best_move("R4 R5 R6", "R7 J")
    assert len(move.placed) == 2
    move = best_move("K9 B9 O9 | R1 R2 R3", "R9 J")
    assert move.points == 39 and len(move.placed) == 2


def test_nothing_to_play_keeps_the_table():
    table = parse_table("R4 R5 R6")
    move = best_move(table, "B1 K13")
    assert move.draws and move.table == table and move.points == 0
    assert [str(t) for t in move.remaining] == ["B1", "K13"]


def test_opening_rules():
    sabra = get_rules("sabra")
    rack = "R1 R2 R3 K10 B10 O10"
    assert len(best_move("", rack, sabra, opened=False).placed) == 6  # 6 + 30
    sum31 = sabra.replace(initial_meld_points=31)
    assert len(best_move("", rack, sum31, opened=False).placed) == 6  # 36 together
    single31 = sum31.replace(initial_meld_single_set=True)
    assert best_move("", rack, single31, opened=False).draws  # neither set alone
    single30 = get_rules("pressman-1998")
    move = best_move("", rack, single30, opened=False)
    assert len(move.placed) == 6 and move.initial_points == 36
    # the initial meld may not use table tiles
    assert best_move("R4 R5 R6", "R7", sabra, opened=False).draws
    # a joker counts what it stands for, or nothing in the variant
    assert len(best_move("", "J R12 R13", sabra, opened=False).placed) == 3
    zero = sabra.replace(initial_meld_joker_value="zero")
    assert best_move("", "J R12 R13", zero, opened=False).draws


def test_opening_with_an_invalid_table_rearranges_only_the_table_tiles():
    move = best_move([["R2", "R1"], ["R3"]], "K10 B10 O10", opened=False)
    assert str(move.table) == "R1 R2 R3 | K10 B10 O10"
    with pytest.raises(TableUnsolvableError):
        best_move("R1 R2", "K10 B10 O10", opened=False)


def test_move_to_dict():
    move = best_move("R4 R5 R6", "R7 B1")
    assert isinstance(move, Move)
    data = move.to_dict()
    assert data["placed"] == ["R7"] and data["tiles_placed"] == 1
    assert data["table"] == "R4 R5 R6 R7" and data["remaining"] == ["B1"]
    assert data["points"] == 7 and data["draws"] is False
    with pytest.raises(AttributeError):
        move.points = 0  # frozen


def test_max_score():
    assert max_score("") == 0
    assert max_score("R1 R2 R3 K13") == 6
    assert max_score("K13 B13 O13 R1 R2") == 39
    assert max_score("J R1") == 0
    assert max_score("J J R1") == 1  # jokers count 0, but may help
    assert max_score("J R12 R13") == 25
    # the generalised puzzle: numbers beyond 13
    assert max_score_counts({(0, 50): 1, (0, 51): 1, (0, 52): 1, (1, 99): 2}, numbers=100) == 153
    with pytest.raises(ValueError):
        max_score_counts({(0, 101): 1}, numbers=100)




def _random_table_with_jokers(rng):
    """A valid table of 3-7 random runs and groups, one or two tiles of it swapped for jokers,
    and the tiles still free (for a rack)."""
    from collections import Counter

    from referee import COLOURS, JOKER, Tile, all_tiles

    free = Counter(all_tiles())
    melds = []
    for _ in range(rng.randint(3, 7)):
        if rng.random() < 0.5:
            colour, length = rng.choice(COLOURS), rng.randint(3, 5)
            start = rng.randint(1, 14 - length)
            meld = [Tile(colour, n) for n in range(start, start + length)]
        else:
            number = rng.randint(1, 13)
            meld = [Tile(c, number) for c in rng.sample(COLOURS, rng.randint(3, 4))]
        if all(free[t] > 0 for t in meld):
            free.subtract(meld)
            melds.append(meld)
    for _ in range(rng.randint(1, 2)):
        meld = rng.choice(melds)
        i = rng.randrange(len(meld))
        if not meld[i].is_joker and free[JOKER] > 0:
            free[meld[i]] += 1
            free[JOKER] -= 1
            meld[i] = JOKER
    rest = [t for t in free.elements() if not t.is_joker]
    rng.shuffle(rest)
    return [" ".join(map(str, m)) for m in melds], rest


@pytest.mark.parametrize("preset", ["sabra", "sabra-way", "pressman-1998", "tournament"])
def test_every_hint_is_a_legal_turn_under_its_preset(preset):
    """The solver may move jokers freely; a hint must still obey the preset's joker rules."""
    import random

    from referee import PRESETS, best_move, check_turn, parse_table

    rng = random.Random(preset)
    rules = PRESETS[preset]
    moved = 0
    for _ in range(60):
        melds, rest = _random_table_with_jokers(rng)
        table = parse_table(melds)
        rack = rest[:rng.randint(2, 10)]
        move = best_move(table, rack, rules)
        verdict = check_turn(table, move.table, rack, rules=rules)
        assert verdict.legal, f"{table} + {rack}: {move.table}\n{verdict.summary()}"
        moved += bool(move.placed)
    assert moved >= 20
