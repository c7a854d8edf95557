"""bench/scan_outputs.py: the record comparison that speed work relies on."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("scan_outputs", ROOT / "bench" / "scan_outputs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _rec(tile="5m", corner=(10.0, 20.0), concealed="5m"):
    quad = [list(corner), [30.0, 20.0], [30.0, 50.0], [10.0, 50.0]]
    return {"tiles": [[tile, "concealed", quad]], "hand": {"concealed": concealed, "melds": [], "flowers": ""}}


def test_identical_records_do_not_differ():
    assert _tool().differences({"1": _rec()}, {"1": _rec()}, 0.1) == []


def test_a_changed_tile_a_moved_corner_and_a_missing_scene_are_each_reported():
    tool = _tool()
    before = {"1": _rec(), "2": _rec(), "3": _rec()}
    after = {"1": _rec(tile="6m"), "2": _rec(corner=(10.0, 20.5))}
    assert tool.differences(before, after, 0.1) == [
        "1: tiles or hand differ", "2: a corner moved 0.5 px", "3: missing"]
    assert tool.differences({"2": _rec()}, {"2": _rec(corner=(10.0, 20.05))}, 0.1) == []
