"""Scan accuracy on synthetic table photos (``vision.scenes``) with exact truth.

    .venv/bin/python bench/scan_accuracy.py --scenes 200 --first-seed 500000
    .venv/bin/python bench/scan_accuracy.py --classifier truth    # geometry + grouping only

Per scene the photo is scanned; a found tile is right when its centre lies within
0.3 face heights of a true tile's centre and its code (or ``back``) is that tile's.

* tile recall    = right tiles / true tiles
* tile precision = right tiles / tiles returned
* exact scenes   = every tile right, nothing extra, and the proposed hand (concealed,
  melds as a multiset, flowers) equal to the truth

The summary also lists the commonest misnamings (true -> read: count) of tiles found in the
right place under the wrong name; the per-scene rows of ``--json`` carry them as ``confusions``.
It also tells how well the faces found in their place are cropped: each crop's overlap with
the true face (intersection over union), how many overlap less than ``CROP_OK`` and how many
misnamings fall among those poor crops; the rows carry ``crops`` as (overlap, read right).
The truth stand-in names a crop by its centre alone, so only this shows a crop that is
skewed or cut short (a corner index cut off) in the geometry figures.

Last, it tells why the scenes not read exactly were lost (``loss_causes``; a scene may have
several causes): a true tile not found in its place, a tile found where none lies, a tile
misnamed (a flower, animal or face tile on either side of the misnaming, or not), or, with
every tile right, the groups.

``--classifier model`` (the default) uses the shipped ONNX model; ``truth`` names
every candidate from the scene's truth, which measures detection and grouping alone.

Unseen style: ``python -m vision.train`` also exports its stage-A model, trained without
the held-out face sources, to ``.train/stage_a.onnx``; scenes drawn only from those
sources measure the whole scan on a style its classifier never saw:

    .venv/bin/python bench/scan_accuracy.py --model .train/stage_a.onnx --sources hk_art,imahjong_can \
        --flower-model .train/flowers_stage_a.onnx

The shipped flower reader has seen ``hk_art``'s flowers, so a fair unseen-style run also swaps in
a reader trained without those sources
(``python -m vision.train_flowers --never hk_art,imahjong_can --no-real --out .train/flowers_stage_a.onnx``).

Seeds from 500000 up were never used while developing the scanner (development
used seeds below 1000).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.tiles import is_bonus  # noqa: E402
from vision.scan import scan  # noqa: E402
from vision.scenes import (PALE_TABLE, TABLES, describe_drawing_setup, hand_key, make_scene,  # noqa: E402
                           truth_classifier, truth_geometry)


CROP_OK = 0.8  # a face crop overlapping its true face less than this (intersection over union) is a poor crop


def quad_iou(a, b) -> float:
    """Intersection over union of two convex quads."""
    ha, hb = cv2.convexHull(np.float32(a)), cv2.convexHull(np.float32(b))
    inter, _ = cv2.intersectConvexConvex(ha, hb)
    union = cv2.contourArea(ha) + cv2.contourArea(hb) - inter
    return float(inter / union) if union > 0 else 0.0


def score_scene(result: dict, truth: dict) -> dict:
    centres, heights = truth_geometry(truth)
    used: set[int] = set()
    right = 0
    wrong_code = 0
    confusions = []  # (true code, read code) of tiles found in the right place under the wrong name
    crops = []  # (overlap with the true face, read right) of every face found in its place
    for t in result["tiles"]:
        c = np.asarray(t["corners"], float).mean(axis=0)
        best, bi = 1e18, -1
        for i, x in enumerate(centres):
            if i in used:
                continue
            d = float(np.linalg.norm(c - x))
            if d < best:
                best, bi = d, i
        if bi >= 0 and best < 0.3 * heights[bi]:
            if truth["tiles"][bi]["tile"] != "back":
                crops.append((round(quad_iou(t["corners"], truth["tiles"][bi]["corners"]), 3),
                              truth["tiles"][bi]["tile"] == t["tile"]))
            if truth["tiles"][bi]["tile"] == t["tile"]:
                used.add(bi)
                right += 1
            else:
                wrong_code += 1
                confusions.append((truth["tiles"][bi]["tile"], t["tile"]))
    n_true, n_found = len(truth["tiles"]), len(result["tiles"])
    exact = right == n_true and n_found == n_true and hand_key(result["hand"]) == hand_key(truth["hand"])
    return {"true": n_true, "found": n_found, "right": right, "wrong_code": wrong_code, "exact": exact,
            "confusions": confusions, "crops": crops,
            "hand_ok": hand_key(result["hand"]) == hand_key(truth["hand"])}


WIDTHS = (1600, 2016, 3024, 4032)  # a scene's photo width by its seed: phone photos, small to 12 MP


LOSS_CAUSES = ("missed", "extra", "misnamed flower", "misnamed other", "grouping")


def loss_causes(s: dict) -> set[str]:
    """Why a scene (a :func:`score_scene` row) was not read exactly: a subset of LOSS_CAUSES."""
    if s["exact"]:
        return set()
    placed = s["right"] + s["wrong_code"]
    causes = set()
    if placed < s["true"]:
        causes.add("missed")
    if s["found"] > placed:
        causes.add("extra")
    for true, read in s["confusions"]:
        causes.add("misnamed flower" if is_bonus(true) or is_bonus(read) else "misnamed other")
    return causes or {"grouping"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=500000)
    ap.add_argument("--width", type=int, default=0, help="photo width; 0 = phone sizes 1600-4032 by seed")
    ap.add_argument("--classifier", choices=("model", "truth"), default="model")
    ap.add_argument("--model", help="an ONNX model to use instead of models/tiles.onnx (e.g. .train/stage_a.onnx, "
                    "trained without some face sources)")
    ap.add_argument("--flower-model", help="an ONNX flower reader to use instead of models/flowers.onnx")
    ap.add_argument("--banded-model", help="an ONNX banded reader to use instead of models/tiles_banded.onnx, or "
                    "'none' for none (with a --model trained without some face sources: the shipped banded reader "
                    "has seen them)")
    ap.add_argument("--sources", help="comma-separated face sources the scenes may use (default: all available)")
    ap.add_argument("--fill", type=float, help="the share of the frame the hand spans (default: 0.55-0.85 by seed); "
                    "smaller is the same hand shot from further away, with more table in view")
    ap.add_argument("--bodies", choices=("sprite", "camera"), default="sprite",
                    help="where the scenes draw the tiles' thickness (vision.scenes.make_scene): on a random side "
                    "of each tile, or where the camera sees it")
    ap.add_argument("--table", choices=(*TABLES, PALE_TABLE),
                    help="every scene on this kind of table (default: felt, wood, cloth or bamboo by seed); "
                    f"'{PALE_TABLE}' is a white, cream or light grey cloth, which no default scene draws")
    ap.add_argument("--lamp", type=float,
                    help="light from a lamp to one side: the photo's far side gets this share less light (0.5: "
                    "half; default: a gentler slope of 0-0.35 drawn by seed)")
    ap.add_argument("--cast-shadow", type=float,
                    help="the phone's and arm's shadow over part of the hand, this share darker (0.4: 40%% less "
                    "light; default: no such shadow)")
    ap.add_argument("--shake", type=float,
                    help="the phone shaken during the exposure: the photo streaked along one direction over this "
                    "share of its long side (0.005: 20 px at 4032; default: no shake)")
    ap.add_argument("--askew", type=float,
                    help="turn each tile in its row by this spread (degrees, a standard deviation), as hands laid "
                    "by players are (default: about 0.7, rows set straight)")
    ap.add_argument("--sideways", action="store_true",
                    help="lay one tile of each exposed meld sideways, as riichi players show a claimed tile")
    ap.add_argument("--melds-beside", action="store_true",
                    help="lay the exposed melds in the concealed row's line, after its end, a gap apart")
    ap.add_argument("--portrait", action="store_true",
                    help="shoot every photo upright (a phone held the way it is most often held): the same "
                    "long side, the hand across the short side")
    ap.add_argument("--one-look", action="store_true",
                    help="never take the closer look (vision.scan.CLOSER_LOOK_GAIN = inf), to compare")
    ap.add_argument("--json", help="write per-scene results here")
    ap.add_argument("--verbose", action="store_true", help="print every scene that is not read exactly")
    a = ap.parse_args(argv)
    if a.model:
        from vision.classify import use_model

        use_model(a.model)
    if a.flower_model:
        from vision.classify import use_flower_model

        use_flower_model(a.flower_model)
    if a.banded_model:
        from vision.classify import use_banded_model

        use_banded_model(None if a.banded_model == "none" else a.banded_model)
    sources = tuple(a.sources.split(",")) if a.sources else None
    if a.one_look:
        sys.modules["vision.scan"].CLOSER_LOOK_GAIN = float("inf")  # (the package's ``scan`` shadows the module)
    rows = []
    totals = Counter()
    confusions = Counter()
    t0 = time.perf_counter()
    for k in range(a.scenes):
        seed = a.first_seed + k
        width = a.width or WIDTHS[seed % len(WIDTHS)]
        data, truth = make_scene(seed, width=width, sources=sources, fill=a.fill, bodies=a.bodies, table=a.table,
                                 lamp=a.lamp, portrait=a.portrait, askew=a.askew,
                                 sideways=a.sideways, melds_beside=a.melds_beside, cast_shadow=a.cast_shadow,
                                 shake=a.shake)
        fn = truth_classifier(truth) if a.classifier == "truth" else None
        result = scan(data, classify_fn=fn)
        s = score_scene(result, truth)
        s.update(seed=seed, width=width, table=truth["params"]["table"], tilt=truth["params"]["tilt"],
                 source=truth["params"]["source"], ms=result["timings_ms"]["total"],
                 closer_look=result["image"]["closer_look"], evened_light=result["image"]["evened_light"])
        rows.append(s)
        for key in ("true", "found", "right", "wrong_code"):
            totals[key] += s[key]
        totals["exact"] += s["exact"]
        totals["hand_ok"] += s["hand_ok"]
        totals["closer_" + s["closer_look"]] += 1
        totals["evened_" + s["evened_light"]] += 1
        confusions.update(s["confusions"])
        if a.verbose and not s["exact"]:
            print(f"seed {seed} {truth['params']}: found {s['found']} right {s['right']} of {s['true']}\n"
                  f"   truth {truth['hand']}\n   got   {result['hand']}", flush=True)
    n = len(rows)
    recall = totals["right"] / max(1, totals["true"])
    precision = totals["right"] / max(1, totals["found"])
    print(f"scenes {n} (seeds {a.first_seed}..{a.first_seed + n - 1}), classifier: {a.classifier}"
          + (f" ({a.model})" if a.model and a.classifier == "model" else "")
          + (f" (flower reader {a.flower_model})" if a.flower_model and a.classifier == "model" else "")
          + (f", sources {a.sources}" if sources else "")
          + (f", fill {a.fill}" if a.fill else "") + (", one look" if a.one_look else "")
          + (f", bodies {a.bodies}" if a.bodies != "sprite" else "") + (f", table {a.table}" if a.table else "")
          + (f", lamp {a.lamp}" if a.lamp is not None else "") + (", portrait" if a.portrait else "")
          + (f", askew {a.askew}" if a.askew is not None else "") + (", sideways" if a.sideways else "")
          + (", melds beside" if a.melds_beside else "")
          + (f", cast shadow {a.cast_shadow}" if a.cast_shadow is not None else "")
          + (f", shake {a.shake}" if a.shake is not None else ""))
    # a scene is drawn from the styles and fonts this machine has (riichi_art needs cairosvg, the
    # [train] extra; the art and tile fonts need ../shared; corner indices use the Latin fonts
    # installed), so the same seeds are other photos without them
    print(f"scenes drawn with {describe_drawing_setup()}")
    print(f"tile recall    {recall:.4f}  ({totals['right']} / {totals['true']})")
    print(f"tile precision {precision:.4f}  ({totals['right']} / {totals['found']})")
    print(f"exact scenes   {totals['exact'] / max(1, n):.4f}  ({totals['exact']} / {n});"
          f" hand right {totals['hand_ok']} / {n}")
    print(f"median scan time {np.median([r['ms'] for r in rows]):.0f} ms; wall {time.perf_counter() - t0:.0f} s")
    print(f"closer look taken in {totals['closer_kept'] + totals['closer_dropped']} scenes, kept in {totals['closer_kept']}")
    print(f"evened look taken in {totals['evened_kept'] + totals['evened_dropped']} scenes, kept in {totals['evened_kept']}")
    crops = [c for r in rows for c in r["crops"]]
    if crops:
        poor = [ok for iou, ok in crops if iou < CROP_OK]
        good = [ok for iou, ok in crops if iou >= CROP_OK]
        print(f"face crops: median overlap with the true face {np.median([iou for iou, _ in crops]):.3f}; "
              f"below {CROP_OK}: {len(poor)} of {len(crops)} ({len(poor) - sum(poor)} of them misnamed), "
              f"the rest misnamed: {len(good) - sum(good)} of {len(good)}")
    if confusions:
        print("misnamed (true -> read: count): "
              + ", ".join(f"{a}->{b}: {n}" for (a, b), n in confusions.most_common(20)))
    lost = [loss_causes(r) for r in rows if not r["exact"]]
    if lost:
        print(f"scenes not read exactly: {len(lost)}; with a cause (alone): "
              + ", ".join(f"{c} {sum(c in x for x in lost)} ({sum(x == {c} for x in lost)})" for c in LOSS_CAUSES))
    by = {}
    for key in ("table", "source"):
        for r in rows:
            b = by.setdefault((key, r[key]), Counter())
            b["n"] += 1
            b["exact"] += r["exact"]
            b["true"] += r["true"]
            b["right"] += r["right"]
    for (key, val), b in sorted(by.items()):
        print(f"  {key:6s} {val:14s} scenes {b['n']:3d} exact {b['exact'] / b['n']:.2f} recall {b['right'] / max(1, b['true']):.3f}")
    if a.json:
        Path(a.json).write_text(json.dumps({"rows": rows, "recall": recall, "precision": precision,
                                            "exact": totals["exact"] / max(1, n)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
