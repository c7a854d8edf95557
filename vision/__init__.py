"""Tilelens vision: find tiles in a phone photo and name them.

Knows nothing of rules; uses only the engine's tile codes (``engine.tiles``).
The heavy modules load lazily, so ``import vision`` stays cheap.
"""
from __future__ import annotations


def classify(crops):
    """Name each tile crop. See :func:`vision.classify.classify`."""
    from .classify import classify as _classify

    return _classify(crops)


def scan(image_bytes: bytes) -> dict:
    """Find, rectify, classify and group every tile in a photo. See :mod:`vision.scan`."""
    from .scan import scan as _scan

    return _scan(image_bytes)
