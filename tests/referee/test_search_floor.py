"""The exact search asked only for better than a floor (``referee.search._lay``: "With a
``floor``: None as well when no melds are worth more than it"). The hint search's bounds and
proofs ask so (``joker_bounds``, ``joker_hints._solve``): a bound said to beat the best when
it does not leaves a hint unproven that is the best. Each rack's best is worked out by hand
and held to the brute force of ``tests/referee/oracles.py``; a laid tile weighs BIG plus its
points, a joker BIG plus the preset's penalty (``rack_weights``)."""

import pytest

from referee import check_meld, get_rules, parse_table
from referee.opening import rack_weights
from referee.search import BIG, MAX_NUMBER, NCOL, _beats_floor, _count_grid, _lay, _lay_valued

from .oracles import brute_best_move

RULES = get_rules()


def _problem(rack):
    """The search's grids for an open player's rack on an empty table (every tile optional),
    and the weight of the best melds, by the brute force."""
    tiles = list(parse_table(rack).tiles)
    grid, jokers = _count_grid(tiles)
    zero = [[0] * NCOL for _ in range(MAX_NUMBER)]
    weight, wj = rack_weights(MAX_NUMBER, RULES)
    laid, points = brute_best_move([], tiles, RULES)
    return (MAX_NUMBER, zero, grid, weight, 0, jokers, wj), laid * BIG + points


def _weight(melds):
    return sum(BIG + (RULES.joker_penalty if t.is_joker else t.number)
               for m in melds for t in m)


@pytest.mark.parametrize("rack, tiles, points", [
    # 002: a run is "three or more, same-colored tiles, in consecutive number order": K1 K2
    # K3 is laid, R9 fits nothing: 3 tiles, 6 points
    ("K1 K2 K3 R9", 3, 6),
    # 003: a group is "a set of either three or four tiles of the same number but in
    # different colours", so K5 B5 O5 R5 and the joker make no set of five; the joker
    # weighs more than a 5 ("The joker has a penalty value of 30", 002: what it saves the
    # player's rack), so the best is three of the 5s and the joker: 4 tiles, 45 points. The
    # search that lets jokers go anywhere counts all five laid, finds the joker fits
    # nowhere, and the search that places each joker decides: under a floor, that one too
    ("K5 B5 O5 R5 J", 4, 45),
])
def test_a_search_asked_for_better_than_its_best_answers_none(rack, tiles, points):
    args, best = _problem(rack)
    assert best == tiles * BIG + points  # the brute force agrees with the hand count
    # asked for more than one point less than the best: the best melds
    melds = _lay(*args, floor=best - 1)
    assert melds is not None and all(check_meld(m).ok for m in melds)
    assert _weight(melds) == best
    # asked for more than the best itself: nothing
    assert _lay(*args, floor=best) is None
    assert _lay(*args, floor=best + 5) is None
    value, melds = _lay_valued(*args, floor=best)
    assert melds is None
    # and with no floor, the best
    assert _weight(_lay(*args)) == best


def test_a_weight_above_the_floor_is_found_past_a_first_arrangement_below_it():
    """``_beats_floor`` (the hint search's bounds ask it, ``joker_bounds``): "None when the
    relaxed search lays nothing worth more than ``floor``, else a weight above the floor". K3
    goes either into the run K1 K2 K3 (002: "three or more, same-colored tiles, in consecutive
    number order") or into the group K3 B3 O3 (003: "three or four tiles of the same number but
    in different colours"), not both: 3 tiles either way, 6 or 9 points. Asked for more than
    the run, the group is there; asked for more than the group, nothing. (The run is what a
    search reading upward and laying every tile it can meets first.)"""
    args, best = _problem("K1 K2 K3 B3 O3")
    assert best == 3 * BIG + 9  # the brute force agrees with the hand count
    run = 3 * BIG + 1 + 2 + 3
    got = _beats_floor(*args, run)
    assert got is not None and run < got <= best
    assert _beats_floor(*args, best) is None
