"""Classifier training crops cut out of synthetic table photos by the scanner itself.

The rendered crops of :mod:`vision.dataset` imitate what the detector cuts; these *are* what it
cuts. Each photo comes from :func:`vision.scenes.make_scene`, goes through the real
:func:`vision.scan.scan` (decode at reduced size, detection, rectification), and every candidate
the scanner would hand to the classifier is kept with its label from the scene's truth: the true
tile within 0.3 face heights of the candidate's centre (the rule of
:func:`vision.scenes.truth_classifier`), else ``reject``. So the model also learns the scanner's
own mistakes: half-tile cuts, empty table beyond a row's end, clutter.

Scene seeds start at :data:`FIRST_SCENE_SEED`, far from the development (below 1,000) and
acceptance (500,000 up) seeds of ``bench/scan_accuracy.py``.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from engine.tiles import FLOWERS, format_tiles

from .classify import INPUT_H, INPUT_W, to_input

FIRST_SCENE_SEED = 10_000_000
FIRST_FLOWER_SCENE_SEED = 20_000_000  # the flower reader's photos (:func:`flower_scene_crops`)
SCENES_PER_CHUNK = 20
WIDTHS = (1600, 2016)  # phone photos are decoded at reduced size; bigger ones cost render time only
# A phone's shake in the photos a reader trains on (:func:`scene_shake`): 0.1-0.6% of the long side
# (docs/vision.md, "A stronger shake": the scan read 99, 96, 89 and 63 of 100 scenes at none, 0.25%,
# 0.35% and 0.5% with readers that had seen little of it)
SHAKE = (0.001, 0.006)
SHAKE_SHARE = 0.25  # a trainer's --shake: the share of its photos taken with a shake


def shake_share(shake: bool) -> float:
    """The share of a trainer's scanner photos taken with a shake: ``SHAKE_SHARE`` with its
    ``--shake``, none without (the shipped recipe)."""
    return SHAKE_SHARE if shake else 0.0


# The modules whose code decides which crops a photo gives: the photo itself and the scanner's
# cuts, with every module of this package that they import (:func:`scanner_modules`).
SCANNER_MODULES = ("scenes.py", "scan.py")


def scanner_modules() -> list[Path]:
    """The files of ``SCANNER_MODULES`` (paths in this package, or absolute), of the package itself
    and of every module of this package they import, at any depth and wherever in the module the
    import sits (the scan imports the classifier inside a function), read off their source: the
    same list in any process, whatever else it has imported. (Until 2026-11-29 the list was five
    files by hand; the detector's steps had moved into modules of their own that it no longer
    covered.)"""
    import ast

    here = Path(__file__).resolve().parent
    todo = [here / "__init__.py"] + [here / name for name in SCANNER_MODULES]  # the package's own runs first
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        if not path.parent.is_relative_to(here):  # a file given by an absolute path: its own code only
            continue
        for node in ast.walk(ast.parse(path.read_bytes())):
            if not isinstance(node, ast.ImportFrom) or node.level == 0:
                continue
            target = path.parents[node.level - 1].joinpath(*(node.module.split(".") if node.module else []))
            # ``from .x import y``: module x, or y a module of package x
            todo += [target.with_suffix(".py"), target / "__init__.py"]
            todo += [target / a.name / "__init__.py" for a in node.names] + [target / f"{a.name}.py" for a in node.names]
    return sorted(seen)


def scanner_fingerprint() -> str:
    """A short hash of the scene and scanner code (:func:`scanner_modules`), so that cached crops are
    made again after a detector change (the face renderer is versioned by hand in
    :func:`vision.dataset.build_cache`)."""
    import hashlib

    here = Path(__file__).resolve().parent
    h = hashlib.sha1()
    for path in scanner_modules():
        h.update(str(path.relative_to(here) if path.is_relative_to(here) else path.name).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:10]


def scene_bodies(seed: int, camera_share: float) -> str:
    """How photo ``seed`` draws its tiles' bodies (:func:`vision.scenes.make_scene`): ``"camera"``
    (where the camera sees them) for ``camera_share`` of each ten consecutive seeds, else ``"sprite"``."""
    return "camera" if seed % 10 < round(10 * camera_share) else "sprite"


def scene_shake(seed: int, share: float) -> float | None:
    """The shake photo ``seed`` is taken with (:func:`vision.scenes.make_scene`'s ``shake``): for
    ``share`` of each twenty consecutive seeds a streak of ``SHAKE`` (a share of the long side, drawn
    from the seed), else none."""
    if seed % 20 >= round(20 * share):
        return None
    return float(np.random.default_rng([seed, 5]).uniform(*SHAKE))


def _shake_key(share: float) -> str:
    """The part of a scene cache's key that says ``share`` of its photos were taken with a shake
    (``SHAKE``); none without one, so that the keys stay those made before the shake."""
    return f" shake={share:g}{SHAKE}" if share else ""


def scene_crops(seed: int, *, width: int = 1600, sources: tuple[str, ...] | None = None, hand: dict | None = None,
                size: tuple[int, int] = (INPUT_H, INPUT_W), only: tuple[str, ...] | None = None,
                bodies: str = "sprite", shake: float | None = None):
    """The classifier inputs the scanner makes from one synthetic photo, with their labels.

    ``hand``: the photo's hand (:func:`vision.scenes.parse_hand` form; default random), ``size``:
    the model input (h, w) the crops are resized to, ``only``: the labels to keep (default all),
    ``bodies``: the scene's tile bodies and ``shake`` its camera's shake (:func:`vision.scenes.make_scene`).
    Returns (crops N x h x w x 3 uint8, labels, the scene's face source)."""
    from .scan import scan
    from .scenes import make_scene, truth_classifier

    data, truth = make_scene(seed, width=width, sources=sources, hand=hand, bodies=bodies, shake=shake)
    name = truth_classifier(truth)
    crops, labels = [], []

    def keep(cands, quads):
        for crop, r in zip(cands, name(cands, quads)):
            if only is None or r["tile"] in only:
                crops.append(to_input(crop, size))
                labels.append(r["tile"])
        return [{"tile": "reject"} for _ in cands]  # nothing to group: only the crops are wanted

    scan(data, classify_fn=keep)
    x = np.stack(crops) if crops else np.zeros((0, *size, 3), np.uint8)
    return x, labels, truth["params"]["source"]


def _chunk(args):
    """The crops of one chunk of photos: ``args`` = (chunk index, sources, first scene seed,
    whether flower-rich photos and their flowers only, at ``size``, the share of photos drawn with
    camera bodies, the share of photos taken with a shake)."""
    import cv2

    from .dataset import LABEL_INDEX

    index, sources, first_seed, flowers, size, camera_share, shake_share = args
    cv2.setNumThreads(1)
    xs, ys, srcs = [], [], []
    for k in range(SCENES_PER_CHUNK):
        seed = first_seed + index * SCENES_PER_CHUNK + k
        width = WIDTHS[seed % len(WIDTHS)]
        bodies, shake = scene_bodies(seed, camera_share), scene_shake(seed, shake_share)
        if flowers:
            x, labels, src = flower_scene_crops(seed, width=width, sources=sources, size=size, bodies=bodies,
                                                shake=shake)
        else:
            x, labels, src = scene_crops(seed, width=width, sources=sources, bodies=bodies, shake=shake)
        xs.append(x)
        ys.extend(FLOWERS.index(c) if flowers else LABEL_INDEX[c] for c in labels)
        srcs.extend([src] * len(labels))
    return np.concatenate(xs), np.array(ys, np.int16), srcs


def build_scene_cache(path: str | os.PathLike, n_scenes: int, *, sources: tuple[str, ...] | None = None,
                      workers: int = 2, camera_share: float = 0.0, shake_share: float = 0.0) -> dict:
    """Crops from ``n_scenes`` photos (rounded up to chunks of 20), cached per chunk under ``path``.

    ``sources``: the face styles the scenes may draw from (default: every one available);
    ``camera_share``: the share of photos drawn with camera bodies (:func:`scene_bodies`);
    ``shake_share``: the share taken with a shake (:func:`scene_shake`).
    Returns ``{"x", "y" (label indices), "source"}`` like :func:`vision.dataset.build_cache`."""
    from .dataset import LABELS, RENDER_VERSION, cached_chunks

    key = (f"scenes sources={sorted(sources) if sources else None} n_labels={len(LABELS)} "
           f"scanner={scanner_fingerprint()} faces={RENDER_VERSION} camera={camera_share:g}"
           f"{_shake_key(shake_share)} v2")
    jobs = [(i, sources, FIRST_SCENE_SEED, False, None, camera_share, shake_share)
            for i in range(-(-n_scenes // SCENES_PER_CHUNK))]
    return cached_chunks(path, key, jobs, _chunk, workers=workers, what="scanned photos", per_chunk=SCENES_PER_CHUNK)


def flower_hand(seed: int) -> dict:
    """A random hand (:func:`vision.scenes.random_hand`) with four to eight flowers set aside, in
    :func:`vision.scenes.parse_hand`'s form: a photo that gives the flower reader many crops."""
    from .scenes import random_hand

    rng = np.random.default_rng(seed)
    hand = random_hand(rng)
    prefix = {"concealed_kong": "+", "hidden_kong": "-"}
    return {"concealed": format_tiles(hand["concealed"]),
            "melds": [prefix.get(m["kind"], "") + format_tiles(m["tiles"]) for m in hand["melds"]],
            "flowers": format_tiles(rng.choice(FLOWERS, size=int(rng.integers(4, 9)), replace=False))}


def flower_scene_crops(seed: int, *, width: int, sources: tuple[str, ...], size: tuple[int, int],
                       bodies: str = "sprite", shake: float | None = None):
    """The crops of flowers the scanner cuts from one flower-rich synthetic photo
    (:func:`flower_hand`), at the flower reader's input ``size`` (h, w), with their labels."""
    return scene_crops(seed, width=width, sources=sources, hand=flower_hand(seed), size=size, only=FLOWERS,
                       bodies=bodies, shake=shake)


def build_flower_scene_cache(path: str | os.PathLike, n_scenes: int, *, sources: tuple[str, ...],
                             size: tuple[int, int], first_seed: int = FIRST_FLOWER_SCENE_SEED,
                             workers: int = 2, camera_share: float = 0.0, shake_share: float = 0.0) -> dict:
    """The flower crops of ``n_scenes`` flower-rich photos (rounded up to chunks of 20) from scene
    seed ``first_seed`` on, drawn in the face ``sources`` with ``camera_share`` of them in camera
    bodies (:func:`scene_bodies`) and ``shake_share`` with a shake (:func:`scene_shake`), cached per
    chunk under ``path``; ``y`` indexes ``engine.tiles.FLOWERS``."""
    from .dataset import RENDER_VERSION, cached_chunks

    key = (f"flower scenes sources={sorted(sources)} size={size} first={first_seed} "
           f"scanner={scanner_fingerprint()} faces={RENDER_VERSION} camera={camera_share:g}"
           f"{_shake_key(shake_share)} v1")
    jobs = [(i, tuple(sources), first_seed, True, tuple(size), camera_share, shake_share)
            for i in range(-(-n_scenes // SCENES_PER_CHUNK))]
    return cached_chunks(path, key, jobs, _chunk, workers=workers, what="flower photos",
                         per_chunk=SCENES_PER_CHUNK)
