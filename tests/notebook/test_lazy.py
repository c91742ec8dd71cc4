"""``import baton`` registers the presenter but loads none of what it uses until an answer is
displayed or converted."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("pandas", "pyarrow", "polars", "fontTools", "vl_convert", "baton.notebook.presenter", "baton.report.content")


def test_import_baton_loads_no_presenter_dependency() -> None:
    code = (
        "import json, sys, baton\n"
        "from baton.contracts.answer import Answer\n"
        f"print(json.dumps([Answer._presenter_loader is not None, [m for m in {HEAVY!r} if m in sys.modules]]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [True, []]


def test_without_a_presenter_the_methods_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from baton.contracts.answer import Answer

    answer = Answer(run_id="run_x", status="refused", question="q", language="en", answer="no")
    monkeypatch.setattr(Answer, "_presenter_loader", None)
    assert repr(answer) == "<Answer refused run=run_x 'q'>"  # needs no presenter
    with pytest.raises(RuntimeError, match="import baton"):
        answer._repr_html_()
