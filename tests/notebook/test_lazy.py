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
    from baton.contracts.answer import Answer, PresenterMissing

    answer = Answer(run_id="run_x", status="refused", question="q", language="en", answer="no")
    monkeypatch.setattr(Answer, "_presenter_loader", None)
    assert repr(answer) == "<Answer refused run=run_x 'q'>"  # needs no presenter
    with pytest.raises(PresenterMissing, match="did not finish importing") as missing:
        answer._repr_html_()
    assert missing.value.error_code == "no_presenter"
    chinese = answer.model_copy(update={"language": "zh"})
    with pytest.raises(PresenterMissing, match="baton 包未能完成导入"):
        chinese.to_pandas()


def test_importing_the_contract_registers_the_presenter() -> None:
    """The slot is never empty in practice: the contract's package import runs baton/__init__."""
    code = "import json\nfrom baton.contracts.answer import Answer\nprint(json.dumps(Answer._presenter_loader is not None))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) is True
