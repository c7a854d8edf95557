"""Training throughput of the tile classifier on this machine (needs the ``[train]`` extra).

    .venv/bin/python bench/train_speed.py [--steps 300]

Runs ``vision.train.train`` for a few hundred steps on random crops (the model and the batch of
the real run, without rendering) with 2 torch threads and then with 1, and prints images per
second for each and their ratio. ``python -m vision.train`` runs ``STEPS_A + STEPS_B`` steps of
``BATCH`` crops (``vision.train``'s defaults), so its training time is about that many images
divided by the images per second. On a machine whose other core is
busy, compare ``--threads 1`` in the real run: two threads then wait on each other.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.dataset import INPUT_H, INPUT_W, LABELS  # noqa: E402
from vision.train import BATCH, STEPS_A, STEPS_B, build_model, train  # noqa: E402


def images_per_second(threads: int, steps: int) -> float:
    import torch

    torch.set_num_threads(threads)
    rng = np.random.default_rng(0)
    data = {"x": rng.integers(0, 256, (2000, INPUT_H, INPUT_W, 3), dtype=np.uint8),
            "y": rng.integers(0, len(LABELS), 2000)}
    info = train(build_model(), data, steps=steps, minutes=10, lr=3e-3, log_every=10 ** 9, label="speed")
    return info["images"] / info["seconds"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=300)
    a = ap.parse_args(argv)
    two, one = images_per_second(2, a.steps), images_per_second(1, a.steps)
    print(f"2 threads: {two:.0f} img/s; 1 thread: {one:.0f} img/s; ratio {two / one:.2f}")
    steps = STEPS_A + STEPS_B
    print(f"the default run's {steps:,} steps x {BATCH} crops: {steps * BATCH / two / 60:.1f} min with 2 threads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
