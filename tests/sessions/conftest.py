"""Fixtures for the recorded-sessions tests: a service on a fresh SQLite file,
and an app built by the real ``create_app`` with a known token."""
from __future__ import annotations

from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.sessions.db import open_database
from api.sessions.service import SessionService

TOKEN = "sessions-test-token-42"


@pytest.fixture
def db(tmp_path):
    database = open_database(tmp_path / "data")
    yield database
    database.dispose()


@pytest.fixture
def service(db):
    return SessionService(db)


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


@pytest.fixture
def riichi_client(data_dir, need_variant):
    """Open the real app on ``data_dir`` as a test client sending ``token`` (riichi must load)."""
    need_variant("riichi")

    @contextmanager
    def opened(token: str):
        with TestClient(create_app(data_dir, token), headers={"Authorization": f"Bearer {token}"}) as c:
            yield c
    return opened


@pytest.fixture
def need_variant():
    return variant_or_skip


def variant_or_skip(name: str):
    """The engine's variant, or a visible skip while its rules module is not in the tree."""
    from engine.errors import EngineError
    from engine.variants import get_variant

    try:
        return get_variant(name)
    except (ImportError, AttributeError, EngineError) as exc:
        pytest.skip(f"the {name} variant cannot be loaded yet ({type(exc).__name__}: {exc})")
