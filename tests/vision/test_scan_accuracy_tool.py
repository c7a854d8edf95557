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


def test_a_lost_scene_is_told_by_its_causes(tool):
    def row(true=14, found=14, right=14, wrong=0, confusions=(), exact=False):
        return {"true": true, "found": found, "right": right, "wrong_code": wrong, "exact": exact,
                "confusions": list(confusions)}
    assert tool.loss_causes(row(exact=True)) == set()
    assert tool.loss_causes(row()) == {"grouping"}   # every tile right, the hand wrong
    assert tool.loss_causes(row(found=13, right=13)) == {"missed"}
    assert tool.loss_causes(row(found=15)) == {"extra"}
    assert tool.loss_causes(row(right=13, wrong=1, confusions=[("3f", "7f")])) == {"misnamed flower"}
    assert tool.loss_causes(row(right=13, wrong=1, confusions=[("1s", "2f")])) == {"misnamed flower"}
    assert tool.loss_causes(row(found=13, right=12, wrong=1, confusions=[("2m", "3m")])) == {"missed", "misnamed other"}
    assert tool.loss_causes(row(right=13, wrong=0)) == {"missed", "extra"}   # one found off its place
