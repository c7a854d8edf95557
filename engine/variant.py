"""The shared shape of a variant: tile set, forms, wilds, options, scoring hooks.

Each variant is a small rules module (``engine/variants/<name>.py``) that
subclasses :class:`Variant`, declares its tiles, forms, wild tiles, options and
flags as data, and implements :meth:`Variant.score`. The core does the rest:
validation, decomposition, waits and the JSON contract.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import tiles as T
from .errors import EngineError
from .forms import STANDARD, Form, HandView, meld_group
from .hand import Hand
from .reading import Reading


@dataclass(frozen=True)
class Option:
    """A rule option or a per-hand flag, with its documented default.

    ``source`` names the document passage the default comes from.
    """

    name: str
    default: Any
    doc: str
    source: str = ""
    choices: tuple | None = None

    @property
    def type_name(self) -> str:
        if isinstance(self.default, bool):
            return "bool"
        if isinstance(self.default, int):
            return "int"
        if isinstance(self.default, float):
            return "number"
        if isinstance(self.default, (list, tuple)):
            return "tiles" if self.name.endswith("indicators") else "list"
        return "str" if self.default is not None else "tile"

    def check(self, value: Any, field: str) -> Any:
        """Validate ``value`` against the default's type and the choices."""
        d = self.default
        ok: bool
        if isinstance(d, bool):
            ok = isinstance(value, bool)
        elif isinstance(d, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif isinstance(d, float):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            value = float(value) if ok else value
        elif isinstance(d, (list, tuple)):
            ok = isinstance(value, (list, tuple, str))
        else:
            ok = value is None or isinstance(value, str)
        if not ok:
            raise EngineError("bad_type", f"{field} must be of type {self.type_name}", field)
        if self.choices is not None and value not in self.choices:
            raise EngineError("bad_value", f"{field} must be one of {list(self.choices)}", field)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) > 10**9:
            raise EngineError("bad_value", f"{field} is out of range", field)
        return value

    def describe(self) -> dict:
        out = {"name": self.name, "type": self.type_name, "default": self.default, "doc": self.doc}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.source:
            out["source"] = self.source
        return out


def standard_tile_set(copies: int = 4, flowers: bool = False) -> dict[str, int]:
    kinds = {k: copies for k in T.STANDARD_KINDS}
    if flowers:
        kinds.update({f: 1 for f in T.FLOWERS})
    return kinds


class Variant:
    """Base class. Subclasses set the class attributes and implement :meth:`score`."""

    name: str = ""
    title: str = ""
    document: str = ""  # the seed document in ../shared/seeds
    seats: tuple[str, ...] = T.SEATS
    round_winds: tuple[str, ...] = T.SEATS  # the rounds a game is played over
    tile_set: dict[str, int] = standard_tile_set()
    sets_needed: int = 4  # sets in a standard winning hand: 4 (13-tile) or 5 (16-tile)
    set_aside: frozenset[str] = frozenset(T.FLOWERS)  # kinds that go into ``flowers``, never in hand
    may_set_aside: frozenset[str] = frozenset()  # kinds held in hand that may also be laid in ``flowers`` (下飛)
    uses_indicator: bool = False  # a joker/caishen indicator tile is part of the context
    wild_name: str = ""  # "joker", "caishen", "fei"
    wilds_in_melds: bool = False  # a wild tile may sit in a declared chow/pung
    forms: tuple[Form, ...] = (STANDARD,)
    options: tuple[Option, ...] = ()
    flags: tuple[Option, ...] = ()
    events: dict[str, str] = {}  # event name -> what it is; see :meth:`event`

    # ---- wild tiles -------------------------------------------------------------------------
    def wild_kind(self, hand: Hand) -> str | None:
        """The physical kind whose copies are wild in this hand (None: no wilds)."""
        return None

    def stand_ins(self, hand: Hand) -> dict[str, str]:
        """Tiles that count as another kind (not wild): Wenzhou's White for the indicator."""
        return {}

    # ---- validation hooks -------------------------------------------------------------------
    def validate(self, hand: Hand) -> None:
        """Variant-specific checks beyond the core's; raise EngineError."""

    def check_options(self, options) -> None:
        """Table rules (validated :class:`~engine.hand.Settings`) beyond their types: the values
        the variant's scoring, events and session hooks would refuse; raise EngineError.
        Recorded sessions check their options with it once, when they start."""

    # ---- decomposition ----------------------------------------------------------------------
    def view(self, hand: Hand, concealed: tuple[str, ...] | None = None,
             winning_tile: str | None = None) -> HandView:
        """The concealed tiles as naturals + wilds, after stand-ins."""
        tiles = hand.concealed if concealed is None else concealed
        wild = self.wild_kind(hand)
        subs = self.stand_ins(hand)
        counts = [0] * 34
        n_wild = 0
        for t in tiles:
            if t == wild:
                n_wild += 1
                continue
            t = subs.get(t, t)
            i = T.INDEX[t]
            if i < 34:
                counts[i] += 1
        # a stand-in may become the wild's own code (Wenzhou's White): only physical wilds are wild
        melds = tuple(meld_group(tuple(subs.get(t, t) if t != wild else t for t in m.tiles), m.kind,
                                 m.concealed, wild if wild in m.tiles else None) for m in hand.melds)
        win = hand.winning_tile if concealed is None else winning_tile
        win_is_natural = False
        if win is not None and win != wild:
            win = subs.get(win, win)
            win_is_natural = win == wild
        return HandView(counts, n_wild, wild, melds, self.sets_needed, win, tuple(tiles),
                        win_is_natural=win_is_natural)

    def readings(self, hand: Hand) -> list[Reading]:
        """Every reading of the hand under every form this variant accepts."""
        view = self.view(hand)
        out: list[Reading] = []
        for form in self.forms:
            out.extend(form.readings(view))
        return out

    def is_complete(self, view: HandView) -> bool:
        return any(form.complete(view) for form in self.forms)

    def shanten(self, view: HandView) -> int:
        values = [s for s in (form.shanten(view) for form in self.forms) if s is not None]
        return min(values) if values else 2 * self.sets_needed

    def drawable(self) -> tuple[str, ...]:
        """Kinds a player can hold in hand (candidates for waits)."""
        return tuple(k for k in self.tile_set if k not in self.set_aside)

    def instant_win(self, hand: Hand) -> bool:
        """A claimed hand that wins one tile short (3n+1), as at the deal (Malaysian four fei)."""
        return False

    def can_discard(self, hand: Hand, kind: str) -> bool:
        """Whether ``kind`` may be discarded from ``hand`` (Malaysian fei never may)."""
        return True

    # ---- scoring ----------------------------------------------------------------------------
    def score(self, hand: Hand, readings: list[Reading]) -> dict:
        """Score a hand with at least one reading.

        Returns a dict with ``winning`` (bool), ``reading`` (the chosen Reading),
        ``form``, ``score`` ({unit, total, items}), ``payments`` ({seat: int}),
        and optionally ``reason`` (when not winning), ``chips``, ``explain`` and
        any variant extras. The base class reports scoring as unsupported.
        """
        reading = readings[0]
        return {"winning": True, "reading": reading, "form": reading.form,
                "score": "unsupported", "payments": "unsupported",
                "explain": f"{reading.form} hand; scoring for {self.name} is not implemented yet"}

    def not_winning_reason(self, hand: Hand) -> str:
        return "the tiles do not form a winning hand under " + (self.title or self.name)

    def event(self, name: str, request: dict, options) -> dict:
        """Payments for an event outside a winning hand (kong bonus, false win...)."""
        raise EngineError("unknown_event", f"{self.name} has no event '{name}'", "event")

    def tile_counts_rule(self, hand: Hand) -> dict[str, int]:
        """Copies allowed per kind across hand, melds, flowers and indicator."""
        return self.tile_set

    # ---- carried state between hands (used by recorded sessions) ------------------------
    def initial_state(self) -> dict:
        """The state before the first hand of a session."""
        return {"dealer": self.seats[0], "dealer_streak": 0, "round_wind": "E", "hand_number": 1}

    def next_seat(self, seat: str) -> str:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def advance(self, state: dict, outcome: dict) -> dict:
        """The state for the next hand, after ``outcome``.

        ``outcome`` is ``{"type": "win", "request": <score request>, "result": <score output>}``
        or ``{"type": "draw"}`` (an exhaustive draw; riichi adds ``"tenpai": [seats]``).
        Default rule: the dealer keeps the deal (streak + 1) on a dealer win or a draw;
        otherwise the deal passes to the next seat with streak 0, and the round wind
        moves on when the deal has gone round the table. Variants override this.
        """
        new = dict(state)
        new["hand_number"] = state.get("hand_number", 1) + 1
        dealer = state["dealer"]
        if outcome.get("type") == "draw" or outcome.get("request", {}).get("winner") == dealer:
            new["dealer_streak"] = state.get("dealer_streak", 0) + 1
            return new
        new["dealer"] = self.next_seat(dealer)
        new["dealer_streak"] = 0
        if new["dealer"] == self.seats[0]:
            new["round_wind"] = self.next_seat(state.get("round_wind", "E")) if state.get("round_wind", "E") in self.seats else "E"
        return new

    def prefill(self, state: dict) -> dict:
        """Contract fields for the next hand, taken from the carried state."""
        return {k: state[k] for k in ("dealer", "dealer_streak", "round_wind") if k in state}

    # ---- description for the API ------------------------------------------------------------
    def describe(self) -> dict:
        return {
            "name": self.name,
            "title": self.title,
            "document": self.document,
            "seats": list(self.seats),
            "round_winds": list(self.round_winds),
            "hand_tiles": 3 * self.sets_needed + 1,
            "uses_indicator": self.uses_indicator,
            "wilds": self.wild_name,
            "tiles": {k: v for k, v in self.tile_set.items()},
            "forms": [f.name for f in self.forms],
            "options": [o.describe() for o in self.options],
            "flags": [o.describe() for o in self.flags],
            "events": dict(self.events),
        }
