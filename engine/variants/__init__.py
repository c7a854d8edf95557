"""The variant registry: one small rules module per variant."""
from __future__ import annotations

from importlib import import_module

from ..errors import EngineError
from ..variant import Variant

NAMES = ("philippine", "malaysian", "wenzhou", "riichi", "taiwan")
_cache: dict[str, Variant] = {}


def get_variant(name) -> Variant:
    if not isinstance(name, str) or name not in NAMES:
        shown = name if isinstance(name, str) and len(name) < 40 else "?"
        raise EngineError("unknown_variant", f"unknown variant '{shown}'; use one of {', '.join(NAMES)}", "variant")
    if name not in _cache:
        _cache[name] = import_module(f"{__name__}.{name}").VARIANT
    return _cache[name]


def describe_variants() -> dict:
    return {name: get_variant(name).describe() for name in NAMES}
