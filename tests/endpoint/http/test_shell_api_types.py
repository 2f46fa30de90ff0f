"""The page's types of the endpoint's answers (web/shell/api.d.ts) checked against the endpoint:
each interface against the answers its routes really give, and against the OpenAPI document's
schema where the route declares one (the purchase's, the error shape). On SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import bearer, buy, session

API_TYPES = Path(__file__).resolve().parents[3] / "web" / "shell" / "api.d.ts"
# Interfaces of what the page keeps in the browser's storage, not of an endpoint's answer.
STORAGE = {"SessionBegan", "Progress", "LogSeen"}
# Interfaces whose routes declare their answer's schema in the OpenAPI document.
SCHEMAS = {"Bought": "Purchase", "ApiError": "ApiError.error"}
JS_TYPES: dict[str, type | tuple[type, ...]] = {"string": str, "number": (int, float)}


def interfaces(source: str) -> dict[str, str]:
    """Each interface of a .d.ts file and its body."""
    return dict(re.findall(r"^interface (\w+) (\{.*?^\})", source, re.S | re.M))


def fields(body: str) -> dict[str, tuple[bool, str]]:
    """The fields of an object type's body: name -> (optional, type), comments left out."""
    inner = re.sub(r"/\*\*.*?\*/", "", body.strip()[1:-1], flags=re.S)
    found: dict[str, tuple[bool, str]] = {}
    depth, start = 0, 0
    for n, char in enumerate(inner + ";"):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == ";" and depth == 0:
            field = inner[start:n].strip()
            start = n + 1
            if field:
                match = re.fullmatch(r"(\w+)(\??):\s*(.+)", field, re.S)
                assert match is not None, field
                name, optional, kind = match.groups()
                found[name] = (optional == "?", kind.strip())
    return found


def problems(value: Any, kind: str, known: dict[str, str], where: str) -> list[str]:
    """How an answer's value differs from a TypeScript type (string, number, unknown, T[],
    an inline object type or another interface of the file, or any of these `| null`)."""
    if kind == "unknown":
        return []
    if kind.endswith(" | null"):
        return [] if value is None else problems(value, kind.removesuffix(" | null"), known, where)
    if kind.endswith("[]"):
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not an array"]
        return [
            p
            for n, item in enumerate(value)
            for p in problems(item, kind[:-2], known, f"{where}[{n}]")
        ]
    if kind in known:
        kind = known[kind]
    if kind.startswith("{"):
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        found = []
        for name, (optional, field_kind) in fields(kind).items():
            if name not in value:
                found += [] if optional else [f"{where}.{name}: missing"]
            else:
                found += problems(value[name], field_kind, known, f"{where}.{name}")
        return found
    python = JS_TYPES[kind]
    if not isinstance(value, python) or isinstance(value, bool):
        return [f"{where}: {value!r} is not a {kind}"]
    return []


def schema_problems(body: str, schema: dict[str, Any], where: str) -> list[str]:
    """How an interface differs from an OpenAPI object schema: a field it lacks, a field the
    page counts on that the schema leaves optional, or another JSON type."""
    json_types = {"string": {"string"}, "number": {"integer", "number"}}
    found = []
    for name, (optional, kind) in fields(body).items():
        declared = schema.get("properties", {}).get(name)
        if declared is None:
            found.append(f"{where}.{name}: not in the schema")
            continue
        if not optional and name not in schema.get("required", []):
            found.append(f"{where}.{name}: optional in the schema")
        wanted = json_types.get(kind.removesuffix("[]"))
        got = declared.get("items", {}) if kind.endswith("[]") else declared
        if wanted is not None and got.get("type") not in wanted:
            found.append(f"{where}.{name}: {got.get('type')} in the schema, {kind} here")
    return found


def answers(client: TestClient) -> dict[str, list[Any]]:
    """Real answers of each interface's routes: a session, a purchase, the plays, a pool, a
    free play, and an error."""
    made = session(client)
    auth = bearer(made["token"])
    bought = buy(client, made["token"])
    assert bought.status_code == 201, bought.text
    number = bought.json()["play_number"]
    detail = client.get(f"/api/plays/{number}", headers=auth).json()
    game, pool = detail["game"], detail["pool"]["id"]
    tried = client.post("/api/try", json={"game": game})
    assert tried.status_code == 201, tried.text
    missing = client.get("/api/plays/999", headers=auth)
    assert missing.status_code == 404, missing.text
    return {
        "SessionMade": [made],
        "Wallet": [client.get("/api/wallet", headers=auth).json()],
        "KeySet": [client.get("/api/keys").json()],
        "PublicKey": client.get("/api/keys").json()["keys"],
        "Bought": [bought.json(), tried.json()],
        "PlayList": [client.get("/api/plays?status=unfinished", headers=auth).json()],
        "PlayDetail": [detail],
        "Published": [client.get(f"/api/pools/{game}/{pool}").json()],
        "ApiError": [missing.json()["error"]],
    }


def test_the_types_file_is_read_whole() -> None:
    known = interfaces(API_TYPES.read_text())
    assert {"Bought", "ApiError", "PlayList"} <= set(known)
    assert fields(known["PlayList"]) == {"plays": (True, "{ game: string; play_number: number }[]")}
    assert problems({"plays": [{"game": "g"}]}, "PlayList", known, "x") == [
        "x.plays[0].play_number: missing"
    ]
    assert problems(None, "{ n: number } | null", known, "y") == []
    assert problems({"n": "1"}, "{ n: number } | null", known, "y") == ["y.n: '1' is not a number"]
    assert schema_problems("{ n: number; s?: string; }", {"properties": {"n": {}}}, "T") == [
        "T.n: optional in the schema",
        "T.n: None in the schema, number here",
        "T.s: not in the schema",
    ]


def test_the_page_s_types_match_the_endpoint_s_answers(
    make_app: Callable[..., FastAPI],
) -> None:
    known = interfaces(API_TYPES.read_text())
    with TestClient(make_app()) as client:
        seen = answers(client)
    assert set(known) == set(seen) | STORAGE  # every interface checked, or kept in storage
    found = [
        problem
        for name, values in seen.items()
        for n, value in enumerate(values)
        for problem in problems(value, name, known, f"{name}#{n}")
    ]
    assert found == []


@pytest.mark.parametrize(("name", "schema"), sorted(SCHEMAS.items()))
def test_the_page_s_types_match_the_openapi_document(
    make_app: Callable[..., FastAPI], name: str, schema: str
) -> None:
    known = interfaces(API_TYPES.read_text())
    document = make_app().openapi()["components"]["schemas"]
    top, *inner = schema.split(".")
    declared = document[top]
    for part in inner:
        declared = declared["properties"][part]
    assert schema_problems(known[name], declared, name) == []
