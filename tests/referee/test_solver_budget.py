"""A solve's budget is exact: a reading given a budget of N states finishes when it needs N
states or fewer, and stops when it needs more. The hint search races its two readings of
the numbers on these budgets, and which reading finishes first decides which of equally
good arrangements a hint gives (and the tables `bench/referee.py` draws), so a budget that
let one state more or fewer through would change hints without any test of their value
noticing. States are counted where the search looks up the moves of each state it visits
(once a state)."""

import random

import pytest

from referee import search as solver
from referee.opening import rack_weights
from referee.rules import get_rules
from referee.tiles import all_tiles


class _Counting(dict):
    looked = 0

    def get(self, key, default=None):
        _Counting.looked += 1
        return super().get(key, default)


def _problem(seed):
    """A hint-like question: a random table that must be laid, a rack that may be, asked
    only whether more than a floor can be laid (a bound's question: no arrangement built)."""
    rng = random.Random(seed)
    tiles = rng.sample([t for t in all_tiles() if not t.is_joker], 50)
    must, _ = solver._count_grid(tiles[:30])
    total, _ = solver._count_grid(tiles)
    weight, wj = rack_weights(13, get_rules("sabra"))
    return (13, must, total, weight, 0, 1, wj), 3 * solver.BIG


def _search(args, floor, budget):
    s = solver._Search(*args, relaxed=True, floor=floor, first=True)
    s.step_cache = [_Counting() for _ in s.step_cache]
    s.budget = budget
    return s


@pytest.mark.parametrize("seed", range(6))
def test_a_budget_of_n_states_lets_exactly_n_through(seed):
    args, floor = _problem(seed)
    _Counting.looked = 0
    whole = _search(args, floor, None).solve()
    needed = _Counting.looked
    assert needed > 10  # a question that takes a search
    assert _search(args, floor, needed).solve() == whole
    with pytest.raises(solver._OutOfBudget):
        _search(args, floor, needed - 1).solve()
