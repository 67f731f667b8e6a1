"""The breaking-change check of `thumbs serve`'s HTTP API: docs/openapi.json against the document
at a baseline commit, as `swift package diagnose-api-breaking-changes` checks the Swift API.

A change breaks a client written against the baseline when it removes a path or an operation,
removes a parameter or one of the values it takes, makes a parameter required that was not (or
adds a required one), changes a parameter's type, or, in a successful answer's JSON, removes a
field, changes its type or stops always sending a field that was always sent; a request body's
new required field breaks too. Additions (paths, operations, optional parameters, fields) do not.

The baseline commit is named in .ci/http-baseline (`NAME COMMIT`, as .ci/api-baseline names the
Swift API's: a tag does not reach CI, a commit id does). A deliberate break is listed in
.ci/http-breakage-allowlist, one a line, as the check prints it, then `#` and why; a listed break
without a reason, and a listed one no longer found, are errors too, so the list stays true.

    python3 -m thumbs_tools.http_api [REPOSITORY]

prints each break not allowed and exits 1 when there is one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .paths import REPOSITORY

DOCUMENT = "docs/openapi.json"
BASELINE = ".ci/http-baseline"
ALLOWLIST = ".ci/http-breakage-allowlist"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

Document = Mapping[str, Any]


def resolve(document: Document, node: object) -> Mapping[str, Any]:
    """`node` with its local `$ref`s (`#/a/b`) followed, at its top level; empty when it is no
    object."""
    while isinstance(node, Mapping) and "$ref" in node:
        target: object = document
        for part in str(node["$ref"]).removeprefix("#/").split("/"):
            target = target[part] if isinstance(target, Mapping) else {}
        node = target
    return node if isinstance(node, Mapping) else {}


def type_of(document: Document, schema: object) -> str:
    """A schema's type as one word (`string`, `array of integer`, `null or string`); `any` when it
    says none."""
    resolved = resolve(document, schema)
    kind = resolved.get("type", "any")
    if isinstance(kind, list):
        kind = " or ".join(sorted(str(k) for k in kind))
    if kind == "array":
        return f"array of {type_of(document, resolved.get('items'))}"
    return str(kind)


def operations(document: Document) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each operation as `METHOD /path` with its object."""
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                yield f"{method.upper()} {path}", item[method]


def parameters(document: Document, path: str, operation: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """An operation's parameters (its path item's too) by `in name`."""
    shared = document["paths"][path].get("parameters", [])
    found = {}
    for parameter in [*shared, *operation.get("parameters", [])]:
        parameter = resolve(document, parameter)
        found[f"{parameter['in']} {parameter['name']}"] = parameter
    return found


def fields(document: Document, schema: object, prefix: str = "", seen: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Every field a JSON schema describes, by its dotted place (`assets[].id`), with its type and
    whether it is always there: {place: (type, required)}."""
    ref = str(schema["$ref"]) if isinstance(schema, Mapping) and "$ref" in schema else None
    if ref in seen:
        return {}
    seen = seen | {ref} if ref else seen
    resolved = resolve(document, schema)
    if resolved.get("type") == "array":
        return fields(document, resolved.get("items"), prefix + "[]", seen)
    found: dict[str, Any] = {}
    required = set(resolved.get("required", []))
    for name, field in resolved.get("properties", {}).items():
        place = f"{prefix}.{name}" if prefix else name
        found[place] = (type_of(document, field), name in required)
        found.update(fields(document, field, place, seen))
    return found


def json_schemas(document: Document, holder: object) -> Iterator[tuple[str, object]]:
    """The JSON schemas of a response or request body, by media type."""
    for media, content in resolve(document, holder).get("content", {}).items():
        if "json" in media and "schema" in content:
            yield media, content["schema"]


def breaks(base: Document, current: Document) -> list[str]:
    """What in `current` breaks a client of `base`, one sentence each, sorted."""
    found: list[str] = []
    now = dict(operations(current))
    for name, before in operations(base):
        path = name.split(" ", 1)[1]
        if path not in current.get("paths", {}):
            found.append(f"{name}: removed (the path is gone)")
            continue
        after = now.get(name)
        if after is None:
            found.append(f"{name}: removed")
            continue
        found += [f"{name}: {problem}" for problem in parameter_breaks(base, current, path, before, after)]
        found += [f"{name}: {problem}" for problem in body_breaks(base, current, before, after)]
    return sorted(set(found))


def parameter_breaks(
    base: Document, current: Document, path: str, before: Mapping[str, Any], after: Mapping[str, Any]
) -> Iterator[str]:
    old, new = parameters(base, path, before), parameters(current, path, after)
    for key, parameter in old.items():
        if key not in new:
            yield f"parameter {key} removed"
            continue
        if new[key].get("required", False) and not parameter.get("required", False):
            yield f"parameter {key} became required"
        was, now = type_of(base, parameter.get("schema")), type_of(current, new[key].get("schema"))
        if was != now:
            yield f"parameter {key} changed type from {was} to {now}"
        values_before = resolve(base, parameter.get("schema", {})).get("enum")
        values_after = resolve(current, new[key].get("schema", {})).get("enum")
        if values_before is not None and values_after is not None:
            for value in values_before:
                if value not in values_after:
                    yield f"parameter {key} no longer takes {json.dumps(value)}"
    for key, parameter in new.items():
        if key not in old and parameter.get("required", False):
            yield f"parameter {key} added, required"


def body_breaks(
    base: Document, current: Document, before: Mapping[str, Any], after: Mapping[str, Any]
) -> Iterator[str]:
    """Breaks in the JSON of successful answers, and in the request body."""
    for status, response in before.get("responses", {}).items():
        if not str(status).startswith("2"):
            continue
        if status not in after.get("responses", {}):
            yield f"response {status} removed"
            continue
        new_content = dict(json_schemas(current, after["responses"][status]))
        for media, schema in json_schemas(base, response):
            if media not in new_content:
                yield f"response {status} no longer {media}"
                continue
            yield from field_breaks(
                f"response {status} field", fields(base, schema), fields(current, new_content[media]), answer=True
            )
    if "requestBody" in before and "requestBody" in after:
        new_body = dict(json_schemas(current, after["requestBody"]))
        for media, schema in json_schemas(base, before["requestBody"]):
            if media in new_body:
                yield from field_breaks(
                    "request field", fields(base, schema), fields(current, new_body[media]), answer=False
                )


def field_breaks(label: str, old: Mapping[str, Any], new: Mapping[str, Any], answer: bool) -> Iterator[str]:
    """An answer's field must stay, with its type, and stay always sent if it was; a request's
    field must not become required."""
    for place, (kind, required) in old.items():
        if place not in new:
            if answer:
                yield f"{label} {place} removed"
            continue
        new_kind, new_required = new[place]
        if new_kind != kind:
            yield f"{label} {place} changed type from {kind} to {new_kind}"
        if answer and required and not new_required:
            yield f"{label} {place} no longer always sent"
        if not answer and new_required and not required:
            yield f"{label} {place} became required"
    if not answer:
        for place, (_, required) in new.items():
            if place not in old and required:
                yield f"{label} {place} added, required"


def allowlist(text: str) -> tuple[dict[str, str], list[str]]:
    """The allowed breaks with their reasons, and the lines that give no reason."""
    allowed, unexplained = {}, []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        finding, _, reason = line.partition(" # ")
        if not reason.strip():
            unexplained.append(line)
        allowed[finding.strip()] = reason.strip()
    return allowed, unexplained


def baseline(repository: Path) -> tuple[str, Document]:
    """The baseline's name and its document, read from git at the commit .ci/http-baseline names."""
    name, commit = (repository / BASELINE).read_text().split()[:2]
    shown = subprocess.run(
        ["git", "-C", str(repository), "show", f"{commit}:{DOCUMENT}"], capture_output=True, text=True
    )
    if shown.returncode != 0:
        raise SystemExit(f"thumbs: {DOCUMENT} at the baseline {name} ({commit}): {shown.stderr.strip()}")
    return f"{name} ({commit})", json.loads(shown.stdout)


def check(repository: Path) -> list[str]:
    """The errors: breaks since the baseline not allowed, and allowlist lines not true."""
    _, base = baseline(repository)
    current = json.loads((repository / DOCUMENT).read_text())
    listed = repository / ALLOWLIST
    allowed, unexplained = allowlist(listed.read_text() if listed.exists() else "")
    found = breaks(base, current)
    errors = [f"breaking change: {finding}" for finding in found if finding not in allowed]
    errors += [f"{ALLOWLIST}: no reason given: {line}" for line in unexplained]
    errors += [f"{ALLOWLIST}: not a break any more: {finding}" for finding in allowed if finding not in found]
    return errors


def main(argv: list[str]) -> int:
    repository = Path(argv[0]) if argv else REPOSITORY
    name, _ = baseline(repository)
    errors = check(repository)
    for error in errors:
        print(f"thumbs: HTTP API against {name}: {error}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
