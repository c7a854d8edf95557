"""``engine.score``: the JSON contract's one entry point."""
from __future__ import annotations

from typing import Any

from .contract import parse_request, read_settings
from .errors import EngineError
from .hand import Hand
from .reading import Reading
from .variant import Variant
from .variants import get_variant
from .waits import discards, shanten, waits


def jokers_status(variant: Variant, hand: Hand, reading: Reading | None) -> dict:
    wild = variant.wild_kind(hand)
    status: dict[str, Any] = {"name": variant.wild_name or None, "tile": wild, "indicator": hand.indicator}
    if wild is None:
        status.update(count=0, uses=[])
        return status
    in_hand = sum(1 for t in hand.concealed if t == wild) + sum(1 for m in hand.melds for t in m.tiles if t == wild)
    status["count"] = in_hand
    status["uses"] = reading.wild_uses if reading is not None else []
    stand = variant.stand_ins(hand)
    if stand:
        status["stand_ins"] = [{"tile": k, "as": v} for k, v in stand.items()]
    return status


def score(request: Any) -> dict:
    """Score one hand. See README.md, section "The contract".

    Raises :class:`engine.errors.EngineError` for invalid input; nothing else
    escapes for any input.
    """
    if not isinstance(request, dict):
        raise EngineError("bad_request", "the request must be a JSON object", None)
    variant = get_variant(request.get("variant"))
    hand = parse_request(request, variant)
    out: dict[str, Any] = {"variant": variant.name, "winning": False, "form": None,
                           "flowers": len(hand.flowers)}
    n = variant.sets_needed
    size = len(hand.concealed) + 3 * len(hand.melds)
    if hand.winning_tile is None:
        out["jokers"] = jokers_status(variant, hand, None)
        if size == 3 * n + 1:
            w = waits(variant, hand)
            out["waits"] = w
            out["shanten"] = shanten(variant, hand)
            if not w and out["shanten"] == 0:
                # ready in shape, but every tile it waits on is one the hand holds all four of: no wait
                # at all (形式聴牌としない), one tile from a real wait
                out["shanten"] = 1
                out["explain"] = ("not ready: only tiles it holds every copy of would complete its shape, so it is "
                                  "1 tile from ready")
            else:
                out["explain"] = ("ready, waiting on " + " ".join(w)) if w else \
                    f"not ready: {out['shanten']} tile(s) from ready"
        else:
            view = variant.view(hand, hand.concealed, None)
            complete = variant.is_complete(view)
            out["complete"] = complete
            out["shanten"] = variant.shanten(view)
            out["discards"] = discards(variant, hand)
            out["waits"] = []
            out["explain"] = ("the tiles form a winning shape: give winning_tile to score it" if complete else
                              f"one tile over: {len(out['discards'])} discard(s) leave it ready")
        return out

    readings = variant.readings(hand)
    if not readings:
        rest = list(hand.concealed)
        rest.remove(hand.winning_tile)
        w = waits(variant, hand, tuple(rest))
        out["jokers"] = jokers_status(variant, hand, None)
        out["reason"] = variant.not_winning_reason(hand)
        out["waits"] = w
        out["shanten"] = shanten(variant, hand, tuple(rest))
        out["explain"] = out["reason"] + (f"; without {hand.winning_tile} it waits on {' '.join(w)}" if w else "")
        return out

    result = variant.score(hand, readings)
    reading = result.pop("reading", None)
    out["jokers"] = jokers_status(variant, hand, reading)
    out.update(result)
    if reading is not None:
        out["reading"] = reading.to_json()
    payments = out.get("payments")
    if isinstance(payments, dict) and sum(payments.values()) != 0:
        raise AssertionError(f"payments do not sum to zero: {payments}")
    return out


def event(request: Any) -> dict:
    """Payments for an event outside a winning hand: ``{"variant", "event", ...}``."""
    if not isinstance(request, dict):
        raise EngineError("bad_request", "the request must be a JSON object", None)
    variant = get_variant(request.get("variant"))
    name = request.get("event")
    if not isinstance(name, str) or name not in variant.events:
        known = ", ".join(sorted(variant.events)) or "none"
        raise EngineError("unknown_event", f"unknown event for {variant.name} (known: {known})", "event")

    options = read_settings(request.get("options"), variant.options, "options")
    return variant.event(name, request, options)
