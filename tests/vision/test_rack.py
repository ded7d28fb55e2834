"""A photo of a rack is read as a rack: tiles in rows (back row first, left to right), with
the rack's checks flagging doubt instead of refusing the photo. Synthetic racks and
close-ups, and the pictures drawn for phones."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from referee.cli import main as rummiref  # noqa: E402
from vision.annotate import LABEL_HEIGHT, annotate, label_px  # noqa: E402
from vision.rack import as_rack, rows_notation  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.reading import Reading, TileReading, Uncertain  # noqa: E402
from vision.synth import (EDITIONS, edition, editions, random_scene, render_closeup,  # noqa: E402
                          render_rack, render_scene)

ROWS = [["R1", "R2", "R3", "J", "K13", "B7"], ["B5", "B6", "O9", "K9", "R10", "R11", "K3"]]


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def _tile(tile, x, y, conf=0.98, w=40.0, h=56.0, upside=False, turn=0.0):
    c = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
    if turn:
        a = np.radians(turn)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        c = c @ rot.T
    if upside:
        c = c[[2, 3, 0, 1]]
    return TileReading(tile, conf, c, [], upside)


# ---------------------------------------------------------------- rows and checks

def test_rows_come_back_row_first_left_to_right_whatever_order_they_were_found_in():
    front = [_tile(t, 5 + 45 * k, 110 + 3 * k) for k, t in enumerate(["K5", "K6", "K7"])]
    back = [_tile(t, 10 + 45 * k, 60 - 2 * k) for k, t in enumerate(["R1", "J", "B9", "O2"])]
    mixed = [front[2], back[1], front[0], back[3], back[0], front[1], back[2]]
    rack = as_rack(Reading(tiles=mixed, melds=[[i] for i in range(7)]))
    assert rows_notation(rack) == ["R1 J B9 O2", "K5 K6 K7"]
    assert sorted(i for row in rack.melds for i in row) == list(range(7))
    assert any("2 rows" in n for n in rack.notes)


def test_rows_of_a_photo_taken_turned_follow_the_tiles():
    tiles = [_tile(t, 5 + 45 * k, 110) for k, t in enumerate(["K5", "K6", "K7"])] + \
            [_tile(t, 5 + 45 * k, 50) for k, t in enumerate(["R1", "R2"])]
    for turn in (90.0, -90.0, 30.0):
        turned = [_tile(t.tile, *t.corners[0], turn=0) for t in tiles]
        a = np.radians(turn)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        for t in turned:
            t.corners = t.corners @ rot.T
        assert rows_notation(as_rack(Reading(tiles=turned))) == ["R1 R2", "K5 K6 K7"], turn


def test_a_third_copy_or_joker_flags_every_copy_and_refuses_nothing():
    tiles = [_tile("R10", 0, 0), _tile("R10", 45, 0, 0.9), _tile("J", 90, 0),
             _tile("R10", 0, 60), _tile("J", 45, 60), _tile("J", 90, 60), _tile("K3", 135, 60)]
    rack = as_rack(Reading(tiles=tiles))
    doubted = {u.index: u.reason for u in rack.uncertain}
    assert sorted(doubted) == [0, 1, 2, 3, 4, 5]
    assert "3 copies of R10 on the rack; a set has 2" in doubted[0]
    assert "3 jokers on the rack" in doubted[2]
    assert rows_notation(rack) == ["R10 R10 J", "R10 J J K3"]
    # two copies are fine
    ok = as_rack(Reading(tiles=[_tile("R10", 0, 0), _tile("R10", 45, 0), _tile("J", 90, 0)]))
    assert ok.uncertain == []


def test_the_tables_meld_checks_do_not_apply_to_a_rack_but_low_confidence_does():
    tiles = [_tile("R1", 0, 0), _tile("K9", 45, 0), _tile("B4", 90, 0, conf=0.6)]
    reading = Reading(tiles=tiles, melds=[[0, 1, 2]],
                      uncertain=[Uncertain(1, "K9 read at 0.98; as R2 the run would be valid")])
    rack = as_rack(reading)
    assert [(u.index, u.reason) for u in rack.uncertain] == [(2, "B4 read at 0.60")]


def test_a_six_standing_the_other_way_up_from_the_rack_is_doubted():
    tiles = [_tile("R1", 0, 0), _tile("K2", 45, 0), _tile("B9", 90, 0, upside=True),
             _tile("O6", 135, 0)]
    rack = as_rack(Reading(tiles=tiles))
    assert [u.index for u in rack.uncertain] == [2]
    assert rack.uncertain[0].alternatives == ["B6"]


def test_part_of_a_big_tile_found_again_is_dropped_with_a_note():
    big = [_tile("B3", 100, 100, w=300, h=420), _tile("O11", 410, 100, w=300, h=420)]
    half = _tile("B1", 120, 110, conf=0.4, w=150, h=200)
    rack = as_rack(Reading(tiles=[big[0], half, big[1]]))
    assert rows_notation(rack) == ["B3 O11"]
    assert any("B1 at 0.40" in n and "inside a bigger tile" in n for n in rack.notes)
    # neighbours touching on a rack are all kept, back row included
    tiles = [_tile(t, 45 * k, 60) for k, t in enumerate(["K5", "K6", "K7"])] + \
            [_tile(t, 45 * k, 15) for k, t in enumerate(["R1", "R2"])]
    assert rows_notation(as_rack(Reading(tiles=tiles))) == ["R1 R2", "K5 K6 K7"]


def test_tiles_without_outlines_stay_one_row_in_their_order():
    rack = as_rack(Reading.from_table("R5 K13 | J"))
    assert rows_notation(rack) == ["R5 K13 J"]
    assert as_rack(Reading()).melds == [] and as_rack(Reading()).notes == []


# ---------------------------------------------------------------- synthetic racks

def test_synthetic_racks_are_deterministic_and_labelled_row_by_row():
    a, la = render_rack(ROWS, seed=4, size=(1000, 750))
    b, lb = render_rack(ROWS, seed=4, size=(1000, 750))
    assert np.array_equal(a, b) and a.shape == (750, 1000, 3)
    assert [t for t, _ in la] == ROWS[0] + ROWS[1]
    assert la.racks == la.melds == [list(range(6)), list(range(6, 13))]
    assert all(0 <= h <= 1 / 3 for h in la.hidden[:6]) and la.hidden[6:] == [0.0] * 7
    for _, c in la:  # whole tiles in the picture
        assert (c >= -1).all() and (c[:, 0] <= 1001).all() and (c[:, 1] <= 751).all()
    # the back row stands behind (above) the front row, hidden up to the asked share
    _, lh = render_rack(ROWS, seed=4, size=(1000, 750), hidden=1 / 3, perspective=0.0)
    back, front = lh[0][1], lh[6][1]
    height = float(back[3, 1] - back[0, 1])
    assert back[3, 1] - front[0, 1] == pytest.approx(height / 3, rel=0.15)


def test_strong_perspective_narrows_the_far_row():
    _, labels = render_rack(ROWS, seed=2, size=(1000, 750), perspective=0.45)
    widths = [float(np.hypot(*(c[1] - c[0]))) for _, c in labels]
    assert np.mean(widths[:6]) < np.mean(widths[6:])


def test_a_closeup_tile_covers_the_asked_share_of_the_picture():
    img, labels = render_closeup("R3 K6 J", seed=1, size=(1000, 750), fraction=0.2)
    assert 1 <= len(labels) <= 3
    c = labels[0][1]
    x, y = c[:, 0], c[:, 1]
    area = 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))
    assert area / (1000 * 750) == pytest.approx(0.2, rel=0.35)


def test_editions_are_listed_and_render_every_kind_of_scene():
    names = editions()
    assert "classic" in names and sum(n.startswith("modern") for n in names) >= 4
    assert len({EDITIONS[n].font for n in names}) == len(names)  # each its own numerals
    assert {EDITIONS[n].joker_colour for n in names if n.startswith("modern")} >= {
        (40, 30, 220), (15, 15, 15)}  # red and black joker faces
    for kind in ("table", "rack", "closeup"):
        img, labels = render_scene("modern-thin", seed=3, kind=kind)
        assert img.ndim == 3 and len(labels) >= 1
    with pytest.raises(ValueError, match="unknown edition"):
        edition("no-such")
    with pytest.raises(ValueError, match="unknown scene kind"):
        render_scene("classic", kind="shelf")


def test_random_scenes_mix_racks_and_closeups_and_can_hold_editions_out():
    kinds = [bool(random_scene(s, size=(320, 240))[1].racks) for s in range(20)]
    assert 2 <= sum(kinds) <= 16
    from vision.synth.editions import Edition, font_key

    held = ("modern-serif", "modern-mono")
    rng = np.random.default_rng(0)
    fonts = {font_key(Edition.random(rng, exclude=held).font) for _ in range(300)}
    assert not fonts & {font_key(EDITIONS[n].font) for n in held}


# ---------------------------------------------------------------- the reader on racks

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


# ---------------------------------------------------------------- pictures for phones

def _white_rows(drawn: np.ndarray, plain: np.ndarray) -> np.ndarray:
    """Rows where white (label text) was drawn."""
    hit = (drawn != plain).any(2) & (drawn.min(2) > 185)  # not the grey outline (160)
    return np.nonzero(hit.any(1))[0]


@pytest.mark.parametrize("size", [(4032, 3024), (1000, 750), (2604, 4624)])
def test_labels_are_sized_to_the_picture_not_its_tiles(size):
    w, h = size
    plain = np.full((h, w, 3), 90, np.uint8)
    tile = _tile("R10", w * 0.4, h * 0.4, w=w * 0.02, h=w * 0.028)
    drawn = annotate(plain, Reading(tiles=[tile], melds=[[0]]))
    rows = _white_rows(drawn, plain)
    text_h = rows.max() - rows.min() + 1
    # capital height LABEL_HEIGHT of the width: on a phone showing the picture across its
    # screen (about 400 points), about 10 points whatever the photo's resolution
    assert text_h == pytest.approx(LABEL_HEIGHT * w, rel=0.25)
    assert label_px((h, w, 3)) >= 12


def test_confidence_is_shown_only_where_there_is_doubt():
    plain = np.full((750, 1000, 3), 90, np.uint8)
    tiles = [_tile("R10", 300, 300, w=60, h=84), _tile("K3", 370, 300, w=60, h=84)]

    def drawn(conf, doubt):
        ts = [TileReading(t.tile, c, t.corners) for t, c in zip(tiles, conf)]
        return annotate(plain, Reading(tiles=ts, melds=[[0], [1]],
                                       uncertain=[Uncertain(i, "") for i in doubt]))

    sure = drawn((0.99, 0.99), [])
    assert np.array_equal(sure, drawn((0.91, 0.8), []))  # no number on a sure tile
    unsure = drawn((0.99, 0.41), [1])
    assert not np.array_equal(unsure, drawn((0.99, 0.62), [1]))  # its confidence is written


def test_an_uncertain_tile_is_marked_inside_its_own_outline():
    plain = np.full((750, 1000, 3), 90, np.uint8)
    tiles = [_tile("R10", 300, 300, w=60, h=84), _tile("K3", 364, 300, w=60, h=84),
             _tile("K4", 428, 300, w=60, h=84)]
    reading = Reading(tiles=tiles, melds=[[0], [1], [2]], uncertain=[Uncertain(1, "")])
    drawn = annotate(plain, reading)
    magenta = (np.abs(drawn.astype(int) - (220, 40, 220)).sum(2) < 60)
    ys, xs = np.nonzero(magenta)
    assert len(xs) > 0
    # the outline stays off its neighbours (R10 ends at x 360, K4 starts at 428); the
    # label's box, across the tile's lower part, may reach a little wider
    outline = magenta.copy()
    label_y = int(300 + 84 * 0.72)
    outline[label_y - 20:label_y + 20] = False
    ys, xs = np.nonzero(outline)
    assert xs.min() > 360 and xs.max() < 428
