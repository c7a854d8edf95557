"""Who pays what: the formula table of section 4 (連荘と拉荘), with 底 and 台 rates.

Every payer pays ``台 × tai_value + 底``. The streak bonus (2n+1 台 at streak
n ≥ 1, 連n for the dealer, 拉n against the dealer) goes only on the payments
that involve the dealer: all three when the dealer wins, otherwise the dealer's
own payment. Option ``dealer_bonus="combined"`` reads the same formula from
n = 0 with 莊家's 1 台 inside it (the common 連n拉n table rule).
"""
from __future__ import annotations

from ...hand import Hand
from .patterns import Tai


def streak_bonus(hand: Hand, payer: str) -> Tai | None:
    """The (2n+1) 台 of 連莊 / 拉莊 on one payment, or None where it does not apply."""
    n = hand.dealer_streak
    combined = hand.options.dealer_bonus == "combined"
    if (n < 1 and not combined) or hand.dealer not in (hand.winner, payer):
        return None
    if n == 0:  # combined rule, fresh dealer: the 莊家 台 goes on every payment involving the dealer
        return Tai("zhuang_jia", "莊家 (dealer involved, 2n+1 at n=0)", 1)
    if hand.winner == hand.dealer:
        return Tai("lian_zhuang", f"連莊 連{n} (2n+1)", 2 * n + 1)
    return Tai("la_zhuang", f"拉莊 拉{n} (2n+1)", 2 * n + 1)


def multiplier(hand: Hand) -> int:
    """三ゾロ: three equal dice double 台 and 底, where the table plays that option."""
    return 2 if hand.options.triple_dice_doubles and hand.flags.triple_dice else 1


def settle(hand: Hand, payer_tai: dict[str, int]) -> dict[str, int]:
    """Signed payments for every seat, summing to zero."""
    base, rate, times = hand.options.base, hand.options.tai_value, multiplier(hand)
    out = {seat: 0 for seat in hand.seats}
    for payer, tai in payer_tai.items():
        amount = (tai * rate + base) * times
        out[payer] -= amount
        out[hand.winner] += amount
    return out
