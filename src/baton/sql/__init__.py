"""Governed SQL: the parser-based firewall and the approval lifecycle."""

from baton.sql.errors import MESSAGES, FirewallError
from baton.sql.firewall import ApprovedSql, Dialect, approve, approved_sql_id
from baton.sql.functions import ALLOWED_ANONYMOUS, ALLOWED_FUNCTIONS
from baton.sql.lifecycle import ApprovalRegistry
from baton.sql.rewrite import mask_expression

__all__ = [
    "ALLOWED_ANONYMOUS",
    "ALLOWED_FUNCTIONS",
    "MESSAGES",
    "ApprovalRegistry",
    "ApprovedSql",
    "Dialect",
    "FirewallError",
    "approve",
    "approved_sql_id",
    "mask_expression",
]
