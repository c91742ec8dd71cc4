"""Which dimensions of a dbt project ``baton init`` reads the members of from the data."""

from __future__ import annotations

from baton.catalog.introspect import _Column, _Table, members_read_from_data
from baton.catalog.model import Bilingual, Catalog, Dimension, Metric, Table

COLUMNS = {
    "country": _Column("country", "VARCHAR", "text", True, 90, 3, values=["us", "ca", "fr"], complete=True),
    "email": _Column("email", "VARCHAR", "text", True, 90, 3, values=["a@x.io", "b@x.io", "c@x.io"], complete=True),
    "is_lux": _Column("is_lux", "BOOLEAN", "boolean", True, 90, 2, values=["false", "true"], complete=True),
    "note": _Column("note", "VARCHAR", "text", True, 90, 90, values=[f"free text {i}" for i in range(90)]),
    "state": _Column("state", "VARCHAR", "text", True, 90, 2, values=["CA", "NY"], complete=True),
}
PROFILES = [_Table("listings", 100, COLUMNS, True)]


def _dimension(column: str, **extra: object) -> Dimension:
    return Dimension(label=Bilingual(en=column, zh=column), columns={"listings": column}, **extra)


CATALOG = Catalog(
    name="rentals",
    tables={"listings": Table(label=Bilingual(en="listings", zh="listings"), time_column="created_at")},
    dimensions={name: _dimension(name) for name in COLUMNS} | {"state_said": _dimension("state")},
    metrics={
        "listings": Metric(
            label=Bilingual(en="listings", zh="listings"),
            description=Bilingual(en="listings", zh="listings"),
            owner="data",
            table="listings",
            expression="COUNT(*)",
            dimensions=[*COLUMNS, "state_said"],
        )
    },
)


def test_a_category_of_few_short_values_is_read_from_the_data() -> None:
    read = members_read_from_data(CATALOG, PROFILES, pii={"listings.email": None}, said={"state_said"})
    indexed = {name for name, d in read.dimensions.items() if d.index_members}
    # free text, personal data, True/False and a dimension the project itself said nothing to read are left
    assert indexed == {"country", "state"}
