"""Japanese riichi as the EMA plays it, 2016 rules (document: ema-riichi.ja.txt).

Modules: ``rules`` (options and flags with EMA's defaults), ``yaku`` (one
definition per yaku), ``fu``, ``payments`` (limits, win/noten/chombo payments),
``scoring`` (one win, best reading), ``events`` (multiple ron, chombo, draws,
uma) and ``session`` (what carries between hands, uma at the end).
"""
from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

from ... import tiles as T
from ...contract import read_settings
from ...errors import EngineError
from ...forms import SEVEN_PAIRS, STANDARD, THIRTEEN_ORPHANS, HandView, meld_group
from ...hand import Hand
from ...variant import Variant, standard_tile_set
from . import events, session
from .payments import noten_payments
from .rules import FLAGS, OPTIONS
from .scoring import indicator_tiles, score_hand


_ORPHAN_INDEX = tuple(T.INDEX[t] for t in T.ORPHANS)


def _check_points(opts) -> None:
    if min(opts.honba_points, opts.riichi_stick, opts.noten_total, opts.chombo_points) < 0:
        for name in ("honba_points", "riichi_stick", "noten_total", "chombo_points"):
            if getattr(opts, name) < 0:
                raise EngineError("bad_value", f"{name} cannot be negative", f"options.{name}")


class Riichi(Variant):
    name = "riichi"
    round_winds = ("E", "S")  # 東南半荘制
    title = "Riichi (EMA 2016)"
    document = "ema-riichi.ja.txt"
    tile_set = standard_tile_set()
    sets_needed = 4
    set_aside = frozenset()
    forms = (STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS)
    options = OPTIONS
    flags = FLAGS
    events = {
        "multiple_ron": "several players win on one discard (両家和・三家和): {hands: [score requests], "
                        "riichi_sticks, declaration_dealt_in}",
        "exhaustive_draw": "noten payments (不聴罰符, 3000 in all): {tenpai: [seats]}",
        "chombo": "a false win (錯和): {offender, dealer}; penalty per option chombo",
        "uma": "end of the game: {scores: {seat: points}, penalties: {seat: points}} -> final with uma",
    }

    def validate(self, hand: Hand) -> None:
        f = SimpleNamespace(**hand.flags.as_dict())  # plain attributes: Settings look-ups are slow
        opts = SimpleNamespace(**hand.options.as_dict())
        riichi = f.riichi or f.double_riichi
        if riichi and hand.is_open:
            raise EngineError("bad_context", "riichi needs a concealed hand (concealed kongs are fine)", "riichi")
        if f.ippatsu and not riichi:
            raise EngineError("bad_context", "ippatsu needs riichi", "ippatsu")
        if f.ippatsu and hand.replacement:
            raise EngineError("bad_context", "a kong ends ippatsu, the winner's own concealed kong too "
                              "(立直後に吃・ポン・槓があれば失効): a replacement-tile win is never ippatsu", "ippatsu")
        if hand.round_wind not in self.round_winds:
            raise EngineError("bad_context", "EMA riichi is played over an East and a South round (東南半荘制): "
                              "round_wind is E or S", "round_wind")
        if f.ippatsu and f.last_tile and not hand.self_drawn:
            raise EngineError("bad_context", "ippatsu cannot meet houtei: riichi needs four tiles left to draw "
                              "(摸牌可能な残り壁牌の枚数が四枚を切った場合は立直出来ない), so the riichi player "
                              "draws again before the last discard", "ippatsu")
        if f.last_tile and (hand.replacement or hand.robbed_kong):
            raise EngineError("bad_context", "no kong on the last tile (海底での槓は出来ない): last_tile excludes "
                              "replacement and robbed_kong", "last_tile")
        if f.robbed_concealed_kong and not hand.robbed_kong:
            raise EngineError("bad_context", "robbed_concealed_kong needs robbed_kong", "robbed_concealed_kong")
        if f.first_turn:
            if hand.melds:
                raise EngineError("bad_context", "a first-turn win (tenhou/chiihou/renhou) has no melds", "first_turn")
            if riichi or f.ippatsu or f.last_tile or hand.replacement or hand.robbed_kong:
                raise EngineError("bad_context", "a first-turn win excludes riichi, ippatsu, last tile, "
                                  "replacement and robbed kong", "first_turn")
            if hand.winner is not None and not hand.self_drawn and hand.winner == hand.dealer:
                raise EngineError("bad_context", "the dealer's first-turn win is tenhou, a self-draw", "first_turn")
            if hand.discarder is not None and hand.winner is not None:
                order = hand.seats[hand.seats.index(hand.dealer):] + hand.seats[:hand.seats.index(hand.dealer)]
                if order.index(hand.discarder) > order.index(hand.winner):
                    raise EngineError("bad_context", f"renhou is a ron before the winner's first draw: only the "
                                      f"players before {hand.winner} in turn order from the dealer "
                                      f"({', '.join(order[:order.index(hand.winner)])}) have discarded yet",
                                      "discarder")
        dora = self._indicators(hand, "dora_indicators", f)
        ura = self._indicators(hand, "ura_indicators", f)
        if len(ura) > max(len(dora), 1) and ura:
            raise EngineError("bad_value", "there are no more ura indicators than dora indicators", "ura_indicators")
        if dora or ura:
            shown = Counter(dora)
            shown.update(ura)
            held = hand.all_tiles()
            for t, n in shown.items():
                n += held.count(t)
                if n > 4:
                    raise EngineError("too_many_copies", f"{n} copies of {t} ({T.NAMES[t]}) counting the dora "
                                      "indicators; there are 4", "dora_indicators")
        red = f.red_five_count
        if red:
            if not opts.red_fives:
                raise EngineError("bad_context", "red_five_count needs the red_fives option", "red_five_count")
            fives = sum(1 for t in hand.all_tiles() if t in ("5m", "5p", "5s"))
            if red < 0 or red > 3 or red > fives:
                raise EngineError("bad_value", "red_five_count is at most 3 and at most the fives held",
                                  "red_five_count")
        if not 0 <= f.riichi_sticks <= 100:
            raise EngineError("bad_value", "riichi_sticks is a whole number from 0 to 100", "riichi_sticks")
        if f.declaration_dealt_in and (hand.self_drawn or f.riichi_sticks < 1):
            raise EngineError("bad_context", "declaration_dealt_in is a ron on a riichi declaration tile whose "
                              "stick is counted in riichi_sticks", "declaration_dealt_in")
        if f.pao and hand.winner is not None and f.pao == hand.winner:
            raise EngineError("bad_pao", "the winner cannot be liable (pao) for their own hand", "pao")
        _check_points(opts)

    def check_options(self, options) -> None:
        """Points never negative, noten payments that split evenly, an uma of two whole numbers."""
        _check_points(options)
        noten_payments(self.seats, [], options.noten_total)
        session.uma({s: 0 for s in self.seats}, options.uma)

    @staticmethod
    def _indicators(hand: Hand, name: str, flags) -> tuple[str, ...]:
        tiles = indicator_tiles(hand, name, flags)
        if len(tiles) > 5:
            raise EngineError("bad_value", f"at most 5 {name.replace('_', ' ')} (1 + 4 kan dora)", name)
        for t in tiles:
            if t not in T.STANDARD_KINDS:
                raise EngineError("tile_not_in_set", f"{t} cannot be a dora indicator", name)
        return tiles

    def view(self, hand: Hand, concealed=None, winning_tile=None) -> HandView:
        """As the base class, without the wild-tile and stand-in steps riichi never needs."""
        tiles = hand.concealed if concealed is None else concealed
        counts = [0] * 34
        index = T.INDEX
        for t in tiles:
            counts[index[t]] += 1
        melds = tuple(meld_group(m.tiles, m.kind, m.concealed, None) for m in hand.melds)
        win = hand.winning_tile if concealed is None else winning_tile
        return HandView(counts, 0, None, melds, 4, win, tuple(tiles))

    def readings(self, hand: Hand):
        """As the base class, but seven pairs and thirteen orphans are only tried when the tiles allow them."""
        view = self.view(hand)
        out = STANDARD.readings(view)
        if not view.melds:
            counts = view.counts
            if counts.count(2) == 7:
                out.extend(SEVEN_PAIRS.readings(view))
            elif sum(counts[i] for i in _ORPHAN_INDEX) == 14:
                out.extend(THIRTEEN_ORPHANS.readings(view))
        return out

    def score(self, hand: Hand, readings):
        return score_hand(hand, readings, self.seats)

    def not_winning_reason(self, hand: Hand) -> str:
        return "the tiles do not form four sets and a pair, seven pairs or thirteen orphans"

    def event(self, name: str, request: dict, options) -> dict:
        return events.run(self, name, request, options)

    # ---- carried state ------------------------------------------------------------------------
    def initial_state(self) -> dict:
        return session.initial_state()

    def advance(self, state: dict, outcome: dict) -> dict:
        """See :func:`session.advance`; ``outcome["options"]`` (rule options) may set noten and stick points."""
        if not isinstance(outcome, dict):
            raise EngineError("bad_outcome", "an outcome is an object with a type", "outcome")
        options = read_settings(outcome.get("options"), self.options, "options")
        return session.advance(state, outcome, options)

    def prefill(self, state: dict) -> dict:
        out = {k: state[k] for k in ("dealer", "dealer_streak", "round_wind") if k in state}
        out["riichi_sticks"] = state.get("riichi_sticks", 0)
        return out


VARIANT = Riichi()
