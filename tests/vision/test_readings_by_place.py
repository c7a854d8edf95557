"""vision.group: readings changed by where a tile lies (no flower inside a row; an exposed
meld is a set)."""
import numpy as np

from vision.group import MEND_MIN, group_tiles


def _tile(code, x, y, run, top3=None, conf=0.9):
    quad = np.float32([[x, y], [x + 30, y], [x + 30, y + 40], [x, y + 40]])
    return {"tile": code, "confidence": conf, "top3": top3 or [[code, conf]], "quad": quad, "run": run}


def _row(codes, y=100, run=0, x=100):
    return [_tile(c, x + 31 * i, y, run) for i, c in enumerate(codes)]


def test_a_flower_read_inside_a_row_is_read_as_its_likeliest_ordinary_kind():
    row = _row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"])
    row[5] = _tile("2f", 100 + 31 * 5, 100, 0, top3=[["2f", 0.4], ["6f", 0.3], ["6p", 0.2]], conf=0.4)
    ordered, hand = group_tiles(row)
    assert hand["concealed"] == "123m456p789s1122z" and hand["flowers"] == ""
    moved = [t for t in ordered if "moved_from" in t]
    assert [(t["moved_from"], t["tile"], t["moved_because"], t["confidence"]) for t in moved] == \
        [("2f", "6p", "in_row", 0.2)]


def test_flowers_read_side_by_side_inside_a_row_are_each_read_as_their_likeliest_ordinary_kind():
    # development scene 620 with camera bodies (Symbola): a 9m cut a third into the 8m beside it
    # read 7f (9m second), and the 2p beside it, washed out by glare, read 2f
    row = _row(["1m", "2m", "5m", "6m", "8m", "9m", "2p", "4p", "6p", "7p", "7p", "8p", "1s", "5s"])
    row[5] = _tile("7f", 100 + 31 * 5, 100, 0, conf=0.26)
    row[5]["likely"] = [["7f", 0.26], ["9m", 0.23], ["2f", 0.19], ["5m", 0.08]]
    row[6] = _tile("2f", 100 + 31 * 6, 100, 0, conf=0.8)
    row[6]["likely"] = [["2f", 0.8], ["6f", 0.13], ["2p", 0.01]]
    ordered, hand = group_tiles(row)
    assert hand["concealed"] == "125689m246778p15s" and hand["flowers"] == ""
    assert [(t["moved_from"], t["tile"], t["moved_because"]) for t in ordered if "moved_from" in t] == \
        [("7f", "9m", "in_row"), ("2f", "2p", "in_row")]


def test_flowers_side_by_side_at_a_rows_end_or_as_many_as_its_other_tiles_stay_flowers():
    row = _row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "3f", "4f"])
    for t in row[11:]:
        t["likely"] = [[t["tile"], 0.6], ["3s", 0.3]]   # touching the row's end: set aside there
    line = _row(["1m", "1f", "2f", "3m"], y=300, run=1)  # two and two: a line of flowers as much as a row
    for t in line[1:3]:
        t["likely"] = [[t["tile"], 0.6], ["2m", 0.3]]
    ordered, hand = group_tiles(row + line)
    assert hand["flowers"] == "1234f"
    assert not any("moved_from" in t for t in ordered)


def test_the_likeliest_ordinary_kind_may_lie_beyond_the_top3_shown():
    # development scene 310 (riichi_art): a 1s inside the row read 2f, 4f, 3f, then 1s at 0.044
    row = _row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"])
    row[5] = _tile("2f", 100 + 31 * 5, 100, 0, top3=[["2f", 0.45], ["4f", 0.13], ["3f", 0.1]], conf=0.45)
    _, hand = group_tiles([dict(t) for t in row])
    assert hand["flowers"] == "2f"  # with only the top3 nothing ordinary is at hand
    row[5]["likely"] = row[5]["top3"] + [["6p", 0.044], ["1f", 0.043], ["6f", 0.034]]
    ordered, hand = group_tiles(row)
    assert hand["concealed"] == "123m456p789s1122z" and hand["flowers"] == ""
    assert [(t["moved_from"], t["tile"]) for t in ordered if "moved_from" in t] == [("2f", "6p")]


def test_a_flower_at_the_end_of_a_row_or_with_no_ordinary_kind_in_its_top3_stays_a_flower():
    row = _row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z", "3f"])
    row[13]["top3"] = [["3f", 0.5], ["3s", 0.4]]   # touching the row's end: set aside there
    row[5] = _tile("2f", 100 + 31 * 5, 100, 0, top3=[["2f", 0.4], ["6f", 0.3], ["1a", 0.2]], conf=0.4)
    row[2] = _tile("back", 100 + 31 * 2, 100, 0, top3=[["back", 0.6], ["3m", 0.3]])  # not a flower either
    ordered, hand = group_tiles(row)
    assert hand["flowers"] == "23f"
    assert hand["concealed"] == "12m45p789s1122z"   # a face-down tile outside a kong is left out
    assert not any("moved_from" in t for t in ordered)


def test_a_cluster_apart_from_the_row_that_one_changed_tile_makes_a_set_is_that_meld():
    tiles = _row(["1m", "1m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z"])
    meld = _row(["2m", "4m", "5m"], y=200, run=1)
    meld[0]["top3"] = [["2m", 0.95], ["1m", 0.012], ["3m", 0.0084]]
    ordered, hand = group_tiles(tiles + meld)
    assert hand["melds"] == [{"tiles": "345m", "concealed": False}]
    assert hand["concealed"] == "11m456p789s112z"
    moved = [t for t in ordered if "moved_from" in t]
    assert [(t["moved_from"], t["tile"], t["moved_because"]) for t in moved] == [("2m", "3m", "meld")]


def test_a_tile_of_a_meld_read_as_a_flower_is_mended_before_it_is_set_aside():
    # development scene 208 (drawn style): a 123s chow whose 1s read 1f, with 1s fourth at 0.099
    tiles = _row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z"])
    meld = _row(["1f", "2s", "3s"], y=200, run=1)
    meld[0]["likely"] = [["1f", 0.42], ["5f", 0.2], ["1p", 0.11], ["1s", 0.099], ["2f", 0.05], ["1z", 0.01]]
    ordered, hand = group_tiles(tiles + meld)
    assert hand["melds"] == [{"tiles": "123s", "concealed": False}] and hand["flowers"] == ""
    assert [(t["moved_from"], t["tile"], t["moved_because"]) for t in ordered if "moved_from" in t] == \
        [("1f", "1s", "meld")]


def test_a_flower_beside_a_set_or_among_flowers_stays_a_flower():
    tiles = _row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z"])
    beside_a_pung = _row(["5z", "5z", "5z", "2f"], y=200, run=1)   # a flower laid against a meld
    beside_a_pung[3]["likely"] = [["2f", 0.5], ["5z", 0.3]]
    flowers = _row(["1f", "3f", "3s"], y=300, run=2)               # two flowers: no meld's tile
    flowers[0]["likely"] = [["1f", 0.5], ["3s", 0.1]]
    _, hand = group_tiles(tiles + beside_a_pung + flowers)
    assert hand["flowers"] == "123f"
    no_kind = _row(["1f", "2s", "3s"], y=200, run=1)                # no ordinary kind that makes a set
    no_kind[0]["likely"] = [["1f", 0.5], ["5p", 0.3], ["1s", MEND_MIN / 2]]
    _, hand = group_tiles(tiles + no_kind)
    assert hand["flowers"] == "1f" and hand["melds"] == []


def test_a_cluster_is_not_mended_by_an_unlikely_kind_or_past_a_sets_copies():
    tiles = _row(["3m", "3m", "3m", "3m", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z"])  # every 3m there is
    meld = _row(["2m", "4m", "5m"], y=200, run=1)
    meld[0]["top3"] = [["2m", 0.95], ["3m", 0.03]]
    meld[2]["top3"] = [["5m", 0.95], ["6m", MEND_MIN / 2]]   # 2-4-6 is no set; 4-5-6 would need two changes
    _, hand = group_tiles(tiles + meld)
    assert hand["melds"] == []
    assert hand["concealed"] == "2333345m56p789s112z"   # the three join the row, unchanged


def test_a_pung_misread_in_one_tile_is_mended_only_by_that_tiles_own_top3():
    tiles = _row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z"])
    pung = _row(["5z", "6z", "5z"], y=200, run=1)
    pung[1]["top3"] = [["6z", 0.7], ["5z", 0.2]]
    _, hand = group_tiles(tiles + pung)
    assert hand["melds"] == [{"tiles": "555z", "concealed": False}]
    pung = _row(["5z", "6z", "5z"], y=200, run=1)   # the same without 5z among the middle tile's choices
    pung[1]["top3"] = [["6z", 0.7], ["7z", 0.2]]
    _, hand = group_tiles(tiles + pung)
    assert hand["melds"] == [] and hand["concealed"] == "123m456p789s11556z"


def test_a_meld_is_mended_to_its_likeliest_set_even_where_that_changes_two_tiles():
    # real-photo scene 157 with camera bodies: a pung of 3m read 5m, 3m, 5m, the classifier torn
    # between the two; one change made 555m (the middle tile's 5m at 0.094), but 333m is likelier
    tiles = _row(["1m", "2m", "8m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z"])
    pung = _row(["5m", "3m", "5m"], y=200, run=1)
    for t, likely_kinds in zip(pung, [[["5m", 0.31], ["3m", 0.25], ["6m", 0.08]],
                                      [["3m", 0.19], ["8m", 0.14], ["6m", 0.14], ["5m", 0.094]],
                                      [["5m", 0.34], ["3m", 0.29], ["7m", 0.07]]]):
        t["likely"], t["confidence"] = likely_kinds, likely_kinds[0][1]
    ordered, hand = group_tiles(tiles + pung)
    assert hand["melds"] == [{"tiles": "333m", "concealed": False}]
    assert [(t["moved_from"], t["tile"]) for t in ordered if "moved_from" in t] == [("5m", "3m"), ("5m", "3m")]


def test_a_meld_is_mended_by_one_change_where_that_is_likelier():
    tiles = _row(["1m", "2m", "8m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z"])
    pung = _row(["5m", "3m", "5m"], y=200, run=1)
    for t, likely_kinds in zip(pung, [[["5m", 0.9], ["3m", 0.05]],
                                      [["3m", 0.6], ["5m", 0.3]],
                                      [["5m", 0.8], ["3m", 0.1]]]):
        t["likely"], t["confidence"] = likely_kinds, likely_kinds[0][1]
    ordered, hand = group_tiles(tiles + pung)
    assert hand["melds"] == [{"tiles": "555m", "concealed": False}]
    assert [(t["moved_from"], t["tile"]) for t in ordered if "moved_from" in t] == [("3m", "5m")]


def test_two_pairs_apart_from_the_row_are_no_meld_that_two_changes_would_make():
    # held-out camera scene 500037 (measured once): 4p 4p 6p 6p lying apart, each 6p with 4p
    # among its likely kinds, was made 4444p; no one change makes them a set
    tiles = _row(["1m", "2m", "3m", "4s", "5s", "6s", "7s", "8s", "9s", "1z"])
    pairs = _row(["4p", "4p", "6p", "6p"], y=200, run=1)
    for t in pairs[2:]:
        t["likely"] = [["6p", 0.9], ["4p", 0.05]]
    ordered, hand = group_tiles(tiles + pairs)
    assert hand["melds"] == [] and hand["concealed"] == "123m4466p456789s1z"
    assert not any("moved_from" in t for t in ordered)


def test_a_concealed_kong_between_its_backs_is_mended_in_one_face():
    tiles = _row(["1m", "2m", "3m", "4s", "5s", "6s", "7s", "8s", "9s", "1z"])
    kong = _row(["back", "6p", "8p", "back"], y=200, run=1)
    kong[2]["likely"] = [["8p", 0.6], ["6p", 0.3]]
    ordered, hand = group_tiles(tiles + kong)
    assert hand["melds"] == [{"tiles": "6666p", "concealed": True}]
    assert [(t["moved_from"], t["tile"]) for t in ordered if "moved_from" in t] == [("8p", "6p")]


def test_no_meld_is_made_by_changing_every_tile():
    tiles = _row(["1m", "2m", "8m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z"])
    odd = _row(["5m", "3m", "7m"], y=200, run=1)   # each could be a 9s, which no tile was read as
    for t in odd:
        t["likely"] = [[t["tile"], 0.5], ["9s", 0.4]]
    _, hand = group_tiles(tiles + odd)
    assert hand["melds"] == [] and hand["concealed"] == "123578m456p789s11z"  # the three join the row


def _hand_and_a_lone_tile(n_row, lone_top3, flowers=("5f",)):
    """A row of ``n_row`` tiles, a lone tile far from it, and the flowers set aside in a line."""
    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z", "3z", "3z", "3z"]
    row = _row(codes[:n_row])
    lone = _tile(lone_top3[0][0], 100, 300, run=1, top3=lone_top3, conf=lone_top3[0][1])
    aside = [_tile(c, 400 + 60 * i, 300, run=2 + i) for i, c in enumerate(flowers)]
    return row + [lone] + aside


def test_a_lone_tile_one_over_the_hand_is_set_aside_as_the_flower_in_its_top3():
    tiles = _hand_and_a_lone_tile(14, [["6z", 0.76], ["8f", 0.06], ["6f", 0.04]])
    ordered, hand = group_tiles(tiles)   # 15 tiles: no hand; without the 6z, 14
    assert hand["flowers"] == "58f" and "6z" not in hand["concealed"]
    assert [(t["moved_from"], t["tile"], t["moved_because"]) for t in ordered if "moved_from" in t] == \
        [("6z", "8f", "count")]


def test_the_count_sets_nothing_aside_when_the_hand_adds_up_or_no_flower_is_likely_enough():
    for n_row, top3, flowers in [
        (13, [["6z", 0.76], ["8f", 0.06]], ("5f",)),     # 14 tiles with the 6z: a hand (the tile drawn apart)
        (14, [["6z", 0.9], ["8f", 0.04]], ("5f",)),      # the flower scored under BONUS_MIN
        (14, [["6z", 0.76], ["8f", 0.06]], ("8f",)),     # the one 8f is already set aside
        (12, [["6z", 0.76], ["8f", 0.06]], ("5f",)),     # 13 with it, 12 without: it belongs
    ]:
        ordered, hand = group_tiles(_hand_and_a_lone_tile(n_row, top3, flowers))
        assert not any(t.get("moved_because") == "count" for t in ordered), (n_row, top3, flowers)
        assert "6z" in hand["concealed"]


def test_a_tile_touching_a_line_of_flowers_is_set_aside_as_the_flower_in_its_top3():
    row = _row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "5z"])
    aside = _row(["6z", "6f", "7f", "4f"], y=300, run=1)
    aside[0]["top3"] = [["6z", 0.84], ["8f", 0.07], ["2f", 0.01]]
    ordered, hand = group_tiles(row + aside)   # 14 tiles with the 6z: the count alone cannot tell
    assert hand["flowers"] == "4678f" and hand["concealed"] == "123m456p789s1155z"
    assert [(t["moved_from"], t["tile"], t["moved_because"]) for t in ordered if "moved_from" in t] == \
        [("6z", "8f", "among_flowers")]


def test_a_run_of_more_ordinary_tiles_than_flowers_or_an_unlikely_flower_keeps_its_readings():
    row = _row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "5z"])
    for codes, top3 in [
        (["6z", "6z", "6f"], [["6z", 0.84], ["8f", 0.07]]),   # one flower against two tiles
        (["6z", "6f", "7f"], [["6z", 0.96], ["8f", 0.04]]),   # the flower scored under BONUS_MIN
        (["6z", "6f", "8f"], [["6z", 0.84], ["8f", 0.07]]),   # the one 8f is already there
    ]:
        aside = _row(codes, y=300, run=1)
        aside[0]["top3"] = top3
        ordered, _ = group_tiles(row + aside)
        assert not any(t.get("moved_because") == "among_flowers" for t in ordered), codes
