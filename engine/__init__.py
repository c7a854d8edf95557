"""Tilelens rules engine: tiles, hands, winning forms with wild tiles, waits and scoring.

Knows nothing of images or HTTP. The JSON contract is documented in README.md.
"""
from .errors import EngineError
from .score import event, score
from .variants import NAMES as VARIANTS
from .variants import describe_variants, get_variant

__all__ = ["EngineError", "score", "event", "describe_variants", "get_variant", "VARIANTS"]
