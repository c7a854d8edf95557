"""Malaysian 3-player mahjong (document: malaysian-3p.ja.txt).

84 tiles: circles, winds, dragons, 16 flowers (8 standard, 4 animals, 4 faces)
and 4 fei 飛, wild in pairs, pungs and chows but never in a kong. A win needs
4 sets and a pair (or four fei, 四飛) and at least 5 fan; 10 fan or more is 爆,
paid as 20. Modules: ``rules`` (options and flags), ``forms`` (四飛, fei-only
groups), ``patterns`` (each fan pattern), ``payments`` (win and kong payments),
``session`` (the dealer between hands).
"""
from __future__ import annotations

from ... import tiles as T
from ...errors import EngineError
from ...forms import STANDARD
from ...hand import Hand
from ...reading import Reading
from ...variant import Variant
from . import session
from .forms import FOUR_FEI, concrete_readings
from .patterns import Facts, fan_items, seat_wind
from .payments import EVENTS, describe_payment, kong_payments, paid_units, win_payments
from .rules import BAO_FAN, FLAGS, OPTIONS, Rules


def _tile_set() -> dict[str, int]:
    kinds = {f"{n}p": 4 for n in range(1, 10)}
    kinds.update({h: 4 for h in T.HONORS})
    kinds.update({f: 1 for f in T.FLOWERS + T.ANIMALS + T.FACES})
    kinds[T.FEI] = 4
    return kinds


def distinct(readings: list[Reading], rules: Rules) -> list[Reading]:
    """Concrete readings that can score differently: where the winning tile sits only matters
    to 四暗刻 (a pung completed by a discard is not concealed)."""
    seen: dict = {}
    for reading in readings:
        for c in concrete_readings(reading):
            key = (c.form, c.groups, c.loose)
            if rules.four_concealed_pungs:
                key += (c.win_group, c.wait)
            seen.setdefault(key, c)
    return list(seen.values())


class Malaysian(Variant):
    name = "malaysian"
    title = "Malaysian 3-player"
    document = "malaysian-3p.ja.txt"
    seats = ("E", "S", "W")
    tile_set = _tile_set()
    sets_needed = 4
    set_aside = frozenset(T.FLOWERS + T.ANIMALS + T.FACES)
    may_set_aside = frozenset({T.FEI})  # 下飛: a fei laid aside as a flower
    wild_name = "fei"
    wilds_in_melds = True  # fei may stand in a chow or pung, never in a kong (the core refuses that)
    forms = (STANDARD, FOUR_FEI)
    options = OPTIONS
    flags = FLAGS
    events = EVENTS

    def wild_kind(self, hand: Hand) -> str | None:
        return T.FEI

    def can_discard(self, hand: Hand, kind: str) -> bool:
        return kind != T.FEI  # "手にある飛は捨てることはできない"

    def instant_win(self, hand: Hand) -> bool:
        """"開始時に飛が4枚あると即勝利": a non-dealer's 13 dealt tiles win with four fei."""
        return (sum(1 for t in hand.concealed if t == T.FEI) >= 4 and not hand.melds
                and hand.winner is not None and not hand.winner_is_dealer)  # the dealer is dealt 14

    def check_options(self, options) -> None:
        Rules.from_settings(options)

    def validate(self, hand: Hand) -> None:
        if not hand.claimed:
            return
        if hand.winning_tile == T.FEI and not hand.self_drawn:
            raise EngineError("bad_context", "a fei is never discarded (手にある飛は捨てることはできない), "
                              "so a fei cannot be won on a discard or a robbed kong", "winning_tile")
        if hand.concealed.count(T.FEI) >= 4 and not hand.self_drawn:
            raise EngineError("bad_context", "a hand holding four fei has won already, at the deal or on drawing "
                              "the fourth (開始時に飛が4枚あると即勝利; 残り1枚の飛をツモると最大役で上がり): "
                              "never on a discard or a robbed kong", "self_drawn")
        if len(hand.concealed) + 3 * len(hand.melds) == 3 * self.sets_needed + 1 and not hand.self_drawn:
            raise EngineError("bad_context", "four fei at the deal win on the dealt tiles: set self_drawn",
                              "self_drawn")
        flags = hand.flags
        if flags.heavenly and flags.earthly:
            raise EngineError("bad_context", "a hand is not both heavenly and earthly", "earthly")
        if flags.heavenly and not (hand.winner_is_dealer and hand.self_drawn and not hand.melds):
            raise EngineError("bad_context", "天胡 is the dealer's self-drawn win on the dealt hand, with no melds",
                              "heavenly")
        if flags.earthly and (hand.winner_is_dealer or hand.melds):
            raise EngineError("bad_context", "地胡 is a non-dealer's win on the first tile, with no melds", "earthly")
        if flags.flower_replacement and not hand.replacement:
            raise EngineError("bad_context", "flower_replacement describes a replacement-tile win: set replacement",
                              "flower_replacement")
        if flags.flower_replacement and not hand.flowers:
            raise EngineError("bad_context", "花上 is a win on the tile drawn for a flower or a fei set aside "
                              "(補花): give it in flowers", "flower_replacement")
        if hand.replacement and not flags.flower_replacement and not any(m.kind == "kong" for m in hand.melds):
            raise EngineError("bad_context", "槓上 is a win on the tile drawn for the winner's own kong: give the "
                              "kong among the melds (or set flower_replacement for 花上)", "replacement")

    # ---- scoring ----------------------------------------------------------------------------
    def score(self, hand: Hand, readings: list[Reading]) -> dict:
        rules = Rules.from_settings(hand.options)
        four_fei = [r for r in readings if r.form == FOUR_FEI.name]
        candidates = four_fei or distinct(readings, rules)  # 四飛 is 爆 whatever else the tiles make
        if not candidates:
            reason = "every way of reading it has a fei standing for a fifth copy of a tile"
            return {"winning": False, "reading": None, "form": None, "reason": reason, "explain": reason,
                    "payments": {s: 0 for s in hand.seats}}
        best = None
        for concrete in candidates:
            items = fan_items(Facts(hand, concrete, rules))
            raw = sum(v for _, v in items)
            key = (paid_units(min(raw, BAO_FAN), rules), raw)
            if best is None or key > best[0]:
                best = (key, concrete, items)
        (units, raw), reading, items = best
        total = min(raw, BAO_FAN)
        bao = total >= BAO_FAN
        score = {"unit": "fan", "total": total, "items": [{"name": n, "value": v} for n, v in items],
                 "bao": bao, "paid_as": units}
        if raw > total:
            score["uncapped"] = raw
        out = {"reading": reading, "form": reading.form, "score": score, "seat_wind": seat_wind(hand, hand.winner)}
        if total < rules.min_fan:
            out.update(winning=False, payments={s: 0 for s in hand.seats},
                       reason=f"{total} fan: a win needs at least {rules.min_fan} fan (上がるには5番以上の役が必要)",
                       explain=f"not a win: {total} fan, {rules.min_fan} needed")
            return out
        pay = win_payments(hand, units, rules)
        what = "爆 (10 fan), paid as " + str(units) if bao else f"{total} fan"
        out.update(winning=True, payments=pay,
                   explain=f"{reading.form} hand, {what}; {describe_payment(hand, units, rules)}")
        return out

    def not_winning_reason(self, hand: Hand) -> str:
        return "the tiles are not 4 sets and a pair (fei filling in) and hold fewer than 4 fei"

    def event(self, name: str, request: dict, options) -> dict:
        if name != "kong":
            return super().event(name, request, options)
        return kong_payments(request, Rules.from_settings(options), self.seats)

    # ---- carried state ------------------------------------------------------------------------
    def initial_state(self) -> dict:
        return session.initial_state(self.seats)

    def advance(self, state: dict, outcome: dict) -> dict:
        return session.advance(state, outcome, self.seats)

    def prefill(self, state: dict) -> dict:
        return session.prefill(state)


VARIANT = Malaysian()
