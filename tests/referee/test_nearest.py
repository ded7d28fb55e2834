"""The dispute view's nearest valid table: the fewest tiles moved, against a brute force that
tries every valid arrangement and every way to match its melds to the player's."""

import itertools
import random
from collections import Counter
from functools import lru_cache


from referee import COLOURS, JOKER, Tile, check_meld, could_lay, get_rules, parse_table
from referee.nearest import nearest_table

ANY = get_rules().replace(meld_order="any")


@lru_cache(maxsize=None)
def _valid(key):
    return check_meld(list(key), ANY).ok


@lru_cache(maxsize=None)
def _partitions(key):
    if not key:
        return ((),)
    first, rest = key[0], key[1:]
    out, seen = [], set()
    for size in range(2, len(rest) + 1):
        for idx in itertools.combinations(range(len(rest)), size):
            meld = tuple(sorted((first,) + tuple(rest[i] for i in idx)))
            if meld in seen or not _valid(meld):
                continue
            seen.add(meld)
            left = tuple(t for i, t in enumerate(rest) if i not in idx)
            out += [(meld,) + more for more in _partitions(left)]
    return tuple(out)


def brute_fewest(melds, loose):
    """The fewest tiles any valid arrangement moves (None: no valid arrangement)."""
    tiles = tuple(sorted([str(t) for m in melds for t in m] + [str(t) for t in loose]))
    player = [Counter(str(t) for t in m) for m in melds]
    best = None
    for arrangement in _partitions(tiles):
        out = [Counter(m) for m in arrangement]
        kept = 0
        k = max(len(out), len(player))
        for perm in itertools.permutations(range(k), len(player)):
            kept = max(kept, sum(sum((player[i] & out[j]).values())
                                 for i, j in enumerate(perm) if j < len(out)))
        moved = len(tiles) - kept
        best = moved if best is None else min(best, moved)
    return best


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
