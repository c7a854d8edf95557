"""Validation of a contract request into a :class:`~engine.hand.Hand`.

Every problem is an :class:`~engine.errors.EngineError` naming the field.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from . import tiles as T
from .errors import EngineError
from .hand import Hand, Meld, Settings
from .variant import Variant

CORE_FIELDS = {
    "variant": "philippine | malaysian | wenzhou | riichi | taiwan",
    "concealed": "the concealed tiles, the winning tile included (mpsz string)",
    "melds": "declared melds: [{\"tiles\": \"123m\", \"concealed\": false}]; concealed only for a concealed kong",
    "flowers": "tiles set aside (flowers; for philippine the honors too)",
    "winning_tile": "the tile the hand won on; absent: the hand is not claimed, waits are reported",
    "self_drawn": "the winning tile was drawn by the winner (default false)",
    "robbed_kong": "won by robbing another player's added kong (default false)",
    "replacement": "won on the replacement tile after a kong or a flower (default false)",
    "winner": "the winner's seat: E, S, W or N",
    "discarder": "the seat that discarded the winning tile (needed unless self_drawn)",
    "dealer": "the dealer's seat (default E)",
    "dealer_streak": "the dealer's streak: 連莊 count, or the riichi honba (default 0)",
    "round_wind": "the round wind: E, S, W or N (default E)",
    "indicator": "the joker / caishen indicator tile, where the variant has one",
    "options": "rule options: rates and regional choices (see describe_variants)",
}


def _seat(request: dict, name: str, variant: Variant, default: str | None = None) -> str | None:
    value = request.get(name, default)
    if value is None:
        return None
    if not isinstance(value, str) or value not in variant.seats:
        raise EngineError("bad_seat", f"{name} must be one of {', '.join(variant.seats)} for {variant.name}", name)
    return value


def _bool(request: dict, name: str) -> bool:
    value = request.get(name, False)
    if not isinstance(value, bool):
        raise EngineError("bad_type", f"{name} must be true or false", name)
    return value


_DEFAULTS: dict[tuple, Settings] = {}


def read_settings(values: Any, declared, field: str, top_level: bool = False) -> Settings:
    """Validate options (``field="options"``: an object of them) or flags (``top_level``:
    given as the request's own fields) against their declared :class:`Option` list."""
    if not values and isinstance(values, (dict, type(None))):  # nothing given: the shared defaults
        key = (field, declared)
        if key not in _DEFAULTS:
            _DEFAULTS[key] = Settings({o.name: o.default for o in declared})
        return _DEFAULTS[key]
    if not isinstance(values, dict):
        raise EngineError("bad_type", f"{field} must be an object", field)
    known = {o.name: o for o in declared}
    path = (lambda name: name) if top_level else (lambda name: f"{field}.{name}")
    out = {}
    for key, value in values.items():
        if key not in known:
            names = ", ".join(sorted(known)) or "none"
            raise EngineError("unknown_option", f"unknown {field[:-1] if field.endswith('s') else field} "
                              f"'{str(key)[:40]}' (known: {names})", path(str(key)[:40]))
    for name, opt in known.items():
        out[name] = opt.check(values[name], path(name)) if name in values else opt.default
    return Settings(out)


def classify_meld(tiles: list[str], wild: str | None, index: int) -> str:
    """chow, pung or kong; wild tiles fill in. Raises on anything else."""
    field = f"melds[{index}].tiles"
    naturals = [t for t in tiles if t != wild]
    n = len(tiles)
    if n not in (3, 4):
        raise EngineError("bad_meld", f"a meld has 3 or 4 tiles, not {n}", field)
    if any(T.is_bonus(t) for t in tiles):
        raise EngineError("bad_meld", "flowers are never part of a meld", field)
    if not naturals:
        raise EngineError("bad_meld", "a meld of wild tiles only is not a meld", field)
    if len(set(naturals)) == 1:
        return "kong" if n == 4 else "pung"
    if n == 3 and all(T.is_number_tile(t) for t in naturals) and len({t[1] for t in naturals}) == 1:
        nums = sorted(T.number(t) for t in naturals)
        if len(set(nums)) == len(nums) and nums[-1] - nums[0] <= 2:
            return "chow"
    raise EngineError("bad_meld", f"{T.format_tiles(tiles)} is not a chow, pung or kong", field)


_ALLOWED: dict[str, frozenset] = {}


def _allowed_fields(variant: Variant) -> frozenset:
    if variant.name not in _ALLOWED:
        _ALLOWED[variant.name] = frozenset(CORE_FIELDS) | {f.name for f in variant.flags}
    return _ALLOWED[variant.name]


def parse_request(request: Any, variant: Variant) -> Hand:
    if not isinstance(request, dict):
        raise EngineError("bad_request", "the request must be a JSON object", None)
    allowed = _allowed_fields(variant)
    for key in request:
        if key not in allowed:
            raise EngineError("unknown_field", f"unknown field '{str(key)[:40]}' for {variant.name}", str(key)[:40])

    if "concealed" not in request:
        raise EngineError("missing_field", "concealed is required", "concealed")
    concealed = T.parse(request["concealed"], "concealed")
    flowers = T.parse(request.get("flowers", "") or "", "flowers")
    indicator = None
    if request.get("indicator") not in (None, ""):
        ind = T.parse(request["indicator"], "indicator")
        if len(ind) != 1:
            raise EngineError("bad_indicator", "indicator must be exactly one tile", "indicator")
        indicator = ind[0]
        if not variant.uses_indicator:
            raise EngineError("bad_indicator", f"{variant.name} has no indicator tile", "indicator")
        if indicator not in variant.tile_set or indicator in variant.set_aside:
            raise EngineError("bad_indicator", f"{indicator} cannot be the indicator in {variant.name}", "indicator")
    wild = None  # decided after the Hand exists; melds are checked below

    raw_melds = request.get("melds", []) or []
    if not isinstance(raw_melds, list):
        raise EngineError("bad_type", "melds must be a list", "melds")
    if len(raw_melds) > 8:
        raise EngineError("bad_meld", "too many melds", "melds")
    melds_raw = []
    for i, m in enumerate(raw_melds):
        if not isinstance(m, dict) or "tiles" not in m:
            raise EngineError("bad_meld", "each meld is an object with 'tiles'", f"melds[{i}]")
        extra = set(m) - {"tiles", "concealed"}
        if extra:
            raise EngineError("unknown_field", f"unknown meld field '{sorted(extra)[0][:40]}'", f"melds[{i}]")
        conc = m.get("concealed", False)
        if not isinstance(conc, bool):
            raise EngineError("bad_type", "concealed must be true or false", f"melds[{i}].concealed")
        melds_raw.append((T.parse(m["tiles"], f"melds[{i}].tiles"), conc))

    # tile set membership
    for field, tiles in [("concealed", concealed), ("flowers", flowers)] + [
            (f"melds[{i}].tiles", m[0]) for i, m in enumerate(melds_raw)]:
        for t in tiles:
            if t not in variant.tile_set:
                raise EngineError("tile_not_in_set", f"{variant.name} has no {t} ({T.NAMES[t]})", field)
    for t in concealed:
        if t in variant.set_aside:
            raise EngineError("set_aside_in_hand", f"{t} ({T.NAMES[t]}) is set aside in {variant.name}: "
                              "put it in flowers", "concealed")
    for t in flowers:
        if t not in variant.set_aside and t not in variant.may_set_aside:
            raise EngineError("not_a_flower", f"{t} ({T.NAMES[t]}) is not set aside in {variant.name}", "flowers")

    winning_tile = request.get("winning_tile")
    if winning_tile in ("", None):
        winning_tile = None
    else:
        wt = T.parse(winning_tile, "winning_tile")
        if len(wt) != 1:
            raise EngineError("bad_winning_tile", "winning_tile must be exactly one tile", "winning_tile")
        winning_tile = wt[0]
        if winning_tile not in concealed:
            raise EngineError("winning_tile_not_in_hand", f"the winning tile {winning_tile} is not among "
                              "the concealed tiles", "winning_tile")

    self_drawn = _bool(request, "self_drawn")
    robbed_kong = _bool(request, "robbed_kong")
    replacement = _bool(request, "replacement")
    if robbed_kong and self_drawn:
        raise EngineError("bad_context", "a robbed kong is not a self-draw", "robbed_kong")
    if replacement and not self_drawn:
        raise EngineError("bad_context", "a replacement-tile win is a self-draw: set self_drawn", "replacement")
    winner = _seat(request, "winner", variant)
    discarder = _seat(request, "discarder", variant)
    dealer = _seat(request, "dealer", variant) or "E"  # null means the default, as when absent
    round_wind = request.get("round_wind", "E")
    if round_wind not in T.SEATS:
        raise EngineError("bad_seat", "round_wind must be one of E, S, W, N", "round_wind")
    streak = request.get("dealer_streak", 0)
    if not isinstance(streak, int) or isinstance(streak, bool) or not 0 <= streak <= 1000:
        raise EngineError("bad_value", "dealer_streak must be a whole number from 0 to 1000", "dealer_streak")

    if winning_tile is not None:
        if winner is None:
            raise EngineError("missing_field", "winner is required when winning_tile is given", "winner")
        if not self_drawn and discarder is None:
            raise EngineError("missing_discarder", "discarder is required unless the win is self-drawn",
                              "discarder")
        if discarder is not None and self_drawn:
            raise EngineError("bad_context", "a self-drawn win has no discarder", "discarder")
        if discarder is not None and discarder == winner:
            raise EngineError("bad_context", "the winner cannot be the discarder", "discarder")

    options = read_settings(request.get("options"), variant.options, "options")
    flags = read_settings({f.name: request[f.name] for f in variant.flags if f.name in request}, variant.flags,
                          "flags", top_level=True)

    hand = Hand(variant=variant.name, concealed=tuple(sorted(concealed, key=T.sort_key)), melds=(),
                flowers=tuple(sorted(flowers, key=T.sort_key)), winning_tile=winning_tile,
                self_drawn=self_drawn, robbed_kong=robbed_kong, replacement=replacement, winner=winner,
                discarder=discarder, dealer=dealer, dealer_streak=streak, round_wind=round_wind,
                indicator=indicator, flags=flags, options=options, seats=variant.seats)
    wild = variant.wild_kind(hand)
    melds = []
    for i, (tiles, conc) in enumerate(melds_raw):
        if wild is not None and wild in tiles and not variant.wilds_in_melds:
            raise EngineError("wild_in_meld", f"a {variant.wild_name or 'wild tile'} ({wild}) cannot be used "
                              f"in a declared meld in {variant.name}", f"melds[{i}].tiles")
        subs = variant.stand_ins(hand)
        # only physical wilds are wild: a stand-in may take the wild's code (Wenzhou's White)
        kind = classify_meld([subs.get(t, t) for t in tiles], wild if wild in tiles else None, i)
        if conc and kind != "kong":
            raise EngineError("bad_meld", "only a kong can be declared concealed", f"melds[{i}].concealed")
        if kind == "kong" and wild is not None and wild in tiles:
            raise EngineError("wild_in_kong", f"a {variant.wild_name or 'wild tile'} cannot be part of a kong "
                              f"in {variant.name}", f"melds[{i}].tiles")
        melds.append(Meld(kind, tuple(sorted(tiles, key=T.sort_key)), conc))
    # the Hand was built a few lines up and nobody else holds it yet: set its melds in place
    object.__setattr__(hand, "melds", tuple(melds))
    if replacement and not any(m.kind == "kong" for m in melds) and not flowers:
        # a replacement tile is drawn for a kong, or for a flower set aside
        flowered = bool(variant.set_aside or variant.may_set_aside)
        raise EngineError("bad_context", "a replacement-tile win follows the winner's own kong"
                          + (" or a flower set aside: give the kong among the melds, or the flowers in flowers"
                             if flowered else f": give that kong among the melds ({variant.name} has no flowers)"),
                          "replacement")

    # copies
    allowed = variant.tile_counts_rule(hand)
    seen = Counter(hand.all_tiles())
    if indicator is not None:
        seen[indicator] += 1
    for t, n in seen.items():
        if n > allowed.get(t, 0):
            where = " (the indicator counts as one)" if t == indicator else ""
            field = "flowers" if t in hand.flowers else "concealed" if t in hand.concealed else "melds"
            raise EngineError("too_many_copies", f"{n} copies of {t} ({T.NAMES[t]}); {variant.name} has "
                              f"{allowed.get(t, 0)}{where}", field)

    if robbed_kong and winning_tile is not None and seen[winning_tile] + 3 > allowed.get(winning_tile, 0):
        # the kong robbed holds the other three copies of the tile won on
        raise EngineError("too_many_copies", f"{seen[winning_tile]} copies of {winning_tile} "
                          f"({T.NAMES[winning_tile]}) held, and the robbed kong holds three more; "
                          f"{variant.name} has {allowed.get(winning_tile, 0)}: a tile robbed from a kong is "
                          "the only copy its winner holds", "winning_tile")

    # tile count
    n_sets = variant.sets_needed
    size = len(concealed) + 3 * len(melds)
    if len(melds) > n_sets:
        raise EngineError("wrong_tile_count", f"{len(melds)} melds; a {variant.name} hand has at most {n_sets}",
                          "melds")
    if winning_tile is not None and size != 3 * n_sets + 2 and not (size == 3 * n_sets + 1
                                                                     and variant.instant_win(hand)):
        raise EngineError("wrong_tile_count", f"a winning {variant.name} hand has {3 * n_sets + 2} tiles "
                          f"(kongs count as 3), this one has {size}", "concealed")
    if winning_tile is None and size not in (3 * n_sets + 1, 3 * n_sets + 2):
        raise EngineError("wrong_tile_count", f"a {variant.name} hand has {3 * n_sets + 1} tiles waiting or "
                          f"{3 * n_sets + 2} complete (kongs count as 3), this one has {size}", "concealed")
    variant.validate(hand)
    return hand
