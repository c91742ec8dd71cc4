"""The local Spark Connect server of the Spark tests (scripts/spark-connect.sh, `make spark-up`).

``spark_problem`` says why the server cannot be used (or None); ``QueryHistory`` reads what the
server was asked, through its web UI, so a test can prove a statement did or did not reach Spark.
pyspark is an optional extra, so it is imported lazily here and never at module import.
"""

from __future__ import annotations

import html
import json
import os
import re
import socket
import time
import urllib.request
import warnings
from typing import Any
from urllib.parse import urlsplit

SPARK_URL = os.environ.get("BATON_TEST_SPARK", "sc://127.0.0.1:15002")
SPARK_UI = os.environ.get("BATON_TEST_SPARK_UI", "http://127.0.0.1:4050")

_STATEMENT = re.compile(r'<span class="description-input">(.*?)</span>', re.DOTALL)


def spark_problem(url: str = SPARK_URL) -> str | None:
    """Why Spark Connect at ``url`` is unusable (no pyspark, nothing listening, a failing query), else None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pyspark warns about pandas versions on import
            from pyspark.sql import SparkSession
    except ImportError as exc:
        return f"pyspark is not installed ({exc}; `make spark-up` installs the spark extra)"
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 15002
    try:
        socket.create_connection((host, port), timeout=3).close()
    except OSError as exc:
        return f"nothing answers at {host}:{port} ({exc})"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            spark = SparkSession.builder.remote(url).create()
            try:
                rows = spark.sql("SELECT 1 AS one").collect()
            finally:
                spark.stop()
    except Exception as exc:  # any client or server error means the same: unusable
        return f"SELECT 1 failed: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    if [tuple(row) for row in rows] != [(1,)]:
        return f"SELECT 1 returned {rows!r}"
    return None


class QueryHistory:
    """What the Spark Connect server was asked, read from its UI (no listener, no new dependency).

    Two sources: the SQL executions (REST API, with the physical plan, whose literals show a
    query's constants) and the Connect tab's statements (every request, including those that fail
    in analysis and never execute). The UI is updated asynchronously: to prove a text was *not*
    sent, first ``wait_seen`` a canary sent afterwards (events are processed in order).
    """

    def __init__(self, ui_url: str = SPARK_UI, *, page: int = 500, timeout: float = 10.0) -> None:
        self.ui_url = ui_url.rstrip("/")
        self.page = page
        self.timeout = timeout
        self._app_id: str | None = None

    def _get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.ui_url + path, timeout=self.timeout) as response:
            body: bytes = response.read()
        return body

    def app_id(self) -> str:
        """The id of the server's (only) application."""
        if self._app_id is None:
            apps: list[dict[str, Any]] = json.loads(self._get("/api/v1/applications"))
            if not apps:
                raise RuntimeError(f"no Spark application at {self.ui_url}")
            self._app_id = str(apps[0]["id"])
        return self._app_id

    def executions(self) -> list[dict[str, Any]]:
        """Every SQL execution the UI retains, oldest first (paged with offset/length)."""
        found: list[dict[str, Any]] = []
        base = f"/api/v1/applications/{self.app_id()}/sql?details=true&planDescription=true"
        while True:
            batch: list[dict[str, Any]] = json.loads(self._get(f"{base}&offset={len(found)}&length={self.page}"))
            found.extend(batch)
            if len(batch) < self.page:
                return found

    def statements(self) -> list[str]:
        """The text of every request on the Connect tab (the protobuf plan, with the SQL in it)."""
        page = self._get("/connect/?sqlstat.page=1&sqlstat.pageSize=100000").decode("utf-8", "replace")
        return [html.unescape(text) for text in _STATEMENT.findall(page)]

    def seen(self, text: str) -> bool:
        """Whether ``text`` occurs in any execution's description or plan, or in any Connect statement."""
        for execution in self.executions():
            if text in execution.get("description", "") or text in execution.get("planDescription", ""):
                return True
        return any(text in statement for statement in self.statements())

    def wait_seen(self, text: str, timeout: float = 5.0) -> bool:
        """``seen``, polled until true or ``timeout`` seconds pass (the UI listener is asynchronous)."""
        deadline = time.monotonic() + timeout
        while True:
            if self.seen(text):
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.2)
