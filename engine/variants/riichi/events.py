"""Riichi events outside a single win: multiple ron, exhaustive draw, chombo, uma."""
from __future__ import annotations

from ...errors import EngineError
from .payments import chombo_payments, noten_payments
from .session import uma


def _seat(request: dict, name: str, seats, required: bool = True):
    value = request.get(name)
    if value is None and not required:
        return None
    if value not in seats:
        raise EngineError("bad_seat", f"{name} must be one of {', '.join(seats)}", name)
    return value


def _check_fields(request: dict, allowed: set[str]) -> None:
    for key in request:
        if key not in allowed:
            raise EngineError("unknown_field", f"unknown field '{str(key)[:40]}' for this event", str(key)[:40])


def multiple_ron(variant, request: dict, options) -> dict:
    """両家和・三家和: every winner is paid by the discarder; riichi sticks by seat order.

    A winner in riichi takes back their own stick; every other stick on the table
    (供託 included) goes to the first winner counting from the discarder's right (下家).
    ``declaration_dealt_in``: the discard was the discarder's riichi declaration tile; that
    riichi is void and its stick (counted in riichi_sticks) is not paid (宣言牌での放銃).
    """
    from ...score import score

    _check_fields(request, {"variant", "event", "hands", "riichi_sticks", "declaration_dealt_in", "options"})
    void = request.get("declaration_dealt_in", False)
    if not isinstance(void, bool):
        raise EngineError("bad_type", "declaration_dealt_in is true or false", "declaration_dealt_in")
    hands = request.get("hands")
    if not isinstance(hands, list) or not 2 <= len(hands) <= 3:
        raise EngineError("bad_value", "hands is a list of the 2 or 3 winners' score requests", "hands")
    sticks = request.get("riichi_sticks", 0)
    if not isinstance(sticks, int) or isinstance(sticks, bool) or not 0 <= sticks <= 100:
        raise EngineError("bad_value", "riichi_sticks is a whole number from 0 to 100", "riichi_sticks")
    results, discarder, winners = [], None, []
    for i, h in enumerate(hands):
        if not isinstance(h, dict):
            raise EngineError("bad_request", "each hand is a score request object", f"hands[{i}]")
        if h.get("self_drawn") or h.get("riichi_sticks") or h.get("pao"):
            raise EngineError("bad_context", "a multiple ron is won on a discard; give riichi_sticks once, at "
                              "the top level, and no pao", f"hands[{i}]")
        req = {**h, "variant": variant.name}
        if "options" in request:
            req["options"] = request["options"]
        try:
            out = score(req)
        except EngineError as exc:
            raise EngineError(exc.code, f"hands[{i}]: {exc.message}", f"hands[{i}].{exc.field}") from None
        if not out["winning"]:
            raise EngineError("not_winning", f"hands[{i}] is not a win: {out.get('reason', '')}", f"hands[{i}]")
        if discarder is not None and h.get("discarder") != discarder:
            raise EngineError("bad_context", "every winner wins on the same discard", f"hands[{i}].discarder")
        for name, default in (("dealer", "E"), ("dealer_streak", 0), ("round_wind", "E")):
            if h.get(name, default) != hands[0].get(name, default):
                raise EngineError("bad_context", f"every winner's hand is the same deal: {name} differs from "
                                  "hands[0]'s", f"hands[{i}].{name}")
        discarder = h.get("discarder")
        winners.append(h.get("winner"))
        results.append(out)
    if len(set(winners)) != len(winners):
        raise EngineError("bad_context", "each winner appears once", "hands")
    seats = variant.seats
    order = [seats[(seats.index(discarder) + k) % len(seats)] for k in range(1, len(seats))]
    ordered = sorted(range(len(hands)), key=lambda i: order.index(winners[i]))
    first = winners[ordered[0]]
    payments = {s: 0 for s in seats}
    for k, i in enumerate(ordered):
        out = results[i]
        pay = dict(out["payments"])
        honba = hands[i].get("dealer_streak", 0)
        if options.multiple_ron_honba == "first" and k > 0 and honba:
            extra = honba * options.honba_points
            pay[winners[i]] -= extra
            pay[discarder] += extra
        for s, v in pay.items():
            payments[s] += v
    riichi_winners = [w for i, w in enumerate(winners) if hands[i].get("riichi") or hands[i].get("double_riichi")]
    if sticks < len(riichi_winners) + void:
        raise EngineError("bad_value", "riichi_sticks counts every stick on the table, the winners' own included "
                          "(and the discarder's, with declaration_dealt_in)", "riichi_sticks")
    stick_to = {w: options.riichi_stick for w in riichi_winners}
    stick_to[first] = stick_to.get(first, 0) + (sticks - len(riichi_winners) - void) * options.riichi_stick
    totals = dict(payments)
    for s, v in stick_to.items():
        totals[s] += v
    return {"variant": variant.name, "event": "multiple_ron", "winners": [winners[i] for i in ordered],
            "results": [results[i] for i in ordered], "payments": payments,
            "riichi_sticks": {s: v for s, v in stick_to.items() if v}, "totals": totals,
            "explain": f"{discarder} pays " + ", ".join(f"{w} {-results[i]['payments'][discarder]}" for w, i in
                                                       ((winners[i], i) for i in ordered))}


def exhaustive_draw(variant, request: dict, options) -> dict:
    _check_fields(request, {"variant", "event", "tenpai", "options"})
    tenpai = request.get("tenpai", [])
    if not isinstance(tenpai, list) or any(s not in variant.seats for s in tenpai) or len(set(tenpai)) != len(tenpai):
        raise EngineError("bad_value", "tenpai is a list of distinct seats", "tenpai")
    pay = noten_payments(variant.seats, tenpai, options.noten_total)
    return {"variant": variant.name, "event": "exhaustive_draw", "payments": pay,
            "explain": "no noten payments" if not any(pay.values()) else
            f"{options.noten_total} from the noten to the tenpai players"}


def chombo(variant, request: dict, options) -> dict:
    _check_fields(request, {"variant", "event", "offender", "dealer", "options"})
    offender = _seat(request, "offender", variant.seats)
    dealer = request.get("dealer", "E")
    _seat({"dealer": dealer}, "dealer", variant.seats)
    if options.chombo_points < 0:
        raise EngineError("bad_value", "chombo_points is the penalty taken off (20000): it cannot be negative",
                          "options.chombo_points")
    if options.chombo == "open":
        pay = chombo_payments(variant.seats, offender, dealer)
        return {"variant": variant.name, "event": "chombo", "payments": pay, "penalty": None,
                "explain": f"{offender} pays a mangan: {-pay[offender]}; the hand is replayed"}
    return {"variant": variant.name, "event": "chombo", "payments": {s: 0 for s in variant.seats},
            "penalty": {"seat": offender, "points": -options.chombo_points, "when": "after the game"},
            "explain": f"{offender} loses {options.chombo_points} from the final score; the hand is replayed, "
                       "riichi sticks are returned and no honba is added"}


def final_uma(variant, request: dict, options) -> dict:
    _check_fields(request, {"variant", "event", "scores", "penalties", "options"})
    scores = request.get("scores")
    penalties = request.get("penalties") or {}
    if not isinstance(scores, dict) or set(scores) != set(variant.seats):
        raise EngineError("bad_scores", "scores maps each of E, S, W, N to points", "scores")
    if not isinstance(penalties, dict) or not set(penalties) <= set(variant.seats) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in penalties.values()):
        raise EngineError("bad_value", "penalties maps seats to points taken off (chombo)", "penalties")
    out = uma(scores, options.uma, penalties)
    return {"variant": variant.name, "event": "uma", **out,
            "explain": "final: " + ", ".join(f"{s} {out['final'][s]:+}" for s in variant.seats)}


HANDLERS = {"multiple_ron": multiple_ron, "exhaustive_draw": exhaustive_draw, "chombo": chombo, "uma": final_uma}


def run(variant, name: str, request: dict, options) -> dict:
    if name not in HANDLERS:
        raise EngineError("unknown_event", f"riichi has no event '{name}'", "event")
    return HANDLERS[name](variant, request, options)
