"""Baton — a multi-agent data analyst that never drops the baton.

    >>> import baton
    >>> answer = baton.ask("上个月各渠道的GMV是多少？")      # doctest: +SKIP
    >>> answer.status, answer.result.row_count            # doctest: +SKIP
    ('answered', 4)
    >>> with baton.Session(config="baton.toml") as s:      # doctest: +SKIP
    ...     answers = [s.ask(q) for q in questions]       # one catalog, one connection
    >>> baton.query(["revenue"], group_by=["metric_time__month"])  # doctest: +SKIP

The public surface is this module's ``__all__``; everything else is private and may change.
"""

from __future__ import annotations

from baton._api import analyze, ask, query
from baton.contracts.answer import Answer
from baton.errors import (
    AmbiguousQuestion,
    BatonError,
    BudgetExceeded,
    ConfigError,
    HandoffViolation,
    InsufficientEvidence,
    InternalFailure,
    InvalidInput,
    ModelFailure,
    OutOfScope,
    PermissionDenied,
    PolicyRefusal,
    QueryTimeout,
    QuestionRefused,
    TimeExpressionError,
    ToolFailure,
    UnknownMetric,
    UserCancelled,
    UserError,
    WarehouseUnavailable,
)
from baton.notebook import register as _register_notebook
from baton.orchestrator.session import Session

_register_notebook()  # answers show themselves in notebooks (loaded on first display: baton.notebook)

__version__ = "0.1.0"

__all__ = [
    "AmbiguousQuestion",
    "Answer",
    "BatonError",
    "BudgetExceeded",
    "ConfigError",
    "HandoffViolation",
    "InsufficientEvidence",
    "InternalFailure",
    "InvalidInput",
    "ModelFailure",
    "OutOfScope",
    "PermissionDenied",
    "PolicyRefusal",
    "QueryTimeout",
    "QuestionRefused",
    "Session",
    "TimeExpressionError",
    "ToolFailure",
    "UnknownMetric",
    "UserCancelled",
    "UserError",
    "WarehouseUnavailable",
    "__version__",
    "analyze",
    "ask",
    "query",
]
