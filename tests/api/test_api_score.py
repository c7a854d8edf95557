"""POST /api/score is exactly the engine's contract; GET /api/variants is the engine's table."""
from __future__ import annotations

import json

import pytest

import engine
from engine.errors import EngineError

GOOD_HANDS = [
    {"variant": "riichi", "concealed": "123m456p789s11z222z", "winning_tile": "2z", "self_drawn": True,
     "winner": "E", "dealer": "E"},
    {"variant": "riichi", "concealed": "123m456p789s11z22z"},  # not claimed: waits
    {"variant": "malaysian", "concealed": "123p456p789p11z222z", "flowers": "1f1a", "winning_tile": "2z",
     "self_drawn": False, "winner": "E", "discarder": "S", "dealer": "E"},
    {"variant": "taiwan", "concealed": "123m456m789m123p456p11z222z", "winning_tile": "2z", "self_drawn": True,
     "winner": "S", "dealer": "E", "flowers": "2f"},
    {"variant": "taiwan", "concealed": "234m567m345p678s55z", "melds": [{"tiles": "777z", "concealed": False}],
     "flowers": "3f", "winning_tile": "5z", "self_drawn": False, "winner": "S", "discarder": "W", "dealer": "E",
     "options": {"base": 100}},
]

BAD_HANDS = [
    {"variant": "riichi", "concealed": "123x"},
    {"variant": "nosuch", "concealed": "123m"},
    {"variant": "riichi", "concealed": "123m456p789s11z222z", "winning_tile": "2z", "winner": "Q"},
    {"variant": "wenzhou", "concealed": "123m456p789s11z222z123p5m", "winning_tile": "5m", "indicator": "4m"},
]


def engine_answer(request):
    try:
        return 200, engine.score(request)
    except EngineError as exc:
        return 422, exc.to_json()


@pytest.mark.parametrize("hand", GOOD_HANDS + BAD_HANDS)
def test_score_is_the_engines_answer(authed, hand):
    status, expected = engine_answer(dict(hand))
    r = authed.post("/api/score", json=hand)
    assert r.status_code == status
    assert r.json() == expected


@pytest.mark.parametrize("hand", BAD_HANDS)
def test_bad_hands_get_422_with_the_engine_error(authed, hand):
    r = authed.post("/api/score", json=hand)
    assert r.status_code == 422
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "field"}


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b"\xff\xfe", b""])
def test_non_json_bodies_get_422_in_the_same_shape(authed, raw):
    r = authed.post("/api/score", content=raw, headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "bad_json"


@pytest.mark.parametrize("path", ["/api/score", "/api/score/many"])
def test_deeply_nested_json_gets_422_bad_json_not_a_500(authed, path):
    deep = b"[" * 100_000 + b"]" * 100_000  # under the 1 MB cap; json.loads would hit the recursion limit
    r = authed.post(path, content=deep, headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    assert r.json() == {"error": {"code": "bad_json", "field": None,
                                  "message": "The request body is nested too deeply to read as JSON."}}


def test_oversized_score_requests_get_413(authed):
    r = authed.post("/api/score", content=b"{" + b" " * (1024 * 1024) + b"}",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert r.json()["error"]["code"] == "too_large"


def test_variants_are_the_engines_table(authed):
    r = authed.get("/api/variants")
    assert r.status_code == 200
    table = r.json()
    assert table == json.loads(json.dumps(engine.describe_variants()))
    assert set(table) == {"philippine", "malaysian", "wenzhou", "riichi", "taiwan"}
    for spec in table.values():
        assert {"name", "title", "seats", "options", "flags", "wilds"} <= set(spec)


def test_score_many_answers_each_request_in_order_as_the_engine_does(authed):
    hands = GOOD_HANDS + BAD_HANDS + [{"variant": "riichi"}]  # a bad hand fails alone
    r = authed.post("/api/score/many", json={"requests": hands})
    assert r.status_code == 200
    results = r.json()["results"]
    assert len(results) == len(hands)
    for hand, item in zip(hands, results):
        status, expected = engine_answer(dict(hand))
        assert item == ({"result": expected} if status == 200 else expected)
    assert results[-1]["error"]["field"] == "concealed"


@pytest.mark.parametrize("body, code", [
    ({"requests": []}, "bad_request"),
    ({"requests": [GOOD_HANDS[0]] * 49}, "bad_request"),
    ({"requests": GOOD_HANDS[0]}, "bad_json"),
    ({"requests": [GOOD_HANDS[0], ["not", "a", "hand"]]}, "bad_json"),
    ([GOOD_HANDS[0]], "bad_json"),
    (GOOD_HANDS[0], "bad_json"),
])
def test_score_many_refuses_a_body_that_is_not_1_to_48_requests(authed, body, code):
    r = authed.post("/api/score/many", json=body)
    assert r.status_code == 422
    assert r.json()["error"]["code"] == code and r.json()["error"]["field"] == "requests"


def test_score_many_needs_the_token(client):
    r = client.post("/api/score/many", json={"requests": [GOOD_HANDS[0]]})
    assert r.status_code == 401
