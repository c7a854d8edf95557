"""What carries between riichi hands, and the end of a session (半荘).

* East-South game (東南半荘制). The dealer keeps the deal (連荘) on a dealer win
  (also when the dealer is one of several winners) or when tenpai at an
  exhaustive draw; otherwise the deal passes (輪荘), also on the last hand, which
  ends the game.
* Honba (積み場): +1 on a dealer win or any exhaustive draw, back to 0 when the
  deal passes after a non-dealer win.
* Riichi sticks: a win takes every stick on the table; at a draw they stay.
* Chombo (錯和): the hand is replayed: no honba counted, riichi sticks of the
  hand given back; the tournament penalty is taken from the final score.
* Uma 15,000/5,000, ties split the uma of the places they share, no oka; a chombo penalty comes off
  after the uma (the places are the game's).
"""
from __future__ import annotations

from ...errors import EngineError

SEATS = ("E", "S", "W", "N")


def uma(scores: dict[str, int], uma_values=(15000, 5000), penalties: dict[str, int] | None = None) -> dict:
    """Final results: score plus uma, minus chombo penalties; ties share the uma of their places.

    Places and uma come from the game's scores; a chombo penalty is taken off afterwards
    (「その場での罰符の収受を行わず、半荘終了後にスコアから 2万点を減点します」), so it changes
    no other player's place or uma.

    ``scores``: seat -> points won or lost in the game (the game starts at 0 each).
    ``penalties``: seat -> points taken off (20000 for a tournament chombo).
    Returns ``{"final": {seat: points}, "uma": {seat: points}, "places": {seat: place}}``.
    """
    if not isinstance(scores, dict) or not scores or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in scores.values()):
        raise EngineError("bad_scores", "scores must map each seat to a whole number of points", "scores")
    try:
        first, second = (int(x) for x in uma_values)
    except (TypeError, ValueError):
        raise EngineError("bad_value", "uma is two whole numbers: [first, second]", "options.uma") from None
    if len(scores) != 4:
        raise EngineError("bad_scores", "uma needs the scores of all four players", "scores")
    penalties = penalties or {}
    if any(int(p) < 0 for p in penalties.values()):
        # the state keeps a penalty as a signed change (-20000); here it is the points taken off (20000)
        raise EngineError("bad_value", "penalties are the points taken off (20000 for a chombo), not negative",
                          "penalties")
    by_place = [first, second, -second, -first]
    ordered = sorted(scores, key=lambda s: -scores[s])  # places of the game, before any penalty
    out_uma: dict[str, int] = {}
    places: dict[str, int] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and scores[ordered[j + 1]] == scores[ordered[i]]:
            j += 1
        shared = by_place[i:j + 1]
        share = sum(shared) / len(shared)
        for s in ordered[i:j + 1]:
            out_uma[s] = int(share) if share == int(share) else share
            places[s] = i + 1
        i = j + 1
    final = {s: scores[s] + out_uma[s] - int(penalties.get(s, 0)) for s in scores}
    return {"final": final, "uma": out_uma, "places": places, "penalties": {s: -int(p) for s, p in penalties.items()}}


def initial_state() -> dict:
    return {"dealer": "E", "dealer_streak": 0, "round_wind": "E", "hand_number": 1, "riichi_sticks": 0,
            "scores": {s: 0 for s in SEATS}, "penalties": {s: 0 for s in SEATS}, "finished": False}


def _pass_deal(state: dict, new: dict) -> None:
    i = SEATS.index(state["dealer"])
    new["dealer"] = SEATS[(i + 1) % 4]
    if new["dealer"] == "E":
        if state.get("round_wind", "E") == "S":
            new["finished"] = True
            new["dealer"] = state["dealer"]
        else:
            new["round_wind"] = "S"


def advance(state: dict, outcome: dict, options=None) -> dict:
    """The state after one outcome.

    outcome types: ``win`` ({"request", "result", "riichi": [seats that declared this hand]}), ``multiple_ron``
    ({"request": the event request, "requests": its hands, "result": the event's output, "riichi"}), ``draw``
    ({"tenpai": [seats], "riichi": [seats that declared this hand]}) and
    ``chombo`` ({"offender", "riichi": [...], "result": the chombo event's output}).
    """
    if state.get("finished"):
        raise EngineError("game_over", "the game is over (South 4 has been played)", "outcome")
    kind = outcome.get("type")
    new = {**state, "scores": dict(state.get("scores", {s: 0 for s in SEATS})),
           "penalties": dict(state.get("penalties", {s: 0 for s in SEATS}))}
    new["hand_number"] = state.get("hand_number", 1) + 1
    dealer = state["dealer"]
    if kind == "win":
        result = outcome.get("result") or {}
        totals = result.get("totals") or result.get("payments") or {}
        winners = [outcome.get("request", {}).get("winner")]
        _add(new, totals, state)
        request = outcome.get("request") or {}
        # 宣言牌での放銃: the discarder's riichi is void and its stick is not paid (the score left it out)
        void = request.get("discarder") if request.get("declaration_dealt_in") else None
        _declared(new, outcome, options, void)
        new["riichi_sticks"] = 0
        _after_win(state, new, dealer in winners)
    elif kind == "multiple_ron":
        result = outcome.get("result") or {}
        winners = [r.get("winner") for r in outcome.get("requests", [])]
        _add(new, result.get("totals") or {}, state)
        event_request = outcome.get("request") or {}
        discarder = next((r.get("discarder") for r in outcome.get("requests", []) if isinstance(r, dict)), None)
        void = discarder if event_request.get("declaration_dealt_in") else None
        _declared(new, outcome, options, void)
        new["riichi_sticks"] = 0
        _after_win(state, new, dealer in winners)
    elif kind == "draw":
        tenpai = list(outcome.get("tenpai", []))
        riichi = list(outcome.get("riichi", []))
        if not set(riichi) <= set(tenpai):
            missing = ", ".join(s for s in riichi if s not in tenpai)
            raise EngineError("bad_outcome", f"a player in riichi must be tenpai at the draw: {missing} declared "
                              "riichi but is not listed in tenpai", "outcome.tenpai")
        from .payments import noten_payments

        total = options.noten_total if options is not None else 3000
        stick = options.riichi_stick if options is not None else 1000
        pay = noten_payments(SEATS, tenpai, total)
        for s in riichi:
            pay[s] -= stick
        _add(new, pay, state)
        new["riichi_sticks"] = state.get("riichi_sticks", 0) + len(riichi)
        new["dealer_streak"] = state.get("dealer_streak", 0) + 1
        if dealer not in tenpai:
            _pass_deal(state, new)
    elif kind == "chombo":
        result = outcome.get("result") or {}
        _add(new, result.get("payments") or {}, state)
        pen = result.get("penalty")
        if pen:
            new["penalties"][pen["seat"]] += pen["points"]
        new["hand_number"] = state.get("hand_number", 1)  # the same hand is replayed
    else:
        raise EngineError("bad_outcome", "outcome type must be win, multiple_ron, draw or chombo", "outcome.type")
    return new


def _declared(new: dict, outcome: dict, options, void: str | None = None) -> None:
    """Riichi declared in this hand: each declarer put a stick on the table (``void``: a riichi whose
    declaration tile was dealt in, which pays no stick)."""
    stick = options.riichi_stick if options is not None else 1000
    for s in outcome.get("riichi", []):
        if s != void:
            new["scores"][s] -= stick


def _after_win(state: dict, new: dict, dealer_won: bool) -> None:
    if dealer_won:
        new["dealer_streak"] = state.get("dealer_streak", 0) + 1
    else:
        new["dealer_streak"] = 0
        _pass_deal(state, new)


def _add(new: dict, pay: dict, state: dict) -> None:
    if not isinstance(pay, dict) or not all(isinstance(v, int) and not isinstance(v, bool) for v in pay.values()):
        raise EngineError("bad_outcome", "the outcome's payments must map seats to whole numbers", "outcome.result")
    for s, v in pay.items():
        if s in new["scores"]:
            new["scores"][s] += v
