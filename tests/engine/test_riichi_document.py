"""The EMA document's own figures, and the rules map's quotations checked against the document."""
import re
from pathlib import Path

import pytest

from engine import event, score

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT.parent / "shared" / "seeds" / "ema-riichi.ja.txt"
RULES_MAP = ROOT / "docs" / "rules" / "riichi.md"


def test_every_quoted_passage_is_in_the_document():
    if not DOCUMENT.exists():
        pytest.skip(f"the seed document is not here ({DOCUMENT}); ../shared is absent")
    text = DOCUMENT.read_text(encoding="utf-8")
    quotes = re.findall(r"「(.+?)」", RULES_MAP.read_text(encoding="utf-8"))
    assert len(quotes) > 40
    missing = [q for q in quotes if q not in text]
    assert not missing, missing


def test_every_named_test_exists():
    # the rules map names tests as `<file>::<test>` (tests/engine/test_riichi_<file>.py)
    named = re.findall(r"`(\w+)::(test_\w+)`", RULES_MAP.read_text(encoding="utf-8"))
    assert len(named) > 40
    here = Path(__file__).parent
    missing = [f"{f}::{t}" for f, t in named
               if not (here / f"test_riichi_{f}.py").exists()
               or f"def {t}(" not in (here / f"test_riichi_{f}.py").read_text(encoding="utf-8")]
    assert not missing, missing


def test_uma_tie_example():
    # 「一位と二位が同点の場合、両者には双方のウマを合わせた四万点を二等分した二万点ずつ」: the
    # figures are those of the 30,000/10,000 uma; with the 2016 uma (15,000/5,000) the tie gives 10,000.
    scores = {"E": 20000, "S": 20000, "W": -10000, "N": -30000}
    old = event({"variant": "riichi", "event": "uma", "scores": scores, "options": {"uma": [30000, 10000]}})
    assert old["uma"]["E"] == old["uma"]["S"] == 20000
    new = event({"variant": "riichi", "event": "uma", "scores": scores})
    assert new["uma"] == {"E": 10000, "S": 10000, "W": -5000, "N": -15000}


def test_uma_sentence_example():
    # 「ウマは、一位が四位から一万点、二位が三位から五千点」: 10,000 from 4th to 1st, 5,000 from 3rd to 2nd.
    # This contradicts the heading 「ウマは一万五千・五千」 (the default); with uma [10000, 5000] it holds.
    scores = {"E": 20000, "S": 5000, "W": -10000, "N": -15000}
    out = event({"variant": "riichi", "event": "uma", "scores": scores, "options": {"uma": [10000, 5000]}})
    assert out["uma"] == {"E": 10000, "S": 5000, "W": -5000, "N": -10000}
    assert out["final"] == {"E": 30000, "S": 10000, "W": -15000, "N": -25000}


def test_open_pinfu_example():
    # 「喰い平和には二符が加算される事で、切り上げて三十符となる」: 20 + 2 = 22 -> 30
    out = score({"variant": "riichi", "concealed": "456p678s345s88m", "winning_tile": "3s", "winner": "S",
                 "discarder": "W", "melds": [{"tiles": "234m"}]})
    assert sum(i["value"] for i in out["score"]["fu_items"]) == 22 and out["score"]["fu"] == 30


def test_noten_example():
    # 「やり取りされる点数の合計が三千点」
    out = event({"variant": "riichi", "event": "exhaustive_draw", "tenpai": ["N"]})
    assert sum(v for v in out["payments"].values() if v > 0) == 3000


def test_chombo_example():
    # 「半荘終了後にスコアから 2万点を減点します」 / 「オープン戦:その場で満貫払いとします」
    assert event({"variant": "riichi", "event": "chombo", "offender": "N"})["penalty"]["points"] == -20000
    open_game = event({"variant": "riichi", "event": "chombo", "offender": "N", "options": {"chombo": "open"}})
    assert open_game["payments"]["N"] == -8000


def test_pao_ron_example():
    # 「栄和なら放銃者との折半払い(積み棒は放銃者のみ払う)」
    out = score({"variant": "riichi", "concealed": "777z234m22p", "winning_tile": "2p", "winner": "E",
                 "discarder": "S", "pao": "W", "dealer_streak": 2,
                 "melds": [{"tiles": "555z"}, {"tiles": "666z"}]})
    assert out["payments"] == {"E": 48600, "S": -24600, "W": -24000, "N": 0}


def test_riichi_stick_example():
    # 「立直料は千点」
    out = score({"variant": "riichi", "concealed": "234m456p678s234s99m", "winning_tile": "2m", "winner": "S",
                 "self_drawn": True, "riichi": True, "riichi_sticks": 1})
    assert out["riichi_sticks"]["points"] == 1000
