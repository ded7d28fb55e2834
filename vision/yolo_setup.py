"""Ultralytics kept offline, quiet and inside one folder, on a CPU-only torch.

Call :func:`prepare` before importing ``ultralytics``. It

- sets ``YOLO_OFFLINE`` and ``YOLO_AUTOINSTALL=0`` (no online checks, no pip installs at run
  time) and points ``YOLO_CONFIG_DIR``, ``MPLCONFIGDIR`` and ``XDG_CACHE_HOME`` at ``home``,
  so nothing lands in the user's home folder;
- puts a TrueType font where ultralytics looks for ``Arial.ttf`` (it would download one to
  draw its training plots): matplotlib's DejaVu Sans;
- makes ``torchvision`` importable with the CPU torch. The torchvision wheel that matches
  torch 2.13.0 is a CUDA build whose compiled ops do not load with the CPU torch, and its
  import then fails (``operator torchvision::nms does not exist``). Only then, ``nms`` and
  ``qnms`` are defined with :mod:`torch.library` as plain torch code and torchvision is
  imported again; where the real compiled ops load, nothing is replaced.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def prepare(home: str | os.PathLike, threads: int = 2) -> Path:
    """Offline settings under ``home`` (created); returns it. Safe to call more than once."""
    home = Path(home).resolve()
    (home / "Ultralytics").mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "0"
    os.environ["YOLO_CONFIG_DIR"] = str(home)
    os.environ["MPLCONFIGDIR"] = str(home / "matplotlib")
    os.environ["XDG_CACHE_HOME"] = str(home / "cache")
    _install_font(home / "Ultralytics")
    _torchvision_importable()
    import torch

    torch.set_num_threads(threads)
    from ultralytics import settings
    from ultralytics.utils import torch_utils

    torch_utils.NUM_THREADS = threads
    # no usage reports, no experiment loggers (whichever of them this version knows)
    settings.update({k: False for k in ("sync", "tensorboard", "wandb", "mlflow", "clearml",
                                        "comet", "dvc", "hub", "neptune", "raytune", "platform")
                     if k in settings})
    settings.update({"runs_dir": str(home / "runs"), "weights_dir": str(home / "weights"),
                     "datasets_dir": str(home / "datasets"), "vscode_msg": False,
                     "openvino_msg": False})
    return home


def _install_font(folder: Path) -> None:
    import matplotlib

    ttf = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        if not (folder / name).exists() and ttf.exists():
            shutil.copyfile(ttf, folder / name)


def _nms(boxes, scores, iou_threshold: float):
    """Greedy non-maximum suppression (x1, y1, x2, y2 boxes): the indices kept, best first."""
    import torch

    if boxes.numel() == 0:
        return torch.empty(0, dtype=torch.long, device=boxes.device)
    order = scores.argsort(descending=True)
    b = boxes[order].float()
    area = (b[:, 2] - b[:, 0]).clamp(min=0) * (b[:, 3] - b[:, 1]).clamp(min=0)
    lt = torch.maximum(b[:, None, :2], b[None, :, :2])
    rb = torch.minimum(b[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(2)
    iou = inter / (area[:, None] + area[None, :] - inter).clamp(min=1e-9)
    n = len(b)
    removed = torch.zeros(n, dtype=torch.bool)
    keep = []
    for i in range(n):
        if removed[i]:
            continue
        keep.append(i)
        removed |= iou[i] > iou_threshold
    return order[torch.tensor(keep, dtype=torch.long)]


_LIBRARY = None  # the torch.library that holds the fallback ops (kept alive)


def _torchvision_importable() -> None:
    try:
        import torchvision  # noqa: F401
        return
    except RuntimeError as exc:
        if "torchvision::nms" not in str(exc):
            raise
    global _LIBRARY
    import torch

    for name in [m for m in sys.modules if m == "torchvision" or m.startswith("torchvision.")]:
        del sys.modules[name]
    _LIBRARY = torch.library.Library("torchvision", "DEF")
    for op in ("nms", "qnms"):
        _LIBRARY.define(f"{op}(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        _LIBRARY.impl(op, _nms, "CPU")
    import torchvision

    torchvision.ops.nms = _nms
    torchvision.ops.boxes.nms = _nms
