"""The baton: relay invariants, the ledger, layered compression, slicing, merge, tokens, rendering.

This is Baton's core promise in code: filters, assumptions, excluded paths and exact numbers
survive every handoff, verbatim, at a fraction of full-history size (see ``baton.bench``).
"""

from baton.context.compress import StepRecord, compress_history, compress_step, level_for, resolve
from baton.context.ledger import (
    Ledger,
    RelevanceQuery,
    ScoredEntry,
    is_prefix,
    latest_data,
    make_scope,
    relevant_entries,
)
from baton.context.merge import ChildResult, data_key, merge_parallel, merge_report
from baton.context.relay import (
    check_chain,
    check_first,
    check_handoff,
    extend_must_keep,
    integrity_hash,
    must_keep_from_output,
    new_context_id,
    pass_baton,
    start_relay,
)
from baton.context.render import render_must_keep, render_packet
from baton.context.slicing import (
    DEFAULT_TOKEN_BUDGET,
    AgentSpec,
    Grants,
    PacketRequest,
    build_packet,
    packet_trace_event,
    redact,
    slice_input,
)
from baton.context.sqlnorm import normalise_predicate, predicates_in_text
from baton.context.text import terms
from baton.context.tokens import count_tokens

__all__ = [
    "DEFAULT_TOKEN_BUDGET",
    "AgentSpec",
    "ChildResult",
    "Grants",
    "Ledger",
    "PacketRequest",
    "RelevanceQuery",
    "ScoredEntry",
    "StepRecord",
    "build_packet",
    "check_chain",
    "check_first",
    "check_handoff",
    "compress_history",
    "compress_step",
    "count_tokens",
    "data_key",
    "extend_must_keep",
    "integrity_hash",
    "is_prefix",
    "latest_data",
    "level_for",
    "make_scope",
    "merge_parallel",
    "merge_report",
    "must_keep_from_output",
    "new_context_id",
    "normalise_predicate",
    "packet_trace_event",
    "pass_baton",
    "predicates_in_text",
    "redact",
    "relevant_entries",
    "render_must_keep",
    "render_packet",
    "resolve",
    "slice_input",
    "start_relay",
    "terms",
]
