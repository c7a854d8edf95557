"""Wenzhou mahjong, city rules (document: wenzhou.ja.txt).

136 tiles, no flowers; 16 tiles in hand (the dealer 17), a win holds 17. The 3
other copies of the indicator are caishen 財神, wild; when the indicator is not
White, White stands for the indicator's tile (it is not wild). A win is
5 sets + a pair, 8 pairs + any tile, or 3 caishen + anything; a caishen single
wait wins only on a self-draw.

Value: each of the three others pays the winner a base (1 between two non-
dealers; the dealer unit, ``2468`` by the streak, when the dealer pays or wins)
times the hand's class: soft 軟牌 1×, hard 硬牌 2×, double 双翻 4×. Caishen money
財神銭: every caishen held at the end of the hand earns its holder 1 unit from
each other player. :func:`head_bump` decides between several claims on one
discard (頭ハネ; 双翻 beats it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from .. import tiles as T
from ..errors import EngineError
from ..forms import STANDARD, Pairs, WildsPlusAnything
from ..hand import Hand
from ..reading import TANKI, WILD_PAIR, WILD_SET, Reading
from ..variant import Option, Variant, standard_tile_set

EIGHT_PAIRS = Pairs(name="eight_pairs", n_pairs=8, loose=1, distinct=False)  # 八対: 対子8組+任意の1枚

SOFT, HARD, DOUBLE = "soft", "hard", "double"
MULTIPLIER = {SOFT: 1, HARD: 2, DOUBLE: 4}
CLASS_NAMES = {SOFT: "軟牌 (soft)", HARD: "硬牌 (hard)", DOUBLE: "双翻 (double)"}
MAX_STREAK = 3  # 4連荘: the dealer's 4th hand; a win there passes the deal


THREE_CAISHEN = WildsPlusAnything(name="three_caishen", n_wilds=3)  # 財神3枚であとはめちゃくちゃ

OPTIONS = (
    Option("dealer_units", "2468", "what passes between the dealer and another player, by the dealer's "
           "streak (first hand, 2nd, 3rd, 4th)", "子から親と親から子は,事前に“2468”,“3579”などのように決めます",
           ("2468", "3579")),
    Option("caishen_money", 1, "units each other player pays per caishen held at the end of a hand",
           "財神を持っている人は,1つにつき1枚などあらかじめ決めた点を,他の3人からもらいます"),
    Option("white_counts_hard", True, "White used for the indicator still makes a hard hand (false: the "
           "hand must not use White for the indicator)", "白を財神表示の代わりに使わないことを要求する人もいる"),
    Option("all_pungs_double", False, "all pungs (対対胡) is a double", "双翻に対対胡を含める人がいます"),
)

FLAGS = (
    Option("heavenly", False, "天胡: the dealer won on the dealt hand", "天胡.親の配牌での上がり"),
    Option("earthly", False, "地胡: a non-dealer won on the dealer's first discard", "地胡.親の第1打牌での子の上がり"),
    Option("caishen_held", (0, 0, 0, 0), "caishen each seat holds at the end of the hand, in seat order "
           "E S W N; the winner's entry may be 0 (it is counted from the hand)", "財神銭"),
)

EVENTS = {
    "caishen_money": "a hand that ended without a win (流局): caishen money from `caishen_held` "
                     "(counts in seat order E S W N)",
    "caishen_position": "where the caishen indicator lies and where the deal starts: give `dealer` and "
                        "`dice` [the dealer's two-dice total, the second roller's total]; no payments",
    "head_bump": "several players claim one discard: give `discarder`, `claimants` and `doubles` (the "
                 "claimants whose win is a 双翻); answers `winner` (頭ハネ); no payments",
}


# ---- patterns -------------------------------------------------------------------------------------
def face_value(reading: Reading, wild: str | None) -> bool:
    """Every caishen stands for itself (the indicator's tile); wild-only groups count so."""
    for g in reading.groups:
        if g.kind in (WILD_SET, WILD_PAIR):
            continue
        if any(w and t != wild for t, w in zip(g.tiles, g.wild)):
            return False
    return True


def caishen_single_wait(reading: Reading) -> bool:
    """財神の単騎待ち: the win paired a lone caishen (the hand waited on anything)."""
    return reading.lone_wild_wait


@dataclass(frozen=True)
class Win:
    """What the value conditions look at: the hand, one reading of it, and its caishen."""

    hand: Hand
    reading: Reading
    n_caishen: int  # caishen in the hand

    @property
    def form(self) -> str:
        return self.reading.form

    @property
    def honest(self) -> bool:
        """財神がないか,財神を額面どおりに使った; with white_counts_hard false, caishen at face value
        count only without a White for the indicator (a hand with no caishen is 財神がない either way)."""
        hand = self.hand
        if self.n_caishen == 0:
            return True
        uses_white = hand.indicator != "5z" and any(
            t == "5z" for t in list(hand.concealed) + [t for m in hand.melds for t in m.tiles])
        return face_value(self.reading, hand.indicator) and (hand.options.white_counts_hard or not uses_white)


@dataclass(frozen=True)
class Condition:
    """One condition of the document's value list: its name, its class and when it holds."""

    name: str
    cls: str
    holds: Callable[[Win], bool]


def _naked_single(w: Win) -> bool:
    return len(w.hand.melds) == 5 and w.reading.wait == TANKI


CONDITIONS = (
    # 双翻 (double)
    Condition("硬八対 (eight pairs, caishen at face value)", DOUBLE,
              lambda w: w.form == EIGHT_PAIRS.name and w.honest),
    Condition("三財神 (three caishen in a complete shape)", DOUBLE,
              lambda w: w.n_caishen == 3 and w.form in (STANDARD.name, EIGHT_PAIRS.name)),
    Condition("天胡 (heavenly hand)", DOUBLE, lambda w: w.hand.flags.heavenly and w.form != THREE_CAISHEN.name),
    Condition("地胡 (earthly hand)", DOUBLE, lambda w: w.hand.flags.earthly and w.form != THREE_CAISHEN.name),
    Condition("全求神 (naked single wait on a caishen)", DOUBLE,
              lambda w: _naked_single(w) and caishen_single_wait(w.reading)),
    Condition("単吊 (naked single wait)", DOUBLE, lambda w: _naked_single(w) and not caishen_single_wait(w.reading)),
    Condition("対対胡 (all pungs)", DOUBLE,
              lambda w: w.hand.options.all_pungs_double and w.form == STANDARD.name
              and all(g.is_triplet for g in w.reading.sets)),
    # 硬牌 (hard)
    Condition("ツモ (self-drawn)", HARD, lambda w: w.hand.self_drawn and not w.hand.replacement),
    Condition("ツモ (self-drawn on a kong replacement)", HARD, lambda w: w.hand.replacement),
    Condition("財神なし・額面どおり (no caishen changed into another tile)", HARD,
              lambda w: w.form == STANDARD.name and w.honest),
    Condition("チャンカン (robbed kong)", HARD, lambda w: w.hand.robbed_kong),
    Condition("軟八対 (eight pairs, caishen changed)", HARD, lambda w: w.form == EIGHT_PAIRS.name and not w.honest),
    Condition("財神3枚残りめちゃくちゃ (three caishen and anything)", HARD, lambda w: w.form == THREE_CAISHEN.name),
)
SOFT_NAME = "財神を化けさせての振り込み上がり (caishen changed, won on a discard)"


def classify(hand: Hand, reading: Reading, n_caishen: int) -> tuple[str, list[str]]:
    """The hand's class (soft/hard/double, the best one met) and every condition that holds."""
    win = Win(hand, reading, n_caishen)
    met = [c for c in CONDITIONS if c.holds(win)]
    if not met:
        return SOFT, [SOFT_NAME]
    best = DOUBLE if any(c.cls == DOUBLE for c in met) else HARD
    return best, [c.name for c in met]


def dealer_unit(options, streak: int) -> int:
    return int(options.dealer_units[min(streak, MAX_STREAK)])


def base_units(hand: Hand, payer: str) -> int:
    """子から子へは1枚; between the dealer and another player, the dealer unit."""
    if hand.dealer in (hand.winner, payer):
        return dealer_unit(hand.options, hand.dealer_streak)
    return 1


def caishen_money(seats: tuple[str, ...], held: dict[str, int], per: int) -> dict[str, int]:
    """Each caishen earns its holder ``per`` units from each other player."""
    out = {s: 0 for s in seats}
    for s, n in held.items():
        for p in seats:
            if p != s:
                out[p] -= n * per
                out[s] += n * per
    return out


WALL_STACKS = 17  # "各人が17枚2列に並べます"


def caishen_position(dealer: str, first: int, second: int, seats: tuple[str, ...] = T.SEATS) -> dict:
    """Where the caishen indicator lies and where the deal starts, from the two dice totals.

    The dealer rolls ``first``; the seat that many counting the dealer as 1 (in turn order) rolls
    ``second``. Its inner row, counted from the right end, holds the indicator at ``first``
    ("自分の山の内側の列を,右端を1として時計回りに親が出した目まで数えた位置"); the gap is after
    ``first + second`` stacks and the deal starts at the next one, going on into the left
    neighbour's wall past 17 ("目の合計が17より大きいときは,左隣の人の牌を続けて数えます").
    """
    if dealer not in seats:
        raise EngineError("bad_seat", f"dealer must be one of {', '.join(seats)}", "dealer")
    for name, roll in (("dice[0]", first), ("dice[1]", second)):
        if not isinstance(roll, int) or isinstance(roll, bool) or not 2 <= roll <= 12:
            raise EngineError("bad_value", "each roll is the total of two dice, 2 to 12", name)
    i = seats.index(dealer)
    wall = seats[(i + first - 1) % len(seats)]
    start, deal_wall = first + second + 1, wall
    if start > WALL_STACKS:
        start -= WALL_STACKS
        deal_wall = seats[(seats.index(wall) - 1) % len(seats)]  # the left neighbour: the one before in turn
    return {"wall": wall, "indicator_from_right": first, "deal_wall": deal_wall, "deal_from_right": start,
            "deal_from_left": WALL_STACKS + 1 - start}


def check_money(options) -> None:
    if options.caishen_money < 0:
        raise EngineError("bad_value", "options.caishen_money must be at least 0", "options.caishen_money")


def head_bump(discarder: str, claimants: Iterable[str], doubles: Iterable[str] = (),
              seats: tuple[str, ...] = T.SEATS) -> str:
    """Who wins when several players claim one discard (頭ハネ).

    The claimant nearest the discarder in turn order wins ("上がり牌を捨てた人から一番順番の
    近い人の上がり"), except that a 双翻 (double) claim beats any other claim
    ("双翻はこのルールに打ち勝ちます"); between doubles the nearest wins again.
    """
    claimants, doubles = list(claimants), list(doubles)
    if discarder not in seats:
        raise EngineError("bad_seat", f"discarder must be one of {', '.join(seats)}", "discarder")
    if not claimants:
        raise EngineError("bad_value", "at least one claimant is needed", "claimants")
    for s in claimants + doubles:
        if not isinstance(s, str) or s not in seats or s == discarder:
            raise EngineError("bad_seat", f"{str(s)[:4]} cannot claim a discard from {discarder}", "claimants")
    if not set(doubles) <= set(claimants):
        raise EngineError("bad_value", "a double claim must be one of the claimants", "doubles")
    i = seats.index(discarder)
    order = [seats[(i + k) % len(seats)] for k in range(1, len(seats))]
    pool = [s for s in order if s in doubles] or [s for s in order if s in claimants]
    return pool[0]


# ---- the variant ----------------------------------------------------------------------------------
class Wenzhou(Variant):
    name = "wenzhou"
    title = "Wenzhou"
    document = "wenzhou.ja.txt"
    tile_set = standard_tile_set()
    sets_needed = 5
    set_aside = frozenset()
    uses_indicator = True
    wild_name = "caishen"
    forms = (STANDARD, EIGHT_PAIRS, THREE_CAISHEN)
    options = OPTIONS
    flags = FLAGS
    events = EVENTS

    def wild_kind(self, hand: Hand) -> str | None:
        return hand.indicator  # the 3 other copies of the indicator are caishen

    def stand_ins(self, hand: Hand) -> dict[str, str]:
        # "財神表示が白でないときは,白は財神表示と同じ牌になります"
        if hand.indicator and hand.indicator != "5z":
            return {"5z": hand.indicator}
        return {}

    def can_discard(self, hand: Hand, kind: str) -> bool:
        """A caishen only when nothing else is left ("手牌に財神しかない場合を除き,財神を捨てられません");
        a number tile only when no honor stands alone ("対子や刻子になっていない字牌があるときは,
        数牌より先に捨てなければなりません"). White counts as the tile it stands for."""
        caishen = hand.indicator
        if kind == caishen:
            return all(t == caishen for t in hand.concealed)
        subs = self.stand_ins(hand)
        if T.is_honor(subs.get(kind, kind)):
            return True
        honors = [subs.get(t, t) for t in hand.concealed if t != caishen]
        return not any(T.is_honor(h) and honors.count(h) == 1 for h in honors)

    # ---- validation -------------------------------------------------------------------------
    def held(self, hand: Hand) -> dict[str, int]:
        """Caishen per seat at the end of the hand: the winner's from the hand, others' from the flag."""
        raw = hand.flags.caishen_held
        held = self.parse_held(raw)
        if hand.winner is not None:
            own = sum(1 for t in hand.concealed if t == hand.indicator)
            if held[hand.winner] not in (0, own):
                raise EngineError("bad_value", f"caishen_held gives the winner {held[hand.winner]} caishen, "
                                  f"the hand holds {own}", "caishen_held")
            held[hand.winner] = own
        if sum(held.values()) > 3:
            raise EngineError("too_many_copies", "there are only 3 caishen", "caishen_held")
        return held

    def parse_held(self, raw) -> dict[str, int]:
        if (not isinstance(raw, (list, tuple)) or len(raw) != len(self.seats)
                or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 3 for c in raw)):
            raise EngineError("bad_value", "caishen_held must list 4 caishen counts (E S W N), each 0 to 3",
                              "caishen_held")
        return dict(zip(self.seats, raw))

    def check_options(self, options) -> None:
        check_money(options)

    def validate(self, hand: Hand) -> None:
        check_money(hand.options)
        if hand.dealer_streak > MAX_STREAK:
            raise EngineError("bad_value", "dealer_streak is 0 to 3 in wenzhou: after a win in the 4th "
                              "hand (4連荘) the deal passes", "dealer_streak")
        if not hand.claimed:
            return
        if hand.indicator is None:
            raise EngineError("missing_indicator", "indicator (the caishen indicator tile) is required to "
                              "score a wenzhou hand", "indicator")
        if not hand.self_drawn and hand.winning_tile == self.wild_kind(hand):
            raise EngineError("bad_context", "a caishen is discarded only from a hand holding nothing else "
                              "(手牌に財神しかない場合を除き,財神を捨てられません), and no hand holds only the "
                              "three caishen: a win on a discarded caishen does not happen", "winning_tile")
        f = hand.flags
        if f.heavenly and (hand.winner != hand.dealer or not hand.self_drawn or hand.melds):
            raise EngineError("bad_context", "天胡 (heavenly) is the dealer's win on the dealt hand: "
                              "self-drawn, no melds", "heavenly")
        if f.earthly and (hand.winner == hand.dealer or hand.discarder != hand.dealer or hand.melds):
            raise EngineError("bad_context", "地胡 (earthly) is a non-dealer's win on the dealer's first "
                              "discard, with no melds", "earthly")
        self.held(hand)

    def not_winning_reason(self, hand: Hand) -> str:
        return "the tiles do not form 5 sets + a pair, 8 pairs + any tile, or 3 caishen + anything"

    # ---- scoring ----------------------------------------------------------------------------
    def score(self, hand: Hand, readings: list[Reading]) -> dict:
        seats = hand.seats
        if not hand.self_drawn:
            allowed = [r for r in readings if not caishen_single_wait(r)]
            if not allowed:
                return {"winning": False, "reading": readings[0], "form": readings[0].form,
                        "reason": "a caishen single wait (財神の単騎待ち) wins only on a self-draw",
                        "payments": {s: 0 for s in seats},
                        "explain": "a caishen single wait wins only on a self-draw"}
            readings = allowed
        n_caishen = sum(1 for t in hand.concealed if t == hand.indicator)
        order = {SOFT: 0, HARD: 1, DOUBLE: 2}
        reading = max(readings, key=lambda r: order[classify(hand, r, n_caishen)[0]])
        cls, reasons = classify(hand, reading, n_caishen)
        mult = MULTIPLIER[cls]
        winner = hand.winner
        payments = {s: 0 for s in seats}
        items = []
        for p in hand.others(winner):
            amount = base_units(hand, p) * mult
            payments[p] -= amount
            payments[winner] += amount
            items.append({"name": f"{p} pays {base_units(hand, p)} × {mult}", "value": amount})
        total = payments[winner]
        money = caishen_money(seats, self.held(hand), hand.options.caishen_money)
        for s in seats:
            payments[s] += money[s]
        explain = f"{CLASS_NAMES[cls]} ×{mult}: {reasons[0]}; the winner gets {total}"
        if any(money.values()):
            explain += "; caishen money " + ", ".join(f"{s} {v:+d}" for s, v in money.items() if v)
        return {
            "winning": True, "reading": reading, "form": reading.form,
            "score": {"unit": "units", "total": total, "items": items},
            "value": {"class": cls, "multiplier": mult, "conditions": reasons,
                      "dealer_unit": dealer_unit(hand.options, hand.dealer_streak)},
            "caishen_money": money,
            "payments": payments,
            "explain": explain,
        }

    # ---- events -----------------------------------------------------------------------------
    def event(self, name: str, request: dict, options) -> dict:
        check_money(options)
        fields = {"caishen_money": {"caishen_held"}, "head_bump": {"discarder", "claimants", "doubles"},
                  "caishen_position": {"dealer", "dice"}}[name]
        for key in request:
            if key not in {"variant", "event", "options"} | fields:
                raise EngineError("unknown_field", f"unknown field '{str(key)[:40]}' for event {name}", str(key)[:40])
        if name == "caishen_position":
            dice = request.get("dice")
            if not isinstance(dice, list) or len(dice) != 2:
                raise EngineError("bad_value", "dice is [the dealer's total, the second roller's total]", "dice")
            where = caishen_position(request.get("dealer", "E"), dice[0], dice[1], self.seats)
            return {"variant": self.name, "event": name, **where, "payments": {s: 0 for s in self.seats},
                    "explain": f"the indicator is {where['indicator_from_right']} from the right of {where['wall']}'s "
                               f"inner row; the deal starts {where['deal_from_right']} from the right of "
                               f"{where['deal_wall']}'s wall"}
        if name == "head_bump":
            claimants, doubles = request.get("claimants"), request.get("doubles", [])
            if not isinstance(claimants, list) or not isinstance(doubles, list):
                raise EngineError("bad_type", "claimants and doubles are lists of seats", "claimants")
            winner = head_bump(request.get("discarder"), claimants, doubles, self.seats)
            return {"variant": self.name, "event": name, "winner": winner, "payments": {s: 0 for s in self.seats},
                    "explain": f"{winner} wins the discard (頭ハネ" + (", 双翻 first)" if doubles else ")")}
        held = self.parse_held(request.get("caishen_held", [0, 0, 0, 0]))
        if sum(held.values()) > 3:
            raise EngineError("too_many_copies", "there are only 3 caishen", "caishen_held")
        money = caishen_money(self.seats, held, options.caishen_money)
        return {"variant": self.name, "event": name, "payments": money,
                "explain": "caishen money: " + (", ".join(f"{s} {v:+d}" for s, v in money.items() if v) or "none held")}

    # ---- carried state ----------------------------------------------------------------------
    def advance(self, state: dict, outcome: dict) -> dict:
        """The dealer keeps the deal on a win (streak + 1) until a win in the 4th hand (4連荘)
        passes it on; a non-dealer's win passes it to the next seat (親の右隣). A draw keeps
        the dealer and the streak ("親の倍数を変えないで連荘"), unless someone made a kong
        (``outcome["kong"]``): then the deal passes."""
        new = dict(state)
        new["hand_number"] = state.get("hand_number", 1) + 1
        dealer = state["dealer"]
        streak = state.get("dealer_streak", 0)
        if outcome.get("type") == "draw":
            if outcome.get("kong"):
                new["dealer"], new["dealer_streak"] = self.next_seat(dealer), 0
            return new
        winner = (outcome.get("request") or {}).get("winner")
        if winner == dealer and streak < MAX_STREAK:
            new["dealer_streak"] = streak + 1
        else:
            new["dealer"], new["dealer_streak"] = self.next_seat(dealer), 0
        return new

    def prefill(self, state: dict) -> dict:
        return {k: state[k] for k in ("dealer", "dealer_streak") if k in state}


VARIANT = Wenzhou()
