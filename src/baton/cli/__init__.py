"""The `baton` command. Presentation only: every command calls the library."""

from baton.cli.app import app, main

__all__ = ["app", "main"]
