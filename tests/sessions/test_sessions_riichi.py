"""A whole recorded riichi session (EMA 2016, document ema-riichi.ja.txt).

Numbers worked out by hand from the document's tables:

* Hand 1, East 1 (dealer E, 0 honba): S self-draws 123m 456m 789m 123p 5p-5p on 5p,
  menzen tsumo 1 + ittsu 2 = 3 han; fu 20 + 2 (single wait) + 2 (tsumo) = 24 -> 30.
  Basic points 30 x 2^5 = 960: the dealer pays 2 x 960 -> 2000, the others 960 -> 1000.
  The deal passes to S (非親の和了: 輪荘), honba 0.
* Hand 2 (dealer S): exhaustive draw, E and W tenpai, W declared riichi (a stick).
  Noten 3000: E and W +1500, S and N -1500; W's stick goes on the table.
  The dealer S is noten: the deal passes to W; honba 1 (any draw), sticks 1.
* Hand 3 (dealer W, 1 honba, 1 stick): N wins by ron on E's 3s with 234m 456p 678s
  45s 8p-8p: tanyao 1 + pinfu 1 = 2 han, 30 fu (menzen ron). Basic 30 x 2^4 = 480;
  ron 4 x 480 = 1920 -> 2000, + 300 honba from E; N also takes the 1000 stick.
  The deal passes to N; honba 0, sticks 0.
* Hand 4 is recorded by mistake and undone.
* End: scores S 2500, N 800, W -500, E -2800; uma 15000/5000 -> S +15000, N +5000,
  W -5000, E -15000.
"""
from __future__ import annotations

import csv
import io

import pytest

from api.sessions.service import Conflict

PLAYERS = ["Aiko", "Ben", "Chen", "Dora"]  # seats E, S, W, N
H1 = {"concealed": "123m456m789m123p55p", "winning_tile": "5p", "self_drawn": True, "winner": "S"}
H3 = {"concealed": "234m456p678s345s88p", "winning_tile": "3s", "winner": "N", "discarder": "E"}
WRONG = {"concealed": "234m456p678s345s88p", "winning_tile": "3s", "self_drawn": True, "winner": "E"}


def test_a_riichi_session_end_to_end(service, need_variant):
    need_variant("riichi")
    s = service.create("riichi", PLAYERS, title="Friday hanchan")
    sid, v = s["id"], s["version"]
    assert s["next_context"] == {"dealer": "E", "dealer_streak": 0, "round_wind": "E", "riichi_sticks": 0}

    r = service.record_hand(sid, v, H1)
    assert r["recorded"]["payments"] == {"E": -2000, "S": 4000, "W": -1000, "N": -1000}
    assert r["state"]["dealer"] == "S" and r["state"]["dealer_streak"] == 0

    r = service.record_draw(sid, r["version"], {"tenpai": ["E", "W"], "riichi": ["W"]}, "exhaustive_draw")
    assert r["recorded"]["payments"] == {"E": 1500, "S": -1500, "W": 1500, "N": -1500}
    assert r["next_context"] == {"dealer": "W", "dealer_streak": 1, "round_wind": "E", "riichi_sticks": 1}

    r = service.record_hand(sid, r["version"], H3)
    assert r["recorded"]["context"] == {"dealer": "W", "dealer_streak": 1, "round_wind": "E", "riichi_sticks": 1}
    assert r["recorded"]["payments"] == {"E": -2300, "S": 0, "W": 0, "N": 2300}
    assert r["recorded"]["result"]["totals"]["N"] == 3300  # the stick on top
    assert r["next_context"] == {"dealer": "N", "dealer_streak": 0, "round_wind": "E", "riichi_sticks": 0}

    wrong = service.record_hand(sid, r["version"], WRONG)
    # a non-dealer win passes the deal from N (East 4) to E: South round starts
    assert (wrong["state"]["dealer"], wrong["state"]["round_wind"]) == ("E", "S")
    r = service.undo(sid, wrong["version"], reason="wrong winner")
    assert r["undone"] == wrong["recorded"]["seq"]

    # zero-sum payments; the riichi scores carry the stick from W to N
    assert r["totals"] == {"E": -2800, "S": 2500, "W": 500, "N": -200}
    assert r["state"]["scores"] == {"E": -2800, "S": 2500, "W": -500, "N": 800}
    assert r["totals_by_player"] == {"Aiko": -2800, "Ben": 2500, "Chen": 500, "Dora": -200}
    assert r["next_context"] == {"dealer": "N", "dealer_streak": 0, "round_wind": "E", "riichi_sticks": 0}

    ended = service.end(sid, r["version"])
    uma = ended["final"]["uma"]
    assert uma["uma"] == {"S": 15000, "N": 5000, "W": -5000, "E": -15000}
    assert uma["final"] == {"S": 17500, "N": 5800, "W": -5500, "E": -17800}
    with pytest.raises(Conflict):
        service.record_hand(sid, ended["version"], H1)

    full = service.get(sid)
    assert [(e["seq"], e["kind"], e["status"]) for e in full["history"]] == [
        (1, "hand", "active"), (2, "draw", "active"), (3, "hand", "active"), (4, "hand", "undone")]
    assert full["corrections"][0]["action"] == "undo" and full["corrections"][0]["reason"] == "wrong winner"

    rows = list(csv.reader(io.StringIO(service.export_csv(sid))))
    assert rows[0][-4:] == ["total Aiko", "total Ben", "total Chen", "total Dora"]
    assert [r[:3] for r in rows[1:]] == [["1", "hand", "win"], ["2", "draw", "draw"], ["3", "hand", "win"]]
    assert rows[-1][-4:] == ["-2800", "2500", "500", "-200"]
    assert rows[3][3:7] == ["N", "E", "W", "2300"]  # 2000 + 300 honba

    exported = service.export_json(sid)
    assert exported["totals"] == {"E": -2800, "S": 2500, "W": 500, "N": -200}
    moved = service.import_json(exported)
    assert moved["id"] != sid
    assert moved["totals"] == exported["totals"] and moved["state"] == exported["state"]
    assert len(moved["history"]) == 4 and moved["ended_at"] is not None


def test_riichi_sticks_declared_in_won_hands_and_a_chombo(service, need_variant):
    """Sticks declared in a hand that is won (EMA: "立直料については、和了した立直者には返還され、
    残り…は…権利となります"), and a tournament chombo (20,000 off the final score).

    * Hand 1, dealer E: W declares riichi; S wins on N's discard, tanyao pinfu 2 han 30 fu
      = 2000 from N, and W's stick: S +3000, N -2000, W -1000. The deal passes to S.
    * Hand 2, dealer S: S declares riichi and self-draws 123m 456m 789m 123p 5p-5p on 5p:
      riichi 1 + tsumo 1 + ittsu 2 = 4 han 30 fu, basic 1920, dealer tsumo 2 x 1920 ->
      3900 from each; S's own stick comes back. Dealer keeps, honba 1.
    * Chombo by E: no payment now, the hand is replayed (same dealer, same honba).
    * End: scores E -3900, S 14700, W -4900, N -5900. Places come from these game scores (the
      tournament chombo penalty is taken off after the uma, 「半荘終了後にスコアから 2万点を減点」):
      uma S +15000 -> 29700, E +5000 -> 1100, W -5000 -> -9900, N -15000 -> -20900;
      then E's 20,000 penalty -> -18900.
    """
    need_variant("riichi")
    s = service.create("riichi", PLAYERS)
    sid = s["id"]
    r = service.record_hand(sid, s["version"], {**H3, "discarder": "N", "winner": "S"}, outcome={"riichi": ["W"]})
    assert r["recorded"]["context"]["riichi_sticks"] == 1
    assert r["recorded"]["payments"] == {"E": 0, "S": 2000, "W": 0, "N": -2000}
    assert r["state"]["scores"] == {"E": 0, "S": 3000, "W": -1000, "N": -2000}
    assert r["next_context"]["riichi_sticks"] == 0

    r = service.record_hand(sid, r["version"], {**H1, "riichi": True})  # S, the dealer now
    assert r["recorded"]["context"] == {"dealer": "S", "dealer_streak": 0, "round_wind": "E", "riichi_sticks": 1}
    assert r["recorded"]["payments"] == {"E": -3900, "S": 11700, "W": -3900, "N": -3900}
    assert r["state"]["scores"] == {"E": -3900, "S": 14700, "W": -4900, "N": -5900}
    assert r["next_context"] == {"dealer": "S", "dealer_streak": 1, "round_wind": "E", "riichi_sticks": 0}

    r = service.record_event(sid, r["version"], "chombo", {"offender": "E", "dealer": "N"})
    assert r["recorded"]["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert service.get(sid)["history"][-1]["request"]["dealer"] == "S"  # from the state, not as typed
    assert r["next_context"] == {"dealer": "S", "dealer_streak": 1, "round_wind": "E", "riichi_sticks": 0}

    final = service.end(sid, r["version"])["final"]
    assert final["totals"] == {"E": -3900, "S": 13700, "W": -3900, "N": -5900}
    assert final["uma"]["final"] == {"S": 29700, "E": -18900, "W": -9900, "N": -20900}
