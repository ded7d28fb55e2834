"""Speed of the exact solver (referee.arrange, referee.best_move), side by side with the
ILP solver rummikub-solver 1.0.0 from PyPI (the `bench` extra) on the same instances.

Run from the repository root:

    .venv/bin/python bench/referee.py            # full run (about a minute or two)
    .venv/bin/python bench/referee.py --quick    # fewer instances

Instances (all from one seed, so every run measures the same ones):
  * arrange the full 106-tile set (repeated);
  * arrange random subsets of the 106 tiles (sizes uniform in 3..106);
  * best_move with a valid 80-tile table (random 80-tile subsets, kept when they can be
    arranged) and a 14-tile rack drawn from the other 26 tiles; the same with 40-tile tables
    built from random runs and groups (earlier in a game: fewer rack tiles fit, so the
    search cannot stop early).
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


def random_table(rng, size):
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
        if rng.random() < 0.5:
            meld = rng.choice(melds)
            if referee.check_meld(meld + ["J"], referee.get_rules().replace(
                    meld_order="as-laid")).ok:
                meld.append("J")
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

    def best_move(self, table, rack):
        state = self.ruleset.new_game()
        state.initial = False
        state.add_table(*(self.map[t] for t in table.tiles))
        state.add_rack(*(self.map[t] for t in rack))
        sol = self.ruleset.solve(state, self.rs.SolverMode.TILE_COUNT)
        return 0 if sol is None else len(sol.tiles)


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
    ap.add_argument("--quick", action="store_true", help="100 subsets, 50 moves, 30 for the ILP")
    args = ap.parse_args(argv)
    if args.quick:
        args.subsets, args.moves, args.full_repeats, args.peer_limit = 100, 50, 50, 30

    rng = random.Random(args.seed)
    subsets = random_subsets(rng, args.subsets)
    moves80, tries80 = move_instances(rng, args.moves, 80)
    moves40, tries40 = move_instances(rng, args.moves, 40)

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
