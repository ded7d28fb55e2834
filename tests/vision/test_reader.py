"""The tile reader: synthetic tables, the committed models, the CLI, bad input, meld grouping
and the rules as a sanity check (never a fix)."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from referee.cli import main as rummiref  # noqa: E402
from vision.geometry import flip_corners, rect_corners  # noqa: E402
from vision.imageio import ImageError, check_image, load_image  # noqa: E402
from vision.labels import write_labels  # noqa: E402
from vision.melds import group_melds, sanity_check  # noqa: E402
from vision.reader import Reader, Reading, TileReading, models_dir  # noqa: E402
from vision.synth import render_table  # noqa: E402

from tests.conftest import REPO


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


# ---------------------------------------------------------------- synthetic tables

def test_render_table_is_deterministic_and_labelled():
    img1, labels1 = render_table("R7 R8 R9 | K5 B5 O5 J", seed=11)
    img2, labels2 = render_table("R7 R8 R9 | K5 B5 O5 J", seed=11)
    assert np.array_equal(img1, img2)
    assert [t for t, _ in labels1] == ["R7", "R8", "R9", "K5", "B5", "O5", "J"]
    assert labels1.melds == [[0, 1, 2], [3, 4, 5, 6]]
    h, w = img1.shape[:2]
    for (_, c1), (_, c2) in zip(labels1, labels2):
        assert c1.shape == (4, 2) and np.allclose(c1, c2)
        assert (c1[:, 0] > -5).all() and (c1[:, 0] < w + 5).all()
    other, _ = render_table("R7 R8 R9 | K5 B5 O5 J", seed=12)
    assert not np.array_equal(img1, other)


def test_models_are_committed_and_small():
    d = models_dir()
    for name in ("tile-finder", "tile-reader"):
        onnx = d / f"{name}.onnx"
        assert onnx.stat().st_size < 25 * 1024 * 1024
        card = (d / f"{name}.md").read_text()
        assert "CC BY 4.0" in card and "rummiref train" in card
        meta = json.loads((d / f"{name}.json").read_text())
        assert meta["kind"] == name


def test_models_load_and_run(reader):
    probs = reader.classify(np.zeros((3, 56, 40, 3), np.uint8))
    assert probs.shape == (3, 107)
    assert np.allclose(probs.sum(1), 1.0, atol=1e-4)
    assert reader.detect(np.full((300, 400, 3), 90, np.uint8)) == []


TABLES = ["R7 R8 R9 | K5 B5 O5 J | B10 B11 B12 B13",
          "O1 O2 O3 O4 | K9 R9 B9 | R11 R12 R13",
          "K3 K4 K5 K6 K7 | B6 O6 R6 | J O12 O13",
          "B2 B3 B4 | R10 K10 O10 B10 | K12 K13 J"]


def test_reads_rendered_tables(reader):
    """Classic white tiles on random tables: tiles and melds read right (small tolerance)."""
    right = total = read = melds_right = melds_total = exact = 0
    for k, text in enumerate(TABLES):
        img, labels = render_table(text, seed=100 + k, classic=True, upside_down=0.0)
        reading = reader.read(img)
        truth = [t for t, _ in labels]
        total += len(truth)
        read += len(reading.tiles)
        got = [m for m in reading.meld_tiles]
        want = [[truth[i] for i in m] for m in labels.melds]
        right += sum(min(sum(1 for t in reading.notations if t == x), truth.count(x))
                     for x in set(truth))
        melds_total += len(want)
        melds_right += sum(1 for m in want if m in got)
        exact += str(reading.table) == " | ".join(" ".join(m) for m in want) or \
            sorted(map(tuple, got)) == sorted(map(tuple, want))
    precision, recall = right / max(read, 1), right / total
    assert recall >= 0.9, (right, total)
    assert precision >= 0.9, (right, read)
    assert melds_right / melds_total >= 0.75
    assert exact >= 2


def test_upside_down_meld_is_read_in_laid_order(reader):
    img, labels = render_table("K6 K7 K8 K9", seed=7, classic=True, upside_down=1.0, angle=0.0)
    # the whole meld lies upside down for the camera: read as laid, not mirrored
    reading = reader.read(img)
    assert reading.meld_tiles == [["K6", "K7", "K8", "K9"]]
    assert all(t.upside_down for t in reading.tiles)


def test_tile_seen_at_a_wrong_angle_is_still_read(reader, monkeypatch):
    """The finder's direction can be well off for a thick tile seen from the side: the reader
    looks again, turned, at tiles it is unsure of, and the surest look wins."""
    img, labels = render_table("R3 R4 R5 R6 | K9 B9 O9", seed=11, classic=True,
                               upside_down=0.0, angle=0.0)
    truth = sorted(t for t, _ in labels)
    found = reader.detect(img)
    assert len(found) == len(truth)

    def turned(a_deg):
        a = np.radians(a_deg)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        return [{**d, "down": rot @ np.asarray(d["down"], float)} for d in found]

    for deg in (25.0, -25.0):
        monkeypatch.setattr(reader, "detect", lambda im, deg=deg: turned(deg))
        assert sorted(reading_notations(reader.read(img))) == truth, deg


def reading_notations(reading) -> list[str]:
    return [t.tile for t in reading.tiles]


def test_second_look_keeps_the_surest_reading_and_averages_not_a_tile():
    from vision.geometry import CropSource, N_TILES, NOT_A_TILE

    r = Reader.__new__(Reader)
    r.second_look_turns, r.second_look_below = (-15.0, 15.0), 0.9
    width = 2 * N_TILES + 1

    def probs(**mass):
        p = np.zeros(width)
        for k, v in mass.items():
            p[int(k[1:])] = v
        return p

    first = np.stack([probs(t5=0.99, t106=0.01),            # sure: not looked at again
                      probs(t5=0.5, t7=0.3, t106=0.2),      # unsure: looked at twice more
                      probs(t2=0.3, t106=0.7)])             # probably not a tile
    looks = iter([np.stack([probs(t7=0.9, t106=0.1), probs(t7=0.6, t5=0.2, t106=0.2),
                            probs(t2=0.4, t106=0.6), probs(t60=0.45, t106=0.55)])])
    asked = []

    def classify(crops):
        asked.append(len(crops))
        return next(looks)

    r.classify = classify
    img = np.full((200, 200, 3), 200, np.uint8)
    corners = [rect_corners((50 + 40 * i, 100), 30, 42, (0, 1)) for i in range(3)]
    out = r._second_look(CropSource(img), corners, first)
    assert asked == [4]  # two unsure tiles x two turns
    assert np.array_equal(out[0], first[0])
    # tile 1: the -15 degree look (R? index 7 at 0.9) is the surest; not-a-tile is the mean
    nt = (0.2 + 0.1 + 0.2) / 3
    assert out[1].argmax() == 7 and out[1][NOT_A_TILE] == pytest.approx(nt)
    assert out[1][:NOT_A_TILE].sum() == pytest.approx(1 - nt)
    # tile 2: upside-down 60 (index 60 - 53 = 7) at 0.45 is its surest look, but on average
    # it is not a tile, and stays so
    both = out[2][:N_TILES] + out[2][N_TILES:NOT_A_TILE]
    assert out[2][NOT_A_TILE] == pytest.approx((0.7 + 0.6 + 0.55) / 3)
    assert out[2][NOT_A_TILE] > both.max()


def test_six_or_nine_follows_the_way_up_of_its_meld():
    from vision.reader import _six_or_nine_by_neighbours

    def tile(name, conf, x, up, alts=()):
        c = rect_corners((x, 100), 30, 42, (0, 1))
        return TileReading(name, conf, flip_corners(c) if up else c, list(alts), up)

    # K5 K? K7 lie upright; the middle tile looks like an upside-down 9 but might be a 6
    tiles = [tile("K5", 0.99, 50, False), tile("K9", 0.62, 82, True, [("K6", 0.31)]),
             tile("K7", 0.98, 114, False)]
    notes = _six_or_nine_by_neighbours(tiles, [[0, 1, 2]])
    assert [t.tile for t in tiles] == ["K5", "K6", "K7"]
    assert not tiles[1].upside_down and tiles[1].confidence == pytest.approx(0.31)
    assert ("K9", 0.62) in tiles[1].alternatives
    assert notes and "K6" in notes[0] and "K9 at 0.62" in notes[0]
    assert group_melds([t.corners for t in tiles]) == [[0, 1, 2]]

    # a 9 read surely stays a 9, even against its meld (the player laid it so)
    sure = [tile("K5", 0.99, 50, False), tile("K9", 0.97, 82, True, [("K6", 0.02)]),
            tile("K7", 0.98, 114, False)]
    assert _six_or_nine_by_neighbours(sure, [[0, 1, 2]]) == [] and sure[1].tile == "K9"
    # neighbours that disagree among themselves, or a tile alone, decide nothing
    mixed = [tile("K5", 0.99, 50, False), tile("K9", 0.6, 82, True, [("K6", 0.3)]),
             tile("K7", 0.98, 114, True)]
    assert _six_or_nine_by_neighbours(mixed, [[0, 1, 2]]) == [] and mixed[1].tile == "K9"
    alone = [tile("R6", 0.55, 50, True, [("R9", 0.4)])]
    assert _six_or_nine_by_neighbours(alone, [[0]]) == [] and alone[0].tile == "R6"


def test_doubtful_find_of_a_size_no_tile_has_is_not_read():
    from vision.reader import _drop_odd_sizes

    def tile(name, conf, x, size=1.0):
        return TileReading(name, conf, rect_corners((x, 100), 30 * size, 42 * size, (0, 1)))

    sure = [tile("R3", 0.99, 50), tile("R4", 0.98, 82), tile("R5", 0.97, 114),
            tile("K9", 0.95, 300, 1.3)]  # a little bigger: nearer the camera
    big = tile("K4", 0.22, 600, 3.0)          # a shadow on the rack, three tiles wide
    tiny = tile("O2", 0.3, 700, 0.4)
    kept, dropped = _drop_odd_sizes(sure + [big, tiny], doubtful_below=0.75)
    assert kept == sure and dropped == [big, tiny]
    # a sure reading is kept whatever its size (a close-up beside distant tiles) ...
    close = tile("B7", 0.96, 600, 3.0)
    assert _drop_odd_sizes(sure + [close], 0.75) == (sure + [close], [])
    # ... and with fewer than three sure tiles there is nothing to compare with
    few = [tile("R3", 0.99, 50), tile("R4", 0.5, 82), tile("R5", 0.5, 114), big]
    assert _drop_odd_sizes(few, 0.75) == (few, [])


# ---------------------------------------------------------------- CLI

@pytest.fixture(scope="module")
def table_png(tmp_path_factory) -> Path:
    img, _ = render_table("R7 R8 R9 | K5 B5 O5 J", seed=3, classic=True, upside_down=0.0)
    path = tmp_path_factory.mktemp("read") / "table.png"
    cv2.imwrite(str(path), img)
    return path


def test_read_json_shape(table_png, capsys):
    assert rummiref(["read", str(table_png), "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert {"image", "tiles", "melds", "uncertain"} <= set(obj)
    assert obj["image"] == str(table_png)
    assert obj["tiles"], "no tiles read"
    for t in obj["tiles"]:
        assert set(t) >= {"tile", "confidence", "corners"}
        assert 0.0 <= t["confidence"] <= 1.0
        assert len(t["corners"]) == 4 and all(len(p) == 2 for p in t["corners"])
    assert all(isinstance(m, list) and all(isinstance(x, str) for x in m) for m in obj["melds"])
    assert sorted(x for m in obj["melds"] for x in m) == sorted(t["tile"] for t in obj["tiles"])
    for u in obj["uncertain"]:
        assert {"index", "tile", "reason", "alternatives"} <= set(u)


def test_read_text_and_annotate(table_png, tmp_path, capsys):
    out = tmp_path / "out.png"
    assert rummiref(["read", str(table_png), "--annotate", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{table_png}: ")
    assert "|" in text.splitlines()[0]
    drawn = cv2.imread(str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert drawn.shape == cv2.imread(str(table_png)).shape
    assert not np.array_equal(drawn, cv2.imread(str(table_png)))


def test_evaluate_tiny_folder(tmp_path, capsys):
    folder = tmp_path / "labelled"
    for k, text in enumerate(TABLES[:3]):
        img, labels = render_table(text, seed=200 + k, classic=True, upside_down=0.0)
        write_labels(folder, f"img{k}", img, list(labels), labels.melds, suffix=".jpg")
    png = tmp_path / "cm.png"
    assert rummiref(["evaluate", str(folder), "--confusion", str(png)]) == 0
    out = capsys.readouterr().out
    for needle in ("tile precision", "recall", "F1", "images read exactly", "melds grouped right",
                   "6/9", "1/7", "orange/red"):
        assert needle in out
    cm = cv2.imread(str(png))
    assert cm is not None and cm.shape[0] > 500
    # the figures are real: F1 on these easy tables is high
    f1 = float(out.split("F1 ")[1].split()[0])
    assert f1 >= 0.85


# ---------------------------------------------------------------- bad input

def _png_header_only(w: int, h: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)))


def _huge_png(w: int, h: int) -> bytes:
    """A real, valid 20000x20000 black PNG (1 bit per pixel, about 50 kB compressed)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    comp = zlib.compressobj(9)
    row = b"\x00" * (1 + (w + 7) // 8)
    body = b"".join(comp.compress(row) for _ in range(h)) + comp.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory, table_png) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("bad")
    files = {}
    files["zero"] = d / "zero.jpg"
    files["zero"].write_bytes(b"")
    files["text"] = d / "notes.jpg"
    files["text"].write_text("this is a shopping list, not a photo\n")
    files["corrupt"] = d / "corrupt.jpg"
    files["corrupt"].write_bytes(b"\xff\xd8\xff\xe0" + bytes(np.random.default_rng(1).integers(
        0, 256, 5000, dtype=np.uint8)))
    data = table_png.read_bytes()
    files["truncated_png"] = d / "truncated.png"
    files["truncated_png"].write_bytes(data[: len(data) // 3])
    ok, jpg = cv2.imencode(".jpg", cv2.imread(str(table_png)))
    files["truncated_jpg"] = d / "truncated.jpg"
    files["truncated_jpg"].write_bytes(jpg.tobytes()[: len(jpg) // 2])
    files["huge_header"] = d / "huge-header.png"
    files["huge_header"].write_bytes(_png_header_only(20000, 20000) + struct.pack(">I", 10**6)
                                     + b"IDAT" + b"\x00" * 100)  # the pixels cut short
    files["huge"] = d / "huge.png"
    files["huge"].write_bytes(_huge_png(20000, 20000))
    files["black"] = d / "black.png"
    cv2.imwrite(str(files["black"]), np.zeros((750, 1000, 3), np.uint8))
    files["empty_table"] = d / "no-tiles.jpg"
    bg, labels = render_table("", seed=5)
    assert len(labels) == 0
    cv2.imwrite(str(files["empty_table"]), bg)
    files["folder"] = d / "a-folder.jpg"
    files["folder"].mkdir()
    return files


@pytest.mark.parametrize("kind,message", [
    ("zero", "empty"), ("text", "text, not an image"), ("corrupt", "corrupt"),
    ("truncated_png", "truncated"), ("huge_header", "400 megapixels"), ("huge", "400 megapixels"),
    ("folder", "folder"),
])
def test_bad_files_give_a_clear_message(bad_files, kind, message, capsys):
    t0 = time.perf_counter()
    code = rummiref(["read", str(bad_files[kind])])
    err = capsys.readouterr().err
    assert code == 1
    assert message in err and str(bad_files[kind]) in err
    assert "Traceback" not in err
    assert time.perf_counter() - t0 < 10


def test_bad_files_in_json_mode_still_give_one_object_each(bad_files, table_png, capsys):
    code = rummiref(["read", str(bad_files["zero"]), str(table_png), "--json"])
    assert code == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    assert [x["image"] for x in lines] == [str(bad_files["zero"]), str(table_png)]
    assert "error" in lines[0] and lines[0]["tiles"] == []
    assert lines[1]["tiles"]


def test_huge_image_is_bounded(bad_files):
    import resource
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(ImageError, match="400 megapixels"):
        load_image(bad_files["huge"])
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert (after - before) / 1024 < 200  # MB: never decoded the 1.2 GB of pixels


def test_truncated_jpeg_is_named_as_such(reader, bad_files):
    # OpenCV either refuses a truncated JPEG (a clear error) or decodes what is there (a note)
    try:
        reading = reader.read(bad_files["truncated_jpg"])
    except ImageError as exc:
        assert "truncated" in str(exc)
    else:
        assert any("truncated" in n for n in reading.notes)


@pytest.mark.parametrize("kind", ["black", "empty_table"])
def test_images_without_tiles(reader, bad_files, kind):
    reading = reader.read(bad_files[kind])
    assert reading.tiles == [] and reading.melds == [] and str(reading.table) == ""
    assert reading.notes


def test_arrays_of_odd_shapes(reader):
    with pytest.raises(ImageError):
        reader.read(np.zeros((0, 0, 3), np.uint8))
    assert reader.read(np.zeros((50, 60), np.uint8)).tiles == []  # grey, flat
    big = np.full((6000, 8000, 3), 120, np.uint8)
    t0 = time.perf_counter()
    assert reader.read(big).tiles == []
    assert time.perf_counter() - t0 < 10


def test_check_image_reads_headers_only():
    # The header and the start of the pixel data, which is never read.
    info = check_image(_png_header_only(640, 480) + struct.pack(">I", 10**6) + b"IDAT")
    assert (info.format, info.width, info.height) == ("PNG", 640, 480)
    ok, jpg = cv2.imencode(".jpg", np.zeros((33, 77, 3), np.uint8))
    assert (check_image(jpg.tobytes()).width, check_image(jpg.tobytes()).height) == (77, 33)
    with pytest.raises(ImageError, match="text, not an image"):
        check_image(b"hello")


def test_models_missing_is_a_clear_message(tmp_path, table_png, capsys):
    code = rummiref(["read", str(table_png), "--models", str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "tile-finder.onnx" in err and "rummiref train" in err


# ---------------------------------------------------------------- melds and sanity checks

def _tile_at(x, y, tile="R1", conf=0.99, alts=(), down=(0, 1), w=70, h=97):
    c = rect_corners((x, y), w, h, down)
    return TileReading(tile, conf, c, list(alts), upside_down=down[1] < 0)


def test_group_melds_rows_gaps_and_angles():
    row1 = [_tile_at(100 + 72 * k, 100) for k in range(4)]             # touching
    row2 = [_tile_at(100 + 85 * k, 300) for k in range(3)]             # small gaps
    lone = [_tile_at(100 + 72 * 4 + 70, 100)]                          # a tile width away
    d = np.array([np.sin(0.5), np.cos(0.5)])                           # turned about 29 deg
    r = np.array([d[1], -d[0]])
    rot = [TileReading("K1", 0.99, rect_corners(np.array([600, 500]) - r * 72 * k, 70, 97, -d))
           for k in range(3)]
    tiles = row1 + row2 + lone + rot
    melds = group_melds([t.corners for t in tiles])
    as_sets = sorted(sorted(m) for m in melds)
    assert as_sets == sorted([[0, 1, 2, 3], [4, 5, 6], [7], [8, 9, 10]])
    # laid order follows the tiles' reading direction (these lie turned and upside down:
    # in image terms the meld runs leftwards and up, as its tiles are read it starts at 8)
    assert [m for m in melds if 8 in m][0] == [8, 9, 10]
    assert [m for m in melds if 0 in m][0] == [0, 1, 2, 3]


def test_flip_corners_round_trip():
    c = rect_corners((10, 20), 7, 10, (0, 1))
    assert np.allclose(flip_corners(flip_corners(c)), c)
    assert np.allclose(flip_corners(c)[0], c[2])


def _reading(specs):
    tiles = [_tile_at(100 + 72 * k, 100, t, conf, alts) for k, (t, conf, alts) in enumerate(specs)]
    r = Reading(tiles=tiles)
    r.melds = group_melds([t.corners for t in tiles])
    return r


def test_sanity_check_suggests_but_never_fixes():
    r = _reading([("R6", 0.99, []), ("R8", 0.58, [("R7", 0.40), ("B8", 0.01)]),
                  ("R8", 0.98, [])])
    r.uncertain = sanity_check(r)
    assert r.meld_tiles == [["R6", "R8", "R8"]]          # unchanged
    assert str(r.table) == "R6 R8 R8"
    [u] = r.uncertain
    assert u["index"] == 1 and u["tile"] == "R8"
    assert "R8 read at 0.58; as R7 the run would be valid" in u["reason"]
    assert u["alternatives"] == ["R7"]


def test_sanity_check_leaves_a_confident_mistake_a_mistake():
    r = _reading([("R6", 0.99, [("R5", 0.005)]), ("R8", 0.995, [("R7", 0.004)]),
                  ("R9", 0.99, [])])
    assert sanity_check(r) == []                        # invalid, and nobody guesses it valid


def test_sanity_check_flags_third_copies_and_jokers():
    specs = [("K5", 0.99, []), ("K5", 0.97, []), ("K5", 0.8, [("K3", 0.15)]),
             ("J", 0.99, []), ("J", 0.99, []), ("J", 0.9, [("R1", 0.05)])]
    tiles = [_tile_at(100 + 300 * k, 100, t, c, a) for k, (t, c, a) in enumerate(specs)]
    r = Reading(tiles=tiles, melds=[[i] for i in range(6)])
    flags = {u["index"]: u for u in sanity_check(r)}
    assert set(flags) == {2, 5}
    assert "3 copies of K5" in flags[2]["reason"]
    assert "3 jokers" in flags[5]["reason"]


# ---------------------------------------------------------------- packaging

def test_register_imports_nothing_heavy():
    code = ("import sys, argparse, vision.cli; p = argparse.ArgumentParser(); "
            "vision.cli.register(p.add_subparsers()); "
            "print([m for m in ('cv2', 'numpy', 'onnxruntime', 'torch') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, check=True).stdout.strip()
    assert out == "[]"


def test_models_ship_with_the_package():
    text = (REPO / "pyproject.toml").read_text()
    assert '"share/rummiref/models" = ["models/*.onnx"' in text
    assert models_dir() == REPO / "models"
