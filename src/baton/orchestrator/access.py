"""Who may see and continue a stored run, and whether its data may still be shown.

A run belongs to the user it ran as. Its owner sees it; a user whose role says ``runs: all``
(an auditor, an admin) sees every run as it was recorded. Only the owner continues a run,
always under the grants they hold *now*.

The rows a run read were allowed by the grants of that moment. They are shown again (show,
trace, replay, resuming a finished run) only while the owner's grants fingerprint — tables,
columns, row filters, PII handling, limits and the policy version — is still the one
recorded; otherwise the run must be re-executed under today's grants. Questions and statuses
(``runs list``) stay visible to the owner whatever happened to the grants.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from baton.errors import PermissionDenied
from baton.messages import bilingual, both

if TYPE_CHECKING:
    from baton.contracts.conversation import ConversationSummary
    from baton.contracts.run import RunState, RunSummary
    from baton.contracts.trace import TraceEvent
    from baton.orchestrator.session import Session
    from baton.policy import Principal


def viewer(session: Session, user: str | None) -> Principal:
    """The asking user's grants (``user``, else the session's user); unknown → permission_denied."""
    return session.principal(user or session.user)


def check_can_view(session: Session, state: RunState, user: str | None) -> Principal:
    """The owner or a ``runs: all`` user may see the run; anyone else is refused."""
    asking = viewer(session, user)
    if asking.user != state.user and not asking.sees_all_runs:
        raise PermissionDenied(
            *both("runs.not_yours", run_id=state.run_id, user=asking.user),
            detail={"run_id": state.run_id, "user": asking.user},
        )
    return asking


def check_can_continue(session: Session, state: RunState, user: str | None) -> None:
    """Only the owner continues a run (it runs queries as them); nobody acts as another user."""
    asking = viewer(session, user)
    if asking.user != state.user:
        key = "runs.resume_not_yours" if asking.sees_all_runs else "runs.not_yours"
        raise PermissionDenied(
            *both(key, run_id=state.run_id, user=asking.user), detail={"run_id": state.run_id, "user": asking.user}
        )


def recorded_fingerprint(state: RunState) -> str | None:
    """The grants the run's data was read under: recorded at planning, else (a run stored by
    an older version) the fingerprint of its first checkpointed approval."""
    if state.grants_fingerprint is not None:
        return state.grants_fingerprint
    for checkpoint in state.checkpoints.values():
        if isinstance(checkpoint, dict) and isinstance(checkpoint.get("grants_fingerprint"), str):
            return str(checkpoint["grants_fingerprint"])
    return None


def grants_hold(session: Session, state: RunState) -> bool:
    """Would the owner read the same rows today? True for a run that read no data (and whose
    answer holds none)."""
    if not state.evidence:
        answer = state.answer
        return answer is None or (answer.result is None and answer.status != "answered")
    try:
        now = session.principal(state.user).grants_fingerprint()
    except PermissionDenied:  # the owner is no longer in the policy
        return False
    return recorded_fingerprint(state) == now


def check_data_visible(session: Session, state: RunState, user: str | None) -> Principal:
    """The run's data may be shown to ``user`` (whose grants are returned): a ``runs: all``
    viewer sees it as recorded; the owner only while their grants hold (else permission_denied,
    pointing at --re-execute)."""
    asking = check_can_view(session, state, user)
    if asking.sees_all_runs and asking.user != state.user:
        return asking
    foreign = sorted(
        {str(e.acl.get("owner")) for e in state.evidence if e.acl.get("owner", asking.user) != asking.user}
    )
    if foreign:  # evidence is private to its owner (its acl), whoever's run holds it
        raise PermissionDenied(
            *both("runs.not_yours", run_id=state.run_id, user=asking.user),
            detail={"run_id": state.run_id, "user": asking.user, "evidence_owners": foreign},
        )
    if not grants_hold(session, state):
        try:
            now = session.principal(state.user).policy_version
        except PermissionDenied:
            now = "-"
        raise PermissionDenied(
            *both(
                "runs.grants_changed",
                run_id=state.run_id,
                owner=state.user,
                then=state.policy_version or "?",
                now=now,
            ),
            detail={"run_id": state.run_id, "user": state.user, "reason": "grants_changed"},
        )
    return asking


def visible_runs(
    session: Session, user: str | None, *, status: str | None = None, owner: str | None = None, limit: int = 100
) -> list[RunSummary]:
    """The runs ``user`` may list, newest first: their own, or everyone's (optionally one
    ``owner``'s) for a ``runs: all`` user."""
    asking = viewer(session, user)
    if not asking.sees_all_runs:
        if owner is not None and owner != asking.user:
            raise PermissionDenied(
                *both("runs.not_yours", run_id="*", user=asking.user), detail={"user": asking.user, "owner": owner}
            )
        owner = asking.user
    return session.store.list(status=status, user=owner, limit=limit)


def visible_conversations(session: Session, user: str | None, *, limit: int = 50) -> list[ConversationSummary]:
    """The conversations ``user`` may list, newest first: their own, or everyone's for a ``runs:
    all`` user (as with runs)."""
    asking = viewer(session, user)
    return session.store.conversations(user=None if asking.sees_all_runs else asking.user, limit=limit)


WITHHELD = bilingual("runs.withheld")
_INTERNAL_KEYS = frozenset({"internal", "traceback"})


def trace_as_seen(events: list[TraceEvent], asking: Principal) -> list[TraceEvent]:
    """A run's trace as ``asking`` may read it: engine messages and tracebacks (which may quote
    data values or the rewritten SQL) only for a ``runs: all`` user, withheld for anyone else."""
    if asking.sees_all_runs:
        return events
    return [e.model_copy(update={"payload": _withhold(e.payload)}) for e in events]


def _withhold(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: WITHHELD if k in _INTERNAL_KEYS else _withhold(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_withhold(v) for v in value]
    return value
