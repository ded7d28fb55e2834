"""The reader reads a synthetic rack photo in its rows, in Python and on the command line."""

from __future__ import annotations

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
