"""Lines the ``baton`` command prints (``cli.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {}
