"""Taiwanese 16-tile mahjong, scored in 台 and 底 (document: taiwan-16.ja.txt).

The variant declares its tiles (144, with eight flowers), forms (five sets and
a pair, 嚦咕嚦咕, 十六不搭), options and flags (``rules``); ``patterns`` holds
the 台 lines, ``payments`` the formula table and ``session`` the dealer
rotation between hands. Rule-by-rule mapping: docs/rules/taiwan.md.
"""
from __future__ import annotations

from ... import tiles as T
from ...errors import EngineError
from ...forms import HandView
from ...hand import Hand
from ...reading import Reading
from ...variant import Variant, standard_tile_set
from ...waits import waits
from . import session
from .forms import ALL_FORMS, enabled_forms
from .patterns import FLOWERS_ONLY, Context, Tai, hand_tai
from .payments import settle, streak_bonus
from .rules import FLAGS, OPTIONS


FORM_NAMES = {"standard": "five sets and a pair", "liguligu": "嚦咕嚦咕", "sixteen_unrelated": "十六不搭"}


def _error(field: str, message: str) -> EngineError:
    return EngineError("bad_context", message, field)


class Taiwan(Variant):
    name = "taiwan"
    title = "Taiwanese 16-tile"
    document = "taiwan-16.ja.txt"
    tile_set = standard_tile_set(flowers=True)
    sets_needed = 5
    set_aside = frozenset(T.FLOWERS)
    forms = ALL_FORMS
    options = OPTIONS
    flags = FLAGS

    # ---- forms, as the table plays them ----------------------------------------------------
    def view(self, hand: Hand, concealed=None, winning_tile=None) -> HandView:
        v = super().view(hand, concealed, winning_tile)
        v.extra["forms"] = enabled_forms(hand.options)
        return v

    def _forms(self, view: HandView) -> tuple:
        return view.extra.get("forms", self.forms)

    def is_complete(self, view: HandView) -> bool:
        return any(form.complete(view) for form in self._forms(view))

    def shanten(self, view: HandView) -> int:
        values = [s for s in (form.shanten(view) for form in self._forms(view)) if s is not None]
        return min(values) if values else 2 * self.sets_needed

    def readings(self, hand: Hand) -> list[Reading]:
        view = self.view(hand)
        out = [r for form in self._forms(view) for r in form.readings(view)]
        if not out and len(hand.flowers) == 8 and hand.self_drawn and (
                hand.replacement or hand.flags.dealt_flowers):
            # 八仙過海 / 七搶一: seventeen tiles after the eighth flower's replacement (配牌花胡: the first
            # draw) win without a winning shape; a later ordinary draw needs a shape
            out.append(Reading(FLOWERS_ONLY, (), tuple(hand.concealed), None, None, False, hand.winning_tile))
        return out

    def not_winning_reason(self, hand: Hand) -> str:
        if len(hand.flowers) == 8:
            return ("the tiles do not win by shape, and all eight flowers win without a shape only on the "
                    "replacement drawn for the eighth flower, or the first draw of 配牌花胡 (八仙過海 / 七搶一)")
        view = self.view(hand)
        played = self._forms(view)
        for form in ALL_FORMS:
            if form not in played and form.complete(view):
                return f"the tiles win only as {FORM_NAMES[form.name]}, which this table does not play " \
                       f"(options.{form.name} is false)"
        names = [FORM_NAMES[f.name] for f in played]
        return "the tiles are not " + (", ".join(names[:-1]) + " or " if len(names) > 1 else "") + names[-1]

    # ---- situations the document rules out ---------------------------------------------------
    def check_options(self, options) -> None:
        for name in ("base", "tai_value"):
            if options[name] < 0:
                raise EngineError("bad_value", f"options.{name} cannot be negative", f"options.{name}")

    def validate(self, hand: Hand) -> None:
        f, o = hand.flags, hand.options
        self.check_options(o)
        if hand.flowers and not o.flowers:
            raise EngineError("no_flowers", "flowers are not played under options.flowers = false", "flowers")
        if f.tian_ting and f.di_ting:
            raise _error("di_ting", "天聽 and 地聽 cannot both be declared")
        if f.di_ting_yi_fa and not f.di_ting:
            raise _error("di_ting_yi_fa", "地聽一發 needs the 地聽 declaration (set di_ting)")
        for name in ("tian_ting", "di_ting", "first_turn"):
            if f[name] and hand.is_open:
                raise _error(name, f"{name} needs a concealed hand (only concealed kongs)")
        if hand.winner is not None:
            if f.tian_ting and hand.winner == hand.dealer:
                raise _error("tian_ting", "the dealer cannot declare 天聽 (オヤは天聴を宣言することはできない)")
            if f.first_turn and hand.winner == hand.dealer and not hand.self_drawn:
                raise _error("first_turn", "the dealer's first-turn win (天胡) is on the dealt hand: self-drawn")
        if f.last_tile and hand.replacement:
            raise _error("last_tile", "a replacement tile is never the last tile of the wall")
        if f.triple_dice and not o.triple_dice_doubles:
            raise _error("triple_dice", "triple_dice needs options.triple_dice_doubles = true")
        if f.open_kong_replacement and not hand.replacement:
            raise _error("open_kong_replacement", "open_kong_replacement describes a replacement-tile win")
        if f.dealt_flowers and len(hand.flowers) != 8:
            raise _error("dealt_flowers", "配牌花胡 needs all eight flowers")
        if f.dealt_flowers and hand.claimed and (not hand.self_drawn or f.last_tile):
            raise _error("dealt_flowers", "配牌花胡 is won at the first draw, the hand at 17 tiles "
                         "(一枚めのツモをしたとき): self-drawn, and never on the last tile")
        if f.first_turn and (f.di_ting or f.di_ting_yi_fa):
            raise _error("di_ting", "地聽 is declared with the first discard (第1打牌と同時にテンパイを宣言): a "
                         "first-turn win (天胡, 地胡, 人胡) comes before it")
        self._validate_robbed_flower(hand)

    def _validate_robbed_flower(self, hand: Hand) -> None:
        f = hand.flags
        if f.robbed_flower_from is None:
            if f.robbed_flower is not None or f.robbed_while_extracting:
                raise _error("robbed_flower_from", "七搶一 needs robbed_flower_from: the seat robbed")
            return
        if not hand.options.seven_rob_one:
            raise _error("robbed_flower_from", "七搶一 is not played under options.seven_rob_one = false")
        if len(hand.flowers) != 8:
            raise _error("robbed_flower_from", "七搶一 needs all eight flowers in flowers, the robbed one included")
        if f.robbed_flower is None:
            raise _error("robbed_flower", "七搶一 needs robbed_flower: the flower taken")
        if hand.winner is not None:
            if f.robbed_flower_from == hand.winner:
                raise _error("robbed_flower_from", "the winner cannot rob a flower from themselves")
            if not hand.self_drawn:
                raise _error("self_drawn", "七搶一 completes the hand with a drawn replacement: set self_drawn")
        if not (hand.replacement or f.dealt_flowers):
            raise _error("replacement", "七搶一 is declared on the replacement for the robbed flower (配牌花胡: "
                                        "the first draw, dealt_flowers): set replacement")

    def refusal(self, hand: Hand) -> str | None:
        """Why the table does not allow this win (過水, 相公, 大明槓 replacement), or None."""
        f = hand.flags
        if f.dead_hand:
            return "相公: a dead hand cannot win (a flower kept in hand, or a forbidden act)"
        if f.passed_win:
            return "過水: a win was passed; the player must first discard a non-winning tile or add a kong"
        if f.open_kong_replacement:
            return "no self-drawn win on the replacements after a kong on a discard (大ミンカンの補牌)"
        return None

    # ---- scoring -----------------------------------------------------------------------------
    def score(self, hand: Hand, readings: list[Reading]) -> dict:
        reason = self.refusal(hand)
        if reason:
            return {"winning": False, "reason": reason, "reading": readings[0], "form": readings[0].form,
                    "score": {"unit": "tai", "total": 0, "items": []},
                    "payments": {s: 0 for s in hand.seats}, "explain": reason}
        rest = list(hand.concealed)
        rest.remove(hand.winning_tile)
        waited = tuple(waits(self, hand, tuple(rest)))
        results = [self._score_reading(hand, r, waited) for r in readings]
        best = max(results, key=lambda res: (res["payments"][hand.winner], res["score"]["total"]))
        best["waited_on"] = list(waited)
        return best

    def _payers(self, hand: Hand, shaped: bool) -> list[str]:
        f = hand.flags
        if f.robbed_flower_from and (f.robbed_while_extracting or not shaped):
            return [f.robbed_flower_from]
        if hand.self_drawn:
            return list(hand.others(hand.winner))
        return [hand.discarder]

    def _score_reading(self, hand: Hand, reading: Reading, waited: tuple[str, ...]) -> dict:
        f = hand.flags
        robbed = f.robbed_flower_from
        ctx = Context(hand, reading, hand.options, waited,
                      hand.self_drawn and not (robbed and f.robbed_while_extracting),
                      tuple(x for x in hand.flowers if x != f.robbed_flower))
        payers = self._payers(hand, ctx.shaped)
        lines: list[tuple[Tai, list[str] | None]] = []
        flower_lines = []
        for t in hand_tai(ctx):
            (flower_lines if t.key == "hua" else lines).append((t, None))
        if len(hand.flowers) == 8:
            flower_hand = self._flower_hand(hand, ctx.shaped)
            if robbed and ctx.shaped and not f.robbed_while_extracting:
                # 七搶一 ②: the robbed player pays 8 台; the others pay the tai of the winner's seven flowers
                lines.append((flower_hand, [robbed]))
                lines.extend((t, [p for p in payers if p != robbed]) for t, _ in flower_lines)
            else:
                lines.append((flower_hand, None))
        else:
            lines.extend(flower_lines)
        bonus = {p: streak_bonus(hand, p) for p in payers}
        involved = [p for p in payers if bonus[p] is not None]
        if involved:
            lines.append((bonus[involved[0]], involved))
        lines = _merge_payers(lines, payers)
        per_payer = {p: sum(t.value for t, who in lines if who is None or p in who) for p in payers}
        items = [dict(t.to_json(), **({"payers": who} if who is not None else {})) for t, who in lines]
        total = sum(t.value for t, who in lines if who is None)
        payments = settle(hand, per_payer)
        return {"winning": True, "reading": reading, "form": reading.form,
                "score": {"unit": "tai", "total": total, "items": items, "per_payer": per_payer,
                          "base": hand.options.base, "tai_value": hand.options.tai_value},
                "payments": payments, "explain": _explain(hand, lines, total, payments)}

    @staticmethod
    def _flower_hand(hand: Hand, shaped: bool) -> Tai:
        value = 12 if hand.flags.dealt_flowers else 8
        if hand.flags.dealt_flowers:
            return Tai("flower_hand", "配牌花胡 (eight flowers from the deal)", value)
        if hand.flags.robbed_flower_from:
            return Tai("flower_hand", "七搶一 (seven flowers rob the eighth)", value)
        if shaped:
            return Tai("flower_hand", "滿花 (all eight flowers)", value)
        return Tai("flower_hand", "八仙過海 (all eight flowers)", value)

    # ---- carried state between hands ----------------------------------------------------------
    def initial_state(self) -> dict:
        return session.initial_state(self)

    def advance(self, state: dict, outcome: dict) -> dict:
        return session.advance(self, state, outcome)

    def prefill(self, state: dict) -> dict:
        return session.prefill(state)


def _merge_payers(lines, payers: list[str]):
    """A line every payer pays needs no payer list."""
    return [(t, None if who is not None and set(who) >= set(payers) else who) for t, who in lines]


def _explain(hand: Hand, lines, total: int, payments: dict[str, int]) -> str:
    names = ", ".join(f"{t.name.split(' (')[0]} {t.value}" + (f" [{' '.join(who)}]" if who else "")
                      for t, who in lines)
    paid = ", ".join(f"{s} {-v}" for s, v in payments.items() if v < 0)
    head = f"{total} 台 ({names})" if lines else "屁胡: no 台, the 底 only"
    return f"{head}; {hand.winner} receives {payments[hand.winner]} from {paid}"


VARIANT = Taiwan()
