"""Language models behind one protocol (DESIGN §2, §8): messages in, one completion out.

``open_provider(settings)`` gives the :class:`Provider` for an ``[llm]`` section. Importing
this package does not import the ``openai`` client; that happens when a provider is opened,
and the client is an optional extra (``pip install 'baton-analyst[llm]'``).
"""

from __future__ import annotations

import importlib

from baton.errors import ModelFailure
from baton.llm.protocol import ChatMessage, Completion, FailureReason, Provider
from baton.llm.settings import LlmSettings
from baton.messages import both

__all__ = ["ChatMessage", "Completion", "FailureReason", "LlmSettings", "Provider", "open_provider"]


def open_provider(settings: LlmSettings) -> Provider:
    """The provider for ``settings``; raises ``ModelFailure`` (reason ``not_configured``) when
    the ``openai`` package is not installed. No connection is made until the first call."""
    try:
        importlib.import_module("openai")
    except ImportError as exc:
        raise ModelFailure(*both("llm.not_installed"), detail={"reason": "not_configured"}) from exc
    from baton.llm.openai_client import OpenAIProvider

    return OpenAIProvider(settings)
