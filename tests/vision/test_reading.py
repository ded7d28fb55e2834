"""The one reading type: its wire form goes there and back, and anything malformed is refused
with the field named (it is how the server checks what a camera sends)."""

from __future__ import annotations

import copy
import doctest
import json

import numpy as np
import pytest

from vision import reading as reading_module
from vision.reading import MAX_TILES, Reading, ReadingError, TileReading, Uncertain


def box(x: float, y: float = 0.0) -> np.ndarray:
    return np.array([[x, y], [x + 10, y], [x + 10, y + 14], [x, y + 14]], np.float32)


def sample() -> Reading:
    tiles = [TileReading("R7", 0.98, box(0), [("R1", 0.01)]),
             TileReading("R8", 0.58, box(12), [("R3", 0.4)], upside_down=True, score=0.9),
             TileReading("R9", 0.99, box(24)), TileReading("J", 0.97, box(0, 40))]
    return Reading(tiles, [[0, 1, 2], [3]], [Uncertain(1, "R8 read at 0.58", ["R3"])],
                   ["one note"], (640, 480), "table.jpg")


def test_module_examples():
    assert doctest.testmod(reading_module).failed == 0


def test_the_wire_form_goes_there_and_back():
    r = sample()
    data = json.loads(json.dumps(r.to_json()))
    back = Reading.from_json(data)
    assert back.to_json() == data
    assert str(back.table) == "R7 R8 R9 | J" and data["table"] == "R7 R8 R9 | J"
    assert back.tiles[1].upside_down and back.tiles[1].alternatives == [("R3", 0.4)]
    assert back.uncertain == [Uncertain(1, "R8 read at 0.58", ["R3"])]
    assert back.image_size == (640, 480) and back.image == "table.jpg"
    assert back.corners.shape == (4, 4, 2) and np.allclose(back.corners[1], box(12))
    assert back.notations == ["R7", "R8", "R9", "J"] and back.meld_tiles[1] == ["J"]


def test_a_table_in_notation_is_a_reading_without_outlines():
    r = Reading.from_json({"table": "r7, r8 j | k5 b5 y5"})
    assert str(r.table) == "R7 R8 J | K5 B5 O5" and r.melds == [[0, 1, 2], [3, 4, 5]]
    assert np.isnan(r.corners).all() and (r.confidence == 1).all()
    # a misreading may hold a third copy: it is kept for a person to correct
    assert str(Reading.from_table("R7 R7 R7").table) == "R7 R7 R7"
    assert Reading.from_table("").tiles == []


def _bad(mutate):
    data = sample().to_json()
    mutate(data)
    with pytest.raises(ReadingError) as e:
        Reading.from_json(data)
    return e.value


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d["tiles"][0].update(tile="R14"), "tiles[0].tile"),
    (lambda d: d["tiles"][0].update(tile="X3"), "tiles[0].tile"),
    (lambda d: d["tiles"][0].update(tile="R7 R8"), "tiles[0].tile"),
    (lambda d: d["tiles"][2].update(tile=7), "tiles[2].tile"),
    (lambda d: d["tiles"][1].update(confidence=float("nan")), "tiles[1].confidence"),
    (lambda d: d["tiles"][1].update(confidence=1e308), "tiles[1].confidence"),
    (lambda d: d["tiles"][1].update(confidence=True), "tiles[1].confidence"),
    (lambda d: d["tiles"][1].update(confidence=-0.1), "tiles[1].confidence"),
    (lambda d: d["tiles"][0]["corners"][2].__setitem__(0, float("inf")), "tiles[0].corners[2]"),
    (lambda d: d["tiles"][0]["corners"][2].__setitem__(1, 1e308), "tiles[0].corners[2]"),
    (lambda d: d["tiles"][0]["corners"][2].__setitem__(1, "3"), "tiles[0].corners[2]"),
    (lambda d: d["tiles"][0].update(corners=[[0, 0], [1, 1]]), "tiles[0].corners"),
    (lambda d: d["tiles"][0].update(corners=[[0, 0, 0]] * 4), "tiles[0].corners[0]"),
    (lambda d: d["tiles"][0].update(score=float("-inf")), "tiles[0].score"),
    (lambda d: d["tiles"][0].update(upside_down="yes"), "tiles[0].upside_down"),
    (lambda d: d["tiles"][0].update(alternatives=[["R1"]]), "tiles[0].alternatives[0]"),
    (lambda d: d["tiles"][0].update(colour="red"), "tiles[0].colour"),
    (lambda d: d["tiles"].__setitem__(0, "R7"), "tiles[0]"),
    (lambda d: d.update(tiles=[d["tiles"][0]] * (MAX_TILES + 1)), "tiles"),
    (lambda d: d.update(tiles="R7 R8"), "tiles"),
    (lambda d: d.update(melds=[[0, 1, 2], [3, 1]]), "melds[1]"),
    (lambda d: d.update(melds=[[0, 1, 2], [4]]), "melds[1]"),
    (lambda d: d.update(melds=[[0, 1, 2], [-1]]), "melds[1]"),
    (lambda d: d.update(melds=[[0, 1, 2], [True]]), "melds[1]"),
    (lambda d: d.update(melds=[[0, 1, 2], []]), "melds[1]"),
    (lambda d: d.update(melds=[[0, 1, 2]]), "melds"),
    (lambda d: d.pop("melds"), "melds"),
    (lambda d: d["uncertain"][0].update(index=9), "uncertain[0].index"),
    (lambda d: d["uncertain"][0].update(tile="R9"), "uncertain[0].tile"),
    (lambda d: d.update(uncertain=d["uncertain"] * 2), "uncertain[1].index"),
    (lambda d: d["uncertain"][0].update(reason="x" * 10_000), "uncertain[0].reason"),
    (lambda d: d.update(notes=["x"] * 1000), "notes"),
    (lambda d: d.update(image_size=[640, 1e308]), "image_size"),
    (lambda d: d.update(image=["a"]), "image"),
    (lambda d: d.update(table="R7 R8 R9 | K5"), "table"),
    (lambda d: d.update(frames=3), "frames"),
])
def test_malformed_readings_are_refused_naming_the_field(mutate, field):
    assert _bad(mutate).field == field


def test_refusals_say_what_is_wrong():
    e = _bad(lambda d: d["tiles"][0].update(tile="R14"))
    assert e.token == "R14" and "1 to 13" in str(e)
    e = _bad(lambda d: d.update(melds=[[0, 1, 2], [3, 1]]))
    assert "tile 1 is in two melds" in str(e)
    e = _bad(lambda d: d.update(tiles=[d["tiles"][0]] * 107))
    assert "107 tiles" in str(e) and "106" in str(e)
    for not_an_object in (None, [], "R7 R8 R9", 3):
        with pytest.raises(ReadingError):
            Reading.from_json(not_an_object)
    with pytest.raises(ReadingError, match="table"):
        Reading.from_json({"table": "R7 " * 2000})


def test_scaled_and_corrected_make_new_readings():
    r = sample()
    before = copy.deepcopy(r.to_json())
    half = r.scaled(0.5)
    assert np.allclose(half.corners[1], box(12) / 2) and half.image_size == (320, 240)
    fixed = r.corrected(1, "r3")
    assert fixed.tiles[1].tile == "R3" and fixed.tiles[1].confidence == 1.0
    assert fixed.uncertain == [] and str(fixed.table) == "R7 R3 R9 | J"
    assert r.to_json() == before  # the original is untouched
    with pytest.raises(ReadingError) as e:
        r.corrected(9, "R3")
    assert e.value.field == "index"
    with pytest.raises(ReadingError) as e:
        r.corrected(0, "Q1")
    assert (e.value.field, e.value.token) == ("tile", "Q1")
