"""Trace events: the append-only JSONL writer."""
