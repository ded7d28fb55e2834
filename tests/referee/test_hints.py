"""Hints under each preset's joker rules: always a legal turn, never "draw" when a legal play
exists, and as good as the best legal turn a brute force finds on small tables.

The brute force tries every way to lay the table tiles and any part of the rack as melds,
every reading of each meld (a run laid in order with its jokers in place, or a group), and
asks ``check_turn`` (the judge a player's turn faces) whether the turn is legal. A joker may
so land in any meld: every retrieval, the freed joker in every possible new set, is tried.
"""

import itertools
import random
from collections import Counter
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import COLOURS, JOKER, PRESETS, Tile, best_move, check_turn, parse_table, parse_tiles

PRESET_NAMES = ["sabra", "sabra-way", "pressman-1998", "tournament"]

from tests.referee.random_tables import random_meld, random_rack, random_table_with_jokers


@lru_cache(maxsize=None)
def _layouts(key):
    """Every laid form of a multiset of tiles (sorted tokens) that makes a valid meld: a run
    in ascending order with its jokers in the gaps (every window of numbers), or a group."""
    tiles = parse_tiles(list(key), check=False)
    real = [t for t in tiles if not t.is_joker]
    jokers, n = len(tiles) - len(real), len(tiles)
    out = set()
    if real and len({t.number for t in real}) == 1 and len({t.colour for t in real}) == len(real) \
            and n <= 4:
        out.add(tuple(sorted(str(t) for t in real)) + ("J",) * jokers)
    if real and len({t.colour for t in real}) == 1 and len({t.number for t in real}) == len(real):
        nums = {t.number for t in real}
        colour = real[0].colour
        for lo in range(max(1, max(nums) - n + 1), min(nums) + 1):
            if lo + n - 1 <= 13:
                out.add(tuple(str(Tile(colour, k)) if k in nums else "J"
                              for k in range(lo, lo + n)))
    if n < 3:
        return ()
    return tuple(sorted(out))


@lru_cache(maxsize=None)
def _partitions(key):
    """Every way to lay all these tiles as valid melds: lists of laid melds."""
    if not key:
        return ((),)
    first, rest = key[0], key[1:]
    out = []
    seen = set()
    for size in range(2, min(len(rest), 12) + 1):
        for idx in itertools.combinations(range(len(rest)), size):
            meld = (first,) + tuple(rest[i] for i in idx)
            if meld in seen:
                continue
            seen.add(meld)
            layouts = _layouts(tuple(sorted(meld)))
            if not layouts:
                continue
            left = tuple(t for i, t in enumerate(rest) if i not in idx)
            for more in _partitions(left):
                out += [(lay,) + more for lay in layouts]
    return tuple(out)


def brute_best(table, rack, rules, jokers_before=None):
    """(tiles placed, points) of the best legal turn, (0, 0) when only drawing is legal;
    ``jokers_before``: what the table's jokers were declared to stand for."""
    table_tokens = [str(t) for t in table.tiles]
    best = (0, 0)
    rack_tokens = sorted(str(t) for t in rack)
    seen = set()
    for r in range(len(rack_tokens), 0, -1):
        for sub in itertools.combinations(rack_tokens, r):
            if sub in seen:
                continue
            seen.add(sub)
            value = (len(sub), sum(rules.joker_penalty if t == "J" else int(t[1:]) for t in sub))
            if value <= best:
                continue
            for melds in _partitions(tuple(sorted(table_tokens + list(sub)))):
                after = " | ".join(" ".join(m) for m in melds)
                if check_turn(table, after, rack, rules=rules, jokers_before=jokers_before).legal:
                    best = value
                    break
    return best


def held_to_brute_force(preset, table, rack, must_be_best=False):
    """The hint for ``rack`` on ``table`` under ``preset``: a legal turn, never more than the
    brute force's best, and that best where it is proven (or where ``must_be_best``)."""
    rules = PRESETS[preset]
    move = best_move(table, rack, rules, cpu_limit=None)  # a busy machine must not cut it
    verdict = check_turn(table, move.table, rack, rules=rules)
    assert verdict.legal, f"{preset}: {table} + {rack}: {move.table}\n{verdict.summary()}"
    got, best = (len(move.placed), move.points), brute_best(table, rack, rules)
    assert got <= best
    if move.exact or must_be_best:
        assert got == best, f"{preset}: {table} + {rack}: hint {move.table} {got}, best {best}"
    return move, best


def hint_beside_worked_out(table, rack, rules, after):
    """The hint for ``rack`` on ``table``, checked legal, after checking that ``after``, the
    turn a test worked out by hand from the rule texts, is legal too; the test then compares
    the two. No CPU limit: a busy machine must not cut the search."""
    assert check_turn(table, after, rack, rules=rules).legal, f"worked-out turn: {after}"
    move = best_move(table, rack, rules, cpu_limit=None)
    verdict = check_turn(table, move.table, rack, rules=rules)
    assert verdict.legal, f"{table} + {rack}: {move.table}\n{verdict.summary()}"
    return move


def drawn_hints_held_to_brute_force(draw, preset, seed, count, must_be_best):
    """``count`` tables drawn by ``draw(rng)`` (None: draw again), each hint held to the brute
    force (:func:`held_to_brute_force`; ``must_be_best(table, rack)``)."""
    rng = random.Random(seed)
    compared = 0
    while compared < count:
        drawn = draw(rng)
        if drawn is None:
            continue
        table, rack = drawn
        held_to_brute_force(preset, table, rack, must_be_best(table, rack))
        compared += 1


def _small_case(rng):
    """A table of one or two melds, one holding a joker, and a rack of 1-3 tiles nearby."""
    colour = rng.choice(COLOURS)
    start = rng.randint(1, 9)
    if rng.random() < 0.5:
        meld = [Tile(colour, n) for n in range(start, start + rng.randint(3, 4))]
    else:
        number = rng.randint(1, 13)
        meld = [Tile(c, number) for c in rng.sample(COLOURS, rng.randint(3, 4))]
    for _ in range(rng.choice((1, 1, 2))):
        i = rng.randrange(len(meld))
        if sum(1 for t in meld if not t.is_joker) > 1:
            meld[i] = JOKER
    melds = [meld]
    if rng.random() < 0.4:
        c2, s2 = rng.choice(COLOURS), rng.randint(1, 11)
        melds.append([Tile(c2, n) for n in range(s2, s2 + 3)])
    rack = rng.sample(nearby_tiles(melds), rng.randint(1, 4))
    return parse_table([" ".join(map(str, m)) for m in melds]), rack


def nearby_tiles(melds, more=()) -> list:
    """The tiles of the set not in ``melds`` whose numbers lie within two of theirs, the
    jokers not on the table, and ``more`` (tiles drawn more often: listed again)."""
    used = Counter(t for m in melds for t in m)
    numbers = [t.number for m in melds for t in m if not t.is_joker]
    lo, hi = max(1, min(numbers) - 2), min(13, max(numbers) + 2)
    pool = [Tile(c, n) for c in COLOURS for n in range(lo, hi + 1)
            for _ in range(2 - used[Tile(c, n)])]
    return pool + [t for t in more for _ in range(2 - used[t])] + [JOKER] * (2 - used[JOKER])


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_hints_are_the_best_legal_turn_on_small_tables(preset):
    rules = PRESETS[preset]
    rng = random.Random(f"brute-{preset}")
    compared = exact = 0
    for _ in range(150):
        table, rack = _small_case(rng)
        move = best_move(table, rack, rules, cpu_limit=None)  # a busy machine must not cut it
        got = (len(move.placed), move.points)
        verdict = check_turn(table, move.table, rack, rules=rules)
        assert verdict.legal, f"{table} + {rack}: {move.table}\n{verdict.summary()}"
        best = brute_best(table, rack, rules)
        if move.exact:
            assert got == best, f"{preset}: {table} + {rack}: hint {move.table} {got}, best {best}"
            exact += 1
        else:
            assert got <= best
        if best > (0, 0):
            assert move.placed, f"{preset}: {table} + {rack}: draw, but {best} is legal"
        compared += 1
    assert exact >= compared * 3 // 4  # most hints are proven best


@st.composite
def tables_with_jokers(draw):
    """A valid table of 3-7 random runs and groups, one or two tiles swapped for jokers, and
    a rack from the tiles left."""
    rng = random.Random(draw(st.integers(0, 10 ** 9)))
    melds, free = random_table_with_jokers(rng, longest_run=6)
    rack = random_rack(rng, free, 1)
    return parse_table([" ".join(map(str, m)) for m in melds]), rack


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(tables_with_jokers(), st.sampled_from(PRESET_NAMES))
def test_every_hint_passes_check_turn(case, preset):
    table, rack = case
    rules = PRESETS[preset]
    move = best_move(table, rack, rules)
    verdict = check_turn(table, move.table, rack, rules=rules)
    assert verdict.legal, f"{table} + {rack}: {move.table}\n{verdict.summary()}"
    assert sorted(move.table.tiles) == sorted(list(table.tiles) + list(move.placed))
    assert move.draws or move.steps


@st.composite
def retrieval_cases(draw):
    """A small table with a joker meld (a run or group, one or two jokers) and maybe one more
    meld, and a rack that often holds the tile a joker stands for and two tiles a freed joker
    could make a new set with: the cases where the best turn retrieves a joker."""
    rng = random.Random(draw(st.integers(0, 10 ** 9)))
    used = Counter()
    meld = random_meld(rng)
    slots = rng.sample(range(len(meld)), 2 if len(meld) == 4 and rng.random() < 0.25 else 1)
    stood = [meld[i] for i in slots]
    for i in slots:
        meld[i] = JOKER
    melds = [meld]
    used.update(t for t in meld if not t.is_joker)
    if rng.random() < 0.5:
        if rng.random() < 0.5:
            colour, start = rng.choice(COLOURS), rng.randint(1, 11)
            other = [Tile(colour, n) for n in range(start, start + 3)]
        else:
            number = rng.randint(1, 13)
            other = [Tile(c, number) for c in rng.sample(COLOURS, 3)]
        if all(used[t] < 2 for t in other):
            melds.append(other)
            used.update(other)
    rack = []

    def give(t):
        if used[t] < 2:
            used[t] += 1
            rack.append(t)

    if rng.random() < 0.85:
        give(rng.choice(stood))
    c1, c2 = rng.sample(COLOURS, 2)
    n = rng.randint(1, 12)
    pair = rng.choice([(Tile(c1, n), Tile(c1, n + 1)), (Tile(c1, n), Tile(c2, n)),
                       (Tile(c1, max(1, n - 1)), Tile(c1, min(13, n + 1)))])
    for t in pair:
        give(t)
    if rng.random() < 0.4:
        give(Tile(rng.choice(COLOURS), rng.randint(1, 13)))
    if not rack:
        give(Tile(c2, 13))
    return parse_table([" ".join(map(str, m)) for m in melds]), rack


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(retrieval_cases(), st.sampled_from(PRESET_NAMES))
def test_hints_find_the_best_turn_retrievals_included(case, preset):
    # The brute force lays the table and every part of the rack in every way, a freed joker
    # in every possible new set, and keeps what check_turn finds legal: the hint must lay as
    # many rack tiles (and points) as the best of those, and never say draw when one exists.
    table, rack = case
    rules = PRESETS[preset]
    move = best_move(table, rack, rules, cpu_limit=None)  # a busy machine must not cut it
    verdict = check_turn(table, move.table, rack, rules=rules)
    assert verdict.legal, f"{table} + {rack}: {move.table}\n{verdict.summary()}"
    best = brute_best(table, rack, rules)
    got = (len(move.placed), move.points)
    assert got == best, f"{preset}: {table} + {rack}: hint {move.table} {got}, best {best}"
    if sum(t.is_joker for t in list(table.tiles) + list(rack)) == 1:
        # one joker: the search covers every turn, so it says the hint is the best
        assert move.exact, f"{preset}: {table} + {rack}: hint {move.table} not proven best"


def test_the_issues_examples():
    # tournament: K5 B5 J + O5: the joker stays (now R5) in a group of four (003: "A set
    # containing a joker can have tiles added to it")
    move = best_move("K5 B5 J", "O5 R9 R10", "tournament")
    assert [str(t) for t in move.placed] == ["O5"] and move.exact
    # sabra: J K4 K5 K6 + R1 R2: R1 R2 J would take the joker without K3: draw
    move = best_move("J K4 K5 K6", "R1 R2", "sabra")
    assert move.draws and move.exact
    # every preset: R5 frees the joker of R3 R4 J (000: "A player with a tile matching the
    # color and value of a joker may replace the joker with that tile."), which goes with
    # K10 K11 from the rack into a new set (000: "The joker must be played that same turn in a
    # set with at least two other tiles from the player's rack"; 003: "as part of a new set")
    for preset in PRESET_NAMES:
        move = best_move("R3 R4 J | K9 B9 O9", "R5 K10 K11", preset)
        assert sorted(map(str, move.placed)) == ["K10", "K11", "R5"] and move.exact, preset
        assert [s.text for s in move.steps] == [
            "swap the joker in R3 R4 J for your R5, then lay it with K10 K11"], preset
    # a hint that retrieves a joker, told as steps
    move = best_move("R4 J R6 | B6 B7 B8 B9 B10", "R5 K9 B9 B8", "pressman-1998")
    assert len(move.placed) == 4
    assert [s.text for s in move.steps][:2] == [
        "swap the joker in R4 J R6 for your R5, then lay it with K9 B9", "split B6…B10 at B8"]
    assert move.to_dict()["steps"][0]["action"] == "swap"


def test_a_search_cut_by_the_cpu_limit_still_gives_a_legal_turn_and_says_it_is_not_proven():
    # with no time at all, the turn that leaves the joker meld as it lies is still tried:
    # R6 goes on R3 R4 R5; the retrieval (R5 for the joker, J K10 K11) is not reached
    table, rack = "R3 R4 J | K9 B9 O9 | R3 R4 R5", "R5 K10 K11 R6"
    move = best_move(table, rack, "sabra", cpu_limit=0)
    assert check_turn(table, move.table, rack, rules="sabra").legal
    assert not move.exact and move.placed
    full = best_move(table, rack, "sabra", cpu_limit=None)
    assert full.exact and len(full.placed) == 4 and len(move.placed) < 4


@pytest.mark.parametrize("table, rack, preset, best", [
    # the only tile to lay is the rack's joker (J K3 K4 J: K2-K5); a bound that left the
    # rack jokers out would say nothing beats the turn found first (draw)
    ("J K3 K4", "R6 J", "sabra", (1, 30)),
    # R4 goes on J J R3 (004: "You can add a tile to a meld containing a Joker, either the
    # fourth tile in a group or to either end of a run"): 4 points, where a bound a point
    # short would settle for B3 (3 points)
    ("J J R3", "R4 K5 B3", "sabra-way", (1, 4)),
    # R3 frees the joker of O3 J K3 B3 (003: "The tile used to replace the joker can come
    # from the player's rack or from the table"), which goes with the rack's joker and B5
    # into a new set (003: "must be used in the player's same turn as part of a new set"):
    # 38 points, where J R2 R3 beside the meld as it lies makes 35
    ("O3 J K3 B3", "R3 R2 B5 J", "tournament", (3, 38)),
])
def test_a_solve_that_can_just_beat_the_best_found_is_still_searched(table, rack, preset, best):
    # The hint search asks each solve only for more than the best turn found, and answers
    # at once where laying every optional tile and joker would not be more. These hints
    # beat the turn found first by laying everything they can: the bound must let them
    # through. The brute force (every layout of table and rack, judged by check_turn) agrees.
    rules = PRESETS[preset]
    move = best_move(table, rack, rules, cpu_limit=None)
    assert (len(move.placed), move.points) == best and move.exact, move.table
    assert brute_best(parse_table(table), parse_tiles(rack), rules) == best
    assert check_turn(table, move.table, rack, rules=rules).legal


#: tournament: K9 frees the run's joker (it stands for K9 as laid), which joins the rack's
#: O11 K11 R11 as their fourth (003: "part of a new set"): 4 tiles, 42 points, the four
#: heaviest. No fifth: a second O5 or O8 needs O5 O6 O7 O8 split where no run of three is
#: left on both sides, or a joker beside it, and the freed joker cannot join O5 or O8
#: beside K5 or K8 (tiles of its own set); the other joker, of the group K4 O4 J, goes only
#: for both B4 and R4 (004). O5 and O8 lie both on the rack and the table, so the freed
#: joker's sets are tried with their tiles from either.
RACK_OR_TABLE = ("K5 K6 K7 K8 J | K4 O4 J | B4 B5 B6 | O5 O6 O7 O8", "K9 O11 K11 O5 O8 R11",
                 "tournament",
                 "K5 K6 K7 K8 K9 | K4 O4 J | B4 B5 B6 | O5 O6 O7 O8 | O11 K11 R11 J", (4, 42))


def test_a_freed_joker_whose_sets_could_take_tiles_from_the_rack_or_the_table():
    table, rack, preset, after, best = RACK_OR_TABLE
    move = hint_beside_worked_out(table, rack, PRESETS[preset], after)
    assert (len(move.placed), move.points) == best, move.table
    # proven or not, the API says so with a boolean (JSON true or false, never null)
    assert isinstance(move.exact, bool) and isinstance(move.to_dict()["exact"], bool)


@pytest.mark.slow
def test_a_freed_joker_whose_sets_could_take_tiles_from_the_rack_or_the_table_brute():
    table, rack, preset, _, best = RACK_OR_TABLE  # the brute force: 35 s of CPU
    assert brute_best(parse_table(table), parse_tiles(rack), PRESETS[preset]) == best


def test_a_hint_to_draw_leaves_the_table_as_it_lies():
    # sabra: R1 R2 could go down only as R1 R2 J with the joker of J K4 K5 K6, which stands
    # for K3 (003: taken only for its tile, K3, not on the rack); B7 B8 B9 takes neither.
    # The hint is to draw, and a player who draws moves nothing: the table comes back as
    # given, its melds in their order, with no steps.
    table = parse_table("B7 B8 B9 | J K4 K5 K6")
    move = best_move(table, "R1 R2", "sabra", cpu_limit=None)
    assert move.draws and move.exact and move.steps == ()
    assert move.table == table and str(move.table) == "B7 B8 B9 | J K4 K5 K6"


def test_a_hint_from_the_joker_search_says_what_stays_on_the_rack():
    # sabra: K7 goes on J K4 K5 K6, whose joker stays K3 (003: "A set containing a joker can
    # have tiles added to it"); R1 R2 could go down only as R1 R2 J with that joker, which is
    # taken only for its tile, K3, not on the rack; O13 fits nowhere. The hint lays K7
    # (1 tile, 7 points) and the player keeps R1 R2 O13.
    table, rack, rules = "J K4 K5 K6", "R1 R2 K7 O13", PRESETS["sabra"]
    assert brute_best(parse_table(table), parse_tiles(rack), rules) == (1, 7)
    move = hint_beside_worked_out(table, rack, rules, "J K4 K5 K6 K7")
    assert [str(t) for t in move.placed] == ["K7"] and move.exact, move.table
    assert sorted(map(str, move.remaining)) == ["O13", "R1", "R2"]


def test_a_hint_as_good_as_the_free_move_with_the_joker_melds_untouched_is_proven():
    # sabra-way: the joker of R9 J K9 B9 stands for O9 (not on the rack), and a meld holding
    # a joker may only be added to (004), which a group of four cannot be. The rack lays
    # K8 R8 J (its own joker, 30 points on the rack: 46) rather than R7 R8 J (45); K8 and
    # R7 never go down together. The free move (jokers anywhere, the bound) is no legal
    # turn here, and the turn that leaves R9 J K9 B9 as it lies lays as much: it reaches
    # the bound, so the hint is proven best.
    table, rack, rules = "R9 J K9 B9", "R7 K8 R8 J", PRESETS["sabra-way"]
    assert brute_best(parse_table(table), parse_tiles(rack), rules) == (3, 46)
    move = hint_beside_worked_out(table, rack, rules, "R9 J K9 B9 | K8 R8 J")
    assert (len(move.placed), move.points, move.exact) == (3, 46, True), move.table


def test_the_rack_joker_alone_is_laid_when_nothing_else_fits():
    # sabra-way: the group O2 J R2 B2 is full and may only be added to (004), and its
    # joker stands for K2, not on the rack. The rack's joker goes on B4 B5 B6 (as B3 or
    # B7): 1 tile, worth its 30 points on the rack. R3 and O6 fit nowhere, even beside that
    # joker (R3 J or O6 J would need a third tile). Laying the joker beats drawing.
    table, rack, rules = "O2 J R2 B2 | B4 B5 B6", "R3 O6 J", PRESETS["sabra-way"]
    assert brute_best(parse_table(table), parse_tiles(rack), rules) == (1, 30)
    move = hint_beside_worked_out(table, rack, rules, "O2 J R2 B2 | B4 B5 B6 J")
    assert [str(t) for t in move.placed] == ["J"] and move.points == 30, move.table


@pytest.mark.parametrize("preset, best", [
    # 003: the joker "can be retrieved ... by placing it with a tile of the same numerical
    # value and colour it represents" (O6) and "must be used in the player's same turn as
    # part of a new set": J with K9 and B9, which lay in different melds (a new set); K10
    # B10 take O10: both rack tiles, 16 points
    ("sabra", (2, 16)), ("tournament", (2, 16)),
    # 004: the joker must be used "with 2 more tiles from your hand", and "a meld containing
    # a joker may not be manipulated": K9 B9 (or K10 B10) can take no third tile from the
    # rack, so only drawing is legal
    ("sabra-way", (0, 0)), ("pressman-1998", (0, 0)),
])
def test_a_table_read_with_melds_in_pieces_where_the_joker_melds_as_they_lie_leave_no_turn(
        preset, best):
    # K9 K10 | B9 B10: a table misread (or laid) with two pieces that are no melds, which the
    # hint accepts (the rack's tiles can complete it). With the joker meld as it lies, the
    # rest cannot be laid at all (no third 9), so the search's first turn (its floor) is no
    # turn: the search must still end on the best legal turn, drawing when there is none,
    # proven (the brute force agrees).
    table, rack = "O5 J O7 | K9 K10 | B9 B10", "O6 O10"
    move, brute = held_to_brute_force(preset, parse_table(table), parse_tiles(rack),
                                      must_be_best=True)
    assert brute == best and (len(move.placed), move.points) == best
    assert move.exact is True
    if best == (0, 0):
        assert str(move.table) == table  # a hint to draw leaves the table as it lies


def test_a_hint_with_one_joker_on_the_table_and_none_on_the_rack_is_proven():
    # The Sabra Way (004): "A meld containing a Joker may not be manipulated", and a joker is
    # taken only "in exchange for a tile of the same value from your hand" (here B10: not on
    # the rack). So B4-B9 J B11 stays as it lies, its B4 and B5 with it: K4 finds no other
    # 4 or K3, K5 only O5 (no third 5), B1 no B2 or third 1; O1 goes before O2 O3 O4 O5: 1
    # tile, 1 point. With one joker, on the table, and none on the rack, the search's places
    # cover every turn: the hint is proven the best.
    table, rack = "B4 B5 B6 B7 B8 B9 J B11 | O2 O3 O4 O5 | B8 B9 B10 B11 B12", "K4 K5 O1 B1"
    after = "B4 B5 B6 B7 B8 B9 J B11 | O1 O2 O3 O4 O5 | B8 B9 B10 B11 B12"
    move = hint_beside_worked_out(table, rack, PRESETS["sabra-way"], after)
    assert [str(t) for t in move.placed] == ["O1"] and move.points == 1
    assert move.exact is True
