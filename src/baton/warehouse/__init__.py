"""Backends (hardened DuckDB, PostgreSQL), the runner of approved statements, the demo loader."""
