"""The memory store: preferences kept per user, repeated choices learned after 3 of the last 5
questions (never while memory is off, never again from choices made before a forget), files
readable by their owner only, and nothing stored but catalog names and codes."""

from __future__ import annotations

import json
import sqlite3
import stat
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from baton.catalog.model import Catalog
from baton.contracts.memory import Preference
from baton.contracts.semantic import MemberFilter, SemanticQuery, TimeRange
from baton.errors import InvalidInput, UnknownMetric
from baton.memory import Memory, MemoryStore

JUNE = TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30), text="上个月")


def question(*dims: str, intent: str = "breakdown", metric: str = "gmv") -> SemanticQuery:
    return SemanticQuery.model_validate(
        {
            "metrics": [metric],
            "dimensions": list(dims),
            "time_range": JUNE.model_dump(),
            "intent": intent if dims else "value",
            "as_of": date(2026, 7, 1),
        }
    )


def stated(key: str, value: str | list[str]) -> Preference:
    return Preference(key=key, value=value, source="stated", evidence="test", learned_at=datetime.now(UTC))


def choose(store: MemoryStore, catalog: Catalog, user: str, *choices: tuple[str, ...]) -> list[Preference | None]:
    return [store.observe(user, question(*dims), catalog) for dims in choices]


def test_remember_list_forget(store: MemoryStore, catalog: Catalog) -> None:
    assert store.state("ana").preferences == []
    assert store.state("ana").enabled is True
    store.remember("ana", stated("favourite_metrics", ["gmv", "aov"]), catalog=catalog)
    store.remember("ana", stated("language", "en"), catalog=catalog)
    store.remember("ana", stated("language", "zh"), catalog=catalog)  # replaces
    state = store.state("ana")
    assert [(p.key, p.value) for p in state.preferences] == [
        ("language", "zh"),
        ("favourite_metrics", ["gmv", "aov"]),
    ]
    assert store.state("bo").preferences == []  # per user
    assert store.forget("ana", "language") is True
    assert store.forget("ana", "language") is False
    assert store.forget_all("ana") == 1
    assert store.state("ana").preferences == []


def test_an_unknown_key_is_a_typed_error(store: MemoryStore) -> None:
    with pytest.raises(InvalidInput) as raised:
        store.forget("ana", "colour")
    assert raised.value.detail["reason"] == "unknown_key"
    assert "default_breakdown" in raised.value.message("en")


def test_the_same_breakdown_in_3_of_the_last_5_questions_is_learned(store: MemoryStore, catalog: Catalog) -> None:
    learned = choose(store, catalog, "ana", ("channel",), ("region",), ("channel",), ("category",))
    assert learned == [None, None, None, None]  # two of four: not yet
    assert store.state("ana").get("default_breakdown") is None
    pref = store.observe("ana", question("channel"), catalog)
    assert pref is not None
    assert (pref.key, pref.value, pref.source) == ("default_breakdown", "channel", "repeated")
    assert pref.evidence == "3 of the last 5 questions"
    assert store.state("ana").get("default_breakdown") == pref


def test_two_of_five_is_not_enough_and_old_choices_leave_the_window(store: MemoryStore, catalog: Catalog) -> None:
    choose(store, catalog, "ana", ("channel",), ("channel",), ("region",), ("category",), ("region",), ("category",))
    assert store.state("ana").get("default_breakdown") is None  # at most 2 of the last 5
    # a third "channel" in all, but the first two have left the window of the last five
    assert store.observe("ana", question("channel"), catalog) is None
    assert store.observe("ana", question("region"), catalog) is None  # region: 2 of the last 5
    pref = store.observe("ana", question("region"), catalog)  # region: 3 of the last 5
    assert pref is not None and pref.value == "region"
    assert pref.evidence == "3 of the last 5 questions"


def test_only_questions_with_one_breakdown_count(store: MemoryStore, catalog: Catalog) -> None:
    choose(store, catalog, "ana", ("channel", "region"), ("channel", "region"), ("channel", "region"))
    choose(store, catalog, "ana", (), ())  # no breakdown: not logged at all
    assert store.observe("ana", question("channel", intent="why"), catalog) is None  # a why is not a choice
    assert store.state("ana").get("default_breakdown") is None
    choose(store, catalog, "ana", ("channel",), ("channel",))
    assert store.state("ana").get("default_breakdown") is None  # 2 single of the last 5
    assert store.observe("ana", question("channel"), catalog) is not None


def test_nothing_is_learned_or_logged_while_memory_is_off(store: MemoryStore, catalog: Catalog) -> None:
    store.observe("ana", question("channel"), catalog)
    store.set_enabled("ana", False)
    assert choose(store, catalog, "ana", *[("channel",)] * 5) == [None] * 5
    assert store.state("ana").get("default_breakdown") is None
    with sqlite3.connect(store.path) as con:
        assert con.execute("SELECT count(*) FROM choices WHERE user = 'ana'").fetchone()[0] == 0
    store.set_enabled("ana", True)
    assert choose(store, catalog, "ana", ("channel",), ("channel",)) == [None, None]  # nothing from before
    assert store.observe("ana", question("channel"), catalog) is not None


def test_a_forgotten_default_is_not_learned_again_from_earlier_choices(store: MemoryStore, catalog: Catalog) -> None:
    choose(store, catalog, "ana", ("channel",), ("channel",), ("channel",))
    assert store.state("ana").get("default_breakdown") is not None
    assert store.forget("ana", "default_breakdown") is True
    assert store.observe("ana", question("channel"), catalog) is None  # 3 old + 1 new would be 4 of 4
    assert store.state("ana").get("default_breakdown") is None
    assert choose(store, catalog, "ana", ("channel",), ("channel",))[-1] is not None  # 3 new choices


def test_a_stated_default_is_not_replaced_by_repeated_choices(store: MemoryStore, catalog: Catalog) -> None:
    store.remember("ana", stated("default_breakdown", "region"), catalog=catalog)
    assert choose(store, catalog, "ana", *[("channel",)] * 4) == [None] * 4
    pref = store.state("ana").get("default_breakdown")
    assert pref is not None and (pref.value, pref.source) == ("region", "stated")


def test_store_files_are_readable_by_their_owner_only(runs_dir: Path, catalog: Catalog) -> None:
    store = MemoryStore(runs_dir / "memory.sqlite")
    store.remember("ana", stated("language", "en"), catalog=catalog)
    choose(store, catalog, "ana", ("channel",), ("channel",), ("channel",))
    assert stat.S_IMODE(runs_dir.stat().st_mode) == 0o700
    files = [p for p in runs_dir.iterdir() if p.name.startswith("memory.sqlite")]
    assert files
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name


def test_a_wider_file_left_behind_is_narrowed(runs_dir: Path) -> None:
    runs_dir.mkdir(mode=0o755)
    path = runs_dir / "memory.sqlite"
    MemoryStore(path)
    path.chmod(0o644)
    MemoryStore(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("language", "fr"),
        ("language", ["zh"]),
        ("chart", "pie"),
        ("chart", "<script>"),
        ("default_breakdown", ["channel", "region"]),
        ("default_breakdown", "South China"),
        ("default_breakdown", "138 0013 8000"),
        ("favourite_metrics", []),
        ("favourite_metrics", "gmv"),
        ("favourite_metrics", ["gmv", "gmv"]),
        ("favourite_metrics", ["gross merchandise value"]),
    ],
)
def test_the_contract_holds_only_codes_and_names(key: str, value: object) -> None:
    with pytest.raises(ValidationError):
        Preference(key=key, value=value, source="stated", evidence="x", learned_at=datetime.now(UTC))


def test_a_name_the_catalog_lacks_is_not_stored(store: MemoryStore, catalog: Catalog) -> None:
    with pytest.raises(InvalidInput) as raised:
        store.remember("ana", stated("default_breakdown", "华南"), catalog=catalog)  # a member, not a dimension
    assert raised.value.detail["reason"] == "unknown_dimension"
    with pytest.raises(UnknownMetric):
        store.remember("ana", stated("favourite_metrics", ["gmv", "13800138000"]), catalog=catalog)
    assert store.state("ana").preferences == []


def test_a_statement_naming_a_member_or_a_number_stores_nothing(memory: Memory) -> None:
    for said in (
        "以后默认看华南",
        "以后默认按华南拆分",
        "我最关心GMV和100",
        "my favourite metrics are GMV and 13800138000",
    ):
        assert memory.learn("ana", said) is None
    assert memory.state("ana").preferences == []


def test_only_names_and_codes_reach_the_file(memory: Memory) -> None:
    """Whatever was said, the stored values are catalog names and codes, and the choice log
    holds dimension names only (no question, no member, no filter)."""
    for said in ("以后默认按渠道拆分", "answer in English", "我最关心GMV和订单量", "图表用折线图"):
        assert memory.learn("ana", said) is not None
    filtered = question("region").model_copy(update={"filters": (MemberFilter(dimension="region", members=("华南",)),)})
    memory.observe("ana", filtered)
    catalog = memory.catalog
    names = set(catalog.dimensions) | set(catalog.metrics) | {"zh", "en", "line"}
    with sqlite3.connect(memory.path) as con:
        values = [json.loads(v) for (v,) in con.execute("SELECT value FROM preferences")]
        logged = [json.loads(d) for (d,) in con.execute("SELECT dimensions FROM choices")]
        columns = {row[1] for row in con.execute("PRAGMA table_info(choices)")}
    flat = {v for value in values for v in (value if isinstance(value, list) else [value])}
    assert flat <= names
    assert logged == [["region"]]
    assert columns == {"id", "user", "ts", "dimensions"}


def test_learn_stores_nothing_while_memory_is_off(memory: Memory) -> None:
    memory.set_enabled("ana", False)
    assert memory.learn("ana", "以后默认按渠道拆分") is None
    assert memory.state("ana").preferences == []
    assert memory.state("ana").enabled is False


def test_set_takes_names_and_labels_and_stores_codes(memory: Memory) -> None:
    assert memory.set_preference("ana", "chart", "pie").value == "donut"
    assert memory.set_preference("ana", "chart", "折线图").value == "line"
    assert memory.set_preference("ana", "language", "English").value == "en"
    assert memory.set_preference("ana", "default_breakdown", "用户类型").value == "user_type"
    assert memory.set_preference("ana", "favourite_metrics", "GMV, orders, gmv").value == ["gmv", "order_count"]
    with pytest.raises(InvalidInput):
        memory.set_preference("ana", "chart", "radar")
    with pytest.raises(UnknownMetric):
        memory.set_preference("ana", "favourite_metrics", "revenue")  # two metrics answer to it: not one
