"""Settings from LOTTERY_* variables and DATABASE_URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from web.endpoint.settings import Settings


def test_defaults_keep_state_under_var_with_sqlite() -> None:
    settings = Settings.from_env({})
    assert settings.demo_balance_pence == 5_000
    assert settings.play_timeout_seconds == 24 * 3600
    assert settings.db_url.startswith("sqlite:///") and "var" in settings.db_url
    assert settings.pools_path == settings.var_dir / "pools"
    assert not settings.test_mode and settings.cors_origins == ()
    assert settings.warm_pools
    assert settings.db_connect_timeout_seconds == 5
    assert settings.limits_required  # limits chosen before paid play (it was off before)


def test_environment_overrides(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {
            "LOTTERY_VAR_DIR": str(tmp_path),
            "DATABASE_URL": "postgresql://u@h:5432/db",
            "LOTTERY_CORS_ORIGINS": "https://a.example, https://b.example,",
            "LOTTERY_DEMO_BALANCE_PENCE": "10000",
            "LOTTERY_PLAY_TIMEOUT_SECONDS": "60",
            "LOTTERY_TEST_MODE": "1",
            "LOTTERY_DB_CONNECT_TIMEOUT_SECONDS": "3",
            "LOTTERY_LIMITS_REQUIRED": "0",
        }
    )
    assert not settings.limits_required
    assert settings.db_connect_timeout_seconds == 3
    assert settings.var_dir == tmp_path
    assert settings.db_url == "postgresql+psycopg://u@h:5432/db"
    assert settings.cors_origins == ("https://a.example", "https://b.example")
    assert settings.demo_balance_pence == 10_000 and settings.play_timeout_seconds == 60
    assert settings.test_mode


def test_bad_values_fail_with_the_variable_named() -> None:
    with pytest.raises(ValueError, match="LOTTERY_DEMO_BALANCE_PENCE"):
        Settings.from_env({"LOTTERY_DEMO_BALANCE_PENCE": "lots"})
    with pytest.raises(ValueError, match="LOTTERY_COOKIE_SAMESITE"):
        Settings.from_env({"LOTTERY_COOKIE_SAMESITE": "none"})
    with pytest.raises(ValueError, match="LOTTERY_DB_CONNECT_TIMEOUT_SECONDS"):
        Settings.from_env({"LOTTERY_DB_CONNECT_TIMEOUT_SECONDS": "1"})
    with pytest.raises(ValueError, match="LOTTERY_LIMITS_REQUIRED"):
        Settings.from_env({"LOTTERY_LIMITS_REQUIRED": "maybe"})
