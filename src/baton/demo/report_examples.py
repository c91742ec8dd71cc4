"""Regenerate the report examples in ``docs/`` from real answers on the demo warehouse.

``python -m baton.demo.report_examples [--config baton.toml] [--no-charts] [docs]`` asks the demo
questions (as of 2026-07-01) and writes ``report-example.md`` (+ its PNG) and
``report-example.html`` (an ask), ``analysis-example.md`` (+ its PNG) and ``analysis-example.html``
(an analysis), and, unless ``--no-charts``, ``charts/ask-line.png`` / ``charts/ask-bar.png``.
Without ``--config`` a demo is built in a temporary folder first.
"""

from __future__ import annotations

import sys
import tempfile
from datetime import date
from pathlib import Path

from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.errors import InsufficientEvidence
from baton.orchestrator.session import Session
from baton.report.files import write_chart_png
from baton.report.html import write_html_report
from baton.report.markdown import write_markdown_report

AS_OF = date(2026, 7, 1)
REPORT_QUESTION = "上个月各渠道GMV环比"
ANALYSIS_QUESTION = "为什么2026年6月的GMV下降了？"
CHARTS = {"ask-line.png": "上个月每天的GMV", "ask-bar.png": "GMV by region last month"}


def _answered(session: Session, question: str) -> Answer:
    answer = session.ask(question, as_of=AS_OF)
    if answer.status != "answered" or answer.chart is None:
        raise InsufficientEvidence(
            f"example question {question!r} did not produce a charted answer ({answer.status})",
            f"示例问题“{question}”没有得到带图表的回答（{answer.status}）",
        )
    return answer


def _analysed(session: Session, question: str) -> Answer:
    answer = session.analyze(question, as_of=AS_OF)
    if answer.status != "answered" or not answer.sections:
        raise InsufficientEvidence(
            f"example question {question!r} did not produce an analysis ({answer.status})",
            f"示例问题“{question}”没有得到分析报告（{answer.status}）",
        )
    return answer


def write_examples(session: Session, docs: Path, *, charts: bool = True) -> list[Path]:
    """Write every example under ``docs`` (the chart PNGs only with ``charts``); the paths written."""
    written: list[Path] = []
    for stem, answer in (
        ("report-example", _answered(session, REPORT_QUESTION)),
        ("analysis-example", _analysed(session, ANALYSIS_QUESTION)),
    ):
        written += write_markdown_report(answer, docs / f"{stem}.md", catalog=session.catalog)
        written += write_html_report(answer, docs / f"{stem}.html", catalog=session.catalog)
    for name, question in CHARTS.items() if charts else ():
        spec = _answered(session, question).chart
        assert spec is not None
        written.append(write_chart_png(spec, docs / "charts" / name))
    return written


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    config: Path | None = None
    if "--config" in args:
        i = args.index("--config")
        config = Path(args[i + 1])
        del args[i : i + 2]
    charts = "--no-charts" not in args
    args = [a for a in args if a != "--no-charts"]
    docs = Path(args[0]) if args else Path("docs")
    with tempfile.TemporaryDirectory() as tmp:
        if config is None:
            from baton.demo.generator import build_demo

            config = build_demo(Path(tmp) / "demo").config
        session = Session(load_settings(config))
        try:
            for path in write_examples(session, docs, charts=charts):
                print(path)
        finally:
            session.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
