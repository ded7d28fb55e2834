"""Hunt tables that tell surviving mutants of the joker hint search from the real code.

mutmut says a mutant survived the tests
this says whether some table tells it apart. It
makes mutmut's mutated copy of the joker modules once (``--workdir``, as
:mod:`bench.mutants` prepares it, without running any test), imports it, and for each drawn
table asks ``best_move`` once with the real code and once per mutant (mutmut's trampolines
switch on ``MUTANT_UNDER_TEST`` at each call, so one process serves every mutant). It prints
each table where a mutant's hint crashes, is illegal, is worse while said to be proven
(a wrong proof: the real hint beats it), or is only worse (a test holding that table's best
kills it)
with ``--exact``, also where it finds the same hint but leaves it unproven while
the real code proves it best (a test asserting ``Move.exact`` there kills it); with
``--claims``, also where it calls the same hint proven that the real code leaves unproven and
the brute force finds a better turn (a wrong proof that comparing with the real code alone
cannot see; racks of 7 tiles or fewer); with ``--any``, also every other table where the
mutant's hint differs in tiles, points or proof (a mutant that calls a hint proven where the
real code does not, on any rack: a candidate to hold to the brute force or to argue by hand).
``--workdir`` may name the scratch copy of a
``bench/mutants.py`` run of another target (``referee-search``): its mutants are hunted the
same way, and with a ``search.py`` mutant named every hint starts from emptied search caches
(they are process-wide and keyed without the mutant). A table
printed is a candidate test: its best is then worked out by hand and held to the brute force
of ``tests/referee/test_hints.py``, never taken from the code.

    .venv/bin/python bench/mutant_hunt.py referee.joker_sets.xǁNewSetsǁ_two_sets__mutmut_107 ...
        [--draws 300] [--seed hunt] [--families exchanges,small,meeting,two,rack-joker,thirds,long,misread,misread2,inside,inside-meet,piece,long-j,piece-j,pieced,pieced2,twin,twin2,both-j]
        [--presets sabra,tournament] [--exact] [--claims] [--any]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from hunt_pieces import drawn_melds, plain_melds as _plain_melds, rack_rest as _rack_rest

REPO = Path(__file__).resolve().parents[1]


def _mutated_copy(workdir: Path) -> None:
    """mutmut's mutated copy of the joker hint target's files under ``workdir/mutants``."""
    sys.path.insert(0, str(REPO / "bench"))
    import mutants

    files, tests, _ = mutants.TARGETS["referee-joker-hints"]
    mutants.prepare(workdir, files, tests)
    code = "from mutmut.__main__ import create_mutants\ncreate_mutants(1)\n"  # no test run
    subprocess.run([sys.executable, "-c", code], cwd=workdir, check=True,
                   capture_output=True)


def _exchanges(rng):
    """Two melds holding a joker each, maybe two more melds; a rack holding, most often, the
    tile each joker stands for, one to three pairs that need a joker, a few more tiles."""
    from referee import COLOURS, JOKER, Tile, all_tiles, parse_table
    from tests.referee.random_tables import random_meld

    free = Counter(all_tiles())

    def meld():
        m = random_meld(rng, runs=0.55, longest_run=5)
        if all(free[t] >= k for t, k in Counter(m).items()):
            free.subtract(m)
            return m
        return None

    melds = []
    while len(melds) < 2:
        m = meld()
        if m:
            i = rng.randrange(len(m))
            free[m[i]] += 1
            free[JOKER] -= 1
            m[i] = JOKER
            melds.append(m)
    for _ in range(rng.randint(0, 2)):
        m = meld()
        if m:
            melds.append(m)
    rack = []
    for m in melds[:2]:
        real = [t for t in m if not t.is_joker]
        if rng.random() < 0.7:
            if len({t.colour for t in real}) == 1:
                first = next(j for j, t in enumerate(m) if not t.is_joker)
                t = Tile(real[0].colour, real[0].number - first + m.index(JOKER))
            else:
                colours = [c for c in COLOURS if c not in {t.colour for t in real}]
                t = Tile(rng.choice(colours), real[0].number)
            if 1 <= t.number <= 13 and free[t] > 0:
                free[t] -= 1
                rack.append(t)
    _rack_rest(rng, free, rack, melds)
    return parse_table([" ".join(map(str, m)) for m in melds]), rack


def _long(rng):
    """One or two runs of 5-9 tiles holding a joker (more places a pattern than the first pass
    tries), up to three more melds; a rack holding, most often, each joker's tile, pairs that
    need a joker and a few more tiles (at most 9)."""
    from referee import COLOURS, JOKER, Tile, all_tiles, parse_table
    free = Counter(all_tiles())
    melds = []
    for _ in range(rng.choice((1, 1, 2))):
        c = rng.choice(COLOURS)
        n = rng.randint(5, 9)
        s = rng.randint(1, 14 - n)
        m = [Tile(c, k) for k in range(s, s + n)]
        if all(free[t] > 0 for t in m):
            free.subtract(m)
            i = rng.randrange(len(m))
            free[m[i]] += 1
            free[JOKER] -= 1
            rack_tile = m[i]
            m[i] = JOKER
            melds.append((m, rack_tile))
    if not melds:
        return None
    table = [m for m, _ in melds]
    _plain_melds(rng, free, table, 3)
    rack = []
    for _, t in melds:
        if rng.random() < 0.85 and free[t] > 0:
            free[t] -= 1
            rack.append(t)
    _rack_rest(rng, free, rack, table)
    if len(rack) > 9:
        return None
    return parse_table([" ".join(map(str, m)) for m in table]), rack


def _inside(rng, meet=False):
    """One or two melds holding a joker (runs of 4-7 most often), maybe a plain meld; a rack
    holding, most often, each joker's tile, and for one or two tiles *inside* a joker meld a
    pair that needs that very tile (its number in two other colours), so the best turn
    takes the meld apart around its joker; maybe one more pair that needs a joker. ``meet``:
    always two joker melds, both runs of one colour near each other or both groups of one
    number (melds that may meet, :mod:`referee.joker_meeting`)."""
    from referee import COLOURS, JOKER, Tile, all_tiles, parse_table
    from tests.referee.random_tables import random_meld
    free = Counter(all_tiles())
    melds, tiles_of = [], []
    colour, number, runs = rng.choice(COLOURS), rng.randint(2, 12), rng.random() < 0.6
    for _ in range(2 if meet else rng.choice((1, 2, 2))):
        if meet and runs:
            n = rng.randint(3, 5)
            s = max(1, min(14 - n, number + rng.randint(-n, 1)))
            m = [Tile(colour, k) for k in range(s, s + n)]
        elif meet:
            m = [Tile(c, number) for c in rng.sample(COLOURS, rng.randint(3, 4))]
        elif rng.random() < 0.7:
            c, n = rng.choice(COLOURS), rng.randint(4, 7)
            s = rng.randint(1, 14 - n)
            m = [Tile(c, k) for k in range(s, s + n)]
        else:
            m = random_meld(rng, runs=0.0)
        if not all(free[t] >= k for t, k in Counter(m).items()):
            continue
        free.subtract(m)
        i = rng.randrange(len(m))
        free[m[i]] += 1
        free[JOKER] -= 1
        tiles_of.append((m[i], [t for j, t in enumerate(m) if j != i]))
        m[i] = JOKER
        melds.append(m)
    if len(melds) < (2 if meet else 1):
        return None
    _plain_melds(rng, free, melds, 1)
    rack = []
    for stands, real in tiles_of:
        if rng.random() < 0.75 and free[stands] > 0:
            free[stands] -= 1
            rack.append(stands)
        for t in rng.sample(real, min(len(real), rng.randint(1, 2))):
            pair = [Tile(c, t.number) for c in rng.sample(
                [c for c in COLOURS if c != t.colour], 2)]
            if all(free[p] > 0 for p in pair):
                free.subtract(pair)
                rack += pair
    if rng.random() < 0.6:
        _rack_rest(rng, free, rack, melds)
    if rng.random() < 0.2 and free[JOKER] > 0:
        rack.append(JOKER)
    if len(rack) > 9:
        return None
    return parse_table([" ".join(map(str, m)) for m in melds]), rack


def _twin(rng, jokers=1):
    """One joker meld (or two: ``jokers``) whose tile the rack most often holds, a plain meld
    whose two or three neighbouring tiles the rack copies (so a freed joker's set, often in
    two shapes with the same tiles, can take them from the table or the rack) and up to two
    more melds; one to four more rack tiles, half of them near a table tile (at most 9)."""
    from referee import JOKER, all_tiles, parse_table
    from tests.referee.random_tables import random_meld
    free = Counter(all_tiles())
    melds, rack = [], []

    def add(m):
        if all(free[t] >= k for t, k in Counter(m).items()):
            free.subtract(m)
            melds.append(m)
            return True
        return False

    for _ in range(jokers):
        for _ in range(20):
            m = random_meld(rng, runs=0.6, longest_run=6)
            if add(m):
                i = rng.randrange(len(m))
                free[m[i]] += 1
                free[JOKER] -= 1
                tile, m[i] = m[i], JOKER
                if rng.random() < 0.85 and free[tile] > 0:
                    free[tile] -= 1
                    rack.append(tile)
                break
    for _ in range(20):
        plain = random_meld(rng, runs=0.6, longest_run=5)
        if add(plain):
            break
    else:
        return None
    k = rng.choice((2, 2, 3))
    start = rng.randrange(len(plain) - k + 1)
    for t in plain[start:start + k]:
        if free[t] > 0:
            free[t] -= 1
            rack.append(t)
    for _ in range(rng.randint(0, 2)):
        add(random_meld(rng, runs=0.5, longest_run=5))
    for _ in range(rng.randint(1, 4)):
        pool = [t for t in free.elements() if not t.is_joker]
        if rng.random() < 0.5:
            near = [t for t in pool if any(
                abs(t.number - u.number) <= 2 and (t.colour == u.colour or t.number == u.number)
                for m in melds for u in m if not u.is_joker)]
            pool = near or pool
        t = rng.choice(pool)
        free[t] -= 1
        rack.append(t)
    if len(rack) > 9:
        return None
    return parse_table([" ".join(map(str, m)) for m in melds]), rack


def _misread_from(base):
    """Tables drawn by ``base`` read wrongly: a meld without a joker split in two pieces, or
    one of its tiles moved to the rack (pieces that are no melds, which the rack can
    complete)."""

    def fam(rng):
        from referee import parse_table
        drawn = drawn_melds(base, rng)
        if drawn is None:
            return None
        melds, rack = drawn
        plain = [i for i, m in enumerate(melds) if not any(t.is_joker for t in m)]
        if not plain:
            return None
        i = rng.choice(plain)
        m = melds[i]
        if len(m) >= 4 and rng.random() < 0.6:
            k = rng.randint(1, len(m) - 1)
            melds[i:i + 1] = [m[:k], m[k:]]
        else:
            j = rng.randrange(len(m))
            rack = list(rack) + [m[j]]
            melds[i] = m[:j] + m[j + 1:]
        return parse_table([" ".join(map(str, x)) for x in melds if x]), rack
    return fam


def _families():
    from referee import JOKER, parse_table
    from tests.referee.test_hints import _small_case
    from tests.referee.test_joker_merges import meeting_case
    from tests.referee.test_joker_proof import _two_joker_melds
    from tests.referee.test_joker_third_copies import third_copy_case
    from hunt_pieces import (both_jokers, piece, pieced,  # (no frozen turn; a rack joker)
                             with_rack_joker)

    def two(rng):
        drawn = _two_joker_melds(rng)
        if drawn is None:
            return None
        melds, rack = drawn
        table = parse_table([" ".join(map(str, m)) for m in melds])
        return (table, rack) if all(m.tiles for m in table) else None

    def rack_joker(rng):
        drawn = _small_case(rng) if rng.random() < 0.5 else two(rng)
        if drawn is None:
            return None
        table, rack = drawn
        jokers = sum(t.is_joker for t in table.tiles) + sum(t.is_joker for t in rack)
        if jokers >= 2:
            return (table, rack) if any(t.is_joker for t in rack) else None
        return table, list(rack) + [JOKER]

    return {"exchanges": _exchanges, "small": _small_case, "meeting": meeting_case,
            "two": two, "rack-joker": rack_joker, "thirds": third_copy_case, "long": _long,
            "inside": _inside, "inside-meet": lambda rng: _inside(rng, meet=True),
            "misread": _misread_from(_exchanges), "misread2": _misread_from(two), "piece": piece,
            "long-j": with_rack_joker(_long), "piece-j": with_rack_joker(piece),
            "pieced": pieced(_exchanges), "pieced2": pieced(two),
            "twin": _twin, "twin2": lambda rng: _twin(rng, jokers=2), "both-j": both_jokers}


def _brute(table, rack, preset):
    """(tiles, points) of the best turn by the brute force of ``test_hints``, or None past
    60 s."""
    from referee import PRESETS
    from tests.referee.test_hints import brute_best

    signal.alarm(60)
    try:
        return brute_best(table, [str(t) for t in rack], PRESETS[preset])
    except TimeoutError:
        return None
    finally:
        signal.alarm(0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mutants", nargs="+", help="mutmut's names (module.x..._mutmut_N)")
    ap.add_argument("--draws", type=int, default=300)
    ap.add_argument("--seed", default="hunt")
    ap.add_argument("--families", default="exchanges,small,meeting,two,rack-joker")
    ap.add_argument("--presets", default="sabra,sabra-way,pressman-1998,tournament")
    ap.add_argument("--exact", action="store_true",
                    help="also print tables where the mutant finds the same hint but does not "
                         "prove it best while the real code does (a test asserting "
                         "`Move.exact` there kills it)")
    ap.add_argument("--claims", action="store_true",
                    help="where a mutant calls the same hint proven that the real code leaves "
                         "unproven, hold it to the brute force of tests/referee/test_hints.py "
                         "(racks of 7 tiles or fewer; 60 s at most): the comparison with the "
                         "real code alone cannot see such a wrong proof")
    ap.add_argument("--any", action="store_true",
                    help="also print every other table where the mutant's (tiles, points, "
                         "proven) differs from the real code's, either way (no brute force)")
    ap.add_argument("--workdir", type=Path,
                    default=Path(tempfile.gettempdir()) / "rummiref-mutant-hunt")
    args = ap.parse_args(argv)
    if not (args.workdir / "mutants" / "referee").exists():
        _mutated_copy(args.workdir)
    os.environ["MUTANT_UNDER_TEST"] = ""
    sys.path[:0] = [str(args.workdir / "mutants"), str(REPO)]
    import referee

    assert Path(referee.__file__).is_relative_to(args.workdir), referee.__file__
    from referee import best_move, check_turn

    families = _families()
    chosen = [families[f] for f in args.families.split(",")]
    presets = args.presets.split(",")

    def late(*_):
        raise TimeoutError

    signal.signal(signal.SIGALRM, late)

    # search.py's caches (each colour's moves, its run-state tables) are process-wide and
    # keyed without the mutant: with a search.py mutant named, every hint starts from empty
    # ones, or the mutant would be handed the real code's moves and the real code its own
    fresh = any(m.startswith("referee.search.") for m in args.mutants)

    def hint(preset, table, rack, mutant):
        if fresh:
            from referee import search as _search

            _search._OPTIONS.clear()
            _search._drop_moves()
            (_search._STATES, _search._TRANS, _search._CLOSABLE, _search._NEED1,
             _search._NEED2) = _search._build_states()
        os.environ["MUTANT_UNDER_TEST"] = mutant
        signal.alarm(20)
        try:
            move = best_move(table, rack, preset, cpu_limit=None)
            legal = check_turn(table, move.table, rack, rules=preset).legal
            return len(move.placed), move.points, move.exact, legal
        except Exception as e:  # a crash tells the mutant apart too
            return f"{type(e).__name__}"
        finally:
            signal.alarm(0)
            os.environ["MUTANT_UNDER_TEST"] = ""

    rng = random.Random(args.seed)
    told = Counter()
    for _ in range(args.draws):
        drawn = None
        while drawn is None:
            drawn = rng.choice(chosen)(rng)
        table, rack = drawn
        preset = rng.choice(presets)
        real = hint(preset, table, rack, "")
        if not isinstance(real, tuple):
            continue
        brute = ...  # (--claims) the brute force's best (None past its time), once a table
        for name in args.mutants:
            if told[name] >= 3:
                continue
            got = hint(preset, table, rack, name)
            if not isinstance(got, tuple):
                kind = f"crash ({got})"
            elif not got[3]:
                kind = "illegal"
            elif got[:2] < real[:2]:
                kind = "wrongly proven" if got[2] else "worse"
            elif args.exact and got[:2] == real[:2] and real[2] and not got[2]:
                kind = "not proven"
            elif (args.claims and got[:2] == real[:2] and got[2] and not real[2]
                  and len(rack) <= 7):
                if brute is ...:
                    brute = _brute(table, rack, preset)
                if brute is None or brute == got[:2]:
                    continue
                kind = f"wrong proof (brute force {brute})"
            elif args.any and got[:3] != real[:3]:
                kind = "differs"
            else:
                continue
            told[name] += 1
            print(f"{name}: {kind}: {preset}; {table}; {' '.join(map(str, rack))}; "
                  f"real {real[:3]}, mutant {got if isinstance(got, str) else got[:3]}",
                  flush=True)
    print(f"{args.draws} tables; told apart: "
          + (", ".join(f"{n.rsplit('.', 1)[1]} {k}" for n, k in told.items()) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
