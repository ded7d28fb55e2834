"""`rummiref evaluate --melds DIR`: the true melds come from a folder of their own (as our
hand-made ones for the shared photos), not from the reader's own grouping rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.evaluate import evaluate
from vision.labels import iter_labelled, write_labels
from vision.reading import Reading, TileReading

pytest.importorskip("cv2")

TILES = ["R3", "R4", "K9", "B9"]
W, H, GAP = 40, 56, 4


def _outline(k: int) -> np.ndarray:
    x = 20 + k * (W + GAP)
    return np.array([[x, 20], [x + W, 20], [x + W, 20 + H], [x, 20 + H]], np.float32)


class TwoMeldsReader:
    """Reads the four tiles right, grouped as R3 R4 | K9 B9."""

    def read(self, path) -> Reading:
        tiles = [TileReading(t, 0.99, _outline(k)) for k, t in enumerate(TILES)]
        return Reading(tiles=tiles, melds=[[0, 1], [2, 3]], image_size=(240, 100))


@pytest.fixture()
def folder(tmp_path) -> Path:
    # four tiles evenly spaced in one row: the geometric rule makes them one meld
    write_labels(tmp_path / "photos", "row", np.full((100, 240, 3), 90, np.uint8),
                 [(t, _outline(k)) for k, t in enumerate(TILES)], suffix=".png")
    return tmp_path / "photos"


def test_given_true_melds_are_used_instead_of_the_derived_ones(folder, tmp_path):
    truth = tmp_path / "truth"
    truth.mkdir()
    (truth / "row.txt").write_text("0 1\n2 3\n")
    derived = evaluate(folder, TwoMeldsReader(), progress=False)
    assert derived["meld_truth"].startswith("derived")
    assert (derived["melds_grouped_right"], derived["melds"]) == (0, 1)

    given = evaluate(folder, TwoMeldsReader(), melds_dir=truth, progress=False)
    assert (given["melds_grouped_right"], given["melds"]) == (2, 2)
    assert given["meld_truth"] == f"from {truth}"
    assert given["per_image"][0]["meld_misses"] == []


def test_a_missed_meld_says_what_was_read_and_lone_tiles_count_apart(folder, tmp_path):
    truth = tmp_path / "truth"
    truth.mkdir()
    # R3 R4 laid together; K9 and B9 each lying on its own
    (truth / "row.txt").write_text("0 1\n2\n3\n")
    r = evaluate(folder, TwoMeldsReader(), melds_dir=truth, progress=False)
    assert (r["melds_grouped_right"], r["melds"]) == (1, 3)
    assert (r["melds_of_two_or_more_right"], r["melds_of_two_or_more"]) == (1, 1)
    assert r["per_image"][0]["meld_misses"] == [
        "true K9 (lines 2); read K9 B9", "true B9 (lines 3); read K9 B9"]


def test_a_missing_folder_of_true_melds_is_an_error(folder, tmp_path):
    with pytest.raises(FileNotFoundError, match="true melds"):
        evaluate(folder, TwoMeldsReader(), melds_dir=tmp_path / "nowhere", progress=False)


def test_our_valid_melds_cover_every_labelled_tile_once():
    valid = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "photos" / "valid"
    melds = Path(__file__).resolve().parents[2] / "bench" / "valid_melds"
    if not valid.is_dir():
        pytest.skip(f"{valid} not found")
    items = list(iter_labelled(valid, melds_dir=melds))
    assert items and all(it.melds is not None for it in items)
    for it in items:
        lines = sorted(g for m in it.melds for g in m)
        assert lines == list(range(len(it.tiles))), it.stem
