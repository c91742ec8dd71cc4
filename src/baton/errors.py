"""Baton's exception tree, in one place.

Every error Baton raises on purpose is a :class:`BatonError` with a stable ``code`` and a
message in English and Chinese; the user sees the message in the question's language and
never a stack trace (the trace keeps the detail).

    BatonError                      code
    ├── UserError                   the question or input is wrong; the user can fix it
    │   ├── InvalidInput            invalid_input
    │   ├── UnknownMetric           unknown_metric
    │   │   └── UnsupportedMetric   unsupported_metric (the catalog names it and says why it is not computed)
    │   ├── AmbiguousQuestion       ambiguous_question
    │   ├── TimeExpressionError     invalid_time
    │   ├── ConfigError             invalid_config
    │   ├── MissingDependency       missing_dependency (an optional package is not installed)
    │   ├── UserCancelled           user_cancelled
    │   ├── NotFound                not_found (no such run for this user: another user's is not found either)
    │   └── Conflict                conflict (not possible in the resource's present state)
    ├── PolicyRefusal               Baton may not do it; nothing was run
    │   ├── Unauthorized            unauthorized (no valid API token or signed-in session)
    │   ├── PermissionDenied        permission_denied
    │   │   └── ExportNotPermitted  export_not_permitted (detail rows; the role has no export_detail)
    │   ├── OutOfScope              out_of_scope  (change data or rules: not a read-only analyst's job)
    │   ├── FirewallError           one code per firewall refusal (pii_denied, not_read_only, …)
    │   └── OutputBlocked           output_blocked (the narrative failed the output gate)
    ├── HandoffViolation            handoff_violation (a relay invariant broke; the run fails closed)
    └── InternalFailure             Baton or a tool failed; not the user's fault
        ├── ToolFailure             tool_failure
        ├── ModelFailure            model_failure
        ├── WarehouseUnavailable    warehouse_unavailable
        ├── QueryTimeout            timeout
        ├── BudgetExceeded          budget_exceeded
        ├── ServerBusy              server_busy (every worker busy and the queue full: try again)
        └── InsufficientEvidence    insufficient_evidence
            └── InsufficientData    too little information for a statistic (n < 2, zero variance)

    InvalidInput
    ├── QuestionRefused             a split or a share the catalog does not define, or text Baton
    │   │                           will not take (empty, too long): the run ends refused, not failed
    │   └── IncompletePeriod        incomplete_period (every day of a compared period is half loaded:
    │                               its change is the data's, so there is nothing to explain)
    ├── StatsInputError             malformed arguments to a statistic (negative counts, NaN)
    ├── InvalidChartSpec            invalid_chart_spec (the Vega-Lite schema rejects a spec)
    └── ChartNotApplicable          chart_not_applicable (the result's shape does not fit the chart)

Lower-level exceptions are wrapped with ``raise … from exc`` so the cause stays in the trace;
each engine profile (``baton.warehouse.engines``) holds the table that maps its driver's
exceptions into this tree. :data:`EXIT_CODES` is the one mapping from an error to the exit
code of the ``baton`` command.

An error has two parts. What a user may read — the code, the message and ``detail`` — is
:meth:`BatonError.to_dict`, the one shape of every user-facing error (``--json``,
``Answer.error``, the stored run). What only the run's trace may hold — a driver's own text,
which quotes data values and the rewritten SQL — goes in ``internal`` (the ``internal=``
keyword) and appears only in :meth:`BatonError.to_trace_dict`. Nothing read from an engine
belongs in a message or in ``detail``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from baton.contracts.common import Language
from baton.messages import text


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
        internal: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message_en)
        self.message_en = message_en
        self.message_zh = message_zh or message_en
        self.detail: dict[str, Any] = dict(detail or {})
        self.internal: dict[str, Any] = dict(internal or {})
        """For the run's trace only (an engine's own text): never in a message or ``to_dict``."""
        if code is not None:
            self.instance_code = code

    @property
    def error_code(self) -> str:
        """The code of this instance (a class may carry several, e.g. firewall codes)."""
        return getattr(self, "instance_code", type(self).code)

    def message(self, language: Language = "en") -> str:
        return self.message_zh if language == "zh" else self.message_en

    def to_dict(self, language: Language = "en") -> dict[str, Any]:
        """The one JSON error shape a user sees: ``{"code", "message", "kind", "detail"}``
        (never the ``internal`` part)."""
        return {
            "code": self.error_code,
            "message": self.message(language),
            "kind": self.kind,
            "detail": self.detail,
        }

    def to_trace_dict(self, language: Language = "en") -> dict[str, Any]:
        """:meth:`to_dict` plus ``internal`` when there is one: what a run's trace records."""
        out = self.to_dict(language)
        if self.internal:
            out["internal"] = dict(self.internal)
        return out


class UserError(BatonError):
    code = "invalid_input"
    kind = "user"


class InvalidInput(UserError):
    code = "invalid_input"


class QuestionRefused(InvalidInput):
    """A question Baton declines as asked, not a failure: a split or a share the catalog does not
    define, or text it will not take (empty, control characters, too long). The run ends refused."""

    code = "invalid_input"


class IncompletePeriod(QuestionRefused):
    """An analysis whose period holds no complete day ("why was GMV so low on 12 June" on a half
    loaded 12 June): the answer is the load fault, said as a refusal to explain it, not a failure."""

    code = "incomplete_period"


class UnknownMetric(UserError):
    code = "unknown_metric"


class UnsupportedMetric(UnknownMetric):
    """A metric the catalog knows by name but Baton refuses to compute; carries the catalog's reason."""

    code = "unsupported_metric"


class AmbiguousQuestion(UserError):
    code = "ambiguous_question"


class TimeExpressionError(UserError):
    code = "invalid_time"


class ConfigError(UserError):
    code = "invalid_config"


class UserCancelled(UserError):
    code = "user_cancelled"


class MissingDependency(UserError):
    """An optional package a feature needs is not installed; the message says what to install."""

    code = "missing_dependency"


class NotFound(UserError):
    """No such resource for the asking user; another user's run is not found either (never revealed)."""

    code = "not_found"


class Conflict(UserError):
    """The request does not fit the resource's present state (e.g. the report of a run still running)."""

    code = "conflict"


class PolicyRefusal(BatonError):
    code = "permission_denied"
    kind = "policy"


class Unauthorized(PolicyRefusal):
    """No valid credentials: a missing, unknown, revoked or expired API token or session."""

    code = "unauthorized"


class PermissionDenied(PolicyRefusal):
    code = "permission_denied"


class ExportNotPermitted(PermissionDenied):
    """A report or export would carry detail rows and the exporting user's roles do not allow
    ``export_detail``; nothing is written (the terminal display stays allowed)."""

    code = "export_not_permitted"


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


class ServerBusy(InternalFailure):
    """Every worker is busy and the queue is full; the request may be sent again later."""

    code = "server_busy"


class InsufficientEvidence(InternalFailure):
    code = "insufficient_evidence"


class FirewallError(PolicyRefusal):
    """The SQL firewall refused a statement; ``error_code`` says why (one message per code)."""

    code = "firewall_refused"

    def __init__(self, error_code: str, **fields: Any) -> None:
        values = {"reason_zh": fields.get("reason", ""), "what_zh": fields.get("what", ""), **fields}
        key = f"firewall.{error_code}"
        super().__init__(
            text(key, "en", **values),
            text(key, "zh", **values),
            code=error_code,
            detail={k: v for k, v in fields.items() if isinstance(v, str | int | float | bool) or v is None},
        )


class OutputBlocked(PolicyRefusal):
    """The narrative failed the output gate even after regeneration: the answer is refused."""

    code = "output_blocked"


class StatsInputError(InvalidInput):
    """Arguments to a statistic are malformed (negative counts, x > n, mismatched lengths, NaN)."""

    code = "invalid_input"


class InvalidChartSpec(InvalidInput):
    """A chart spec that the official Vega-Lite schema rejects."""

    code = "invalid_chart_spec"


class ChartNotApplicable(InvalidInput):
    """The result's shape does not fit the requested chart (the answer is shown as a table)."""

    code = "chart_not_applicable"


class InsufficientData(InsufficientEvidence):
    """The inputs are valid but carry too little information (n < 2, zero variance, zero totals)."""

    code = "insufficient_evidence"


EXIT_CODES: dict[str, int] = {"user": 1, "policy": 3, "internal": 1}
"""Exit code of the ``baton`` command by error kind: a refusal is 3, every other error 1
(an answered run is 0 and a clarification 2; see ``baton.cli``)."""


def exit_code(exc: BatonError) -> int:
    """The one exit code for ``exc``, whichever subcommand raised it."""
    return EXIT_CODES.get(exc.kind, 1)
