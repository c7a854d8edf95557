"""Train the flower reader and export ``models/flowers.onnx`` (needs the ``[train]`` extra: torch).

    python -m vision.train_flowers           # render (cached in .train/flowers), train, evaluate, export
    python -m vision.train_flowers --card    # only rewrite the card's flower section from the saved report

The eight flowers differ by a small corner numeral and a small season or plant character; the
painting tells them apart only in sets that paint each flower as itself. The tile classifier reads
its 72 x 54 input, in which those marks are a few pixels, and it sees few flowers of any one style
(the procedural style paints a random picture on most of its seasons, so only the marks name
them). The flower reader is a second model of the same shape over the eight flowers only, at
96 x 72, trained on many more flowers: ``FLOWERS_MIXED`` crops from every face source but the
never-trained one, ``FLOWERS_DRAWN`` crops of the procedural style, whose flowers only their
marks name, and the flowers the scanner cuts from ``SCENE_PHOTOS`` flower-rich synthetic table
photos (:func:`training_flowers`). :func:`vision.classify.read_flowers` combines it with the tile
classifier.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from engine.tiles import FLOWERS

from .classify import FLOWER_H, FLOWER_W, to_input
from .dataset import LABELS, build_cache, load_real
from .model_card import replace_card_section
from .scene_crops import FIRST_FLOWER_SCENE_SEED, build_flower_scene_cache, shake_share
from .train import (MODELS, REPORTS, TRAIN_SEED, WORK, augment_real, build_model, device, environment, export_onnx,
                    folds, jitter_rendered, never_trained, predict, train)

FLOWERS_MIXED, MIXED_SEED = 16000, 21   # flowers from every face source but the never-trained one
FLOWERS_DRAWN, DRAWN_SEED = 24000, 22   # flowers of the procedural style only
TEST_N, TEST_SEED = 4000, 33            # the test set: every face source, the never-trained one included
SCENE_PHOTOS, SCENE_REPEAT = 400, 2     # flower-rich table photos whose flowers the scanner cuts, each crop twice
CAMERA_SHARE = 0.0                      # of those photos, the share drawn with camera bodies (scene_crops.scene_bodies)
TEST_SCENE_PHOTOS, TEST_SCENE_SEED = 100, 30_000_000  # photos for the test, every face source
STEPS, LR = 3000, 3e-3
FINETUNE_STEPS, FINETUNE_LR, REAL_SHARE = 400, 5e-4, 1 / 3  # then on real flowers, as the tile classifier
CV_FOLDS = 5
SIZE = (FLOWER_H, FLOWER_W)
CARD_HEADING = "## Flower reader (`models/flowers.onnx`)"


def _as_flowers(d: dict) -> dict:
    """A rendered cache with tile-label indices -> the same with flower indices 0..7."""
    return {"x": d["x"], "y": np.array([FLOWERS.index(LABELS[i]) for i in d["y"]], np.int64), "source": d["source"]}


def training_flowers(never: tuple[str, ...], workers: int, scene_photos: int = SCENE_PHOTOS,
                     camera_share: float = CAMERA_SHARE, shake: bool = False) -> tuple[dict, int]:
    """The rendered flowers, and ``SCENE_REPEAT`` times the flowers the scanner cut from
    ``scene_photos`` flower-rich table photos (:func:`vision.scene_crops.flower_scene_crops`; the
    rendered crops alone read riichi_art's flowers at 99.8% but its flowers in table photos at
    91%: the photo's light, perspective and the scanner's cut are what they lack), ``camera_share``
    of those photos drawn with the tiles' bodies where the camera sees them; ``shake``: the rendered
    crops streaked by a phone's shake and ``SHAKE_SHARE`` of the photos taken with one.

    Returns (the training data, how many crops the photos gave)."""
    from .scenes import SCENE_SOURCES

    mixed = build_cache(WORK / "flowers", FLOWERS_MIXED, MIXED_SEED, labels=FLOWERS, exclude=never, out_size=SIZE,
                        workers=workers, shake=shake)
    drawn = build_cache(WORK / "flowers", FLOWERS_DRAWN, DRAWN_SEED, labels=FLOWERS, only=("drawn",), out_size=SIZE,
                        workers=workers, shake=shake)
    parts = [_as_flowers(mixed), _as_flowers(drawn)]
    n_scene = 0
    if scene_photos:
        sources = tuple(s for s in SCENE_SOURCES() if s not in never)
        scenes = build_flower_scene_cache(WORK / "flower-scenes", scene_photos, sources=sources, size=SIZE,
                                          workers=workers, camera_share=camera_share,
                                          shake_share=shake_share(shake))
        parts += [{"x": scenes["x"], "y": scenes["y"].astype(np.int64)}] * SCENE_REPEAT
        n_scene = len(scenes["y"])
    return {k: np.concatenate([p[k] for p in parts]) for k in ("x", "y")}, n_scene


def real_flowers() -> tuple[list[np.ndarray], list[str]]:
    """The real crops of flowers (``../shared/data/real-tiles``; none without it)."""
    _, imgs, codes = load_real()
    keep = [i for i, c in enumerate(codes) if c in FLOWERS]
    return [imgs[i] for i in keep], [codes[i] for i in keep]


def finetune_real(model, data: dict, imgs: list, codes: list[str], *, steps: int = FINETUNE_STEPS,
                  batch: int = 64, seed: int = TRAIN_SEED + 1, label: str = "real") -> dict:
    """Train the whole reader further on batches of ``REAL_SHARE`` augmented real flowers and
    rendered ones (AdamW, cosine from ``FINETUNE_LR``)."""
    import math

    import torch

    dev = device()
    model.to(dev).train()
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    X, Y = torch.from_numpy(data["x"]), torch.from_numpy(data["y"])
    opt = torch.optim.AdamW(model.parameters(), lr=FINETUNE_LR, weight_decay=2e-4)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    n_real = int(round(batch * REAL_SHARE))
    t0 = time.time()
    for step in range(steps):
        for g in opt.param_groups:
            g["lr"] = FINETUNE_LR * 0.5 * (1 + math.cos(math.pi * step / steps))
        idx = torch.randint(0, len(Y), (batch - n_real,), generator=gen)
        ri = rng.integers(0, len(imgs), n_real)
        xr = torch.from_numpy(np.stack([augment_real(imgs[i], rng, SIZE) for i in ri])).permute(0, 3, 1, 2).float()
        x = torch.cat([jitter_rendered(X[idx], torch, gen), xr]).to(dev)
        y = torch.cat([Y[idx], torch.tensor([FLOWERS.index(codes[i]) for i in ri])]).to(dev)
        loss = loss_fn(model(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if (step + 1) % 100 == 0:
            print(f"[{label}] step {step + 1}/{steps} loss {float(loss.detach()):.3f} {time.time() - t0:.0f}s", flush=True)
    model.eval()
    return {"steps": steps, "batch": batch, "lr": FINETUNE_LR, "real_share": round(REAL_SHARE, 3),
            "seconds": round(time.time() - t0, 1)}


def _reader_probs(model, imgs: list) -> np.ndarray:
    """The reader's probabilities for full-size BGR crops, both ways up, as vision.classify runs it."""
    return predict(model, np.stack([to_input(im, SIZE) for im in imgs]), flip=True)


def cross_validate(base_state: dict, data: dict, imgs: list, codes: list[str], k: int = CV_FOLDS,
                   seed: int = TRAIN_SEED + 1) -> dict:
    """k-fold cross-validation of the real-crop fine-tune: each fold fine-tunes the rendered-only
    reader on 4/5 of the real flowers and reads the fifth. The report keeps each crop's held-out
    probabilities (``probs``, ``FLOWERS`` order), so that two readers can be compared (or
    averaged) crop by crop."""
    fold = folds(codes, k)
    probs = np.zeros((len(codes), len(FLOWERS)), np.float32)
    for f in range(k):
        model = build_model(len(FLOWERS))
        model.load_state_dict(base_state)
        tr = [i for i in range(len(codes)) if fold[i] != f]
        te = [i for i in range(len(codes)) if fold[i] == f]
        finetune_real(model, data, [imgs[i] for i in tr], [codes[i] for i in tr], seed=seed, label=f"cv{f}")
        probs[te] = _reader_probs(model, [imgs[i] for i in te])
    pred = [FLOWERS[i] for i in probs.argmax(1)]
    wrong = [f"{c}->{p}" for c, p in zip(codes, pred) if c != p]
    return {"n": len(codes), "top1": round(float(np.mean([c == p for c, p in zip(codes, pred)])), 4),
            "confusions": {w: wrong.count(w) for w in sorted(set(wrong), key=lambda w: -wrong.count(w))},
            "codes": list(codes), "probs": np.round(probs, 5).tolist()}


def evaluate(onnx_path: Path, workers: int) -> dict:
    """The exported reader, alone and combined with the shipped tile classifier exactly as
    :func:`vision.classify.classify` does, on rendered flowers of every source and on the real
    flower crops (which both models trained on: a sanity check, not a fair test)."""
    import importlib

    C = importlib.import_module("vision.classify")  # the module (the package exports a function of that name)
    C.use_flower_model(onnx_path)
    test = _as_flowers(build_cache(WORK / "flowers-test", TEST_N, TEST_SEED, labels=FLOWERS, out_size=SIZE,
                                   workers=workers))
    real_imgs, real_codes = real_flowers()
    from .scenes import SCENE_SOURCES

    photos, camera = (build_flower_scene_cache(WORK / "flower-scenes-test", TEST_SCENE_PHOTOS, sources=SCENE_SOURCES(),
                                               size=SIZE, first_seed=TEST_SCENE_SEED, workers=workers,
                                               camera_share=share) for share in (0.0, 1.0))

    def crops_of(d: dict) -> tuple:  # a cached set as (crops, flower codes, face sources)
        return [np.ascontiguousarray(x) for x in d["x"]], [FLOWERS[i] for i in d["y"]], list(d["source"])

    sets = {"rendered": crops_of(test), "in photos": crops_of(photos), "in camera photos": crops_of(camera),
            "real": (real_imgs, real_codes, ["real"] * len(real_codes))}
    out = {}
    for name, (crops, truth, sources) in sets.items():
        if not crops:
            continue
        prepared = [C._as_bgr(c) for c in crops]
        _, first, both = C.readings(prepared)
        alone = C.flower_probabilities(prepared)
        rows = {"classifier": [C.LABELS[i] for i in first.argmax(1)],
                "with_reader": [C.LABELS[i] for i in C.choose(both)],
                "reader_alone": [FLOWERS[i] for i in alone.argmax(1)]}
        res = {}
        for src in sorted(set(sources)) + ["all"]:
            keep = [i for i, s in enumerate(sources) if src in ("all", s)]
            res[src] = {"n": len(keep), **{k: round(float(np.mean([v[i] == truth[i] for i in keep])), 4)
                                           for k, v in rows.items()}}
        out[name] = res
    return out


def card_section(report: dict) -> list[str]:
    """The model card's flower section, written from the report (never typed by hand)."""
    L = [CARD_HEADING, "",
         f"A second model of the same design over the eight flowers only, at {FLOWER_H} x {FLOWER_W} "
         "(`vision/train_flowers.py`, whose docstring says why). `vision.classify` runs it on every crop whose "
         "reading leans to a flower (a flower first, or 0.3 of the probability on flowers), both ways up, and "
         "multiplies its eight probabilities into the tile classifier's flower probabilities tempered by the power "
         f"{report['weight']} (on the real flowers the classifier's cross-validation above beats the reader's below); "
         "the crop's total probability on flowers stays the classifier's.", "",
         f"- {report['params']} parameters, {report['onnx_bytes'] / 1e6:.2f} MB ONNX; input `crops` N x 3 x "
         f"{FLOWER_H} x {FLOWER_W} BGR 0..255, output `probs` N x 8 (`1f`..`8f`).",
         f"- Data: {FLOWERS_MIXED} rendered flowers (render seed {MIXED_SEED}) from every face source but "
         f"{', '.join(f'`{s}`' for s in report['never_trained'])}, and {FLOWERS_DRAWN} of the procedural style "
         f"(render seed {DRAWN_SEED})"
         + (f"; also, {SCENE_REPEAT} times each, the {report['n_scene_flowers']} flowers the scanner cut from "
            f"{report['scene_photos']} flower-rich synthetic table photos (scene seeds from "
            f"{FIRST_FLOWER_SCENE_SEED:,}, every face source but the never-trained"
            + (f"; {report['camera_share']:.0%} of them with the tiles' bodies where the camera sees them"
               if report.get("camera_share") else "")
            + (f"; {report['shake_share']:.0%} of them taken with a phone's shake (`scene_shake`)"
               if report.get("shake_share") else "") + "; `vision/scene_crops.py`)"
            if report.get("scene_photos") else "")
         + ("; the rendered flowers streaked by a phone's shake (`--shake`)" if report.get("shake") else "")
         + f". Training seed {report.get('train_seed', TRAIN_SEED)}, {report['train']['steps']} of "
         f"{report['train']['steps_planned']} steps x batch {report['train']['batch']}, learning rate {LR}, "
         f"{report['train']['seconds'] / 60:.1f} min on {report['env']['device']} with {report['env']['threads']} "
         f"threads ({report['seconds'] / 60:.1f} min for the whole command: `{report['command']}`)."]
    ft, cv = report.get("real_finetune"), report.get("real_cv")
    if ft and cv:
        L += [f"- Then {ft['steps']} steps of the whole model on batches with {ft['real_share']:.0%} augmented real "
              f"flower crops ({cv['n']}, `../shared/data/real-tiles`), learning rate {ft['lr']} (cosine).",
              f"- Real flowers, {CV_FOLDS}-fold cross-validation of that last step (each fold fine-tunes the "
              f"rendered-only reader on 4/5 and reads the rest): reader alone **{cv['top1']:.1%}** "
              f"(rendered-only reader: {cv['rendered_only_top1']:.1%}); confusions "
              + (", ".join(f"{k}: {v}" for k, v in cv["confusions"].items()) or "none") + "."]
    else:
        L.append("- No real crops were present: the reader is trained on rendered crops only.")
    L += ["", f"Accuracy on flowers (`{report['command']}`; rendered: {TEST_N} new crops, render seed {TEST_SEED}, "
          f"every source including the never-trained one; in photos: the flowers the scanner cut from "
          f"{TEST_SCENE_PHOTOS} more flower-rich table photos, scene seeds from {TEST_SCENE_SEED:,}, every source; "
          + ("in camera photos: the same photos with the tiles' bodies where the camera sees them; "
             if "in camera photos" in report["eval"] else "") +
          "real: the real flower crops, which both models trained on, so not a fair test):", "",
          "| flowers | n | tile classifier | with the reader (shipped) | reader alone |", "| --- | --- | --- | --- | --- |"]
    for name, res in report["eval"].items():
        for src, r in res.items():
            if name == "real" and src == "all":
                continue
            L.append(f"| {'real (seen in training)' if name == 'real' else f'{name} {src}'} | {r['n']} | {r['classifier']:.1%} | {r['with_reader']:.1%} | "
                     f"{r['reader_alone']:.1%} |")
    return L + [""]


def main(argv: list[str] | None = None) -> int:
    from .classify import FLOWER_WEIGHT

    ap = argparse.ArgumentParser(description="Train the flower reader (models/flowers.onnx).")
    ap.add_argument("--steps", type=int, default=STEPS)
    ap.add_argument("--minutes", type=float, default=15.0, help="wall-clock cap of the training")
    ap.add_argument("--never", default="imahjong_can", help="face sources never trained on (comma-separated)")
    ap.add_argument("--workers", type=int, default=2, help="render processes")
    ap.add_argument("--scene-photos", type=int, default=SCENE_PHOTOS,
                    help="flower-rich table photos whose scanner crops join the training (0: rendered crops only)")
    ap.add_argument("--camera-share", type=float, default=CAMERA_SHARE,
                    help="share of those photos drawn with the tiles' bodies where the camera sees them")
    ap.add_argument("--shake", action="store_true",
                    help="train on flowers streaked by a phone's shake (vision.dataset.SHAKE_P, SHAKE_LENGTH) and "
                         "vision.scene_crops.SHAKE_SHARE of the photos taken with one; not in the shipped recipe "
                         "(docs/classifier.md)")
    ap.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    ap.add_argument("--no-real", action="store_true",
                    help="rendered crops only: no real-crop fine-tune or cross-validation (a hold-out reader, like "
                         "the classifier's stage A)")
    ap.add_argument("--seed", type=int, default=TRAIN_SEED,
                    help="training seed (the shipped reader's by default; the real-crop steps use seed + 1)")
    ap.add_argument("--out", default=str(MODELS / "flowers.onnx"))
    ap.add_argument("--card", action="store_true", help="only rewrite models/CARD.md's flower section")
    a = ap.parse_args(argv)
    report_path = REPORTS / "flowers.json"
    if a.card:
        replace_card_section(MODELS / "CARD.md", CARD_HEADING, card_section(json.loads(report_path.read_text())))
        return 0
    import torch

    torch.set_num_threads(a.threads)
    t0 = time.time()
    never = never_trained(a)
    data, n_scene = training_flowers(never, a.workers, a.scene_photos, a.camera_share, a.shake)
    print(f"{len(data['y'])} flower crops", flush=True)
    torch.manual_seed(a.seed)
    model = build_model(len(FLOWERS))
    info = train(model, data, steps=a.steps, minutes=a.minutes, lr=LR, seed=a.seed, label="flowers")
    imgs, codes = ([], []) if a.no_real else real_flowers()
    cv = real = None
    if codes:
        base = {k: v.detach().clone() for k, v in model.state_dict().items()}
        rendered_only = _reader_probs(model, imgs).argmax(1)
        cv = cross_validate(base, data, imgs, codes, seed=a.seed + 1)
        cv["rendered_only_top1"] = round(float(np.mean([FLOWERS[p] == c for p, c in zip(rendered_only, codes)])), 4)
        real = finetune_real(model, data, imgs, codes, seed=a.seed + 1)
    out = Path(a.out)
    export_onnx(model, out, SIZE)
    import sys

    given = argv if argv is not None else sys.argv[1:]
    report = {"command": " ".join(["python -m vision.train_flowers", *given]).strip(),
              "never_trained": list(never), "scene_photos": a.scene_photos, "n_scene_flowers": n_scene,
              "camera_share": a.camera_share, "shake": a.shake, "shake_share": shake_share(a.shake),
              "train_seed": a.seed, "train": info, "real_finetune": real, "real_cv": cv,
              "env": environment(), "weight": FLOWER_WEIGHT,
              "params": int(sum(p.numel() for p in model.parameters())), "onnx_bytes": out.stat().st_size,
              "eval": evaluate(out, a.workers)}
    report["seconds"] = round(time.time() - t0, 1)
    REPORTS.mkdir(parents=True, exist_ok=True)
    shipped = out.resolve() == (MODELS / "flowers.onnx").resolve()
    if not shipped:  # an experiment or a hold-out reader: its own report, and the card stays the shipped one's
        report_path = REPORTS / f"flowers_{out.stem}.json"
    report_path.write_text(json.dumps(report, indent=1))
    if shipped:
        replace_card_section(MODELS / "CARD.md", CARD_HEADING, card_section(report))
    print(json.dumps(report["eval"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
