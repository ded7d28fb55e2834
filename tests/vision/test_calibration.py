"""Calibration to the player's tile set: finding the grid, refusing photos that are not one,
learning an edition the reader never trained on, and the reader using what was stored."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

import cv2  # noqa: E402

from referee.cli import main as rummiref  # noqa: E402
from tests.grid_photos import EDITION_INDEX, held_out_grid  # noqa: E402
from vision import calibration as cal  # noqa: E402
from vision.calibration_grid import GRID, GridError, locate_grid  # noqa: E402
from vision.editions import HELD_OUT, grid_photo, table_photo  # noqa: E402
from vision.geometry import N_TILES  # noqa: E402
from vision.labels import TILES  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.synth import render_table  # noqa: E402

#: The held-out edition the learning tests use (its grid: ``held_out_grid()``).
EDITION = HELD_OUT[EDITION_INDEX]


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


@pytest.fixture(scope="module")
def learned(reader):
    image, _ = held_out_grid()
    return cal.calibrate(reader, image)


def _truth_at(labels, corners) -> str:
    centres = np.array([c.mean(0) for _, c in labels])
    return labels[int(np.hypot(*(centres - corners.mean(0)).T).argmin())][0]


@pytest.mark.parametrize("angle", [3.0, 183.0])
def test_grid_tiles_get_the_tile_of_their_place_either_way_up(reader, angle):
    image, labels = grid_photo(HELD_OUT[0], seed=5, angle=angle)
    grid = locate_grid(reader.detect(image))
    assert len(grid) >= 52
    assert all(g.tile == _truth_at(labels, g.corners) for g in grid)
    # the outline is upright as the grid lies: its top edge is nearer the black row
    for g in grid:
        top, bottom = g.corners[:2].mean(0), g.corners[2:].mean(0)
        assert (bottom - top)[1] * (1 if angle < 90 else -1) > 0


def test_a_table_photo_is_not_a_grid(reader):
    image, _ = render_table("R7 R8 R9 | K5 B5 O5 J", seed=2)
    with pytest.raises(GridError, match=r"found \d+ tiles.*black 1 to 13"):
        locate_grid(reader.detect(image))


def test_a_grid_without_jokers_says_to_add_them(reader):
    image, _ = grid_photo(HELD_OUT[1], seed=4, jokers=0)
    with pytest.raises(GridError, match="no jokers under the red row"):
        locate_grid(reader.detect(image))


def test_rows_in_the_wrong_place_are_refused(reader):
    # the red row laid beside the others instead of under them: three long rows
    rows = [list(GRID[0]), list(GRID[1]), list(GRID[2]) + list(GRID[3]), ["J", "J"]]
    image, _ = render_table(rows, seed=8, size=(1600, 900), edition=HELD_OUT[0],
                            upside_down=0.0, angle=0.0, tilt=0.0)
    with pytest.raises(GridError, match="lay the tiles out in five rows"):
        locate_grid(reader.detect(image))


def test_the_reader_model_gives_its_embedding_and_keeps_its_readings(reader):
    image, _ = grid_photo(HELD_OUT[3], seed=2)
    from vision.geometry import CropSource

    src, rng = CropSource(image), np.random.default_rng(0)
    grid = locate_grid(reader.detect(image))
    crops = np.stack([src.crop(cal._jitter(g.corners, rng)) for g in grid for _ in range(6)])
    logits, emb = cal.embed(reader, crops)
    w, b = cal.shipped_last_layer(logits[:250], emb[:250])
    assert np.abs(emb[250:] @ w.T + b - logits[250:]).max() < 1e-2
    assert np.array_equal(reader.classify(crops).argmax(1), logits.argmax(1))


def _errors(reader, seeds) -> tuple[int, int]:
    wrong = total = 0
    for s in seeds:
        image, labels = table_photo(EDITION, seed=s)
        reading = reader.read(image)
        for t in reading.tiles:
            total += 1
            wrong += t.tile != _truth_at(labels, t.corners)
    return wrong, total


def test_calibration_learns_a_held_out_edition(reader, learned):
    assert len(learned.found) >= 52 and learned.right_after >= learned.right_before
    # the grid's own tiles, seen again in another photo (other light, camera, layout)
    image, labels = grid_photo(EDITION, seed=11)
    grid = locate_grid(reader.detect(image))
    from vision.geometry import CropSource

    src = CropSource(image)
    crops = np.stack([src.crop(g.corners) for g in grid])
    truth = np.array([TILES.index(g.tile) for g in grid])
    logits, emb = cal.embed(reader, crops)

    def right(z):
        return int((np.maximum(z[:, :N_TILES], z[:, N_TILES:2 * N_TILES]).argmax(1)
                    == truth).sum())

    shipped, calibrated = right(logits), right(learned.calibration.logits(emb))
    assert calibrated >= shipped and calibrated >= len(grid) - 2
    # and each tile the way it lies, as the shipped layer reads it (a 6 and a 9 are told
    # apart by it): ``right`` above takes the better of the two ways up
    from vision.geometry import flip_corners

    flipped, femb = cal.embed(reader, np.stack([src.crop(flip_corners(g.corners))
                                                for g in grid]))
    numbered = truth != TILES.index("J")   # a joker reads the same either way up

    def wrong_way(z, zf):
        up, down = z[:, :2 * N_TILES].argmax(1), zf[:, :2 * N_TILES].argmax(1)
        return int((up[numbered] >= N_TILES).sum() + (down[numbered] < N_TILES).sum())

    cal_way = wrong_way(learned.calibration.logits(emb), learned.calibration.logits(femb))
    assert cal_way <= wrong_way(logits, flipped) + 2
    # and tables of that edition are read no worse
    mine = cal.calibrated(reader, learned.calibration)
    seeds = range(500, 503)
    assert _errors(mine, seeds)[0] <= _errors(reader, seeds)[0]


def test_a_stored_calibration_is_found_for_its_game_then_the_default(tmp_path, learned):
    assert cal.find(tmp_path, "g1") is None
    cal.save(learned.calibration, tmp_path)
    assert cal.find(tmp_path, "g1") == tmp_path / "calibration" / "default.npz"
    cal.save(learned.calibration, tmp_path, "g1")
    assert cal.find(tmp_path, "g1") == tmp_path / "calibration" / "game-g1.npz"
    back = cal.load(cal.find(tmp_path, "g1"))
    assert np.array_equal(back.weight, learned.calibration.weight)
    with pytest.raises(ValueError, match="not a game id"):
        cal.calibration_path(tmp_path, "../etc")


def _all_read_as(reader, tile: str) -> cal.Calibration:
    """A calibration that reads every tile as ``tile`` (to see that it is used)."""
    w = np.zeros((2 * N_TILES + 1, 192), np.float32)
    b = np.zeros(2 * N_TILES + 1, np.float32)
    b[TILES.index(tile)] = 50.0
    return cal.Calibration(w, b, cal.model_id(reader), [], "")


def test_rummiref_read_uses_the_stored_default(tmp_path, monkeypatch, capsys, reader):
    image, _ = render_table("R7 R8 R9 | K5 B5 O5", seed=3)
    photo = tmp_path / "t.png"
    cv2.imwrite(str(photo), image)
    monkeypatch.setenv("RUMMIREF_INSTANCE", str(tmp_path / "inst"))
    assert rummiref(["read", str(photo), "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert "K5" in [t["tile"] for t in plain["tiles"]]
    cal.save(_all_read_as(reader, "O13"), tmp_path / "inst")
    assert rummiref(["read", str(photo), "--json"]) == 0
    tiles = [t["tile"] for t in json.loads(capsys.readouterr().out)["tiles"]]
    assert tiles and set(tiles) == {"O13"}


def test_a_calibration_of_another_model_is_not_used(tmp_path, reader):
    other = _all_read_as(reader, "O13")
    other.model = "0" * 16
    cal.save(other, tmp_path)
    assert cal.reader_for(reader, tmp_path).calibration is None
    with pytest.raises(cal.CalibrationUnusable, match="another reader model"):
        cal.calibrated(reader, other)


def test_cli_stores_a_grid_and_refuses_a_table(tmp_path, capsys):
    image, _ = held_out_grid()
    grid = tmp_path / "grid.jpg"
    cv2.imwrite(str(grid), image)
    inst = tmp_path / "inst"
    assert rummiref(["calibrate", str(grid), "--game", "abc", "--instance", str(inst),
                     "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "abc" and len(out["found"]) >= 52
    assert (inst / "calibration" / "game-abc.npz").is_file()
    table, _ = render_table("R7 R8 R9 | K5 B5 O5 J", seed=2)
    bad = tmp_path / "table.jpg"
    cv2.imwrite(str(bad), table)
    assert rummiref(["calibrate", str(bad), "--instance", str(inst)]) == 1
    err = capsys.readouterr().err
    assert "not enough for a calibration grid" in err and "nothing was stored" in err
    assert not (inst / "calibration" / "default.npz").exists()


def test_cli_names_an_unusable_photo_once(tmp_path, capsys):
    # "rummiref: P: P: the file is empty (0 bytes)": the image error names the file already.
    empty = tmp_path / "grid.jpg"
    empty.write_bytes(b"")
    inst = tmp_path / "inst"
    assert rummiref(["calibrate", str(empty), "--instance", str(inst)]) == 1
    err = capsys.readouterr().err
    assert err.count(str(empty)) == 1 and "the file is empty" in err, err
    assert "nothing was stored" in err and not (inst / "calibration").exists()


def test_cli_says_when_the_calibration_cannot_be_stored(tmp_path, capsys):
    # An --instance that is a file: mkdir raised FileExistsError, a traceback after the
    # whole grid had been read.
    image, _ = held_out_grid()
    grid = tmp_path / "grid.jpg"
    cv2.imwrite(str(grid), image)
    a_file = tmp_path / "inst"
    a_file.write_text("x")
    assert rummiref(["calibrate", str(grid), "--instance", str(a_file)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rummiref: cannot store the calibration in ") and "Traceback" not in err
    assert "nothing was stored" in err and err.count("\n") == 1
