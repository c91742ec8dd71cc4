"""Scenario files: which effects and data faults to plant in the demo warehouse.

A scenario is YAML validated by :class:`Scenario`. Anything the generator could not honour
(an unknown member, a traffic effect on category, a period outside the data) is refused up
front with a :class:`~baton.errors.ConfigError` naming the file and the field, because a
silently ignored effect would make the ground truth lie.
"""

from __future__ import annotations

import datetime as dt
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Self

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from baton.demo.world import DATA_END, DATA_START, MEMBERS, TRAFFIC_DIMENSIONS
from baton.errors import ConfigError

Metric = Literal["traffic", "conversion", "order_value", "refund_rate"]
FaultTable = Literal["fact_order", "fact_traffic"]

EXPECTED_FACTOR: dict[str, str] = {
    "traffic": "visitors",
    "conversion": "conversion_rate",
    "order_value": "aov",
    "refund_rate": "refund_rate",
}
"""The factor of a GMV-style decomposition that each planted metric moves."""


def _check_in_range(day: dt.date, what: str) -> dt.date:
    if not DATA_START <= day <= DATA_END:
        raise ValueError(f"{what} {day} is outside the data range {DATA_START} .. {DATA_END}")
    return day


class Effect(BaseModel):
    """One planted change: ``metric`` moves by ``change`` (relative) where ``where`` holds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    metric: Metric
    where: dict[str, str] = Field(default_factory=dict)
    period: tuple[dt.date, dt.date]
    change: float

    @field_validator("where")
    @classmethod
    def _known_members(cls, where: dict[str, str]) -> dict[str, str]:
        for dimension, member in where.items():
            if dimension not in MEMBERS:
                raise ValueError(f"unknown dimension {dimension!r}; expected one of {', '.join(MEMBERS)}")
            if member not in MEMBERS[dimension]:
                allowed = ", ".join(MEMBERS[dimension])
                raise ValueError(f"unknown {dimension} member {member!r}; expected one of {allowed}")
        return where

    @field_validator("period")
    @classmethod
    def _period_in_range(cls, period: tuple[dt.date, dt.date]) -> tuple[dt.date, dt.date]:
        start, end = period
        _check_in_range(start, "period start")
        _check_in_range(end, "period end")
        if end < start:
            raise ValueError(f"period end {end} is before its start {start}")
        return period

    @field_validator("change")
    @classmethod
    def _change_possible(cls, change: float) -> float:
        if change <= -1.0:
            raise ValueError(f"change {change} would remove everything or go negative; it must be > -1")
        if change > 10.0:
            raise ValueError(f"change {change} is implausibly large; it must be <= 10 (i.e. +1000 %)")
        return change

    @model_validator(mode="after")
    def _dimensions_fit_metric(self) -> Self:
        if self.metric == "traffic":
            extra = sorted(set(self.where) - set(TRAFFIC_DIMENSIONS))
            if extra:
                raise ValueError(
                    f"a traffic effect cannot select on {', '.join(extra)}: fact_traffic has only "
                    f"{', '.join(TRAFFIC_DIMENSIONS)}"
                )
        return self

    @property
    def expected_factor(self) -> str:
        return EXPECTED_FACTOR[self.metric]


class DataFault(BaseModel):
    """A partly loaded day: only ``keep_fraction`` of that table's rows for ``date`` survive."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    table: FaultTable
    date: dt.date
    keep_fraction: float = Field(ge=0.0, lt=1.0)

    @field_validator("date")
    @classmethod
    def _date_in_range(cls, day: dt.date) -> dt.date:
        return _check_in_range(day, "date")


class Scenario(BaseModel):
    """A named set of planted effects and data faults (may be empty: the null scenario)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    description: str = ""
    effects: tuple[Effect, ...] = ()
    data_faults: tuple[DataFault, ...] = ()

    @model_validator(mode="after")
    def _unique_names(self) -> Self:
        names = [effect.name for effect in self.effects]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"effect names must be unique; repeated: {', '.join(duplicates)}")
        faults = [(fault.table, fault.date) for fault in self.data_faults]
        if len(set(faults)) != len(faults):
            raise ValueError("at most one data fault per (table, date)")
        return self


def _scenarios_dir() -> resources.abc.Traversable:
    return resources.files("baton.demo").joinpath("scenarios")


def packaged_scenarios() -> dict[str, Path]:
    """Name -> path of every scenario shipped with Baton (``default``, ``null``, ...)."""
    folder = _scenarios_dir()
    found = {
        entry.name.removesuffix(".yaml"): Path(str(entry))
        for entry in folder.iterdir()
        if entry.is_file() and entry.name.endswith(".yaml")
    }
    return dict(sorted(found.items()))


def _field_path(location: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for item in location:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        else:
            parts.append(f".{item}" if parts else item)
    return "".join(parts) or "(top level)"


def parse_scenario(data: Any, source: str) -> Scenario:
    """Validate already-loaded YAML ``data``; ``source`` names the file in errors."""
    if not isinstance(data, dict):
        raise ConfigError(
            f"Scenario file {source}: expected a mapping at the top level, got {type(data).__name__}",
            f"场景文件 {source}：顶层应为映射（mapping），实际为 {type(data).__name__}",
            detail={"file": source},
        )
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = _field_path(tuple(first["loc"]))
        reason = str(first["msg"]).removeprefix("Value error, ")
        raise ConfigError(
            f"Scenario file {source}: field {field}: {reason}",
            f"场景文件 {source}：字段 {field} 无效：{reason}",
            detail={"file": source, "field": field, "errors": len(exc.errors())},
        ) from exc


def load_scenario(path: Path | None) -> Scenario:
    """Read and validate a scenario file; ``None`` means the packaged default scenario."""
    if path is None:
        source = "default.yaml (packaged)"
        text = _scenarios_dir().joinpath("default.yaml").read_text(encoding="utf-8")
    else:
        source = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(
                f"Scenario file {source} cannot be read: {exc.strerror or exc}",
                f"无法读取场景文件 {source}：{exc.strerror or exc}",
                detail={"file": source},
            ) from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(
            f"Scenario file {source} is not valid YAML: {exc}",
            f"场景文件 {source} 不是合法的 YAML：{exc}",
            detail={"file": source},
        ) from exc
    return parse_scenario(data, source)
