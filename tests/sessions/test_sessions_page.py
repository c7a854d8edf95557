"""The session view in a real headless chromium (Debian's, never downloaded) at a
phone viewport, against the real server: start a session, record two hands with
the one-tap Record button, undo one, and see the totals and the chart change.

The page announces each score with a ``tilelens:scored`` event (the hook
session.js listens to); this test sends that event itself, with the server's
own /api/score answer, as the result screen does. If index.html does not yet
load session.js, the test adds the script tag the way the page will.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from sessions_live_server import TOKEN, LiveServer

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
H1 = {"variant": "riichi", "concealed": "123m456m789m123p55p", "winning_tile": "5p", "self_drawn": True,
      "winner": "S", "dealer": "E", "options": {}}
H2 = {**H1, "winner": "W"}

SCORE_AND_ANNOUNCE = """async (req) => {
  const res = await fetch('/api/score', {method: 'POST', credentials: 'same-origin',
    headers: {'Content-Type': 'application/json'}, body: JSON.stringify(req)});
  const result = await res.json();
  document.dispatchEvent(new CustomEvent('tilelens:scored', {detail: {request: req, result: result}}));
  return res.status;
}"""


def chromium() -> str | None:
    for c in (os.environ.get("TILELENS_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if c and Path(c).is_file():
            return c
    return None


@pytest.fixture
def page(tmp_path, need_variant):
    need_variant("riichi")
    path = chromium()
    if path is None:
        pytest.skip("Debian chromium is not installed (/usr/bin/chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright Python package is not installed")
    srv = LiveServer(tmp_path / "data").start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=path, headless=True, args=ARGS)
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            pg = ctx.new_page()
            errors: list[str] = []
            pg.on("pageerror", lambda exc: errors.append(str(exc)))
            pg.goto(f"{srv.url}/pair?token={TOKEN}")
            pg.goto(f"{srv.url}/")
            if pg.locator("script[src='/static/session.js']").count() == 0:
                pg.add_script_tag(url="/static/session.js")
            yield pg
            assert [e for e in errors if "session" in e.lower()] == []
            browser.close()
    finally:
        srv.kill()


def expect(locator):
    from playwright.sync_api import expect as pw_expect

    return pw_expect(locator)


def totals(pg) -> dict[str, int]:
    cells = pg.locator("#session-totals tr[data-seat]")
    return {cells.nth(i).get_attribute("data-seat"): int(cells.nth(i).locator("td.total").first.get_attribute("data-total"))
            for i in range(cells.count())}


def chart_values(pg) -> dict[str, list[int]]:
    lines = pg.locator("#session-chart polyline")
    return {lines.nth(i).get_attribute("data-seat"): [int(v) for v in lines.nth(i).get_attribute("data-values").split(",")]
            for i in range(lines.count())}


def test_record_two_hands_undo_one_and_watch_totals_and_chart(page):
    pg = page
    pg.wait_for_selector("#session-start", timeout=15000)
    pg.select_option("#session-variant", "riichi")
    for seat, name in zip("ESWN", ["Aiko", "Ben", "Chen", "Dora"]):
        pg.fill(f"input[name=player-{seat}]", name)
    pg.click("#session-start button[type=submit]")
    pg.wait_for_selector("#session-totals", timeout=15000)
    assert totals(pg) == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert pg.locator("#session-record").is_hidden()

    assert pg.evaluate(SCORE_AND_ANNOUNCE, H1) == 200
    pg.wait_for_selector("#session-record-button")
    assert "Ben" in pg.inner_text("#session-record-button")
    pg.click("#session-record-button")  # one tap
    expect(pg.locator("#session-hands li")).to_have_count(1, timeout=15000)
    assert totals(pg) == {"E": -2000, "S": 4000, "W": -1000, "N": -1000}
    assert "Dealer Ben" in pg.inner_text("#session-context")

    assert pg.evaluate(SCORE_AND_ANNOUNCE, H2) == 200
    pg.wait_for_selector("#session-record-button")
    pg.click("#session-record-button")
    expect(pg.locator("#session-hands li")).to_have_count(2, timeout=15000)
    assert totals(pg) == {"E": -3000, "S": 2000, "W": 3000, "N": -2000}
    assert chart_values(pg) == {"E": [0, -2000, -3000], "S": [0, 4000, 2000], "W": [0, -1000, 3000],
                                "N": [0, -1000, -2000]}

    pg.click("#session-undo")
    pg.wait_for_selector("#session-hands li[data-status=undone]", timeout=15000)
    assert totals(pg) == {"E": -2000, "S": 4000, "W": -1000, "N": -1000}
    assert chart_values(pg) == {"E": [0, -2000], "S": [0, 4000], "W": [0, -1000], "N": [0, -1000]}
    assert pg.locator("#session-hands li[data-status=active]").count() == 1
    shot = os.environ.get("TILELENS_SESSION_SCREENSHOT")
    if shot:  # for looking at the view by eye: a path to write a PNG of the session card to
        pg.locator("#session").screenshot(path=shot)
