"""Malaysian rule options and per-hand flags, with the document's defaults.

Every regional choice the document mentions is an :class:`~engine.variant.Option`
here; :class:`Rules` is the frozen, typed view of one request's options that the
scoring code reads.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from ...errors import EngineError
from ...hand import Settings
from ...variant import Option

BAO_FAN = 10  # "最大役数は10番までで、10番役数を爆と呼んでいる"

OPTIONS: tuple[Option, ...] = (
    Option("rate", 200, "points paid per fan by the discarder, or by each player on a self-draw",
           "番数×200を勝った人に支払う"),
    Option("other_rate", 100, "points per fan paid by the player who did not discard, on a discard win",
           "もう一人が番数×100"),
    Option("min_fan", 5, "fan needed to win", "上がるには5番以上の役が必要"),
    Option("bao_units", 20, "fan paid for a hand of 10 fan or more (爆)", "爆の場合は、20に取り決めた点数を掛けて算出する"),
    Option("four_concealed_pungs", False, "score 四暗刻 (four concealed pungs) as a 10-fan hand",
           "※地域により四暗刻も採用"),
    Option("all_pungs_fan", 3, "fan for 碰碰胡 (all pungs)", "※ 碰碰胡を2番とする地域もある", (3, 2)),
    Option("all_circles_fan", 3, "fan for 全筒子 (all circles): 3, or 1 where 清一色 is 1 fan",
           "※清一色を1番とする地域もある", (3, 1)),
    Option("bamboo_chrysanthemum_swapped", False,
           "竹 (8f) scores for the West seat only and 菊 (7f) for every seat, instead of the reverse",
           "※地域や遊ぶ人により、竹を西風のみ1番、菊を1番とする場合もある"),
    Option("yaojiu_rule", "every_group",
           "幺九/幺九筒: every_group = every set and the pair holds a terminal (1p 9p) or, for 幺九, an honor; "
           "all_tiles = every tile is one (with only eight 1p/9p, 幺九筒 then never happens)",
           "●幺九 ●幺九筒", ("every_group", "all_tiles")),
    Option("laid_fei_fan", 1, "fan for each fei laid aside as a flower (下飛)", "飛を晒して、花牌扱いとする", (0, 1)),
    Option("concealed_kong_each", 1000, "a concealed kong: points from each other player",
           "暗槓の場合は「2千点(各自から千点ずつ)」"),
    Option("exposed_kong", 1000, "an exposed kong: points from the player who discarded the tile",
           "明槓の場合は鳴かれた人から千点"),
    Option("added_kong_each", 500, "an added kong: points from each other player", "加槓の場合は「千点(他家から500点ずつ)」"),
)

FLAGS: tuple[Option, ...] = (
    Option("heavenly", False, "天胡: the dealer won on the dealt hand", "●天胡"),
    Option("earthly", False, "地胡: a non-dealer won on the first tile of the hand", "●地胡"),
    Option("flower_replacement", False,
           "with replacement: the replacement tile was drawn for a flower or a laid fei (花上), not a kong (槓上)",
           "●花上(補花した牌で上がる)"),
)


@dataclass(frozen=True)
class Rules:
    """The options of one request, typed. Defaults are the document's."""

    rate: int = 200
    other_rate: int = 100
    min_fan: int = 5
    bao_units: int = 20
    four_concealed_pungs: bool = False
    all_pungs_fan: int = 3
    all_circles_fan: int = 3
    bamboo_chrysanthemum_swapped: bool = False
    yaojiu_rule: str = "every_group"
    laid_fei_fan: int = 1
    concealed_kong_each: int = 1000
    exposed_kong: int = 1000
    added_kong_each: int = 500

    @classmethod
    def from_settings(cls, settings: Settings) -> "Rules":
        values = {f.name: settings[f.name] for f in fields(cls)}
        for name, value in values.items():
            if isinstance(value, int) and not isinstance(value, bool) and value < 0:
                raise EngineError("bad_value", f"options.{name} cannot be negative", f"options.{name}")
        if values["min_fan"] > BAO_FAN:
            raise EngineError("bad_value", f"options.min_fan is at most {BAO_FAN}: no hand scores more",
                              "options.min_fan")
        return cls(**values)

