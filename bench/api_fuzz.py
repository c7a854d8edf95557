"""Full API fuzzing run: schemathesis (CLI) against the real app on loopback.

Run: ``nice -n 10 .venv/bin/python bench/api_fuzz.py --max-examples 200 --seed 20261122``

The app is ``api.app.create_app`` on a fresh data dir, served by uvicorn on
127.0.0.1 in this process (so it can count every request and every 5xx), with a
valid pairing token and the bad-token lockout lifted (the fuzzer sends wrong
tokens on purpose). Every schemathesis check runs except
``positive_data_acceptance`` (schema-valid JSON that is no hand gets 422 by
design) and ``allow_header_conformance`` (Starlette's Allow header on a 405 names
the first matching route's methods only). Prints schemathesis' summary and the
request count; exits non-zero on any failure or 5xx.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "hardening"))

TOKEN = "api-fuzz-token-0123456789"
EXCLUDED = "positive_data_acceptance,allow_header_conformance"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-examples", type=int, default=200, help="examples per operation (default 200)")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()

    from api.app import create_app
    from api.auth import BadTokenLimiter
    from inproc_server import ThreadServer
    from test_api_fuzz_slice import Counting

    app = Counting(create_app(Path(tempfile.mkdtemp(prefix="tilelens-apifuzz-")), TOKEN,
                              limiter=BadTokenLimiter(limit=10**9)))
    t0 = time.time()
    with ThreadServer(app) as srv:
        cmd = [str(Path(sys.executable).with_name("schemathesis")), "run", f"{srv.url}/openapi.json",
               "-H", f"Authorization: Bearer {TOKEN}", "--max-examples", str(args.max_examples),
               "--seed", str(args.seed), "--workers", str(args.workers), "--exclude-checks", EXCLUDED,
               "--continue-on-failure", "--no-color"]
        print("$", " ".join(c if "Bearer" not in c else "'Authorization: Bearer <token>'" for c in cmd), flush=True)
        rc = subprocess.run(cmd, cwd=ROOT).returncode
    print(f"\nrequests that reached the app: {app.requests}  5xx answers: {app.server_errors}  "
          f"wall: {time.time() - t0:.0f} s  schemathesis exit: {rc}")
    return 1 if rc or app.server_errors else 0


if __name__ == "__main__":
    sys.exit(main())
