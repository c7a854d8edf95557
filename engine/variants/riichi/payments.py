"""Limits, points and who pays whom in EMA riichi.

* Below mangan the basic points are fu x 2^(2 + han); a ron costs 4x (6x from a
  dealer), rounded up to 100; on a self-draw the dealer pays 2x and the others 1x
  (the dealer's self-draw: 2x from each), each rounded up to 100.
* Mangan (5 han, or basic points over 2,000) 2,000; haneman (6-7) 3,000; baiman
  (8-10) 4,000; sanbaiman (11 and over, 数え役満 included: option kazoe) 6,000;
  yakuman 8,000. No kiriage (option kiriage). One yakuman however many the hand
  has (option double_yakuman).
* Honba: 300 per counter, from the discarder or 100 from each payer.
* Pao (包) for daisangen/daisuushii: the liable seat pays a self-draw in full;
  on a ron it pays half and the discarder the other half and the honba.
"""
from __future__ import annotations

from ...errors import EngineError

LIMITS = ((13, "kazoe", None), (11, "sanbaiman", 6000), (8, "baiman", 4000), (6, "haneman", 3000),
          (5, "mangan", 2000))
MANGAN = 2000
YAKUMAN = 8000


def round_up(points: int | float) -> int:
    return -(-int(points) // 100) * 100


def basic_points(han: int, fu: int, yakuman: int, options) -> tuple[int, str]:
    """(basic points, limit name or "") for a hand's han and fu, or its yakuman count."""
    if yakuman:
        return YAKUMAN * yakuman, "yakuman" if yakuman == 1 else f"{yakuman}x yakuman"
    if han >= 13:
        return (YAKUMAN, "kazoe yakuman") if options.kazoe == "yakuman" else (6000, "sanbaiman")
    for least, name, points in LIMITS[1:]:
        if han >= least:
            return points, name
    base = fu * 2 ** (2 + han)
    if options.kiriage and (han, fu) in ((4, 30), (3, 60)):
        return MANGAN, "mangan (kiriage)"
    if base > MANGAN:
        return MANGAN, "mangan"
    return base, ""


def win_payments(base: int, seats: tuple[str, ...], winner: str, dealer: str, discarder: str | None,
                 honba: int, honba_points: int, pao: str | None = None) -> dict[str, int]:
    """Signed payments for every seat (positive: receives) for one winner."""
    pay = {s: 0 for s in seats}
    others = [s for s in seats if s != winner]
    if discarder is not None:
        amount = round_up(base * (6 if winner == dealer else 4))
        if pao and pao != discarder:
            half = amount // 2
            pay[pao] -= half
            pay[discarder] -= amount - half + honba * honba_points
        else:
            pay[discarder] -= amount + honba * honba_points
    else:
        per_honba = honba_points // (len(seats) - 1)
        for s in others:
            share = round_up(base * 2) if (winner == dealer or s == dealer) else round_up(base)
            pay[pao or s] -= share + honba * per_honba
    pay[winner] = -sum(pay[s] for s in others)
    return pay


def noten_payments(seats: tuple[str, ...], tenpai: list[str], total: int) -> dict[str, int]:
    """不聴罰符: ``total`` points change hands in all, from the noten seats to the tenpai ones."""
    if not isinstance(total, int) or total < 0 or total % 6:
        # 1, 2 or 3 players share it on either side: only a multiple of 6 always splits evenly (zero-sum)
        raise EngineError("bad_value", "noten_total is a whole number of points, 0 or more, that splits evenly "
                          "among 1, 2 or 3 players (a multiple of 6, such as 3000)", "options.noten_total")
    pay = {s: 0 for s in seats}
    ready = [s for s in seats if s in tenpai]
    if 0 < len(ready) < len(seats):
        noten = [s for s in seats if s not in ready]
        for s in ready:
            pay[s] = total // len(ready)
        for s in noten:
            pay[s] = -total // len(noten)
    return pay


def chombo_payments(seats: tuple[str, ...], offender: str, dealer: str) -> dict[str, int]:
    """錯和 in an open game: a mangan payment, as if the others had won a mangan by self-draw."""
    pay = {s: 0 for s in seats}
    for s in seats:
        if s != offender:
            pay[s] = 4000 if (s == dealer or offender == dealer) else 2000
    pay[offender] = -sum(pay.values())
    return pay
