"""Engine fuzzing run: feed engine.score random and mutated requests, count what escapes.

Run: ``.venv/bin/python bench/engine_fuzz.py --inputs 1000000 --workers 2``

Checks, over every input: the only exception that escapes is EngineError, and no
call takes over 100 ms of CPU time (``time.thread_time``: on a shared machine the
wall clock also counts the time the process waited for a core; both are printed). Prints a summary (and the first failing inputs, which
become regression tests in tests/engine/test_fuzz_slice.py).
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "engine"))


def run(args: tuple[int, int]) -> dict:
    seed, n = args
    import engine
    from engine.errors import EngineError
    from fuzzgen import request

    rng = random.Random(seed)
    escaped: Counter = Counter()
    examples: list = []
    slow: list = []
    valid = errors = 0
    worst = worst_cpu = 0.0
    over = 0
    for _ in range(n):
        req = request(rng)
        t0 = time.perf_counter()
        c0 = time.thread_time()
        try:
            engine.score(req)
            valid += 1
        except EngineError:
            errors += 1
        except Exception as exc:  # noqa: BLE001 - this is what we are hunting
            key = f"{type(exc).__name__}: {str(exc)[:120]}"
            escaped[key] += 1
            if len(examples) < 5:
                examples.append((key, repr(req)[:400]))
        cpu = time.thread_time() - c0
        dt = time.perf_counter() - t0
        worst = max(worst, dt)
        worst_cpu = max(worst_cpu, cpu)
        if cpu > 0.1:
            over += 1
            if len(slow) < 5:
                slow.append((round(cpu * 1000, 1), repr(req)[:300]))
    return {"valid": valid, "errors": errors, "escaped": escaped, "examples": examples, "slow": slow,
            "worst": worst, "worst_cpu": worst_cpu, "over": over, "n": n}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--inputs", type=int, default=1_000_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    per = args.inputs // args.workers
    t0 = time.time()
    with mp.Pool(args.workers) as pool:
        parts = pool.map(run, [(args.seed * 1000 + k, per) for k in range(args.workers)])
    total = Counter()
    for p in parts:
        total.update(p["escaped"])
    n = sum(p["n"] for p in parts)
    valid = sum(p["valid"] for p in parts)
    worst = max(p["worst"] for p in parts)
    worst_cpu = max(p["worst_cpu"] for p in parts)
    over = sum(p["over"] for p in parts)
    slow = [s for p in parts for s in p["slow"]]
    print(f"inputs: {n}  scored: {valid}  EngineError: {sum(p['errors'] for p in parts)}  "
          f"other exceptions: {sum(total.values())}  slowest call: {worst_cpu * 1000:.1f} ms CPU "
          f"({worst * 1000:.1f} ms wall)  calls over 100 ms CPU: {over}  wall: {time.time() - t0:.0f} s")
    for key, count in total.most_common(10):
        print(f"  ESCAPED {count}x {key}")
    for p in parts:
        for key, req in p["examples"]:
            print(f"  example {key}\n    {req}")
    for ms, req in slow[:5]:
        print(f"  SLOW {ms} ms CPU {req}")
    return 1 if total or over else 0


if __name__ == "__main__":
    sys.exit(main())
