"""The judge of a turn (``referee.accounts``) cuts the accounts that cannot keep the joker rules
before it has chosen where every copy went: a taken joker whose tile no account still open can
put beside its set (``_replaceable``), and a freed joker's new set that every account still
open fills with two tiles of one meld, or a tile of the joker's own set (``_apart``: tiles
that must come from the table, one meld each, counted as a matching).

A cut must never drop a legal account: here the judge with its cuts and the judge with them
taken out (every account searched) give the same verdicts, and the hints built on them are the
same; and on big tables, where the whole search visits thousands of accounts, the cuts are
what keeps the hint fast."""

import random
import sys

import pytest

import referee.accounts as accounts
from referee import JOKER, PRESETS, Table, best_move, check_turn, parse_table
from tests.referee.random_tables import random_rack, random_table_with_jokers
from tests.referee.test_hints import PRESET_NAMES


def _visits(fn, *args, **kw):
    """(fn's answer, how many partial accounts the judge's depth-first search visited)."""
    count = [0]

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_name == "dfs" and \
                frame.f_code.co_filename == accounts.__file__:
            count[0] += 1

    old = sys.getprofile()
    sys.setprofile(profile)
    try:
        out = fn(*args, **kw)
    finally:
        sys.setprofile(old)
    return out, count[0]


# Tables of the referee bench (bench/referee.py, seed 2026: 80-tile tables #98, #30, #186)
# whose free best move takes a joker: every rack tile is laid, the most any turn lays.
BENCH = [
    ("K4 K5 K6 K7 | K7 K8 K9 K10 K11 K12 K13 | B1 B2 B3 | B6 B7 B8 B9 | B11 B12 B13 | O1 O2 O3 "
     "| O5 O6 O7 O8 | O10 O11 O12 O13 | R1 R2 R3 R4 R5 R6 R7 R8 | R11 R12 R13 | K1 B1 O1 R1 "
     "| K2 B2 R2 | K3 O3 R3 | K4 O4 R4 | B5 O5 R5 | K6 B6 R6 | B7 O7 R7 | B8 O8 R8 | B10 O10 R10 "
     "| B11 O11 R11 | K12 R12 J | B13 R13 J",
     "K8 R10 B12 B10 O13 K1 K10 R9 K11 K5 K3 B5 B9 B4", 110, 1000),
    ("K1 K2 K3 K4 K5 K6 | K2 J K4 K5 K6 K7 | K11 K12 K13 | B1 B2 B3 B4 | B2 B3 B4 | B7 B8 B9 "
     "| O2 O3 O4 | O2 J O4 O5 O6 O7 | O9 O10 O11 O12 | R1 R2 R3 R4 R5 | R3 R4 R5 R6 R7 R8 "
     "| R10 R11 R12 | B6 O6 R6 | B7 O7 R7 | K8 B8 R8 | K9 B9 R9 | K9 O9 R9 | K11 B11 R11 "
     "| K12 B12 O12 R12 | K13 B13 O13 | B13 O13 R13",
     "K7 B5 R1 B5 O1 B1 O1 O3 O11 O8 K1 O10 B10 O8", 72, 100),
    ("K1 K2 K3 K4 | K1 J K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 | K11 K12 K13 | B2 B3 B4 | B2 B3 B4 "
     "| B6 B7 B8 B9 B10 | B8 B9 B10 B11 B12 | O1 O2 O3 O4 O5 O6 | O6 O7 O8 O9 O10 O11 "
     "| O8 O9 O10 O11 | R1 R2 R3 R4 | R2 R3 R4 R5 R6 R7 R8 R9 | R7 R8 R9 R10 R11 | R11 R12 R13 "
     "| B1 O1 R1 | K13 B13 O13 | B13 O13 R13",
     "O4 O12 B11 R12 O5 K7 O2 K8 O7 B5 R5 J K2 B6", 116, 100),
]


@pytest.mark.parametrize("table,rack,points,most", BENCH)
def test_big_tables_are_judged_without_walking_every_account(table, rack, points, most):
    # Without the cuts the judge visits 4,143, 17,893 and 19,979 partial accounts here (about
    # 0.1 s each); with them 483, 13 and 13.
    move, visited = _visits(best_move, table, rack, cpu_limit=None)
    assert len(move.placed) == 14 and move.points == points and move.exact
    assert check_turn(table, move.table, rack).legal
    assert visited <= most, visited


def _whole_search(monkeypatch):
    """The judge with its cuts taken out: every account is searched."""
    monkeypatch.setattr(accounts, "_apart", lambda later, i, taken: True)
    monkeypatch.setattr(accounts._Search, "_replaceable", lambda self, kinds, b, s: True)


def _tampered(rng, table):
    """The table with a joker moved to another meld, or two tiles of two melds swapped."""
    melds = [list(m.tiles) for m in table]
    if len(melds) < 2:
        return table
    holders = [m for m in melds if JOKER in m]
    if holders and rng.random() < 0.5:
        src = rng.choice(holders)
        src.remove(JOKER)
        rng.choice([m for m in melds if m is not src]).append(JOKER)
    else:
        a, b = rng.sample(range(len(melds)), 2)
        i, j = rng.randrange(len(melds[a])), rng.randrange(len(melds[b]))
        melds[a][i], melds[b][j] = melds[b][j], melds[a][i]
    return Table([m for m in melds if m])


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_cut_judge_gives_the_verdicts_and_hints_of_the_whole_search(preset, monkeypatch):
    rules = PRESETS[preset]
    rng = random.Random(f"accounts-cut-{preset}")
    cases = []
    for _ in range(40):
        melds, free = random_table_with_jokers(rng, longest_run=6)
        rack = random_rack(rng, free, 2)
        cases.append((parse_table([" ".join(map(str, m)) for m in melds]), rack))

    def answers():
        out = []
        turn_rng = random.Random(f"accounts-cut-turns-{preset}")
        for table, rack in cases:
            move = best_move(table, rack, rules, cpu_limit=None)
            turns = [move.table] + [_tampered(turn_rng, move.table) for _ in range(3)]
            out.append(((sorted(map(str, move.placed)), move.points, move.exact),
                        [check_turn(table, t, rack, rules=rules, reasons=r).to_dict()
                         for t in turns for r in (False, True)]))
        return out

    cut = answers()
    _whole_search(monkeypatch)
    assert answers() == cut
