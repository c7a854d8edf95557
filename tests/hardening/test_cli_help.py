"""Every command-line tool of the project answers ``--help`` with its usage.

argparse formats help strings with ``%``: a help text holding a bare ``%`` (an f-string's
``{share:.0%}``, for one) makes ``--help`` crash with a TypeError instead of printing, which
``python -m vision.train --help`` did until 2026-11-29. The tools are found by their source, so
a new one is covered without being listed here."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _commands() -> list[list[str]]:
    cmds = []
    for path in sorted(ROOT.glob("*/*.py")):
        top = path.parent.name
        if top not in ("vision", "api", "engine", "bench"):
            continue
        src = path.read_text(encoding="utf-8")
        if "ArgumentParser(" not in src:
            continue
        if top == "bench":
            cmds.append([str(path.relative_to(ROOT))])
        elif path.name == "__main__.py":
            cmds.append(["-m", top])
        elif '__name__ == "__main__"' in src:
            cmds.append(["-m", f"{top}.{path.stem}"])
    return cmds


COMMANDS = _commands()


def test_the_tools_are_found():
    names = {" ".join(c) for c in COMMANDS}
    assert {"-m vision.train", "-m api", "bench/scan_bench.py"} <= names


@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: " ".join(c))
def test_help_prints_the_usage(cmd):
    done = subprocess.run([sys.executable, *cmd, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("usage:"), done.stdout[:500]
