"""bench/scan_outputs.py: the record comparison that speed work relies on."""
import pytest


@pytest.fixture
def tool(bench_tool):
    return bench_tool("scan_outputs")


def _rec(tile="5m", corner=(10.0, 20.0), concealed="5m"):
    quad = [list(corner), [30.0, 20.0], [30.0, 50.0], [10.0, 50.0]]
    return {"tiles": [[tile, "concealed", quad]], "hand": {"concealed": concealed, "melds": [], "flowers": ""}}


def test_identical_records_do_not_differ(tool):
    assert tool.differences({"1": _rec()}, {"1": _rec()}, 0.1) == []


def test_a_changed_tile_a_moved_corner_and_a_missing_scene_are_each_reported(tool):
    before = {"1": _rec(), "2": _rec(), "3": _rec()}
    after = {"1": _rec(tile="6m"), "2": _rec(corner=(10.0, 20.5))}
    assert tool.differences(before, after, 0.1) == [
        "1: tiles or hand differ", "2: a corner moved 0.5 px", "3: missing"]
    assert tool.differences({"2": _rec()}, {"2": _rec(corner=(10.0, 20.05))}, 0.1) == []


def test_a_record_drawn_with_other_fonts_or_styles_is_refused_before_any_scan(tool, tmp_path, monkeypatch):
    here = tool.drawing_setup()
    assert tool.setup_mismatch({"setup": here, "scenes": {}}) is None
    assert tool.setup_mismatch({"scenes": {}}) is None  # the older form keeps no setup
    other = dict(here, latin_fonts=here["latin_fonts"][:1])
    why = tool.setup_mismatch({"setup": other, "scenes": {}})
    assert why and "other photos" in why and "latin fonts" in why
    record = tmp_path / "other.json"
    record.write_text(__import__("json").dumps({"setup": other, "scenes": {"1": _rec()}}))
    monkeypatch.setattr(tool, "scenes", lambda: pytest.fail("scanned a record it cannot compare"))
    assert tool.main(["--compare", str(record)]) == 2
