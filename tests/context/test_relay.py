"""Relay invariants: valid chains pass for arbitrary step sequences; every kind of violation is caught."""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baton.context import check_chain, check_handoff, integrity_hash, pass_baton, start_relay
from baton.contracts.agent_outputs import OUTPUT_MODELS, StatsOutput
from baton.contracts.handoff import MUST_KEEP_FIELDS, Baton, Lineage, MustKeep, Task
from baton.contracts.values import AppliedFilter, Assumption, ExcludedPath
from baton.errors import HandoffViolation
from tests.context.samples import TASK, analysis_output, number, sql_output

AGENTS = ("quality", "stats", "trend", "insight")
PREDICATES = ("status = 'paid'", "channel = 'app'", "dt >= DATE '2026-06-01'", "region IN ('华东', '华南')")

step_spec = st.fixed_dictionaries(
    {
        "agent": st.sampled_from(AGENTS),
        "assumptions": st.lists(st.text(alphabet="数据延迟假设abc ", min_size=1, max_size=8), max_size=2),
        "excluded": st.lists(st.text(alphabet="排除竞品季节xyz", min_size=1, max_size=8), max_size=2),
        "numbers": st.lists(
            st.decimals(min_value=-(10**9), max_value=10**9, places=4, allow_nan=False, allow_infinity=False),
            max_size=2,
        ),
        "constraints": st.lists(st.sampled_from(["只读", "单位 CNY", "剔除 6/18", "原样引用数字"]), max_size=2),
    }
)


def build_chain(specs: list[dict[str, Any]], first_filters: list[str]) -> list[Baton]:
    first = sql_output(filters=first_filters)
    batons = [start_relay(TASK, first, run_id="run-1", constraints=("只读",), expected_output=OUTPUT_MODELS["sql"])]
    for i, spec in enumerate(specs, start=2):
        nums = [number(f"n{i}_{j}", v, "ratio") for j, v in enumerate(spec["numbers"])]
        out = analysis_output(
            spec["agent"],
            f"{spec['agent']}-{i}",
            assumptions=spec["assumptions"],
            excluded=spec["excluded"],
            numbers=nums,
        )
        batons.append(
            pass_baton(
                batons[-1], out, new_constraints=spec["constraints"], expected_output=OUTPUT_MODELS[spec["agent"]]
            )
        )
    return batons


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step_spec, min_size=1, max_size=7), st.lists(st.sampled_from(PREDICATES), min_size=1, max_size=3))
def test_arbitrary_valid_sequences_pass_and_only_grow(specs: list[dict[str, Any]], filters: list[str]) -> None:
    batons = build_chain(specs, filters)
    check_chain(batons, [OUTPUT_MODELS["sql"]] + [OUTPUT_MODELS[s["agent"]] for s in specs])
    for prev, nxt in itertools.pairwise(batons):
        assert nxt.task == prev.task
        assert nxt.constraints[: len(prev.constraints)] == prev.constraints
        for name in MUST_KEEP_FIELDS:
            old, new = getattr(prev.must_keep, name), getattr(nxt.must_keep, name)
            assert new[: len(old)] == old
        assert nxt.lineage.parent_context_id == prev.lineage.context_id
    # every number any step stated is in the last baton's must_keep, exactly
    stated = {n.value for b in batons for n in b.payload.must_keep_numbers()}
    assert stated <= {n.value for n in batons[-1].must_keep.key_numbers}


def _violations(prev: Baton, good: Baton) -> list[tuple[str, Baton]]:
    mk = good.must_keep
    lin = good.lineage
    out: list[tuple[str, Baton]] = [
        ("task", good.model_copy(update={"task": Task(question=prev.task.question + "？", language="zh")})),
        ("constraints", good.model_copy(update={"constraints": good.constraints[1:]})),
        ("constraints", good.model_copy(update={"constraints": ("改写", *good.constraints[1:])})),
        ("lineage.run_id", good.model_copy(update={"lineage": lin.model_copy(update={"run_id": "other"})})),
        ("lineage.step", good.model_copy(update={"lineage": lin.model_copy(update={"step": lin.step + 1})})),
        (
            "lineage.parent_context_id",
            good.model_copy(update={"lineage": lin.model_copy(update={"parent_context_id": "ctx-x"})}),
        ),
        (
            "lineage.context_id",
            good.model_copy(update={"lineage": lin.model_copy(update={"context_id": prev.lineage.context_id})}),
        ),
        (
            "must_keep.filters_applied",
            good.model_copy(update={"must_keep": mk.model_copy(update={"filters_applied": mk.filters_applied[1:]})}),
        ),
        (
            "must_keep.filters_applied",
            good.model_copy(
                update={
                    "must_keep": mk.model_copy(
                        update={
                            "filters_applied": (AppliedFilter(predicate="status = 'refunded'"), *mk.filters_applied[1:])
                        }
                    )
                }
            ),
        ),
        (
            "must_keep.assumptions",
            good.model_copy(update={"must_keep": mk.model_copy(update={"assumptions": mk.assumptions[1:]})}),
        ),
        (
            "must_keep.assumptions",
            good.model_copy(
                update={"must_keep": mk.model_copy(update={"assumptions": tuple(reversed(mk.assumptions))})}
            ),
        ),
        (
            "must_keep.excluded_paths",
            good.model_copy(update={"must_keep": mk.model_copy(update={"excluded_paths": ()})}),
        ),
        (
            "must_keep.key_numbers",
            good.model_copy(update={"must_keep": mk.model_copy(update={"key_numbers": mk.key_numbers[1:]})}),
        ),
        (
            "must_keep.key_numbers",  # "1284317" re-told as "约128万": the value changed
            good.model_copy(
                update={
                    "must_keep": mk.model_copy(
                        update={
                            "key_numbers": (
                                mk.key_numbers[0].model_copy(update={"value": Decimal(1280000)}),
                                *mk.key_numbers[1:],
                            )
                        }
                    )
                }
            ),
        ),
    ]
    return out


def _two_step_chain() -> tuple[Baton, Baton]:
    first = sql_output(filters=["status = 'paid'", "channel = 'app'"], numbers=[number("gmv", 1284317)])
    b1 = start_relay(
        TASK,
        first,
        run_id="run-1",
        constraints=("只读", "单位 CNY"),
        must_keep=MustKeep(
            assumptions=(Assumption(text="数据延迟不超过24小时"),), excluded_paths=(ExcludedPath(path="排除测试订单"),)
        ),
    )
    out = analysis_output(
        "stats",
        "stats-2",
        assumptions=["近似正态"],
        excluded=["排除取消订单"],
        numbers=[number("p", "0.0312", "p-value")],
    )
    b2 = pass_baton(b1, out, new_constraints=("剔除 6/18",))
    return b1, b2


def test_every_kind_of_violation_is_caught_naming_field_and_step() -> None:
    prev, good = _two_step_chain()
    check_handoff(prev, good, StatsOutput)  # the untouched successor passes
    cases = _violations(prev, good)
    assert {field for field, _ in cases} >= {
        "task",
        "constraints",
        "lineage.step",
        *(f"must_keep.{f}" for f in MUST_KEEP_FIELDS),
    }
    for field, bad in cases:
        with pytest.raises(HandoffViolation) as info:
            check_handoff(prev, bad, StatsOutput)
        assert info.value.detail["field"] == field, field
        assert info.value.detail["step"] == bad.lineage.step
        assert field in str(info.value) and f"step {bad.lineage.step}" in str(info.value)
        assert info.value.error_code == "handoff_violation"
        assert "交接违规" in info.value.message("zh")


def test_payload_must_be_the_declared_model_and_valid() -> None:
    prev, good = _two_step_chain()
    with pytest.raises(HandoffViolation) as wrong_model:
        check_handoff(prev, good, OUTPUT_MODELS["trend"])
    assert wrong_model.value.detail["field"] == "payload"
    broken = StatsOutput.model_construct(
        task_id="",
        findings=(),
        assumptions_made=(),
        paths_excluded=(),
        confidence=7.0,
        agent="stats",
        tests=(),
        next_steps_suggested=(),
        analysis_type="test",
        input_task_id=None,
    )
    bad = good.model_copy(update={"payload": broken})
    with pytest.raises(HandoffViolation) as invalid:
        check_handoff(prev, bad, StatsOutput)
    assert invalid.value.detail == {"field": "payload", "step": 2}


@settings(max_examples=25, deadline=None)
@given(st.lists(step_spec, min_size=2, max_size=5), st.data())
def test_a_violation_anywhere_in_a_chain_fails_the_chain(specs: list[dict[str, Any]], data: st.DataObject) -> None:
    batons = build_chain(specs, ["status = 'paid'"])
    k = data.draw(st.integers(min_value=1, max_value=len(batons) - 1))
    victim = batons[k]
    tampered = victim.model_copy(update={"task": Task(question="改了任务")})
    broken = [*batons[:k], tampered, *batons[k + 1 :]]
    with pytest.raises(HandoffViolation) as info:
        check_chain(broken)
    assert info.value.detail["field"] == "task"
    assert info.value.detail["step"] == k + 1


def test_integrity_hash_is_stable_and_sensitive() -> None:
    prev, good = _two_step_chain()
    assert integrity_hash(prev.task, prev.constraints) == integrity_hash(TASK, ("只读", "单位 CNY"))
    assert integrity_hash(good.task, good.constraints) != integrity_hash(prev.task, prev.constraints)


def test_lineage_root_and_children_are_validated() -> None:
    with pytest.raises(ValueError, match="parent"):
        Lineage(run_id="r", step=2, context_id="c2")
    with pytest.raises(ValueError, match="no parent"):
        Lineage(run_id="r", step=1, context_id="c1", parent_context_id="c0")


def test_same_filter_spelled_differently_is_kept_once() -> None:
    first = sql_output(filters=["o.status='paid'"])
    b1 = start_relay(TASK, first, run_id="r")
    b2 = pass_baton(b1, sql_output(task_id="sql-2", filters=["STATUS = 'paid'", "channel = 'app'"]))
    assert [f.predicate for f in b2.must_keep.filters_applied] == ["o.status='paid'", "channel = 'app'"]
