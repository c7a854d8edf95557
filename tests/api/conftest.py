from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app

TOKEN = "test-token-0123456789"


@pytest.fixture
def token():
    return TOKEN


@pytest.fixture
def app(tmp_path):
    return create_app(tmp_path / "data", TOKEN)


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


@pytest.fixture
def authed(app):
    with TestClient(app, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        yield c
