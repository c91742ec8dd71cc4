"""A page opened in headless Chromium through the DevTools protocol, offline, with everything
it reported: console messages, uncaught errors, Content-Security-Policy violations and dialogs.

Chromium speaks the protocol over two pipes (``--remote-debugging-pipe``: it reads commands on
fd 3 and writes answers and events on fd 4, each a JSON text ended by a NUL byte), so no
websocket client, no Playwright and no browser download is needed: Debian's ``chromium``
(``scripts/ensure-chromium.sh``) is enough. The page's own policy is never bypassed: the
listener for ``securitypolicyviolation`` is installed by the protocol, which is not subject to
the page's policy, and the page's own scripts run exactly as in a reader's browser.
"""

from __future__ import annotations

import base64
import json
import os
import select
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.report.test_browser import OFFLINE_HEADLESS, chromium

LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push({
    directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample, line: e.lineNumber
  });
});
"""
"""Installed before any of the page's scripts: records every policy violation the page meets."""


@dataclass
class PageReport:
    """What a page did in the browser."""

    console: list[dict[str, Any]] = field(default_factory=list)
    """``Runtime.consoleAPICalled`` and ``Log.entryAdded`` (the browser's own messages: CSP refusals)."""
    errors: list[str] = field(default_factory=list)
    """Uncaught exceptions (``Runtime.exceptionThrown``)."""
    dialogs: list[str] = field(default_factory=list)
    """Messages of ``alert``/``confirm``/``prompt`` calls (each dialog is dismissed)."""
    violations: list[dict[str, Any]] = field(default_factory=list)
    """``securitypolicyviolation`` events seen in the page."""
    values: dict[str, Any] = field(default_factory=dict)
    """The page's answers to the probes, by name."""
    fonts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """The fonts Chromium drew each ``fonts_of`` element's own text with (``CSS.getPlatformFontsForNode``:
    familyName, isCustomFont — a web font —, glyphCount), by selector."""
    shots: dict[str, bytes] = field(default_factory=dict)
    """A PNG screenshot of each ``shots`` element (after the probes ran), by selector."""

    def problems(self) -> list[str]:
        """Everything that should not happen on a good page, as readable lines."""
        said = [
            f"console {c.get('level')}: {c.get('text')}" for c in self.console if c.get("level") in ("error", "warning")
        ]
        return (
            said
            + [f"error: {e}" for e in self.errors]
            + [f"dialog: {d}" for d in self.dialogs]
            + [f"violation: {v}" for v in self.violations]
        )


class _Pipe:
    def __init__(self, proc: subprocess.Popen[bytes], to_browser: int, from_browser: int) -> None:
        self.proc = proc
        self.to_browser = to_browser
        self.from_browser = from_browser
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> int:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode("utf-8") + b"\0")
        return self.next_id

    def read(self, timeout: float) -> dict[str, Any] | None:
        """The next message, or ``None`` when none came within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_browser], [], [], left)[0]:
                return None
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        """Send a command and wait for its answer (events that arrive meanwhile are kept)."""
        wanted = self.send(method, params, session)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            message = self.read(deadline - time.monotonic())
            if message is None:
                break
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result
            self.keep(message)
        raise TimeoutError(method)

    def keep(self, message: dict[str, Any]) -> None:
        """Keep an event; a dialog is dismissed at once (an open one would block the page)."""
        if message.get("method") == "Page.javascriptDialogOpening":
            self.send("Page.handleJavaScriptDialog", {"accept": False}, message.get("sessionId"))
        if "method" in message:
            self.events.append(message)

    def drain(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            message = self.read(left)
            if message is None:
                return
            self.keep(message)


def _evaluate(pipe: _Pipe, session: str, expression: str) -> Any:
    result = pipe.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
    return result.get("result", {}).get("value")


def open_page(
    page: Path,
    profile: Path,
    probes: dict[str, str],
    *,
    until: str = "true",
    hover: str | None = None,
    width: int = 1000,
    timeout: float = 30.0,
    fonts_of: tuple[str, ...] = (),
    shots: tuple[str, ...] = (),
) -> PageReport:
    """Open ``page`` (a local file), wait until the JavaScript expression ``until`` is true (or
    ``timeout``), move the mouse over the first element matching the CSS selector ``hover`` (as
    a reader's mouse would: a real input event), then evaluate each probe expression (in order:
    a probe may add elements), ask which fonts drew the text of each ``fonts_of`` element and
    screenshot each ``shots`` element; every message the page produced is kept."""
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()

    def wire() -> None:  # runs in the child: its fd 3 reads commands, fd 4 writes answers
        reading, writing = os.dup(to_browser_r), os.dup(from_browser_w)  # the pipes may sit on 3 or 4
        os.dup2(reading, 3)
        os.dup2(writing, 4)

    proc = subprocess.Popen(
        [
            chromium(),
            *OFFLINE_HEADLESS,
            f"--user-data-dir={profile}",
            f"--window-size={width},900",
            "--remote-debugging-pipe",
            "about:blank",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        close_fds=False,  # the pipes' own fds close on exec; only the dup2 copies (3, 4) stay open
        preexec_fn=wire,  # noqa: PLW1509 -- two dup2 calls, no locks taken
    )
    os.close(to_browser_r)
    os.close(from_browser_w)
    pipe = _Pipe(proc, to_browser_w, from_browser_r)
    report = PageReport()
    try:
        target = pipe.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            pipe.call(f"{domain}.enable", {}, session)
        pipe.call("Page.addScriptToEvaluateOnNewDocument", {"source": LISTENER}, session)
        pipe.call("Page.navigate", {"url": page.as_uri()}, session)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if _evaluate(pipe, session, f"document.readyState === 'complete' && !!({until})"):
                break
            pipe.drain(0.2)
        pipe.drain(0.5)  # messages logged just after the page settled
        if hover is not None:
            _hover(pipe, session, hover)
        report.values = {name: _evaluate(pipe, session, expr) for name, expr in probes.items()}
        report.fonts = {selector: _platform_fonts(pipe, session, selector) for selector in fonts_of}
        report.shots = {selector: _screenshot(pipe, session, selector) for selector in shots}
        report.violations = _evaluate(pipe, session, "window.__cspViolations || []") or []
    finally:
        try:
            pipe.send("Browser.close")
            proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        os.close(to_browser_w)
        os.close(from_browser_r)
    _collect(pipe.events, report)
    return report


def _platform_fonts(pipe: _Pipe, session: str, selector: str) -> list[dict[str, Any]]:
    for domain in ("DOM", "CSS"):
        pipe.call(f"{domain}.enable", {}, session)
    root = pipe.call("DOM.getDocument", {"depth": 0}, session)["root"]["nodeId"]
    node = pipe.call("DOM.querySelector", {"nodeId": root, "selector": selector}, session)["nodeId"]
    fonts: list[dict[str, Any]] = pipe.call("CSS.getPlatformFontsForNode", {"nodeId": node}, session)["fonts"]
    return fonts


def _screenshot(pipe: _Pipe, session: str, selector: str) -> bytes:
    box = _evaluate(
        pipe,
        session,
        f"(function () {{ var r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
        " return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]; })()",
    )
    x, y, w, h = box
    clip = {"x": x, "y": y, "width": w, "height": h, "scale": 1}
    shot = pipe.call("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True}, session)
    return base64.b64decode(shot["data"])


def _hover(pipe: _Pipe, session: str, selector: str) -> None:
    where = _evaluate(
        pipe,
        session,
        f"(function () {{ var e = document.querySelector({json.dumps(selector)}); e.scrollIntoView({{block: 'center'}});"
        " var r = e.getBoundingClientRect();"
        " return [r.left + r.width / 2, r.top + r.height / 2]; })()",
    )
    x, y = where
    for step in range(5):  # a few moves, the last one on the element's centre
        params = {"type": "mouseMoved", "x": x - 4 + step, "y": y - 4 + step}
        pipe.call("Input.dispatchMouseEvent", params, session)
    pipe.drain(0.5)


def _collect(events: list[dict[str, Any]], report: PageReport) -> None:
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            report.console.append({"level": params.get("type"), "text": text, "source": "console"})
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            report.console.append(
                {"level": entry.get("level"), "text": entry.get("text"), "source": entry.get("source")}
            )
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            report.errors.append(str(details.get("exception", {}).get("description") or details.get("text")))
        elif method == "Page.javascriptDialogOpening":
            report.dialogs.append(str(params.get("message")))
