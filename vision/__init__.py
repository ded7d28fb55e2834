"""rummiref's tile reader: photos of a Rummikub table in, tiles and melds out.

    >>> import vision
    >>> reading = vision.read_image("table.jpg")     # path, bytes or BGR array
    >>> str(reading.table), reading.uncertain
    >>> reader = vision.Reader()                      # loads the models once
    >>> image, labels = vision.render_table("R7 R8 R9 | K5 B5 O5", seed=1)

A photo of a player's rack: ``reader.read(photo, rack=True)``, the tiles in rows with the
rack's checks (``vision.rack``). Synthetic photos of tables, racks and close-ups of many
editions: ``vision.synth``.

What is read is a ``vision.Reading`` (``vision.reading``), whatever made it; its
``to_json``/``from_json`` is its one wire form. Drawing a reading:
``vision.annotate.annotate(image, reading)``; measuring on a labelled folder:
``vision.evaluate.evaluate(folder)``. Turning any photo (path or bytes) into pixels
safely: ``vision.open_image`` (see :mod:`vision.imageio`).

The live referee's camera side: frame sources (``vision.sources``), stillness and hands
(``vision.motion``), one table from several frames (``vision.consensus``), the watcher
(``vision.watch``), which hands a ``vision.snapshot.Snapshot`` to a ``Sink``: over HTTP
(``vision.http_sink``, ``rummiref watch``) or, inside the scoresheet server, its own.

Inference needs only numpy, OpenCV and ONNX Runtime (the ``vision`` extra); training needs
the ``train`` extra. Importing this package imports none of them: the names below load on
first use, so ``rummiref``'s command line stays light.
"""

from __future__ import annotations

__all__ = ["Reader", "Reading", "TileReading", "Uncertain", "ReadingError", "read_image",
           "render_table", "ImageError", "ModelsMissingError", "models_dir", "open_image",
           "check_image"]

_WHERE = {
    "Reading": "reading", "TileReading": "tile_reading", "Uncertain": "tile_reading",
    "ReadingError": "tile_reading", "Reader": "reader", "read_image": "reader",
    "ModelsMissingError": "reader", "models_dir": "reader",
    "render_table": "synth", "ImageError": "imageio", "open_image": "imageio",
    "check_image": "imageio",
}


def __getattr__(name: str):
    if name in _WHERE:
        import importlib

        module = importlib.import_module(f".{_WHERE[name]}", __name__)
        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'vision' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + __all__)
