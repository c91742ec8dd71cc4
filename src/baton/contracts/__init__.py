"""Every Pydantic model that crosses a package boundary (answers, queries, handoffs, runs, traces)."""
