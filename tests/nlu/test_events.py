"""Calendar events as periods: an event whose days move from year to year (Spring Festival) is
read on each year's own dates, a year the catalog does not date is asked back, and "the same
period last year" of it is asked back naming both last year's event and the same dates."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml

from baton.catalog.loader import load_catalog
from baton.catalog.model import Catalog
from baton.catalog.writer import render_catalog
from baton.config import Settings
from baton.errors import AmbiguousQuestion
from baton.nlu.events import moving_event_last_year
from baton.nlu.parser import Planner
from baton.orchestrator.session import Session

DEMO = Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"
JULY = date(2026, 7, 1)
SPRING_FESTIVAL = {
    "name": {"zh": "春节", "en": "Spring Festival"},
    "synonyms": ["过年", "Chinese New Year"],
    "dates": {
        2025: {"start": "2025-01-28", "end": "2025-02-04", "peak": "2025-01-29"},
        2026: {"start": "2026-02-16", "end": "2026-02-23", "peak": "2026-02-17"},
    },
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    data = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
    data["calendar"].append(SPRING_FESTIVAL)
    path = tmp_path_factory.mktemp("events") / "catalog.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return load_catalog(path)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("春节期间GMV", date(2026, 2, 16), date(2026, 2, 23)),  # its latest year with data
        ("今年春节当天的订单量", date(2026, 2, 17), date(2026, 2, 17)),
        ("去年春节期间的GMV", date(2025, 1, 28), date(2025, 2, 4)),
        ("GMV on Chinese New Year 2025", date(2025, 1, 29), date(2025, 1, 29)),
        ("双11期间GMV", date(2025, 11, 1), date(2025, 11, 11)),  # fixed days as before
        ("2025双11当天 GMV 各渠道", date(2025, 11, 11), date(2025, 11, 11)),  # p76: its year written straight before
    ],
)
def test_an_event_is_read_on_its_own_years_days(catalog: Catalog, question: str, start: date, end: date) -> None:
    query = Planner(catalog).plan(question, as_of=JULY)
    assert (query.time_range.start, query.time_range.end) == (start, end)


def test_a_year_the_catalog_does_not_date_is_asked_back(catalog: Catalog) -> None:
    with pytest.raises(AmbiguousQuestion) as info:
        Planner(catalog).plan("2024年春节期间GMV", as_of=JULY)
    assert "2024" in info.value.message("en") and "Spring Festival" not in info.value.message("zh")


@pytest.mark.parametrize(
    ("question", "held"),
    [("春节期间GMV同比", "2025-01-28~2025-02-04"), ("春节当天GMV同比", "2025-01-29")],
)
def test_the_same_period_last_year_of_a_moving_event_is_asked_back(catalog: Catalog, question: str, held: str) -> None:
    query = Planner(catalog).plan(question, as_of=JULY)  # the planner reads it; the run asks back
    with pytest.raises(AmbiguousQuestion) as info:
        moving_event_last_year(catalog.calendar, query)
    assert held in info.value.message("zh") and info.value.detail["suggestions"][0] == held


def test_a_window_cut_short_by_the_data_is_set_against_the_same_days_of_last_years(catalog: Catalog) -> None:
    """Asked on 2026-02-20, "春节期间" is its first four days: against 2025-01-28~31, never 2025-02-16~19."""
    query = Planner(catalog).plan("春节期间GMV同比", as_of=date(2026, 2, 20))
    assert (query.time_range.start, query.time_range.end) == (date(2026, 2, 16), date(2026, 2, 19))
    with pytest.raises(AmbiguousQuestion) as info:
        moving_event_last_year(catalog.calendar, query)
    assert info.value.detail["suggestions"] == ["2025-01-28~2025-01-31", "2025-02-16~2025-02-19"]
    moving_event_last_year(
        catalog.calendar, Planner(catalog).plan("2026-02-18的GMV同比", as_of=JULY)
    )  # a day said: as said


@pytest.mark.parametrize("question", ["双11期间GMV同比", "今年春节期间GMV和去年春节期间比", "上个月GMV同比"])
def test_fixed_events_and_named_periods_are_not_asked(catalog: Catalog, question: str) -> None:
    moving_event_last_year(catalog.calendar, Planner(catalog).plan(question, as_of=JULY))


def test_a_run_asks_back_the_same_period_last_year_of_a_moving_event_and_answers_both_named(
    catalog: Catalog, demo_settings: Settings, tmp_path: Path
) -> None:
    """Through a real run: asked back (by the rules, or after a follow-up), never answered against
    2025-02-16~2025-02-23, which held no Spring Festival; both events named are compared."""
    path = tmp_path / "catalog.yaml"
    path.write_text(render_catalog(catalog, header="# test").text, encoding="utf-8")
    with Session(demo_settings.model_copy(update={"catalog_path": path, "runs_dir": tmp_path / "runs"})) as session:
        assert session.ask("春节期间GMV同比", as_of=JULY).status == "clarification_needed"
        chat = session.conversation()
        assert chat.ask("春节期间GMV", as_of=JULY).status == "answered"
        assert chat.ask("同比呢").status == "clarification_needed"
        both = session.ask("今年春节期间GMV和去年春节期间比", as_of=JULY)
        assert both.status == "answered" and both.semantic_query is not None
        comparison = both.semantic_query.comparison
        assert comparison is not None and (comparison.range.start, comparison.range.end) == (
            date(2025, 1, 28),
            date(2025, 2, 4),
        )


def test_a_dated_event_is_written_back_as_read(catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "catalog.yaml"
    path.write_text(render_catalog(catalog, header="# test").text, encoding="utf-8")
    assert load_catalog(path).calendar == catalog.calendar
