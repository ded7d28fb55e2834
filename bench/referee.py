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
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import referee  # noqa: E402
from referee_cases import (FULL, dispute_cases, joker_cases, move_instances,  # noqa: E402
                           opening_cases, random_subsets, tampered)
from referee_peer import Peer  # noqa: E402


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
