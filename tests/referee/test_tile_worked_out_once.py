"""A tile keeps its hash and its place in the sort order (worked out once, when it is made):
equal tiles hash alike however they were made, a tile copied or unpickled from another
process is found among this process's tiles (the hash of a colour's letter differs from one
process to the next), and tiles compare and sort by colour (in the order of COLOURS, the
joker last) and then number."""

import copy
import dataclasses
import itertools
import os
import pickle
import subprocess
import sys
from collections import Counter
from pathlib import Path

from referee.tiles import COLOURS, JOKER, Tile, parse_tiles

ROOT = Path(__file__).resolve().parents[2]


def test_equal_tiles_hash_alike_however_made():
    made = [Tile(COLOURS[0], 7), parse_tiles(f"{COLOURS[0].value}7")[0],
            dataclasses.replace(Tile(COLOURS[0], 5), number=7), copy.deepcopy(Tile(COLOURS[0], 7))]
    assert len({hash(t) for t in made}) == 1
    assert Counter(made)[Tile(COLOURS[0], 7)] == 4
    assert hash(JOKER) == hash(parse_tiles("J")[0])
    # different tiles: no two of the 53 kinds collide as dict keys
    kinds = {Tile(c, n) for c in COLOURS for n in range(1, 14)} | {JOKER}
    assert len(kinds) == 53


def test_a_tile_from_another_process_is_found():
    code = ("import pickle, sys; from referee.tiles import parse_tiles; "
            "sys.stdout.buffer.write(pickle.dumps(parse_tiles('R7 K13 J')))")
    env = dict(os.environ, PYTHONHASHSEED="12345", PYTHONPATH=str(ROOT))
    data = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                          capture_output=True).stdout
    theirs = pickle.loads(data)
    ours = {t: i for i, t in enumerate(parse_tiles("R7 K13 J"))}
    assert [ours.get(t) for t in theirs] == [0, 1, 2]


def test_tiles_compare_and_sort_by_colour_then_number():
    kinds = [Tile(c, n) for c in COLOURS for n in range(1, 14)] + [JOKER]
    shuffled = kinds[::-1][1::2] + kinds[::-1][0::2]
    assert sorted(shuffled) == kinds
    for a, b in itertools.product(kinds, kinds):
        assert (a == b) == (a.colour == b.colour and a.number == b.number)
        assert (a < b) == (kinds.index(a) < kinds.index(b))
    assert Tile(COLOURS[1], 3) == parse_tiles(f"{COLOURS[1].value}3")[0]
    assert Tile(COLOURS[1], 3) != f"{COLOURS[1].value}3"
