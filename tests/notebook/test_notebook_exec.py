"""A real notebook, executed by nbclient on a real IPython kernel: ``baton.ask``, the answer
displayed, and the result converted to pandas.

The kernel is this interpreter (``sys.executable -m ipykernel_launcher``) through a kernelspec
written to a temporary folder, so no user-level Jupyter setup or network is involved.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from tests.notebook.conftest import AS_OF, CHANNEL_QUESTION

KERNEL = "baton-test-python"


def _kernel_manager(folder: Path) -> KernelManager:
    spec = folder / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": KERNEL, "language": "python"}))
    return KernelManager(kernel_name=KERNEL, kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec.parent)]))


def _notebook(config: Path) -> nbformat.NotebookNode:
    cells = [
        "import datetime\nimport baton",
        f"answer = baton.ask({CHANNEL_QUESTION!r}, config={str(config)!r}, as_of=datetime.date.fromisoformat({AS_OF.isoformat()!r}))",
        "answer",
        "df = answer.to_pandas()\ndf",
        "df.shape, str(df['gmv'].dtype)",
    ]
    code = [nbformat.v4.new_code_cell(source) for source in cells]  # type: ignore[no-untyped-call]
    notebook: nbformat.NotebookNode = nbformat.v4.new_notebook(cells=code)  # type: ignore[no-untyped-call]
    return notebook


@pytest.fixture(scope="module")
def executed(demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> nbformat.NotebookNode:
    folder = tmp_path_factory.mktemp("notebook")
    notebook = _notebook(demo_dir / "baton.toml")
    km = _kernel_manager(folder)
    client = NotebookClient(
        notebook, km=km, timeout=60, startup_timeout=60, resources={"metadata": {"path": str(folder)}}
    )
    try:
        client.execute()
    finally:  # a kernel manager we pass in is ours to stop
        if km.has_kernel:
            km.shutdown_kernel(now=True)
    nbformat.write(notebook, folder / "answer.ipynb")  # type: ignore[no-untyped-call]
    nbformat.validate(nbformat.read(folder / "answer.ipynb", as_version=4))  # type: ignore[no-untyped-call]
    return notebook


def _result(notebook: nbformat.NotebookNode, index: int) -> dict[str, Any]:
    outputs = notebook.cells[index].outputs
    assert not [o for o in outputs if o.output_type == "error"], outputs
    (result,) = [o for o in outputs if o.output_type in ("execute_result", "display_data")]
    data: dict[str, Any] = result["data"]
    return data


def test_the_answer_displays_as_html_and_markdown(executed: nbformat.NotebookNode) -> None:
    data = _result(executed, 2)
    html, markdown, plain = data["text/html"], data["text/markdown"], data["text/plain"]
    assert plain.startswith("<Answer answered run=run_") and plain.endswith("4 rows>")
    assert '<p class="baton-interpretation">问题理解为：上个月（2026-06-01 至 2026-06-30）' in html
    assert "<table>" in html and html.count("<tr>") == 1 + 4  # the header and one row per channel
    assert "<details><summary>执行的 SQL</summary>" in html and "<details><summary>指标口径</summary>" in html
    assert 'src="data:image/png;base64,' in html
    assert markdown.startswith("> 问题理解为：")


def test_the_dataframe(executed: nbformat.NotebookNode) -> None:
    frame = _result(executed, 3)
    body = frame["text/html"].split("<tbody>")[1].split("</tbody>")[0]
    assert body.count("<tr>") == 4 and "live_stream" in frame["text/plain"]  # one row per channel
    assert _result(executed, 4)["text/plain"] == "((4, 2), 'float64')"
