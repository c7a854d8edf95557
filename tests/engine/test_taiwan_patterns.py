"""The 台 lines of section 2, one condition at a time, and the "not added" rules.

Dealer North, streak 0, winner South, discarder West unless a test says otherwise.
"""
from taiwan_hands import items, score, total

# A plain open hand with no 台 of its own: it waits on 1s/4s (two-sided) with a 9p pair.
PLAIN_MELDS = ("123m", "555p")


# ---- concealment and self-draw --------------------------------------------------------------
def test_concealed_kong_keeps_the_hand_concealed():
    r = score("456m789p234s67s55p8s", "8s", melds=({"tiles": "1111m", "concealed": True},))
    assert items(r) == {"門前": 1}


def test_concealed_self_draw_is_one_line_of_three():
    r = score("456m789p234s67s55p8s", "8s", melds=({"tiles": "1111m", "concealed": True},), self_drawn=True)
    assert items(r) == {"門前自摸": 3}


# ---- winds and dragons -------------------------------------------------------------------------
def test_round_and_seat_wind_pungs():
    """Round East, winner South: 東 is the round wind, 南 the seat wind, 西 nothing."""
    r = score("333z456m99p23s1s", "1s", melds=("111z", "222z"))
    assert items(r) == {"風牌 東": 1, "風牌 南": 1}


def test_double_wind_counts_two():
    """ダブ東: round East and seat East (the dealer is North: seats come from the dice)."""
    r = score("456m789p99p23s1s", "1s", melds=("111z", "555p"), winner="E", discarder="W")
    assert items(r) == {"風牌 東": 2}


def test_seat_wind_follows_the_winner_not_the_dealer():
    """Dealer East, winner West in the South round: 西 is the seat wind, 東 counts for nothing."""
    r = score("456m789p99p23s1s", "1s", melds=("333z", "111z"), winner="W", dealer="E", discarder="N",
              round_wind="S")
    assert items(r) == {"風牌 西": 1}


def test_dragon_pungs_one_each():
    assert items(score("456m789p99p23s1s", "1s", melds=("555z", "777z"))) == {"三元牌 白": 1, "三元牌 中": 1}


def test_little_three_dragons_does_not_add_its_dragon_pungs():
    r = score("456m789p77z23s1s", "1s", melds=("555z", "666z"))
    assert items(r) == {"小三元": 4}


def test_big_three_dragons_does_not_add_its_dragon_pungs():
    r = score("456m99p23s1s", "1s", melds=("555z", "666z", "777z"))
    assert items(r) == {"大三元": 8}


def test_little_four_winds_adds_the_wind_pungs_that_count():
    """小四喜 8; winner South in the East round: 東 (round) and 南 (seat) are added."""
    r = score("456m44z23s1s", "1s", melds=("111z", "222z", "333z"))
    assert items(r) == {"小四喜": 8, "風牌 東": 1, "風牌 南": 1}


def test_big_four_winds_does_not_add_wind_pungs():
    r = score("99p23s1s", "1s", melds=("111z", "222z", "333z", "444z"))
    assert items(r) == {"大四喜": 16}


# ---- the wait and the moment -------------------------------------------------------------------
def test_kanchan_single_wait():
    assert items(score("456m789p99p13s2s", "2s", melds=PLAIN_MELDS)) == {"獨聽": 1}


def test_two_sided_wait_is_not_single():
    assert items(score("456m789p99p23s4s", "4s", melds=PLAIN_MELDS)) == {}


def test_a_two_sided_wait_whose_other_tile_is_all_held_is_not_single():
    """「タンキ、カンチャン、ペンチャン待ちのいずれか」: 23s waits on 1s and 4s, and with a kong of 4s
    declared only 1s can come; the hand waits on one kind, but two-sided, so no 獨聽."""
    r = score("123m456m789p55p23s1s", "1s", melds=["4444s"])
    assert r["waited_on"] == ["1s"] and items(r) == {}
    assert items(score("123m456m789p55p23s1s", "1s", melds=["999s"])) == {}  # 4s still to come: two-sided too


def test_a_two_pair_wait_whose_other_pair_is_all_held_is_not_single():
    """Two pairs waiting (shanpon) on 5p or 7p, every 7p already in the hand: one kind left, no 獨聽."""
    r = score("123m123s55p77p678p789p5p", "5p")
    assert r["waited_on"] == ["5p"] and r["reading"]["wait"] == "shanpon" and "獨聽" not in items(r)


def test_last_tile_self_drawn():
    r = score("456m789p99p23s1s", "1s", melds=PLAIN_MELDS, self_drawn=True, last_tile=True)
    assert items(r) == {"自摸": 1, "海底撈月": 1}


def test_last_discard_scores_only_under_the_option():
    assert items(score("456m789p99p23s1s", "1s", melds=PLAIN_MELDS, last_tile=True)) == {}
    r = score("456m789p99p23s1s", "1s", melds=PLAIN_MELDS, last_tile=True, options={"he_di_lao_yu": True})
    assert items(r) == {"河底撈魚": 1}


def test_win_on_a_flower_replacement_is_gang_shang():
    """槓上開花 also on the replacement for a flower (花牌を抜いたときの補牌)."""
    r = score("456m789p99p23s1s", "1s", melds=PLAIN_MELDS, self_drawn=True, replacement=True, flowers="4f")
    assert items(r) == {"自摸": 1, "槓上開花": 1}


def test_robbing_a_kong():
    assert items(score("456m789p99p23s1s", "1s", melds=PLAIN_MELDS, robbed_kong=True)) == {"搶槓": 1}


# ---- flowers -----------------------------------------------------------------------------------
def test_seat_flowers_one_each():
    """South's flowers are 夏 and 蘭; 春 counts for nothing."""
    r = score("456m789p99p23s1s", "1s", melds=PLAIN_MELDS, flowers="126f")
    assert items(r) == {"花牌 夏": 1, "花牌 蘭": 1}


def test_full_set_of_flowers_with_the_seat_flower_is_two():
    """花槓: 四季 by West: 秋 1 + 花槓 1 = 2 (それと合わせて2台)."""
    r = score("456m789p99p23s1s", "1s", melds=PLAIN_MELDS, flowers="1234f", winner="W", discarder="S")
    assert items(r) == {"花牌 秋": 1, "花槓 四季": 1}


# ---- 平胡 and its six conditions ----------------------------------------------------------------
PINGHU = "123m456m789p678s23s55p4s"


def test_pinghu_open_hand_allowed():
    r = score("789p678s23s55p4s", "4s", melds=("123m", "456m"))
    assert items(r) == {"平胡": 2}


def test_pinghu_not_with_a_flower():
    assert items(score(PINGHU, "4s", flowers="3f")) == {"門前": 1}


def test_pinghu_not_on_a_self_draw():
    assert items(score(PINGHU, "4s", self_drawn=True)) == {"門前自摸": 3}


def test_pinghu_not_with_an_honor_pair():
    """Even a wind that counts for nobody (オタ風) spoils it: 北 pair, winner South."""
    assert items(score("123m456m789p678s23s44z4s", "4s")) == {"門前": 1}


def test_pinghu_not_on_a_closed_wait():
    assert items(score("123m456m789p678s24s55p3s", "3s")) == {"門前": 1, "獨聽": 1}


def test_pinghu_not_with_a_pung():
    assert items(score("123m456m777p678s23s55p4s", "4s")) == {"門前": 1}


# ---- whole-hand patterns -----------------------------------------------------------------------
def test_all_pungs():
    r = score("999s55p", "9s", melds=("111m", "444m", "777p", "222s"))
    assert items(r) == {"碰碰胡": 2}


def test_half_flush():
    r = score("456m789m99m23m1m", "1m", melds=("123m", "555z"))
    assert items(r) == {"三元牌 白": 1, "混一色": 4}


def test_full_flush_default_and_option():
    hand = dict(concealed="456m789m99m23m1m", win="1m", melds=("123m", "555m"))
    assert items(score(**hand)) == {"清一色": 8}
    assert items(score(**hand, options={"qing_yi_se": 12})) == {"清一色": 12}


def test_three_concealed_pungs():
    r = score("111m444p777s23s55p1s", "1s", melds=("789m",))
    assert items(r) == {"三暗刻": 2}


def test_four_concealed_pungs_default_and_option():
    hand = dict(concealed="111m444p777s999m23s55p1s", win="1s")
    assert items(score(**hand)) == {"門前": 1, "四暗刻": 5}
    assert items(score(**hand, options={"si_an_ke": 6}))["四暗刻"] == 6


def test_a_pung_completed_by_a_discard_is_not_concealed():
    """Shanpon won on a discard: the pung made with the discarded tile is not 暗刻."""
    r = score("111m444p777s234s99m55p5p", "5p")
    assert items(r) == {"門前": 1, "三暗刻": 2}
    r = score("111m444p777s234s99m55p5p", "5p", self_drawn=True)
    assert items(r) == {"門前自摸": 3, "四暗刻": 5}


def test_five_concealed_pungs_adds_neither_menqian_nor_all_pungs():
    hand = dict(concealed="111m444p777s999m22s55p2s", win="2s")
    r = score(**hand, self_drawn=True)
    assert items(r) == {"五暗刻": 8, "自摸": 1, "不求": 1}
    assert items(score(**hand, self_drawn=True, options={"wu_an_ke": 16}))["五暗刻"] == 16


def test_all_honors_is_not_also_half_flush_or_all_pungs():
    r = score("555z666z77z333z", "3z", melds=("111z", "222z"))
    assert items(r) == {"字一色": 8, "小三元": 4, "風牌 東": 1, "風牌 南": 1}


# ---- declarations and first-turn wins ---------------------------------------------------------
READY = "123m456m789p678s23s55p4s"  # concealed 平胡 shape, two-sided on 1s/4s


def test_heavenly_ready_on_a_discard_drops_menqian():
    r = score(READY, "4s", tian_ting=True)
    assert items(r) == {"天聽": 16, "平胡": 2}


def test_heavenly_ready_self_drawn_adds_zimo_and_bonus():
    r = score(READY, "4s", tian_ting=True, self_drawn=True)
    assert items(r) == {"天聽": 16, "自摸": 1, "不求": 1}


def test_earthly_ready_and_option():
    assert items(score(READY, "4s", di_ting=True)) == {"地聽": 8, "平胡": 2}
    assert items(score(READY, "4s", di_ting=True, options={"di_ting": 4}))["地聽"] == 4


def test_earthly_ready_first_go_around_replaces_earthly_ready():
    r = score(READY, "4s", di_ting=True, di_ting_yi_fa=True, self_drawn=True)
    assert items(r) == {"地聽一發": 12, "自摸": 1, "不求": 1}


def test_heavenly_win_by_the_dealer():
    """天胡: 門前自摸 is not added; 莊家 is."""
    r = score(READY, "4s", winner="N", dealer="N", self_drawn=True, first_turn=True)
    assert items(r) == {"天胡": 24, "莊家": 1}


def test_heavenly_win_judges_single_wait_on_the_last_tile_dealt():
    """天胡 drops only 門前自摸 (「門前自摸3台は必然のため加算されない」); the dealer's extra tile is its first
    draw (「第1ツモを先にとっている」), so 獨聽 is judged on it: kanchan 2索 here."""
    r = score("123m456m789p678s13s55p2s", "2s", winner="N", dealer="N", self_drawn=True, first_turn=True)
    assert items(r) == {"天胡": 24, "莊家": 1, "獨聽": 1}


def test_heavenly_win_with_a_concealed_kong_adds_gang_shang():
    r = score("456m789p234s67s55p8s", "8s", melds=({"tiles": "1111m", "concealed": True},), winner="N",
              dealer="N", self_drawn=True, replacement=True, first_turn=True)
    assert items(r) == {"天胡": 24, "莊家": 1, "槓上開花": 1}


def test_earthly_win_drops_heavenly_ready_and_concealed_self_draw():
    r = score(READY, "4s", tian_ting=True, self_drawn=True, first_turn=True)
    assert items(r) == {"地胡": 24}


def test_human_win_drops_heavenly_ready_and_menqian():
    r = score(READY, "4s", tian_ting=True, first_turn=True, options={"ren_hu": 16})
    assert items(r) == {"人胡": 16, "平胡": 2}


# ---- the special forms ------------------------------------------------------------------------
LIGULIGU = "555z11m44m77m22s55s88s9p9p"


def test_liguligu_self_drawn_adds_zimo_without_the_bonus():
    r = score(LIGULIGU, "9p", self_drawn=True)
    assert items(r) == {"嚦咕嚦咕": 8, "自摸": 1, "獨聽": 1, "三元牌 白": 1}


def test_liguligu_may_use_four_equal_tiles_as_two_pairs():
    r = score("555z1111m77m22s55s88s9p9p", "9p")
    assert r["form"] == "liguligu" and items(r)["嚦咕嚦咕"] == 8


def test_liguligu_not_played_under_the_option():
    r = score(LIGULIGU, "9p", options={"liguligu": False})
    assert not r["winning"]


def test_the_reason_names_only_the_forms_the_table_plays():
    """「嘸咕嘸咕は採用していない処もある」: where a form is not played the reason says the hand wins only
    as that form, and a plain non-win does not list forms the table does not play."""
    r = score(LIGULIGU, "9p", options={"liguligu": False})
    assert "嚦咕嚦咕" in r["reason"] and "options.liguligu" in r["reason"]
    r = score("17m258p369s12345677z4m", "4m", options={"sixteen_unrelated": False})
    assert "十六不搭" in r["reason"] and "options.sixteen_unrelated" in r["reason"]
    r = score("123m456m789p234s555z98s", "8s", options={"liguligu": False, "sixteen_unrelated": False})
    assert "嚦咕嚦咕" not in r["reason"] and "十六不搭" not in r["reason"]


def test_the_best_reading_is_chosen():
    """11 22 33 44 55 66 777 88 万 reads as five sets and a pair or as 嚦咕嚦咕: the latter scores more."""
    r = score("112233445566777m88m", "8m")
    assert r["form"] == "liguligu"
    assert items(r) == {"嚦咕嚦咕": 8, "清一色": 8}


def test_sixteen_unrelated_option_values():
    hand = dict(concealed="17m258p369s12345677z4m", win="4m", self_drawn=True)
    assert items(score(**hand, options={"sixteen_unrelated": True})) == {"十六不搭": 10, "獨聽": 1, "自摸": 1}
    assert items(score(**hand, options={"sixteen_unrelated": True, "shi_liu_bu_da": 6}))["十六不搭"] == 6
    assert not score(**hand)["winning"]  # not played by default


def test_sixteen_unrelated_needs_no_taatsu():
    """1万 and 3万 make a 塔子: not 十六不搭."""
    assert not score("13m258p369s12345677z7m", "7m")["winning"]


def test_chicken_hand_has_no_lines_and_wins():
    r = score("456m789p99p23s1s", "1s", melds=PLAIN_MELDS)
    assert r["winning"] and total(r) == 0 and r["score"]["items"] == []
