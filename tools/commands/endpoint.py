"""`build.py endpoint [--host H] [--port P] [--workers N]`: run the signing endpoint alone.

Configuration comes from LOTTERY_* variables and DATABASE_URL (docs/endpoint.md).
"""

from __future__ import annotations

import argparse
from typing import Any

import uvicorn

from web.endpoint.http.protocol import JsonErrorsProtocol
from web.endpoint.settings import Settings


def proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's proxy options: X-Forwarded-For/-Proto are believed only from the configured
    proxies (LOTTERY_TRUSTED_PROXIES); with none, never, so no client can pick the address the
    rate limits key on (uvicorn alone would trust them from 127.0.0.1)."""
    proxies = settings.trusted_proxies
    return {"proxy_headers": bool(proxies), "forwarded_allow_ips": list(proxies) or None}


def main(argv: list[str]) -> int:
    """Serve web.endpoint.app:create_app with uvicorn."""
    parser = argparse.ArgumentParser(prog="build.py endpoint")
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on")
    parser.add_argument("--port", type=int, default=8001, help="port to listen on")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--log-level", default="info", help="uvicorn log level")
    args = parser.parse_args(argv)
    uvicorn.run(
        "web.endpoint.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        http=JsonErrorsProtocol,  # its own 400s in the API's error shape
        **proxy_options(Settings.from_env()),
    )
    return 0
