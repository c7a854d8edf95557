"""Train the tile classifier and export ``models/tiles.onnx`` (needs the ``[train]`` extra: torch).

    python -m vision.train                       # base model on rendered crops and the scanner's crops of
                                                 # synthetic photos, fine-tune with the real crops (when
                                                 # ../shared has them), export
    python -m vision.train --cv 5                # 5-fold cross-validation on the real crops
    python -m vision.train --holdout hk_art,imahjong_can   # unseen-style test
    python -m vision.train --replica             # unseen-style test of the whole recipe (stages A, B and the
                                                 # real-crop fine-tune without the held-out sources); ships nothing
    python -m vision.train --banded              # the second reader (models/tiles_banded.onnx): the same recipe
                                                 # with a body band on a share of the rendered crops
    python -m vision.train --card                # write models/CARD.md from the saved reports (vision.model_card)

Work files live in ``.train/`` (git-ignored): the rendered caches, checkpoints and the JSON
reports the card is written from. CPU by default (2 threads); a CUDA GPU is used when present.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from .dataset import INPUT_H, INPUT_W, LABEL_INDEX, LABELS, build_cache, load_real, to_input

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / ".train"
REPORTS = WORK / "reports"
MODELS = ROOT / "models"
RENDER_SEED = 1
HOLDOUT_TEST_SEED = 3
TRAIN_SEED = 7
CHECK_SEED = 11
CHECK_N = 1000
CAMERA_SHARE = 0.0  # of the scanner's photos, the share drawn with the tiles' bodies where the camera sees them
STEPS_A, STEPS_B, BATCH = 9000, 12000, 64  # the default run: stage A, stage B, crops per step
BAND_SHARE = 0.25  # --banded: the share of rendered crops cut with a body band (vision.dataset.with_band)


def _torch():
    import torch

    return torch


def build_model(n_classes: int = len(LABELS)):
    torch = _torch()
    nn = torch.nn

    class Block(nn.Module):
        """Depthwise-separable convolution, with a residual when the shape allows."""

        def __init__(self, cin, cout, stride):
            super().__init__()
            self.dw = nn.Sequential(nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin),
                                    nn.ReLU(inplace=True))
            self.pw = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))
            self.res = stride == 1 and cin == cout

        def forward(self, x):
            y = self.pw(self.dw(x))
            return x + y if self.res else y

    class Scale(nn.Module):
        """0..255 pixels to -1..1."""

        def forward(self, x):
            return x * (1 / 127.5) - 1.0

    class TileNet(nn.Module):
        """Input: N x 3 x 72 x 54 float BGR in 0..255. Output: logits."""

        def __init__(self):
            super().__init__()
            self.scale = Scale()
            self.stem = nn.Sequential(nn.Conv2d(3, 24, 3, 2, 1, bias=False), nn.BatchNorm2d(24), nn.ReLU(inplace=True))
            cfg = [(24, 48, 1), (48, 96, 2), (96, 96, 1), (96, 160, 2), (160, 160, 1), (160, 256, 2), (256, 256, 1)]
            self.blocks = nn.Sequential(*[Block(a, b, s) for a, b, s in cfg])
            self.drop = nn.Dropout(0.2)
            self.fc = nn.Linear(256, n_classes)

        def forward(self, x):
            x = self.blocks(self.stem(self.scale(x)))
            return self.fc(self.drop(x.mean(dim=(2, 3))))

    return TileNet()


FLIP_AVERAGE = False  # averaging with the 180-degree turn costs twice the time (2.7 vs 1.1 ms/tile measured)


class Exportable:  # built lazily so that importing this module does not need torch
    @staticmethod
    def wrap(model, flip: bool = FLIP_AVERAGE):
        torch = _torch()

        class Probs(torch.nn.Module):
            """Softmax probabilities of one pass (training shows crops both ways up)."""

            def __init__(self, m):
                super().__init__()
                self.m = m

            def forward(self, x):
                return torch.softmax(self.m(x), dim=1)

        if not flip:
            return Probs(model)

        class WithFlip(torch.nn.Module):
            """Probabilities averaged over the crop and its 180-degree rotation (crops come either way up)."""

            def __init__(self, m):
                super().__init__()
                self.m = m

            def forward(self, x):
                a = torch.softmax(self.m(x), dim=1)
                b = torch.softmax(self.m(torch.flip(x, dims=(2, 3))), dim=1)
                return (a + b) * 0.5

        return WithFlip(model)


# -- data ---------------------------------------------------------------------------------

def augment_real(img: np.ndarray, rng: np.random.Generator, size: tuple[int, int] = (INPUT_H, INPUT_W)) -> np.ndarray:
    """Crop jitter, 180-degree turns, light and JPEG on one real crop (full size BGR), resized to
    ``size`` (h, w): the classifier's input by default."""
    h, w = img.shape[:2]
    # crop in up to 8% per side, or pad out up to 6% (the detector's quad is never exact)
    m = rng.uniform(-0.06, 0.08, 4) * [h, w, h, w]
    src = np.array([[m[1], m[0]], [w - m[3], m[0]], [w - m[3], h - m[2]], [m[1], h - m[2]]], np.float32)
    src += rng.normal(0, 0.012 * max(h, w), (4, 2)).astype(np.float32)
    out_h = int(rng.integers(48, 140))
    out_w = int(round(out_h * 0.75))
    dst = np.array([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]], np.float32)
    crop = cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (out_w, out_h),
                               flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    crop = crop.astype(np.float32) * rng.uniform(0.7, 1.25) * rng.uniform(0.9, 1.1, 3) + rng.uniform(-20, 20)
    crop = np.clip(crop, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.3, 1.2))
    if rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        crop = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if rng.random() < 0.5:
        crop = crop[::-1, ::-1]
    return to_input(np.ascontiguousarray(crop), size)


def jitter_rendered(x, torch, gen):
    """Cheap per-batch colour jitter on the cached crops (N,H,W,3 uint8 -> N,3,H,W float)."""
    x = x.permute(0, 3, 1, 2).float()
    n = x.shape[0]
    gain = torch.empty(n, 3, 1, 1).uniform_(0.85, 1.15, generator=gen) * torch.empty(n, 1, 1, 1).uniform_(0.8, 1.2, generator=gen)
    x = x * gain + torch.empty(n, 1, 1, 1).uniform_(-15, 15, generator=gen)
    flip = torch.rand(n, generator=gen) < 0.5
    x[flip] = torch.flip(x[flip], dims=(2, 3))
    return x.clamp_(0, 255)


def _real_arrays(imgs, codes):
    x = np.stack([to_input(im) for im in imgs]) if imgs else np.zeros((0, INPUT_H, INPUT_W, 3), np.uint8)
    y = np.array([LABEL_INDEX[c] for c in codes], np.int64)
    return x, y


# -- training -----------------------------------------------------------------------------

def device():
    torch = _torch()
    return "cuda" if torch.cuda.is_available() else "cpu"


def train(model, rendered: dict, *, steps: int, minutes: float, lr: float, batch: int = BATCH, seed: int = TRAIN_SEED,
          log_every: int = 50, label: str = "train") -> dict:
    """Train ``model`` in place on the rendered crops for ``steps`` steps (AdamW; learning rate:
    5% warm-up then cosine). Seeded, so a run that finishes its steps is reproducible.
    ``minutes`` is a wall-clock cap for slow or busy machines: the schedule follows whichever of
    steps and time is further along, so a capped run still ends its cosine on time (with fewer
    steps, which the report records)."""
    import math

    torch = _torch()
    dev = device()
    model.to(dev).train()
    gen = torch.Generator().manual_seed(seed)
    X = torch.from_numpy(rendered["x"])
    Y = torch.from_numpy(rendered["y"])
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=2e-4)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    budget = minutes * 60.0
    t0, seen, step, run_loss, run_acc = time.time(), 0, 0, 0.0, 0.0
    while True:
        frac = max((time.time() - t0) / budget, step / steps)
        if frac >= 1.0:
            break
        cur = lr * (frac / 0.05 if frac < 0.05 else 0.5 * (1 + math.cos(math.pi * (frac - 0.05) / 0.95)))
        for g in opt.param_groups:
            g["lr"] = max(cur, lr * 0.01)
        idx = torch.randint(0, len(Y), (batch,), generator=gen)
        xb, yb = jitter_rendered(X[idx], torch, gen).to(dev), Y[idx].to(dev)
        out = model(xb)
        loss = loss_fn(out, yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        seen += len(yb)
        step += 1
        lv, av = float(loss.detach()), float((out.argmax(1) == yb).float().mean())
        run_loss, run_acc = (0.95 * run_loss + 0.05 * lv, 0.95 * run_acc + 0.05 * av) if step > 1 else (lv, av)
        if step % log_every == 0:
            el = time.time() - t0
            print(f"[{label}] step {step} loss {run_loss:.3f} acc {run_acc:.3f} lr {cur:.2e} "
                  f"{seen / el:.0f} img/s {el:.0f}s", flush=True)
    model.eval()
    return {"steps": step, "steps_planned": steps, "batch": batch, "lr": lr, "minutes_budget": minutes,
            "seconds": round(time.time() - t0, 1), "images": seen}


FT_FROM = 3  # fine-tuning trains blocks[FT_FROM:] and the classifier (7 blocks in all)


def _split(model, k: int = FT_FROM):
    """(trunk, head blocks) of a TileNet: the head is blocks[k:] (then the classifier)."""
    torch = _torch()
    trunk = torch.nn.Sequential(model.scale, model.stem, *list(model.blocks)[:k])
    return trunk, list(model.blocks)[k:]


def _head_forward(model, feats, k: int = FT_FROM):
    x = feats
    for blk in list(model.blocks)[k:]:
        x = blk(x)
    return model.fc(model.drop(x.mean(dim=(2, 3))))


def rendered_features(model, rendered: dict, n: int = 3000, seed: int = TRAIN_SEED + 2, k: int = FT_FROM):
    """Trunk features (frozen) of ``n`` jittered rendered crops, shared by every fine-tune."""
    torch = _torch()
    gen = torch.Generator().manual_seed(seed)
    idx = torch.randperm(len(rendered["y"]), generator=gen)[:n]
    trunk, _ = _split(model, k)
    trunk.eval()
    feats = []
    with torch.no_grad():
        for i in range(0, len(idx), 256):
            xb = jitter_rendered(torch.from_numpy(rendered["x"][idx[i: i + 256].numpy()]), torch, gen)
            feats.append(trunk(xb.to(device())).cpu())
    return torch.cat(feats), torch.from_numpy(rendered["y"][idx.numpy()])


def finetune(model, feats, real, *, steps: int, lr: float = 1e-3, batch: int = 96, real_share: float = 1 / 3,
             seed: int = TRAIN_SEED + 1, label: str = "finetune", k: int = FT_FROM) -> dict:
    """Fine-tune the head (blocks[k:] + classifier) on rendered trunk features plus augmented
    real crops, the trunk (the stem and blocks[:k]) frozen. ``real`` = (BGR images, codes)."""
    import math

    torch = _torch()
    dev = device()
    trunk, head_blocks = _split(model, k)
    trunk.eval()
    for p in trunk.parameters():
        p.requires_grad_(False)
    params = [p for b in head_blocks for p in b.parameters()] + list(model.fc.parameters())
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=2e-4)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    F, FY = feats
    n_real = int(round(batch * real_share))
    imgs, codes = real
    t0 = time.time()
    for b in head_blocks:
        b.train()
    model.drop.train()
    for step in range(steps):
        for g in opt.param_groups:
            g["lr"] = lr * 0.5 * (1 + math.cos(math.pi * step / steps))
        idx = torch.randint(0, len(FY), (batch - n_real,), generator=gen)
        ri = rng.integers(0, len(imgs), n_real)
        xr = torch.from_numpy(np.stack([augment_real(imgs[i], rng) for i in ri])).permute(0, 3, 1, 2).float()
        with torch.no_grad():
            fr = trunk(xr.to(dev))
        x = torch.cat([F[idx].to(dev), fr])
        y = torch.cat([FY[idx], torch.tensor([LABEL_INDEX[codes[i]] for i in ri])]).to(dev)
        loss = loss_fn(_head_forward(model, x, k), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if (step + 1) % 50 == 0:
            print(f"[{label}] step {step + 1}/{steps} loss {float(loss.detach()):.3f} {time.time() - t0:.0f}s", flush=True)
    for p in trunk.parameters():
        p.requires_grad_(True)
    model.eval()
    return {"steps": steps, "batch": batch, "lr": lr, "real_share": round(real_share, 3),
            "rendered_features": int(len(FY)), "seconds": round(time.time() - t0, 1),
            "trained": f"the last {len(head_blocks)} of 7 blocks + the classifier"}


def predict(model, x: np.ndarray, batch: int = 512, flip: bool = FLIP_AVERAGE) -> np.ndarray:
    """Probabilities, computed exactly as the exported model does (``flip`` asks for the other
    setting, to compare), for N,H,W,3 uint8 inputs."""
    torch = _torch()
    dev = device()
    wrapped = Exportable.wrap(model, flip).to(dev).eval()
    outs = []
    with torch.no_grad():
        for i in range(0, len(x), batch):
            xb = torch.from_numpy(x[i: i + batch]).permute(0, 3, 1, 2).float().to(dev)
            outs.append(wrapped(xb).cpu().numpy())
    return np.concatenate(outs) if outs else np.zeros((0, len(LABELS)), np.float32)


def score(probs: np.ndarray, y: np.ndarray, pred: np.ndarray | None = None) -> dict:
    """Top-1 and top-3 accuracy, per class and with the confusions, of ``probs`` against labels
    ``y``; ``pred``: the kinds named where they are not simply the likeliest (``classify.choose``)."""
    pred = probs.argmax(1) if pred is None else pred
    per_class: dict[str, list[int]] = {}
    confusions: dict[str, int] = {}
    for t, p in zip(y, pred):
        tc, pc = LABELS[t], LABELS[p]
        c = per_class.setdefault(tc, [0, 0])
        c[0] += int(t == p)
        c[1] += 1
        if t != p:
            confusions[f"{tc}->{pc}"] = confusions.get(f"{tc}->{pc}", 0) + 1
    top3 = [[p, *[k for k in row if k != p][:2]] for p, row in zip(pred, np.argsort(-probs, 1)[:, :3])]
    return {"n": int(len(y)), "top1": float((pred == y).mean()) if len(y) else 0.0,
            "top3": float(np.mean([t in row for t, row in zip(y, top3)])) if len(y) else 0.0,
            "per_class": per_class, "confusions": dict(sorted(confusions.items(), key=lambda kv: -kv[1]))}


def export_onnx(model, path: Path, size: tuple[int, int] = (INPUT_H, INPUT_W)) -> None:
    """Export ``model`` (softmax probabilities, input N x 3 x ``size``) as one self-contained file."""
    torch = _torch()
    wrapped = Exportable.wrap(model).cpu().eval()
    dummy = torch.zeros(1, 3, *size)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.onnx")
    kwargs = dict(input_names=["crops"], output_names=["probs"], opset_version=17,
                  dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}})
    try:
        torch.onnx.export(wrapped, (dummy,), str(tmp), dynamo=False, **kwargs)
    except TypeError:  # older torch without the dynamo switch
        torch.onnx.export(wrapped, (dummy,), str(tmp), **kwargs)
    import onnx

    m = onnx.load(str(tmp))  # fold any external data into the single file
    onnx.save_model(m, str(path), save_as_external_data=False)
    tmp.unlink(missing_ok=True)
    data = tmp.with_suffix(".onnx.data")
    if data.exists():
        data.unlink()


def _save_report(name: str, report: dict) -> None:
    REPORTS.mkdir(parents=True, exist_ok=True)
    if report.get("command", "").startswith("python -m vision.train"):
        report["command"] = " ".join(["python -m vision.train", *sys.argv[1:]]).strip()
    (REPORTS / f"{name}.json").write_text(json.dumps(report, indent=1))


def environment() -> dict:
    torch = _torch()
    return {"torch": torch.__version__, "device": device(), "threads": torch.get_num_threads(),
            "python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count()}


def rendered_data(n: int, workers: int, band: float = 0.0, shake: bool = False):
    t0 = time.time()
    print(f"rendering/loading {n} crops (seed {RENDER_SEED}{f', body bands on {band:.0%}' if band else ''}"
          f"{', streaked by a shake' if shake else ''}) ...", flush=True)
    d = build_cache(WORK / "rendered", n, RENDER_SEED, workers=workers, band=band, shake=shake)
    return d, time.time() - t0


def never_trained(a) -> tuple[str, ...]:
    from .faces import FACE_SOURCES

    return tuple(s for s in a.never.split(",") if s and s in FACE_SOURCES)


def held_out_sources(a) -> tuple[str, ...]:
    """The face sources a hold-out model never trains on: ``--holdout`` and ``--never``, those present."""
    from .faces import FACE_SOURCES

    return tuple(dict.fromkeys(s for s in (*a.holdout.split(","), *never_trained(a)) if s and s in FACE_SOURCES))


def training_data(a) -> tuple[dict, dict]:
    """Every synthetic training crop: the rendered crops plus the scanner's own crops of ``a.scenes``
    synthetic photos (:mod:`vision.scene_crops`), without the never-trained face sources.
    Returns (data, facts for the report)."""
    from .faces import FACE_SOURCES
    from .scene_crops import FIRST_SCENE_SEED, build_scene_cache, shake_share

    never = never_trained(a)
    shaken_share = shake_share(a.shake)
    data, t_render = rendered_data(a.n, a.workers, a.band, a.shake)
    facts = {"render_seconds": round(t_render, 1), "n_rendered_all": int(len(data["y"])), "never_trained": list(never)}
    if never:  # a style no stage ever trains on: the scenes' unseen style for the shipped model
        data = _without_sources(data, never)
        print(f"never trained on {never}: {len(data['y'])} of {facts['n_rendered_all']} crops kept", flush=True)
    facts["n_rendered"] = int(len(data["y"]))
    if a.scenes > 0:
        t0 = time.time()
        print(f"scanning/loading {a.scenes} synthetic photos ...", flush=True)
        sc = build_scene_cache(WORK / "scenes", a.scenes, sources=tuple(s for s in FACE_SOURCES if s not in never),
                               workers=a.workers, camera_share=a.camera_share, shake_share=shaken_share)
        data = {k: np.concatenate([data[k], sc[k]]) for k in data}
        facts.update(scene_photos=a.scenes, scene_first_seed=FIRST_SCENE_SEED, n_scene_crops=int(len(sc["y"])),
                     n_scene_rejects=int((sc["y"] == LABEL_INDEX["reject"]).sum()),
                     scene_seconds=round(time.time() - t0, 1), scene_camera_share=a.camera_share,
                     scene_shake_share=shaken_share)
    facts["shake"] = a.shake
    return data, facts


def rendered_checkset(n: int = CHECK_N, seed: int = CHECK_SEED, workers: int = 2) -> dict:
    return build_cache(WORK / "check", n, seed, workers=workers)


def unseen_scores(model, unseen: dict) -> dict:
    """``unseen`` (per source) and ``unseen_all`` (every source together): ``score`` of ``model`` on the
    held-out sources' test sets (``_unseen_sets``)."""
    return {"unseen": {s: score(predict(model, d["x"]), d["y"]) for s, d in unseen.items()},
            "unseen_all": score(predict(model, np.concatenate([d["x"] for d in unseen.values()])),
                                np.concatenate([d["y"] for d in unseen.values()]))}


def _unseen_sets(held, n_each: int, workers: int) -> dict:
    from .faces import SOURCE_CODES

    out = {}
    for s in held:
        codes = tuple(c for c in LABELS if c in SOURCE_CODES[s])
        out[s] = build_cache(WORK / "unseen", n_each, HOLDOUT_TEST_SEED, only=(s,), labels=codes, workers=workers)
    return out


def cmd_main(a) -> int:
    """Stage A: train from scratch without the held-out face sources and measure them as unseen
    styles; stage B: continue on every source (the rendered-only base model); stage C: fine-tune
    the head with the real crops and export."""
    torch = _torch()
    torch.manual_seed(a.seed)
    t_all = time.time()
    held = held_out_sources(a)
    data, facts = training_data(a)
    check = rendered_checkset(workers=a.workers)
    files, imgs, codes = load_real()
    real_x, real_y = _real_arrays(imgs, codes)
    model = build_model()
    env = environment()
    history: list = []
    if a.finetune_only:  # redo only the fine-tune of .train/base.pt
        model.load_state_dict(torch.load(WORK / f"{a.prefix}base.pt"))
        return _finetune_and_ship(a, model, data, check, (imgs, codes, real_x, real_y), t_all, env)
    if a.resume:  # continue stage B from .train/base.pt (a longer run in pieces)
        prev = json.loads((REPORTS / f"{a.prefix}base.json").read_text())
        history = prev.get("history") or [prev["train"]]
        model.load_state_dict(torch.load(WORK / f"{a.prefix}base.pt"))
        held = ()
        info_a = prev.get("stage_a")
    if held:
        sub = _without_sources(data, held)
        print(f"stage A: {len(sub['y'])} of {len(data['y'])} crops, without {held}", flush=True)
        info_a = train(model, sub, steps=a.steps_a, minutes=a.minutes_a, lr=a.lr, seed=a.seed, label="A-holdout")
        torch.save(model.state_dict(), WORK / f"{a.prefix}stage_a.pt")
        export_onnx(model, WORK / f"{a.prefix}stage_a.onnx")  # for the unseen-style scan bench (bench/scan_accuracy.py)
        unseen = _unseen_sets(held, a.holdout_test_n, a.workers)
        rep = {"command": "python -m vision.train", "held_out": list(held), "train": info_a,
               "n_rendered": len(sub["y"]), "render_seed": RENDER_SEED, "test_seed": HOLDOUT_TEST_SEED,
               **unseen_scores(model, unseen),
               "real_rendered_only": score(predict(model, real_x), real_y) if len(real_y) else None, "env": env}
        _save_report(f"{a.prefix}holdout", rep)
        print("unseen-style top-1: " + ", ".join(f"{s} {r['top1']:.4f}" for s, r in rep["unseen"].items())
              + f", all {rep['unseen_all']['top1']:.4f}"
              + (f"; real {rep['real_rendered_only']['top1']:.4f}" if len(real_y) else ""), flush=True)
        if a.provisional:
            export_onnx(model, MODELS / a.onnx)
            (MODELS / "labels.json").write_text(json.dumps(list(LABELS)) + "\n")
            print(f"exported the stage A model as a provisional models/{a.onnx}", flush=True)
    info_b = train(model, data, steps=a.steps_b, minutes=a.minutes_b, lr=a.lr * (0.5 if held or a.resume else 1.0), label="B-all",
                   seed=a.seed + 3 + len(history))
    history.append(info_b)
    torch.save(model.state_dict(), WORK / f"{a.prefix}base.pt")
    base = {"command": "python -m vision.train", "stage_a": info_a if held or a.resume else None, "train": info_b,
            "history": history, **facts, "render_seed": RENDER_SEED,
            "train_seed": a.seed, "check": score(predict(model, check["x"]), check["y"]),
            "real": score(predict(model, real_x), real_y) if len(real_y) else None, "env": env}
    _save_report(f"{a.prefix}base", base)
    print(f"base: rendered check {base['check']['top1']:.4f}"
          + (f", real {base['real']['top1']:.4f} (rendered-data only)" if base["real"] else ""), flush=True)
    return _finetune_and_ship(a, model, data, check, (imgs, codes, real_x, real_y), t_all, env)


def cmd_replica(a) -> int:
    """The unseen-style figure of the whole shipped recipe: stage A, stage B and the real-crop
    fine-tune, each exactly as ``cmd_main`` runs them (same steps, learning rates and seeds when
    ``--replica-seed`` is left out: the main run's seed, from its base report), but never on a
    crop of the held-out face sources. The real crops are product photos of other sets, none of
    them a held-out source's face, so the model still never saw a held-out style: it is the
    hold-out of everything the shipped model learnt from, where stage A alone (the main run's
    hold-out model) leaves out stage B and the real crops. Exports ``.train/replica.onnx`` (for
    ``bench/unseen_style.py``, with a flower reader trained with the same sources left out) and
    writes the ``replica`` report, which the card shows beside stage A's figures. Not part of
    the shipped model's command: it trains as long again, with wall-clock caps of an hour a
    stage."""
    torch = _torch()
    held = held_out_sources(a)
    if not held:
        print("no held-out face source is present: nothing to replicate", file=sys.stderr)
        return 1
    t_all = time.time()
    data, _ = training_data(a)
    sub = _without_sources(data, held)
    files, imgs, codes = load_real()
    seed = _base_seed() if a.replica_seed is None else a.replica_seed
    torch.manual_seed(seed)
    model = build_model()
    print(f"replica: {len(sub['y'])} of {len(data['y'])} crops, without {held}, seed {seed}", flush=True)
    info_a = train(model, sub, steps=a.steps_a, minutes=60, lr=a.lr, seed=seed, label="R-A")
    info_b = train(model, sub, steps=a.steps_b, minutes=60, lr=a.lr * 0.5, seed=seed + 3, label="R-B")
    ft = _real_finetune(a, model, sub, (imgs, codes), seed=seed + 1, label="R-finetune")
    export_onnx(model, WORK / "replica.onnx")
    unseen = _unseen_sets(held, a.holdout_test_n, a.workers)
    rep = {"command": "python -m vision.train --replica",  # _save_report writes the run's own arguments
           "held_out": list(held), "seed": seed, "stages": [info_a, info_b], "finetune": ft,
           "n_rendered": len(sub["y"]), "test_seed": HOLDOUT_TEST_SEED,
           **unseen_scores(model, unseen), "total_seconds": round(time.time() - t_all, 1), "env": environment()}
    _save_report("replica" if seed == _base_seed() else f"replica_{seed}", rep)
    print("replica unseen-style top-1: " + ", ".join(f"{s} {r['top1']:.4f}" for s, r in rep["unseen"].items())
          + f", all {rep['unseen_all']['top1']:.4f}", flush=True)
    return 0


def _without_sources(data: dict, sources: tuple[str, ...]) -> dict:
    """The training crops whose face came from none of ``sources``."""
    keep = ~np.isin(data["source"], np.array(sources))
    return {k: v[keep] for k, v in data.items()}


def _real_finetune(a, model, data: dict, real, **kw) -> dict | None:
    """The real-crop fine-tune of the recipe (``a``'s steps, trunk depth and real share) on the
    rendered crops ``data`` and ``real`` = (images, codes); None without real crops or steps.
    ``kw``: ``finetune``'s seed and label."""
    imgs, codes = real
    if not codes or a.finetune_steps <= 0:
        return None
    seed = kw.pop("seed", a.seed + 1)  # the fine-tune's seed; its rendered features take the next one
    feats = rendered_features(model, data, seed=seed + 1, k=a.ft_from)
    return finetune(model, feats, (imgs, codes), steps=a.finetune_steps, k=a.ft_from, real_share=a.real_share,
                    seed=seed, **kw)


def _finetune_and_ship(a, model, data, check, real, t_all, env) -> int:
    """Fine-tune with ``real`` = (images, codes, model inputs, labels) of the real crops, export, report."""
    imgs, codes, real_x, real_y = real
    ft = _real_finetune(a, model, data, (imgs, codes))
    export_onnx(model, MODELS / a.onnx)
    (MODELS / "labels.json").write_text(json.dumps(list(LABELS)) + "\n")
    ship = {"command": "python -m vision.train", "finetune": ft,
            "check": score(predict(model, check["x"]), check["y"]),
            "real_seen_in_training": score(predict(model, real_x), real_y) if len(real_y) and ft else None,
            "total_seconds": round(time.time() - t_all, 1), "onnx_bytes": (MODELS / a.onnx).stat().st_size,
            "params": int(sum(p.numel() for p in model.parameters())), "env": env}
    _save_report(f"{a.prefix}ship", ship)
    # vision.model_card reads this module's recipe constants, so it is imported where it is used
    from .model_card import BANDED_HEADING, banded_card_section, banded_reports, replace_card_section

    banded = banded_reports(REPORTS) if a.banded else None
    if banded:  # (a --resume run without its own stage A reuses the hold-out report of an earlier run)
        replace_card_section(MODELS / "CARD.md", BANDED_HEADING, banded_card_section(*banded))
    print(f"shipped models/{a.onnx} ({ship['onnx_bytes']} bytes, {ship['params']} params), "
          f"check {ship['check']['top1']:.4f}, total {ship['total_seconds']:.0f}s", flush=True)
    return 0


def folds(codes: list[str], k: int, seed: int = 5) -> np.ndarray:
    """Stratified fold number of each real crop."""
    rng = np.random.default_rng(seed)
    out = np.zeros(len(codes), np.int64)
    by_class: dict[str, list[int]] = {}
    for i, c in enumerate(codes):
        by_class.setdefault(c, []).append(i)
    start = 0
    for c in sorted(by_class):
        idx = rng.permutation(by_class[c])
        for j, i in enumerate(idx):
            out[i] = (start + j) % k
        start += len(idx)
    return out


def _base_seed() -> int:
    """The training seed of ``.train/base.pt``'s run (its report; the default seed before runs recorded it)."""
    path = REPORTS / "base.json"
    return int(json.loads(path.read_text()).get("train_seed", TRAIN_SEED)) if path.exists() else TRAIN_SEED


def cmd_cv(a) -> int:
    """k-fold cross-validation of the fine-tuning step: each fold fine-tunes the rendered-only base
    model (``.train/base.pt``) exactly as the shipped model was, on 4/5 of the real crops."""
    torch = _torch()
    files, imgs, codes = load_real()
    if not codes:
        print("no real crops (../shared/data/real-tiles is absent): nothing to cross-validate", file=sys.stderr)
        return 1
    base_ckpt = WORK / "base.pt"
    if not base_ckpt.exists():
        print("run `python -m vision.train` first (the folds fine-tune its rendered-only base model)", file=sys.stderr)
        return 1
    data, _ = training_data(a)
    model = build_model()
    model.load_state_dict(torch.load(base_ckpt))
    seed = _base_seed()  # each fold fine-tunes with the seeds the base model's own fine-tune used
    feats = rendered_features(model, data, seed=seed + 2, k=a.ft_from)
    fold = folds(codes, a.cv)
    probs = np.zeros((len(codes), len(LABELS)), np.float32)
    probs_other = np.zeros_like(probs)  # the same folds scored with the other flip setting
    infos = []
    t0 = time.time()
    for f in range(a.cv):
        model = build_model()
        model.load_state_dict(torch.load(base_ckpt))
        tr = [i for i in range(len(codes)) if fold[i] != f]
        te = [i for i in range(len(codes)) if fold[i] == f]
        info = finetune(model, feats, ([imgs[i] for i in tr], [codes[i] for i in tr]), steps=a.finetune_steps,
                        real_share=a.real_share, seed=seed + 1,
                        label=f"cv{f}", k=a.ft_from)
        x, _ = _real_arrays([imgs[i] for i in te], [codes[i] for i in te])
        probs[te] = predict(model, x)
        probs_other[te] = predict(model, x, flip=not FLIP_AVERAGE)
        acc = float((probs[te].argmax(1) == np.array([LABEL_INDEX[codes[i]] for i in te])).mean())
        print(f"fold {f}: {acc:.4f} on {len(te)}", flush=True)
        infos.append({"fold": f, "n_test": len(te), "top1": acc, "train": info})
    y = np.array([LABEL_INDEX[c] for c in codes])
    other = score(probs_other, y)
    rep = {"command": f"python -m vision.train --cv {a.cv}", "folds": infos, "overall": score(probs, y),
           "other_flip_setting": {"flip_average": not FLIP_AVERAGE, "top1": other["top1"], "top3": other["top3"]},
           "seconds": round(time.time() - t0, 1), "fold_seed": 5, "train_seed": seed,
           "wrong": [{"file": files[i], "tile": codes[i], "pred": LABELS[int(probs[i].argmax())]}
                     for i in range(len(codes)) if probs[i].argmax() != y[i]], "env": environment()}
    _save_report("cv", rep)
    print(f"{a.cv}-fold CV top-1 {rep['overall']['top1']:.4f} "
          f"(with flip averaging {'off' if FLIP_AVERAGE else 'on'}: {other['top1']:.4f})", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Train the tile classifier.")
    ap.add_argument("--n", type=int, default=60000, help="rendered training crops (cached in .train/rendered)")
    ap.add_argument("--scenes", type=int, default=600,
                    help="synthetic photos whose scanner crops join the training data (cached in .train/scenes)")
    ap.add_argument("--camera-share", type=float, default=CAMERA_SHARE,
                    help="share of those photos drawn with the tiles' bodies where the camera sees them "
                         "(vision.scene_crops.scene_bodies)")
    ap.add_argument("--shake", action="store_true",
                    help="train on crops streaked by a phone's shake (vision.dataset.SHAKE_P, SHAKE_LENGTH) and with "
                         "vision.scene_crops.SHAKE_SHARE of those photos taken with one (scene_shake); not in the "
                         "shipped recipe (docs/classifier.md)")
    ap.add_argument("--steps-a", type=int, default=STEPS_A, help="stage A steps (without the held-out sources)")
    ap.add_argument("--steps-b", type=int, default=STEPS_B, help="stage B steps (all sources)")
    # the caps only stop a stage early on a machine too slow for its steps: on a 2-core machine
    # training at 680-800 images a second, caps of 9 and 11 minutes cut both stages short
    ap.add_argument("--minutes-a", type=float, default=40.0, help="stage A wall-clock cap")
    ap.add_argument("--minutes-b", type=float, default=50.0, help="stage B wall-clock cap")
    ap.add_argument("--finetune-steps", type=int, default=600)
    ap.add_argument("--ft-from", type=int, default=FT_FROM, help="fine-tune blocks from this one on (0-6)")
    ap.add_argument("--real-share", type=float, default=1 / 3, help="share of real crops in each fine-tune batch")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--holdout", default="hk_art,imahjong_can", help="face sources held out of stage A ('' for none)")
    ap.add_argument("--never", default="imahjong_can",
                    help="face sources left out of every stage, so that the shipped model has never seen them "
                         "(the table-scan bench's unseen style); they are held out of stage A too ('' for none)")
    ap.add_argument("--holdout-test-n", type=int, default=500)
    ap.add_argument("--provisional", action="store_true", help="also export the stage A model as soon as it is done")
    ap.add_argument("--finetune-only", action="store_true", help="only fine-tune .train/base.pt again and export")
    ap.add_argument("--resume", action="store_true", help="skip stage A; train stage B further from .train/base.pt")
    ap.add_argument("--workers", type=int, default=2, help="render processes")
    ap.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    ap.add_argument("--cv", type=int, default=0, help="k-fold cross-validation on the real crops (after a main run)")
    ap.add_argument("--replica", action="store_true",
                    help="measure the unseen styles on the whole recipe (stages A and B and the real-crop fine-tune) "
                         "trained without the held-out sources; exports .train/replica.onnx, ships nothing")
    ap.add_argument("--seed", type=int, default=TRAIN_SEED,
                    help="training seed of the main run (its stages, its fine-tune and the fine-tune's rendered "
                         "features; --cv reuses the seed of the base model it cross-validates)")
    ap.add_argument("--replica-seed", type=int, default=None,
                    help="training seed of --replica (default: the main run's, read from its base report)")
    ap.add_argument("--banded", action="store_true",
                    help=f"train the second reader instead: the same recipe with a body band on {BAND_SHARE:.0%}% of the "
                         "rendered crops, exported as models/tiles_banded.onnx (reports and checkpoints named banded_*)")
    ap.add_argument("--card", action="store_true", help="write models/CARD.md from .train/reports")
    a = ap.parse_args(argv)
    a.band, a.prefix, a.onnx = (BAND_SHARE, "banded_", "tiles_banded.onnx") if a.banded else (0.0, "", "tiles.onnx")
    if a.banded and (a.cv or a.replica or a.card):
        ap.error("--banded trains and ships the second reader; it does not combine with --cv, --replica or --card")
    if a.card:
        from .model_card import write_card

        write_card(REPORTS, MODELS / "CARD.md")
        return 0
    torch = _torch()
    torch.set_num_threads(a.threads)
    cv2.setNumThreads(1)
    if a.cv:
        return cmd_cv(a)
    if a.replica:
        return cmd_replica(a)
    return cmd_main(a)


if __name__ == "__main__":
    raise SystemExit(main())
