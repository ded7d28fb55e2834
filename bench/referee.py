"""Speed of the referee's searches (referee.arrange, referee.best_move, referee.check_turn and
the dispute view's nearest valid table, referee.could_lay), side by side with the ILP solver
rummikub-solver 1.0.0 from PyPI (the `bench` extra) on the same instances.

Run from the repository root:

    .venv/bin/python bench/referee.py            # full run (about a minute or two)
    .venv/bin/python bench/referee.py --quick    # fewer instances

Instances (all from one seed, so every run measures the same ones):
  * arrange the full 106-tile set (repeated);
  * arrange random subsets of the 106 tiles (sizes uniform in 3..106);
  * best_move with a valid 80-tile table (random 80-tile subsets, kept when they can be
    arranged) and a 14-tile rack drawn from the other 26 tiles; the same with 40-tile tables
    built from random runs and groups (earlier in a game: fewer rack tiles fit, so the
    search cannot stop early);
  * best_move on tables holding both jokers (15 to 90 tiles, the four presets in turn) with
    racks of 1 to 40 tiles (as many as the set has left), where a hint must keep the joker
    rules;
  * the initial meld (opened=False) from racks of 14 to 40 tiles, two jokers in half of them,
    the four presets in turn (pressman-1998 needs one set of 30 alone);
  * check_turn on those joker tables: the hint's table (legal) and the same table with a
    joker moved to another meld's end or two tiles of different melds swapped (mostly not);
  * the nearest valid table (could_lay) for valid tables of 20 to 106 tiles with 1 to 4 tiles
    moved to another meld, split off or taken.
The ILP peer answers the nearest question it can: best_move for the hints (opened tables),
and arranging the same tiles (any valid arrangement, not the nearest) for check_turn and
could_lay, the nearest thing it does; it has no initial-meld search on a fixed table.
Prints p50 / p99 / max wall-clock latency and the CPU time of each call, the ILP's latency and
the ratio of the medians, and how often the two solvers agree (arrangeable or not; number of
rack tiles placed). On a shared machine other jobs inflate the wall-clock tail, not the CPU
time.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import referee  # noqa: E402

FULL = referee.all_tiles()


def percentile(values, q):
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


class Timings:
    """Wall-clock and CPU milliseconds of each call."""

    def __init__(self):
        self.wall, self.cpu = [], []

    def __len__(self):
        return len(self.wall)

    def run(self, fn, *args, **kw):
        c0, t0 = time.process_time(), time.perf_counter()
        out = fn(*args, **kw)
        self.wall.append((time.perf_counter() - t0) * 1000.0)
        self.cpu.append((time.process_time() - c0) * 1000.0)
        return out


# --- instances --------------------------------------------------------------------------------

def random_subsets(rng, count):
    out = []
    for _ in range(count):
        size = rng.randint(3, len(FULL))
        out.append(tuple(rng.sample(FULL, size)))
    return out


def move_instances(rng, count, table_size, rack_size=14):
    """(table, rack) pairs. The table: random ``table_size``-tile subsets of the set, kept
    when they can be arranged (most 80-tile subsets can); below 60 tiles almost none can, so
    the table is built instead from random runs and groups (and the jokers, when they fit)
    until it holds ``table_size`` tiles or more. The rack: tiles the table does not hold."""
    out, tries = [], 0
    while len(out) < count:
        tries += 1
        tiles = list(FULL)
        rng.shuffle(tiles)
        if table_size >= 60:
            table = referee.arrange(tiles[:table_size])
            if table is None:
                continue
        else:
            table = random_table(rng, table_size)
        left = list(FULL)
        for t in table.tiles:
            left.remove(t)
        out.append((table, tuple(rng.sample(left, rack_size))))
    return out, tries


def random_table(rng, size, jokers=None):
    colours = "KBOR"
    candidates = []
    for c in colours:
        for start in range(1, 12):
            for length in (3, 4, 5):
                if start + length - 1 <= 13:
                    candidates.append([f"{c}{n}" for n in range(start, start + length)])
    for n in range(1, 14):
        for k in (3, 4):
            for cols in itertools.combinations(colours, k):
                candidates.append([f"{c}{n}" for c in cols])
    rng.shuffle(candidates)
    left = {t: 2 for t in (f"{c}{n}" for c in colours for n in range(1, 14))}
    melds, count = [], 0
    for meld in candidates:
        if count >= size:
            break
        if all(left[t] for t in meld):
            for t in meld:
                left[t] -= 1
            melds.append(list(meld))
            count += len(meld)
    for _ in range(2):  # a joker joins a meld at its end, when that stays valid
        for _ in range(1 if jokers is None else 20):
            if jokers is None and rng.random() >= 0.5:
                break
            meld = rng.choice(melds)
            if referee.check_meld(meld + ["J"], referee.get_rules().replace(
                    meld_order="as-laid")).ok:
                meld.append("J")
                break
    return referee.Table(melds)


# --- the peer: rummikub-solver (ILP over the candidate sets, cvxpy + HiGHS) -----------------

class Peer:
    def __init__(self):
        import rummikub_solver as rs  # the `bench` extra

        self.rs = rs
        self.ruleset = rs.RuleSet()
        tiles = self.ruleset.tiles
        self.map = {}
        for t in tiles:
            if isinstance(t, rs.Number):
                letter = {"BLACK": "K", "BLUE": "B", "ORANGE": "O", "RED": "R"}[t.colour.name]
                self.map[referee.Tile.parse(f"{letter}{t.value}")] = t
            elif isinstance(t, rs.Joker):
                self.map[referee.JOKER] = t
        assert len(self.map) == 53, "unexpected rummikub-solver tile map"
        self.version = rs.__version__
        # build the cvxpy problems once, outside any timing
        self.arrange(FULL[:3])

    def arrange(self, tiles):
        state = self.ruleset.new_game()
        state.add_table(*(self.map[t] for t in tiles))
        return self.ruleset.arrange_table(state)

    def opening(self, rack):
        state = self.ruleset.new_game()
        state.add_rack(*(self.map[t] for t in rack))
        sol = self.ruleset.solve(state, self.rs.SolverMode.INITIAL)
        return 0 if sol is None else len(sol.tiles)

    def best_move(self, table, rack):
        state = self.ruleset.new_game()
        state.initial = False
        state.add_table(*(self.map[t] for t in table.tiles))
        state.add_rack(*(self.map[t] for t in rack))
        sol = self.ruleset.solve(state, self.rs.SolverMode.TILE_COUNT)
        return 0 if sol is None else len(sol.tiles)


def joker_cases(rng, count):
    """(table holding both jokers, rack, preset): tables of 15-90 tiles from random runs and
    groups, or arranged random subsets, with both jokers laid; racks of 1-40 of the rest."""
    presets = list(referee.PRESETS)
    out = []
    while len(out) < count:
        size = rng.randint(15, 90)
        if size >= 60:
            tiles = [t for t in FULL if not t.is_joker]
            rng.shuffle(tiles)
            table = referee.arrange(tiles[:size - 2] + [referee.JOKER] * 2)
            if table is None:
                continue
        else:
            table = random_table(rng, size, jokers=2)
            if sum(t.is_joker for t in table.tiles) < 2:
                continue
        left = list(FULL)
        for t in table.tiles:
            left.remove(t)
        rack = tuple(rng.sample(left, rng.randint(1, min(40, len(left)))))
        out.append((table, rack, presets[len(out) % len(presets)]))
    return out


def opening_cases(rng, count):
    presets = list(referee.PRESETS)
    numbered = [t for t in FULL if not t.is_joker]
    out = []
    for i in range(count):
        size = rng.randint(14, 40)
        jokers = 2 if i % 2 else 0
        rack = tuple(rng.sample(numbered, size - jokers)) + (referee.JOKER,) * jokers
        out.append((rack, presets[i % len(presets)]))
    return out


def tampered(rng, table):
    """The table with a joker moved to another meld's end, or two tiles of different melds
    swapped."""
    melds = [list(m.tiles) for m in table]
    holders = [m for m in melds if any(t.is_joker for t in m)]
    if holders and len(melds) > 1 and rng.random() < 0.5:
        src = rng.choice(holders)
        src.remove(referee.JOKER)
        rng.choice([m for m in melds if m is not src]).append(referee.JOKER)
    elif len(melds) > 1:
        a, b = rng.sample(range(len(melds)), 2)
        i, j = rng.randrange(len(melds[a])), rng.randrange(len(melds[b]))
        melds[a][i], melds[b][j] = melds[b][j], melds[a][i]
    return referee.Table([m for m in melds if m])


def dispute_cases(rng, count):
    """(before, after): a valid table of 20-106 tiles, then 1-4 tiles moved to another meld,
    split off alone or taken off the table."""
    out = []
    while len(out) < count:
        size = rng.randint(20, len(FULL))
        tiles = list(FULL)
        rng.shuffle(tiles)
        table = referee.arrange(tiles[:size]) if size >= 60 else random_table(rng, size, jokers=2)
        if table is None or len(table) < 2:
            continue
        melds = [list(m.tiles) for m in table]
        for _ in range(rng.randint(1, 4)):
            src = rng.choice([m for m in melds if m])
            t = src.pop(rng.randrange(len(src)))
            r = rng.random()
            if r < 0.6:
                rng.choice(melds).append(t)
            elif r < 0.85:
                melds.append([t])
        out.append((table, referee.Table([m for m in melds if m])))
    return out


# --- running ----------------------------------------------------------------------------------

def row(name, ours, peer):
    def f(v):
        return f"{v:.2f}" if v < 100 else f"{v:.0f}"
    cells = [name, str(len(ours)), f(statistics.median(ours.wall)), f(percentile(ours.wall, 99)),
             f(max(ours.wall)), f(statistics.median(ours.cpu)), f(percentile(ours.cpu, 99))]
    if len(peer):
        ratio = statistics.median(peer.wall) / statistics.median(ours.wall)
        cells += [str(len(peer)), f(statistics.median(peer.wall)), f(percentile(peer.wall, 99)),
                  f"{ratio:.0f}x"]
    else:
        cells += ["-"] * 4
    return "| " + " | ".join(cells) + " |"


HEADER = ("| instances | n | rummiref p50 | p99 | max | CPU p50 | CPU p99 "
          "| ILP n | ILP p50 | ILP p99 | ILP/rummiref (p50) |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--subsets", type=int, default=1000)
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--full-repeats", type=int, default=200)
    ap.add_argument("--peer-limit", type=int, default=200,
                    help="instances per kind given to rummikub-solver (it is slow)")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--jokers", type=int, default=200,
                    help="joker tables (hints, turns), openings and disputes of each kind")
    ap.add_argument("--quick", action="store_true",
                    help="100 subsets, 50 moves and 50 of each joker kind, 30 for the ILP")
    args = ap.parse_args(argv)
    if args.quick:
        args.subsets, args.moves, args.full_repeats, args.peer_limit = 100, 50, 50, 30
        args.jokers = 50

    rng = random.Random(args.seed)
    subsets = random_subsets(rng, args.subsets)
    moves80, tries80 = move_instances(rng, args.moves, 80)
    moves40, tries40 = move_instances(rng, args.moves, 40)
    jcases = joker_cases(rng, args.jokers)
    openings = opening_cases(rng, args.jokers)
    disputes = dispute_cases(rng, args.jokers)

    peer = None
    if not args.no_peer:
        try:
            peer = Peer()
        except ImportError:
            print("rummikub-solver is not installed (pip install -c constraints.txt "
                  "'.[bench]'); timing rummiref only\n")

    referee.arrange(FULL)  # warm-up: imports, caches
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    results, agree = {}, {}

    # 1. the full set
    ours, theirs = Timings(), Timings()
    for _ in range(args.full_repeats):
        ours.run(referee.arrange, FULL)
    if peer:
        for _ in range(min(args.full_repeats, 20)):
            theirs.run(peer.arrange, FULL)
    results["arrange: the full 106-tile set"] = (ours, theirs)

    # 2. random subsets
    ours, theirs, same, compared, yes = Timings(), Timings(), 0, 0, 0
    for i, tiles in enumerate(subsets):
        table = ours.run(referee.arrange, tiles)
        yes += table is not None
        if table is not None:
            assert sorted(table.tiles) == sorted(tiles)
            assert all(referee.check_meld(m).ok for m in table.melds)
        if peer and i < args.peer_limit:
            arr = theirs.run(peer.arrange, tiles)
            compared += 1
            same += (arr is not None) == (table is not None)
    results[f"arrange: random subsets, 3-106 tiles ({yes} arrangeable)"] = (ours, theirs)
    agree["arrange, random subsets: arrangeable or not"] = (same, compared)

    # 3. best moves
    placed_mean = {}
    for label, moves in (("80", moves80), ("40", moves40)):
        ours, theirs, same, compared, placed = Timings(), Timings(), 0, 0, 0
        for i, (table, rack) in enumerate(moves):
            move = ours.run(referee.best_move, table, rack)
            placed += len(move.placed)
            assert all(referee.check_meld(m).ok for m in move.table.melds)
            if peer and i < args.peer_limit:
                n = theirs.run(peer.best_move, table, rack)
                compared += 1
                same += n == len(move.placed)
        results[f"best_move: {label}-tile table + 14-tile rack"] = (ours, theirs)
        agree[f"best_move, {label}-tile tables: rack tiles placed"] = (same, compared)
        placed_mean[label] = placed / max(1, len(moves))

    # 4. hints on tables holding both jokers, under each preset; their turns judged
    ours, theirs, turns, turns_peer = Timings(), Timings(), Timings(), Timings()
    legal = exact = 0
    for i, (table, rack, preset) in enumerate(jcases):
        move = ours.run(referee.best_move, table, rack, preset)
        exact += move.exact
        verdict = turns.run(referee.check_turn, table, move.table, rack, rules=preset)
        assert verdict.legal, (str(table), rack, str(move.table))
        bad = tampered(rng, move.table)
        legal += turns.run(referee.check_turn, table, bad, rack, rules=preset).legal
        if peer and i < args.peer_limit:
            theirs.run(peer.best_move, table, rack)
            turns_peer.run(peer.arrange, move.table.tiles)
    results["best_move: tables with both jokers (15-90 tiles), racks of 1-40, four presets"] = \
        (ours, theirs)
    results["check_turn: those turns (the hint, and the hint tampered with)"] = \
        (turns, turns_peer)

    # 5. initial melds from big racks
    ours, theirs = Timings(), Timings()
    for i, (rack, preset) in enumerate(openings):
        ours.run(referee.best_move, "", rack, preset, opened=False)
        if peer and i < args.peer_limit:
            theirs.run(peer.opening, rack)
    results["best_move opening: racks of 14-40 (half with two jokers), four presets"] = \
        (ours, theirs)

    # 6. the nearest valid table
    ours, theirs = Timings(), Timings()
    nearest_exact = 0
    for i, (before, after) in enumerate(disputes):
        answer = ours.run(referee.could_lay, before, after)
        assert answer.possible
        nearest_exact += answer.exact
        if peer and i < args.peer_limit:
            theirs.run(peer.arrange, before.tiles)
    results["could_lay: nearest valid table, 20-106 tiles, 1-4 tiles out of place"] = \
        (ours, theirs)
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")

    given = argv if argv is not None else sys.argv[1:]
    print("command: .venv/bin/python bench/referee.py" + ("" if not given else " " + " ".join(given)))
    print(f"seed {args.seed}; {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs, load average {load_before:.1f} before / "
          f"{load_after:.1f} after (a shared machine: other jobs inflate the wall-clock tail)")
    if peer:
        print(f"peer: rummikub-solver {peer.version} (ILP via cvxpy, backend "
              f"{peer.ruleset.backend}), on the first {args.peer_limit} instances of each kind")
    print(f"best_move tables: valid random tables ({len(moves80)} of {tries80} 80-tile draws, "
          f"{len(moves40)} of {tries40} 40-tile draws arrangeable); rack tiles placed on average: "
          f"{placed_mean['80']:.1f} of 14 (80-tile tables), {placed_mean['40']:.1f} of 14 "
          f"(40-tile tables)")
    print(f"joker tables: hints proven best {exact} of {len(jcases)}; tampered turns legal "
          f"{legal} of {len(jcases)}; nearest tables proven fewest moves {nearest_exact} of "
          f"{len(disputes)}")
    print("times in milliseconds per call: wall clock (p50, p99, max) and CPU time of the process")
    print()
    print(HEADER)
    print("|" + "---|" * (HEADER.count("|") - 1))
    for name, (ours, theirs) in results.items():
        print(row(name, ours, theirs))
    if peer:
        print()
        print("| cross-check on the same instances | agree | of |")
        print("|---|---|---|")
        for name, (same, compared) in agree.items():
            print(f"| {name} | {same} | {compared} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
