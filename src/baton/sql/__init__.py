"""Governed SQL: the parser-based firewall and the approval lifecycle."""

from baton.errors import FirewallError
from baton.sql.budget import check_aggregate_query_budget
from baton.sql.firewall import ApprovedSql, approve, approved_sql_id
from baton.sql.functions import ALLOWED_ANONYMOUS, ALLOWED_FUNCTIONS
from baton.sql.lifecycle import ApprovalRegistry
from baton.sql.rewrite import mask_expression

__all__ = [
    "ALLOWED_ANONYMOUS",
    "ALLOWED_FUNCTIONS",
    "ApprovalRegistry",
    "ApprovedSql",
    "FirewallError",
    "approve",
    "approved_sql_id",
    "check_aggregate_query_budget",
    "mask_expression",
]
