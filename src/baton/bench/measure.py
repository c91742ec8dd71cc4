"""What the benchmark measures in each delivered packet (the receiving agent's whole input).

* retention by class — of the must-keep items emitted by earlier steps, the share the packet
  contains: filters as normalised SQL ASTs (every conjunct of the planted predicate must be
  found among the predicates stated in the packet), assumptions and excluded paths verbatim,
  numbers by exact value followed by their unit (``1284317 CNY``, ``"value": "1284317", "unit": "CNY"``)
* numeric drift — (packet, number) pairs where the packet hands over a re-told form of an
  earlier number (``约128万`` for ``1284317 CNY``), whether or not the exact value is also there
* invariants — the task and every constraint so far are in the packet (Baton: the hash of the
  packet's task + constraints equals the truth), and the carried memory of step k is a prefix
  of step k+1's (Baton: the ledger snapshot)
* canary leaks — (canary, receiver) pairs where one agent's reasoning canary reaches another
  agent's packet, plus canaries found in the ledger
* contradiction survival — the report's packet holds both conflicting values exactly
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from baton.bench.chain import INITIAL_CONSTRAINTS, PII_COLUMN, TASK, ChainStep
from baton.bench.strategies import StrategyRun
from baton.context.ledger import is_prefix
from baton.context.relay import integrity_hash
from baton.context.sqlnorm import normalise_predicate, predicates_in_text
from baton.contracts.values import KeyNumber

CLASSES: tuple[str, ...] = ("filters", "assumptions", "excluded_paths", "numbers")


@lru_cache(maxsize=4096)
def _number_pattern(value: str, unit: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?<![\d.\-]){re.escape(value)}(?!\d|\.\d)[^\d\n]{{0,40}}?(?<![\w/-]){re.escape(unit)}(?![\w/-])"
    )


def number_present(number: KeyNumber, text: str) -> bool:
    """Exact value (as rendered at its precision) followed closely by its exact unit."""
    return _number_pattern(f"{number.value:.{number.precision}f}", number.unit).search(text) is not None


@dataclass(frozen=True)
class StepScore:
    step: int
    agent: str
    tokens: int
    found: dict[str, int]
    expected: dict[str, int]
    drift: int
    leaks: int
    pii_exposed: bool
    frame_intact: bool
    memory_prefix: bool


def _expected_items(earlier: Sequence[ChainStep]) -> dict[str, list[object]]:
    filters: dict[tuple[str, ...], None] = {}
    assumptions: dict[str, None] = {}
    excluded: dict[str, None] = {}
    numbers: dict[tuple[str, str], KeyNumber] = {}
    for s in earlier:
        for f in s.filters:
            filters[normalise_predicate(f.predicate, f.dialect)] = None
        for a in s.assumptions:
            assumptions[a.text] = None
        for x in s.excluded_paths:
            excluded[x.path] = None
        for p in s.planted_numbers:
            numbers[(str(p.number.value), p.number.unit)] = p.number
    return {
        "filters": list(filters),
        "assumptions": list(assumptions),
        "excluded_paths": list(excluded),
        "numbers": list(numbers.values()),
    }


def score_step(
    run: StrategyRun, idx: int, chain: Sequence[ChainStep], pii_values: Sequence[frozenset[str]]
) -> StepScore:
    delivery = run.deliveries[idx]
    text = delivery.text
    earlier = chain[:idx]
    expected = _expected_items(earlier)
    found = dict.fromkeys(CLASSES, 0)
    stated = predicates_in_text(text) if expected["filters"] else frozenset()
    for conjuncts in expected["filters"]:
        assert isinstance(conjuncts, tuple)
        found["filters"] += set(conjuncts) <= stated
    found["assumptions"] = sum(1 for a in expected["assumptions"] if isinstance(a, str) and a in text)
    found["excluded_paths"] = sum(1 for x in expected["excluded_paths"] if isinstance(x, str) and x in text)
    found["numbers"] = sum(1 for n in expected["numbers"] if isinstance(n, KeyNumber) and number_present(n, text))
    drift = sum(1 for s in earlier for p in s.planted_numbers if any(r in text for r in p.retellings))
    leaks = sum(1 for s in chain if s.step != delivery.step and s.canary in text)
    constraints = INITIAL_CONSTRAINTS + tuple(c for s in earlier for c in s.new_constraints)
    frame_intact = TASK.question in text and all(c in text for c in constraints)
    if delivery.frame_hash is not None:
        frame_intact = frame_intact and delivery.frame_hash == integrity_hash(TASK, constraints)
    if run.snapshots:
        memory_prefix = idx + 1 >= len(run.snapshots) or is_prefix(run.snapshots[idx], run.snapshots[idx + 1])
    elif idx + 1 < len(run.deliveries):
        nxt = run.deliveries[idx + 1].memory
        memory_prefix = nxt[: len(delivery.memory)] == delivery.memory
    else:
        memory_prefix = True
    pii_exposed = any(v in text for values in pii_values[:idx] for v in values)
    return StepScore(
        step=delivery.step,
        agent=delivery.agent,
        tokens=delivery.tokens,
        found=found,
        expected={k: len(v) for k, v in expected.items()},
        drift=drift,
        leaks=leaks,
        pii_exposed=pii_exposed,
        frame_intact=frame_intact,
        memory_prefix=memory_prefix,
    )


def conflicting_facts(chain: Sequence[ChainStep]) -> list[KeyNumber]:
    """Planted facts whose metric, normalised scope and period repeat with a different value."""
    groups: dict[tuple[object, ...], dict[tuple[str, str], KeyNumber]] = {}
    for s in chain:
        for p in s.planted_numbers:
            n = p.number
            if not n.is_fact:
                continue
            scope = n.scope
            filters = tuple(sorted(c for f in (scope.filters if scope else ()) for c in normalise_predicate(f)))
            members = scope.members if scope else ()
            groups.setdefault((n.metric, filters, members, n.period), {})[(str(n.value), n.unit)] = n
    return [n for values in groups.values() if len(values) > 1 for n in values.values()]


def contradiction_survives(run: StrategyRun, chain: Sequence[ChainStep]) -> bool:
    """The report's packet carries both conflicting values (and, with a ledger, the record)."""
    conflicting = conflicting_facts(chain)
    if len(conflicting) < 2:
        return False
    final = run.deliveries[-1].text
    in_packet = all(number_present(n, final) for n in conflicting)
    if run.ledger is None:
        return in_packet
    recorded = {v for c in run.ledger.contradictions for v in (c.values[0].value, c.values[1].value)}
    return in_packet and all(n.value in recorded for n in conflicting)


def ledger_leaks(run: StrategyRun, chain: Sequence[ChainStep]) -> int:
    if run.ledger is None:
        return 0
    dumped = run.ledger.model_dump_json()
    return sum(1 for s in chain if s.canary in dumped)


def pii_values_by_step(chain: Sequence[ChainStep]) -> list[frozenset[str]]:
    out = []
    for s in chain:
        rows = getattr(s.output, "rows", ())
        out.append(frozenset(str(r[PII_COLUMN]) for r in rows if PII_COLUMN in r))
    return out
