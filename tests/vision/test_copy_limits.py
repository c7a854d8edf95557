"""A photo holds one set's tiles: surplus copies move to their next likeliest kind."""
from __future__ import annotations

from vision.copy_limits import COPIES, limit_copies


def tile(code, conf, *alts):
    return {"tile": code, "confidence": conf, "top3": [[code, conf], *[list(a) for a in alts]]}


def test_a_second_flower_moves_the_less_sure_reading_to_its_next_kind():
    tiles = [tile("4f", 0.9, ("8f", 0.05)), tile("4f", 0.5, ("8f", 0.4), ("7f", 0.05)), tile("1s", 0.99)]
    limit_copies(tiles)
    assert [t["tile"] for t in tiles] == ["4f", "8f", "1s"]
    assert tiles[1]["confidence"] == 0.4 and tiles[1]["moved_from"] == "4f" and tiles[1]["moved_because"] == "copies"
    assert "moved_from" not in tiles[0]


def test_the_cheapest_move_wins_and_a_taken_kind_is_skipped():
    # five 3p: the one whose second choice is nearly as likely moves, to a kind not yet full
    tiles = [tile("3p", 0.95, ("5p", 0.03)) for _ in range(3)]
    tiles += [tile("3p", 0.6, ("2p", 0.35)), tile("3p", 0.7, ("5p", 0.1))]
    tiles += [tile("2p", 0.9) for _ in range(4)]  # 2p is already full, so the 0.6 tile cannot move there
    limit_copies(tiles)
    codes = [t["tile"] for t in tiles]
    assert codes.count("3p") == 4 and codes.count("2p") == 4 and codes.count("5p") == 1
    assert tiles[4]["tile"] == "5p" and tiles[3]["tile"] == "3p"


def test_readings_within_the_set_are_left_alone_and_backs_are_unlimited():
    tiles = [tile("back", 0.9) for _ in range(8)] + [tile("1j", 0.8) for _ in range(4)]
    tiles += [tile("5m", 0.7, ("5p", 0.2)) for _ in range(4)]
    before = [dict(t) for t in tiles]
    assert limit_copies(tiles) == before


def test_a_surplus_with_nowhere_to_go_keeps_its_reading():
    tiles = [tile("1f", 0.9), tile("1f", 0.8)]  # no other kind in top3
    limit_copies(tiles)
    assert [t["tile"] for t in tiles] == ["1f", "1f"]


def test_the_physical_set():
    assert COPIES["1m"] == COPIES["7z"] == COPIES["1j"] == 4
    assert COPIES["8f"] == COPIES["4a"] == COPIES["1h"] == 1
    assert "back" not in COPIES and "reject" not in COPIES


def test_a_surplus_moves_to_a_kind_beyond_its_top3_when_the_reading_lists_more():
    # a fifth 3p whose top3 holds only kinds already full moves to its fourth likeliest kind
    full = [tile("3p", 0.99) for _ in range(4)] + [tile("2p", 0.99) for _ in range(4)] + \
        [tile("4p", 0.99) for _ in range(4)]
    fifth = tile("3p", 0.6, ("2p", 0.2), ("4p", 0.1))
    limit_copies(full + [fifth])
    assert fifth["tile"] == "3p"  # nowhere to go in its top3
    fifth = tile("3p", 0.6, ("2p", 0.2), ("4p", 0.1))
    fifth["likely"] = fifth["top3"] + [["5p", 0.05], ["3s", 0.02]]
    limit_copies(full + [fifth])
    assert (fifth["tile"], fifth["confidence"], fifth["moved_from"]) == ("5p", 0.05, "3p")
