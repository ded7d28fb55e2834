"""Python's cyclic garbage collector is held off while a hint is searched
(``referee.hints._collector_paused``): the search keeps many small lists and tuples, and the
collector, set off by their number, walked them again and again. It must run again after
the hint, whatever happens, stay off where the caller turned it off, and find nothing the
hint left behind (a closure that calls itself by its own name is a reference cycle, which
only the collector frees)."""

import gc

import pytest

import referee.hints as hints
from referee import TableUnsolvableError, best_move

# a table with both jokers whose free move breaks a joker rule: the joker search runs
TABLE = "R3 R4 J | K9 B9 O9 R9 | K9 B9 O9 R9 | B5 B6 J"
RACK = "R5 K11 O2 O3 B7"


def test_the_collector_is_off_during_the_search_and_on_after_it(monkeypatch):
    seen = []
    free_move = hints._free_move

    def watched(*args, **kw):
        seen.append(gc.isenabled())
        return free_move(*args, **kw)

    monkeypatch.setattr(hints, "_free_move", watched)
    assert gc.isenabled()
    move = best_move(TABLE, RACK, "sabra", cpu_limit=None)
    assert seen == [False] and gc.isenabled()
    assert move.placed  # the search ran and found a turn
    with pytest.raises(TableUnsolvableError):
        best_move("R1 R2 R4", "K1")
    assert gc.isenabled()  # on again after an error too


def test_a_collector_the_caller_turned_off_stays_off():
    gc.disable()
    try:
        best_move(TABLE, RACK, "sabra", cpu_limit=None)
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("preset", ["sabra", "pressman-1998", "sabra-way", "tournament"])
def test_a_hint_leaves_no_reference_cycles(preset):
    gc.collect()
    gc.disable()
    try:
        for table, rack in ((TABLE, RACK), ("K11 R11 J | J B11 O11", "O9 B12 B13"),
                            ("O3 J O5 O6 | O1 O2 O3 J", "O4 K7 K8")):
            best_move(table, rack, preset, cpu_limit=None)
        assert gc.collect() == 0
    finally:
        gc.enable()
