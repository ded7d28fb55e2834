"""Hints on tables holding two joker melds, where the places the hint search tries do not
cover every turn (the two melds may merge, a freed joker may share a set with the joker that
stays): a hint is proven best only through its patterns' new sets (``referee.joker_proof``).
Every hint said to be proven must be the best legal turn the brute force of ``test_hints``
finds, including the turns whose value is exactly a bound the proof compares with."""

import random
from collections import Counter

import pytest

from referee import COLOURS, JOKER, PRESETS, Tile, best_move, check_turn, parse_table
from tests.referee.test_hints import PRESET_NAMES, brute_best


def _joker_meld(rng, colour=None, near=None):
    """A run or group of 3-4 tiles, one of them a joker, near ``near`` in number."""
    if rng.random() < 0.6:
        c = colour or rng.choice(COLOURS)
        start = rng.randint(1, 10) if near is None else max(1, min(10, near + rng.randint(-4, 4)))
        meld = [Tile(c, n) for n in range(start, start + rng.randint(3, 4)) if n <= 13]
    else:
        number = rng.randint(1, 13) if near is None else max(1, min(13, near + rng.randint(-1, 1)))
        meld = [Tile(c, number) for c in rng.sample(COLOURS, rng.randint(3, 4))]
    if len(meld) < 3:
        return None
    meld[rng.randrange(len(meld))] = JOKER
    return meld


def _two_joker_melds(rng):
    """Two melds holding a joker each, often of one colour or near in number (so that they
    can merge), and a rack of 1-4 tiles near them; None when the draw is not a table."""
    first = _joker_meld(rng)
    if first is None:
        return None
    real = [t for t in first if not t.is_joker]
    second = _joker_meld(rng, real[0].colour if rng.random() < 0.5 else None, real[0].number)
    if second is None:
        return None
    used = Counter(first + second)
    if any(k > 2 for k in used.values()):
        return None
    numbers = [t.number for t in real + second if not t.is_joker]
    lo, hi = max(1, min(numbers) - 2), min(13, max(numbers) + 2)
    pool = [Tile(c, n) for c in COLOURS for n in range(lo, hi + 1)
            for _ in range(2 - used[Tile(c, n)])]
    return [first, second], rng.sample(pool, rng.randint(1, 4))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_proven_hints_on_two_joker_melds_are_the_best_legal_turn(preset):
    rules = PRESETS[preset]
    rng = random.Random(f"two-joker-melds-{preset}")
    compared = exact = 0
    while compared < 30:
        drawn = _two_joker_melds(rng)
        if drawn is None:
            continue
        melds, rack = drawn
        table = parse_table([" ".join(map(str, m)) for m in melds])
        if not all(m.tiles for m in table):
            continue
        move = best_move(table, rack, rules, cpu_limit=None)  # a busy machine must not cut it
        assert check_turn(table, move.table, rack, rules=rules).legal
        got, best = (len(move.placed), move.points), brute_best(table, rack, rules)
        assert got <= best
        if move.exact:
            assert got == best, f"{preset}: {table} + {rack}: hint {move.table} {got}, best {best}"
            exact += 1
        compared += 1
    assert exact >= compared // 2  # the proof holds on most of them


def test_both_jokers_freed_into_new_sets_of_their_own_is_proven_by_pairs_of_sets():
    # each joker freed into a new set of its own with the rack's tiles (B10 O10 J): the
    # proof pairs every set of the one with every set of the other
    table, rack, preset = "B6 J R6 | B8 B9 J", "O6 O10 R11 B10 B5", "sabra-way"
    move = best_move(table, rack, preset, cpu_limit=None)
    assert check_turn(table, move.table, rack, rules=preset).legal
    assert (len(move.placed), move.points) == (3, 26) and move.exact
    assert brute_best(parse_table(table), rack.split(), PRESETS[preset]) == (3, 26)


def test_no_proof_from_a_joker_that_stays_as_a_third_copy_of_its_tile():
    # The best turn (2 tiles) keeps both jokers: one stands for K1 beside the two real K1s,
    # in a third group of 1s, which the exact search cannot lay with a third K1 tile. The
    # bounds of that pattern bound nothing, so the weaker turn found may not be called best.
    table, rack, preset = "J O1 B1 | R1 J K1 O1", "K1 B3 R1", "pressman-1998"
    move = best_move(table, rack, preset, cpu_limit=None)
    got = (len(move.placed), move.points)
    assert check_turn(table, move.table, rack, rules=preset).legal
    assert brute_best(parse_table(table), rack.split(), PRESETS[preset]) == (2, 2)
    assert got == (2, 2) or not move.exact, (move.table, got)


def test_the_bench_hint_whose_pairs_of_new_sets_end_its_search():
    # the bench's joker hint #24 (pressman-1998): the best turn found lays 15 of the 17 rack
    # tiles (103 points); its pattern freeing both jokers is then proven by pairs of new
    # sets and its other places and sets are skipped (it used to run to the time limit)
    table = ("K13 B13 R13 | K2 B2 R2 J | O5 O6 O7 O8 O9 J | O9 O10 O11 | K8 K9 K10 K11 K12 | "
             "K6 B6 O6 R6 | K8 B8 O8 R8")
    rack = "R3 K7 B2 O7 K4 O10 R10 O2 B12 R8 B6 B7 R4 O11 K7 B8 R9"
    move = best_move(table, rack, "pressman-1998", cpu_limit=None)
    assert check_turn(table, move.table, rack, rules="pressman-1998").legal
    assert (len(move.placed), move.points) == (15, 103)


def test_a_freed_joker_set_that_beats_the_best_fails_the_proof():
    # the bench's joker hint #7 (tournament): 9 rack tiles, 47 points, proven best by the
    # search exhausting its places (every search before the new-set proof said so too); a
    # proof that overlooked a new set of the freed joker whose bound beats a weaker turn
    # would stop at 44 points and call that the best
    table = ("B4 B5 B6 J | K4 K5 K6 K7 K8 | O9 O10 O11 O12 O13 | O8 O9 O10 O11 | K2 B2 R2 | "
             "R3 R4 R5 R6 J | B10 B11 B12 B13 | K13 B13 O13 R13")
    rack = "R11 O1 O4 K10 K1 O5 R8 R9 K3 O1 B7 B5 K5"
    move = best_move(table, rack, "tournament", cpu_limit=None)
    assert check_turn(table, move.table, rack, rules="tournament").legal
    assert (len(move.placed), move.points) == (9, 47) and move.exact


def _never_wrongly_proven(table, rack, preset, after, best):
    """``after`` is a legal turn laying the brute force's ``best``; the hint is legal and,
    where it is called proven best, is that best."""
    assert check_turn(table, after, rack, rules=preset).legal
    assert brute_best(parse_table(table), rack.split(), PRESETS[preset]) == best
    move = best_move(table, rack, preset, cpu_limit=None)
    got = (len(move.placed), move.points)
    assert check_turn(table, move.table, rack, rules=preset).legal
    assert got == best or not move.exact, (move.table, got)


def test_two_jokers_freed_into_sets_of_their_own_are_not_proven_by_the_sets_holding_both():
    # Two groups of 7s, a joker in each; the rack has no 7. The best turn moves each joker
    # into a run of its own: K7 J K9 | R5 R6 R7 J | O7 R7 K7 B7, laying K9 R5 R6 (3 tiles, 20
    # points: the rack's three heaviest; the two jokers cannot serve all four, as the brute
    # force confirms). The sets that
    # would hold both freed jokers at once all bound low: that proves nothing of the turns
    # with one joker in each of two sets, and a weaker turn must not be called the best.
    table, rack, preset = "O7 J R7 K7 | J K7 B7 R7", "K9 R5 B5 R6", "tournament"
    _never_wrongly_proven(table, rack, preset, "K7 J K9 | R5 R6 R7 J | O7 R7 K7 B7", (3, 20))


def test_one_freed_joker_is_proven_by_the_sets_of_one_joker():
    # sabra: B8 from the rack frees the joker of K8 J R8, which ends in a new set with two
    # rack tiles and an 8 of the group of four: K8 B8 R8 | O7 O8 J O10 | K8 B8 R8 | B9 O9 R9,
    # laying B8 O7 O10 (3 tiles, 25 points: no turn lays all four, as the brute force
    # confirms, and B8 B7 O10, the heaviest three, weigh as much). The proof of that
    # pattern must bound the sets holding one freed joker: sets listed as if holding two
    # prove a weaker turn (22 points) best.
    table, rack, preset = "K8 J R8 | B8 O8 R8 K8 | O9 B9 R9", "B8 O10 B7 O7", "sabra"
    _never_wrongly_proven(table, rack, preset,
                          "K8 B8 R8 | O7 O8 J O10 | K8 B8 R8 | B9 O9 R9", (3, 25))


def test_a_freed_joker_may_share_its_new_set_with_the_joker_that_stays():
    # tournament: B7 from the rack frees the joker of B5 B6 J B8; it ends in R4 J J beside
    # the joker that stays from R3 R4 R5 J: B6 B7 B8 | R4 J J | K3 O3 R3 | K5 B5 R5 lays the
    # whole rack (4 tiles, 18 points), so nothing beats it. A proof whose new sets may not
    # hold the staying joker bounds that pattern too low and calls a 3-tile turn the best.
    table, rack, preset = "B5 B6 J B8 | R3 R4 R5 J", "O3 B7 K3 K5", "tournament"
    _never_wrongly_proven(table, rack, preset,
                          "B6 B7 B8 | R4 J J | K3 O3 R3 | K5 B5 R5", (4, 18))


def _proven_best(table, rack, preset, after, best):
    """``after`` is a legal turn laying the brute force's ``best``; the hint lays as much and
    is proven best (with two jokers on the table only the proof by new sets proves it)."""
    assert check_turn(table, after, rack, rules=preset).legal
    assert brute_best(parse_table(table), rack.split(), PRESETS[preset]) == best
    move = best_move(table, rack, preset, cpu_limit=None)
    assert check_turn(table, move.table, rack, rules=preset).legal
    assert ((len(move.placed), move.points), move.exact) == (best, True), move.table


def test_a_draw_is_proven_best_by_the_new_sets():
    # pressman-1998: the rack's K9 frees the group's joker (it stands for K9: O, R and B are
    # there), but a freed joker must end in a new set with two other rack tiles (000), and
    # K11 R10 J is no meld; the run's joker (R8 or R11) has no tile on the rack, and K11, R10
    # fit no meld beside the table's tiles (R9 R10 twice would need a second joker). Nothing
    # can be laid: the hint is to draw, and it is proven so. A proof skipped when the best
    # turn found is a draw leaves it unproven.
    table, rack, preset = "J R9 R10 | O9 R9 B9 J", "K11 K9 R10", "pressman-1998"
    assert best_move(table, rack, preset, cpu_limit=None).draws
    _proven_best(table, rack, preset, table, (0, 0))


def test_a_pattern_freeing_one_joker_is_proven_by_its_new_sets():
    # pressman-1998: K11 ends the run K6 K7 K8 J K10 (the joker K9) and B5 joins K5 J R5,
    # whose joker stays as O5: 2 tiles, 16 points. B6 fits nowhere: B5 B6 J would need the
    # group's joker freed by that same B5 (its tile must lie beside K5 or R5), and the run's
    # joker needs K9 from the rack (000: from the rack only); a joker freed by B5 would need
    # a new set with two other rack tiles, and B6 K11 J is none. The patterns freeing one
    # joker must be proven by their new sets, not left unproven.
    table = "K5 J R5 | K6 K7 K8 J K10 | K9 K10 K11 K12 K13"
    rack, preset = "B5 B6 K11", "pressman-1998"
    _proven_best(table, rack, preset, "K5 J R5 B5 | K6 K7 K8 J K10 K11 | K9 K10 K11 K12 K13",
                 (2, 16))


def test_a_draw_is_proven_best_when_a_set_exactly_at_the_best_is_the_only_one():
    # sabra: B4 from the rack frees the joker of R4 K4 J O4 (it stands for B4), but the
    # freed joker needs a new set (003), and the rack has nothing more: beside R3 or K3 it
    # would make a set holding two tiles that lay together (R3 K3) or a meld of two. The
    # other joker stands for B3 or O3, neither on the rack, and B4 fits no meld otherwise.
    # Nothing can be laid; a set bounded at exactly the best turn (the draw) does not beat
    # it, so the draw is proven best.
    table, rack, preset = "R3 K3 J | R4 K4 J O4", "B4", "sabra"
    assert best_move(table, rack, preset, cpu_limit=None).draws
    _proven_best(table, rack, preset, table, (0, 0))


def test_a_proven_pattern_stays_proven_when_asked_again():
    # pressman-1998: K4 frees the joker of K3 J K5 and O4 the joker of J O5 O6 O7 O8 (as
    # laid it stands for O4); both freed jokers end in B7 R7 J J, a new set with two other
    # rack tiles (000): 4 tiles, 22 points. O5 fits nowhere: a second O5 needs O4 and a
    # joker or O6 twice, and a freed joker's set needs two other rack tiles, which O5 has
    # with O4 only (O4 O5 J), and that O4 must then lie beside O5...O8 to free anything.
    # The patterns proven once must stay proven, or this is left unproven.
    table, rack, preset = "K3 J K5 | J O5 O6 O7 O8", "K4 O4 B7 R7 O5", "pressman-1998"
    _proven_best(table, rack, preset, "K3 K4 K5 | O4 O5 O6 O7 O8 | B7 R7 J J", (4, 22))


def test_two_freed_jokers_of_a_pattern_each_keep_out_of_their_own_meld():
    # tournament: O3 frees the run's joker (003: the tile "it represents"), which goes to
    # K3 J K5; 3 tiles, 11 points. The joker of the group of three J B2 K2 is freed only by
    # both missing colours (004), O2 and R2, and there is no R2. B4 fits nowhere (B2 B3 B4
    # needs a B3; beside the freed joker as K4 it would need a third 4, and the run's O4
    # cannot leave O2 O3 O5). The patterns freeing both jokers are proven by their new
    # sets, each joker's sets keeping out of its own meld (a set of the group's freed joker
    # holding its B2 or K2 is no new set).
    _proven_best("O2 J O4 O5 | J B2 K2", "K3 O3 K5 B4", "tournament",
                 "K3 J K5 | O2 O3 O4 O5 | K2 B2 J", (3, 11))


def test_two_freed_jokers_in_one_new_set_are_bounded_before_the_pattern_is_proven():
    # The Sabra Way (004): K8 takes the joker of K5 K6 K7 J and R4 that of R2 R3 J R5 R6
    # ("in exchange for a tile of the same value from your hand"); each joker goes "with 2
    # more tiles from your hand": both in B6 B7 J J B10, beside the rack's B6 and B10 (the
    # B7 off B7 B8 B9 B10, "a meld which includes" no joker). 4 tiles, 28 points; K6 and
    # O12 fit nowhere. With each joker in a set of its own, the second set has no two rack
    # tiles left (K6 J K8 lays 4 tiles but 24 points). The pattern freeing both jokers is
    # proven only once the sets holding both are bounded: a proof skipping them calls the
    # 24-point turn the best.
    _proven_best("K5 K6 K7 J | R2 R3 J R5 R6 | B7 B8 B9 B10", "K8 R4 K6 B6 O12 B10",
                 "sabra-way", "K5 K6 K7 K8 | R2 R3 R4 R5 R6 | B6 B7 J J B10 | B8 B9 B10",
                 (4, 28))


def test_every_deferred_place_of_a_pattern_whose_proof_failed_is_still_tried():
    # pressman-1998 (000): K7 replaces the joker of B7 O7 J ("a tile matching the color
    # and value of a joker"), which is "played that same turn in a set with at least two
    # other tiles from the player's rack": J R4 R5. The other joker (an O7) stays in
    # J O8 O9 O10 (sets "may be manipulated"); its run's O6 joins K6 R6 and its O11 joins
    # K11 B11. The whole rack, 50 points. The pattern's proof by new sets fails in the
    # search's second pass; asked again at the same best before a waiting place's new sets
    # are tried, it must fail again, not pass (the hint then stopped at 6 tiles, unproven).
    table, rack, preset = ("B7 O7 J | O6 J O8 O9 O10 O11 | O5 O6 O7",
                           "K7 B11 K11 R6 K6 R4 R5", "pressman-1998")
    after = "K7 B7 O7 | J O8 O9 O10 | J R4 R5 | O5 O6 O7 | K6 O6 R6 | K11 B11 O11"
    assert check_turn(table, after, rack, rules=preset).legal
    move = best_move(table, rack, preset, cpu_limit=None)
    assert check_turn(table, move.table, rack, rules=preset).legal
    assert Counter(map(str, move.placed)) == Counter(rack.split()), move.table
    assert move.exact
