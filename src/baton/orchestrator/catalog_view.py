"""The catalog as a user sees it: each metric's definition (口径), type, unit and currency, time
grains, dimensions and owner, and whether this user's grants let them query it.

One view for every face that shows the catalog (the REST API's ``/api/catalog``, MCP's
``list_metrics`` and ``describe_metric``), so they cannot drift apart; each face picks its fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from baton.catalog.where import GRAINS, METRIC_TIME
from baton.contracts.common import Language, Unit

if TYPE_CHECKING:
    from baton.catalog.model import Catalog
    from baton.policy import Principal

MetricType = Literal["simple", "ratio", "derived"]
TIME_GRAINS = tuple(f"{METRIC_TIME}__{grain}" for grain in GRAINS)
"""What `group_by` takes for time (metric_time__day … __year)."""


class MemberView(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(description="the value in the data (what a filter compares with)")
    label: str


class DimensionView(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(description="what a query takes in group_by and in a where filter")
    label: str
    members: list[MemberView] = Field(description="the members the catalog lists (indexed members are not listed)")


class MetricView(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(description="the catalog name (what a query takes)")
    label: str
    description: str = Field(description="its definition, as every answer shows it")
    unit: Unit
    currency: str | None = Field(description="the ISO currency of a currency metric")
    type: MetricType
    dimensions: list[str] = Field(description="what it can be grouped and filtered by")
    time_grains: list[str] = Field(description="group_by names for time (metric_time__day … __year)")
    owner: str = Field(description="who answers for the definition")
    expression: str = Field(description="the aggregate it computes")
    filters: list[str] = Field(description="conditions every row it counts meets")
    time_column: str | None = Field(description="the date column(s) it is counted by")
    available: bool = Field(description="whether this user's grants let them query it")


class CatalogView(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    metrics: list[MetricView]
    dimensions: list[DimensionView]


def available(catalog: Catalog, principal: Principal, name: str) -> bool:
    """Whether ``principal`` may read every table ``name`` is computed from."""
    return all(principal.can_read_table(table) for table in catalog.tables_of(name))


def metric_view(catalog: Catalog, principal: Principal, name: str, language: Language) -> MetricView:
    """One catalog metric as ``principal`` sees it (``name`` must be a catalog metric)."""
    from baton.orchestrator.planning import metric_info

    metric, info = catalog.metrics[name], metric_info(catalog, name, language)
    kind: MetricType = "ratio" if metric.is_ratio else "derived" if metric.is_derived else "simple"
    return MetricView(
        name=name,
        label=info.label,
        description=info.definition,
        unit=metric.unit,
        currency=catalog.currency_of(name),
        type=kind,
        dimensions=list(metric.dimensions),
        time_grains=list(TIME_GRAINS),
        owner=info.owner,
        expression=info.expression,
        filters=list(info.filters),
        time_column=info.time_column,
        available=available(catalog, principal, name),
    )


def dimension_view(catalog: Catalog, name: str, language: Language) -> DimensionView:
    dim = catalog.dimensions[name]
    members = [MemberView(name=key, label=m.label.for_lang(language)) for key, m in dim.members.items()]
    return DimensionView(name=name, label=dim.label.for_lang(language), members=members)


def catalog_view(catalog: Catalog, principal: Principal, language: Language) -> CatalogView:
    """Every metric and dimension, labelled in ``language``."""
    return CatalogView(
        name=catalog.name,
        metrics=[metric_view(catalog, principal, name, language) for name in catalog.metrics],
        dimensions=[dimension_view(catalog, name, language) for name in catalog.dimensions],
    )


def describe_metric(
    catalog: Catalog, principal: Principal, name: str, language: Language
) -> tuple[MetricView, list[DimensionView]]:
    """A metric a caller named and the dimensions it has; an unknown or refused name is the typed
    error a query gives (:func:`baton.orchestrator.query.check_metric`)."""
    from baton.orchestrator.query import check_metric

    check_metric(name, catalog)
    view = metric_view(catalog, principal, name, language)
    return view, [dimension_view(catalog, dim, language) for dim in view.dimensions if dim in catalog.dimensions]
