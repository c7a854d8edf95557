"""Shared fixtures of the vision tests."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def bench_tool():
    """Load a script of ``bench/`` (not a package) as a module: ``bench_tool("scan_outputs")``."""
    def load(name: str):
        spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    return load
