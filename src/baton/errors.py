"""Baton's exception tree, in one place.

Every error Baton raises on purpose is a :class:`BatonError` with a stable ``code`` and a
message in English and Chinese; the user sees the message in the question's language and
never a stack trace (the trace keeps the detail).

    BatonError                      code
    ├── UserError                   the question or input is wrong; the user can fix it
    │   ├── InvalidInput            invalid_input
    │   ├── UnknownMetric           unknown_metric
    │   ├── AmbiguousQuestion       ambiguous_question
    │   ├── TimeExpressionError     invalid_time
    │   ├── ConfigError             invalid_config
    │   └── UserCancelled           user_cancelled
    ├── PolicyRefusal               Baton may not do it; nothing was run
    │   ├── PermissionDenied        permission_denied
    │   └── OutOfScope              out_of_scope  (change data or rules: not a read-only analyst's job)
    ├── HandoffViolation            handoff_violation (a relay invariant broke; the run fails closed)
    └── InternalFailure             Baton or a tool failed; not the user's fault
        ├── ToolFailure             tool_failure
        ├── ModelFailure            model_failure
        ├── WarehouseUnavailable    warehouse_unavailable
        ├── QueryTimeout            timeout
        ├── BudgetExceeded          budget_exceeded
        └── InsufficientEvidence    insufficient_evidence

Lower-level exceptions are wrapped with ``raise … from exc`` so the cause stays in the trace.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

Language = Literal["zh", "en"]


class BatonError(Exception):
    """Root of every error Baton raises on purpose."""

    code: ClassVar[str] = "baton_error"
    kind: ClassVar[str] = "internal"

    def __init__(
        self,
        message_en: str,
        message_zh: str | None = None,
        *,
        code: str | None = None,
        detail: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message_en)
        self.message_en = message_en
        self.message_zh = message_zh or message_en
        self.detail: dict[str, Any] = dict(detail or {})
        if code is not None:
            self.instance_code = code

    @property
    def error_code(self) -> str:
        """The code of this instance (a class may carry several, e.g. firewall codes)."""
        return getattr(self, "instance_code", type(self).code)

    def message(self, language: Language = "en") -> str:
        return self.message_zh if language == "zh" else self.message_en

    def to_dict(self, language: Language = "en") -> dict[str, Any]:
        """The one JSON error shape: ``{"code", "message", "kind", "detail"}``."""
        return {
            "code": self.error_code,
            "message": self.message(language),
            "kind": self.kind,
            "detail": self.detail,
        }


class UserError(BatonError):
    code = "invalid_input"
    kind = "user"


class InvalidInput(UserError):
    code = "invalid_input"


class UnknownMetric(UserError):
    code = "unknown_metric"


class AmbiguousQuestion(UserError):
    code = "ambiguous_question"


class TimeExpressionError(UserError):
    code = "invalid_time"


class ConfigError(UserError):
    code = "invalid_config"


class UserCancelled(UserError):
    code = "user_cancelled"


class PolicyRefusal(BatonError):
    code = "permission_denied"
    kind = "policy"


class PermissionDenied(PolicyRefusal):
    code = "permission_denied"


class OutOfScope(PolicyRefusal):
    code = "out_of_scope"


class HandoffViolation(BatonError):
    code = "handoff_violation"
    kind = "internal"


class InternalFailure(BatonError):
    code = "tool_failure"
    kind = "internal"


class ToolFailure(InternalFailure):
    code = "tool_failure"


class ModelFailure(InternalFailure):
    code = "model_failure"


class WarehouseUnavailable(InternalFailure):
    code = "warehouse_unavailable"


class QueryTimeout(InternalFailure):
    code = "timeout"


class BudgetExceeded(InternalFailure):
    code = "budget_exceeded"


class InsufficientEvidence(InternalFailure):
    code = "insufficient_evidence"
