"""The session cookie: its name and attributes, and reading a request's credential (docs/api.md,
Authentication; docs/endpoint.md, Sessions).

Over HTTPS the cookie is `__Host-lottery_session`: Secure, Path=/, no Domain, so the browser
keeps it for this host alone and no page of a sibling subdomain or plain-HTTP answer can set or
replace it. Over plain HTTP (http://127.0.0.1 in development, the tests) a Secure cookie would
never be sent back, so it is `lottery_session`, Path=/api, as before. LOTTERY_COOKIE_SECURE
chooses: auto (the default) by the scheme the request arrived with (uvicorn's, so behind a TLS
proxy named in LOTTERY_TRUSTED_PROXIES it is https), 1 always, 0 never.
"""

from __future__ import annotations

from typing import Literal

from fastapi import Request, Response

from web.endpoint.errors import ApiError
from web.endpoint.settings import Settings

HOST_PREFIX = "__Host-"
PLAIN_PATH = "/api"  # the unprefixed cookie's path (a __Host- cookie's must be /)


def secure(request: Request, settings: Settings) -> bool:
    """Whether this request's answer sets a Secure (and so __Host-) cookie."""
    if settings.cookie_secure is not None:
        return settings.cookie_secure
    return request.url.scheme == "https"


def credential(request: Request, settings: Settings) -> str:
    """The request's session credential: its bearer token, else its cookie ("" for none); the
    __Host- cookie first, then one set by plain HTTP or before the prefix."""
    authorization = request.headers.get("authorization")
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() != "bearer":
            raise ApiError(401, "unauthenticated", "Use a Bearer token or the session cookie.")
        return value.strip()
    name = settings.cookie_name
    return request.cookies.get(HOST_PREFIX + name) or request.cookies.get(name, "")


def give(response: Response, request: Request, settings: Settings, text: str) -> None:
    """Set the session cookie (HttpOnly, SameSite as configured)."""
    safe = secure(request, settings)
    response.set_cookie(
        HOST_PREFIX + settings.cookie_name if safe else settings.cookie_name,
        text,
        max_age=settings.session_ttl_seconds,
        path="/" if safe else PLAIN_PATH,
        httponly=True,
        secure=safe,
        samesite=_samesite(settings),
    )


def clear(response: Response, request: Request, settings: Settings) -> None:
    """Tell the browser to forget the session cookie, under either name it may hold."""
    if secure(request, settings):
        response.delete_cookie(
            HOST_PREFIX + settings.cookie_name,
            path="/",
            secure=True,
            httponly=True,
            samesite=_samesite(settings),
        )
    response.delete_cookie(
        settings.cookie_name,
        path=PLAIN_PATH,
        secure=secure(request, settings),
        httponly=True,
        samesite=_samesite(settings),
    )


def _samesite(settings: Settings) -> Literal["lax", "strict", "none"]:
    value: Literal["lax", "strict", "none"] = settings.cookie_samesite  # type: ignore[assignment]
    return value
