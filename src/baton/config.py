"""Settings: which warehouse, catalog and policy a command works on, and its defaults.

Resolution order: ``--config FILE``, then ``BATON_CONFIG``, then ``baton.toml`` in the current
folder (a project made by ``baton init``, as dbt finds ``dbt_project.yml``), then the default
demo in the user's data directory (built on first use so ``baton ask`` works right after install).
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
from baton.llm.settings import LlmSettings
from baton.messages import both


class Settings(BaseModel):
    """Which warehouse, catalog and policy file a command works on, and its defaults. Paths
    are relative to the baton.toml they are written in."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    config_path: Path
    warehouse_url: str = Field(
        description="duckdb:///relative.duckdb, duckdb:////absolute.duckdb, postgresql://user@host:port/db "
        "or sc://host:port/;database=db (Spark Connect)"
    )
    catalog_path: Path = Field(default=Path("catalog.yaml"), description="the metric catalog")
    policy_path: Path = Field(default=Path("policies.yaml"), description="who may see what")
    as_of: date | None = Field(default=None, description="the date relative periods are read against (default: today)")
    user: str | None = Field(default=None, description="who Baton acts for (default: the policy's default_user)")
    runs_dir: Path = Field(default=Path("runs"), description="where runs, traces and reports are kept")
    timeout_s: float = Field(default=30.0, gt=0, le=600, description="seconds before a query is stopped")
    row_cap: int = Field(default=10_000, ge=1, le=1_000_000, description="most rows a query returns")
    memory_limit: str = Field(default="2GB", description="DuckDB memory limit")
    threads: int = Field(default=2, ge=1, le=64, description="DuckDB threads")
    budget: Budget = Field(default_factory=Budget, description="limits of one run ([budget] section)")
    llm: LlmSettings | None = Field(default=None, description="the language model ([llm] section; absent: none)")

    @field_validator("warehouse_url")
    @classmethod
    def _known_scheme(cls, value: str) -> str:
        from baton.warehouse.engine import engine_name_for_url, supported_schemes

        if engine_name_for_url(value) is None:
            raise ValueError(f"warehouse url must start with one of {', '.join(supported_schemes())}")
        return value

    @property
    def engine(self) -> str:
        """The registered engine profile for the warehouse URL (``duckdb``, ``postgres``, ``spark``)."""
        from baton.warehouse.engine import engine_name_for_url

        name = engine_name_for_url(self.warehouse_url)
        assert name is not None  # validated above
        return name

    def duckdb_path(self) -> Path:
        raw = self.warehouse_url.removeprefix("duckdb://")
        raw = raw.removeprefix("/") if not raw.startswith("//") else raw[1:]
        path = Path(raw)
        return path if path.is_absolute() else (self.config_path.parent / path).resolve()


def baton_version() -> str:
    """Baton's version (CLI, server, MCP): the installed distribution's, else the package's own
    ``__version__`` (a source tree), else ``unknown``."""
    import sys
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("baton-analyst")
    except PackageNotFoundError:
        return str(getattr(sys.modules.get("baton"), "__version__", "unknown"))


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


TOML_KEYS: dict[tuple[str, str], str] = {
    ("warehouse", "url"): "warehouse_url",
    ("catalog", "path"): "catalog_path",
    ("policy", "path"): "policy_path",
    ("defaults", "as_of"): "as_of",
    ("defaults", "user"): "user",
    ("runs", "path"): "runs_dir",
    ("limits", "timeout_s"): "timeout_s",
    ("limits", "row_cap"): "row_cap",
    ("limits", "memory_limit"): "memory_limit",
    ("limits", "threads"): "threads",
}
"""(section, key) in baton.toml -> the Settings field it sets ([budget] is the Budget model)."""
_PATHS = ("catalog_path", "policy_path", "runs_dir")


def load_settings(path: Path) -> Settings:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(*both("config.cannot_read", path=path, error=exc.strerror)) from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(*both("config.not_toml", path=path, error=exc)) from exc
    base = path.resolve().parent
    try:
        fields: dict[str, Any] = {"config_path": path.resolve(), "budget": _section(data, "budget")}
        if "llm" in data:  # absent: no model ([llm] is the LlmSettings model)
            fields["llm"] = _section(data, "llm")
            unknown = sorted(set(fields["llm"]) - set(LlmSettings.model_fields))
            if unknown:
                raise ConfigError(*both("config.unknown_key", path=path, section="llm", key=unknown[0]))
        for section in dict.fromkeys(s for s, _ in TOML_KEYS):
            for key, value in _section(data, section).items():
                name = TOML_KEYS.get((section, key))
                if name is None:  # a typo must not be silently ignored
                    raise ConfigError(*both("config.unknown_key", path=path, section=section, key=key))
                fields[name] = base / str(value) if name in _PATHS else value
        for name in _PATHS:
            fields.setdefault(name, base / str(Settings.model_fields[name].default))
        return Settings.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise ConfigError(
            *both("config.bad_field", path=path, field=field, error=first["msg"]),
            detail={"file": str(path)},
        ) from exc


def resolve_config(explicit: Path | None = None, *, build_default: Callable[[Path], object] | None = None) -> Settings:
    """The settings a command should use (explicit file, BATON_CONFIG, ./baton.toml, or the default demo).

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
    here = Path.cwd() / "baton.toml"
    if here.is_file():
        return load_settings(here)
    demo_dir = default_demo_dir()
    config = demo_dir / "baton.toml"
    if not config.is_file():
        if build_default is None:
            raise ConfigError(*both("config.no_demo"))
        build_default(demo_dir)
    return load_settings(config)
