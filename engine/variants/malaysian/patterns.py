"""Malaysian fan: one small class per pattern, each with its condition and its fan.

A pattern looks at :class:`Facts` (one concrete reading of the hand, its context
and the rule options) and answers how many fan it adds (0: absent). The fan of
honors and flowers, which depends on the winner's seat, is in :func:`tile_items`.
Passages in quotes are from the rule document (malaysian-3p.ja.txt).
"""
from __future__ import annotations

from ... import tiles as T
from ...hand import Hand
from ...reading import CHOW, KONG, SHANPON, Reading
from .rules import BAO_FAN, Rules

SEAT_WINDS = ("1z", "2z", "3z")  # East, South, West: the dealer is East, then the seats in turn
TERMINAL_CIRCLES = ("1p", "9p")


def seat_wind(hand: Hand, seat: str) -> str:
    """The seat wind of ``seat`` in this hand: the dealer is East ("上がった人が次局の東風となり")."""
    return SEAT_WINDS[(hand.seats.index(seat) - hand.seats.index(hand.dealer)) % len(hand.seats)]


class Facts:
    """One concrete reading of a winning hand, with its context, computed once for every pattern."""

    __slots__ = ("hand", "reading", "rules", "standard", "tiles", "sets", "pair", "triplets", "all_circles",
                 "all_pungs", "all_chows", "has_honor", "exposed", "concealed_fei", "seat_wind")

    def __init__(self, hand: Hand, reading: Reading, rules: Rules):
        self.hand = hand
        self.reading = reading
        self.rules = rules
        self.standard = reading.form == "standard"
        self.tiles = reading.counted_tiles()  # fei replaced by what they stand for
        self.sets = reading.sets
        pairs = reading.pairs
        self.pair = pairs[0] if pairs else None
        self.triplets = [g for g in self.sets if g.is_triplet]
        self.all_circles = self.standard and all(t[1] == "p" for t in self.tiles)
        self.all_pungs = self.standard and len(self.triplets) == 4
        self.all_chows = self.standard and all(g.kind == CHOW for g in self.sets)
        self.has_honor = any(T.is_honor(t) for t in self.tiles)
        self.exposed = hand.is_open
        self.concealed_fei = sum(1 for t in hand.concealed if t == T.FEI)
        self.seat_wind = seat_wind(hand, hand.winner)

    def triplet_keys(self, kinds) -> list[str]:
        return [g.key for g in self.triplets if g.key in kinds]

    @property
    def pair_key(self) -> str | None:
        return self.pair.key if self.pair else None


class Pattern:
    """A named pattern; ``fan`` returns what it adds to this hand (0: absent)."""

    name = ""

    def fan(self, f: Facts) -> int:
        raise NotImplementedError


class Limit(Pattern):
    """A 10-fan (爆) hand: ``holds`` is its condition."""

    def holds(self, f: Facts) -> bool:
        raise NotImplementedError

    def fan(self, f: Facts) -> int:
        return BAO_FAN if self.holds(f) else 0


# ---- 十番 (爆) ---------------------------------------------------------------------------------
class HeavenlyWin(Limit):
    name = "天胡 (heavenly win)"

    def holds(self, f):
        return f.hand.flags.heavenly


class EarthlyWin(Limit):
    name = "地胡 (earthly win)"

    def holds(self, f):
        return f.hand.flags.earthly


class BigFourWinds(Limit):
    name = "大四喜 (big four winds)"

    def holds(self, f):
        return len(f.triplet_keys(T.WINDS)) == 4


class LittleFourWinds(Limit):
    name = "小四喜 (little four winds)"

    def holds(self, f):
        return len(f.triplet_keys(T.WINDS)) == 3 and f.pair_key in T.WINDS


class BigThreeDragons(Limit):
    name = "大三元 (big three dragons)"

    def holds(self, f):
        return len(f.triplet_keys(T.DRAGONS)) == 3


class AllHonors(Limit):
    name = "全大炮 (字一色, all honors)"

    def holds(self, f):
        return f.standard and all(T.is_honor(t) for t in f.tiles)


class FourKongs(Limit):
    name = "十八羅漢 (四槓子, four kongs)"

    def holds(self, f):
        return sum(1 for g in f.sets if g.kind == KONG) == 4


class FourFei(Limit):
    name = "四飛 (four fei)"

    def holds(self, f):
        return f.concealed_fei >= 4


class ConcealedNoFlowers(Limit):
    """面前無花: no exposed meld (concealed kongs allowed) and nothing set aside, laid fei included."""

    name = "面前無花 (concealed, no flowers)"

    def holds(self, f):
        return not f.exposed and not f.hand.flowers


class FourConcealedPungs(Limit):
    """四暗刻, where the region plays it: a pung completed by a discard is not concealed."""

    name = "四暗刻 (four concealed pungs)"

    def holds(self, f):
        if not f.rules.four_concealed_pungs:
            return False
        r = f.reading
        concealed = [i for i, g in enumerate(r.groups) if g.is_triplet and g.concealed]
        if not f.hand.self_drawn and r.win_group in concealed and r.wait == SHANPON:
            concealed.remove(r.win_group)
        return len(concealed) == 4


# ---- 5, 4, 3 番 ---------------------------------------------------------------------------------
class AllCirclesAllPungs(Pattern):
    """全筒子對對碰 (5): all circles and all pungs; it replaces 全筒子 and 碰碰胡."""

    name = "全筒子對對碰 (all circles, all pungs)"

    def fan(self, f):
        return 5 if f.all_circles and f.all_pungs else 0


class AllCirclesAllChows(Pattern):
    """全筒子平糊 (4): all circles and all chows, exposed chows too ("鳴いても成立"); it replaces 全筒子."""

    name = "全筒子平糊 (all circles, all chows)"

    def fan(self, f):
        return 4 if f.all_circles and f.all_chows else 0


class AllCircles(Pattern):
    name = "全筒子 (all circles)"

    def fan(self, f):
        if f.all_circles and not f.all_pungs and not f.all_chows:
            return f.rules.all_circles_fan
        return 0


class AllPungs(Pattern):
    name = "碰碰胡 (all pungs)"

    def fan(self, f):
        return f.rules.all_pungs_fan if f.all_pungs and not f.all_circles else 0


class LittleThreeDragons(Pattern):
    name = "小三元 (little three dragons)"

    def fan(self, f):
        return 3 if len(f.triplet_keys(T.DRAGONS)) == 2 and f.pair_key in T.DRAGONS else 0


# ---- 1 番 -------------------------------------------------------------------------------------
def _outside(tile: str) -> bool:
    return T.is_honor(tile) or tile in TERMINAL_CIRCLES


def _yaojiu_shape(f: Facts, ok) -> bool:
    """Every tile (``all_tiles``) or every set and the pair (``every_group``) passes ``ok``."""
    if not f.standard:
        return False
    if f.rules.yaojiu_rule == "all_tiles":
        return all(ok(t) for t in f.tiles)
    return all(any(ok(t) for t in g.tiles) for g in f.reading.groups)


class Yaojiu(Pattern):
    """幺九: every set and the pair holds a terminal or an honor, honors among them (else it is 幺九筒)."""

    name = "幺九 (terminals and honors)"

    def fan(self, f):
        return 1 if f.has_honor and _yaojiu_shape(f, _outside) else 0


class YaojiuCircles(Pattern):
    """幺九筒: every set and the pair holds 1p or 9p, no honors."""

    name = "幺九筒 (terminal circles)"

    def fan(self, f):
        return 1 if not f.has_honor and _yaojiu_shape(f, lambda t: t in TERMINAL_CIRCLES) else 0


class RobbingKong(Pattern):
    name = "槍槓 (robbing a kong)"

    def fan(self, f):
        return 1 if f.hand.robbed_kong else 0


class KongReplacement(Pattern):
    name = "槓上 (win on a kong's replacement tile)"

    def fan(self, f):
        return 1 if f.hand.replacement and not f.hand.flags.flower_replacement else 0


class FlowerReplacement(Pattern):
    name = "花上 (win on a flower's replacement tile)"

    def fan(self, f):
        return 1 if f.hand.replacement and f.hand.flags.flower_replacement else 0


class ChickenWin(Pattern):
    """吃胡/鶏胡: "上がりに付く点数だが、全筒子や對對碰が有る場合には付かない"."""

    name = "吃胡/鶏胡 (winning)"

    def fan(self, f):
        return 0 if f.all_circles or f.all_pungs else 1


PATTERNS: tuple[Pattern, ...] = (
    HeavenlyWin(), EarthlyWin(), BigFourWinds(), LittleFourWinds(), BigThreeDragons(), AllHonors(),
    FourKongs(), FourFei(), ConcealedNoFlowers(), FourConcealedPungs(),
    AllCirclesAllPungs(), AllCirclesAllChows(), AllCircles(), AllPungs(), LittleThreeDragons(),
    Yaojiu(), YaojiuCircles(), RobbingKong(), KongReplacement(), FlowerReplacement(), ChickenWin(),
)


# ---- 字牌と花牌 (seat-dependent honors and flowers) -----------------------------------------------
def scoring_honors(wind: str) -> tuple[str, ...]:
    """Honors whose pung or kong is 1 fan for the seat ``wind``: own wind, North, the dragons."""
    return (wind, "4z") + T.DRAGONS


def scoring_flowers(wind: str, rules: Rules) -> frozenset[str]:
    """Flower tiles worth 1 fan for the seat ``wind`` (animals and faces always are)."""
    east, south, west = "1z", "2z", "3z"
    own = {east: ("1f", "5f"), south: ("2f", "6f"), west: ("3f", "7f")}
    every = ("4f", "8f")
    if rules.bamboo_chrysanthemum_swapped:  # 竹を西風のみ1番、菊を1番
        own[west] = ("3f", "8f")
        every = ("4f", "7f")
    return frozenset(own.get(wind, ()) + every + T.ANIMALS + T.FACES)


def tile_items(f: Facts) -> list[tuple[str, int]]:
    """Fan for honor pungs/kongs and for each flower, by the winner's seat."""
    wind = f.seat_wind
    items = []
    for key in f.triplet_keys(scoring_honors(wind)):
        items.append((f"字牌 {T.CHARACTERS[key]} ({T.NAMES[key]} pung)", 1))
    worth = scoring_flowers(wind, f.rules)
    for t in f.hand.flowers:
        if t == T.FEI:
            if f.rules.laid_fei_fan:
                items.append(("下飛 (fei laid aside as a flower)", f.rules.laid_fei_fan))
        elif t in worth:
            items.append((f"花牌 {T.CHARACTERS[t]} ({T.NAMES[t]})", 1))
    return items


def fan_items(f: Facts) -> list[tuple[str, int]]:
    """Every (name, fan) this reading earns, patterns first, then honors and flowers."""
    items = [(p.name, v) for p in PATTERNS if (v := p.fan(f))]
    return items + tile_items(f)
