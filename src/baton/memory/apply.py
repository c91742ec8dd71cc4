"""A remembered default breakdown as the planners' default — only where a question leaves it open.

A question that asks for a breakdown without naming its dimension ("拆开看看", "top 3?", "break
it down") is asked back; with a remembered ``default_breakdown`` the planners use that one
instead, and the answer's assumptions say so and how to undo it. A question that asked for one
figure is never split by a default: that would answer a different question. Nothing is used
while the user's memory is off.
"""

from __future__ import annotations

from baton.catalog.model import Catalog
from baton.contracts.common import Language
from baton.contracts.memory import MemoryState
from baton.messages import localized, text

__all__ = ["default_breakdown"]


def default_breakdown(state: MemoryState, catalog: Catalog, language: Language) -> tuple[str, str] | None:
    """The remembered default breakdown (a catalog dimension) and the assumption sentence (in
    ``language``) that states its use; ``None`` when none is remembered or memory is off."""
    pref = state.get("default_breakdown")
    if not state.enabled or pref is None or not isinstance(pref.value, str) or pref.value not in catalog.dimensions:
        return None
    note = text(
        "memory.applied_breakdown",
        language,
        dimension=catalog.dimensions[pref.value].label.for_lang(language),
        **localized("how", f"memory.how_{pref.source}"),
    )
    return pref.value, note
