"""Groups and readings: one way of seeing a hand as a winning form.

A *reading* is what decomposition returns: the form's name, its groups (sets and
pairs, including the declared melds), any loose tiles the form allows, where
the winning tile sits, and what every wild tile stands for. Scoring picks the
reading that scores best, so decomposition returns all of them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from . import tiles as T

# Group kinds. "wild_set"/"wild_pair" are made of wild tiles only and stand for
# any set or pair; the variant decides what that is worth.
CHOW, PUNG, KONG, PAIR = "chow", "pung", "kong", "pair"
WILD_SET, WILD_PAIR = "wild_set", "wild_pair"
SET_KINDS = (CHOW, PUNG, KONG, WILD_SET)

# Wait shapes (where the winning tile sits in its group).
RYANMEN, KANCHAN, PENCHAN, SHANPON, TANKI = "ryanmen", "kanchan", "penchan", "shanpon", "tanki"


class Group(NamedTuple):
    """One set or pair of a reading. A named tuple: readings make many of them."""

    kind: str
    tiles: tuple[str, ...]  # what each position counts as ("?" in wild-only groups)
    real: tuple[str, ...]  # the physical tile in each position
    wild: tuple[bool, ...]  # which positions are held by a wild tile
    concealed: bool = True
    declared: bool = False  # a meld from the input's ``melds``

    @property
    def is_set(self) -> bool:
        return self.kind in SET_KINDS

    @property
    def key(self) -> str:
        """The kind of tile a pung/kong/pair is made of, or the lowest tile of a chow."""
        return self.tiles[0]

    @property
    def n_wild(self) -> int:
        return sum(self.wild)

    @property
    def is_triplet(self) -> bool:
        """Pung or kong (a wild-only set counts as a pung of its own)."""
        return self.kind in (PUNG, KONG, WILD_SET)

    def to_json(self) -> dict:
        out = {"kind": self.kind, "tiles": "".join(self.tiles) if "?" in self.tiles else T.format_tiles(self.tiles),
               "concealed": self.concealed}
        if any(self.wild):
            out["wilds"] = [{"tile": r, "as": t} for r, t, w in zip(self.real, self.tiles, self.wild) if w]
        if self.declared:
            out["declared"] = True
        return out


@dataclass(frozen=True)
class Reading:
    form: str
    groups: tuple[Group, ...]
    loose: tuple[str, ...] = ()  # tiles outside any group (forms such as 8 pairs + any tile)
    win_group: int | None = None  # index into groups of the group holding the winning tile
    wait: str | None = None  # ryanmen/kanchan/penchan/shanpon/tanki, None for loose-tile forms
    win_wild: bool = False  # the winning tile is a wild tile
    win_as: str | None = None  # what the winning tile counts as
    notes: tuple[str, ...] = field(default=())

    @property
    def sets(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.is_set)

    @property
    def pairs(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind in (PAIR, WILD_PAIR))

    @property
    def wild_uses(self) -> list[dict]:
        """What every wild tile in the concealed groups and loose tiles stands for."""
        uses = [{"tile": r, "as": t} for g in self.groups for r, t, w in zip(g.real, g.tiles, g.wild) if w]
        return uses

    @property
    def n_wild(self) -> int:
        return sum(g.n_wild for g in self.groups)

    @property
    def lone_wild_wait(self) -> bool:
        """The win paired a wild tile held alone: the hand waited on any tile.

        Philippine "single joker", Wenzhou 財神の単騎待ち. Pairs hold a wild in position 1.
        """
        if self.win_group is None or self.wait != TANKI:
            return False
        g = self.groups[self.win_group]
        if g.kind not in (PAIR, WILD_PAIR):
            return False
        win_pos = 1 if (self.win_wild and g.kind == PAIR) else 0
        return g.wild[1 - win_pos]

    def counted_tiles(self) -> list[str]:
        """Every tile as it counts (wilds replaced by what they stand for), loose tiles included."""
        return [t for g in self.groups for t in g.tiles] + list(self.loose)

    def to_json(self) -> dict:
        out = {"form": self.form, "groups": [g.to_json() for g in self.groups]}
        if self.loose:
            out["loose"] = T.format_tiles(self.loose)
        if self.wait:
            out["wait"] = self.wait
        return out
