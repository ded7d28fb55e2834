"""Training the reader's two models from scratch: ``rummiref train`` (or ``python -m vision.train``).

1. ``tile-finder``: a small fully convolutional network (:class:`vision.nets.TileFinder`)
   that marks every tile's centre, size and long-axis direction, at any angle. Trained on
   random rotated, scaled crops of the real training photos in
   ``../shared/data/photos/train`` and of synthetic photos from :mod:`vision.synth`.
2. ``tile-reader``: a small CNN (:class:`vision.nets.TileReader`) that reads a straightened
   tile crop: 53 tiles x 2 orientations (upright / upside down) + "not a tile". Data: crops
   cut from the real training photos along their label outlines (with the reviewed label
   fixes in ``vision/label_fixes.csv``; which way up each real tile lies is taken from
   where its numeral sits, see :func:`ink_says_upside_down`), jittered like detections,
   in both orientations, plus synthetic tiles of other editions and "not a tile" crops, plus
   the crops the trained finder itself cuts from the training images (labelled from the
   matching true tile; its finds on no tile are "not a tile"), so the reader learns the
   crops it will really be given.

The shared ``valid/`` photos are never used for training or model selection; measure on
them afterwards with ``rummiref evaluate ../shared/data/photos/valid``. Needs the ``train``
extra (torch, onnx, tqdm). No weights are downloaded; everything starts from random.
"""


from __future__ import annotations
