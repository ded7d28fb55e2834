"""Close phone photos of whole tiles, pasted on a table at a table tile's size (how the real
close-ups of the modern edition that the reader misreads were put together), read as a table.

The real close-ups read 85% of numbers right, most often a 3 read as 13 and a 6 as 10. The
synthetic ones (``vision.synth.pasted``) read right with the named editions' own numerals; with
numerals as big and heavy as a real modern tile's can be (0.6 of the face, heavy strokes) the
reader makes those same mistakes, even on a well-cut crop: the synthetic editions it trained on
draw numerals 0.26 to 0.46 of the face high (``vision.synth.editions.Edition.random``)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from vision.evaluate import match  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.synth import edition, render_scene  # noqa: E402
from vision.synth.pasted import render_pasted  # noqa: E402

TABLE = "R3 K3 B3 O3 | K6 B6 R6 | B9 K9 O9"


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def _read(reader, img, labels) -> list[str]:
    """The tile read at each labelled tile ('-' where none was found)."""
    reading = reader.read(img)
    found = match(np.array([t.centre for t in reading.tiles]).reshape(-1, 2),
                  [c for _, c in labels])
    return [reading.tiles[found[g]].tile if g in found else "-" for g in range(len(labels))]


def test_pasted_tables_are_drawn_from_their_seed_with_the_tiles_as_laid():
    a, la = render_pasted(TABLE, seed=4, edition="modern-thin", tile_width=50)
    b, lb = render_pasted(TABLE, seed=4, edition="modern-thin", tile_width=50)
    assert np.array_equal(a, b)
    assert [t for t, _ in la] == TABLE.replace("|", "").split()
    assert la.melds == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]
    for (_, c), (_, d) in zip(la, lb):
        assert np.array_equal(c, d)
        # pasted at a table tile's size: about as long as a 50-pixel-wide tile is
        long = float(np.hypot(*(c[3] - c[0])))
        assert 50 * 1.2 < long < 50 * 1.8
    img, labels = render_scene("modern-bold", seed=1, kind="pasted")
    assert img.ndim == 3 and len(labels) >= 1
    with pytest.raises(ValueError, match="unknown cut"):
        render_pasted("R1", seed=0, cut="scissors")


def test_pasted_close_ups_of_an_editions_own_numerals_are_read_right(reader):
    """Each tile its own close photo (side and rim showing, its own white balance and
    blur), cut out whole and shrunk into a meld on a table."""
    ed = edition("modern-bold")
    img, labels = render_pasted(TABLE, seed=2, edition="modern-bold", tile_width=70,
                                numeral=ed.number_h, weight=ed.thickness)
    assert _read(reader, img, labels) == [t for t, _ in labels]


@pytest.mark.xfail(strict=True, reason="the reader reads big, heavy numerals as two digits "
                   "(R3 as R13, B6 as B10): the real close-ups' mistake; needs a reader "
                   "trained on such numerals (see this module's docstring)")
def test_pasted_close_ups_of_big_heavy_numerals_are_read_right(reader):
    img, labels = render_pasted(TABLE, seed=2, edition="modern-bold", tile_width=70,
                                numeral=0.6, weight=1.8)
    assert _read(reader, img, labels) == [t for t, _ in labels]
