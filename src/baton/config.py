"""Settings: which warehouse, catalog and policy a command works on, and its defaults.

Resolution order: ``--config FILE``, then ``BATON_CONFIG``, then the default demo in the
user's data directory (built on first use so ``baton ask`` works right after install).
Relative paths in ``baton.toml`` are relative to the file itself.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from baton.contracts.run import Budget
from baton.errors import ConfigError
from baton.messages import both


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    config_path: Path
    warehouse_url: str
    catalog_path: Path
    policy_path: Path
    as_of: date | None = None
    user: str = "analyst"
    runs_dir: Path
    timeout_s: float = Field(default=30.0, gt=0, le=600)
    row_cap: int = Field(default=10_000, ge=1, le=1_000_000)
    memory_limit: str = "2GB"
    threads: int = Field(default=2, ge=1, le=64)
    budget: Budget = Field(default_factory=Budget)

    @field_validator("warehouse_url")
    @classmethod
    def _known_scheme(cls, value: str) -> str:
        from baton.warehouse.engine import engine_name_for_url, supported_schemes

        if engine_name_for_url(value) is None:
            raise ValueError(f"warehouse url must start with one of {', '.join(supported_schemes())}")
        return value

    @property
    def engine(self) -> str:
        """The registered engine profile for the warehouse URL (``duckdb``, ``postgres``)."""
        from baton.warehouse.engine import engine_name_for_url

        name = engine_name_for_url(self.warehouse_url)
        assert name is not None  # validated above
        return name

    def duckdb_path(self) -> Path:
        raw = self.warehouse_url.removeprefix("duckdb://")
        raw = raw.removeprefix("/") if not raw.startswith("//") else raw[1:]
        path = Path(raw)
        return path if path.is_absolute() else (self.config_path.parent / path).resolve()


def default_demo_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("baton", appauthor=False)) / "demo"


def fallback_runs_dir() -> Path:
    """Where a run is recorded when no config could be loaded (e.g. a malformed baton.toml)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("baton", appauthor=False)) / "runs"


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(*both("config.not_a_table", name=name))
    return value


def load_settings(path: Path) -> Settings:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(*both("config.cannot_read", path=path, error=exc.strerror)) from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(*both("config.not_toml", path=path, error=exc)) from exc
    base = path.resolve().parent
    try:
        warehouse = _section(data, "warehouse")
        catalog = _section(data, "catalog")
        policy = _section(data, "policy")
        defaults = _section(data, "defaults")
        limits = _section(data, "limits")
        runs = _section(data, "runs")
        budget = _section(data, "budget")
        fields: dict[str, Any] = {
            "config_path": path.resolve(),
            "warehouse_url": warehouse.get("url"),
            "catalog_path": base / str(catalog.get("path", "catalog.yaml")),
            "policy_path": base / str(policy.get("path", "policies.yaml")),
            "as_of": defaults.get("as_of"),
            "user": defaults.get("user", "analyst"),
            "runs_dir": base / str(runs.get("path", "runs")),
            **dict(limits.items()),
            "budget": budget,
        }
        return Settings.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise ConfigError(
            *both("config.bad_field", path=path, field=field, error=first["msg"]),
            detail={"file": str(path)},
        ) from exc


def resolve_config(explicit: Path | None = None, *, build_default: Callable[[Path], object] | None = None) -> Settings:
    """The settings a command should use (explicit file, BATON_CONFIG, or the default demo).

    ``build_default`` builds the default demo on first use; it is passed in by the entry
    points so this module does not depend on the demo generator.
    """
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError(*both("config.not_found", path=explicit))
        return load_settings(explicit)
    env = os.environ.get("BATON_CONFIG")
    if env:
        return resolve_config(Path(env), build_default=build_default)
    demo_dir = default_demo_dir()
    config = demo_dir / "baton.toml"
    if not config.is_file():
        if build_default is None:
            raise ConfigError(*both("config.no_demo"))
        build_default(demo_dir)
    return load_settings(config)
