"""Endpoint configuration, read from LOTTERY_* environment variables (and DATABASE_URL)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRUE = {"1", "true", "yes", "on"}


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{name} must be an integer, got {raw!r}") from None


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {raw!r}") from None


@dataclass(frozen=True)
class Settings:
    """Everything the endpoint can be configured with; see docs/endpoint.md."""

    var_dir: Path = ROOT / "var"
    database_url: str = ""
    signing_key_file: Path | None = None
    signing_key_pem: str = ""
    retired_keys_dir: Path | None = None
    session_secret: str = ""
    session_ttl_seconds: int = 30 * 24 * 3600
    cookie_name: str = "lottery_session"
    cookie_secure: bool = False
    cookie_samesite: str = "lax"
    cors_origins: tuple[str, ...] = ()
    trusted_proxies: tuple[str, ...] = ()  # addresses/networks whose X-Forwarded-* are believed
    demo_balance_pence: int = 5_000
    play_timeout_seconds: int = 24 * 3600
    sweep_interval_seconds: float = 60.0
    pool_size: int = 0
    pool_dir: Path | None = None
    rate_per_second: float = 20.0
    rate_burst: int = 60
    max_body_bytes: int = 16_384
    db_pool_size: int = 8
    db_connect_timeout_seconds: int = 5
    test_mode: bool = False
    warm_pools: bool = False

    def __post_init__(self) -> None:
        if self.demo_balance_pence < 0:
            raise ValueError("LOTTERY_DEMO_BALANCE_PENCE must not be negative")
        if self.cookie_samesite not in {"lax", "strict", "none"}:
            raise ValueError("LOTTERY_COOKIE_SAMESITE must be lax, strict or none")
        if self.cookie_samesite == "none" and not self.cookie_secure:
            raise ValueError("LOTTERY_COOKIE_SAMESITE=none needs LOTTERY_COOKIE_SECURE=1")
        if self.play_timeout_seconds <= 0 or self.session_ttl_seconds <= 0:
            raise ValueError("timeouts must be positive")
        if self.db_connect_timeout_seconds < 2:  # libpq's least (psycopg makes 1 into 2)
            raise ValueError("LOTTERY_DB_CONNECT_TIMEOUT_SECONDS must be at least 2")
        if self.rate_per_second <= 0 or self.rate_burst <= 0:
            raise ValueError("LOTTERY_RATE_PER_SECOND and LOTTERY_RATE_BURST must be positive")

    @property
    def db_url(self) -> str:
        """The SQLAlchemy URL: DATABASE_URL, or a SQLite file under var/."""
        url = self.database_url
        if not url:
            return f"sqlite:///{self.var_dir / 'endpoint.sqlite3'}"
        if url.startswith(("postgres://", "postgresql://")):
            return "postgresql+psycopg://" + url.split("://", 1)[1]
        return url

    @property
    def pools_path(self) -> Path:
        """Where laid-out pools are saved (secret: they hold future outcomes)."""
        return self.pool_dir or self.var_dir / "pools"

    @classmethod
    def for_database(cls, database_url: str | None) -> Settings:
        """The settings of the environment, with another database when one is given (the
        operators' commands' --database-url)."""
        settings = cls.from_env()
        return (
            dataclasses.replace(settings, database_url=database_url) if database_url else settings
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the settings from LOTTERY_* variables and DATABASE_URL."""
        e = os.environ if env is None else env
        var_dir = Path(e.get("LOTTERY_VAR_DIR") or ROOT / "var")
        key_file = e.get("LOTTERY_SIGNING_KEY_FILE")
        retired = e.get("LOTTERY_RETIRED_KEYS_DIR")
        pool_dir = e.get("LOTTERY_POOL_DIR")
        origins = tuple(o.strip() for o in e.get("LOTTERY_CORS_ORIGINS", "").split(","))
        return cls(
            var_dir=var_dir,
            database_url=e.get("DATABASE_URL", ""),
            signing_key_file=Path(key_file) if key_file else None,
            signing_key_pem=e.get("LOTTERY_SIGNING_KEY", ""),
            retired_keys_dir=Path(retired) if retired else None,
            session_secret=e.get("LOTTERY_SESSION_SECRET", ""),
            session_ttl_seconds=_int(e, "LOTTERY_SESSION_TTL_SECONDS", 30 * 24 * 3600),
            cookie_secure=e.get("LOTTERY_COOKIE_SECURE", "").lower() in TRUE,
            cookie_samesite=e.get("LOTTERY_COOKIE_SAMESITE", "lax").lower(),
            cors_origins=tuple(o for o in origins if o),
            trusted_proxies=tuple(
                p.strip() for p in e.get("LOTTERY_TRUSTED_PROXIES", "").split(",") if p.strip()
            ),
            demo_balance_pence=_int(e, "LOTTERY_DEMO_BALANCE_PENCE", 5_000),
            play_timeout_seconds=_int(e, "LOTTERY_PLAY_TIMEOUT_SECONDS", 24 * 3600),
            sweep_interval_seconds=_float(e, "LOTTERY_SWEEP_INTERVAL_SECONDS", 60.0),
            pool_size=_int(e, "LOTTERY_POOL_SIZE", 0),
            pool_dir=Path(pool_dir) if pool_dir else None,
            rate_per_second=_float(e, "LOTTERY_RATE_PER_SECOND", 20.0),
            rate_burst=_int(e, "LOTTERY_RATE_BURST", 60),
            max_body_bytes=_int(e, "LOTTERY_MAX_BODY_BYTES", 16_384),
            db_pool_size=_int(e, "LOTTERY_DB_POOL_SIZE", 8),
            db_connect_timeout_seconds=_int(e, "LOTTERY_DB_CONNECT_TIMEOUT_SECONDS", 5),
            test_mode=e.get("LOTTERY_TEST_MODE", "").lower() in TRUE,
            warm_pools=e.get("LOTTERY_WARM_POOLS", "1").lower() in TRUE,
        )
