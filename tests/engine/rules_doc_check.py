"""Checks shared by the rule-table tests (not a test module): every 「quote」 in docs/rules/<variant>.md
occurs in the seed document, and every test the table names exists."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def quotes(variant: str) -> list[str]:
    table = (ROOT / "docs" / "rules" / f"{variant}.md").read_text(encoding="utf-8")
    return re.findall(r"「(.+?)」", table)


def check_quotes(variant: str, seed: str) -> None:
    path = SEEDS / seed
    if not path.exists():
        pytest.skip(f"{path} is absent: the rule quotes cannot be checked against the document")
    doc = _flat(path.read_text(encoding="utf-8"))
    found = quotes(variant)
    assert len(found) >= 15
    missing = [q for q in found for part in q.split("…") if _flat(part) and _flat(part) not in doc]
    assert not missing, f"quotes not in {seed}: {missing}"


def check_test_names(variant: str) -> None:
    table = (ROOT / "docs" / "rules" / f"{variant}.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_\w+)`", table))
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests" / "engine").glob(f"test_{variant}_*.py"))
    defined = set(re.findall(r"def (test_\w+)", source))
    assert len(named) >= 15
    assert named <= defined, f"named in docs/rules/{variant}.md but not defined: {sorted(named - defined)}"
