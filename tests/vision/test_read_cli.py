"""`rummiref read` and `evaluate`: JSON and text output, the annotated picture, and bad files
(corrupt, truncated, huge, no tiles) that each get one clear message."""

from __future__ import annotations

import json
import struct
import time
import zlib
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from referee.cli import main as rummiref  # noqa: E402
from vision.imageio import ImageError, check_image, load_image  # noqa: E402
from vision.labels import write_labels  # noqa: E402
from vision.reader import Reader, Reading  # noqa: E402
from vision.synth import render_table  # noqa: E402

from tests.vision.bombs import png_bomb
from tests.vision.sample_tables import TABLES


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


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
    assert all(isinstance(m, list) and all(isinstance(x, int) for x in m) for m in obj["melds"])
    assert sorted(x for m in obj["melds"] for x in m) == list(range(len(obj["tiles"])))
    for u in obj["uncertain"]:
        assert {"index", "tile", "reason", "alternatives"} <= set(u)
    # the one wire form: what the CLI prints is what a server takes back
    assert Reading.from_json(obj).to_json() == obj


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


def test_read_says_when_the_annotated_picture_cannot_be_written(table_png, tmp_path, capsys):
    # Each was a traceback: a folder under a file (FileExistsError from mkdir) and a name no
    # image writer takes (cv2.error, after the photo had been read).
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    out = blocker / "out.png"
    assert rummiref(["read", str(table_png), "--annotate", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith(f"{table_png}: ")   # the reading is still printed
    assert f"cannot write {out}" in captured.err
    assert rummiref(["read", str(table_png), "--annotate", str(tmp_path / "out.txt")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "give a .png or .jpg file name" in captured.err


def test_evaluate_refuses_a_confusion_picture_it_cannot_write_before_reading(tmp_path, capsys):
    # A folder under a file, or a name no image writer takes: a traceback once the whole
    # folder had been read; now bad input before anything is read.
    folder = tmp_path / "labelled"
    img, labels = render_table(TABLES[0], seed=200, classic=True, upside_down=0.0)
    write_labels(folder, "img0", img, list(labels), labels.melds, suffix=".jpg")
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    for png, says in [(blocker / "cm.png", "cannot make its folder"),
                      (tmp_path / "cm.txt", "give a .png or .jpg file name")]:
        assert rummiref(["evaluate", str(folder), "--confusion", str(png)]) == 2
        captured = capsys.readouterr()
        assert says in captured.err and "Traceback" not in captured.err, captured.err
        assert captured.out == ""


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


def _png_header_only(w: int, h: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)))


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
    files["huge"].write_bytes(png_bomb(20000, 20000))
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


def test_evaluate_takes_true_melds_from_a_folder_given_apart(tmp_path, capsys):
    folder = tmp_path / "labelled"
    img, labels = render_table(TABLES[0], seed=200, classic=True, upside_down=0.0)
    write_labels(folder, "img0", img, list(labels), labels.melds, suffix=".jpg")
    # our truth: every tile lies on its own, so each meld the reader groups misses
    truth = tmp_path / "truth"
    truth.mkdir()
    (truth / "img0.txt").write_text("".join(f"{i}\n" for i in range(len(labels))))
    assert rummiref(["evaluate", str(folder), "--melds", str(truth), "--per-image",
                     "--confusion", str(tmp_path / "cm.png")]) == 0
    out = capsys.readouterr().out
    assert f"melds grouped right: 0/{len(labels)}" in out
    assert f"true melds from {truth}" in out
    assert "meld missed: true R7 (lines 0); read R7 R8 R9" in out


@pytest.mark.parametrize("line", ["0 1 two", "0 1 99", "-1 0"])
def test_a_broken_true_melds_file_is_named_with_its_line(tmp_path, capsys, line):
    """A melds file written by hand with a word, or a line number no label has: one clear
    line naming the file and line, exit 2, no traceback and no figure graded against it."""
    folder = tmp_path / "labelled"
    img, labels = render_table(TABLES[0], seed=200, classic=True, upside_down=0.0)
    write_labels(folder, "img0", img, list(labels), labels.melds, suffix=".jpg")
    truth = tmp_path / "truth"
    truth.mkdir()
    (truth / "img0.txt").write_text("0 1 2\n\n" + line + "\n")
    assert rummiref(["evaluate", str(folder), "--melds", str(truth),
                     "--confusion", str(tmp_path / "cm.png")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert f"{truth / 'img0.txt'}: line 3: {line!r} is not a meld" in captured.err
