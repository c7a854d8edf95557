"""bench/scan_accuracy.py: how a scene is scored, crop overlap included."""
import pytest


@pytest.fixture
def tool(bench_tool):
    return bench_tool("scan_accuracy")


def _quad(x, y, w=30.0, h=40.0):
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def test_overlap_of_two_quads(tool):
    assert tool.quad_iou(_quad(0, 0), _quad(0, 0)) == pytest.approx(1.0)
    assert tool.quad_iou(_quad(0, 0), _quad(15, 0)) == pytest.approx(1 / 3)  # half of each: 600 / 1800
    assert tool.quad_iou(_quad(0, 0), _quad(100, 0)) == 0.0


def test_a_crop_cut_short_is_counted_poor_though_its_centre_and_name_are_right(tool):
    truth = {"tiles": [{"tile": "5m", "corners": _quad(0, 0)}, {"tile": "back", "corners": _quad(40, 0)},
                       {"tile": "2f", "corners": _quad(80, 0)}],
             "hand": {"concealed": "5m", "melds": [], "flowers": "2f"}}
    # 5m cropped a third too narrow (centre 5 px off: still "in place"), the back exact, 2f misnamed
    result = {"tiles": [{"tile": "5m", "corners": _quad(0, 0, w=20.0)}, {"tile": "back", "corners": _quad(40, 0)},
                        {"tile": "6f", "corners": _quad(80, 0)}],
              "hand": {"concealed": "5m", "melds": [], "flowers": "6f"}}
    s = tool.score_scene(result, truth)
    assert s["right"] == 2 and s["confusions"] == [("2f", "6f")] and not s["exact"]
    # faces only (a face-down tile has no face to crop): the short crop, then the misnamed one
    assert s["crops"] == [(pytest.approx(2 / 3, abs=1e-3), True), (1.0, False)]
    assert s["crops"][0][0] < tool.CROP_OK
