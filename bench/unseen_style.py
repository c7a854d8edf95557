"""Unseen-style accuracy of the whole classify step: the tile classifier and the flower reader,
both trained without the held-out face sources, read crops whose faces come only from those sources.

    .venv/bin/python -m vision.train            # also writes .train/stage_a.onnx (the hold-out classifier)
    .venv/bin/python -m vision.train_flowers --never hk_art,imahjong_can --no-real \\
        --out .train/flowers_stage_a.onnx       # the hold-out flower reader
    .venv/bin/python bench/unseen_style.py [--sources hk_art,imahjong_can] [--n 500] [--json F]

The figure nearest to what ships reads with the whole recipe trained without those sources (stages
A and B and the real-crop fine-tune) and a flower reader that kept its real-crop steps:

    .venv/bin/python -m vision.train --replica                 # .train/replica.onnx
    .venv/bin/python -m vision.train_flowers --never hk_art,imahjong_can --out .train/flowers_replica.onnx
    .venv/bin/python bench/unseen_style.py --model .train/replica.onnx \
        --flower-model .train/flowers_replica.onnx --json .train/reports/unseen_step.json   # the card reads it

The crops are the unseen-style test set of ``python -m vision.train`` (render seed
``HOLDOUT_TEST_SEED``, every kind of each held-out source), rendered at the flower reader's larger
size so that both models get what the scanner would give them (``vision.classify`` scales them to
each model's input). Three readings are reported per source: the classifier alone (the figure
``vision.train`` writes into models/CARD.md), with the second look (flip averaging for bonus
kinds), and the whole ``vision.classify.classify`` step with the flower reader (``with_reader``:
the kinds it names, the flowers counted together, :func:`vision.classify.choose`).
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dataset import LABELS, build_cache  # noqa: E402
from vision.faces import SOURCE_CODES  # noqa: E402
from vision.model_card import without_flowers  # noqa: E402
from vision.train import HOLDOUT_TEST_SEED, WORK, score  # noqa: E402

C = importlib.import_module("vision.classify")  # the module (the package exports a function of that name)


def unseen_crops(source: str, n: int, workers: int) -> tuple[list[np.ndarray], np.ndarray]:
    """The held-out test crops of one face source, at the flower reader's size, and their label indices."""
    codes = tuple(c for c in LABELS if c in SOURCE_CODES[source])
    d = build_cache(WORK / "unseen-large", n, HOLDOUT_TEST_SEED, only=(source,), labels=codes,
                    out_size=(C.FLOWER_H, C.FLOWER_W), workers=workers)
    return [np.ascontiguousarray(x) for x in d["x"]], d["y"]


def summary(probs: np.ndarray, y: np.ndarray, named: bool = False) -> dict:
    """:func:`vision.train.score` of one reading, with its top-1 on the flowers alone; ``named``:
    score the kinds ``classify`` names (:func:`vision.classify.choose`), not the likeliest."""
    r = score(probs, y, C.choose(probs) if named else None)
    ok, n = without_flowers(r["per_class"])
    right = sum(c for c, _ in r["per_class"].values()) - ok  # the flowers' share of the whole
    flowers = sum(m for _, m in r["per_class"].values()) - n
    return {**r, "flowers_top1": right / flowers if flowers else None}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=str(WORK / "stage_a.onnx"), help="the hold-out tile classifier")
    ap.add_argument("--flower-model", default=str(WORK / "flowers_stage_a.onnx"), help="the hold-out flower reader")
    ap.add_argument("--sources", default="hk_art,imahjong_can", help="the held-out face sources")
    ap.add_argument("--n", type=int, default=500, help="crops per source")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="also write the figures here")
    a = ap.parse_args(argv)
    for path in (a.model, a.flower_model):
        if not Path(path).exists():
            print(f"{path} is missing: train the hold-out models first (see this script's docstring)", file=sys.stderr)
            return 2
    C.use_model(a.model)
    C.use_flower_model(a.flower_model)
    C.use_banded_model(None)  # the shipped banded reader has seen the held-out styles; no replica of it is trained
    t0 = time.time()
    truth: list[np.ndarray] = []
    read: dict[str, list[np.ndarray]] = {}
    report = {"command": "python bench/unseen_style.py " + " ".join(argv if argv is not None else sys.argv[1:]),
              "model": a.model, "flower_model": a.flower_model, "seed": HOLDOUT_TEST_SEED, "sources": {}}
    for s in a.sources.split(","):
        crops, y = unseen_crops(s, a.n, a.workers)
        got = dict(zip(("classifier", "second_look", "with_reader"), C.readings([C._as_bgr(c) for c in crops])))
        report["sources"][s] = {name: summary(p, y, name == "with_reader") for name, p in got.items()}
        truth.append(y)
        for name, p in got.items():
            read.setdefault(name, []).append(p)
    report["all"] = {name: summary(np.concatenate(p), np.concatenate(truth), name == "with_reader")
                     for name, p in read.items()}
    report["seconds"] = round(time.time() - t0, 1)
    for s, res in [*report["sources"].items(), ("together", report["all"])]:
        print(f"{s:>13}: " + ", ".join(f"{name} {r['top1']:.1%}" + (f" (flowers {r['flowers_top1']:.1%})"
                                                                     if r["flowers_top1"] is not None else "")
                                       for name, r in res.items()))
    print("confusions with the reader: " + ", ".join(f"{k}: {v}" for k, v in report["all"]["with_reader"]["confusions"].items()))
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
