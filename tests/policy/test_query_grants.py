"""Grants checked on the question: dimensions that cannot group or filter for a user."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from baton.catalog.model import Catalog
from baton.contracts.semantic import MemberFilter, SemanticQuery, TimeRange
from baton.errors import PermissionDenied
from baton.policy.model import Policy
from baton.policy.query_grants import check_grants

LABEL = {"zh": "x", "en": "x"}
CATALOG = Catalog.model_validate(
    {
        "name": "shop",
        "tables": {
            "orders": {
                "label": LABEL,
                "time_column": "day",
                "joins": {"customer": {"table": "customers", "on": {"customer_id": "id"}}},
            },
            "customers": {"label": LABEL},
        },
        "dimensions": {
            "channel": {"label": LABEL, "columns": {"orders": "channel"}},
            "customer__name": {"label": LABEL, "columns": {"orders": "customer.name", "customers": "name"}},
            "customer__region": {"label": LABEL, "columns": {"orders": "customer.region"}},
        },
        "metrics": {
            "revenue": {
                "label": LABEL,
                "description": LABEL,
                "table": "orders",
                "expression": "SUM(amount)",
                "dimensions": ["channel", "customer__name", "customer__region"],
                "owner": "finance",
            }
        },
    }
)
POLICY = Policy.model_validate(
    {
        "version": "1",
        "default_user": "analyst",
        "pii_columns": {"customers.name": {"mask": "full"}},
        "roles": {
            "all": {"tables": {"orders": {}, "customers": {}}, "pii": "mask"},
            "admin": {"tables": {"orders": {}, "customers": {}}, "pii": "allow"},
            "east": {"tables": {"orders": {}, "customers": {"row_filter": {"region": ["east"]}}}, "pii": "allow"},
        },
        "users": {"analyst": {"roles": ["all"]}, "admin": {"roles": ["admin"]}, "east": {"roles": ["east"]}},
    }
)


def _query(**fields: Any) -> SemanticQuery:
    span = TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30))
    return SemanticQuery(metrics=("revenue",), time_range=span, as_of=date(2026, 7, 1), **fields)


@pytest.mark.parametrize(
    ("user", "fields", "refused"),
    [
        ("analyst", {"dimensions": ("customer__name",)}, "personal-data column customers.name"),
        ("analyst", {"filters": (MemberFilter(dimension="customer__name", members=("Li",)),)}, "customers.name"),
        ("analyst", {"where": ("customer__name = 'Li'",)}, "customers.name"),
        ("east", {"dimensions": ("customer__region",)}, "through a join from customers.region"),
        ("east", {"where": ("customer__region <> 'east'",)}, "customers.region"),
        ("admin", {"dimensions": ("customer__name",)}, None),
        ("analyst", {"dimensions": ("channel",)}, None),
        ("east", {"dimensions": ("channel",)}, None),
    ],
)
def test_dimensions_a_user_cannot_group_or_filter_by(user: str, fields: dict[str, Any], refused: str | None) -> None:
    query, principal = _query(**fields), POLICY.principal(user)
    if refused is None:
        check_grants(CATALOG, query, principal, "en")
        return
    with pytest.raises(PermissionDenied) as caught:
        check_grants(CATALOG, query, principal, "en")
    assert refused in caught.value.message_en and caught.value.message_zh != caught.value.message_en


def test_a_refusal_names_members_by_their_labels_as_plain_text() -> None:
    """No Python list or raw code in the message: the dimension's and members' catalog labels."""
    from pathlib import Path

    from baton.catalog.loader import load_catalog
    from baton.policy.model import load_policy

    demo = Path(__file__).parents[2] / "src/baton/demo/data"
    catalog, policy = load_catalog(demo / "catalog.yaml"), load_policy(demo / "policies.yaml")
    span = TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30))
    south_and_north = MemberFilter(dimension="region", members=("华南", "华北"))
    asked = SemanticQuery(metrics=("gmv",), filters=(south_and_north,), time_range=span, as_of=date(2026, 7, 1))
    with pytest.raises(PermissionDenied) as caught:
        check_grants(catalog, asked, policy.principal("east_manager"), "en")
    en, zh = caught.value.message_en, caught.value.message_zh
    assert (
        en
        == "Not permitted: user 'east_manager' may only see data for region East China, not South China, North China."
    )
    assert zh == "不允许：用户“east_manager”只能查看区域为华东的数据，无权查看华南、华北。"
    allowed_out = MemberFilter(dimension="region", members=("华东",), exclude=True)
    with pytest.raises(PermissionDenied) as caught:
        check_grants(
            catalog, asked.model_copy(update={"filters": (allowed_out,)}), policy.principal("east_manager"), "en"
        )
    assert "[" not in caught.value.message_en and "region East China" in caught.value.message_en
