"""Benchmarks that prove Baton's claims with numbers (``baton bench …``)."""

from baton.bench.handoff import DEFAULT_STEPS, render_table, run_handoff_bench

__all__ = ["DEFAULT_STEPS", "render_table", "run_handoff_bench"]
