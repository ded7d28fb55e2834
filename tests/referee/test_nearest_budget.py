"""The nearest table's step budget, the safeguard that keeps the dispute view answering on a
table too hard to search to the end (``referee.nearest.BUDGET``: "search steps a depth may
take before the answer is given with its bound").

A step of the search is one choice of the tiles that stay in one of the player's melds
(``_Search._melds``) or one free tile given out in a leaf (``feasible``). The tests count the
first kind by wrapping ``_Search._melds``, not by the search's own counter, so a budget
spent too fast, too slowly or not at all shows. Their tables' expected answers come from the
brute force of ``tests/referee/nearest_oracle.py``."""

import sys

import pytest

from referee import could_lay, nearest, parse_table
from referee.nearest import _Search, nearest_table

from .nearest_oracle import ANY, brute_fewest


@pytest.fixture
def counted(monkeypatch):
    """Counts the search's choices of cores (calls of ``_Search._melds``) and its leaves
    (calls of ``_Search.feasible``), per depth."""
    tally = {"depths": []}
    melds, feasible, depth = _Search._melds, _Search.feasible, _Search.depth

    def counting_melds(self, *args):
        tally["depths"][-1]["cores"] += 1
        return melds(self, *args)

    def counting_feasible(self, *args):
        if tally["depths"]:
            tally["depths"][-1]["leaves"] += 1
        return feasible(self, *args)

    def counting_depth(self, d):
        tally["depths"].append({"depth": d, "cores": 0, "leaves": 0})
        return depth(self, d)

    monkeypatch.setattr(_Search, "_melds", counting_melds)
    monkeypatch.setattr(_Search, "feasible", counting_feasible)
    monkeypatch.setattr(_Search, "depth", counting_depth)
    return tally


#: tables whose least possible moves (the search's first depth) no valid table reaches (the
#: fewest is one more), and
#: whose search at that depth ends without a leaf: every way to keep tiles in place is
#: refused before any free tile is given out, so that depth's steps are its choices of cores
#: alone. Found by drawing scrambled tables (as in test_nearest.py) and keeping those.
NO_LEAF_FIRST = [
    "R3 R4 | O2 O3 O4 R2 | B2 B3 O1 | J B4 K4 B1",
    "J K11 | R10 R12 R13 K9 | K8 | R11 | R8 R9 R10 R11 R12 R13",
    "B8 | O8 O9 O10 O11 O12 B10 | B9 B11 O10 O11 O12 J",
    "K4 K5 K6 R6 | R5 J | O7 R7 O4 O5 O6 O7 | B7",
]


@pytest.mark.parametrize("after", NO_LEAF_FIRST)
def test_a_depth_given_exactly_the_steps_it_takes_is_searched_to_its_end(after, counted):
    # Searched with steps to spare, the first depth fails, having taken some number of steps.
    # Given exactly that many, it must still be searched to its end (the budget is what a
    # depth "may take", and it took no more), so the search goes on to the next depths and
    # the answer moves the fewest tiles (the brute force's count), proven.
    table = list(parse_table(after))
    best = brute_fewest(table, [])
    first = _Search(table, [], ANY).lower_bound()
    assert best == first + 1  # the first depth fails, and the search must go on to the next
    roomy = nearest_table(table, [], ANY, budget=10**6)
    assert roomy.exact and len(roomy.moves) == best
    failed = counted["depths"][0]
    assert failed["depth"] == first and failed["leaves"] == 0
    steps = failed["cores"]
    counted["depths"].clear()
    near = nearest_table(table, [], ANY, budget=steps)
    assert near.exact and len(near.moves) == best, (after, steps, near.fewest)
    assert near.fewest == best
    # the first depth ran to its end with the same steps: nothing was cut short
    assert counted["depths"][0]["cores"] == steps


@pytest.mark.parametrize("budget", [1, 5, 40, 300])
def test_the_budget_caps_the_steps_of_each_depth(budget, counted):
    # eight pairs of a run, none valid (test_nearest.py's table too hard for the search): the
    # search of each depth must stop once its budget is spent (the step that finds it spent
    # included), whatever the budget, and the answer still holds its bound (the brute force)
    after = "R1 R2 | R3 R4 | R5 R6 | R7 R8 | K1 K2 | K3 K4 | K5 K6 | K7 K8"
    table = list(parse_table(after))
    near = nearest_table(table, [], ANY, budget=budget)
    assert counted["depths"], "the search never ran a depth"
    for d in counted["depths"]:
        assert d["cores"] <= budget + 1, (budget, d)
    best = brute_fewest(table, [])
    assert near.fewest <= best <= len(near.moves)


def test_the_dispute_view_answers_a_table_too_hard_for_its_search_within_its_budget(counted):
    # could_lay, the dispute view's question, on the same table at the default budget: no
    # depth takes more than BUDGET (20,000) choices of cores
    from referee.nearest import BUDGET

    a = could_lay("", "R1 R2 | R3 R4 | R5 R6 | R7 R8 | K1 K2 | K3 K4 | K5 K6 | K7 K8")
    assert a.possible and not a.exact
    assert counted["depths"] and all(d["cores"] <= BUDGET + 1 for d in counted["depths"])


@pytest.mark.parametrize("after, loose", [
    ("B6 B7 B8 B9 | J B8 B9 J R9 | R5 R6 R7 R8", ""),
    ("J R6 R8 R9 R10 J | R8 R10 R11 R4 R7", "R9"),
    ("B5 R5 R8 | B7 K7 O7 | B5 B6 B7 B8 J | O8 B8", "O5"),
])
def test_a_search_cut_short_on_its_last_step_still_proves_only_its_bound(after, loose):
    # wherever the budget runs out, at every budget from 1 to 40 steps, the bound the answer
    # states holds ("No valid table moves fewer than ...": the brute force finds none that
    # does) and an answer said exact moves the fewest. On these tables a choice of cores
    # spends the last step without a leaf; the choice after it must still count as cut
    # short, not as the depth searched to its end (a search that then goes on to the next
    # depth states a bound one too high: 2 where a table moving 1 tile exists, on the first)
    from .test_nearest import _assert_sound

    table, loose = parse_table(after), list(parse_table(loose).tiles)
    best = brute_fewest(list(table), loose)
    for budget in range(1, 41):
        near = nearest_table(list(table), loose, ANY, budget=budget)
        assert near.fewest <= best, (budget, near.fewest, best)
        _assert_sound(table, loose, near, best)
        if near.exact:
            assert len(near.moves) == best


def _steps_taken(monkeypatch, table, budget, hard_stop):
    """The answer of ``nearest_table`` with ``nearest.BUDGET`` (the steps a leaf may run past
    its depth's budget) set to ``hard_stop``, and the search's steps as it took them, counted
    from outside: ``m`` a choice of cores (``_Search._melds``), ``|`` a leaf begun
    (``_Search.feasible``), ``a`` a free tile given out in a leaf (its inner ``assign``,
    seen by a profile hook), ``d`` a depth begun."""
    events = []
    melds, feasible, depth = _Search._melds, _Search.feasible, _Search.depth

    def counting_melds(self, *args):
        events.append("m")
        return melds(self, *args)

    def counting_feasible(self, *args):
        events.append("|")
        return feasible(self, *args)

    def counting_depth(self, d):
        events.append("d")
        return depth(self, d)

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_name == "assign":
            events.append("a")

    monkeypatch.setattr(_Search, "_melds", counting_melds)
    monkeypatch.setattr(_Search, "feasible", counting_feasible)
    monkeypatch.setattr(_Search, "depth", counting_depth)
    monkeypatch.setattr(nearest, "BUDGET", hard_stop)
    before = sys.getprofile()
    sys.setprofile(profile)
    try:
        near = nearest_table(table, [], ANY, budget=budget)
    finally:
        sys.setprofile(before)
    return near, "".join(events)


@pytest.mark.parametrize("after", [
    "K11 R11 O11 | R6 R7 R8 R9 R10 B8 | R8 K8 O8 | R1 R2 R3 R4",
    "B5 B6 B7 B8 O8 R5 | K5 O5 B5 R8 | B9 B10 B11 B12 B13 | B8",
    "R6 | R4 B4 O4 K4 R5 R7 R8",
])
def test_a_leaf_given_exactly_the_steps_it_takes_past_its_depth_s_budget_finds_its_table(
        after, monkeypatch):
    # A leaf may run past its depth's budget by nearest.BUDGET steps (its hard stop), so a
    # depth whose last leaf is left exactly the steps that leaf takes is searched to its
    # end: the answer moves the fewest tiles (the brute force's count), proven. One step
    # fewer and the leaf is cut short: the answer then only states its bound. Measured
    # here with a small hard stop (the leaf's own steps), the depth's budget being the steps
    # taken before that leaf.
    table = list(parse_table(after))
    best = brute_fewest(table, [])
    roomy, events = _steps_taken(monkeypatch, table, 10**6, 10**6)
    assert roomy.exact and len(roomy.moves) == best
    last_depth = events[events.rfind("d") + 1:]
    last_leaf = last_depth.rfind("|")
    before_leaf = last_depth[:last_leaf].count("m") + last_depth[:last_leaf].count("a")
    leaf = last_depth[last_leaf:].count("a")
    near, _ = _steps_taken(monkeypatch, table, before_leaf, leaf)
    assert near.exact and len(near.moves) == best and near.fewest == best, (after, near)
    short, _ = _steps_taken(monkeypatch, table, before_leaf, leaf - 1)
    assert not short.exact and short.fewest <= best


def test_the_quick_fallback_s_leaf_stops_at_its_hard_stop(monkeypatch):
    # Before its first depth the search takes a valid table to fall back on: of the player's
    # valid melds kept whole with the other tiles given to them or laid beside them (found by
    # one leaf, tried with at most 8 tiles to lay) and the solver's arrangement of every tile
    # matched with the player's melds, the one moving fewer tiles. That leaf has no depth's
    # budget, only the hard stop: nearest.BUDGET steps. Cut short at once (a budget of 0),
    # the search answers with its fallback. Here the leaf gives B8 to O8 R8 K8 (one tile
    # moved, the fewest: the brute force's count); the solver's table, K3...K8 | B8 O8 R8
    # | ..., matched, moves two. With one step fewer than the leaf takes, the leaf gives up
    # and the solver's table is the answer.
    table = list(parse_table("K3 K4 K5 K6 K7 | O8 R8 K8 | K12 R12 B12 O12 | B8"))
    assert brute_fewest(table, []) == 1
    _, events = _steps_taken(monkeypatch, table, 0, 10**6)
    assert events.startswith("|")
    leaf = events[:events.index("d") if "d" in events else len(events)].count("a")
    kept, _ = _steps_taken(monkeypatch, table, 0, leaf)
    assert [(str(t), str(o)) for t, o, _ in kept.moves] == [("B8", "B8")] and kept.exact
    solver, _ = _steps_taken(monkeypatch, table, 0, leaf - 1)
    assert len(solver.moves) == 2 and not solver.exact and solver.fewest == 1


def test_the_fallback_is_whichever_of_its_two_tables_moves_fewer_tiles(monkeypatch):
    # R11 R12 R13 B1 | B2...B6: the leaf gives B1 to B2...B6 and lays R11 R12 R13 anew (four
    # tiles moved, as R11 R12 R13 B1 is no meld kept whole); the solver's B1...B6 | R11 R12
    # R13, matched, moves only B1. Cut short at once, the answer is the solver's table, the
    # fewest (it once was the leaf's four whenever the leaf finished).
    table = list(parse_table("R11 R12 R13 B1 | B2 B3 B4 B5 B6"))
    assert brute_fewest(table, []) == 1
    near, events = _steps_taken(monkeypatch, table, 0, 10**6)
    assert events.startswith("|")  # the leaf was tried and finished
    assert [(str(t), str(o)) for t, o, _ in near.moves] == [("B1", "R11 R12 R13 B1")]
    assert near.exact
