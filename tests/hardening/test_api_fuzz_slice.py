"""CI slice of the API fuzzing: schemathesis against our own OpenAPI schema,
in-process (ASGI), with a valid token, fixed seed (derandomized), a few hundred requests.

Every check runs except two, for stated reasons (docs/reliability.md):
* ``positive_data_acceptance``: a request can match the schema and still be no
  hand ("14 tiles" is not expressible in JSON Schema); the engine answers 422, by design.
* ``allow_header_conformance``: on a 405, Starlette's Allow header names the methods
  of the first route that matched the path (GET for /api/sessions, which also takes POST).

The full run is bench/api_fuzz.py.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from api.app import create_app
from api.auth import BadTokenLimiter
from conftest import TOKEN

EXAMPLES = 12
EXCLUDED = [schemathesis.checks.positive_data_acceptance, schemathesis.checks.allow_header_conformance]


class Counting:
    """The app, counting the HTTP requests that reach it and the 5xx it sends."""

    def __init__(self, app):
        self.app = app
        self.requests = 0
        self.server_errors = 0

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        self.requests += 1

        async def watching_send(msg):
            if msg["type"] == "http.response.start" and msg["status"] >= 500:
                self.server_errors += 1
            await send(msg)

        return await self.app(scope, receive, watching_send)


# The fuzzer sends wrong tokens on purpose (the ignored_auth check): no lockout here. The app is
# made at import, since the schema is read from it at collection; its data folder goes at the end.
DATA = tempfile.TemporaryDirectory(prefix="tilelens-fuzz-")
APP = Counting(create_app(Path(DATA.name), TOKEN, limiter=BadTokenLimiter(limit=10**9)))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module", autouse=True)
def _remove_the_data_folder_afterwards():
    yield
    DATA.cleanup()


@schema.parametrize()
@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case):
    case.call_and_validate(headers={"Authorization": f"Bearer {TOKEN}"}, excluded_checks=EXCLUDED)


def test_the_slice_sent_hundreds_of_requests_and_got_no_5xx():
    print(f"schemathesis slice: {APP.requests} requests, {APP.server_errors} 5xx")
    assert APP.requests >= 200, APP.requests
    assert APP.server_errors == 0
