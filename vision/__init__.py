"""Tilelens vision: find tiles in a phone photo and name them.

Knows nothing of rules; uses only the engine's tile codes (``engine.tiles``).

``vision.scan(image_bytes) -> dict`` and ``vision.classify(crops) -> list`` are
the public calls. They are imported here, eagerly, because their modules share
their names (``vision/scan.py``, ``vision/classify.py``): a lazy wrapper would be
replaced by the submodule the first time anything imported it. The model itself
still loads lazily, on the first classification.
"""
from __future__ import annotations

from .classify import classify
from .scan import scan

__all__ = ["classify", "scan"]
