"""Two analyses a driver rule could get wrong in opposite ways, on scenarios of their own
(tests/fixtures/scenarios; their overlapping or week-long effects are not the packaged
scenarios' one effect per slice): two independent effects that overlap must both be named,
and a week's spike in a small region, too sparse for a test of daily ratios, must be found on
its counts."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.demo.generator import build_demo
from baton.orchestrator.session import Session

SCENARIOS = Path(__file__).resolve().parents[1] / "fixtures" / "scenarios"
AS_OF = date(2026, 7, 1)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """A scenario's demo at scale 0.5, built once per module."""
    folders: dict[str, Path] = {}

    def build(name: str) -> Path:
        if name not in folders:
            folders[name] = tmp_path_factory.mktemp(name)
            build_demo(folders[name], scenario=SCENARIOS / f"{name}.yaml", scale=0.5)
        return folders[name]

    return build


@pytest.mark.parametrize(
    ("scenario", "question", "drivers"),
    [
        (
            "app_and_new_conversion_apart",
            "Why did the conversion rate drop in May 2026 compared with April 2026?",
            [{"channel": "app"}, {"user_type": "new"}],
        ),
        (
            "app_and_new_conversion_apart",
            "为什么2026年5月的转化率比4月下降了？",
            [{"channel": "app"}, {"user_type": "new"}],
        ),
        ("northwest_refund_week", "为什么上周退款率比上上周上升了？", [{"region": "西北"}]),
        (
            "northwest_refund_week",
            "Why did the refund rate rise last week compared with the week before?",
            [{"region": "西北"}],
        ),
    ],
)
def test_every_planted_driver_is_named_and_nothing_else(
    built: Callable[[str], Path], scenario: str, question: str, drivers: list[dict[str, str]]
) -> None:
    with Session(load_settings(built(scenario) / "baton.toml")) as session:
        answer = session.analyze(question, as_of=AS_OF)
    assert answer.status == "answered", answer.answer
    assert sorted((d.members for d in answer.drivers), key=str) == sorted(drivers, key=str), answer.answer
