"""The dispute view's nearest valid table: the fewest tiles moved, against a brute force that
tries every valid arrangement and every way to match its melds to the player's
(tests/referee/nearest_oracle.py)."""

import random
from collections import Counter
from types import SimpleNamespace

import pytest

from referee import COLOURS, JOKER, Tile, check_meld, could_lay, get_rules, parse_table
from referee.nearest import best_assignment, nearest_table

from .nearest_oracle import ANY, brute_fewest, kept_by


def _case(rng):
    """2-3 melds near each other, some broken: tiles moved between them, one maybe taken."""
    colour = rng.choice(COLOURS)
    start = rng.randint(1, 8)
    melds = [[Tile(colour, n) for n in range(start, start + rng.randint(3, 5))]]
    number = rng.randint(1, 13)
    melds.append([Tile(c, number) for c in rng.sample(COLOURS, 3)])
    if rng.random() < 0.5:
        c2 = rng.choice(COLOURS)
        s2 = rng.randint(1, 10)
        melds.append([Tile(c2, n) for n in range(s2, s2 + 3)])
    if rng.random() < 0.3:
        melds[0][rng.randrange(len(melds[0]))] = JOKER
    for _ in range(rng.randint(1, 2)):  # move a tile to another meld, or split one off
        src = rng.choice([m for m in melds if m])
        t = src.pop(rng.randrange(len(src)))
        if rng.random() < 0.3:
            melds.append([t])
        else:
            rng.choice(melds).append(t)
    loose = []
    if rng.random() < 0.2:
        src = max(melds, key=len)
        loose.append(src.pop())
    melds = [m for m in melds if m]
    counts = Counter(t for m in melds for t in m) + Counter(loose)
    if sum(counts.values()) > 11 or max(counts.values()) > 2:
        return None
    return parse_table([" ".join(map(str, m)) for m in melds]), loose


def test_nearest_moves_the_fewest_tiles():
    rng = random.Random(9)
    checked = 0
    while checked < 60:
        case = _case(rng)
        if case is None:
            continue
        table, loose = case
        near = nearest_table(list(table), loose, ANY)
        best = brute_fewest(list(table), loose)
        if best is None:
            assert near is None
            continue
        assert near is not None and near.exact, str(table)
        assert len(near.moves) == best, f"{table} + {loose}: {near.table} moves {len(near.moves)}"
        assert all(check_meld(m).ok for m in near.table)
        assert sorted(near.table.tiles) == sorted(list(table.tiles) + loose)
        checked += 1


def _scrambled(rng, colours=2, span=6, melds=4, moves=3, jokers=2, most=14):
    """A valid table of runs and groups drawn from a window of the set (``colours`` colours,
    ``span`` numbers, both copies of each tile, up to ``jokers`` jokers in place of tiles),
    then scrambled by ``moves`` changes a player could make: a tile moved to another meld or
    laid alone, a meld split or two melds pushed together, a tile taken off the table, a
    tile of the set laid that fits nowhere yet. None when it holds more than ``most``
    tiles."""
    cols = rng.sample(COLOURS, colours)
    low = rng.randint(1, 14 - span)
    numbers = range(low, low + span)
    free = Counter({Tile(c, n): 2 for c in cols for n in numbers})
    table = []
    for _ in range(3 * melds):
        if len(table) == melds:
            break
        if colours < 3 or rng.random() < 0.5:
            length = rng.randint(3, span)
            start = rng.randint(low, low + span - length)
            colour = rng.choice(cols)
            meld = [Tile(colour, n) for n in range(start, start + length)]
        else:
            number = rng.choice(numbers)
            meld = [Tile(c, number) for c in rng.sample(cols, rng.randint(3, colours))]
        if any(free[t] < k for t, k in Counter(meld).items()):
            continue
        free -= Counter(meld)
        table.append(meld)
    if not table:
        return None
    for _ in range(jokers):
        meld = rng.choice(table)
        i = rng.randrange(len(meld))
        if rng.random() < 0.7 and not meld[i].is_joker:
            free[meld[i]] += 1
            meld[i] = JOKER
    loose = []
    for _ in range(moves):
        live = [m for m in table if m]
        src = rng.choice(live)
        others = [m for m in live if m is not src]
        r = rng.random()
        if r < 0.42 and others:
            rng.choice(others).append(src.pop(rng.randrange(len(src))))
        elif r < 0.56:
            table.append([src.pop(rng.randrange(len(src)))])
        elif r < 0.70 and len(src) > 1:
            k = rng.randrange(1, len(src))
            table.append(src[k:])
            del src[k:]
        elif r < 0.82 and others:
            other = rng.choice(others)
            src.extend(other)
            other.clear()
        elif r < 0.95:
            loose.append(src.pop(rng.randrange(len(src))))
        elif +free:
            t = rng.choice(list((+free).elements()))
            free[t] -= 1
            src.append(t)
    table = [m for m in table if m]
    if not table or sum(map(len, table)) + len(loose) > most:
        return None
    rng.shuffle(table)
    return parse_table([" ".join(map(str, m)) for m in table], check=False), loose


#: the kinds of table the search's bounds and prunes are tested on: runs of two colours with
#: both copies of their tiles, long runs split several ways, groups that can grow (and runs
#: across them), and one colour with both jokers
SHAPES = {
    "two colours": dict(colours=2, span=6, melds=3, moves=3),
    "long runs": dict(colours=1, span=10, melds=3, moves=4),
    "groups": dict(colours=4, span=4, melds=4, moves=3, jokers=1),
    "jokers": dict(colours=1, span=7, melds=3, moves=3, jokers=2),
}


def _assert_sound(table, loose, near, best):
    """``near`` is a valid table of exactly the tiles, its moves say truly which tile leaves
    which of the player's melds (or goes back, taken) for which of its melds, and its bound
    holds: no table moves fewer than ``near.fewest`` tiles (``best`` is the true fewest)."""
    melds = list(table)
    assert all(check_meld(m).ok for m in near.table), str(near.table)
    assert Counter(near.table.tiles) == Counter(table.tiles) + Counter(loose)
    assert near.fewest <= best <= len(near.moves), (near.fewest, best, len(near.moves))
    # the moves describe this table: no fewer than it needs with its melds best matched
    total = len(table.tiles) + len(loose)
    assert len(near.moves) >= total - kept_by(near.table, melds)
    assert Counter(t for t, f, _ in near.moves if f is None) == Counter(loose)
    out = Counter()
    for t, f, _ in near.moves:
        if f is not None:
            out[str(f)] += 1
            assert t in f.tiles, f"{t} leaves {f}, which does not hold it"
    into = Counter(str(m) for _, _, m in near.moves)
    assert all(into[str(m)] <= len(m) * sum(str(x) == str(m) for x in near.table)
               for _, _, m in near.moves)
    player, after = [str(m) for m in melds], [str(m) for m in near.table]
    if len(set(player)) == len(player) and len(set(after)) == len(after):
        # each meld's tiles that stay end together, in the one meld continuing it
        gone = {p: Counter() for p in player}
        came = {a: Counter() for a in after}
        for t, f, m in near.moves:
            if f is not None:
                gone[str(f)][t] += 1
            came[str(m)][t] += 1
        stays = sorted(sorted(map(str, (Counter(m.tiles) - gone[str(m)]).elements()))
                       for m in melds if +(Counter(m.tiles) - gone[str(m)]))
        kept = sorted(sorted(map(str, (Counter(m.tiles) - came[str(m)]).elements()))
                      for m in near.table if +(Counter(m.tiles) - came[str(m)]))
        assert all(not (gone[str(m)] - Counter(m.tiles)) for m in melds)
        assert all(not (came[str(m)] - Counter(m.tiles)) for m in near.table)
        assert stays == kept, f"{table} + {loose} -> {near.table}: {near.moves}"


def _scrambled_cases(seed, count, shapes=SHAPES):
    rng = random.Random(seed)
    names = sorted(shapes)
    cases = []
    while len(cases) < count:
        name = names[len(cases) % len(names)]
        case = _scrambled(rng, **shapes[name])
        if case is not None:
            cases.append(case)
    return cases


def _fewest_moved_on(cases, all_exact=True):
    """Each table's nearest table against the brute force; with ``all_exact``, every search
    must end within its steps (the tables are small enough), else those that do must be
    right and the others' bounds true. The count of exact answers."""
    exact = 0
    for table, loose in cases:
        near = nearest_table(list(table), loose, ANY)
        best = brute_fewest(list(table), loose)
        if best is None:
            assert near is None, str(table)
            continue
        assert near is not None and (near.exact or not all_exact), f"{table} + {loose}"
        if near.exact:
            exact += 1
            assert len(near.moves) == best, \
                f"{table} + {loose}: {near.table} moves {len(near.moves)}"
        _assert_sound(table, loose, near, best)
    return exact


def test_nearest_moves_the_fewest_tiles_on_scrambled_tables():
    # 000: "At the end of the turn, all played tiles must be in valid sets"; the dispute view
    # shows the valid table nearest to the player's. Tables with jokers, both copies of
    # tiles, long runs split many ways, groups that can grow, tiles taken off, tiles that fit
    # nowhere yet: every bound the search prunes by is tight on some of them
    _fewest_moved_on(_scrambled_cases(13, 48))


@pytest.mark.slow
def test_nearest_moves_the_fewest_tiles_on_many_scrambled_tables():
    # a few of the bigger tables take the search past its 20,000 steps: those answers must
    # still hold (their bound true, their moves right), and all the others be exact
    cases = _scrambled_cases(2026, 1500, {
        **SHAPES, "bigger": dict(colours=2, span=7, melds=5, moves=4, most=16)})
    assert _fewest_moved_on(cases, all_exact=False) >= 0.97 * len(cases)


def test_a_search_out_of_steps_still_tells_the_truth():
    # a search cut short, wherever it stops, gives a valid table, says truly which tiles to
    # move for it, and its bound holds: no table moves fewer than it says
    broken = {"two colours, much moved": dict(colours=2, span=6, melds=3, moves=6),
              "groups, much moved": dict(colours=4, span=4, melds=4, moves=7, jokers=1)}
    for k, (table, loose) in enumerate(_scrambled_cases(21, 16)
                                       + _scrambled_cases(22, 16, broken)):
        best = brute_fewest(list(table), loose)
        for budget in [1, 2, 3, 5, 8, 13, 30] if k % 4 == 0 else [1 + k % 3, 20 + k]:
            near = nearest_table(list(table), loose, ANY, budget=budget)
            if best is None:
                assert near is None
                continue
            _assert_sound(table, loose, near, best)


@pytest.mark.parametrize("table, loose", [
    # both jokers left together, and K9 joins them: a core of jokers alone that grows
    ("R5 R6 R7 K9 | J J", ""),
    # a run of all thirteen numbers kept whole while K8 joins B8 O8 (000: "A 1 may not
    # follow a 13": no run is longer)
    ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 | K5 K6 K7 K8 | B8 O8", ""),
    # R6 taken off the table while its twin lies in a broken meld: two copies to place
    ("R3 R4 R5 R6 B6 | O6", "R6"),
    # two valid melds among three broken ones: only the broken ones count towards the
    # least the search starts from
    ("O2 O3 J | J | K1 K2 K3 K4 K5 | K2 K3 K4 | O3 O4", ""),
    # single tiles that can only join what others still need
    ("B2 J B4 | K5 | J K6 K7 | K3 | K4 | B5 B6 B7 | K4", ""),
    # a group of four, both copies of R1 and B4, a joker: many ways to grow each group
    ("K1 | B1 O1 R1 R1 | B2 J B4 B4 O4 K4 R4 | R2 R3", ""),
    # the two tiles taken go back around R3, and nothing else moves
    ("R5 R6 R7 | R3 | R5 R6 R7 J", "R4 R2"),
    # B7 joins the two jokers; the rest stays
    ("J J | B7 B8 B9 B10 | B8 B9 B7", ""),
    # three tiles taken off the table and one broken meld: putting them back mends it, so
    # they are the only tiles to move
    ("R3 R4 R5 | K7", "B7 O7 R6"),
])
def test_nearest_on_tables_where_the_search_s_bounds_are_tight(table, loose):
    # 000: "Runs are composed of three or more, same-colored tiles, in consecutive number
    # order"; "Groups are three or four same-value tiles in distinct colors"
    table, loose = parse_table(table), list(parse_table(loose).tiles)
    near = nearest_table(list(table), loose, ANY)
    best = brute_fewest(list(table), loose)
    assert near.exact and len(near.moves) == best
    _assert_sound(table, loose, near, best)


def test_a_hard_table_is_still_searched_to_the_end():
    # one meld of thirteen tiles, both jokers among them: every way to keep part of it where
    # it is takes the search some 14,000 of its 20,000 steps, and the answer is exact
    table = parse_table("K2 K3 K4 K6 K7 K3 J J K6 K7 K8 K10 K5")
    near = nearest_table(list(table), [], ANY)
    best = brute_fewest(list(table), [])
    assert near.exact and len(near.moves) == best
    _assert_sound(table, [], near, best)


def test_a_table_too_hard_for_the_search_says_how_near_its_answer_is():
    # eight pairs of a run, none valid: more ways to mend them than the search's 20,000 steps
    # try. The answer is still a valid table with the tiles to move, and says that no valid
    # table moves fewer than the bound it proved (which the brute force confirms)
    after = "R1 R2 | R3 R4 | R5 R6 | R7 R8 | K1 K2 | K3 K4 | K5 K6 | K7 K8"
    a = could_lay("", after)
    best = brute_fewest(list(parse_table(after)), [])
    assert a.possible and not a.as_laid and not a.exact
    assert a.fewest <= best <= len(a.moves)
    assert a.answer.startswith(f"Yes: move {len(a.moves)} tiles (")
    assert a.answer.endswith(f" and the table is valid: {a.arrangement}. (No valid table "
                             f"moves fewer than {a.fewest}.)")
    assert a.to_dict()["fewest_possible"] == a.fewest and a.to_dict()["exact"] is False
    assert all(check_meld(m).ok for m in a.arrangement)


def test_a_search_cut_short_moves_the_fewest_tiles_its_own_table_allows():
    """When the search runs out of steps, its answer's table is some valid table; the tiles it
    tells to move are still the fewest for that table: each of its melds is matched with one
    of the player's so that the most tiles stay (checked against every matching). Matched
    greedily, the first table here was told with 12 moves where 10 do."""
    from itertools import permutations

    for after in ("K6 K7 | R4 K2 | K3 K5 K8 | K2 K3 K4 K5 K6 K7 R1 R2 R3 R4 R5 J K4 J",
                  "R1 R2 | R3 R4 | R5 R6 | R7 R8 | K1 K2 | K3 K4 | K5 K6 | K7 K8"):
        a = could_lay("", after)
        assert a.possible and not a.exact
        mine = [Counter(map(str, m)) for m in parse_table(after)]
        laid = [Counter(map(str, m)) for m in a.arrangement]
        mine += [Counter()] * (len(laid) - len(mine))
        laid += [Counter()] * (len(mine) - len(laid))
        most = max(sum(sum((laid[j] & mine[i]).values()) for j, i in enumerate(p))
                   for p in permutations(range(len(mine))))
        assert len(a.moves) == sum(sum(m.values()) for m in mine) - most
        # and each move names the meld its tile truly leaves: where both copies of a tile
        # move (K2 to K7 on the first table), each copy from a meld that held one
        near = SimpleNamespace(table=a.arrangement, moves=a.moves, fewest=a.fewest)
        _assert_sound(parse_table(after), [], near, brute_fewest(list(parse_table(after)), []))


def _best_by_brute_force(weight):
    """The most a one-to-one matching of rows with columns can weigh: every way to give each
    row of the shorter side its own column of the longer."""
    from itertools import permutations

    rows, cols = len(weight), len(weight[0]) if weight else 0
    if rows <= cols:
        return max(sum(weight[r][c] for r, c in enumerate(p))
                   for p in permutations(range(cols), rows))
    return max(sum(weight[r][c] for c, r in enumerate(p))
               for p in permutations(range(rows), cols))


def test_best_assignment_matches_rows_and_columns_at_best():
    """The matching behind a search cut short (its table's melds with the player's): one to
    one, every row or every column matched, and weighing the most of any matching, checked
    against every matching on small tables of overlaps (ties, zeros, more rows or more
    columns)."""
    assert best_assignment([]) == {} and best_assignment([[]]) == {}
    # hand-worked: greedily, row 0 would take its 5 and leave row 1 its 0 (5 in all); at best
    # row 0 takes its 4 and row 1 the 5 it can have only in column 0 (9)
    assert best_assignment([[5, 4], [5, 0]]) == {0: 1, 1: 0}
    # more rows than columns: the heavier row gets the column
    assert best_assignment([[1], [3], [2]]) == {1: 0}
    assert best_assignment([[1, 3, 2]]) == {0: 1}
    rng = random.Random(13)
    for _ in range(400):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        top = rng.choice([1, 3, 9])
        weight = [[rng.randint(0, top) for _ in range(cols)] for _ in range(rows)]
        got = best_assignment(weight)
        assert len(got) == min(rows, cols), weight
        assert set(got) <= set(range(rows)) and set(got.values()) <= set(range(cols))
        assert len(set(got.values())) == len(got), weight  # one row a column
        assert sum(weight[r][c] for r, c in got.items()) == _best_by_brute_force(weight), weight


def test_could_lay_marks_the_tiles_to_move():
    a = could_lay("K1 K2 K3 | R5 R6 R7", "K1 K2 | K3 R5 R6 R7 | B9 O9 K9")
    assert a.possible and not a.as_laid
    d = a.to_dict()
    assert d["moves"] == [{"tile": "K3", "from": "K3 R5 R6 R7", "to": "K1 K2 K3"}]
    assert d["tiles_to_move"] == 1 and d["fewest_possible"] == 1 and d["exact"]
    assert "move 1 tile (K3 from K3 R5 R6 R7 to K1 K2 K3)" in a.answer
    # a tile taken off the table goes back, and counts as moved
    a = could_lay("R3 R4 R5 R6", "R3 R4 R5")
    assert a.possible and [str(t) for t in a.moved] == ["R6"] and a.moves[0][1] is None
    # the earlier answer shapes stay
    assert could_lay("R3 R4 R5", "R3 R4 R5 | K1 K2").possible is False
    assert could_lay("R3 R4 R5", "R3 R4 R5 R6").as_laid


def test_a_search_out_of_steps_states_its_bound():
    table = parse_table("R1 R2 | R3 R4 | R5 R6 | K1 K2 | K3 K4 | K5 K6")
    near = nearest_table(list(table), [], ANY, budget=5)
    assert near is not None and len(near.moves) >= near.fewest
    full = nearest_table(list(table), [], ANY)
    assert full.exact and len(full.moves) <= len(near.moves)


def test_could_lay_says_no_with_the_preset_s_penalty():
    # 000: "the offending player must return all sets on the table to their original state,
    # and pick up three tiles as a penalty"; K1 K2 cannot be laid with R3 R4 R5 at all
    a = could_lay("R3 R4 R5", "R3 R4 R5 | K1 K2", "pressman-1998")
    assert a.possible is False and a.arrangement is None
    assert a.answer == "No: restore the table as it was and draw 3 tiles (Pressman 1998 (US))."
    d = a.to_dict()
    assert (d["arrangement"], d["melds"], d["moves"], d["as_laid"]) == (None, None, [], False)
    one = get_rules("sabra").replace(failed_turn_draw=1)
    assert could_lay("R3 R4 R5", "R3 R4 R5 | K1 K2", one).answer.startswith(
        "No: restore the table as it was and draw 1 tile (")


def test_could_lay_answers_in_words_what_to_move():
    # 000: "At the end of the turn, all played tiles must be in valid sets." R3 went into
    # the group K5 B5 O5: back to R1 R2 it goes, one tile moved
    a = could_lay("R1 R2 R3 | K5 B5 O5 R5", "R1 R2 | R3 K5 B5 O5 | R5 R6 R7")
    assert a.answer == ("Yes: move 1 tile (R3 from R3 K5 B5 O5 to R1 R2 R3) and the table is "
                        "valid: R1 R2 R3 | K5 B5 O5 | R5 R6 R7.")
    assert a.to_dict()["melds"] == ["R1 R2 R3", "K5 B5 O5", "R5 R6 R7"]
    # two tiles: "tiles"
    a = could_lay("R1 R2 R3 R4 | K7 B7 O7", "R1 R2 | R3 R4 K7 B7 O7")
    assert a.possible and len(a.moves) == 2 and "move 2 tiles (" in a.answer
    # 000: "At the end of each turn, all sets on the table must be valid"; tiles on the table
    # stay there: R6 taken off goes back
    a = could_lay("R3 R4 R5 R6", "R3 R4 R5")
    assert a.answer == ("Yes, with the tiles taken put back (R6): move 1 tile (R6 back into "
                        "R3 R4 R5 R6): R3 R4 R5 R6.")
    assert a.to_dict()["moves"] == [{"tile": "R6", "from": None, "to": "R3 R4 R5 R6"}]
    # a valid table as laid, nothing taken
    a = could_lay("R3 R4 R5", "R3 R4 R5 R6")
    assert a.answer == "Yes, and they were: every meld on the table is valid as laid."
    assert str(a.arrangement) == "R3 R4 R5 R6" and a.moves == ()
    # valid melds after, but a tile taken: not as laid
    assert not could_lay("R3 R4 R5 | K1 K2 K3 K4", "R3 R4 R5 | K1 K2 K3").as_laid


def test_could_lay_refuses_a_reading_no_set_can_hold():
    # three R7s between the two tables: a misreading, neither yes nor no
    a = could_lay("R7 R7", "R7 R7 | R7 R8 R9")
    assert a.possible is None and a.arrangement is None
    assert a.answer == ("The reading is not a real set of tiles (R7: a third R7 in the tiles "
                        "of this turn; a set has only 2 of each tile); correct it first.")
    # two R7s before, the same two after: a real set
    assert could_lay("R7 R7", "R7 R8 R9 | R5 R6 R7").possible is True


def test_could_lay_as_json_names_every_tile_to_move():
    # what the live page's dispute view reads: R7 was taken off the table (000: "At the end
    # of the turn, all played tiles must be in valid sets" - those on it stay), R3 R4 went
    # into the group and go back to their run
    a = could_lay("R1 R2 R3 R4 | K7 B7 O7 R7", "R1 R2 | R3 R4 K7 B7 O7")
    assert a.as_laid is False
    assert a.to_dict() == {
        "question": "Could these tiles have been laid validly?", "possible": True,
        "arrangement": "R1 R2 R3 R4 | K7 B7 O7 R7", "melds": ["R1 R2 R3 R4", "K7 B7 O7 R7"],
        "as_laid": False,
        "answer": "Yes, with the tiles taken put back (R7): move 3 tiles (R3 from R3 R4 K7 B7 "
                  "O7 to R1 R2 R3 R4; R4 from R3 R4 K7 B7 O7 to R1 R2 R3 R4; R7 back into "
                  "K7 B7 O7 R7): R1 R2 R3 R4 | K7 B7 O7 R7.",
        "moved": ["R3", "R4", "R7"],
        "moves": [{"tile": "R3", "from": "R3 R4 K7 B7 O7", "to": "R1 R2 R3 R4"},
                  {"tile": "R4", "from": "R3 R4 K7 B7 O7", "to": "R1 R2 R3 R4"},
                  {"tile": "R7", "from": None, "to": "K7 B7 O7 R7"}],
        "tiles_to_move": 3, "fewest_possible": 3, "exact": True}


def test_could_lay_judges_under_the_rules_given():
    # 000: "Runs are composed of three or more, same-colored tiles, in consecutive number
    # order." Under strict order R5 R4 R6 is not valid as laid; no tile need change meld
    strict = get_rules().replace(meld_order="as-laid")
    a = could_lay("", "R5 R4 R6", strict)
    assert a.possible is True and a.as_laid is False and a.moves == ()
    assert a.answer == "Yes: lay each meld's tiles in sequence and the table is valid: R4 R5 R6."
    assert could_lay("", "R5 R4 R6").as_laid is True


def test_a_misread_table_before_is_named_as_the_turn_s_tiles():
    a = could_lay("R7 R7 R7", "R7 R7 R7 R8")
    assert a.possible is None and a.as_laid is False
    assert a.answer == ("The reading is not a real set of tiles (R7: a third R7 in the tiles "
                        "of this turn; a set has only 2 of each tile); correct it first.")


def test_the_nearest_table_lays_each_meld_in_its_natural_order():
    # a run ascending with its joker in the place it stands for, a group by colour (K B O R)
    # with its jokers last: the arrangement a person copies onto the table
    a = could_lay("", "R4 R6 | J K9 B9 O9 R9")
    assert str(a.arrangement) == "R4 J R6 | K9 B9 O9 R9" and len(a.moves) == 1
    a = could_lay("", "K9 B9 | J R4 R5 R6 R7 R9")
    assert str(a.arrangement) == "K9 B9 R9 | R4 R5 R6 R7 J" and len(a.moves) == 1
