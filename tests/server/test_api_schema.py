"""The OpenAPI document is valid and the API keeps to it: schemathesis loads ``/openapi.json``
from the running server and sends generated requests (a bearer token on each) to every
operation but the long analysis; no response may be a 500 or break the documented schema."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import APIOperation, Case
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.schemas import OpenApiSchema

from tests.server.conftest import BatonServer

EXAMPLES = 25
"""Generated requests per operation: bounded so the whole run stays within seconds."""


@pytest.fixture(scope="module")
def api_schema(baton_server: BatonServer) -> OpenApiSchema:
    return schemathesis.openapi.from_url(f"{baton_server.url}/openapi.json")


def test_the_openapi_document_is_valid_and_lists_every_endpoint(
    api_schema: OpenApiSchema, baton_server: BatonServer
) -> None:
    api_schema.validate()  # against the OpenAPI 3.x meta-schema: raises on the first violation
    document: dict[str, Any] = api_schema.raw_schema
    assert document["openapi"].startswith("3.")
    operations = {(method.upper(), path) for path, item in document["paths"].items() for method in item}
    assert {
        ("POST", "/api/ask"),
        ("POST", "/api/analyze"),
        ("POST", "/api/query"),
        ("GET", "/api/runs"),
        ("GET", "/api/runs/{run_id}"),
        ("GET", "/api/runs/{run_id}/report"),
        ("GET", "/api/runs/{run_id}/events"),
        ("GET", "/api/conversations"),
        ("GET", "/api/catalog"),
        ("GET", "/api/health"),
        ("GET", "/api/me"),
        ("POST", "/api/session"),
        ("DELETE", "/api/session"),
    } <= operations
    schemes = document["components"]["securitySchemes"]
    assert schemes["token"]["scheme"] == "bearer" and schemes["session"]["name"] == "baton_session"


def check_operation(operation: APIOperation[Any, Any, Any, Any], headers: dict[str, str]) -> str | None:
    """Generated cases of one operation (hypothesis, derandomized): what schemathesis found
    wrong (a 500, a response outside the schema, a valid request refused), else ``None``."""

    @given(case=operation.as_strategy())
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    def check(case: Case[Any]) -> None:
        response = case.call(headers=headers, timeout=60)
        assert response.status_code < 500, (case.method, case.path, response.text)
        case.validate_response(response, headers=headers)

    try:
        check()
    except Exception as exc:  # every operation is tried; the failures are reported together
        return f"{operation.method.upper()} {operation.path}: {exc}"
    return None


def test_no_generated_request_breaks_the_api(api_schema: OpenApiSchema, baton_server: BatonServer) -> None:
    """Every operation but the analysis relay (its request model is the one /api/ask checks).
    schemathesis's pytest plugin is not used: its lazy fixture loader fails under pytest 9."""
    token = {"Authorization": f"Bearer {baton_server.tokens['analyst']}"}
    tested, failures = [], []
    for result in api_schema.get_all_operations():
        assert isinstance(result, Ok), result
        operation = result.ok()
        if operation.path == "/api/analyze":
            continue
        signing_in = (operation.method.upper(), operation.path) == ("POST", "/api/session")
        failure = check_operation(operation, {} if signing_in else token)  # signing in sends the token in the body
        tested.append(f"{operation.method.upper()} {operation.path}")
        if failure is not None:
            failures.append(failure)
    assert len(tested) >= 12, tested
    assert not failures, "\n\n".join(failures)
