"""Language-model calls inside a run: budgeted, traced, stored, and only through here.

:class:`RunModel` wraps a :class:`~baton.llm.Provider` for one run. Before a call it checks
that the prompt plus the most the model may answer fits what is left of the run's token
budget (a run that cannot afford the call stops with ``budget_exceeded`` before anything is
sent); after it, the tokens the server reports are charged. Each call is a traced tool call
(model, purpose, tokens, latency, outcome) whose prompt and reply are kept in the run store
— never in the trace or a log — under a packet reference the trace names.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from baton.errors import BudgetExceeded, ModelFailure
from baton.llm.protocol import ChatMessage, Completion, Provider
from baton.messages import both
from baton.orchestrator.run import RunContext


class RunModel:
    """A provider as one run may use it (the same protocol, so planners never see the run)."""

    def __init__(self, provider: Provider, ctx: RunContext, *, purpose: str, max_tokens: int) -> None:
        self._provider = provider
        self._ctx = ctx
        self._purpose = purpose
        self._max_tokens = max_tokens

    @property
    def model(self) -> str:
        return self._provider.model

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: dict[str, Any] | None = None,
        schema_name: str = "output",
        max_tokens: int | None = None,
    ) -> Completion:
        from baton.context.tokens import count_tokens

        ctx, state = self._ctx, self._ctx.state
        limit = max_tokens or self._max_tokens
        prompt = sum(count_tokens(m.content) for m in messages) + (count_tokens(json.dumps(schema)) if schema else 0)
        left = state.budget.max_tokens - state.usage.tokens
        if prompt + limit > left:
            raise BudgetExceeded(
                *both("runs.tokens_exceeded", limit=state.budget.max_tokens),
                detail={"budget": "max_tokens", "limit": state.budget.max_tokens, "needed": prompt + limit},
            )
        ctx.policy_decision("allow", tool=f"llm.{self._purpose}", model=self.model, reason="question and catalog only")
        ref = f"model-{state.usage.model_calls + 1}-{self._purpose}"
        state.usage.model_calls += 1
        record: dict[str, Any] = {
            "purpose": self._purpose,
            "model": self.model,
            "messages": [m.model_dump() for m in messages],
            "schema_name": schema_name if schema else None,
        }
        try:
            completion = ctx.tool_call(
                f"llm.{self._purpose}",
                {"model": self.model, "packet": ref},
                lambda: self._provider.complete(messages, schema=schema, schema_name=schema_name, max_tokens=limit),
                lambda done: {
                    "model": done.model,
                    "packet": ref,
                    "prompt_tokens": done.prompt_tokens,
                    "completion_tokens": done.completion_tokens,
                    "model_latency_ms": round(done.latency_ms, 3),
                },
            )
        except ModelFailure as exc:
            record["error"] = exc.to_dict("en")
            ctx.store.put_packet(state.run_id, ref, json.dumps(record, ensure_ascii=False))
            raise
        record["reply"] = completion.model_dump(mode="json")
        ctx.store.put_packet(state.run_id, ref, json.dumps(record, ensure_ascii=False))
        state.usage.model_tokens += completion.tokens
        ctx.charge_tokens(completion.tokens)
        return completion
