"""A YOLO-OBB tile finder run with ONNX Runtime alone (no torch, no ultralytics).

    >>> from vision.reader import Reader
    >>> from vision.yolo_finder import YoloFinder
    >>> reader = Reader(finder=YoloFinder("models/tile-finder-yolo.onnx"))

:meth:`YoloFinder.detect` answers like :meth:`vision.reader.Reader.detect`: one dict a tile
with ``centre`` (pixels), ``short`` and ``long`` sides (pixels), ``down`` (unit vector along
the long side, pointing down the image; which way up the tile lies is the tile reader's
call) and ``score``. The model is ``yolo11n-obb`` trained as one class by
:mod:`vision.yolo_train`; its output is 1 x (4 + classes + 1) x anchors: centre x, y, width,
height (input pixels), class scores, then the angle of the width side (radians).
"""

from __future__ import annotations

import os

import numpy as np


class YoloFinder:
    """``conf``: the least score kept; ``iou``: rotated boxes overlapping more than this are
    one tile (the better kept)."""

    def __init__(self, path: str | os.PathLike, *, threads: int = 2, conf: float = 0.35,
                 iou: float = 0.5):
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        inp = self.session.get_inputs()[0]
        self._name = inp.name
        self.size = int(inp.shape[2]) if isinstance(inp.shape[2], int) else 640
        self.conf = conf
        self.iou = iou

    def detect(self, img: np.ndarray) -> list[dict]:
        """Tiles in a BGR image (see the module doc)."""
        x, scale = self._input(img)
        out = self.session.run(None, {self._name: x})[0][0]
        return decode_obb(out, scale, self.conf, self.iou)

    def _input(self, img: np.ndarray) -> tuple[np.ndarray, float]:
        """Letterboxed 1x3xSxS RGB in [0, 1] (image at the top left, grey 114 beyond)."""
        import cv2

        h, w = img.shape[:2]
        scale = self.size / max(h, w)
        nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        canvas = np.full((self.size, self.size, 3), 114, np.uint8)
        canvas[:nh, :nw] = cv2.resize(img, (nw, nh), interpolation=interp)
        x = canvas[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) * (1.0 / 255.0)
        return np.ascontiguousarray(x), scale


def decode_obb(out: np.ndarray, scale: float, conf: float = 0.35, iou: float = 0.5,
               max_detections: int = 300) -> list[dict]:
    """Tiles from one image's raw YOLO-OBB output (``(4 + classes + 1) x anchors``), in the
    pixels of the image that was scaled by ``scale`` to the model's input."""
    import cv2

    score = out[4:-1].max(0)
    keep = np.nonzero(score >= conf)[0]
    if not len(keep):
        return []
    keep = keep[np.argsort(-score[keep])][:max_detections * 3]
    cx, cy, w, h = (out[i, keep] for i in range(4))
    ang = out[-1, keep]
    boxes = [((float(a), float(b)), (float(c), float(d)), float(np.degrees(t)))
             for a, b, c, d, t in zip(cx, cy, w, h, ang)]
    picked = cv2.dnn.NMSBoxesRotated(boxes, score[keep].astype(float).tolist(), conf, iou)
    picked = np.asarray(picked, dtype=np.int64).reshape(-1)[:max_detections]
    dets = []
    for i in picked:
        along_w = np.array([np.cos(ang[i]), np.sin(ang[i])], np.float32)
        if w[i] >= h[i]:
            long, short, down = float(w[i]), float(h[i]), along_w
        else:
            long, short, down = float(h[i]), float(w[i]), np.array([-along_w[1], along_w[0]],
                                                                    np.float32)
        if down[1] < 0 or (down[1] == 0 and down[0] < 0):
            down = -down  # point "down" the image, as the other finder does
        dets.append({"centre": np.array([cx[i], cy[i]], np.float32) / scale,
                     "short": short / scale, "long": long / scale, "down": down,
                     "score": float(score[keep][i])})
    return dets
