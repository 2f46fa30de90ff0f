"""The API's documentation: the OpenAPI document FastAPI makes from the routes' declarations,
completed with the error shape (`complete`), and its page, /api/docs: Swagger UI from the
pinned npm package swagger-ui-dist (package-lock.json), served from this origin under a strict
Content-Security-Policy, never from a CDN (a third-party script on the game's origin could call
the API with the player's cookie)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

from web.endpoint.errors import ERROR_SCHEMA, ApiError, error_response
from web.endpoint.settings import ROOT

SWAGGER_UI = ROOT / "node_modules" / "swagger-ui-dist"
ASSETS = ("swagger-ui-bundle.js", "swagger-ui.css")  # all the page takes from the package
# Everything from this origin; no inline script or style, no framing, no form posts elsewhere.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
IMMUTABLE = "public, max-age=31536000, immutable"  # the URL names the package's version

START = """window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/api/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    queryConfigEnabled: false,
    validatorUrl: null,
  });
});
"""


def swagger_ui_version(package: Path) -> str | None:
    """The installed swagger-ui-dist's version, or None when it is not installed."""
    try:
        version: str = json.loads((package / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None
    return version


def page(version: str) -> str:
    """The documentation page's HTML: the package's assets and the start script, by URL."""
    base = f"/api/docs/{version}"
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Lottery signing endpoint: API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{base}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{base}/swagger-ui-bundle.js"></script>
<script src="{base}/start.js"></script>
</body>
</html>
"""


def routes() -> APIRouter:
    """GET /api/docs and its assets, /api/docs/{version}/{name}."""
    router = APIRouter()
    package = SWAGGER_UI
    version = swagger_ui_version(package)

    def installed() -> str:
        if version is None:
            raise ApiError(
                503,
                "docs_unavailable",
                "This server lacks the documentation page's files (npm's swagger-ui-dist, "
                "installed by build.py); the API's description is at /api/openapi.json.",
            )
        return version

    @router.get("/api/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        """The API's documentation page."""
        return HTMLResponse(page(installed()), headers={"Content-Security-Policy": POLICY})

    @router.get("/api/docs/{asset_version}/{name}", include_in_schema=False)
    async def asset(asset_version: str, name: str) -> Response:
        """One of the page's scripts or style sheets."""
        if asset_version != installed() or name not in (*ASSETS, "start.js"):
            raise ApiError(404, "not_found", "No such file of the documentation page.")
        if name == "start.js":
            return Response(
                START, media_type="text/javascript", headers={"Cache-Control": "no-cache"}
            )
        return FileResponse(package / name, headers={"Cache-Control": IMMUTABLE})

    return router


DATABASE_FREE = ("/api/games", "/api/keys")  # routes that never touch the database
_INT = {"type": "integer"}


def _object(properties: dict[str, Any], title: str) -> dict[str, Any]:
    return {
        "title": title,
        "type": "object",
        "properties": properties,
        "required": list(properties),
    }


def complete(schema: dict[str, Any]) -> dict[str, Any]:
    """FastAPI's OpenAPI document with the API's error shape: its schema, every 422 in it (not
    FastAPI's HTTPValidationError: web/endpoint/http/handlers.py answers a validation error as 422
    invalid_request or 400 malformed_json), and a 503 database_unavailable on every route that
    reads or writes the database."""
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    for item in schema.get("paths", {}).values():
        for operation in item.values():
            answer = operation.get("responses", {}).get("422", {})
            if "HTTPValidationError" in str(answer):
                operation["responses"]["422"] = error_response(
                    "invalid_request: a parameter or body of the wrong shape."
                )
    lost = "database_unavailable: the database could not be reached; try again."
    for path, item in schema.get("paths", {}).items():
        for operation in item.values() if path not in DATABASE_FREE else ():
            answers = operation.setdefault("responses", {})
            if "database_unavailable" not in str(answers.get("503", "")):
                said = answers.get("503", {}).get("description")
                answers["503"] = error_response(f"{said} Or {lost}" if said else lost)
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    detail = _object({"code": {"type": "string"}, "message": {"type": "string"}}, "ErrorDetail")
    detail["properties"].update(
        {  # limit_reached only:
            "period": {"type": "string", "enum": ["daily", "weekly"]},
            "left_pence": _INT,
            "resets_at": {"type": "string", "format": "date-time"},
            # limits_required only:
            "missing": {"type": "array", "items": {"type": "string", "enum": ["daily", "weekly"]}},
            # cooling_off only:
            "resumes_at": {"type": "string", "format": "date-time"},
        }
    )
    schemas[ERROR_SCHEMA] = _object({"error": detail}, ERROR_SCHEMA)
    return schema
