"""Synthetic Rummikub photos with known labels: tiles of many editions on tables and racks.

    >>> from vision.synth import render_table
    >>> image, labels = render_table("R7 R8 R9 | K5 B5 O5 J", seed=3)
    >>> image.shape[2], len(labels), labels.melds
    (3, 7, [[0, 1, 2], [3, 4, 5, 6]])
    >>> tile, corners = labels[0]     # 'R7', 4x2 float32: TL, TR, BR, BL in image pixels

One module an idea:

- :mod:`.editions`: how a set looks (tile shade, numeral font and weight, ink colours, bars
  under 6 and 9, logo, joker face). ``Edition.random`` draws any look; :data:`EDITIONS`
  names some (``classic``, like the real photos, and the modern look: brighter white,
  bolder or thinner numerals, red and black joker faces of other designs);
  :func:`editions` lists the names and :func:`edition` makes one.
- :mod:`.tiles`: one tile's face for an edition (:func:`render_tile`).
- :mod:`.table`: tables, melds lying in rows (:func:`render_table`, :func:`random_table`).
- :mod:`.racks`: phone photos of a rack, tiles standing in one or two rows with the back row
  partly hidden, seen steeply (:func:`render_rack`), and close-ups where one tile covers up
  to a fifth of the picture (:func:`render_closeup`).
- :mod:`.backgrounds`, :mod:`.photo`: table surfaces; light, white balance, blur, noise, JPEG.
- :mod:`.scenes`: :func:`random_scene` (what training draws: tables, a fifth racks, a tenth
  close-ups; ``pasted_share`` draws some tables as pasted close-ups with big heavy numerals,
  none by default; ``exclude`` keeps named editions out) and :func:`render_scene` (one kind of
  scene, ``"table"``, ``"rack"`` or ``"closeup"``, for one edition: to measure an edition
  kept out of training).

Everything is drawn from a seed, so a seed always gives the same image. Used to train the
reader (``vision.train``), to test and measure it, and by the live referee's demo.
"""

from __future__ import annotations

from .editions import EDITIONS, JOKER_STYLES, Edition, edition, editions
from .racks import render_closeup, render_rack
from .scenes import KINDS, random_rack, random_scene, render_scene
from .table import Labels, random_table, render_table
from .tiles import TILE_H, TILE_W, render_tile

__all__ = ["EDITIONS", "JOKER_STYLES", "KINDS", "TILE_H", "TILE_W", "Edition", "Labels",
           "edition", "editions", "random_rack", "random_scene", "random_table",
           "render_closeup", "render_rack", "render_scene", "render_table", "render_tile"]
