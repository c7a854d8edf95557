"""Who pays whom: a win at so much per fan, and the kong bonuses paid on the spot.

"ツモの場合、他家の二人が番数×200を勝った人に支払う。ロンの場合は、放銃した人が番数×200、
もう一人が番数×100を勝った人に支払う。" A hand of 10 fan or more (爆) is paid as 20 fan.
"""
from __future__ import annotations

from ...errors import EngineError
from ...hand import Hand
from .rules import BAO_FAN, Rules

KONG_KINDS = ("concealed", "exposed", "added")
EVENTS = {
    "kong": "a kong's bonus, paid at once: concealed 1000 from each other player, exposed 1000 from the "
            "discarder, added 500 from each other player. Fields: kong (concealed|exposed|added), seat "
            "(the kong's owner; 'player' is accepted too), discarder (exposed kongs only)",
}


def paid_units(fan: int, rules: Rules) -> int:
    """Fan as paid: a hand of 10 fan or more is 爆, paid as ``bao_units`` (20)."""
    return rules.bao_units if fan >= BAO_FAN else fan


def win_payments(hand: Hand, units: int, rules: Rules) -> dict[str, int]:
    """Signed payments for every seat (positive: receives)."""
    pay = {seat: 0 for seat in hand.seats}
    for seat in hand.others(hand.winner):
        if hand.self_drawn or seat == hand.discarder:
            amount = units * rules.rate
        else:
            amount = units * rules.other_rate
        pay[seat] -= amount
        pay[hand.winner] += amount
    return pay


def _seat(request: dict, name: str, seats: tuple[str, ...]) -> str:
    value = request.get(name)
    if value is None:
        raise EngineError("missing_field", f"{name} is required for a kong", name)
    if not isinstance(value, str) or value not in seats:
        raise EngineError("bad_seat", f"{name} must be one of {', '.join(seats)}", name)
    return value


def kong_payments(request: dict, rules: Rules, seats: tuple[str, ...]) -> dict:
    """The kong bonus: "暗槓の場合は「2千点(各自から千点ずつ)」、明槓の場合は鳴かれた人から千点、
    加槓の場合は「千点(他家から500点ずつ)」"."""
    allowed = {"variant", "event", "options", "kong", "seat", "player", "discarder"}
    for key in request:
        if key not in allowed:
            raise EngineError("unknown_field", f"unknown field '{str(key)[:40]}' for a kong", str(key)[:40])
    kind = request.get("kong")
    if kind not in KONG_KINDS:
        raise EngineError("bad_value", f"kong must be one of {', '.join(KONG_KINDS)}", "kong")
    if "player" in request:  # the first name of the field, still accepted
        if "seat" in request and request["seat"] != request["player"]:
            raise EngineError("bad_context", "seat and player name different seats", "player")
        request = {**request, "seat": request["player"]}
    owner = _seat(request, "seat", seats)
    if kind == "exposed":
        discarder = _seat(request, "discarder", seats)
        if discarder == owner:
            raise EngineError("bad_context", "the discarder of an exposed kong's tile is another player", "discarder")
        payers = {discarder: rules.exposed_kong}
    else:
        if request.get("discarder") is not None:
            raise EngineError("bad_context", f"a {kind} kong has no discarder", "discarder")
        each = rules.concealed_kong_each if kind == "concealed" else rules.added_kong_each
        payers = {s: each for s in seats if s != owner}
    pay = {s: 0 for s in seats}
    for payer, amount in payers.items():
        pay[payer] -= amount
        pay[owner] += amount
    names = {"concealed": "暗槓 concealed kong", "exposed": "明槓 exposed kong", "added": "加槓 added kong"}
    explain = f"{names[kind]} by {owner}: " + ", ".join(f"{s} pays {a}" for s, a in payers.items())
    return {"variant": "malaysian", "event": "kong", "kong": kind, "payments": pay, "explain": explain}


def describe_payment(hand: Hand, units: int, rules: Rules) -> str:
    if hand.self_drawn:
        return f"self-draw: each other player pays {units} × {rules.rate}"
    other = next(s for s in hand.others(hand.winner) if s != hand.discarder)
    return (f"{hand.discarder} discarded: pays {units} × {rules.rate}; {other} pays {units} × {rules.other_rate}")


__all__ = ["EVENTS", "paid_units", "win_payments", "kong_payments", "describe_payment"]
