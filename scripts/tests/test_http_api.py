"""The breaking-change check of the HTTP API's document."""

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

from thumbs_tools.http_api import allowlist, breaks, check, fields

BASE: dict[str, Any] = {
    "openapi": "3.1.0",
    "paths": {
        "/api/assets": {
            "get": {
                "parameters": [
                    {"$ref": "#/components/parameters/limit"},
                    {"name": "mode", "in": "query", "schema": {"type": "string", "enum": ["a", "b"]}},
                ],
                "responses": {
                    "200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Page"}}}},
                    "400": {"description": "bad"},
                },
            },
            "post": {
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {"type": "object", "properties": {"ids": {"type": "array"}}, "required": []}
                        }
                    }
                },
                "responses": {"200": {"description": "ok"}},
            },
        },
        "/healthz": {"get": {"responses": {"200": {"description": "ok"}}}},
    },
    "components": {
        "parameters": {"limit": {"name": "limit", "in": "query", "schema": {"type": "integer"}}},
        "schemas": {
            "Page": {
                "type": "object",
                "required": ["assets", "count"],
                "properties": {
                    "assets": {"type": "array", "items": {"$ref": "#/components/schemas/Asset"}},
                    "count": {"type": "integer"},
                    "next": {"type": ["string", "null"]},
                },
            },
            "Asset": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}},
        },
    },
}


def changed(edit: Any) -> list[str]:
    current = copy.deepcopy(BASE)
    edit(current)
    return breaks(BASE, current)


def get(document: dict[str, Any]) -> dict[str, Any]:
    operation: dict[str, Any] = document["paths"]["/api/assets"]["get"]
    return operation


def test_the_same_document_and_additions_break_nothing() -> None:
    assert breaks(BASE, BASE) == []

    def add(document: dict[str, Any]) -> None:
        document["paths"]["/api/new"] = {"get": {"responses": {}}}
        get(document)["parameters"].append({"name": "extra", "in": "query", "schema": {"type": "string"}})
        document["components"]["schemas"]["Asset"]["properties"]["name"] = {"type": "string"}
        document["components"]["schemas"]["Page"]["required"].append("next")
        get(document)["parameters"][1]["schema"]["enum"].append("c")

    assert changed(add) == []


def test_fields_are_read_through_references_and_arrays() -> None:
    schema = {"$ref": "#/components/schemas/Page"}
    assert fields(BASE, schema) == {
        "assets": ("array of object", True),
        "assets[].id": ("string", True),
        "count": ("integer", True),
        "next": ("null or string", False),
    }


def test_removed_paths_operations_and_parameters_break() -> None:
    assert changed(lambda d: d["paths"].pop("/healthz")) == ["GET /healthz: removed (the path is gone)"]
    assert changed(lambda d: d["paths"]["/api/assets"].pop("post")) == ["POST /api/assets: removed"]
    assert changed(lambda d: get(d)["parameters"].pop(0)) == ["GET /api/assets: parameter query limit removed"]
    assert changed(lambda d: get(d)["parameters"][1]["schema"]["enum"].remove("b")) == [
        'GET /api/assets: parameter query mode no longer takes "b"'
    ]


def test_required_and_retyped_parameters_break() -> None:
    def require(document: dict[str, Any]) -> None:
        document["components"]["parameters"]["limit"]["required"] = True
        get(document)["parameters"].append({"name": "since", "in": "query", "required": True})

    assert changed(require) == [
        "GET /api/assets: parameter query limit became required",
        "GET /api/assets: parameter query since added, required",
    ]
    assert changed(lambda d: d["components"]["parameters"]["limit"]["schema"].update(type="string")) == [
        "GET /api/assets: parameter query limit changed type from integer to string"
    ]


def test_answer_fields_removed_retyped_or_made_optional_break() -> None:
    def edit(document: dict[str, Any]) -> None:
        page = document["components"]["schemas"]["Page"]
        page["properties"].pop("next")
        page["properties"]["count"] = {"type": "string"}
        document["components"]["schemas"]["Asset"]["required"] = []

    assert changed(edit) == [
        "GET /api/assets: response 200 field assets[].id no longer always sent",
        "GET /api/assets: response 200 field count changed type from integer to string",
        "GET /api/assets: response 200 field next removed",
    ]
    assert changed(lambda d: get(d)["responses"].pop("200")) == ["GET /api/assets: response 200 removed"]
    # An error answer going is not a break: clients branch on the error's kind.
    assert changed(lambda d: get(d)["responses"].pop("400")) == []


def test_a_request_field_made_required_breaks() -> None:
    def edit(document: dict[str, Any]) -> None:
        schema = document["paths"]["/api/assets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
        schema["required"] = ["ids"]

    assert changed(edit) == ["POST /api/assets: request field ids became required"]


def test_the_allowlist_wants_a_reason_for_each_break() -> None:
    allowed, unexplained = allowlist("# comment\n\nGET /a: removed # gone for good\nGET /b: removed\n")
    assert allowed == {"GET /a: removed": "gone for good", "GET /b: removed": ""}
    assert unexplained == ["GET /b: removed"]


def git(repository: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repository), *args], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_the_check_reads_the_baseline_from_git_and_honours_the_allowlist(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "docs").mkdir()
    (tmp_path / ".ci").mkdir()
    (tmp_path / "docs/openapi.json").write_text(json.dumps(BASE))
    git(tmp_path, "add", "docs")
    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
    (tmp_path / ".ci/http-baseline").write_text(f"base {git(tmp_path, 'rev-parse', 'HEAD')}\n")
    assert check(tmp_path) == []

    current = copy.deepcopy(BASE)
    current["paths"].pop("/healthz")
    (tmp_path / "docs/openapi.json").write_text(json.dumps(current))
    assert check(tmp_path) == ["breaking change: GET /healthz: removed (the path is gone)"]
    (tmp_path / ".ci/http-breakage-allowlist").write_text(
        "GET /healthz: removed (the path is gone) # health moved to /metrics\nGET /x: removed # stale\n"
    )
    assert check(tmp_path) == [".ci/http-breakage-allowlist: not a break any more: GET /x: removed"]
