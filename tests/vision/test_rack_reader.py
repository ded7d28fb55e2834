"""The reader reads a synthetic rack photo in its rows, in Python and on the command line."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from referee.cli import main as rummiref  # noqa: E402
from tests.vision.rack_tiles import ROWS  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.synth import edition, render_rack  # noqa: E402


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def test_the_reader_reads_a_synthetic_rack_in_rows(reader):
    img, _ = render_rack(ROWS, seed=1, size=(1200, 900), edition=edition("modern-bold"),
                         perspective=0.3)
    rack = reader.read(img, rack=True)
    assert [[rack.tiles[i].tile for i in row] for row in rack.melds] == ROWS


def test_read_rack_on_the_command_line(tmp_path, capsys):
    img, _ = render_rack(ROWS, seed=3, size=(1200, 900), edition=edition("classic"),
                         perspective=0.2)
    path = tmp_path / "rack.jpg"
    cv2.imwrite(str(path), img)
    out = tmp_path / "rack-annotated.png"
    assert rummiref(["read", "--rack", str(path), "--annotate", str(out)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0] == f"{path}: R1 R2 R3 J K13 B7 / B5 B6 O9 K9 R10 R11 K3"
    assert cv2.imread(str(out)).shape == img.shape


@pytest.mark.parametrize("seed", range(6))
def test_a_closeups_big_tiles_are_found_whole(reader, seed):
    """A close-up's tiles (a fifth of the picture each) are bigger than any the finder sizes
    well at its usual input size, where it finds only their middle (then 0.58 to 0.79 of
    their length); the photo is looked at again scaled down, and each tile is found whole
    (within 20% of its length) and read. Classic tiles, which the reader knows: only the
    finding is tested."""
    from vision.evaluate import match
    from vision.geometry import rect_from_points
    from vision.synth import render_closeup

    img, labels = render_closeup("R3 K11 B8", seed=seed, size=(1000, 750), fraction=0.2,
                                 edition=edition("classic"))
    reading = reader.read(img, rack=True)
    found = match(np.array([t.centre for t in reading.tiles]).reshape(-1, 2),
                  [c for _, c in labels])
    assert len(found) == len(labels) == len(reading.tiles)
    for g, (tile, corners) in enumerate(labels):
        got = reading.tiles[found[g]]
        assert got.tile == tile
        assert rect_from_points(got.corners)[2] == pytest.approx(
            rect_from_points(corners)[2], rel=0.2)


class _LessSure:
    """A finder (an ONNX session's ``run``) less sure of everything than the shipped one: its
    heat ``factor`` times the shipped finder's, on every look at every size."""

    def __init__(self, session, factor: float):
        self.session, self.factor = session, factor

    def run(self, names, feeds):
        out = [o.copy() for o in self.session.run(names, feeds)]
        heat = 1.0 / (1.0 + np.exp(-out[0][:, 0].astype(np.float64)))
        p = heat * self.factor
        out[0][:, 0] = np.log(p / (1.0 - p))
        return out


def test_a_close_up_is_found_whole_at_the_readers_own_threshold(reader):
    """``detect_threshold`` is the heat a find needs, on every look the reader takes: a finder
    less sure of everything (its heat 0.45 times the shipped one's, so that nothing reaches
    0.5: a tile set it knows less well), in a reader built with a threshold to match (0.45
    times 0.5), finds a close-up's tiles as the shipped finder does at 0.5, each whole, also
    where the photo is looked at again scaled down."""
    from vision.geometry import rect_from_points
    from vision.synth import render_closeup

    img, labels = render_closeup("R3 K11 B8", seed=0, size=(1000, 750), fraction=0.2,
                                 edition=edition("classic"))
    shipped = sorted(reader.detect(img), key=lambda d: tuple(d["centre"]))
    less = Reader(detect_threshold=0.45 * 0.5)
    less.finder = _LessSure(less.finder, 0.45)
    found = sorted(less.detect(img), key=lambda d: tuple(d["centre"]))
    assert len(found) == len(shipped)
    for d, s in zip(found, shipped):
        assert np.hypot(*(d["centre"] - s["centre"])) < 1.0
        assert (d["long"], d["short"]) == pytest.approx((s["long"], s["short"]), rel=0.01)
    # each tile drawn is found whole (the first look found only its middle)
    for _, corners in labels:
        centre, _, long, _ = rect_from_points(corners)
        d = min(found, key=lambda d: np.hypot(*(d["centre"] - centre)))
        assert d["long"] == pytest.approx(long, rel=0.2)


def test_the_close_up_look_replaces_a_find_only_by_the_whole_tile_it_lies_in():
    """Each find of the usual look takes the outline of the scaled-down look's find whose tile
    it lies in: that find's centre within half its width, and at most twice as long (the
    first find held the tile's middle). A find with no such tile keeps its own outline: the
    nearest one of the scaled look is another tile, or a stretch of table several times
    bigger than the tiles."""
    from vision.reader import _resized

    def find(x, long, short):
        return {"centre": np.array([x, 100.0]), "long": float(long), "short": float(short),
                "down": np.array([0.0, 1.0]), "score": 0.9}

    middle = find(100, 50, 35)           # a big tile's middle...
    whole = find(104, 90, 65)            # ...and the whole tile in the scaled look
    beside = find(170, 50, 35)           # nearest to that tile, 66 px away: another tile
    small = find(400, 50, 35)
    table = find(405, 120, 90)           # 2.4 times as long: no tile
    got = _resized([middle, beside, small], [whole, table])
    assert got[0] is whole and got[1] is beside and got[2] is small
    assert _resized([middle], []) == [middle]
    # at the edges themselves: a centre half a width away, twice as long, still fits
    edge = find(132.5, 100, 65)
    assert _resized([middle], [edge])[0] is edge
