"""Philippine mahjong (document: philippine.ja.txt, the Matabungkay house rules).

16 tiles in hand (the dealer, "mano", 17), a win is 5 sets + a pair with 17.
Every honor and flower is a "flores": set aside at once and replaced, so it is
only ever counted in ``flowers``. The indicator tile itself is the joker: its 3
other copies are wild ("その牌自体がジョーカー").

There are no yaku. A win is paid in pesos by one rule, the best that applies
(see :func:`awards`): a plain win on a discard (the discarder pays), a plain
self-draw (all pay), the two special hands Seven First and Escalera (all pay,
however won), a win with no flores, a single-joker wait, or a robbed added kong.
Winners also earn chips; 5 chips make "hi-ala", a bonus from everyone, and every
chip goes back. Kongs, the flores bonus and false wins are events
(:meth:`Philippine.event`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .. import tiles as T
from ..errors import EngineError
from ..forms import STANDARD, Form, HandView, Pairs
from ..hand import Hand
from ..reading import CHOW, PAIR, WILD_PAIR, WILD_SET, Reading
from ..variant import Option, Variant, standard_tile_set

_CONCEALED_SEVEN_FIRST = Pairs(name="seven_first", n_pairs=7, sets=1, distinct=False)
_SEVEN_PAIRS = Pairs(name="seven_first", n_pairs=7, distinct=False)


@dataclass(frozen=True)
class SevenFirst(Form):
    """セブンファースト, チートイツ+1面子: 7 pairs (two may be alike) + 1 set; the set may be claimed."""

    name: str = "seven_first"

    def _pairs_view(self, view: HandView) -> HandView | None:
        return replace(view, melds=()) if len(view.melds) == 1 else None

    def readings(self, view: HandView) -> list[Reading]:
        if not view.melds:
            return _CONCEALED_SEVEN_FIRST.readings(view)
        inner = self._pairs_view(view)
        if inner is None:
            return []
        return [replace(r, groups=r.groups + view.melds) for r in _SEVEN_PAIRS.readings(inner)]

    def complete(self, view: HandView) -> bool:
        if not view.melds:
            return _CONCEALED_SEVEN_FIRST.complete(view)
        inner = self._pairs_view(view)
        return inner is not None and _SEVEN_PAIRS.complete(inner)


SEVEN_FIRST = SevenFirst()
ESCALERA = "escalera"  # 一気通かん+1面子: reported as the form of a standard reading holding a 1-9 run

DOC = "philippine.ja.txt"

OPTIONS = (
    Option("discard_win", 10, "pesos the discarder pays for a plain win on a discard",
           "振込みの場合は振った人が10ペソでチップ1枚"),
    Option("self_drawn_win", 10, "pesos each other player pays for a plain self-drawn win",
           "積もの場合はみんなから10ペソでチップ2枚"),
    Option("special_hand", 10, "pesos each other player pays for Seven First or Escalera, self-drawn or not",
           "セブンファースト … つもでも誰から上がっても、10ペソ通しでチップ2枚"),
    Option("no_flores", 15, "pesos each other player pays for a win with no flores set aside",
           "フローレスを一枚も手元に出さずに上がった場合は、どんな手牌でも15ペソ通しでチップ2枚"),
    Option("single_joker", 15, "pesos each other player pays for a win on a single-joker wait",
           "ジョーカーの単騎待ち(シングルジョーカーと呼ばれる)で上がった場合も15ペソ通しでチップ2枚"),
    Option("robbed_kong", 10, "pesos each other player pays (the kong's owner too, nothing more) when "
           "an added kong is robbed", "上がった人が10ペソ通しで貰えます。この場合、振った人も10ペソだけ"),
    Option("chips_plain_discard", 1, "chips for a plain win on a discard", "通常は1枚"),
    Option("chips_self_drawn", 2, "chips for a plain self-drawn win", "積もの場合はみんなから10ペソでチップ2枚"),
    Option("chips_special", 2, "chips for Seven First, Escalera, no flores or a single joker",
           "特別な役の場合は2枚"),
    Option("chips_robbed_kong", 1, "chips for robbing an added kong (the document is silent: a plain "
           "discard win's 1 chip)", ""),
    Option("hi_ala_chips", 5, "chips that make hi-ala (then every chip goes back)", "チップを5枚溜めるとハイアライ"),
    Option("hi_ala_bonus", 5, "pesos each other player pays on hi-ala", "更に5ペソ通しで貰えます"),
    Option("kong_bonus", 5, "pesos each other player pays for a kong (event 'kong')",
           "カン … はその場で5ペソ通し貰えます"),
    Option("flores_bonus", 5, "pesos each other player pays for 0 or 13+ flores (event 'flores_bonus')",
           "0枚か13枚以上あると、その人はその場で5ペソ通しで貰えます"),
    Option("flores_bonus_min", 13, "flores that earn the flores bonus", "13枚以上"),
    Option("false_win_penalty", 10, "pesos a false winner pays each other player (event 'false_win')",
           "P10通しのペナルティを払います"),
    Option("claim_priority", "upper_first", "several wins on one discard: 'upper_first' takes the discarder's "
           "上席 (the player before the discarder, then back round the table) as the document words it; "
           "'next_first' takes the next player in turn first (the usual head-bump)",
           "複数の人が同じ捨牌で上がる場合は、捨てた人の上席が優先権を持ちます", ("upper_first", "next_first")),
    Option("escalera_concealed", False, "Escalera's 1-9 run must be concealed (the document is silent: "
           "declared chows count)", ""),
)

FLAGS = (
    Option("chips_before", (0, 0, 0, 0), "each seat's chips before this hand, in seat order E S W N "
           "(hi-ala is reached when the winner's chips reach hi_ala_chips)", "チップを5枚溜めるとハイアライ"),
)

EVENTS = {
    "kong": "a kong (exposed, added or concealed 'secret'): each other player pays kong_bonus to `seat`",
    "flores_bonus": "0 or 13+ flores at the deal, or 13+ during play: each other player pays flores_bonus "
                    "to `seat`; give `flores` (the count) and `at_deal` (default true)",
    "false_win": "a false win: `seat` pays false_win_penalty to each other player",
    "claim_priority": "several players win on one discard: give `discarder` and `claimants` (seats); "
                      "answers `winner`, by the claim_priority option; no payments",
}


# ---- patterns -------------------------------------------------------------------------------------
def escalera_suit(reading: Reading, concealed_only: bool = False) -> str | None:
    """The suit of a 1-2-3, 4-5-6, 7-8-9 run of chows in one suit, if the reading has one.

    A set of three jokers (a ``wild_set``, always concealed) may stand for the missing chow.
    """
    starts: dict[str, set[int]] = {}
    wild_sets = sum(1 for g in reading.groups if g.kind == WILD_SET)
    for g in reading.groups:
        if g.kind == CHOW and not (concealed_only and g.declared):
            starts.setdefault(T.suit(g.tiles[0]), set()).add(T.number(g.tiles[0]))
    for s, nums in starts.items():
        if len({1, 4, 7} - nums) <= wild_sets:
            return s
    return None


def special_form(reading: Reading, options) -> str | None:
    """"seven_first" or "escalera" for the two special hands, else None."""
    if reading.form == SEVEN_FIRST.name:
        return SEVEN_FIRST.name
    if escalera_suit(reading, options.escalera_concealed):
        return ESCALERA
    return None


def is_single_joker(reading: Reading) -> bool:
    """"ジョーカーの単騎待ち": the win paired a lone joker (the hand waited on anything).

    Seven First readings keep natural pairs whole and pair the jokers with each other, so a
    natural pair X X holding the win beside a joker pair is also X+joker, X+joker: the waiting
    hand held X, a joker alone and the rest, a single-joker wait.
    """
    if reading.lone_wild_wait:
        return True
    if reading.form != SEVEN_FIRST.name or reading.win_group is None or reading.win_wild:
        return False
    g = reading.groups[reading.win_group]
    return g.kind == PAIR and not any(g.wild) and any(h.kind == WILD_PAIR for h in reading.groups)


@dataclass(frozen=True)
class Award:
    """One way the win can be paid: ``amount`` from each payer, and chips."""

    name: str
    amount: int
    everyone: bool  # all three others pay; else only the discarder
    chips: int

    def total(self, n_others: int) -> int:
        return self.amount * (n_others if self.everyone else 1)


def awards(hand: Hand, reading: Reading) -> list[Award]:
    """Every payment rule that applies to this win; the best one is paid."""
    o = hand.options
    out = []
    if hand.robbed_kong:
        out.append(Award("robbed added kong (搶槓)", o.robbed_kong, True, o.chips_robbed_kong))
    elif hand.self_drawn:
        out.append(Award("self-drawn win (積も)", o.self_drawn_win, True, o.chips_self_drawn))
    else:
        out.append(Award("win on a discard (振込み)", o.discard_win, False, o.chips_plain_discard))
    special = special_form(reading, o)
    if special == SEVEN_FIRST.name:
        out.append(Award("Seven First (セブンファースト)", o.special_hand, True, o.chips_special))
    elif special == ESCALERA:
        out.append(Award("Escalera (エスカラーダ)", o.special_hand, True, o.chips_special))
    if not hand.flowers:
        out.append(Award("no flores (フローレス無し)", o.no_flores, True, o.chips_special))
    if is_single_joker(reading):
        out.append(Award("single joker (シングルジョーカー)", o.single_joker, True, o.chips_special))
    return out


def best_award(hand: Hand, reading: Reading) -> tuple[Award, list[Award]]:
    """The award paid (the most pesos, then the most chips) and every award found. Where a named
    hand pays as much as the plain win (a self-drawn Seven First or Escalera: 10 from each and 2
    chips either way), the named hand is the one shown."""
    found = awards(hand, reading)
    n = len(hand.seats) - 1
    return max(found, key=lambda a: (a.total(n), a.chips, a is not found[0])), found


def add(payments: dict[str, int], payee: str, payers, amount: int) -> None:
    for p in payers:
        payments[p] -= amount
        payments[payee] += amount


def claim_winner(discarder: str, claimants, priority: str, seats: tuple[str, ...] = T.SEATS) -> str:
    """Who wins when several players claim one discard ("捨てた人の上席が優先権を持ちます")."""
    if discarder not in seats:
        raise EngineError("bad_seat", f"discarder must be one of {', '.join(seats)}", "discarder")
    if not isinstance(claimants, (list, tuple)) or not claimants:
        raise EngineError("bad_value", "claimants is a non-empty list of seats", "claimants")
    for s in claimants:
        if not isinstance(s, str) or s not in seats or s == discarder:
            raise EngineError("bad_seat", f"{str(s)[:4]} cannot claim a discard from {discarder}", "claimants")
    i = seats.index(discarder)
    steps = range(len(seats) - 1, 0, -1) if priority == "upper_first" else range(1, len(seats))
    return next(seats[(i + k) % len(seats)] for k in steps if seats[(i + k) % len(seats)] in claimants)


def check_rates(options) -> None:
    """Pesos and chips are never negative; hi-ala and the flores bonus need at least 1."""
    for opt in OPTIONS:
        value = options[opt.name]
        if isinstance(value, int) and not isinstance(value, bool):
            least = 1 if opt.name in ("hi_ala_chips", "flores_bonus_min") else 0
            if value < least:
                raise EngineError("bad_value", f"options.{opt.name} must be at least {least}", f"options.{opt.name}")


# ---- the variant ----------------------------------------------------------------------------------
class Philippine(Variant):
    name = "philippine"
    title = "Philippine"
    document = DOC
    tile_set = standard_tile_set(flowers=True)
    sets_needed = 5
    set_aside = frozenset(T.HONORS + T.FLOWERS)  # every honor and flower is a "flores"
    uses_indicator = True
    wild_name = "joker"
    forms = (STANDARD, SEVEN_FIRST)
    options = OPTIONS
    flags = FLAGS
    events = EVENTS

    def wild_kind(self, hand: Hand) -> str | None:
        return hand.indicator  # the indicator's 3 other copies are wild

    def check_options(self, options) -> None:
        check_rates(options)

    def validate(self, hand: Hand) -> None:
        if hand.claimed and hand.indicator is None:
            raise EngineError("missing_indicator", "indicator (the joker tile turned face up) is required "
                              "to score a philippine hand", "indicator")
        check_rates(hand.options)
        self.chips_before(hand)

    def chips_before(self, hand: Hand) -> dict[str, int]:
        raw = hand.flags.chips_before
        limit = hand.options.hi_ala_chips
        if (not isinstance(raw, (list, tuple)) or len(raw) != len(self.seats)
                or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < limit for c in raw)):
            raise EngineError("bad_value", f"chips_before must list {len(self.seats)} chip counts (E S W N), "
                              f"each from 0 to {limit - 1}", "chips_before")
        return dict(zip(self.seats, raw))

    def score(self, hand: Hand, readings: list[Reading]) -> dict:
        o = hand.options
        n = len(hand.seats) - 1

        def rank(r: Reading):
            award, _ = best_award(hand, r)
            return (award.total(n), award.chips, special_form(r, o) is not None)

        reading = max(readings, key=rank)
        award, found = best_award(hand, reading)
        winner = hand.winner
        others = hand.others(winner)
        payments = {s: 0 for s in hand.seats}
        payers = others if award.everyone else (hand.discarder,)
        add(payments, winner, payers, award.amount)
        items = [{"name": award.name, "value": award.total(n)}]
        items += [{"name": f"{a.name}: not added, the best payment applies", "value": 0}
                  for a in found if a is not award]

        before = self.chips_before(hand)
        after = dict(before)
        after[winner] += award.chips
        hi_ala = after[winner] >= o.hi_ala_chips
        if hi_ala:
            add(payments, winner, others, o.hi_ala_bonus)
            items.append({"name": "hi-ala (ハイアライ)", "value": o.hi_ala_bonus * n})
            after = {s: 0 for s in hand.seats}
        total = payments[winner]
        form = special_form(reading, o) or reading.form
        who = "each other player pays" if award.everyone else f"{hand.discarder} pays"
        explain = f"{award.name}: {who} {award.amount} pesos; {award.chips} chip(s)"
        if hi_ala:
            explain += f"; hi-ala: {o.hi_ala_bonus} pesos more from each, every chip goes back"
        return {
            "winning": True, "reading": reading, "form": form,
            "score": {"unit": "pesos", "total": total, "items": items},
            "payments": payments,
            "chips": {"earned": award.chips, "before": before, "after": after, "hi_ala": hi_ala},
            "explain": explain,
        }

    # ---- events -----------------------------------------------------------------------------
    def event(self, name: str, request: dict, options) -> dict:
        check_rates(options)
        extra = {"flores_bonus": {"seat", "flores", "at_deal"}, "claim_priority": {"discarder", "claimants"}}
        allowed = {"variant", "event", "options"} | extra.get(name, {"seat"})
        for key in request:
            if key not in allowed:
                raise EngineError("unknown_field", f"unknown field '{str(key)[:40]}' for event {name}", str(key)[:40])
        if name == "claim_priority":
            winner = claim_winner(request.get("discarder"), request.get("claimants"), options.claim_priority,
                                  self.seats)
            return {"variant": self.name, "event": name, "winner": winner,
                    "payments": {s: 0 for s in self.seats},
                    "explain": f"{winner} wins the discard ({options.claim_priority})"}
        seat = request.get("seat")
        if seat not in self.seats:
            raise EngineError("bad_seat", f"seat must be one of {', '.join(self.seats)}", "seat")
        others = tuple(s for s in self.seats if s != seat)
        payments = {s: 0 for s in self.seats}
        if name == "kong":
            add(payments, seat, others, options.kong_bonus)
            explain = f"kong: each other player pays {seat} {options.kong_bonus} pesos"
        elif name == "false_win":
            for p in others:
                add(payments, p, (seat,), options.false_win_penalty)
            explain = f"false win: {seat} pays each other player {options.false_win_penalty} pesos"
        else:
            flores = request.get("flores")
            at_deal = request.get("at_deal", True)
            if not isinstance(flores, int) or isinstance(flores, bool) or not 0 <= flores <= 36:
                raise EngineError("bad_value", "flores must be the number of flores set aside (0 to 36)", "flores")
            if not isinstance(at_deal, bool):
                raise EngineError("bad_type", "at_deal must be true or false", "at_deal")
            earns = flores >= options.flores_bonus_min or (at_deal and flores == 0)
            if earns:
                add(payments, seat, others, options.flores_bonus)
                explain = f"{flores} flores: each other player pays {seat} {options.flores_bonus} pesos"
            else:
                explain = (f"{flores} flores {'at the deal' if at_deal else 'during play'} earn nothing "
                           f"(the bonus is for 0 at the deal or {options.flores_bonus_min}+)")
        return {"variant": self.name, "event": name, "payments": payments, "explain": explain}

    # ---- carried state ----------------------------------------------------------------------
    def initial_state(self) -> dict:
        state = super().initial_state()
        state["chips"] = {s: 0 for s in self.seats}
        return state

    def advance(self, state: dict, outcome: dict) -> dict:
        """Chips carry from hand to hand; hi-ala sends every chip back.

        The mano (dealer) is chosen by dice each hand ("出た目の合計の山の人がマーノ"), so it
        is not derived: it stays as recorded until the session sets it. The winner rolls
        the dice next ("前のゲームの勝利者がサイコロを振ります"): ``dice_roller``.
        """
        new = dict(state)
        new["hand_number"] = state.get("hand_number", 1) + 1
        chips = dict(state.get("chips") or {s: 0 for s in self.seats})
        if outcome.get("type") == "win":
            result = outcome.get("result") or {}
            winner = (outcome.get("request") or {}).get("winner")
            if isinstance(result.get("chips"), dict) and "after" in result["chips"]:
                chips = dict(result["chips"]["after"])
            if winner in self.seats:
                new["dice_roller"] = winner
        new["chips"] = chips
        return new

    def prefill(self, state: dict) -> dict:
        chips = state.get("chips") or {}
        return {"chips_before": [int(chips.get(s, 0)) for s in self.seats]}


VARIANT = Philippine()
