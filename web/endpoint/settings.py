"""Endpoint configuration, read from LOTTERY_* environment variables (and DATABASE_URL)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off"}


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{name} must be an integer, got {raw!r}") from None


def _test_mode(env: Mapping[str, str]) -> bool:
    """LOTTERY_TEST_MODE: 1 is on; unset, empty or 0 is off; anything else is refused, so a
    guess such as "true" or "yes" neither turns it on unseen nor off unseen."""
    raw = env.get("LOTTERY_TEST_MODE", "")
    if raw not in ("", "0", "1"):
        raise ValueError(
            f"LOTTERY_TEST_MODE must be 1 (on: end-to-end tests only) or 0 or empty (off), "
            f"got {raw!r}"
        )
    return raw == "1"


def _auto(env: Mapping[str, str], name: str) -> bool | None:
    """A switch that may be left to the endpoint: unset, empty or auto (None), or on or off."""
    raw = env.get(name, "").lower()
    if raw in ("", "auto"):
        return None
    if raw in TRUE or raw in FALSE:
        return raw in TRUE
    raise ValueError(f"{name} must be auto, 1 or 0, got {raw!r}")


def _switch(env: Mapping[str, str], name: str, default: bool) -> bool:
    """A switch: 1/true/yes/on or 0/false/no/off; unset or empty is the default; anything
    else is refused, so a typing slip does not turn a protection off unseen."""
    raw = env.get(name, "").lower()
    if raw == "":
        return default
    if raw in TRUE or raw in FALSE:
        return raw in TRUE
    raise ValueError(f"{name} must be 1 or 0, got {raw!r}")


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
    session_idle_seconds: int = 7 * 24 * 3600
    cookie_name: str = "lottery_session"
    cookie_secure: bool | None = None  # None: Secure (and __Host-) over HTTPS (cookies.py)
    cookie_samesite: str = "lax"
    cors_origins: tuple[str, ...] = ()
    trusted_proxies: tuple[str, ...] = ()  # addresses/networks whose X-Forwarded-* are believed
    demo_balance_pence: int = 5_000
    play_timeout_seconds: int = 24 * 3600
    sweep_interval_seconds: float = 60.0
    pool_size: int = 0
    pool_dir: Path | None = None  # a cache of the database's pools (web/endpoint/pools/vault.py)
    pool_key: str = ""  # the pool-encryption key, 64 hex digits (shared by every instance)
    pool_key_file: Path | None = None
    rate_per_second: float = 20.0
    rate_burst: int = 60
    max_body_bytes: int = 16_384
    max_header_bytes: int = 16_384  # a request's line and headers (web/endpoint/http/protocol.py)
    max_headers: int = 100
    header_timeout_seconds: float = 10.0
    metrics_token: str = ""  # the bearer token of GET /api/metrics; none: not served (404)
    status_cache_seconds: float = 1.0  # /api/health and /api/metrics computed at most this often
    reveal_concurrency: int = 4  # closed pools' reveals sent at once, per process
    reveal_bytes_per_second: int = 16 * 1024 * 1024  # every reveal together, per process
    db_pool_size: int = 8
    db_connect_timeout_seconds: int = 5
    test_mode: bool = False
    test_pool_seed: str = ""  # test mode only: pools laid out from this seed (testmode.py)
    warm_pools: bool = False
    limits_required: bool = True  # no paid play before a daily and a weekly limit (limits.py)
    # play time (web/endpoint/player/playtime.py); 0 turns the log-out or the reality check off
    play_session_seconds: int = 3600  # a run of play is logged out after this
    cooling_off_seconds: int = 600  # then paid purchases are refused this long
    play_break_seconds: int = 600  # a gap this long between paid purchases ends a run
    reality_check_seconds: int = 1200  # a reality check this often in a run
    # the public log (web/endpoint/log/; docs/log.md)
    log_key_pem: str = ""  # the log's Ed25519 signing key (PEM); none: a development key
    log_key_file: Path | None = None
    log_origin: str = "lottery.invalid/log"  # the checkpoints' origin, the log key's name
    log_policy_file: Path | None = None  # a c2sp.org/tlog-policy; none: "quorum none"
    log_interval_ms: int = 1000  # the sequencer's period

    def __post_init__(self) -> None:
        if self.test_pool_seed and not self.test_mode:
            raise ValueError(
                "LOTTERY_TEST_POOL_SEED makes every pool's order known in advance: it is taken "
                "only with LOTTERY_TEST_MODE=1 (end-to-end tests)"
            )
        if self.demo_balance_pence < 0:
            raise ValueError("LOTTERY_DEMO_BALANCE_PENCE must not be negative")
        if self.cookie_samesite not in {"lax", "strict", "none"}:
            raise ValueError("LOTTERY_COOKIE_SAMESITE must be lax, strict or none")
        if self.cookie_samesite == "none" and self.cookie_secure is not True:
            raise ValueError("LOTTERY_COOKIE_SAMESITE=none needs LOTTERY_COOKIE_SECURE=1")
        if min(self.play_timeout_seconds, self.session_ttl_seconds, self.session_idle_seconds) <= 0:
            raise ValueError("timeouts must be positive")
        if self.db_connect_timeout_seconds < 2:  # libpq's least (psycopg makes 1 into 2)
            raise ValueError("LOTTERY_DB_CONNECT_TIMEOUT_SECONDS must be at least 2")
        if min(self.max_header_bytes, self.max_headers, self.header_timeout_seconds) <= 0:
            raise ValueError(
                "LOTTERY_MAX_HEADER_BYTES, LOTTERY_MAX_HEADERS and "
                "LOTTERY_HEADER_TIMEOUT_SECONDS must be positive"
            )
        if self.rate_per_second <= 0 or self.rate_burst <= 0:
            raise ValueError("LOTTERY_RATE_PER_SECOND and LOTTERY_RATE_BURST must be positive")
        if self.status_cache_seconds < 0:
            raise ValueError("LOTTERY_STATUS_CACHE_SECONDS must not be negative")
        if min(self.play_session_seconds, self.cooling_off_seconds, self.reality_check_seconds) < 0:
            raise ValueError(
                "LOTTERY_PLAY_SESSION_SECONDS, LOTTERY_COOLING_OFF_SECONDS and "
                "LOTTERY_REALITY_CHECK_SECONDS must not be negative"
            )
        if self.play_break_seconds <= 0:
            raise ValueError("LOTTERY_PLAY_BREAK_SECONDS must be positive")
        if self.log_interval_ms <= 0:
            raise ValueError("LOTTERY_LOG_INTERVAL_MS must be positive")
        if not self.log_origin or any(c.isspace() or c == "+" for c in self.log_origin):
            raise ValueError("LOTTERY_LOG_ORIGIN must be a name without spaces or '+'")
        if self.reveal_concurrency <= 0 or self.reveal_bytes_per_second <= 0:
            raise ValueError(
                "LOTTERY_REVEAL_CONCURRENCY and LOTTERY_REVEAL_BYTES_PER_SECOND must be positive"
            )

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
        pool_key_file = e.get("LOTTERY_POOL_KEY_FILE")
        log_key_file = e.get("LOTTERY_LOG_KEY_FILE")
        log_policy_file = e.get("LOTTERY_LOG_POLICY_FILE")
        origins = tuple(o.strip() for o in e.get("LOTTERY_CORS_ORIGINS", "").split(","))
        return cls(
            var_dir=var_dir,
            database_url=e.get("DATABASE_URL", ""),
            signing_key_file=Path(key_file) if key_file else None,
            signing_key_pem=e.get("LOTTERY_SIGNING_KEY", ""),
            retired_keys_dir=Path(retired) if retired else None,
            session_secret=e.get("LOTTERY_SESSION_SECRET", ""),
            session_ttl_seconds=_int(e, "LOTTERY_SESSION_TTL_SECONDS", 30 * 24 * 3600),
            session_idle_seconds=_int(e, "LOTTERY_SESSION_IDLE_SECONDS", 7 * 24 * 3600),
            cookie_secure=_auto(e, "LOTTERY_COOKIE_SECURE"),
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
            pool_key=e.get("LOTTERY_POOL_KEY", ""),
            pool_key_file=Path(pool_key_file) if pool_key_file else None,
            rate_per_second=_float(e, "LOTTERY_RATE_PER_SECOND", 20.0),
            rate_burst=_int(e, "LOTTERY_RATE_BURST", 60),
            max_body_bytes=_int(e, "LOTTERY_MAX_BODY_BYTES", 16_384),
            max_header_bytes=_int(e, "LOTTERY_MAX_HEADER_BYTES", 16_384),
            max_headers=_int(e, "LOTTERY_MAX_HEADERS", 100),
            header_timeout_seconds=_float(e, "LOTTERY_HEADER_TIMEOUT_SECONDS", 10.0),
            metrics_token=e.get("LOTTERY_METRICS_TOKEN", ""),
            status_cache_seconds=_float(e, "LOTTERY_STATUS_CACHE_SECONDS", 1.0),
            reveal_concurrency=_int(e, "LOTTERY_REVEAL_CONCURRENCY", 4),
            reveal_bytes_per_second=_int(e, "LOTTERY_REVEAL_BYTES_PER_SECOND", 16 * 1024 * 1024),
            db_pool_size=_int(e, "LOTTERY_DB_POOL_SIZE", 8),
            db_connect_timeout_seconds=_int(e, "LOTTERY_DB_CONNECT_TIMEOUT_SECONDS", 5),
            test_mode=_test_mode(e),
            test_pool_seed=e.get("LOTTERY_TEST_POOL_SEED", ""),
            warm_pools=e.get("LOTTERY_WARM_POOLS", "1").lower() in TRUE,
            limits_required=_switch(e, "LOTTERY_LIMITS_REQUIRED", True),
            play_session_seconds=_int(e, "LOTTERY_PLAY_SESSION_SECONDS", 3600),
            cooling_off_seconds=_int(e, "LOTTERY_COOLING_OFF_SECONDS", 600),
            play_break_seconds=_int(e, "LOTTERY_PLAY_BREAK_SECONDS", 600),
            reality_check_seconds=_int(e, "LOTTERY_REALITY_CHECK_SECONDS", 1200),
            log_key_pem=e.get("LOTTERY_LOG_KEY", ""),
            log_key_file=Path(log_key_file) if log_key_file else None,
            log_origin=e.get("LOTTERY_LOG_ORIGIN") or "lottery.invalid/log",
            log_policy_file=Path(log_policy_file) if log_policy_file else None,
            log_interval_ms=_int(e, "LOTTERY_LOG_INTERVAL_MS", 1000),
        )
